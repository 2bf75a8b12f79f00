"""Blind set 1, notebook 01: Attention without trainable weights (PyTorch). Written from notebooks/01_attention_without_weights.ipynb only."""

MISTAKES = {
    "scores_for_query": {
        "elementwise_no_sum": (["add them up", "add up", "elementwise", "element-wise", "products"], '''
def scores_for_query(query, inputs):
    # multiply matching entries ... and forget to add them up
    return inputs * query
'''),
        "sum_over_tokens_dim0": (["dim=-1", "dim=1", "over the tokens", "each row"], '''
def scores_for_query(query, inputs):
    return torch.sum(inputs * query, dim=0)
'''),
        "torch_dot_on_matrix": (["1-d", "1d", "matrix-vector", "torch.dot"], '''
def scores_for_query(query, inputs):
    return torch.dot(inputs, query)
'''),
        "softmax_too_early": (["softmax", "raw dot product", "not normalis", "scores, not weights"], '''
def scores_for_query(query, inputs):
    scores = inputs @ query
    return torch.softmax(scores, dim=0)
'''),
        "cosine_similarity": (["cosine", "lengths", "divide by the norm", "norms"], '''
def scores_for_query(query, inputs):
    return (inputs @ query) / (inputs.norm(dim=1) * query.norm())
'''),
    },
    "softmax_stable": {
        "no_max_subtraction": (["overflow", "maximum", "subtract"], '''
def softmax_stable(scores):
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "global_max_not_per_row": (["each row", "per row", "keepdim", "row's maximum", "underflow"], '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max())
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "sum_over_dim0": (["dim=-1", "last dimension", "columns", "dim=0"], '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=0, keepdim=True)
'''),
        "missing_keepdim": (["keepdim", "broadcast"], '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=-1)
'''),
        "inplace_subtract": (["in place", "in-place", "modif", "clone", "must not change"], '''
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "max_without_values": ([".values", "namedtuple", "tuple", "amax"], '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max(dim=-1, keepdim=True))
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
    },
    "context_vector": {
        "no_sum_over_tokens": (["add up", "over the tokens", "weighted sum", "sum over"], '''
def context_vector(weights, inputs):
    return weights[:, None] * inputs
'''),
        "sum_over_wrong_dim": (["dim=0", "over the tokens", "wrong dim", "dim=1"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
'''),
        "mean_instead_of_sum": (["mean", "average", "instead of a sum"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).mean(dim=0)
'''),
        "softmax_again": (["softmax", "already", "twice", "normalis"], '''
def context_vector(weights, inputs):
    weights = torch.softmax(weights, dim=0)
    return weights @ inputs
'''),
        "loop_skips_first_token": (["first token", "every token", "all tokens", "skip", "range("], '''
def context_vector(weights, inputs):
    context = torch.zeros_like(inputs[0])
    for i in range(1, len(weights)):
        context += weights[i] * inputs[i]
    return context
'''),
    },
    "self_attention_no_weights": {
        "softmax_over_columns": (["dim=-1", "rows", "columns", "dim=0"], '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = torch.softmax(scores, dim=0)
    return weights @ inputs
'''),
        "returns_weights": (["context vectors", "weights @ inputs", "weighted sum", "not the weights"], '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    return softmax_stable(scores)
'''),
        "gram_wrong_side": (["inputs @ inputs.t", "(tokens, tokens)", "transpose", "token by token"], '''
def self_attention_no_weights(inputs):
    scores = inputs.T @ inputs
    weights = softmax_stable(scores)
    return inputs @ weights
'''),
        "scaled_by_sqrt_d": (["scale", "sqrt", "no scaling", "√"], '''
def self_attention_no_weights(inputs):
    d = inputs.shape[-1]
    scores = inputs @ inputs.T / d ** 0.5
    return softmax_stable(scores) @ inputs
'''),
        "normalised_by_sum": (["softmax", "divide by the sum", "dividing by the sum", "torch.exp"], '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = scores / scores.sum(dim=-1, keepdim=True)
    return weights @ inputs
'''),
        "weights_transposed": (["transpose", "rows", "columns", "weights.t"], '''
def self_attention_no_weights(inputs):
    weights = softmax_stable(inputs @ inputs.T)
    return weights.T @ inputs
'''),
    },
}

VARIANTS = {
    "scores_for_query": {
        "matvec": '''
def scores_for_query(query, inputs):
    return inputs @ query
''',
        "loop_dot": '''
def scores_for_query(query, inputs):
    return torch.stack([torch.dot(row, query) for row in inputs])
''',
        "einsum": '''
def scores_for_query(query, inputs):
    return torch.einsum("td,d->t", inputs, query)
''',
    },
    "softmax_stable": {
        "amax": '''
def softmax_stable(scores):
    shifted = scores - torch.amax(scores, dim=-1, keepdim=True)
    exps = torch.exp(shifted)
    return exps / torch.sum(exps, dim=-1, keepdim=True)
''',
        "logsumexp": '''
def softmax_stable(scores):
    return torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True))
''',
    },
    "context_vector": {
        "vecmat": '''
def context_vector(weights, inputs):
    return weights @ inputs
''',
        "einsum": '''
def context_vector(weights, inputs):
    return torch.einsum("t,td->d", weights, inputs)
''',
        "loop": '''
def context_vector(weights, inputs):
    context = torch.zeros_like(inputs[0])
    for weight, row in zip(weights, inputs):
        context = context + weight * row
    return context
''',
    },
    "self_attention_no_weights": {
        "own_softmax": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = softmax_stable(scores)
    return weights @ inputs
''',
        "einsum_functional": '''
def self_attention_no_weights(inputs):
    scores = torch.einsum("id,jd->ij", inputs, inputs)
    weights = torch.nn.functional.softmax(scores, dim=-1)
    return torch.einsum("ij,jd->id", weights, inputs)
''',
    },
}
