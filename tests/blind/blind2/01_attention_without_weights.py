"""Blind set 2, notebook 01: Attention without trainable weights (PyTorch). Written from notebooks/01_attention_without_weights.ipynb only."""

MISTAKES = {
    "scores_for_query": {
        "elementwise_no_sum": (["sum", "add them up", "elementwise", "element-wise"], '''
def scores_for_query(query, inputs):
    return inputs * query
'''),
        "sum_over_tokens_axis": (["axis", "dim", "over the tokens", "last dimension"], '''
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=0)
'''),
        "cosine_similarity": (["cosine", "normalis", "normaliz", "length", "norm"], '''
def scores_for_query(query, inputs):
    return (inputs @ query) / (inputs.norm(dim=1) * query.norm())
'''),
        "hardcoded_journey": (["query", "argument", "hard-coded", "hardcoded", "inputs[1]"], '''
def scores_for_query(query, inputs):
    return inputs @ inputs[1]
'''),
        "loop_skips_last": (["last", "loop", "range", "every token"], '''
def scores_for_query(query, inputs):
    scores = torch.zeros(inputs.shape[0])
    for i in range(inputs.shape[0] - 1):
        scores[i] = torch.dot(inputs[i], query)
    return scores
'''),
    },
    "softmax_stable": {
        "no_max_subtraction": (["overflow", "max", "subtract", "inf", "nan"], '''
def softmax_stable(scores):
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "global_max": (["each row", "per row", "global", "keepdim", "whole tensor"], '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max())
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
        "sum_over_dim0": (["axis", "dim", "last dimension", "columns", "rows"], '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
    return exps / exps.sum(dim=0, keepdim=True)
'''),
        "sum_without_keepdim": (["keepdim", "broadcast"], '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
    return exps / exps.sum(dim=-1)
'''),
        "in_place_subtract": (["in place", "in-place", "modif", "changes", "copy"], '''
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
'''),
    },
    "context_vector": {
        "no_sum": (["sum", "add up", "weighted sum"], '''
def context_vector(weights, inputs):
    return weights[:, None] * inputs
'''),
        "sum_wrong_dim": (["axis", "dim", "over the tokens", "tokens"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
'''),
        "mean_instead_of_sum": (["mean", "average", "instead of a sum"], '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).mean(dim=0)
'''),
        "loop_skips_first": (["first", "loop", "range", "every token"], '''
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1])
    for i in range(1, len(weights)):
        context += weights[i] * inputs[i]
    return context
'''),
    },
    "self_attention_no_weights": {
        "softmax_over_columns": (["axis", "dim", "columns", "rows", "each row"], '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=0)
    return weights @ inputs
'''),
        "scaled_by_sqrt_d": (["sqrt", "scale", "divide", "division"], '''
def self_attention_no_weights(inputs):
    d = inputs.shape[-1]
    weights = torch.softmax(inputs @ inputs.T / d ** 0.5, dim=-1)
    return weights @ inputs
'''),
        "returns_weights": (["context", "weights @ inputs", "multiply", "second matrix product"], '''
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1)
'''),
        "no_softmax": (["softmax", "normalis", "normaliz", "sum to 1"], '''
def self_attention_no_weights(inputs):
    return (inputs @ inputs.T) @ inputs
'''),
        "weights_transposed": (["transpose", "columns", "rows", "weights.t"], '''
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
        "loop_dot_stack": '''
def scores_for_query(query, inputs):
    return torch.stack([torch.dot(x, query) for x in inputs])
''',
        "einsum": '''
def scores_for_query(query, inputs):
    return torch.einsum("td,d->t", inputs, query)
''',
    },
    "softmax_stable": {
        "max_keepdim": '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "logsumexp": '''
def softmax_stable(scores):
    return torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True))
''',
        "amax_clone": '''
def softmax_stable(scores):
    s = scores.clone()
    s = s - torch.amax(s, dim=-1, keepdim=True)
    e = s.exp()
    return e / torch.sum(e, -1, keepdim=True)
''',
    },
    "context_vector": {
        "vecmat": '''
def context_vector(weights, inputs):
    return weights @ inputs
''',
        "loop": '''
def context_vector(weights, inputs):
    context = torch.zeros_like(inputs[0])
    for w, x in zip(weights, inputs):
        context = context + w * x
    return context
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
    return torch.einsum("ij,jd->id", softmax_stable(scores), inputs)
''',
    },
}
