"""Blind set 10, notebook 01: attention without weights. Written from notebooks/01_attention_without_weights.ipynb only."""

MISTAKES = {
    "scores_for_query": {
        "elementwise_no_sum": (["sum", "add up", "dot product"], '''
def scores_for_query(query, inputs):
    return inputs * query
'''),
        "loop_off_by_one": (["loop", "range", "every token", "last token"], '''
def scores_for_query(query, inputs):
    scores = torch.empty(inputs.shape[0])
    for i in range(inputs.shape[0] - 1):
        scores[i] = torch.dot(inputs[i], query)
    scores[-1] = 0.0
    return scores
'''),
        "sum_over_tokens": (["axis", "dim", "tokens"], '''
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=0)
'''),
        "normalised_scores": (["softmax", "normalis", "raw"], '''
def scores_for_query(query, inputs):
    return torch.softmax(inputs @ query, dim=-1)
'''),
    },
    "softmax_stable": {
        "no_max_subtraction": (["maximum", "max", "overflow"], '''
def softmax_stable(scores):
    e = torch.exp(scores)
    return e / e.sum(dim=-1, keepdim=True)
'''),
        "global_max_sum": (["last dim", "row", "keepdim", "each row"], '''
def softmax_stable(scores):
    e = torch.exp(scores - scores.max())
    return e / e.sum()
'''),
        "wrong_dim_zero": (["dim", "columns", "last dimension"], '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=0, keepdim=True).values
    e = torch.exp(shifted)
    return e / e.sum(dim=0, keepdim=True)
'''),
        "in_place_change": (["in place", "in-place", "modif", "change"], '''
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    scores.exp_()
    return scores / scores.sum(dim=-1, keepdim=True)
'''),
        "min_instead_of_max": (["max", "minimum", "largest"], '''
def softmax_stable(scores):
    e = torch.exp(scores - scores.min(dim=-1, keepdim=True).values)
    return e / e.sum(dim=-1, keepdim=True)
'''),
    },
    "context_vector": {
        "scalar_weighted_sum": (["vector", "each weight multiplies", "whole"], '''
def context_vector(weights, inputs):
    return (weights * inputs.sum(dim=1)).sum() * torch.ones(inputs.shape[1])
'''),
        "sum_wrong_axis": (["axis", "dim", "tokens", "rows"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
'''),
        "mean_not_sum": (["mean", "average", "sum"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).mean(dim=0)
'''),
        "unweighted": (["weights", "weighted", "ignore"], '''
def context_vector(weights, inputs):
    return inputs.sum(dim=0)
'''),
    },
    "self_attention_no_weights": {
        "softmax_columns": (["columns", "dim", "rows", "axis"], '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=0)
    return weights @ inputs
'''),
        "scaled": (["sqrt", "scale", "divide"], '''
def self_attention_no_weights(inputs):
    d = inputs.shape[-1]
    weights = torch.softmax(inputs @ inputs.T / d ** 0.5, dim=-1)
    return weights @ inputs
'''),
        "no_softmax": (["softmax", "normalis", "sum to 1"], '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    return scores @ inputs
'''),
        "transposed_weights": (["transpose", "weights.t", "rows", "columns"], '''
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
    scores = torch.empty(inputs.shape[0], dtype=inputs.dtype)
    for i, x_i in enumerate(inputs):
        scores[i] = torch.dot(x_i, query)
    return scores
''',
    },
    "softmax_stable": {
        "max_keepdim": '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    e = torch.exp(shifted)
    return e / e.sum(dim=-1, keepdim=True)
''',
        "amax_logsumexp": '''
def softmax_stable(scores):
    m = torch.amax(scores, dim=-1, keepdim=True)
    e = torch.exp(scores - m)
    return e / torch.sum(e, dim=-1, keepdim=True)
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
    for i, x_i in enumerate(inputs):
        z = z + weights[i] * x_i
    return z
''',
    },
    "self_attention_no_weights": {
        "matrix": '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
    return weights @ inputs
''',
        "einsum": '''
def self_attention_no_weights(inputs):
    scores = torch.einsum("id,jd->ij", inputs, inputs)
    weights = softmax_stable(scores)
    return torch.einsum("ij,jd->id", weights, inputs)
''',
    },
}
