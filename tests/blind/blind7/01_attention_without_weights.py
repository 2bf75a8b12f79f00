"""Blind set 7, notebook 01: Attention without trainable weights (PyTorch). Written from notebooks/01_attention_without_weights.ipynb only."""

MISTAKES = {
    "scores_for_query": {
        "elementwise_no_sum": (["sum", "add up", "element-wise", "elementwise"], '''
def scores_for_query(query, inputs):
    return inputs * query
'''),
        "sum_over_tokens": (["axis", "dim", "tokens", "last dimension"], '''
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=0)
'''),
        "query_with_itself": (["query", "itself", "every row", "inputs[i]"], '''
def scores_for_query(query, inputs):
    return torch.stack([torch.dot(query, query) for x in inputs])
'''),
        "normalised_by_sum": (["normalis", "divide", "sum", "raw"], '''
def scores_for_query(query, inputs):
    s = inputs @ query
    return s / s.sum()
'''),
        "loop_skips_last": (["loop", "last", "range", "every token"], '''
def scores_for_query(query, inputs):
    out = torch.zeros(inputs.shape[0], dtype=inputs.dtype)
    for i in range(inputs.shape[0] - 1):
        out[i] = torch.dot(inputs[i], query)
    return out
'''),
    },
    "softmax_stable": {
        "no_max_subtraction": (["max", "overflow", "subtract", "stable"], '''
def softmax_stable(scores):
    e = torch.exp(scores)
    return e / e.sum(dim=-1, keepdim=True)
'''),
        "global_max": (["max", "row", "each row", "last dimension", "keepdim"], '''
def softmax_stable(scores):
    e = torch.exp(scores - scores.max())
    return e / e.sum(dim=-1, keepdim=True)
'''),
        "sum_over_first_dim": (["dim", "axis", "last dimension", "rows", "columns"], '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    e = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
    return e / e.sum(dim=0, keepdim=True)
'''),
        "total_sum": (["sum", "keepdim", "each row", "last dimension"], '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    e = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
    return e / e.sum()
'''),
        "in_place_subtract": (["in place", "in-place", "modif", "change", "copy"], '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    scores -= scores.max(dim=-1, keepdim=True).values
    e = torch.exp(scores)
    return e / e.sum(dim=-1, keepdim=True)
'''),
        "min_subtracted": (["max", "min", "overflow", "largest"], '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    e = torch.exp(scores - scores.min(dim=-1, keepdim=True).values)
    return e / e.sum(dim=-1, keepdim=True)
'''),
    },
    "context_vector": {
        "weights_times_scores_sum": (["scalar", "number", "vector", "rows of inputs"], '''
def context_vector(weights, inputs):
    return (weights * (inputs @ inputs[1])).sum()
'''),
        "no_sum": (["sum", "add", "over the tokens"], '''
def context_vector(weights, inputs):
    return weights[:, None] * inputs
'''),
        "mean_not_sum": (["mean", "average", "instead of a sum"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).mean(dim=0)
'''),
        "transposed_product": (["transpose", "order", "rows", "columns"], '''
def context_vector(weights, inputs):
    return inputs.T @ weights[: inputs.shape[1]] if inputs.shape[0] != inputs.shape[1] else inputs @ weights
'''),
        "unweighted_sum": (["weight", "unweighted", "multiply"], '''
def context_vector(weights, inputs):
    return inputs.sum(dim=0)
'''),
    },
    "self_attention_no_weights": {
        "softmax_dim0": (["dim", "axis", "rows", "columns", "each row"], '''
def self_attention_no_weights(inputs):
    w = torch.softmax(inputs @ inputs.T, dim=0)
    return w @ inputs
'''),
        "scaled_sqrt_d": (["sqrt", "scale", "scaling", "no scaling"], '''
def self_attention_no_weights(inputs):
    d = inputs.shape[-1]
    w = torch.softmax(inputs @ inputs.T / d ** 0.5, dim=-1)
    return w @ inputs
'''),
        "returns_weights": (["weights", "context", "@ inputs", "multiply by the inputs"], '''
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1)
'''),
        "no_softmax": (["softmax", "normalis", "raw scores"], '''
def self_attention_no_weights(inputs):
    return (inputs @ inputs.T) @ inputs
'''),
        "sum_normalised": (["softmax", "divide by the sum", "exp"], '''
def self_attention_no_weights(inputs):
    s = inputs @ inputs.T
    return (s / s.sum(dim=-1, keepdim=True)) @ inputs
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
    return torch.stack([torch.dot(x, query) for x in inputs])
''',
    },
    "softmax_stable": {
        "keepdim_max": '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    e = torch.exp(shifted)
    return e / e.sum(dim=-1, keepdim=True)
''',
        "logsumexp": '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    m = torch.amax(scores, dim=-1, keepdim=True)
    return torch.exp(scores - m - torch.log(torch.exp(scores - m).sum(-1, keepdim=True)))
''',
    },
    "context_vector": {
        "vecmat": '''
def context_vector(weights, inputs):
    return weights @ inputs
''',
        "loop": '''
def context_vector(weights, inputs):
    z = torch.zeros(inputs.shape[1], dtype=torch.result_type(weights, inputs))
    for w, x in zip(weights, inputs):
        z = z + w * x
    return z
''',
    },
    "self_attention_no_weights": {
        "matmul_softmax": '''
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1) @ inputs
''',
        "einsum": '''
def self_attention_no_weights(inputs):
    s = torch.einsum("id,jd->ij", inputs, inputs)
    return torch.einsum("ij,jd->id", softmax_stable(s), inputs)
''',
    },
}
