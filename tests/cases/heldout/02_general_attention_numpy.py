"""Held-out learner answers for notebook 02 (see README.md: never used to tune the diagnosis)."""

MISTAKES = {
    "project_qkv": {
        "mixed_up_projections:queries_keys": """
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_key
    keys = inputs @ w_query
    values = inputs @ w_value
    return queries, keys, values
""",
    },
}

VARIANTS = {
    "project_qkv": {
        "matmul_stack": """
def project_qkv(inputs, w_query, w_key, w_value):
    return np.stack([np.matmul(inputs, w) for w in (w_query, w_key, w_value)])
""",
    },
}
