"""Eighth fresh set, notebook 01: attention without trainable weights (PyTorch)."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}

# --------------------------------------------------------------------------- scores_for_query
MISTAKES["scores_for_query"] = {
    "sum_instead_of_dot:elementwise": '''
def scores_for_query(query, inputs):
    return inputs * query
''',
    "sum_instead_of_dot:added": '''
def scores_for_query(query, inputs):
    return (inputs + query).sum(dim=1)
''',
    "scaled_too_early": '''
def scores_for_query(query, inputs):
    return inputs @ query / query.shape[0] ** 0.5
''',
    "wrong_query:row_one_hardcoded": '''
def scores_for_query(query, inputs):
    return inputs @ inputs[1]
''',
    "loop_leftover:last_token": '''
def scores_for_query(query, inputs):
    scores = torch.zeros(inputs.shape[0], dtype=inputs.dtype)
    for i in range(inputs.shape[0] - 1):
        scores[i] = torch.dot(inputs[i], query)
    return scores
''',
    "lower_precision:half": '''
def scores_for_query(query, inputs):
    return (inputs.half() * query.half()).sum(dim=-1).to(inputs.dtype)
''',
    "integer_arithmetic:long": '''
def scores_for_query(query, inputs):
    return (inputs.long() * query.long()).sum(dim=-1).to(inputs.dtype)
''',
    "changes_inputs_in_place": '''
def scores_for_query(query, inputs):
    inputs *= query
    return inputs.sum(dim=1)
''',
    "uncatalogued:softmax_applied": '''
def scores_for_query(query, inputs):
    return torch.softmax(inputs @ query, dim=0)
''',
    "uncatalogued:python_floats": '''
def scores_for_query(query, inputs):
    return [torch.dot(x, query).item() for x in inputs]
''',
}
VARIANTS["scores_for_query"] = {
    "loop_dot_stack": '''
def scores_for_query(query, inputs):
    return torch.stack([torch.dot(x_i, query) for x_i in inputs])
''',
    "einsum": '''
def scores_for_query(query, inputs):
    return torch.einsum("td,d->t", inputs, query)
''',
    "mv": '''
def scores_for_query(query, inputs):
    return torch.mv(inputs, query)
''',
}

# --------------------------------------------------------------------------- softmax_stable
MISTAKES["softmax_stable"] = {
    "softmax_no_max_subtraction": '''
def softmax_stable(scores):
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
    "softmax_no_max_subtraction:min_shift": '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.min(dim=-1, keepdim=True).values)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
    "softmax_wrong_axis": '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max(dim=0, keepdim=True).values)
    return exps / exps.sum(dim=0, keepdim=True)
''',
    "normalise_by_sum": '''
def softmax_stable(scores):
    return scores / scores.sum(dim=-1, keepdim=True)
''',
    "softmax_over_all_entries": '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max())
    return exps / exps.sum()
''',
    "changes_inputs_in_place": '''
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
    "lower_precision:half_exp": '''
def softmax_stable(scores):
    shifted = (scores - scores.max(dim=-1, keepdim=True).values).half()
    exps = torch.exp(shifted)
    return (exps / exps.sum(dim=-1, keepdim=True)).to(scores.dtype)
''',
    "uncatalogued:global_max": '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max())
    return exps / exps.sum(dim=-1, keepdim=True)
''',
    "uncatalogued:max_without_keepdim": '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max(dim=-1).values)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
    "uncatalogued:sum_without_keepdim": '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
    return exps / exps.sum(dim=-1)
''',
}
VARIANTS["softmax_stable"] = {
    "logsumexp": '''
def softmax_stable(scores):
    return torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True))
''',
    "amax": '''
def softmax_stable(scores):
    e = (scores - torch.amax(scores, dim=-1, keepdim=True)).exp()
    total = torch.sum(e, dim=-1, keepdim=True)
    return e / total
''',
}

# --------------------------------------------------------------------------- context_vector
MISTAKES["context_vector"] = {
    "loop_leftover:first_token": '''
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
    for i in range(1, len(weights)):
        context = context + weights[i] * inputs[i]
    return context
''',
    "loop_leftover:last_token": '''
def context_vector(weights, inputs):
    context = torch.zeros_like(inputs[0])
    for i in range(len(weights) - 1):
        context = context + weights[i] * inputs[i]
    return context
''',
    "lower_precision:float32_accumulator": '''
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1])
    for weight, x_i in zip(weights, inputs):
        context += weight * x_i
    return context
''',
    "uncatalogued:no_sum": '''
def context_vector(weights, inputs):
    return weights[:, None] * inputs
''',
    "uncatalogued:summed_over_features": '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
''',
    "uncatalogued:mean_not_sum": '''
def context_vector(weights, inputs):
    return (weights.unsqueeze(1) * inputs).mean(dim=0)
''',
    "uncatalogued:inputs_times_weights": '''
def context_vector(weights, inputs):
    return inputs @ weights
''',
    "uncatalogued:weights_softmaxed_again": '''
def context_vector(weights, inputs):
    return torch.softmax(weights, dim=0) @ inputs
''',
}
VARIANTS["context_vector"] = {
    "matvec": '''
def context_vector(weights, inputs):
    return weights @ inputs
''',
    "einsum": '''
def context_vector(weights, inputs):
    return torch.einsum("t,td->d", weights, inputs)
''',
    "broadcast_sum": '''
def context_vector(weights, inputs):
    return torch.sum(weights.unsqueeze(-1) * inputs, dim=0)
''',
}

# --------------------------------------------------------------------------- self_attention_no_weights
MISTAKES["self_attention_no_weights"] = {
    "unscaled_attention_scaled:scaled_anyway": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T / inputs.shape[-1] ** 0.5
    return softmax_stable(scores) @ inputs
''',
    "keys_without_transpose": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs
    return softmax_stable(scores) @ inputs
''',
    "softmax_wrong_axis": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    return torch.softmax(scores, dim=0) @ inputs
''',
    "weights_transposed": '''
def self_attention_no_weights(inputs):
    weights = softmax_stable(inputs @ inputs.T)
    return weights.T @ inputs
''',
    "returns_weights": '''
def self_attention_no_weights(inputs):
    weights = softmax_stable(inputs @ inputs.T)
    return weights
''',
    "returns_scores": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = softmax_stable(scores)
    context = weights @ inputs
    return scores
''',
    "no_softmax": '''
def self_attention_no_weights(inputs):
    return (inputs @ inputs.T) @ inputs
''',
    "normalise_by_sum": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    return (scores / scores.sum(dim=-1, keepdim=True)) @ inputs
''',
    "softmax_no_max_subtraction": '''
def self_attention_no_weights(inputs):
    exps = torch.exp(inputs @ inputs.T)
    return exps / exps.sum(dim=-1, keepdim=True) @ inputs
''',
    "weights_times_scores": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    return softmax_stable(scores) @ scores
''',
    "softmax_over_all_entries": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = torch.softmax(scores.flatten(), dim=0).reshape(scores.shape)
    return weights @ inputs
''',
}
VARIANTS["self_attention_no_weights"] = {
    "torch_softmax": '''
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1) @ inputs
''',
    "einsum": '''
def self_attention_no_weights(inputs):
    scores = torch.einsum("qd,kd->qk", inputs, inputs)
    return torch.einsum("qk,kd->qd", softmax_stable(scores), inputs)
''',
    "matmul_transpose": '''
def self_attention_no_weights(inputs):
    weights = softmax_stable(torch.matmul(inputs, inputs.transpose(0, 1)))
    return torch.matmul(weights, inputs)
''',
}
