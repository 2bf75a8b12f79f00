"""Fresh learner answers for notebook 01 (see README.md: written without the key, never tuned on)."""

MISTAKES = {
    "scores_for_query": {
        "sum_instead_of_dot:no_sum": """
def scores_for_query(query, inputs):
    return inputs * query
""",
        "wrong_query:hardcoded_journey": """
def scores_for_query(query, inputs):
    return inputs @ inputs[1]
""",
        "wrong_query:first_token": """
def scores_for_query(query, inputs):
    return torch.mv(inputs, inputs[0])
""",
        "scaled_too_early:sqrt_d": """
def scores_for_query(query, inputs):
    return inputs @ query / query.shape[0] ** 0.5
""",
        "lower_precision:half": """
def scores_for_query(query, inputs):
    return inputs.half() @ query.half()
""",
        "uncatalogued:inputs_transposed": """
def scores_for_query(query, inputs):
    return inputs.T @ query
""",
        "uncatalogued:summed_over_everything": """
def scores_for_query(query, inputs):
    return torch.sum(inputs * query)
""",
        "uncatalogued:sum_over_tokens_axis": """
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=0)
""",
        "uncatalogued:softmax_applied": """
def scores_for_query(query, inputs):
    return torch.softmax(inputs @ query, dim=0)
""",
    },
    "softmax_stable": {
        "softmax_no_max_subtraction:plain": """
def softmax_stable(scores):
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
""",
        "changes_inputs_in_place:augmented": """
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
""",
        "normalise_by_sum:no_exp": """
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    return scores / scores.sum(dim=-1, keepdim=True)
""",
        "softmax_wrong_axis:dim_one": """
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max(dim=1, keepdim=True).values)
    return exps / exps.sum(dim=1, keepdim=True)
""",
        "uncatalogued:global_max": """
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max())
    return exps / exps.sum(dim=-1, keepdim=True)
""",
        "uncatalogued:sum_without_keepdim": """
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
    return exps / exps.sum(dim=-1)
""",
        "uncatalogued:max_without_keepdim": """
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max(dim=-1).values)
    return exps / exps.sum(dim=-1, keepdim=True)
""",
        "uncatalogued:max_returns_tuple": """
def softmax_stable(scores):
    exps = torch.exp(scores - torch.max(scores, dim=-1, keepdim=True))
    return exps / torch.sum(exps, dim=-1, keepdim=True)
""",
        "uncatalogued:unshifted_denominator": """
def softmax_stable(scores):
    top = scores.max(dim=-1, keepdim=True).values
    return torch.exp(scores - top) / torch.exp(scores).sum(dim=-1, keepdim=True)
""",
    },
    "context_vector": {
        "loop_leftover:range_minus_one": """
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
    for i in range(len(weights) - 1):
        context += weights[i] * inputs[i]
    return context
""",
        "lower_precision:half_accumulator": """
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1], dtype=torch.float16)
    for weight, x_i in zip(weights, inputs):
        context += weight * x_i
    return context
""",
        "changes_inputs_in_place:scaled_rows": """
def context_vector(weights, inputs):
    inputs *= weights[:, None]
    return inputs.sum(dim=0)
""",
        "uncatalogued:inputs_transposed": """
def context_vector(weights, inputs):
    return weights @ inputs.T
""",
        "uncatalogued:weighted_rows_not_summed": """
def context_vector(weights, inputs):
    return weights[:, None] * inputs
""",
        "uncatalogued:sum_over_features": """
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
""",
        "uncatalogued:mean_instead_of_sum": """
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).mean(dim=0)
""",
        "uncatalogued:overwritten_in_loop": """
def context_vector(weights, inputs):
    for weight, x_i in zip(weights, inputs):
        context = weight * x_i
    return context
""",
    },
    "self_attention_no_weights": {
        "no_softmax:raw_scores": """
def self_attention_no_weights(inputs):
    return (inputs @ inputs.T) @ inputs
""",
        "normalise_by_sum:row_sums": """
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = scores / scores.sum(dim=1, keepdim=True)
    return weights @ inputs
""",
        "unscaled_attention_scaled:sqrt_d": """
def self_attention_no_weights(inputs):
    weights = softmax_stable(inputs @ inputs.T / inputs.shape[1] ** 0.5)
    return weights @ inputs
""",
        "returns_scores": """
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = softmax_stable(scores)
    return scores
""",
        "weights_times_scores:scores": """
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    return softmax_stable(scores) @ scores
""",
        "loop_leftover:one_query": """
def self_attention_no_weights(inputs):
    weights = softmax_stable(inputs @ inputs[1])
    return weights @ inputs
""",
        "lower_precision:half": """
def self_attention_no_weights(inputs):
    x = inputs.half()
    weights = torch.softmax(x @ x.T, dim=-1)
    return weights @ x
""",
        "scores_features_by_features:gram_of_features": """
def self_attention_no_weights(inputs):
    weights = softmax_stable(inputs.T @ inputs)
    return inputs @ weights
""",
        "uncatalogued:values_transposed": """
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
    return weights @ inputs.T
""",
    },
}

VARIANTS = {
    "scores_for_query": {
        "einsum": """
def scores_for_query(query, inputs):
    return torch.einsum("td,d->t", inputs, query)
""",
        "broadcast_sum": """
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=-1)
""",
        "filled_loop": """
def scores_for_query(query, inputs):
    scores = torch.empty(inputs.shape[0], dtype=inputs.dtype)
    for i, x_i in enumerate(inputs):
        scores[i] = torch.dot(x_i, query)
    return scores
""",
    },
    "softmax_stable": {
        "logsumexp": """
def softmax_stable(scores):
    return torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True))
""",
        "amax_positional": """
def softmax_stable(scores):
    exps = torch.exp(scores - scores.amax(-1, keepdim=True))
    return exps / exps.sum(-1, keepdim=True)
""",
        "clone_then_in_place": """
def softmax_stable(scores):
    out = scores.clone()
    out -= out.max(dim=-1, keepdim=True).values
    out.exp_()
    out /= out.sum(dim=-1, keepdim=True)
    return out
""",
        "unsqueeze_max": """
def softmax_stable(scores):
    biggest = scores.max(dim=-1).values.unsqueeze(-1)
    numerator = torch.exp(scores - biggest)
    denominator = torch.sum(numerator, dim=-1).unsqueeze(-1)
    return numerator / denominator
""",
    },
    "context_vector": {
        "vector_matrix": """
def context_vector(weights, inputs):
    return weights @ inputs
""",
        "einsum": """
def context_vector(weights, inputs):
    return torch.einsum("t,td->d", weights, inputs)
""",
        "view_broadcast": """
def context_vector(weights, inputs):
    return (weights.view(-1, 1) * inputs).sum(0)
""",
        "python_sum": """
def context_vector(weights, inputs):
    return sum(w * x for w, x in zip(weights, inputs))
""",
    },
    "self_attention_no_weights": {
        "einsum": """
def self_attention_no_weights(inputs):
    scores = torch.einsum("id,jd->ij", inputs, inputs)
    return torch.einsum("ij,jd->id", softmax_stable(scores), inputs)
""",
        "functional_softmax_dim1_mT": """
def self_attention_no_weights(inputs):
    return torch.nn.functional.softmax(inputs @ inputs.mT, dim=1) @ inputs
""",
        "matmul_methods": """
def self_attention_no_weights(inputs):
    scores = inputs.matmul(inputs.transpose(0, 1))
    weights = softmax_stable(scores)
    return weights.matmul(inputs)
""",
    },
}
