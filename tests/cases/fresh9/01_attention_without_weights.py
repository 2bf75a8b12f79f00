"""Ninth fresh set, notebook 01: attention without trainable weights (PyTorch)."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}

# --------------------------------------------------------------------------- scores_for_query
MISTAKES["scores_for_query"] = {
    "sum_instead_of_dot:products_not_summed": '''
def scores_for_query(query, inputs):
    return query * inputs
''',
    "sum_instead_of_dot:sums_added": '''
def scores_for_query(query, inputs):
    return torch.sum(inputs + query, dim=1)
''',
    "scaled_too_early": '''
def scores_for_query(query, inputs):
    return (inputs @ query) / np.sqrt(query.shape[0])
''',
    "wrong_query:first_token": '''
def scores_for_query(query, inputs):
    return inputs @ inputs[0]
''',
    "loop_leftover:starts_at_one": '''
def scores_for_query(query, inputs):
    scores = torch.zeros(inputs.shape[0], dtype=inputs.dtype)
    for i in range(1, inputs.shape[0]):
        scores[i] = torch.dot(inputs[i], query)
    return scores
''',
    "integer_arithmetic:long_buffer": '''
def scores_for_query(query, inputs):
    scores = torch.zeros(len(inputs), dtype=torch.long)
    for i, x_i in enumerate(inputs):
        scores[i] = torch.dot(x_i, query)
    return scores
''',
    "lower_precision:default_buffer": '''
def scores_for_query(query, inputs):
    scores = torch.empty(inputs.shape[0])
    for i in range(inputs.shape[0]):
        scores[i] = torch.dot(inputs[i], query)
    return scores
''',
    "changes_inputs_in_place": '''
def scores_for_query(query, inputs):
    inputs *= query
    return inputs.sum(dim=-1)
''',
    "keys_without_transpose": '''
def scores_for_query(query, inputs):
    return query @ inputs
''',
    "uncatalogued:summed_over_tokens": '''
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=0)
''',
    "uncatalogued:cosine_similarity": '''
def scores_for_query(query, inputs):
    return torch.nn.functional.cosine_similarity(inputs, query[None, :], dim=1)
''',
    "uncatalogued:softmax_applied": '''
def scores_for_query(query, inputs):
    return torch.softmax(inputs @ query, dim=0)
''',
}
VARIANTS["scores_for_query"] = {
    "mv": '''
def scores_for_query(query, inputs):
    return torch.mv(inputs, query)
''',
    "stacked_dots": '''
def scores_for_query(query, inputs):
    return torch.stack([torch.dot(x_i, query) for x_i in inputs])
''',
    "einsum": '''
def scores_for_query(query, inputs):
    return torch.einsum("td,d->t", inputs, query)
''',
}

# --------------------------------------------------------------------------- softmax_stable
MISTAKES["softmax_stable"] = {
    "softmax_no_max_subtraction": '''
def softmax_stable(scores):
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
    "softmax_no_max_subtraction:minimum": '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.min(dim=-1, keepdim=True).values)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
    "softmax_wrong_axis": '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max(dim=0, keepdim=True).values)
    return exps / exps.sum(dim=0, keepdim=True)
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
    "normalise_by_sum": '''
def softmax_stable(scores):
    return scores / scores.sum(dim=-1, keepdim=True)
''',
    "lower_precision:float32_cast": '''
def softmax_stable(scores):
    shifted = (scores - scores.max(dim=-1, keepdim=True).values).float()
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=-1, keepdim=True)
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
    "uncatalogued:returns_log_weights": '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    return shifted - torch.log(torch.exp(shifted).sum(dim=-1, keepdim=True))
''',
}
VARIANTS["softmax_stable"] = {
    "amax": '''
def softmax_stable(scores):
    e = torch.exp(scores - torch.amax(scores, dim=-1, keepdim=True))
    return e / torch.sum(e, dim=-1, keepdim=True)
''',
    "logsumexp": '''
def softmax_stable(scores):
    return torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True))
''',
    "index_none": '''
def softmax_stable(scores):
    m = scores.max(dim=-1).values[..., None]
    exps = (scores - m).exp()
    total = exps.sum(dim=-1)[..., None]
    return exps / total
''',
}

# --------------------------------------------------------------------------- context_vector
MISTAKES["context_vector"] = {
    "loop_leftover": '''
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
    for i in range(len(weights) - 1):
        context = context + weights[i] * inputs[i]
    return context
''',
    "lower_precision:default_buffer": '''
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1])
    for weight, x_i in zip(weights, inputs):
        context += weight * x_i
    return context
''',
    "changes_inputs_in_place": '''
def context_vector(weights, inputs):
    inputs *= weights[:, None]
    return inputs.sum(dim=0)
''',
    "uncatalogued:overwrites_instead_of_adding": '''
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
    for weight, x_i in zip(weights, inputs):
        context = weight * x_i
    return context
''',
    "uncatalogued:products_not_summed": '''
def context_vector(weights, inputs):
    return weights[:, None] * inputs
''',
    "uncatalogued:summed_over_features": '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
''',
    "uncatalogued:mean_instead_of_sum": '''
def context_vector(weights, inputs):
    return (weights.unsqueeze(1) * inputs).mean(dim=0)
''',
    "uncatalogued:inputs_times_weights": '''
def context_vector(weights, inputs):
    return inputs @ weights
''',
    "context_without_weights:weights_ignored": '''
def context_vector(weights, inputs):
    return inputs.sum(dim=0)
''',
}
VARIANTS["context_vector"] = {
    "vector_matrix": '''
def context_vector(weights, inputs):
    return weights @ inputs
''',
    "einsum": '''
def context_vector(weights, inputs):
    return torch.einsum("t,td->d", weights, inputs)
''',
    "broadcast_sum": '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=0)
''',
}

# --------------------------------------------------------------------------- self_attention_no_weights
MISTAKES["self_attention_no_weights"] = {
    "softmax_wrong_axis": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = torch.softmax(scores, dim=0)
    return weights @ inputs
''',
    "returns_weights": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    return softmax_stable(scores)
''',
    "returns_scores": '''
def self_attention_no_weights(inputs):
    return inputs @ inputs.T
''',
    "weights_times_scores": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = softmax_stable(scores)
    return weights @ scores
''',
    "weights_transposed": '''
def self_attention_no_weights(inputs):
    weights = softmax_stable(inputs @ inputs.T)
    return weights.T @ inputs
''',
    "softmax_no_max_subtraction": '''
def self_attention_no_weights(inputs):
    exps = torch.exp(inputs @ inputs.T)
    weights = exps / exps.sum(dim=-1, keepdim=True)
    return weights @ inputs
''',
    "normalise_by_sum": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = scores / scores.sum(dim=-1, keepdim=True)
    return weights @ inputs
''',
    "no_softmax": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    return scores @ inputs
''',
    "keys_without_transpose": '''
def self_attention_no_weights(inputs):
    weights = softmax_stable(inputs @ inputs)
    return weights @ inputs
''',
    "unscaled_attention_scaled:scaled_by_sqrt_d": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T / inputs.shape[1] ** 0.5
    return softmax_stable(scores) @ inputs
''',
    "scores_features_by_features:feature_gram_matrix": '''
def self_attention_no_weights(inputs):
    scores = inputs.T @ inputs
    weights = softmax_stable(scores)
    return inputs @ weights
''',
}
VARIANTS["self_attention_no_weights"] = {
    "torch_softmax": '''
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1) @ inputs
''',
    "matmul_transpose": '''
def self_attention_no_weights(inputs):
    scores = torch.matmul(inputs, inputs.transpose(0, 1))
    return torch.matmul(softmax_stable(scores), inputs)
''',
    "einsum": '''
def self_attention_no_weights(inputs):
    scores = torch.einsum("id,jd->ij", inputs, inputs)
    weights = softmax_stable(scores)
    return torch.einsum("ij,jd->id", weights, inputs)
''',
}
