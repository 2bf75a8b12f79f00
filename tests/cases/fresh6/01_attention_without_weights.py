"""Sixth fresh set, notebook 01: attention without trainable weights (PyTorch)."""

MISTAKES = {
    "scores_for_query": {
        "sum_instead_of_dot:elementwise_products": '''
def scores_for_query(query, inputs):
    return inputs * query
''',
        "sum_instead_of_dot:added_then_summed": '''
def scores_for_query(query, inputs):
    return (inputs + query).sum(dim=1)
''',
        "wrong_query:journey_hard_coded": '''
def scores_for_query(query, inputs):
    query = inputs[1]  # "journey"
    return inputs @ query
''',
        "scaled_too_early": '''
def scores_for_query(query, inputs):
    return inputs @ query / query.shape[0] ** 0.5
''',
        "lower_precision:float32_buffer": '''
def scores_for_query(query, inputs):
    scores = torch.empty(inputs.shape[0])
    for i, x_i in enumerate(inputs):
        scores[i] = torch.dot(x_i, query)
    return scores
''',
        "loop_leftover:range_minus_one": '''
def scores_for_query(query, inputs):
    scores = torch.zeros(inputs.shape[0], dtype=inputs.dtype)
    for i in range(inputs.shape[0] - 1):
        scores[i] = torch.dot(inputs[i], query)
    return scores
''',
        "changes_inputs_in_place": '''
def scores_for_query(query, inputs):
    inputs *= query
    return inputs.sum(dim=-1)
''',
        "uncatalogued:cosine_similarity": '''
def scores_for_query(query, inputs):
    return torch.nn.functional.cosine_similarity(inputs, query.unsqueeze(0), dim=1)
''',
        "uncatalogued:keeps_column_axis": '''
def scores_for_query(query, inputs):
    return inputs @ query.reshape(-1, 1)
''',
        "uncatalogued:softmax_already": '''
def scores_for_query(query, inputs):
    return torch.softmax(inputs @ query, dim=0)
''',
    },
    "softmax_stable": {
        "softmax_no_max_subtraction:naive": '''
def softmax_stable(scores):
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "softmax_no_max_subtraction:mean_shift": '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.mean(dim=-1, keepdim=True))
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "softmax_wrong_axis:dim0": '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max(dim=0, keepdim=True).values)
    return exps / exps.sum(dim=0, keepdim=True)
''',
        "softmax_over_all_entries": '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max())
    return exps / exps.sum()
''',
        "changes_inputs_in_place:sub_": '''
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    exps = scores.exp()
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "normalise_by_sum": '''
def softmax_stable(scores):
    return scores / scores.sum(dim=-1, keepdim=True)
''',
        "lower_precision:float32_cast": '''
def softmax_stable(scores):
    scores = scores.float()
    exps = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "uncatalogued:one_global_maximum": '''
def softmax_stable(scores):
    exps = torch.exp(scores - torch.max(scores))
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "uncatalogued:max_without_keepdim": '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max(dim=-1).values)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "uncatalogued:returns_log_softmax": '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    return shifted - torch.log(torch.exp(shifted).sum(dim=-1, keepdim=True))
''',
    },
    "context_vector": {
        "loop_leftover:range_minus_one": '''
def context_vector(weights, inputs):
    context = torch.zeros_like(inputs[0])
    for i in range(len(weights) - 1):
        context = context + weights[i] * inputs[i]
    return context
''',
        "loop_leftover:starts_at_one": '''
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
    for i in range(1, len(weights)):
        context = context + weights[i] * inputs[i]
    return context
''',
        "lower_precision:float32_zeros": '''
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1])
    for w, x in zip(weights, inputs):
        context += w * x
    return context
''',
        "changes_inputs_in_place": '''
def context_vector(weights, inputs):
    inputs *= weights[:, None]
    return inputs.sum(dim=0)
''',
        "uncatalogued:inputs_times_weights": '''
def context_vector(weights, inputs):
    return inputs @ weights
''',
        "uncatalogued:no_sum_over_tokens": '''
def context_vector(weights, inputs):
    return weights[:, None] * inputs
''',
        "uncatalogued:mean_instead_of_sum": '''
def context_vector(weights, inputs):
    return (weights.unsqueeze(1) * inputs).mean(dim=0)
''',
        "uncatalogued:sums_over_features": '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
''',
        "uncatalogued:softmax_again": '''
def context_vector(weights, inputs):
    weights = torch.softmax(weights, dim=0)
    return weights @ inputs
''',
    },
    "self_attention_no_weights": {
        "softmax_no_max_subtraction": '''
def self_attention_no_weights(inputs):
    exps = torch.exp(inputs @ inputs.T)
    return (exps / exps.sum(dim=-1, keepdim=True)) @ inputs
''',
        "softmax_wrong_axis": '''
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=0)
    return weights @ inputs
''',
        "softmax_over_all_entries": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = torch.softmax(scores.flatten(), dim=0).reshape(scores.shape)
    return weights @ inputs
''',
        "returns_weights": '''
def self_attention_no_weights(inputs):
    return softmax_stable(inputs @ inputs.T)
''',
        "no_softmax": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    return scores @ inputs
''',
        "normalise_by_sum": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    return (scores / scores.sum(dim=1, keepdim=True)) @ inputs
''',
        "weights_times_scores": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = softmax_stable(scores)
    return weights @ scores
''',
        "keys_without_transpose": '''
def self_attention_no_weights(inputs):
    weights = softmax_stable(inputs @ inputs)
    return weights @ inputs
''',
        "lower_precision:float_cast": '''
def self_attention_no_weights(inputs):
    x = inputs.float()
    return softmax_stable(x @ x.T) @ x
''',
        "unscaled_attention_scaled:scaled_by_sqrt_d": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T / inputs.shape[-1] ** 0.5
    return softmax_stable(scores) @ inputs
''',
    },
}

VARIANTS = {
    "scores_for_query": {
        "einsum": '''
def scores_for_query(query, inputs):
    return torch.einsum("td,d->t", inputs, query)
''',
        "stacked_dots": '''
def scores_for_query(query, inputs):
    return torch.stack([torch.dot(row, query) for row in inputs])
''',
    },
    "softmax_stable": {
        "logsumexp": '''
def softmax_stable(scores):
    return torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True))
''',
        "amax": '''
def softmax_stable(scores):
    top = torch.amax(scores, dim=-1, keepdim=True)
    e = (scores - top).exp()
    return e / e.sum(-1, keepdim=True)
''',
    },
    "context_vector": {
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
    },
    "self_attention_no_weights": {
        "torch_softmax_mT": '''
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.mT, dim=-1) @ inputs
''',
        "matmul_own_softmax": '''
def self_attention_no_weights(inputs):
    scores = torch.matmul(inputs, inputs.transpose(0, 1))
    scores = scores - scores.max(dim=1, keepdim=True).values
    weights = scores.exp() / scores.exp().sum(dim=1, keepdim=True)
    return torch.matmul(weights, inputs)
''',
    },
}
