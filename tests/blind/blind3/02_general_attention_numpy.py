"""Blind set 3, notebook 02: general attention in NumPy. Written from notebooks/02_general_attention_numpy.ipynb only."""

MISTAKES = {
    "project_qkv": {
        "weights_left": (["order", "x @ w", "left", "right", "transpose"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return w_query.T @ inputs.T, w_key.T @ inputs.T, w_value.T @ inputs.T
'''),
        "elementwise": (["elementwise", "matrix product", "@", "matmul"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
'''),
        "swapped_key_value": (["key", "value", "swapped", "order"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_value, inputs @ w_key
'''),
        "transposed_weights": (["transpose", ".t", "w_query.t"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query.T, inputs @ w_key.T, inputs @ w_value.T
'''),
    },
    "state_weights": {
        "no_scale": (["sqrt", "scale", "d_k", "divide"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q)
'''),
        "scale_by_dk": (["sqrt", "square root", "d_k"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q / w_key.shape[1])
'''),
        "scale_by_dmodel": (["d_k", "d_model", "key width", "width"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q / np.sqrt(states.shape[1]))
'''),
        "naive_softmax": (["overflow", "maximum", "stable", "nan", "inf"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    e = np.exp(k @ q / np.sqrt(w_key.shape[1]))
    return e / e.sum()
'''),
        "query_from_key_matrix": (["w_query", "query", "projection", "w_key"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_query
    return softmax(k @ q / np.sqrt(w_key.shape[1]))
'''),
        "integer_sqrt": (["integer", "int", "floor", "dtype"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax((k @ q) // np.sqrt(w_key.shape[1]))
'''),
    },
    "state_attention": {
        "weights_on_states": (["values", "w_value", "projected", "project"], '''
def state_attention(state, states, w_query, w_key, w_value):
    return state_weights(state, states, w_query, w_key) @ states
'''),
        "keys_as_values": (["values", "keys", "w_value"], '''
def state_attention(state, states, w_query, w_key, w_value):
    return state_weights(state, states, w_query, w_key) @ (states @ w_key)
'''),
        "no_sum": (["sum", "weighted sum", "rows"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights[:, None] * (states @ w_value)
'''),
        "mean": (["mean", "average", "instead of a sum"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return (weights[:, None] * (states @ w_value)).mean(axis=0)
'''),
    },
}

VARIANTS = {
    "project_qkv": {
        "tuple": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_key, inputs @ w_value
''',
        "stacked_einsum": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.einsum("td,wdk->wtk", inputs, np.stack([w_query, w_key, w_value]))
''',
    },
    "state_weights": {
        "scipy_softmax": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(keys.shape[-1]))
''',
        "manual_stable": '''
def state_weights(state, states, w_query, w_key):
    query = np.asarray(state @ w_query, dtype=float)
    keys = np.asarray(states @ w_key, dtype=float)
    scores = np.array([k.dot(query) for k in keys]) / np.sqrt(keys.shape[1])
    e = np.exp(scores - scores.max())
    return e / e.sum()
''',
    },
    "state_attention": {
        "reuse": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ (states @ w_value)
''',
        "term_by_term": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    out = np.zeros(values.shape[1])
    for j in range(len(weights)):
        out = out + weights[j] * values[j]
    return out
''',
    },
}
