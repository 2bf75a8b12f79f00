"""Held-out learner answers for notebook 01 (see README.md: never used to tune the diagnosis)."""

MISTAKES = {
    "scores_for_query": {
        "wrong_query:last_token": """
def scores_for_query(query, inputs):
    return inputs @ inputs[-1]
""",
        "keys_without_transpose": """
def scores_for_query(query, inputs):
    return query @ inputs
""",
        "sum_instead_of_dot:plus": """
def scores_for_query(query, inputs):
    return torch.sum(inputs + query, dim=1)
""",
    },
    "softmax_stable": {
        "softmax_over_all_entries": """
def softmax_stable(scores):
    shifted = scores - scores.max()
    exps = torch.exp(shifted)
    return exps / exps.sum()
""",
        "softmax_no_max_subtraction:subtract_min": """
def softmax_stable(scores):
    shifted = scores - scores.min(dim=-1, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=-1, keepdim=True)
""",
        "softmax_wrong_axis:dim0": """
def softmax_stable(scores):
    shifted = scores - scores.max(dim=0, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=0, keepdim=True)
""",
        "changes_inputs_in_place:sub_": """
def softmax_stable(scores):
    scores.sub_(scores.max(dim=-1, keepdim=True).values)
    exps = torch.exp(scores)
    return exps / exps.sum(dim=-1, keepdim=True)
""",
        "lower_precision": """
def softmax_stable(scores):
    scores = scores.half()
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=-1, keepdim=True)
""",
    },
    "context_vector": {
        "weights_times_scores:gram": """
def context_vector(weights, inputs):
    return weights @ (inputs @ inputs.T)
""",
    },
    "self_attention_no_weights": {
        "weights_transposed": """
def self_attention_no_weights(inputs):
    weights = softmax_stable(inputs @ inputs.T)
    return weights.T @ inputs
""",
        "softmax_wrong_axis:dim0": """
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=0)
    return weights @ inputs
""",
        "softmax_over_all_entries": """
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    exps = torch.exp(scores - scores.max())
    return (exps / exps.sum()) @ inputs
""",
        "softmax_no_max_subtraction": """
def self_attention_no_weights(inputs):
    exps = torch.exp(inputs @ inputs.T)
    weights = exps / exps.sum(dim=1, keepdim=True)
    return weights @ inputs
""",
        "returns_weights:helper": """
def self_attention_no_weights(inputs):
    return softmax_stable(torch.matmul(inputs, inputs.T))
""",
    },
}

VARIANTS = {
    "scores_for_query": {
        "query_times_transpose": """
def scores_for_query(query, inputs):
    return query @ inputs.T
""",
        "stack_of_dots": """
def scores_for_query(query, inputs):
    return torch.stack([torch.dot(x, query) for x in inputs])
""",
        "matmul": """
def scores_for_query(query, inputs):
    return torch.matmul(inputs, query)
""",
    },
    "softmax_stable": {
        "torch_softmax": """
def softmax_stable(scores):
    return torch.softmax(scores, dim=-1)
""",
        "functional_softmax": """
def softmax_stable(scores):
    return torch.nn.functional.softmax(scores, dim=-1)
""",
        "max_tuple_index": """
def softmax_stable(scores):
    exps = torch.exp(scores - torch.max(scores, dim=-1, keepdim=True)[0])
    return exps / torch.sum(exps, dim=-1, keepdim=True)
""",
    },
    "context_vector": {
        "transpose_times_weights": """
def context_vector(weights, inputs):
    return inputs.T @ weights
""",
        "unsqueeze_sum": """
def context_vector(weights, inputs):
    return (weights.unsqueeze(1) * inputs).sum(dim=0)
""",
    },
    "self_attention_no_weights": {
        "functional_softmax_mm": """
def self_attention_no_weights(inputs):
    weights = torch.nn.functional.softmax(torch.mm(inputs, inputs.t()), dim=-1)
    return torch.mm(weights, inputs)
""",
        "row_by_row": """
def self_attention_no_weights(inputs):
    rows = []
    for query in inputs:
        weights = softmax_stable(inputs @ query)
        rows.append(weights @ inputs)
    return torch.stack(rows)
""",
    },
}
