"""Blind set 13, notebook 02: General attention in NumPy. Written from notebooks/02_general_attention_numpy.ipynb only."""

MISTAKES = {
    "project_qkv": {
        "weights_on_left": (["order", "x_i w", "inputs @ w", "left", "transpose"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return w_query @ inputs.T, w_key @ inputs.T, w_value @ inputs.T
'''),
        "elementwise_product": (["matrix product", "@", "element-wise", "elementwise", "np.dot"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
'''),
        "swapped_key_value": (["order", "keys", "values", "swapped"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_value, inputs @ w_key
'''),
        "transposed_weights": (["transpose", "w.t", ".t"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query.T, inputs @ w_key.T, inputs @ w_value.T
'''),
    },
    "state_weights": {
        "no_scaling": (["sqrt", "scale", "divide", "d_k"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query)
'''),
        "scale_by_d_model": (["d_k", "width of the keys", "w_key.shape[1]", "sqrt"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(states.shape[1]))
'''),
        "divide_by_dk_not_sqrt": (["sqrt", "square root", "d_k"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / w_key.shape[1])
'''),
        "naive_exp_overflow": (["overflow", "maximum", "stable", "max"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query / np.sqrt(w_key.shape[1])
    exps = np.exp(scores)
    return exps / exps.sum()
'''),
        "integer_floor_division": (["integer", "floor", "//", "float"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query // np.sqrt(w_key.shape[1])
    return softmax(scores)
'''),
    },
    "state_attention": {
        "values_from_keys": (["value", "w_value", "keys"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ (states @ w_key)
'''),
        "weights_times_states": (["project", "w_value", "values"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ states
'''),
        "sum_wrong_axis": (["axis", "sum over", "words", "weighted sum"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return (weights[:, None] * values).sum(axis=1)
'''),
        "mean_not_sum": (["mean", "average", "sum"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return (weights[:, None] * values).mean(axis=0)
'''),
    },
}

VARIANTS = {
    "project_qkv": {
        "matmul_tuple": '''
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
    return softmax(keys @ query / np.sqrt(w_key.shape[1]))
''',
        "manual_stable": '''
def state_weights(state, states, w_query, w_key):
    q = np.asarray(state, dtype=float) @ w_query
    k = np.asarray(states, dtype=float) @ w_key
    scores = np.array([np.dot(q, kj) for kj in k]) / np.sqrt(k.shape[1])
    e = np.exp(scores - scores.max())
    return e / e.sum()
''',
    },
    "state_attention": {
        "vecmat": '''
def state_attention(state, states, w_query, w_key, w_value):
    return state_weights(state, states, w_query, w_key) @ (states @ w_value)
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
