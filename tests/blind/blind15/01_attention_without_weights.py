"""Blind set 15, notebook 01: Attention without trainable weights. Written from notebooks/01_attention_without_weights.ipynb only."""

MISTAKES = {
    "scores_for_query": {
        "elementwise_no_sum": (["sum", "dot product", "elementwise"], '''
def scores_for_query(query, inputs):
    return inputs * query
'''),
        "sum_over_tokens": (["axis", "dim", "tokens"], '''
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=0)
'''),
        "normalised_scores": (["normalis", "softmax", "raw"], '''
def scores_for_query(query, inputs):
    s = inputs @ query
    return s / s.sum()
'''),
        "loop_skips_last": (["loop", "last", "range"], '''
def scores_for_query(query, inputs):
    out = torch.zeros(inputs.shape[0], dtype=inputs.dtype)
    for i in range(inputs.shape[0] - 1):
        out[i] = torch.dot(inputs[i], query)
    return out
'''),
    },
    "softmax_stable": {
        "no_max_subtraction": (["overflow", "maximum", "subtract"], '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    e = torch.exp(scores)
    return e / e.sum(dim=-1, keepdim=True)
'''),
        "global_max": (["maximum", "row", "each row"], '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    e = torch.exp(scores - scores.max())
    return e / e.sum(dim=-1, keepdim=True)
'''),
        "sum_over_all": (["sum", "last dimension", "dim"], '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    e = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
    return e / e.sum()
'''),
        "wrong_dim_zero": (["dim", "last", "columns"], '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    e = torch.exp(scores - scores.max(dim=0, keepdim=True).values)
    return e / e.sum(dim=0, keepdim=True)
'''),
        "inplace_subtract": (["in place", "in-place", "change", "modif"], '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    scores -= scores.max(dim=-1, keepdim=True).values
    e = torch.exp(scores)
    return e / e.sum(dim=-1, keepdim=True)
'''),
        "min_instead_of_max": (["maximum", "minimum", "overflow"], '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    e = torch.exp(scores - scores.min(dim=-1, keepdim=True).values)
    return e / e.sum(dim=-1, keepdim=True)
'''),
    },
    "context_vector": {
        "weights_times_scores": (["input vector", "scores", "vector"], '''
def context_vector(weights, inputs):
    return (weights * (inputs @ inputs[1])).sum()
'''),
        "sum_wrong_axis": (["axis", "dim", "tokens"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
'''),
        "mean_instead_of_sum": (["mean", "average", "sum"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).mean(dim=0)
'''),
        "no_sum": (["sum", "add"], '''
def context_vector(weights, inputs):
    return weights[:, None] * inputs
'''),
    },
    "self_attention_no_weights": {
        "softmax_dim0": (["dim", "row", "columns"], '''
def self_attention_no_weights(inputs):
    w = torch.softmax(inputs @ inputs.T, dim=0)
    return w @ inputs
'''),
        "scaled_sqrt_d": (["sqrt", "scale", "divide"], '''
def self_attention_no_weights(inputs):
    w = torch.softmax(inputs @ inputs.T / inputs.shape[1] ** 0.5, dim=-1)
    return w @ inputs
'''),
        "no_softmax": (["softmax", "normalis", "weights"], '''
def self_attention_no_weights(inputs):
    return (inputs @ inputs.T) @ inputs
'''),
        "transposed_weights": (["transpose", "row", "column"], '''
def self_attention_no_weights(inputs):
    w = torch.softmax(inputs @ inputs.T, dim=-1)
    return w.T @ inputs
'''),
        "returns_weights": (["weights", "context", "inputs"], '''
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1)
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
        "max_subtract": '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    e = torch.exp(shifted)
    return e / e.sum(dim=-1, keepdim=True)
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
        "einsum": '''
def context_vector(weights, inputs):
    return torch.einsum("t,td->d", weights, inputs)
''',
    },
    "self_attention_no_weights": {
        "matmul": '''
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1) @ inputs
''',
        "own_softmax": '''
def self_attention_no_weights(inputs):
    s = inputs @ inputs.mT
    e = torch.exp(s - s.max(dim=-1, keepdim=True).values)
    return (e / e.sum(dim=-1, keepdim=True)) @ inputs
''',
    },
}
