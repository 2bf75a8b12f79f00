"""Fresh learner answers for notebook 02 (see README.md: written without the key, never tuned on)."""

MISTAKES = {
    "project_qkv": {
        "projection_order:weights_first": """
def project_qkv(inputs, w_query, w_key, w_value):
    return w_query @ inputs, w_key @ inputs, w_value @ inputs
""",
        "mixed_up_projections:order_of_return": """
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_key
    values = inputs @ w_value
    return queries, values, keys
""",
        "mixed_up_projections:copy_paste": """
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_query
    values = inputs @ w_value
    return queries, keys, values
""",
        "integer_arithmetic:astype_int": """
def project_qkv(inputs, w_query, w_key, w_value):
    return tuple((inputs @ w).astype(int) for w in (w_query, w_key, w_value))
""",
        "lower_precision:float32": """
def project_qkv(inputs, w_query, w_key, w_value):
    x = inputs.astype(np.float32)
    return x @ w_query.astype(np.float32), x @ w_key.astype(np.float32), x @ w_value.astype(np.float32)
""",
        "uncatalogued:stacked_on_last_axis": """
def project_qkv(inputs, w_query, w_key, w_value):
    return np.stack([inputs @ w_query, inputs @ w_key, inputs @ w_value], axis=-1)
""",
        "uncatalogued:elementwise_product": """
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
""",
        "projection_order:transposed_results": """
def project_qkv(inputs, w_query, w_key, w_value):
    return w_query.T @ inputs.T, w_key.T @ inputs.T, w_value.T @ inputs.T
""",
    },
}

VARIANTS = {
    "project_qkv": {
        "generator_tuple": """
def project_qkv(inputs, w_query, w_key, w_value):
    return tuple(inputs @ w for w in (w_query, w_key, w_value))
""",
        "stacked": """
def project_qkv(inputs, w_query, w_key, w_value):
    return np.stack([inputs @ w_query, inputs @ w_key, inputs @ w_value])
""",
        "einsum": """
def project_qkv(inputs, w_query, w_key, w_value):
    queries = np.einsum("td,dk->tk", inputs, w_query)
    keys = np.einsum("td,dk->tk", inputs, w_key)
    values = np.einsum("td,dk->tk", inputs, w_value)
    return queries, keys, values
""",
        "broadcast_matmul": """
def project_qkv(inputs, w_query, w_key, w_value):
    return np.matmul(inputs, np.stack([w_query, w_key, w_value]))
""",
    },
}
