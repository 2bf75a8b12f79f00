"""Seventh fresh set, notebook 01. Written without the key (see README.md)."""

MISTAKES = {
    "scores_for_query": {
        "sum_instead_of_dot:elementwise": """
def scores_for_query(query, inputs):
    return inputs * query
""",
        "sum_instead_of_dot:added": """
def scores_for_query(query, inputs):
    return (inputs + query).sum(dim=1)
""",
        "scaled_too_early": """
def scores_for_query(query, inputs):
    return inputs @ query / query.shape[0] ** 0.5
""",
        "wrong_query:hardcoded_journey": """
def scores_for_query(query, inputs):
    return inputs @ inputs[1]
""",
        "lower_precision:half": """
def scores_for_query(query, inputs):
    return (inputs.half() * query.half()).sum(dim=-1).to(inputs.dtype)
""",
        "loop_leftover:skips_first": """
def scores_for_query(query, inputs):
    scores = torch.zeros(inputs.shape[0], dtype=inputs.dtype)
    for i in range(1, inputs.shape[0]):
        scores[i] = torch.dot(inputs[i], query)
    return scores
""",
        "uncatalogued:softmaxed": """
def scores_for_query(query, inputs):
    return torch.softmax(inputs @ query, dim=0)
""",
    },
    "softmax_stable": {
        "softmax_no_max_subtraction": """
def softmax_stable(scores):
    e = torch.exp(scores)
    return e / e.sum(dim=-1, keepdim=True)
""",
        "softmax_no_max_subtraction:mean_shift": """
def softmax_stable(scores):
    e = torch.exp(scores - scores.mean(dim=-1, keepdim=True))
    return e / e.sum(dim=-1, keepdim=True)
""",
        "softmax_wrong_axis": """
def softmax_stable(scores):
    e = torch.exp(scores - scores.max(dim=0, keepdim=True).values)
    return e / e.sum(dim=0, keepdim=True)
""",
        "changes_inputs_in_place": """
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    e = torch.exp(scores)
    return e / e.sum(dim=-1, keepdim=True)
""",
        "normalise_by_sum": """
def softmax_stable(scores):
    return scores / scores.sum(dim=-1, keepdim=True)
""",
        "softmax_over_all_entries": """
def softmax_stable(scores):
    e = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
    return e / e.sum()
""",
        "uncatalogued:one_global_max": """
def softmax_stable(scores):
    e = torch.exp(scores - scores.max())
    return e / e.sum(dim=-1, keepdim=True)
""",
        "lower_precision:float32": """
def softmax_stable(scores):
    s = scores.float()
    e = torch.exp(s - s.max(dim=-1, keepdim=True).values)
    return e / e.sum(dim=-1, keepdim=True)
""",
        "uncatalogued:max_without_keepdim": """
def softmax_stable(scores):
    e = torch.exp(scores - scores.max(dim=-1).values)
    return e / e.sum(dim=-1, keepdim=True)
""",
    },
    "context_vector": {
        "loop_leftover:starts_at_one": """
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
    for i in range(1, len(weights)):
        context = context + weights[i] * inputs[i]
    return context
""",
        "loop_leftover:stops_early": """
def context_vector(weights, inputs):
    context = torch.zeros_like(inputs[0])
    for i in range(len(weights) - 1):
        context = context + weights[i] * inputs[i]
    return context
""",
        "uncatalogued:sum_over_features": """
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
""",
        "uncatalogued:mean_not_sum": """
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).mean(dim=0)
""",
        "lower_precision:float32_buffer": """
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1])
    for w, x in zip(weights, inputs):
        context += w * x
    return context
""",
        "changes_inputs_in_place": """
def context_vector(weights, inputs):
    inputs *= weights[:, None]
    return inputs.sum(dim=0)
""",
        "uncatalogued:rows_not_summed": """
def context_vector(weights, inputs):
    return weights.unsqueeze(1) * inputs
""",
    },
    "self_attention_no_weights": {
        "softmax_wrong_axis": """
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = torch.softmax(scores, dim=0)
    return weights @ inputs
""",
        "unscaled_attention_scaled:scaled_by_sqrt_d": """
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T / inputs.shape[1] ** 0.5
    return softmax_stable(scores) @ inputs
""",
        "no_softmax": """
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    return scores @ inputs
""",
        "normalise_by_sum": """
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = scores / scores.sum(dim=-1, keepdim=True)
    return weights @ inputs
""",
        "returns_weights": """
def self_attention_no_weights(inputs):
    return softmax_stable(inputs @ inputs.T)
""",
        "weights_transposed": """
def self_attention_no_weights(inputs):
    weights = softmax_stable(inputs @ inputs.T)
    return weights.T @ inputs
""",
        "softmax_no_max_subtraction": """
def self_attention_no_weights(inputs):
    e = torch.exp(inputs @ inputs.T)
    weights = e / e.sum(dim=1, keepdim=True)
    return weights @ inputs
""",
        "weights_times_scores": """
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = softmax_stable(scores)
    return weights @ scores
""",
    },
}

VARIANTS = {
    "scores_for_query": {
        "einsum": """
def scores_for_query(query, inputs):
    return torch.einsum('td,d->t', inputs, query)
""",
        "dot_loop": """
def scores_for_query(query, inputs):
    return torch.stack([torch.dot(x_i, query) for x_i in inputs])
""",
    },
    "softmax_stable": {
        "logsumexp": """
def softmax_stable(scores):
    return torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True))
""",
        "amax_clone": """
def softmax_stable(scores):
    x = scores.clone()
    x = x - torch.amax(x, dim=-1, keepdim=True)
    num = x.exp()
    den = num.sum(-1).unsqueeze(-1)
    return num / den
""",
    },
    "context_vector": {
        "matvec": """
def context_vector(weights, inputs):
    return weights @ inputs
""",
        "broadcast_sum": """
def context_vector(weights, inputs):
    return (weights.unsqueeze(-1) * inputs).sum(dim=0)
""",
    },
    "self_attention_no_weights": {
        "torch_softmax": """
def self_attention_no_weights(inputs):
    attn = torch.softmax(inputs @ inputs.transpose(0, 1), dim=-1)
    return attn @ inputs
""",
        "einsum": """
def self_attention_no_weights(inputs):
    s = torch.einsum('id,jd->ij', inputs, inputs)
    w = softmax_stable(s)
    return torch.einsum('ij,jd->id', w, inputs)
""",
    },
}
