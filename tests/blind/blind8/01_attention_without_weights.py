"""Blind set 8, notebook 01: Attention without trainable weights. Written from notebooks/01_attention_without_weights.ipynb only."""

MISTAKES = {
    "scores_for_query": {
        "sum_not_dot": (["sum", "multiply", "elementwise", "dot product"], '''
def scores_for_query(query, inputs):
    return inputs * query
'''),
        "matmul_transposed_keeps_all": (["matrix", "every token", "all pairs", "matrix-vector"], '''
def scores_for_query(query, inputs):
    return inputs @ inputs.T
'''),
        "norm_instead_of_dot": (["cosine", "normalise", "length", "norm"], '''
def scores_for_query(query, inputs):
    return (inputs @ query) / (inputs.norm(dim=-1) * query.norm())
'''),
        "loop_stops_early": (["loop", "last token", "range", "every row"], '''
def scores_for_query(query, inputs):
    scores = torch.zeros(inputs.shape[0])
    for i in range(inputs.shape[0] - 1):
        scores[i] = torch.dot(inputs[i], query)
    return scores
'''),
        "sum_over_tokens": (["axis", "dim", "over the tokens", "sum"], '''
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=0)
'''),
    },
    "softmax_stable": {
        "no_max_subtraction": (["overflow", "maximum", "max", "subtract"], '''
def softmax_stable(scores):
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "global_max_sum": (["last dimension", "each row", "dim", "keepdim"], '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max())
    return exps / exps.sum()
'''),
        "max_without_keepdim": (["keepdim", "broadcast", "dim"], '''
def softmax_stable(scores):
    m = scores.max(dim=-1).values
    exps = torch.exp(scores - m)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "in_place_subtract": (["in place", "in-place", "modif", "changes scores", "copy"], '''
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "normalise_dim0": (["dim=0", "first dimension", "columns", "last dimension"], '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max(dim=0, keepdim=True).values)
    return exps / exps.sum(dim=0, keepdim=True)
'''),
        "divide_by_sum_of_scores": (["softmax", "exp", "sum of the scores", "divide"], '''
def softmax_stable(scores):
    return scores / scores.sum(dim=-1, keepdim=True)
'''),
    },
    "context_vector": {
        "weights_times_scores_sum": (["scalar", "one number", "vector", "sum over"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum()
'''),
        "wrong_sum_axis": (["axis", "dim", "tokens", "sum over"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
'''),
        "forgot_to_sum": (["sum", "add up", "weighted sum", "(tokens, d)"], '''
def context_vector(weights, inputs):
    return weights[:, None] * inputs
'''),
        "mean_not_sum": (["mean", "average", "instead of a sum"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).mean(dim=0)
'''),
        "unweighted": (["weights", "weighted", "multiply"], '''
def context_vector(weights, inputs):
    return inputs.sum(dim=0)
'''),
    },
    "self_attention_no_weights": {
        "softmax_dim0": (["dim=0", "columns", "rows", "dim=-1"], '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=0)
    return weights @ inputs
'''),
        "scaled_sqrt_d": (["sqrt", "scale", "divide", "d_k"], '''
def self_attention_no_weights(inputs):
    d = inputs.shape[-1]
    weights = torch.softmax(inputs @ inputs.T / d ** 0.5, dim=-1)
    return weights @ inputs
'''),
        "return_weights": (["weights", "context", "@ inputs", "second product"], '''
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1)
'''),
        "no_softmax": (["softmax", "normalis", "scores"], '''
def self_attention_no_weights(inputs):
    return (inputs @ inputs.T) @ inputs
'''),
        "weights_transposed": (["transpose", "rows", "columns", ".t"], '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
    return weights.T @ inputs
'''),
        "divide_by_sum": (["softmax", "exp", "sum of the scores"], '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = scores / scores.sum(dim=-1, keepdim=True)
    return weights @ inputs
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
    scores = torch.empty(inputs.shape[0], dtype=torch.promote_types(query.dtype, inputs.dtype))
    for i, x_i in enumerate(inputs):
        scores[i] = torch.dot(x_i, query)
    return scores
''',
        "einsum": '''
def scores_for_query(query, inputs):
    return torch.einsum("td,d->t", inputs, query)
''',
    },
    "softmax_stable": {
        "keepdim_max": '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "amax_logsumexp": '''
def softmax_stable(scores):
    shifted = scores - torch.amax(scores, dim=-1, keepdim=True)
    return torch.exp(shifted - torch.log(torch.exp(shifted).sum(-1, keepdim=True)))
''',
    },
    "context_vector": {
        "vecmat": '''
def context_vector(weights, inputs):
    return weights @ inputs
''',
        "loop": '''
def context_vector(weights, inputs):
    z = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
    for w, x in zip(weights, inputs):
        z = z + w * x
    return z
''',
    },
    "self_attention_no_weights": {
        "torch_softmax": '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
    return weights @ inputs
''',
        "own_softmax_einsum": '''
def self_attention_no_weights(inputs):
    scores = torch.einsum("id,jd->ij", inputs, inputs)
    exps = torch.exp(scores - scores.max(dim=1, keepdim=True).values)
    weights = exps / exps.sum(dim=1, keepdim=True)
    return torch.einsum("ij,jd->id", weights, inputs)
''',
    },
}
