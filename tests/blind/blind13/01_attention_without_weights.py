"""Blind set 13, notebook 01: Attention without trainable weights. Written from notebooks/01_attention_without_weights.ipynb only."""

MISTAKES = {
    "scores_for_query": {
        "elementwise_no_sum": (["sum", "dot product", "element-wise", "elementwise"], '''
def scores_for_query(query, inputs):
    return inputs * query
'''),
        "sum_over_tokens": (["axis", "dim", "sum over", "tokens"], '''
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=0)
'''),
        "self_scores": (["query", "itself", "inputs @ inputs"], '''
def scores_for_query(query, inputs):
    return (inputs @ inputs.T)[0]
'''),
        "loop_off_by_one": (["loop", "range", "last token", "every token"], '''
def scores_for_query(query, inputs):
    scores = torch.zeros(inputs.shape[0], dtype=inputs.dtype)
    for i in range(inputs.shape[0] - 1):
        scores[i] = torch.dot(inputs[i], query)
    return scores
'''),
    },
    "softmax_stable": {
        "no_max_subtraction": (["overflow", "maximum", "subtract", "max"], '''
def softmax_stable(scores):
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "global_max_sum": (["last dimension", "row", "dim", "each row"], '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    exps = torch.exp(scores - scores.max())
    return exps / exps.sum()
'''),
        "sum_no_keepdim_dim0": (["dim", "axis", "rows", "columns"], '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=0, keepdim=True)
'''),
        "in_place_subtract": (["in place", "in-place", "modif", "change"], '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    scores -= scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "add_max": (["subtract", "maximum", "sign", "overflow"], '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    exps = torch.exp(scores + scores.max(dim=-1, keepdim=True).values)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
    },
    "context_vector": {
        "weights_times_scores": (["input vector", "inputs", "scores", "embedding"], '''
def context_vector(weights, inputs):
    return weights * (inputs @ inputs[1])
'''),
        "sum_wrong_dim": (["sum over", "tokens", "dim", "axis"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
'''),
        "mean_instead_of_sum": (["mean", "average", "sum"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).mean(dim=0)
'''),
        "unweighted_sum": (["weight", "multiply", "unweighted"], '''
def context_vector(weights, inputs):
    return inputs.sum(dim=0)
'''),
    },
    "self_attention_no_weights": {
        "softmax_dim0": (["dim", "column", "row", "axis"], '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=0)
    return weights @ inputs
'''),
        "scaled_sqrt_d": (["sqrt", "scale", "divide", "simplified"], '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T / inputs.shape[-1] ** 0.5
    return torch.softmax(scores, dim=-1) @ inputs
'''),
        "no_softmax": (["softmax", "normalis", "normaliz", "raw scores"], '''
def self_attention_no_weights(inputs):
    return (inputs @ inputs.T) @ inputs
'''),
        "weights_transposed": (["transpose", "weights.t", "rows", "columns"], '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
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
    },
    "softmax_stable": {
        "max_keepdim": '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    shifted = scores - scores.amax(dim=-1, keepdim=True)
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "logsumexp": '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    return torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True))
''',
    },
    "context_vector": {
        "vecmat": '''
def context_vector(weights, inputs):
    return weights @ inputs
''',
        "loop": '''
def context_vector(weights, inputs):
    total = torch.zeros_like(inputs[0])
    for w, x in zip(weights, inputs):
        total = total + w * x
    return total
''',
    },
    "self_attention_no_weights": {
        "torch_softmax": '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
    return weights @ inputs
''',
        "einsum": '''
def self_attention_no_weights(inputs):
    scores = torch.einsum("id,jd->ij", inputs, inputs)
    weights = torch.softmax(scores, dim=-1)
    return torch.einsum("ij,jd->id", weights, inputs)
''',
    },
}
