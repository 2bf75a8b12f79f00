"""Blind set 4, notebook 02: General attention with queries, keys and values. Written from notebooks/02_general_attention_numpy.ipynb only."""

MISTAKES = {
    "project_qkv": {
        "weights_on_left": (["order", "transpose", "x @ w", "left"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return w_query.T @ inputs.T, w_key.T @ inputs.T, w_value.T @ inputs.T
'''),
        "elementwise": (["matrix product", "@", "element-wise", "elementwise"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
'''),
        "swapped_key_value": (["key", "value", "swapped", "order"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_value, inputs @ w_key
'''),
        "same_weight_for_all": (["w_key", "w_value", "query", "same matrix"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    q = inputs @ w_query
    return q, q, q
'''),
    },
    "state_weights": {
        "no_scaling": (["sqrt", "scale", "d_k", "divide"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query)
'''),
        "scale_by_d_model": (["d_k", "width", "d_model", "sqrt"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(states.shape[1]))
'''),
        "divide_by_dk_not_sqrt": (["sqrt", "square root", "d_k"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / keys.shape[1])
'''),
        "naive_softmax_overflow": (["overflow", "maximum", "stable", "inf"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query / np.sqrt(keys.shape[1])
    e = np.exp(scores)
    return e / e.sum()
'''),
        "no_softmax_normalise_sum": (["softmax", "exp", "negative", "sum"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query / np.sqrt(keys.shape[1])
    return scores / scores.sum()
'''),
        "integer_floor_division": (["integer", "floor", "float", "//"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax((keys @ query) // int(np.sqrt(keys.shape[1])))
'''),
    },
    "state_attention": {
        "values_from_wrong_matrix": (["w_value", "values", "keys"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ (states @ w_key)
'''),
        "weights_times_raw_states": (["project", "w_value", "values", "states"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ states
'''),
        "no_sum": (["sum", "weighted sum", "add"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights[:, None] * (states @ w_value)
'''),
        "unscaled_weights": (["sqrt", "scale", "d_k"], '''
def state_attention(state, states, w_query, w_key, w_value):
    query = state @ w_query
    keys = states @ w_key
    weights = softmax(keys @ query)
    return weights @ (states @ w_value)
'''),
        "mean_of_values": (["mean", "average", "weights"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return (weights[:, None] * (states @ w_value)).mean(axis=0)
'''),
    },
}

VARIANTS = {
    "project_qkv": {
        "matmul": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_key, inputs @ w_value
''',
        "np_dot_stack": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.stack([np.dot(inputs, w) for w in (w_query, w_key, w_value)])
''',
    },
    "state_weights": {
        "scipy_softmax": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(keys.shape[1]))
''',
        "manual_stable": '''
def state_weights(state, states, w_query, w_key):
    query = np.asarray(state, dtype=float) @ w_query
    scores = np.einsum("nk,k->n", states @ w_key, query) / np.sqrt(w_key.shape[1])
    e = np.exp(scores - scores.max())
    return e / e.sum()
''',
    },
    "state_attention": {
        "reuse": '''
def state_attention(state, states, w_query, w_key, w_value):
    return state_weights(state, states, w_query, w_key) @ (states @ w_value)
''',
        "from_scratch_sum": '''
def state_attention(state, states, w_query, w_key, w_value):
    keys, values = states @ w_key, states @ w_value
    scores = keys @ (state @ w_query) / np.sqrt(keys.shape[-1])
    w = softmax(scores)
    return np.sum(w[:, None] * values, axis=0)
''',
    },
}
