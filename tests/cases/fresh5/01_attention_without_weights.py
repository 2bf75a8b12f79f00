"""Fifth fresh set, notebook 01 (PyTorch): what a learner types into each solution cell."""

MISTAKES = {
    "scores_for_query": {
        "sum_instead_of_dot:no_sum": '''
def scores_for_query(query, inputs):
    return inputs * query
''',
        "sum_instead_of_dot:added": '''
def scores_for_query(query, inputs):
    return (inputs + query).sum(dim=1)
''',
        "wrong_query:hardcoded_journey": '''
def scores_for_query(query, inputs):
    query = inputs[1]  # "journey"
    return inputs @ query
''',
        "keys_without_transpose:query_first": '''
def scores_for_query(query, inputs):
    return query @ inputs
''',
        "lower_precision:float_call": '''
def scores_for_query(query, inputs):
    return inputs.float() @ query.float()
''',
        "integer_arithmetic:long_buffer": '''
def scores_for_query(query, inputs):
    scores = torch.zeros(inputs.shape[0], dtype=torch.long)
    for i in range(inputs.shape[0]):
        scores[i] = torch.dot(inputs[i], query)
    return scores
''',
        "loop_leftover:range_minus_one": '''
def scores_for_query(query, inputs):
    scores = torch.zeros(len(inputs), dtype=inputs.dtype)
    for i in range(len(inputs) - 1):
        scores[i] = torch.dot(inputs[i], query)
    return scores
''',
        "uncatalogued:cosine_similarity": '''
def scores_for_query(query, inputs):
    return (inputs @ query) / (inputs.norm(dim=1) * query.norm())
''',
        "uncatalogued:rounded_to_print": '''
def scores_for_query(query, inputs):
    return torch.round(inputs @ query, decimals=4)
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
        "softmax_no_max_subtraction:shift_by_min": '''
def softmax_stable(scores):
    shifted = scores - scores.min(dim=-1, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "softmax_no_max_subtraction:shift_by_mean": '''
def softmax_stable(scores):
    e = torch.exp(scores - scores.mean(dim=-1, keepdim=True))
    return e / torch.sum(e, dim=-1, keepdim=True)
''',
        "softmax_wrong_axis:dim0": '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=0, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=0, keepdim=True)
''',
        "softmax_over_all_entries:whole_tensor": '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max())
    return exps / exps.sum()
''',
        "uncatalogued:global_max": '''
def softmax_stable(scores):
    exps = torch.exp(scores - torch.max(scores))
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "changes_inputs_in_place:sub_": '''
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "normalise_by_sum": '''
def softmax_stable(scores):
    return scores / scores.sum(dim=-1, keepdim=True)
''',
        "lower_precision:half_exps": '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(shifted.half()).to(scores.dtype)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "softmax_no_max_subtraction:argmax_index": '''
def softmax_stable(scores):
    shifted = scores - torch.max(scores, dim=-1, keepdim=True)[1]
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "uncatalogued:log_softmax": '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    return shifted - torch.log(torch.exp(shifted).sum(dim=-1, keepdim=True))
''',
    },
    "context_vector": {
        "uncatalogued:inputs_times_weights": '''
def context_vector(weights, inputs):
    return inputs @ weights
''',
        "uncatalogued:not_summed": '''
def context_vector(weights, inputs):
    return weights[:, None] * inputs
''',
        "uncatalogued:mean_not_sum": '''
def context_vector(weights, inputs):
    return (weights.unsqueeze(1) * inputs).mean(dim=0)
''',
        "uncatalogued:summed_over_features": '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
''',
        "loop_leftover:skips_first_token": '''
def context_vector(weights, inputs):
    context = torch.zeros_like(inputs[0])
    for i in range(1, len(weights)):
        context = context + weights[i] * inputs[i]
    return context
''',
        "lower_precision:float32_buffer": '''
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1])
    for w, x in zip(weights, inputs):
        context += w * x
    return context
''',
        "changes_inputs_in_place:scaled_rows": '''
def context_vector(weights, inputs):
    for i in range(len(weights)):
        inputs[i] *= weights[i]
    return inputs.sum(dim=0)
''',
        "uncatalogued:softmax_again": '''
def context_vector(weights, inputs):
    return torch.softmax(weights, dim=0) @ inputs
''',
    },
    "self_attention_no_weights": {
        "softmax_no_max_subtraction:exp": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = torch.exp(scores) / torch.exp(scores).sum(dim=-1, keepdim=True)
    return weights @ inputs
''',
        "softmax_wrong_axis:dim0": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    return torch.softmax(scores, dim=0) @ inputs
''',
        "no_softmax": '''
def self_attention_no_weights(inputs):
    return (inputs @ inputs.T) @ inputs
''',
        "normalise_by_sum": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = scores / scores.sum(dim=1, keepdim=True)
    return weights @ inputs
''',
        "weights_times_scores": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = softmax_stable(scores)
    return weights @ scores
''',
        "returns_weights": '''
def self_attention_no_weights(inputs):
    attn_scores = torch.matmul(inputs, inputs.T)
    attn_weights = softmax_stable(attn_scores)
    return attn_weights
''',
        "softmax_over_all_entries:flattened": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = torch.softmax(scores.flatten(), dim=0).reshape(scores.shape)
    return weights @ inputs
''',
        "keys_without_transpose": '''
def self_attention_no_weights(inputs):
    weights = softmax_stable(inputs @ inputs)
    return weights @ inputs
''',
        "uncatalogued:global_max": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    exps = torch.exp(scores - scores.max())
    weights = exps / exps.sum(dim=-1, keepdim=True)
    return weights @ inputs
''',
        "unscaled_attention_scaled:scaled_anyway": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T / inputs.shape[1] ** 0.5
    return softmax_stable(scores) @ inputs
''',
        "lower_precision:float32_matmul": '''
def self_attention_no_weights(inputs):
    x = inputs.to(torch.float32)
    return softmax_stable(x @ x.T) @ x
''',
    },
}

VARIANTS = {
    "scores_for_query": {
        "stack_of_dots": '''
def scores_for_query(query, inputs):
    return torch.stack([torch.dot(row, query) for row in inputs])
''',
        "einsum": '''
def scores_for_query(query, inputs):
    return torch.einsum("td,d->t", inputs, query)
''',
        "mul_sum": '''
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=-1)
''',
    },
    "softmax_stable": {
        "logsumexp": '''
def softmax_stable(scores):
    return torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True))
''',
        "amax_helper": '''
def softmax_stable(scores):
    m = torch.amax(scores, dim=-1, keepdim=True)
    e = (scores - m).exp()
    total = e.sum(-1, keepdim=True)
    return e / total
''',
    },
    "context_vector": {
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
    return (weights.unsqueeze(-1) * inputs).sum(dim=0)
''',
    },
    "self_attention_no_weights": {
        "torch_softmax": '''
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1) @ inputs
''',
        "einsum_logsumexp": '''
def self_attention_no_weights(inputs):
    scores = torch.einsum("id,jd->ij", inputs, inputs)
    weights = torch.exp(scores - torch.logsumexp(scores, dim=1, keepdim=True))
    return torch.einsum("ij,jd->id", weights, inputs)
''',
    },
}
