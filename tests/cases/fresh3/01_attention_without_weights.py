"""Third fresh set, notebook 01: learners' answers written without the grader's key.

Each source is what a learner would type in the exercise's solution cell; the notebook's earlier
cells have run. Written on 2026-11-23 from the exercise texts and the catalogue's ids and hints only,
checked only against the notebook's own solution (tests/cases/selfcheck.py fresh3), never against the
grader. Rule: never edited after its first measurement (see README.md).
"""

MISTAKES = {
    "scores_for_query": {
        # hard-coded "journey" from the walkthrough instead of the query argument
        "wrong_query:journey_row": '''
def scores_for_query(query, inputs):
    return inputs @ inputs[1]
''',
        "sum_instead_of_dot:no_reduction": '''
def scores_for_query(query, inputs):
    return inputs * query
''',
        "sum_instead_of_dot:added": '''
def scores_for_query(query, inputs):
    # "multiply matching entries and add them up"
    return (inputs + query).sum(dim=-1)
''',
        "scaled_too_early:sqrt_d": '''
import math

def scores_for_query(query, inputs):
    return inputs @ query / math.sqrt(query.shape[0])
''',
        "loop_leftover:range_from_one": '''
def scores_for_query(query, inputs):
    scores = torch.zeros(inputs.shape[0], dtype=inputs.dtype)
    for i in range(1, inputs.shape[0]):
        scores[i] = torch.dot(inputs[i], query)
    return scores
''',
        "changes_inputs_in_place:mul_": '''
def scores_for_query(query, inputs):
    inputs.mul_(query)
    return inputs.sum(dim=1)
''',
        "lower_precision:tensor_of_items": '''
def scores_for_query(query, inputs):
    return torch.tensor([torch.dot(x, query).item() for x in inputs])
''',
        "uncatalogued:summed_over_tokens": '''
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=0)
''',
        "uncatalogued:softmax_already": '''
def scores_for_query(query, inputs):
    return torch.softmax(inputs @ query, dim=0)
''',
        "uncatalogued:cosine_similarity": '''
def scores_for_query(query, inputs):
    return torch.nn.functional.cosine_similarity(inputs, query[None, :], dim=-1)
''',
    },
    "softmax_stable": {
        "softmax_no_max_subtraction:plain": '''
def softmax_stable(scores):
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "softmax_wrong_axis:dim0": '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=0, keepdim=True).values
    exps = shifted.exp()
    return exps / exps.sum(dim=0, keepdim=True)
''',
        "changes_inputs_in_place:sub_assign": '''
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "normalise_by_sum:shifted": '''
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    return shifted / shifted.sum(dim=-1, keepdim=True)
''',
        "softmax_over_all_entries:global": '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max())
    return exps / exps.sum()
''',
        "lower_precision:half": '''
def softmax_stable(scores):
    s = scores.half()
    exps = torch.exp(s - s.max(dim=-1, keepdim=True).values)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "uncatalogued:global_max_row_sums": '''
def softmax_stable(scores):
    # one maximum for the whole tensor, sums per row
    exps = torch.exp(scores - scores.max())
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "uncatalogued:max_without_keepdim": '''
def softmax_stable(scores):
    m = scores.max(dim=-1).values
    exps = torch.exp(scores - m)
    return exps / exps.sum(dim=-1, keepdim=True)
''',
        "uncatalogued:sum_without_keepdim": '''
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
    return exps / exps.sum(dim=-1)
''',
    },
    "context_vector": {
        "loop_leftover:range_minus_one": '''
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
    for i in range(len(weights) - 1):
        context = context + weights[i] * inputs[i]
    return context
''',
        "lower_precision:float32_accumulator": '''
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1])
    for w, x in zip(weights, inputs):
        context += w * x
    return context
''',
        "changes_inputs_in_place:scaled_rows": '''
def context_vector(weights, inputs):
    for i in range(inputs.shape[0]):
        inputs[i] *= weights[i]
    return inputs.sum(dim=0)
''',
        "weights_times_scores:dot_scores": '''
def context_vector(weights, inputs):
    # "attention weight * attention scores", as the seed's comment says
    scores = inputs @ inputs.T
    return weights @ scores
''',
        "uncatalogued:summed_over_features": '''
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=1)
''',
        "uncatalogued:accumulator_overwritten": '''
def context_vector(weights, inputs):
    context = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
    for weight, x_i in zip(weights, inputs):
        context = weight * x_i
    return context
''',
        "uncatalogued:softmax_of_weights": '''
def context_vector(weights, inputs):
    return torch.softmax(weights, dim=0) @ inputs
''',
        "uncatalogued:mean_not_sum": '''
def context_vector(weights, inputs):
    return (weights.unsqueeze(1) * inputs).mean(dim=0)
''',
    },
    "self_attention_no_weights": {
        "softmax_wrong_axis:columns": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = torch.softmax(scores, dim=0)
    return weights @ inputs
''',
        "weights_transposed:t": '''
def self_attention_no_weights(inputs):
    weights = softmax_stable(inputs @ inputs.T)
    return weights.T @ inputs
''',
        "returns_weights:stops_early": '''
def self_attention_no_weights(inputs):
    return softmax_stable(inputs @ inputs.T)
''',
        "keys_without_transpose:square": '''
def self_attention_no_weights(inputs):
    weights = softmax_stable(inputs @ inputs)
    return weights @ inputs
''',
        "softmax_no_max_subtraction:naive": '''
def self_attention_no_weights(inputs):
    exps = torch.exp(inputs @ inputs.T)
    return (exps / exps.sum(dim=-1, keepdim=True)) @ inputs
''',
        "normalise_by_sum:rows": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    return (scores / scores.sum(dim=-1, keepdim=True)) @ inputs
''',
        "weights_times_scores:scores_again": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    return softmax_stable(scores) @ scores
''',
        "unscaled_attention_scaled:scaled_anyway": '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T / inputs.shape[-1] ** 0.5
    return softmax_stable(scores) @ inputs
''',
        "uncatalogued:residual_added": '''
def self_attention_no_weights(inputs):
    return inputs + softmax_stable(inputs @ inputs.T) @ inputs
''',
    },
}

VARIANTS = {
    "scores_for_query": {
        "mv": '''
def scores_for_query(query, inputs):
    return torch.mv(inputs, query)
''',
        "einsum": '''
def scores_for_query(query, inputs):
    return torch.einsum("td,d->t", inputs, query)
''',
        "loop_stack": '''
def scores_for_query(query, inputs):
    return torch.stack([torch.dot(row, query) for row in inputs])
''',
    },
    "softmax_stable": {
        "logsumexp": '''
def softmax_stable(scores):
    return torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True))
''',
        "amax_unsqueeze": '''
def softmax_stable(scores):
    z = torch.exp(scores - scores.amax(dim=-1).unsqueeze(-1))
    return z / z.sum(dim=-1).unsqueeze(-1)
''',
        "helper_function": '''
def _row_max(t):
    return torch.max(t, dim=-1, keepdim=True)[0]


def softmax_stable(scores):
    numerator = torch.exp(scores - _row_max(scores))
    denominator = torch.sum(numerator, dim=-1, keepdim=True)
    return numerator / denominator
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
        "einsum": '''
def self_attention_no_weights(inputs):
    scores = torch.einsum("id,jd->ij", inputs, inputs)
    return torch.einsum("ij,jd->id", softmax_stable(scores), inputs)
''',
        "matmul_transpose": '''
def self_attention_no_weights(inputs):
    attn = softmax_stable(torch.matmul(inputs, inputs.transpose(0, 1)))
    return torch.matmul(attn, inputs)
''',
    },
}
