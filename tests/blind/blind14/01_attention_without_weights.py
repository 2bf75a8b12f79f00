"""Blind set 14, notebook 01: Attention without trainable weights. Written from notebooks/01_attention_without_weights.ipynb only."""

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
        "loop_off_by_one": (["loop", "first token", "range"], '''
def scores_for_query(query, inputs):
    scores = torch.zeros(inputs.shape[0], dtype=inputs.dtype)
    for i in range(1, inputs.shape[0]):
        scores[i] = torch.dot(inputs[i], query)
    return scores
'''),
        "cosine_similarity": (["cosine", "normalis", "length"], '''
def scores_for_query(query, inputs):
    return inputs @ query / (inputs.norm(dim=1) * query.norm())
'''),
    },
    "softmax_stable": {
        "no_max_subtraction": (["overflow", "maximum", "subtract"], '''
def softmax_stable(scores):
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "global_max": (["maximum", "row", "each row"], '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max())
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "sum_no_keepdim": (["keepdim", "broadcast", "sum"], '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=-1)
'''),
        "wrong_dim_zero": (["dim", "last dimension", "columns"], '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=0, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=0, keepdim=True)
'''),
        "inplace_modifies": (["in place", "modif", "copy"], '''
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "divide_by_sum_of_scores": (["exp", "softmax", "divid"], '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    return shifted / shifted.sum(dim=-1, keepdim=True)
'''),
    },
    "context_vector": {
        "weights_times_scores": (["input vector", "scalar", "number"], '''
def context_vector(weights, inputs):
    return (weights * (inputs @ inputs[1])).sum()
'''),
        "sum_over_d": (["axis", "dim", "tokens"], '''
def context_vector(weights, inputs):
    return (inputs * weights[:, None]).sum(dim=1)
'''),
        "mean_instead_of_sum": (["mean", "average", "sum"], '''
def context_vector(weights, inputs):
    return (inputs * weights[:, None]).mean(dim=0)
'''),
        "transposed_sum_wrong_axis": (["transpose", "axis", "dim"], '''
def context_vector(weights, inputs):
    return (weights * inputs.T).sum(dim=0)
'''),
        "inputs_transposed": (["transpose", "inputs.t", "matrix"], '''
def context_vector(weights, inputs):
    return weights @ inputs.T
'''),
    },
    "self_attention_no_weights": {
        "softmax_dim0": (["dim", "columns", "rows"], '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=0)
    return weights @ inputs
'''),
        "scaled_by_sqrt_d": (["sqrt", "scale", "divide"], '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T / inputs.shape[-1] ** 0.5
    return torch.softmax(scores, dim=-1) @ inputs
'''),
        "no_softmax": (["softmax", "normalis", "weights"], '''
def self_attention_no_weights(inputs):
    return (inputs @ inputs.T) @ inputs
'''),
        "elementwise_product": (["matrix product", "elementwise", "@"], '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
    return weights[:, :inputs.shape[1]] * inputs
'''),
        "returns_weights": (["context", "values", "weights @ inputs"], '''
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
    return torch.stack([torch.dot(x, query) for x in inputs])
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
    z = torch.zeros_like(inputs[0])
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
        "einsum_own_softmax": '''
def self_attention_no_weights(inputs):
    scores = torch.einsum("id,jd->ij", inputs, inputs)
    return torch.einsum("ij,jd->id", softmax_stable(scores), inputs)
''',
    },
}
