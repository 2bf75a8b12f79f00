"""Blind set 10, notebook 02: general attention in NumPy. Written from notebooks/02_general_attention_numpy.ipynb only."""

MISTAKES = {
    "project_qkv": {
        "weights_first": (["order", "x_i w", "inputs @ w", "transpose"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return w_query.T @ inputs.T, w_key.T @ inputs.T, w_value.T @ inputs.T
'''),
        "elementwise": (["matrix product", "@", "elementwise", "matmul"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query.sum(axis=1), inputs * w_key.sum(axis=1), inputs * w_value.sum(axis=1)
'''),
        "swapped_kv": (["order", "keys", "values", "swap"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_value, inputs @ w_key
'''),
        "key_for_query": (["w_query", "query", "copy"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_key, inputs @ w_key, inputs @ w_value
'''),
    },
    "state_weights": {
        "no_scale": (["sqrt", "scale", "d_k"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = k @ q
    e = np.exp(s - s.max())
    return e / e.sum()
'''),
        "scale_dk_not_sqrt": (["sqrt", "square root", "d_k"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = k @ q / k.shape[-1]
    e = np.exp(s - s.max())
    return e / e.sum()
'''),
        "scale_by_d_model": (["d_k", "d_model", "width of the keys"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = k @ q / np.sqrt(states.shape[-1])
    e = np.exp(s - s.max())
    return e / e.sum()
'''),
        "unstable_softmax": (["overflow", "max", "stable"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = k @ q / np.sqrt(k.shape[-1])
    e = np.exp(s)
    return e / e.sum()
'''),
        "integer_division": (["integer", "float", "dtype", "floor"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = (k @ q) // int(np.sqrt(k.shape[-1]))
    e = np.exp(s - s.max())
    return e / e.sum()
'''),
    },
    "state_attention": {
        "keys_as_values": (["values", "w_value", "keys"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return w @ (states @ w_key)
'''),
        "unprojected_values": (["project", "w_value", "values"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return (w @ states)[: w_value.shape[1]]
'''),
        "weights_times_values_no_sum": (["sum", "weighted sum", "add"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    v = states @ w_value
    return (w[:, None] * v)[0] * len(w)
'''),
        "mean_of_values": (["mean", "average", "weights"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    v = states @ w_value
    return (w[:, None] * v).mean(axis=0)
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
    w = np.stack([w_query, w_key, w_value])
    return np.einsum("td,sdk->stk", inputs, w)
''',
    },
    "state_weights": {
        "scipy_free": '''
def state_weights(state, states, w_query, w_key):
    q = np.asarray(state, dtype=float) @ w_query
    k = np.asarray(states, dtype=float) @ w_key
    s = k @ q / np.sqrt(k.shape[-1])
    e = np.exp(s - np.max(s))
    return e / np.sum(e)
''',
        "logsumexp": '''
def state_weights(state, states, w_query, w_key):
    from scipy.special import logsumexp
    q = state @ w_query
    k = states @ w_key
    s = (k @ q).astype(float) / np.sqrt(w_key.shape[1])
    return np.exp(s - logsumexp(s))
''',
    },
    "state_attention": {
        "vecmat": '''
def state_attention(state, states, w_query, w_key, w_value):
    return state_weights(state, states, w_query, w_key) @ (states @ w_value)
''',
        "loop": '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    out = np.zeros(values.shape[1])
    for j in range(len(w)):
        out = out + w[j] * values[j]
    return out
''',
    },
}
