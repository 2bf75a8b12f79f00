"""Blind set 3, notebook 01: attention without trainable weights. Written from notebooks/01_attention_without_weights.ipynb only."""

MISTAKES = {
    "scores_for_query": {
        "elementwise_no_sum": (["sum", "add up", "elementwise", "dot product"], '''
def scores_for_query(query: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
    return inputs * query
'''),
        "sum_wrong_axis": (["axis", "dim", "columns", "rows"], '''
def scores_for_query(query: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
    return (inputs * query).sum(dim=0)
'''),
        "matrix_product_all": (["one query", "matrix", "inputs @ inputs"], '''
def scores_for_query(query: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
    return inputs @ inputs.T
'''),
        "loop_skips_first": (["range", "off-by-one", "first token", "loop"], '''
def scores_for_query(query: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
    scores = torch.zeros(inputs.shape[0])
    for i in range(1, inputs.shape[0]):
        scores[i] = torch.dot(inputs[i], query)
    return scores
'''),
    },
    "softmax_stable": {
        "no_max_subtraction": (["overflow", "maximum", "subtract", "inf", "nan"], '''
def softmax_stable(scores: torch.Tensor) -> torch.Tensor:
    e = torch.exp(scores)
    return e / e.sum(dim=-1, keepdim=True)
'''),
        "global_max_sum": (["last dimension", "each row", "whole", "dim"], '''
def softmax_stable(scores: torch.Tensor) -> torch.Tensor:
    e = torch.exp(scores - scores.max())
    return e / e.sum()
'''),
        "sum_dim0": (["last dimension", "dim=0", "columns", "rows"], '''
def softmax_stable(scores: torch.Tensor) -> torch.Tensor:
    e = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
    return e / e.sum(dim=0, keepdim=True)
'''),
        "inplace_subtract": (["in place", "changes", "modif", "input"], '''
def softmax_stable(scores: torch.Tensor) -> torch.Tensor:
    scores -= scores.max(dim=-1, keepdim=True).values
    e = torch.exp(scores)
    return e / e.sum(dim=-1, keepdim=True)
'''),
        "no_keepdim": (["keepdim", "broadcast", "each row"], '''
def softmax_stable(scores: torch.Tensor) -> torch.Tensor:
    e = torch.exp(scores - scores.max())
    return e / e.sum(dim=-1)
'''),
    },
    "context_vector": {
        "weights_times_inputs_no_sum": (["sum", "add", "rows", "weighted sum"], '''
def context_vector(weights: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
    return weights[:, None] * inputs
'''),
        "mean_instead_of_sum": (["mean", "average", "instead of a sum"], '''
def context_vector(weights: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
    return (weights[:, None] * inputs).mean(dim=0)
'''),
        "sum_over_d": (["axis", "dim", "tokens", "columns"], '''
def context_vector(weights: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
    return (weights[:, None] * inputs).sum(dim=1)
'''),
        "unweighted_sum": (["weights", "weight", "unweighted"], '''
def context_vector(weights: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
    return inputs.sum(dim=0)
'''),
    },
    "self_attention_no_weights": {
        "softmax_dim0": (["dim=0", "columns", "rows", "last dimension"], '''
def self_attention_no_weights(inputs: torch.Tensor) -> torch.Tensor:
    weights = torch.softmax(inputs @ inputs.T, dim=0)
    return weights @ inputs
'''),
        "scaled_sqrt_d": (["sqrt", "scale", "divide", "not scaled"], '''
def self_attention_no_weights(inputs: torch.Tensor) -> torch.Tensor:
    scores = inputs @ inputs.T / inputs.shape[-1] ** 0.5
    return torch.softmax(scores, dim=-1) @ inputs
'''),
        "no_softmax": (["softmax", "normalis", "normaliz"], '''
def self_attention_no_weights(inputs: torch.Tensor) -> torch.Tensor:
    return (inputs @ inputs.T) @ inputs
'''),
        "returns_weights": (["weights", "context", "values", "inputs"], '''
def self_attention_no_weights(inputs: torch.Tensor) -> torch.Tensor:
    return torch.softmax(inputs @ inputs.T, dim=-1)
'''),
        "transposed_weights": (["transpose", "weights.T", "rows", "columns"], '''
def self_attention_no_weights(inputs: torch.Tensor) -> torch.Tensor:
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
    return weights.T @ inputs
'''),
    },
}

VARIANTS = {
    "scores_for_query": {
        "matvec": '''
def scores_for_query(query: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
    return inputs @ query
''',
        "loop_dot": '''
def scores_for_query(query: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
    scores = torch.empty(inputs.shape[0], dtype=inputs.dtype)
    for i, x_i in enumerate(inputs):
        scores[i] = torch.dot(x_i, query)
    return scores
''',
    },
    "softmax_stable": {
        "keepdim_max": '''
def softmax_stable(scores: torch.Tensor) -> torch.Tensor:
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    e = torch.exp(shifted)
    return e / e.sum(dim=-1, keepdim=True)
''',
        "amax_logsumexp": '''
def softmax_stable(scores: torch.Tensor) -> torch.Tensor:
    m = torch.amax(scores, dim=-1, keepdim=True)
    return torch.exp(scores - m - torch.log(torch.exp(scores - m).sum(-1, keepdim=True)))
''',
    },
    "context_vector": {
        "vecmat": '''
def context_vector(weights: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
    return weights @ inputs
''',
        "loop": '''
def context_vector(weights: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
    z = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
    for i in range(inputs.shape[0]):
        z = z + weights[i] * inputs[i]
    return z
''',
    },
    "self_attention_no_weights": {
        "torch_softmax": '''
def self_attention_no_weights(inputs: torch.Tensor) -> torch.Tensor:
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
    return weights @ inputs
''',
        "einsum_own_softmax": '''
def self_attention_no_weights(inputs: torch.Tensor) -> torch.Tensor:
    scores = torch.einsum("id,jd->ij", inputs, inputs)
    return torch.einsum("ij,jd->id", softmax_stable(scores), inputs)
''',
    },
}
