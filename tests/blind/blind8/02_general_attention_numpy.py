"""Blind set 8, notebook 02: General attention in NumPy. Written from notebooks/02_general_attention_numpy.ipynb only."""

MISTAKES = {
    "project_qkv": {
        "weights_on_left": (["order", "x_i w_q", "left", "transpose"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return w_query @ inputs, w_key @ inputs, w_value @ inputs
'''),
        "elementwise_product": (["elementwise", "matrix product", "@", "*"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
'''),
        "swapped_key_value": (["order", "keys", "values", "swapped"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_value, inputs @ w_key
'''),
        "same_weight_for_all": (["w_key", "w_value", "same matrix", "each"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    q = inputs @ w_query
    return q, q, q
'''),
        "transposed_weights": (["transpose", ".t", "w_query.t"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query.T, inputs @ w_key.T, inputs @ w_value.T
'''),
    },
    "state_weights": {
        "no_scaling": (["sqrt", "scale", "d_k", "divide"], '''
def state_weights(state, states, w_query, w_key):
    scores = (state @ w_query) @ (states @ w_key).T
    return softmax(scores)
'''),
        "scale_by_d_model": (["d_k", "width of the keys", "d_model", "sqrt"], '''
def state_weights(state, states, w_query, w_key):
    scores = (state @ w_query) @ (states @ w_key).T
    return softmax(scores / np.sqrt(states.shape[1]))
'''),
        "scale_by_d_k_not_sqrt": (["square root", "sqrt", "d_k"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q / k.shape[1])
'''),
        "naive_softmax_overflow": (["overflow", "stable", "maximum", "subtract"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    e = np.exp(k @ q / np.sqrt(k.shape[-1]))
    return e / e.sum()
'''),
        "scale_by_n_states": (["d_k", "n_states", "width of the keys", "number of"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q / np.sqrt(len(states)))
'''),
        "integer_division_scale": (["integer", "float", "floor", "dtype"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    scores = k @ q
    d_k = k.shape[-1]
    return softmax(scores // np.sqrt(d_k))
'''),
    },
    "state_attention": {
        "values_not_projected": (["w_value", "project", "values"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return w @ states
'''),
        "values_by_w_key": (["w_value", "values", "w_key"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return w @ (states @ w_key)
'''),
        "mean_of_values": (["weights", "weighted", "mean", "average"], '''
def state_attention(state, states, w_query, w_key, w_value):
    return (states @ w_value).mean(axis=0)
'''),
        "no_scale_inline": (["sqrt", "scale", "d_k"], '''
def state_attention(state, states, w_query, w_key, w_value):
    q = state @ w_query
    k = states @ w_key
    v = states @ w_value
    return softmax(k @ q) @ v
'''),
        "returns_weighted_rows": (["sum", "add up", "weighted sum", "rows"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return w[:, None] * (states @ w_value)
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
    scores = keys @ query / np.sqrt(keys.shape[-1])
    return softmax(scores)
''',
        "manual_stable": '''
def state_weights(state, states, w_query, w_key):
    query = np.dot(state, w_query).astype(float)
    keys = np.dot(states, w_key).astype(float)
    scores = np.array([np.dot(k, query) for k in keys]) / np.sqrt(w_key.shape[1])
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
        "einsum_inline": '''
def state_attention(state, states, w_query, w_key, w_value):
    q = state @ w_query
    k = states @ w_key
    v = states @ w_value
    s = np.einsum("k,nk->n", q, k) / np.sqrt(k.shape[1])
    w = np.exp(s - s.max())
    w /= w.sum()
    return np.einsum("n,nv->v", w, v)
''',
    },
}
