"""Blind set 12, notebook 02: General attention in NumPy. Written from notebooks/02_general_attention_numpy.ipynb only."""

MISTAKES = {
    "project_qkv": {
        "weights_first": (["order", "x_i w_q", "inputs @ w", "transpose"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return w_query.T @ inputs.T, w_key.T @ inputs.T, w_value.T @ inputs.T
'''),
        "elementwise_product": (["matrix product", "@", "elementwise", "matmul"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
'''),
        "query_for_all": (["w_key", "w_value", "copy", "same matrix"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    q = inputs @ w_query
    return q, inputs @ w_key, inputs @ w_query
'''),
        "order_k_q_v": (["order", "tuple", "queries, keys, values"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_key, inputs @ w_query, inputs @ w_value
'''),
        "scaled_projection": (["sqrt", "scale", "divide"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    d_k = w_key.shape[1]
    return inputs @ w_query / np.sqrt(d_k), inputs @ w_key, inputs @ w_value
'''),
    },
    "state_weights": {
        "no_scaling": (["sqrt", "d_k", "scale", "divide"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q)
'''),
        "scale_by_d_model": (["d_k", "width of the key", "d_model", "sqrt"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q / np.sqrt(states.shape[1]))
'''),
        "divide_by_dk_no_sqrt": (["sqrt", "square root"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q / k.shape[1])
'''),
        "naive_softmax_overflow": (["overflow", "max", "stable", "nan"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    scores = (k @ q) / np.sqrt(k.shape[1])
    e = np.exp(scores)
    return e / e.sum()
'''),
        "integer_floor_division": (["integer", "floor", "//", "float"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    scores = (k @ q) // np.sqrt(k.shape[1]).astype(int)
    return softmax(scores)
'''),
        "no_softmax_divide_sum": (["softmax", "exp", "divid", "sum"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    scores = (k @ q) / np.sqrt(k.shape[1])
    return scores / scores.sum()
'''),
    },
    "state_attention": {
        "values_not_projected": (["w_value", "project", "values"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ states
'''),
        "keys_as_values": (["values", "keys", "w_value"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ (states @ w_key)
'''),
        "elementwise_no_sum": (["sum", "weighted sum", "add"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights[:, None] * (states @ w_value)
'''),
        "mean_instead_of_sum": (["mean", "average", "instead of a sum"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return (weights[:, None] * (states @ w_value)).mean(axis=0)
'''),
        "unscaled_scores": (["sqrt", "scale", "d_k"], '''
def state_attention(state, states, w_query, w_key, w_value):
    q = state @ w_query
    k = states @ w_key
    v = states @ w_value
    return softmax(k @ q) @ v
'''),
    },
}

VARIANTS = {
    "project_qkv": {
        "matmul_tuple": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_key, inputs @ w_value
''',
        "einsum_stacked": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.einsum("td,wdk->wtk", inputs, np.stack([w_query, w_key, w_value]))
''',
    },
    "state_weights": {
        "scipy_softmax": '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    scores = k @ q / np.sqrt(k.shape[1])
    return softmax(scores)
''',
        "manual_stable": '''
def state_weights(state, states, w_query, w_key):
    q = np.dot(state, w_query).astype(float)
    k = np.dot(states, w_key).astype(float)
    scores = np.array([np.dot(q, k_j) for k_j in k]) / np.sqrt(w_key.shape[1])
    e = np.exp(scores - scores.max())
    return e / e.sum()
''',
    },
    "state_attention": {
        "reuse_weights": '''
def state_attention(state, states, w_query, w_key, w_value):
    return state_weights(state, states, w_query, w_key) @ (states @ w_value)
''',
        "explicit_sum": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return np.sum(weights[:, None] * values, axis=0)
''',
    },
}
