"""Blind set 5, notebook 01: Attention without trainable weights. Written from notebooks/01_attention_without_weights.ipynb only."""

MISTAKES = {
    "scores_for_query": {
        "elementwise_no_sum": (["sum", "dot product", "add them up"], '''
def scores_for_query(query, inputs):
    return inputs * query
'''),
        "sum_over_tokens": (["axis", "dim", "tokens"], '''
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=0)
'''),
        "normalised_scores": (["normalis", "divide", "softmax"], '''
def scores_for_query(query, inputs):
    s = inputs @ query
    return s / s.sum()
'''),
    },
    "softmax_stable": {
        "no_max_shift": (["overflow", "max", "subtract"], '''
def softmax_stable(scores):
    e = torch.exp(scores)
    return e / e.sum(dim=-1, keepdim=True)
'''),
        "global_max_sum": (["last dimension", "each row", "keepdim"], '''
def softmax_stable(scores):
    e = torch.exp(scores - scores.max())
    return e / e.sum()
'''),
        "min_instead_of_max": (["max", "min", "overflow"], '''
def softmax_stable(scores):
    e = torch.exp(scores - scores.min(dim=-1, keepdim=True).values)
    return e / e.sum(dim=-1, keepdim=True)
'''),
        "sum_dim0": (["dim", "last dimension", "rows"], '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    e = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
    return e / e.sum(dim=0, keepdim=True)
'''),
    },
    "context_vector": {
        "weights_times_scores_sum": (["weighted sum", "input vector", "rows"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
'''),
        "mean_not_sum": (["mean", "average", "instead of a sum"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).mean(dim=0)
'''),
        "no_sum_over_tokens": (["sum", "add", "over the tokens"], '''
def context_vector(weights, inputs):
    return weights[:, None] * inputs
'''),
    },
    "self_attention_no_weights": {
        "softmax_dim0": (["dim", "columns", "rows"], '''
def self_attention_no_weights(inputs):
    w = torch.softmax(inputs @ inputs.T, dim=0)
    return w @ inputs
'''),
        "scaled_by_sqrt_d": (["sqrt", "scale", "divide"], '''
def self_attention_no_weights(inputs):
    d = inputs.shape[-1]
    w = torch.softmax(inputs @ inputs.T / d ** 0.5, dim=-1)
    return w @ inputs
'''),
        "returns_weights": (["context", "weights @ inputs", "multiply"], '''
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1)
'''),
        "no_softmax": (["softmax", "normalis", "raw scores"], '''
def self_attention_no_weights(inputs):
    return (inputs @ inputs.T) @ inputs
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
        "max_shift": '''
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
        "amax": '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    e = (scores - torch.amax(scores, dim=-1, keepdim=True)).exp()
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
        "matmul": '''
def self_attention_no_weights(inputs):
    w = torch.softmax(inputs @ inputs.T, dim=-1)
    return w @ inputs
''',
        "own_softmax": '''
def self_attention_no_weights(inputs):
    s = torch.matmul(inputs, inputs.transpose(0, 1))
    s = s - s.max(dim=-1, keepdim=True).values
    e = s.exp()
    return torch.matmul(e / e.sum(dim=-1, keepdim=True), inputs)
''',
    },
}
