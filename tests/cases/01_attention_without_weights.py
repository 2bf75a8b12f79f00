"""Learner-style answers for notebook 01: one catalogued mistake each, or a correct variant.

Keys: the exercise's solution cell (grade_id), then the mistake id (from
attention_course.mistakes) or a variant's name. Values: what a learner types into that cell.
Run by ``python3 tasks.py accuracy`` and tests/test_accuracy.py.
"""

MISTAKES = {
    "scores_for_query": {
        "sum_instead_of_dot": """
def scores_for_query(query, inputs):
    return inputs * query
""",
        "wrong_query": """
def scores_for_query(query, inputs):
    return inputs @ inputs[1]  # always "journey"
""",
        "changes_inputs_in_place": """
def scores_for_query(query, inputs):
    inputs *= query
    return inputs.sum(dim=1)
""",
    },
    "softmax_stable": {
        "softmax_wrong_axis": """
def softmax_stable(scores):
    exps = torch.exp(scores - scores.max())
    return exps / exps.sum(dim=0, keepdim=True)
""",
        "softmax_no_max_subtraction": """
def softmax_stable(scores):
    return torch.exp(scores) / torch.exp(scores).sum(dim=-1, keepdim=True)
""",
        "normalise_by_sum": """
def softmax_stable(scores):
    return scores / scores.sum(dim=-1, keepdim=True)
""",
        "no_softmax": """
def softmax_stable(scores):
    return scores
""",
        "changes_inputs_in_place": """
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    scores.exp_()
    return scores / scores.sum(dim=-1, keepdim=True)
""",
    },
    "context_vector": {
        "returns_weights": """
def context_vector(weights, inputs):
    return weights
""",
        "weights_times_scores": """
def context_vector(weights, inputs):
    scores = inputs @ inputs.T
    return weights @ scores
""",
        "changes_inputs_in_place": """
def context_vector(weights, inputs):
    inputs *= weights[:, None]
    return inputs.sum(dim=0)
""",
    },
    "self_attention_no_weights": {
        "softmax_wrong_axis": """
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=0) @ inputs
""",
        "normalise_by_sum": """
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    return (scores / scores.sum(dim=-1, keepdim=True)) @ inputs
""",
        "no_softmax": """
def self_attention_no_weights(inputs):
    return (inputs @ inputs.T) @ inputs
""",
        "returns_weights": """
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1)
""",
        "returns_scores": """
def self_attention_no_weights(inputs):
    return inputs @ inputs.T
""",
        "weights_times_scores": """
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    return torch.softmax(scores, dim=-1) @ scores
""",
    },
}

VARIANTS = {
    "scores_for_query": {
        "loop_with_dot": """
def scores_for_query(query, inputs):
    scores = torch.empty(inputs.shape[0], dtype=inputs.dtype)
    for i, x_i in enumerate(inputs):
        scores[i] = torch.dot(x_i, query)
    return scores
""",
        "einsum": """
def scores_for_query(query, inputs):
    return torch.einsum("td,d->t", inputs, query)
""",
        "multiply_and_sum": """
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=-1)
""",
        "numpy_inside": """
def scores_for_query(query, inputs):
    return torch.from_numpy(inputs.numpy() @ query.numpy())
""",
    },
    "softmax_stable": {
        "amax": """
def softmax_stable(scores):
    exps = torch.exp(scores - torch.amax(scores, dim=-1, keepdim=True))
    return exps / exps.sum(dim=-1, keepdim=True)
""",
        "logsumexp": """
def softmax_stable(scores):
    return torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True))
""",
        "scipy": """
from scipy.special import softmax as scipy_softmax

def softmax_stable(scores):
    return torch.from_numpy(scipy_softmax(scores.numpy(), axis=-1))
""",
        "float64_inside": """
def softmax_stable(scores):
    s = scores.double()
    e = torch.exp(s - s.max(dim=-1, keepdim=True).values)
    return (e / e.sum(dim=-1, keepdim=True)).to(scores.dtype)
""",
    },
    "context_vector": {
        "matrix_vector": """
def context_vector(weights, inputs):
    return weights @ inputs
""",
        "einsum": """
def context_vector(weights, inputs):
    return torch.einsum("t,td->d", weights, inputs)
""",
        "broadcast_sum": """
def context_vector(weights, inputs):
    return (weights[:, None] * inputs).sum(dim=0)
""",
    },
    "self_attention_no_weights": {
        "torch_softmax": """
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1) @ inputs
""",
        "loops": """
def self_attention_no_weights(inputs):
    n = inputs.shape[0]
    out = torch.zeros_like(inputs)
    for i in range(n):
        scores = torch.stack([torch.dot(inputs[i], inputs[j]) for j in range(n)])
        weights = torch.exp(scores - scores.max())
        weights = weights / weights.sum()
        for j in range(n):
            out[i] += weights[j] * inputs[j]
    return out
""",
        "einsum_float64": """
def self_attention_no_weights(inputs):
    x = inputs.double()
    weights = torch.softmax(torch.einsum("id,jd->ij", x, x), dim=1)
    return torch.einsum("ij,jd->id", weights, x).to(inputs.dtype)
""",
    },
}
