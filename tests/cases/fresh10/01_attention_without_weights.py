"""Tenth fresh set, notebook 01: attention without trainable weights (PyTorch)."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}

# --------------------------------------------------------------------------- scores_for_query
MISTAKES["scores_for_query"] = {
    "sum_instead_of_dot:broadcast_product": '''
def scores_for_query(query, inputs):
    return inputs * query
''',
    "wrong_query:hardcoded_journey": '''
def scores_for_query(query, inputs):
    return inputs @ inputs[1]
''',
    "scaled_too_early:loop": '''
def scores_for_query(query, inputs):
    scores = torch.empty(inputs.shape[0], dtype=inputs.dtype)
    for i in range(inputs.shape[0]):
        scores[i] = torch.dot(inputs[i], query) / query.shape[0] ** 0.5
    return scores
''',
    "loop_leftover:range_minus_one": '''
def scores_for_query(query, inputs):
    scores = torch.zeros(len(inputs), dtype=inputs.dtype)
    for i in range(len(inputs) - 1):
        scores[i] = torch.dot(query, inputs[i])
    return scores
''',
    "integer_arithmetic:int_buffer": '''
def scores_for_query(query, inputs):
    scores = torch.zeros(len(inputs), dtype=torch.int32)
    for i, x_i in enumerate(inputs):
        scores[i] = torch.dot(x_i, query)
    return scores
''',
    "lower_precision:half_products": '''
def scores_for_query(query, inputs):
    products = inputs.to(torch.float16) * query.to(torch.float16)
    return products.sum(dim=1).to(inputs.dtype)
''',
    "keys_without_transpose:query_first": '''
def scores_for_query(query, inputs):
    return torch.matmul(query, inputs)
''',
    "uncatalogued:cosine_similarity": '''
def scores_for_query(query, inputs):
    return torch.nn.functional.cosine_similarity(inputs, query.unsqueeze(0), dim=1)
''',
}
VARIANTS["scores_for_query"] = {
    "einsum": '''
def scores_for_query(query, inputs):
    return torch.einsum("td,d->t", inputs, query)
''',
    "stacked_dots": '''
def scores_for_query(query, inputs):
    return torch.stack([torch.dot(x_i, query) for x_i in inputs])
''',
}

# --------------------------------------------------------------------------- softmax_stable
MISTAKES["softmax_stable"] = {
    "softmax_no_max_subtraction": '''
def softmax_stable(scores):
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
    "softmax_no_max_subtraction:mean_shift": '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.mean(dim=-1, keepdim=True))
    return exps / exps.sum(dim=-1, keepdim=True)
''',
    "softmax_wrong_axis": '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=0, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=0, keepdim=True)
''',
    "changes_inputs_in_place": '''
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    exps = scores.exp()
    return exps / exps.sum(dim=-1, keepdim=True)
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
    "uncatalogued:one_global_max": '''
def softmax_stable(scores):
    exps = torch.exp(scores - torch.max(scores))
    return exps / torch.sum(exps, dim=-1, keepdim=True)
''',
    "lower_precision:half_exp": '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(shifted.half()).to(scores.dtype)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
    "uncatalogued:returns_log_weights": '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    return shifted - torch.log(torch.exp(shifted).sum(dim=-1, keepdim=True))
''',
}
VARIANTS["softmax_stable"] = {
    "logsumexp": '''
def softmax_stable(scores):
    return torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True))
''',
    "amax_functions": '''
def softmax_stable(scores):
    m = torch.amax(scores, dim=-1, keepdim=True)
    e = torch.exp(torch.sub(scores, m))
    return torch.div(e, torch.sum(e, -1, keepdim=True))
''',
}

# --------------------------------------------------------------------------- context_vector
MISTAKES["context_vector"] = {
    "loop_leftover:skips_last_token": '''
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
    for i in range(len(weights) - 1):
        context = context + weights[i] * inputs[i]
    return context
''',
    "changes_inputs_in_place": '''
def context_vector(weights, inputs):
    inputs *= weights[:, None]
    return inputs.sum(dim=0)
''',
    "lower_precision:half_sum": '''
def context_vector(weights, inputs):
    weighted = weights.half()[:, None] * inputs.half()
    return weighted.sum(dim=0).to(inputs.dtype)
''',
    "uncatalogued:not_summed": '''
def context_vector(weights, inputs):
    return weights[:, None] * inputs
''',
    "uncatalogued:mean_instead_of_sum": '''
def context_vector(weights, inputs):
    return (weights.unsqueeze(1) * inputs).mean(dim=0)
''',
    "uncatalogued:summed_over_features": '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
''',
    "uncatalogued:softmax_applied_again": '''
def context_vector(weights, inputs):
    return torch.softmax(weights, dim=0) @ inputs
''',
}
VARIANTS["context_vector"] = {
    "matmul": '''
def context_vector(weights, inputs):
    return weights @ inputs
''',
    "einsum": '''
def context_vector(weights, inputs):
    return torch.einsum("t,td->d", weights, inputs)
''',
}

# --------------------------------------------------------------------------- self_attention_no_weights
MISTAKES["self_attention_no_weights"] = {
    "keys_without_transpose": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs
    return softmax_stable(scores) @ inputs
''',
    "softmax_wrong_axis": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = torch.softmax(scores, dim=0)
    return weights @ inputs
''',
    "weights_transposed": '''
def self_attention_no_weights(inputs):
    weights = softmax_stable(inputs @ inputs.T)
    return weights.T @ inputs
''',
    "no_softmax": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    return scores @ inputs
''',
    "normalise_by_sum": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = scores / scores.sum(dim=-1, keepdim=True)
    return weights @ inputs
''',
    "returns_weights": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = softmax_stable(scores)
    return weights
''',
    "softmax_no_max_subtraction": '''
def self_attention_no_weights(inputs):
    exps = torch.exp(inputs @ inputs.T)
    weights = exps / exps.sum(dim=1, keepdim=True)
    return weights @ inputs
''',
    "unscaled_attention_scaled:scaled_by_sqrt_d": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T / inputs.shape[-1] ** 0.5
    return softmax_stable(scores) @ inputs
''',
}
VARIANTS["self_attention_no_weights"] = {
    "torch_softmax": '''
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.transpose(0, 1), dim=-1) @ inputs
''',
    "einsum": '''
def self_attention_no_weights(inputs):
    scores = torch.einsum("id,jd->ij", inputs, inputs)
    weights = softmax_stable(scores)
    return torch.einsum("ij,jd->id", weights, inputs)
''',
}
