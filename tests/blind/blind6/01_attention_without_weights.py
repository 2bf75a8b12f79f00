"""Blind set 6, notebook 01: Attention without trainable weights. Written from notebooks/01_attention_without_weights.ipynb only."""

MISTAKES = {
    "scores_for_query": {
        "sum_everything": (["one number", "scalar", "sum over every", "dim"], '''
def scores_for_query(query, inputs):
    return (inputs * query).sum()
'''),
        "sum_dim0": (["dim", "axis", "over the tokens", "rows"], '''
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=0)
'''),
        "no_sum": (["sum", "add up", "dot product"], '''
def scores_for_query(query, inputs):
    return inputs * query
'''),
        "loop_skips_first": (["first", "loop", "range", "token 0"], '''
def scores_for_query(query, inputs):
    out = torch.zeros(inputs.shape[0])
    for i in range(1, inputs.shape[0]):
        out[i] = torch.dot(inputs[i], query)
    return out
'''),
        "cosine": (["cosine", "norm", "length", "normalis"], '''
def scores_for_query(query, inputs):
    return (inputs @ query) / (inputs.norm(dim=1) * query.norm())
'''),
    },
    "softmax_stable": {
        "no_max_shift": (["overflow", "max", "inf", "nan"], '''
def softmax_stable(scores):
    e = torch.exp(scores)
    return e / e.sum(dim=-1, keepdim=True)
'''),
        "global_max": (["each row", "global", "per row", "whole tensor"], '''
def softmax_stable(scores):
    e = torch.exp(scores - scores.max())
    return e / e.sum(dim=-1, keepdim=True)
'''),
        "sum_dim0": (["dim", "last dimension", "axis", "column"], '''
def softmax_stable(scores):
    e = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
    return e / e.sum(dim=0, keepdim=True)
'''),
        "in_place": (["in place", "in-place", "modif", "copy", "changes"], '''
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    e = torch.exp(scores)
    return e / e.sum(dim=-1, keepdim=True)
'''),
        "subtract_min": (["min", "max", "overflow"], '''
def softmax_stable(scores):
    e = torch.exp(scores - scores.min(dim=-1, keepdim=True).values)
    return e / e.sum(dim=-1, keepdim=True)
'''),
        "no_keepdim": (["keepdim", "broadcast"], '''
def softmax_stable(scores):
    m = scores.max(dim=-1).values
    e = torch.exp(scores - m)
    return e / e.sum(dim=-1)
'''),
    },
    "context_vector": {
        "sum_wrong_dim": (["dim", "axis", "over the tokens", "rows"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
'''),
        "mean_not_sum": (["mean", "average", "instead of a sum", "divide"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).mean(dim=0)
'''),
        "no_sum": (["sum", "add up", "weighted sum"], '''
def context_vector(weights, inputs):
    return weights[:, None] * inputs
'''),
        "weights_times_scores": (["scores", "input vectors", "one number", "vector"], '''
def context_vector(weights, inputs):
    scores = inputs @ inputs[1]
    return (weights * scores).sum()
'''),
        "transpose_product": (["transpose", ".t", "order"], '''
def context_vector(weights, inputs):
    return weights @ inputs.T
'''),
    },
    "self_attention_no_weights": {
        "softmax_dim0": (["dim", "column", "rows", "each row"], '''
def self_attention_no_weights(inputs):
    w = torch.softmax(inputs @ inputs.T, dim=0)
    return w @ inputs
'''),
        "scaled": (["sqrt", "scale", "divide", "scaling"], '''
def self_attention_no_weights(inputs):
    d = inputs.shape[-1]
    w = torch.softmax(inputs @ inputs.T / d ** 0.5, dim=-1)
    return w @ inputs
'''),
        "returns_weights": (["weights", "context", "second matrix product", "multiply"], '''
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1)
'''),
        "gram_wrong_side": (["transpose", "inputs.t @ inputs", "order", "(d, d)"], '''
def self_attention_no_weights(inputs):
    w = torch.softmax(inputs.T @ inputs, dim=-1)
    return inputs @ w
'''),
        "sum_normalise": (["softmax", "divide by the total", "sum", "exp"], '''
def self_attention_no_weights(inputs):
    s = inputs @ inputs.T
    w = s / s.sum(dim=-1, keepdim=True)
    return w @ inputs
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
        "shift_exp": '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    shifted = scores - scores.amax(dim=-1, keepdim=True)
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
        "loop": '''
def context_vector(weights, inputs):
    z = torch.zeros_like(inputs[0])
    for w, x in zip(weights, inputs):
        z = z + w * x
    return z
''',
    },
    "self_attention_no_weights": {
        "two_matmuls": '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
    return weights @ inputs
''',
        "einsum": '''
def self_attention_no_weights(inputs):
    s = torch.einsum("id,jd->ij", inputs, inputs)
    w = torch.softmax(s, dim=1)
    return torch.einsum("ij,jd->id", w, inputs)
''',
    },
}
