"""Blind set 9, notebook 01: Attention without trainable weights. Written from notebooks/01_attention_without_weights.ipynb only."""

MISTAKES = {
    "scores_for_query": {
        "no_sum_elementwise": (["sum", "add up", "elementwise", "element-wise"], '''
def scores_for_query(query, inputs):
    return inputs * query
'''),
        "sum_wrong_dim": (["axis", "dim=1", "dim=0", "over the tokens"], '''
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=0)
'''),
        "transposed_product": (["transpose", "inputs @ query", "order"], '''
def scores_for_query(query, inputs):
    return inputs.T @ query
'''),
        "cosine_similarity": (["cosine", "normalis", "normaliz", "length"], '''
def scores_for_query(query, inputs):
    return (inputs @ query) / (inputs.norm(dim=-1) * query.norm())
'''),
        "loop_off_by_one": (["loop", "last token", "missing", "every token"], '''
def scores_for_query(query, inputs):
    out = torch.zeros(inputs.shape[0], dtype=inputs.dtype)
    for i in range(inputs.shape[0] - 1):
        out[i] = torch.dot(inputs[i], query)
    return out
'''),
    },
    "softmax_stable": {
        "no_max_subtraction": (["overflow", "subtract", "maximum", "max"], '''
def softmax_stable(scores):
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "global_max": (["each row", "per row", "global", "keepdim", "whole tensor"], '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max())
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "sum_dim0": (["axis", "dim", "last dimension", "columns"], '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=0, keepdim=True)
'''),
        "no_keepdim": (["keepdim", "broadcast"], '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=-1)
'''),
        "in_place_shift": (["in place", "in-place", "modif", "copy", "changes"], '''
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "max_namedtuple": (["values", "namedtuple", "tuple", ".max"], '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max(dim=-1, keepdim=True))
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
    },
    "context_vector": {
        "no_sum": (["sum", "over the tokens", "add"], '''
def context_vector(weights, inputs):
    return weights[:, None] * inputs
'''),
        "sum_wrong_dim": (["axis", "dim", "tokens"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
'''),
        "mean_not_sum": (["mean", "average", "instead of a sum"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).mean(dim=0)
'''),
        "transposed_inputs": (["transpose", "inputs.t", "order"], '''
def context_vector(weights, inputs):
    return weights @ inputs.T
'''),
    },
    "self_attention_no_weights": {
        "softmax_columns": (["column", "dim=0", "axis", "each row"], '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=0)
    return weights @ inputs
'''),
        "scaled_by_sqrt_d": (["sqrt", "scal", "divide"], '''
def self_attention_no_weights(inputs):
    d = inputs.shape[-1]
    weights = torch.softmax(inputs @ inputs.T / d ** 0.5, dim=-1)
    return weights @ inputs
'''),
        "returns_weights": (["context", "weights @ inputs", "multiply the weights"], '''
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1)
'''),
        "weights_transposed": (["transpose", "weights.t", "columns"], '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
    return weights.T @ inputs
'''),
        "normalise_by_sum": (["softmax", "divid", "by the sum", "by their sum"], '''
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
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "amax_logsumexp": '''
def softmax_stable(scores):
    m = torch.amax(scores, dim=-1, keepdim=True)
    log_norm = m + torch.log(torch.exp(scores - m).sum(dim=-1, keepdim=True))
    return torch.exp(scores - log_norm)
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
        "two_matmuls": '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
    return weights @ inputs
''',
        "einsum_own_softmax": '''
def self_attention_no_weights(inputs):
    scores = torch.einsum("id,jd->ij", inputs, inputs)
    weights = softmax_stable(scores)
    return torch.einsum("ij,jd->id", weights, inputs)
''',
    },
}
