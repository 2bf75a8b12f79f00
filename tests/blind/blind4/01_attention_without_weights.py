"""Blind set 4, notebook 01: Attention without trainable weights. Written from notebooks/01_attention_without_weights.ipynb only."""

MISTAKES = {
    "scores_for_query": {
        "elementwise_no_sum": (["sum", "dot product", "element-wise", "elementwise"], '''
def scores_for_query(query, inputs):
    return inputs * query
'''),
        "sum_over_tokens": (["axis", "dim", "tokens", "sum over"], '''
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=0)
'''),
        "normalised_cosine": (["cosine", "norm", "length", "normalis"], '''
def scores_for_query(query, inputs):
    return (inputs @ query) / (inputs.norm(dim=-1) * query.norm())
'''),
        "softmax_applied": (["softmax", "weights", "raw scores", "not normalised"], '''
def scores_for_query(query, inputs):
    return torch.softmax(inputs @ query, dim=0)
'''),
        "scaled_by_sqrt_d": (["sqrt", "scale", "scaling", "divide"], '''
def scores_for_query(query, inputs):
    return inputs @ query / inputs.shape[1] ** 0.5
'''),
    },
    "softmax_stable": {
        "no_max_subtraction": (["overflow", "maximum", "subtract", "inf"], '''
def softmax_stable(scores):
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "global_max": (["maximum", "row", "global", "each row", "per row"], '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max())
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "sum_wrong_dim": (["dim", "axis", "columns", "last dimension"], '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=0, keepdim=True)
'''),
        "in_place_subtract": (["in place", "in-place", "modif", "changes", "input"], '''
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "no_keepdim": (["keepdim", "broadcast", "keep"], '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=-1)
'''),
        "divide_by_sum_of_scores": (["exp", "exponential", "softmax", "sum of scores"], '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    return shifted / shifted.sum(dim=-1, keepdim=True)
'''),
    },
    "context_vector": {
        "weights_times_scores": (["scores", "input vectors", "inputs", "weighted sum of the rows"], '''
def context_vector(weights, inputs):
    scores = inputs @ inputs[1]
    return (weights * scores).sum()
'''),
        "sum_wrong_axis": (["axis", "dim", "tokens", "over the tokens"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
'''),
        "no_sum_over_tokens": (["sum", "add", "weighted sum", "one vector"], '''
def context_vector(weights, inputs):
    return weights[:, None] * inputs
'''),
        "mean_instead_of_sum": (["mean", "average", "instead of a sum", "sum"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).mean(dim=0)
'''),
        "loop_off_by_one": (["loop", "every token", "last", "range"], '''
def context_vector(weights, inputs):
    z = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
    for i in range(len(weights) - 1):
        z += weights[i] * inputs[i]
    return z
'''),
    },
    "self_attention_no_weights": {
        "softmax_dim0": (["dim", "columns", "rows", "axis"], '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=0)
    return weights @ inputs
'''),
        "no_softmax": (["softmax", "normalis", "raw scores"], '''
def self_attention_no_weights(inputs):
    return (inputs @ inputs.T) @ inputs
'''),
        "scaled": (["sqrt", "scale", "scaling", "no scaling"], '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T / inputs.shape[-1] ** 0.5, dim=-1)
    return weights @ inputs
'''),
        "weights_transposed": (["transpose", "order", "weights.t", "columns"], '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
    return weights.T @ inputs
'''),
        "returns_weights": (["weights", "context vectors", "multiply", "inputs"], '''
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
    out = torch.empty(inputs.shape[0], dtype=inputs.dtype)
    for i, x in enumerate(inputs):
        out[i] = torch.dot(x, query)
    return out
''',
        "einsum": '''
def scores_for_query(query, inputs):
    return torch.einsum("td,d->t", inputs, query)
''',
    },
    "softmax_stable": {
        "max_keepdim": '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "amax_logsumexp": '''
def softmax_stable(scores):
    scores = torch.as_tensor(scores)
    m = torch.amax(scores, dim=-1, keepdim=True)
    return torch.exp(scores - m - torch.log(torch.exp(scores - m).sum(dim=-1, keepdim=True)))
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
        "matmul": '''
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1) @ inputs
''',
        "own_softmax_mm": '''
def self_attention_no_weights(inputs):
    scores = torch.mm(inputs, inputs.t())
    return torch.mm(softmax_stable(scores), inputs)
''',
    },
}
