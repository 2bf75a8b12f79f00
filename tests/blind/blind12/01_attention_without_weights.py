"""Blind set 12, notebook 01: Attention without trainable weights (PyTorch). Written from notebooks/01_attention_without_weights.ipynb only."""

MISTAKES = {
    "scores_for_query": {
        "elementwise_no_sum": (["sum", "add them up", "elementwise"], '''
def scores_for_query(query, inputs):
    return inputs * query
'''),
        "vector_matrix_order": (["transpose", "inputs.T", "order"], '''
def scores_for_query(query, inputs):
    return query @ inputs
'''),
        "sum_wrong_axis": (["axis", "dim", "last dimension"], '''
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=0)
'''),
        "normalised_scores": (["normalise", "softmax", "weights", "raw dot product"], '''
def scores_for_query(query, inputs):
    s = inputs @ query
    return s / s.sum()
'''),
        "cosine_similarity": (["cosine", "length", "norm"], '''
def scores_for_query(query, inputs):
    return torch.nn.functional.cosine_similarity(inputs, query.unsqueeze(0), dim=-1)
'''),
    },
    "softmax_stable": {
        "no_max_subtraction": (["overflow", "max", "subtract", "inf"], '''
def softmax_stable(scores):
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "global_max": (["max", "each row", "last dimension", "underflow"], '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max())
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "sum_dim0": (["dim", "last dimension", "rows", "columns"], '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=0, keepdim=True)
'''),
        "no_keepdim": (["keepdim", "broadcast"], '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=-1)
'''),
        "in_place_subtract": (["in place", "modif", "input", "copy"], '''
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "add_max": (["subtract", "max", "sign", "overflow"], '''
def softmax_stable(scores):
    exps = torch.exp(scores + scores.max(dim=-1, keepdim=True).values)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
    },
    "context_vector": {
        "elementwise_no_sum": (["sum", "over the tokens", "add"], '''
def context_vector(weights, inputs):
    return weights[:, None] * inputs
'''),
        "weights_times_scores": (["input vectors", "scores", "vector"], '''
def context_vector(weights, inputs):
    return (weights * (inputs @ inputs[1])).sum()
'''),
        "mean_instead_of_sum": (["mean", "average", "instead of a sum"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).mean(dim=0)
'''),
        "sum_wrong_axis": (["axis", "dim", "tokens"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
'''),
        "loop_overwrites": (["accumulate", "+=", "loop", "last token"], '''
def context_vector(weights, inputs):
    z = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
    for i in range(inputs.shape[0]):
        z = weights[i] * inputs[i]
    return z
'''),
    },
    "self_attention_no_weights": {
        "softmax_dim0": (["dim", "rows", "columns", "each row"], '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=0)
    return weights @ inputs
'''),
        "scaled_by_sqrt_d": (["sqrt", "scale", "divide"], '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T / inputs.shape[-1] ** 0.5, dim=-1)
    return weights @ inputs
'''),
        "no_softmax": (["softmax", "normalis", "weights"], '''
def self_attention_no_weights(inputs):
    return (inputs @ inputs.T) @ inputs
'''),
        "returns_weights": (["context", "weights @ inputs", "multiply"], '''
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1)
'''),
        "weights_transposed": (["transpose", "weights.T", "rows"], '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
    return weights.T @ inputs
'''),
        "sum_normalised": (["softmax", "divid", "sum"], '''
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
    out = torch.empty(inputs.shape[0], dtype=torch.promote_types(inputs.dtype, query.dtype))
    for i, x in enumerate(inputs):
        out[i] = torch.dot(x, query)
    return out
''',
    },
    "softmax_stable": {
        "max_shift": '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "amax_logsumexp": '''
def softmax_stable(scores):
    m = torch.amax(scores, dim=-1, keepdim=True)
    log_z = m + torch.log(torch.exp(scores - m).sum(dim=-1, keepdim=True))
    return torch.exp(scores - log_z)
''',
    },
    "context_vector": {
        "vecmat": '''
def context_vector(weights, inputs):
    return weights @ inputs
''',
        "loop": '''
def context_vector(weights, inputs):
    z = torch.zeros(inputs.shape[1], dtype=torch.promote_types(inputs.dtype, weights.dtype))
    for i in range(inputs.shape[0]):
        z = z + weights[i] * inputs[i]
    return z
''',
        "einsum": '''
def context_vector(weights, inputs):
    return torch.einsum("t,td->d", weights, inputs)
''',
    },
    "self_attention_no_weights": {
        "torch_softmax": '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
    return weights @ inputs
''',
        "own_softmax_matmul": '''
def self_attention_no_weights(inputs):
    scores = torch.matmul(inputs, inputs.transpose(0, 1))
    return torch.matmul(softmax_stable(scores), inputs)
''',
    },
}
