'''Second fresh set, notebook 01: learner submissions written without the key.

Written on 2026-11-23 by a helper session that read only the exercise texts, signatures and solution
cells of solutions/01_attention_without_weights.ipynb and the ids and titles of the mistake catalogue
(src/attention_course/mistakes.py); not autograder/key/, verdict.py, expected/, accuracy.py, nor any
other case file. Each case was checked only against the notebook's own solution (selfcheck.py), never
against the grader. Rule: this file is never edited after its first measurement.
'''

MISTAKES = {
    "scores_for_query": {
        "sum_instead_of_dot:plus": '''
def scores_for_query(query, inputs):
    return (inputs + query).sum(dim=-1)
''',
        "wrong_query:hardcoded_journey": '''
def scores_for_query(query, inputs):
    # query is "journey", row 1
    return inputs @ inputs[1]
''',
        "uncatalogued:sum_over_tokens": '''
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=0)
''',
        "scaled_too_early:scaled_by_sqrt_d": '''
def scores_for_query(query, inputs):
    return inputs @ query / query.shape[-1] ** 0.5
''',
        "lower_precision:float32": '''
def scores_for_query(query, inputs):
    return torch.mv(inputs.float(), query.float())
''',
        "loop_leftover:range_minus_one": '''
def scores_for_query(query, inputs):
    scores = torch.zeros(inputs.shape[0], dtype=inputs.dtype)
    for i in range(inputs.shape[0] - 1):
        scores[i] = torch.dot(inputs[i], query)
    return scores
''',
        "integer_arithmetic:long_buffer": '''
def scores_for_query(query, inputs):
    scores = torch.zeros(len(inputs), dtype=torch.long)
    for i, x in enumerate(inputs):
        scores[i] = torch.dot(x, query)
    return scores
''',
        "changes_inputs_in_place": '''
def scores_for_query(query, inputs):
    inputs *= query
    return inputs.sum(dim=1)
''',
    },
    "softmax_stable": {
        "softmax_no_max_subtraction": '''
def softmax_stable(scores):
    exps = torch.exp(scores)
    return exps / torch.sum(exps, dim=-1, keepdim=True)
''',
        "softmax_wrong_axis:dim0": '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=0, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=0, keepdim=True)
''',
        "normalise_by_sum": '''
def softmax_stable(scores):
    return scores / scores.sum(dim=-1, keepdim=True)
''',
        "changes_inputs_in_place": '''
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    scores.exp_()
    return scores / scores.sum(dim=-1, keepdim=True)
''',
        "uncatalogued:max_without_keepdim": '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max(dim=-1).values)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "softmax_no_max_subtraction:min_instead_of_max": '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.min(dim=-1, keepdim=True).values)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "lower_precision:half_exp": '''
def softmax_stable(scores):
    shifted = (scores - scores.max(dim=-1, keepdim=True).values).half()
    exps = torch.exp(shifted)
    return (exps / exps.sum(dim=-1, keepdim=True)).to(scores.dtype)
''',
        "uncatalogued:not_normalised": '''
def softmax_stable(scores):
    return torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
''',
    },
    "context_vector": {
        "uncatalogued:sum_over_features": '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
''',
        "loop_leftover:last_token_missing": '''
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
    for i in range(len(weights) - 1):
        context = context + weights[i] * inputs[i]
    return context
''',
        "loop_leftover:return_in_loop": '''
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
    for weight, x_i in zip(weights, inputs):
        context = context + weight * x_i
        return context
''',
        "lower_precision:default_zeros": '''
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1])
    for weight, x_i in zip(weights, inputs):
        context += weight * x_i
    return context
''',
        "uncatalogued:mean_not_sum": '''
def context_vector(weights, inputs):
    return (weights.unsqueeze(-1) * inputs).mean(dim=0)
''',
        "changes_inputs_in_place": '''
def context_vector(weights, inputs):
    inputs *= weights[:, None]
    return inputs.sum(dim=0)
''',
        "uncatalogued:inputs_not_transposed": '''
def context_vector(weights, inputs):
    return inputs @ weights
''',
    },
    "self_attention_no_weights": {
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
    return softmax_stable(scores)
''',
        "softmax_no_max_subtraction": '''
def self_attention_no_weights(inputs):
    exps = torch.exp(inputs @ inputs.T)
    weights = exps / exps.sum(dim=-1, keepdim=True)
    return weights @ inputs
''',
        "loop_leftover:first_query_only": '''
def self_attention_no_weights(inputs):
    weights = softmax_stable(inputs[0] @ inputs.T)
    return weights @ inputs
''',
        "softmax_over_all_entries": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    exps = torch.exp(scores - scores.max())
    return (exps / exps.sum()) @ inputs
''',
        "unscaled_attention_scaled:scaled_by_sqrt_d": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T / inputs.shape[1] ** 0.5
    return softmax_stable(scores) @ inputs
''',
    },
}

VARIANTS = {
    "scores_for_query": {
        "loop_dot": '''
def scores_for_query(query, inputs):
    return torch.stack([torch.dot(x_i, query) for x_i in inputs])
''',
        "einsum": '''
def scores_for_query(query, inputs):
    return torch.einsum("td,d->t", inputs, query)
''',
        "query_times_transpose": '''
def scores_for_query(query, inputs):
    return torch.matmul(query, inputs.T)
''',
    },
    "softmax_stable": {
        "logsumexp": '''
def softmax_stable(scores):
    return torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True))
''',
        "amax_index": '''
def softmax_stable(scores):
    m = torch.amax(scores, dim=-1, keepdim=True)
    e = (scores - m).exp()
    return e / e.sum(-1, keepdim=True)
''',
        "max_tuple": '''
def softmax_stable(scores):
    biggest, _ = scores.max(dim=-1, keepdim=True)
    exps = torch.exp(scores - biggest)
    total = exps.sum(dim=-1).unsqueeze(-1)
    return exps / total
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
    return (weights.unsqueeze(1) * inputs).sum(dim=0)
''',
    },
    "self_attention_no_weights": {
        "torch_softmax": '''
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1) @ inputs
''',
        "matmul_einsum": '''
def self_attention_no_weights(inputs):
    scores = torch.einsum("id,jd->ij", inputs, inputs)
    weights = softmax_stable(scores)
    return torch.einsum("ij,jd->id", weights, inputs)
''',
    },
}
