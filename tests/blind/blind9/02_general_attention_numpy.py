"""Blind set 9, notebook 02: General attention with queries, keys and values. Written from notebooks/02_general_attention_numpy.ipynb only."""

MISTAKES = {
    "project_qkv": {
        "transposed_weights": (["transpose", ".t", "w_query.t"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query.T, inputs @ w_key.T, inputs @ w_value.T
'''),
        "weights_before_inputs": (["order", "inputs @ w", "row vector", "rows"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return w_query @ inputs.T, w_key @ inputs.T, w_value @ inputs.T
'''),
        "keys_values_swapped": (["order", "swapped", "keys and values", "tuple"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_key
    values = inputs @ w_value
    return queries, values, keys
'''),
        "elementwise_product": (["elementwise", "element-wise", "matrix product", "@"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
'''),
        "copy_paste_w_query": (["w_key", "w_value", "same matrix", "copy"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_query
    values = inputs @ w_value
    return queries, keys, values
'''),
        "cast_float32": (["float32", "dtype", "precision"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    inputs = inputs.astype(np.float32)
    return (inputs @ w_query.astype(np.float32), inputs @ w_key.astype(np.float32),
            inputs @ w_value.astype(np.float32))
'''),
    },
    "state_weights": {
        "no_scaling": (["sqrt", "scal", "divide", "d_k"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query)
'''),
        "scale_by_d_model": (["d_k", "width of the keys", "d_model", "w_key.shape[1]"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(states.shape[1]))
'''),
        "scale_by_d_state": (["d_k", "width of the keys", "d_state", "w_key.shape[1]"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(len(state)))
'''),
        "divide_by_d_k": (["sqrt", "square root", "instead of"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / w_key.shape[1])
'''),
        "naive_exp_softmax": (["overflow", "stable", "max", "subtract"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query / np.sqrt(w_key.shape[1])
    exps = np.exp(scores)
    return exps / exps.sum()
'''),
        "query_with_w_key": (["w_query", "query matrix", "swapped"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_key
    keys = states @ w_query
    return softmax(keys @ query / np.sqrt(w_key.shape[1]))
'''),
    },
    "state_attention": {
        "weights_times_keys": (["values", "w_value", "keys instead"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    keys = states @ w_key
    return weights @ keys
'''),
        "unprojected_values": (["project", "w_value", "values"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ states
'''),
        "no_scaling_inline": (["sqrt", "scal", "d_k"], '''
def state_attention(state, states, w_query, w_key, w_value):
    query = state @ w_query
    keys = states @ w_key
    values = states @ w_value
    weights = softmax(keys @ query)
    return weights @ values
'''),
        "mean_not_sum": (["mean", "average", "instead of a sum"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return (weights[:, None] * values).mean(axis=0)
'''),
        "not_summed": (["sum", "add", "over the words"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return weights[:, None] * values
'''),
        "softmax_no_axis_over_products": (["softmax", "scores", "weights"], '''
def state_attention(state, states, w_query, w_key, w_value):
    query = state @ w_query
    keys = states @ w_key
    values = states @ w_value
    scores = keys @ query / np.sqrt(keys.shape[1])
    return softmax(scores[:, None] * values, axis=0).sum(axis=0)
'''),
    },
}

VARIANTS = {
    "project_qkv": {
        "three_matmuls": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_key, inputs @ w_value
''',
        "stacked_einsum": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.einsum("td,sdk->stk", inputs, np.stack([w_query, w_key, w_value]))
''',
        "np_dot": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return tuple(np.dot(inputs, w) for w in (w_query, w_key, w_value))
''',
    },
    "state_weights": {
        "scipy_softmax": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(w_key.shape[1]))
''',
        "manual_stable": '''
def state_weights(state, states, w_query, w_key):
    query = np.asarray(state, dtype=float) @ w_query
    scores = np.array([query @ (x @ w_key) for x in states]) / np.sqrt(w_key.shape[1])
    exps = np.exp(scores - scores.max())
    return exps / exps.sum()
''',
    },
    "state_attention": {
        "reuse_weights": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ (states @ w_value)
''',
        "term_by_term": '''
def state_attention(state, states, w_query, w_key, w_value):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query / np.sqrt(keys.shape[-1])
    weights = softmax(scores, axis=0)
    total = 0.0
    for weight, x in zip(weights, states):
        total = total + weight * (x @ w_value)
    return total
''',
    },
}
