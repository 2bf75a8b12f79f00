"""Blind set 14, notebook 02: General attention in NumPy. Written from notebooks/02_general_attention_numpy.ipynb only."""

MISTAKES = {
    "project_qkv": {
        "weights_on_left": (["order", "transpose", "x w"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return w_query.T @ inputs.T, w_key.T @ inputs.T, w_value.T @ inputs.T
'''),
        "swapped_key_value": (["order", "keys", "values"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_value, inputs @ w_key
'''),
        "elementwise": (["matrix product", "elementwise", "@"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
'''),
        "all_from_query": (["w_key", "w_value", "same"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    q = inputs @ w_query
    return q, q, q
'''),
    },
    "state_weights": {
        "no_scaling": (["sqrt", "scale", "d_k"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = k @ q
    e = np.exp(s - s.max())
    return e / e.sum()
'''),
        "scale_by_d_model": (["d_k", "width", "key"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = k @ q / np.sqrt(states.shape[-1])
    e = np.exp(s - s.max())
    return e / e.sum()
'''),
        "naive_softmax_overflow": (["overflow", "maximum", "subtract"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = k @ q / np.sqrt(k.shape[-1])
    e = np.exp(s)
    return e / e.sum()
'''),
        "divide_by_dk_not_sqrt": (["sqrt", "square root", "d_k"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q / k.shape[-1])
'''),
        "no_softmax": (["softmax", "sum to 1", "normalis"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return k @ q / np.sqrt(k.shape[-1])
'''),
    },
    "state_attention": {
        "values_from_w_key": (["w_value", "values", "projection"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return w @ (states @ w_key)
'''),
        "values_not_projected": (["w_value", "project", "values"], '''
def state_attention(state, states, w_query, w_key, w_value):
    return state_weights(state, states, w_query, w_key) @ states
'''),
        "sum_not_weighted": (["weights", "weighted sum", "multiply"], '''
def state_attention(state, states, w_query, w_key, w_value):
    values = states @ w_value
    return values.sum(axis=0)
'''),
        "mean_weighted": (["mean", "average", "sum"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return (w[:, None] * values).mean(axis=0)
'''),
        "no_scale_inline": (["sqrt", "scale", "d_k"], '''
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
        "tuple": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_key, inputs @ w_value
''',
        "stacked_einsum": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.einsum("td,ndk->ntk", inputs, np.stack([w_query, w_key, w_value]))
''',
    },
    "state_weights": {
        "scipy": '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q / np.sqrt(k.shape[-1]))
''',
        "manual_float": '''
def state_weights(state, states, w_query, w_key):
    q = np.asarray(state, dtype=float) @ w_query
    k = np.asarray(states, dtype=float) @ w_key
    s = np.array([np.dot(q, kj) for kj in k]) / np.sqrt(w_key.shape[1])
    e = np.exp(s - np.max(s))
    return e / np.sum(e)
''',
    },
    "state_attention": {
        "reuse": '''
def state_attention(state, states, w_query, w_key, w_value):
    return state_weights(state, states, w_query, w_key) @ (states @ w_value)
''',
        "einsum": '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return np.einsum("n,nd,dv->v", w, states, w_value)
''',
    },
}
