"""Blind set 7, notebook 02: General attention in NumPy. Written from notebooks/02_general_attention_numpy.ipynb only."""

MISTAKES = {
    "project_qkv": {
        "transposed_output": (["transpose", "rows", "tokens, d_k", ".t"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return (inputs @ w_query).T, (inputs @ w_key).T, (inputs @ w_value).T
'''),
        "swapped_key_value": (["key", "value", "swap", "order"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_value, inputs @ w_key
'''),
        "elementwise_product": (["matrix product", "@", "element-wise", "elementwise"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
'''),
        "query_for_all": (["key", "value", "w_key", "w_value"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    q = inputs @ w_query
    return q, q, q
'''),
        "cast_to_int": (["dtype", "integer", "float", "cast"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return ((inputs @ w_query).astype(int), (inputs @ w_key).astype(int), (inputs @ w_value).astype(int))
'''),
    },
    "state_weights": {
        "no_scaling": (["sqrt", "scale", "d_k"], '''
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
        "scale_by_d_model": (["d_k", "d_model", "width of the keys", "sqrt"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q / np.sqrt(states.shape[1]))
'''),
        "naive_softmax": (["overflow", "max", "stable", "subtract"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = (k @ q) / np.sqrt(w_key.shape[1])
    e = np.exp(s)
    return e / e.sum()
'''),
        "no_softmax": (["softmax", "normalis", "sum to 1"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return (k @ q) / np.sqrt(w_key.shape[1])
'''),
        "key_not_projected": (["key", "project", "w_key"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    s = states[:, : q.shape[0]] @ q if states.shape[1] >= q.shape[0] else states @ q[: states.shape[1]]
    return softmax(s / np.sqrt(w_key.shape[1]))
'''),
    },
    "state_attention": {
        "values_not_projected": (["value", "project", "w_value"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return w @ states
'''),
        "keys_as_values": (["value", "key", "w_value"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return w @ (states @ w_key)
'''),
        "mean_of_values": (["mean", "average", "sum"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return (w[:, None] * (states @ w_value)).mean(axis=0)
'''),
        "returns_weighted_rows": (["sum", "add", "weighted sum"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return w[:, None] * (states @ w_value)
'''),
        "unscaled_weights": (["sqrt", "scale", "d_k"], '''
def state_attention(state, states, w_query, w_key, w_value):
    from scipy.special import softmax as _sm
    s = (states @ w_key) @ (state @ w_query)
    return _sm(s) @ (states @ w_value)
'''),
    },
}

VARIANTS = {
    "project_qkv": {
        "three_products": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_key, inputs @ w_value
''',
        "einsum_stacked": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.einsum("td,sdk->stk", inputs, np.stack([w_query, w_key, w_value]))
''',
    },
    "state_weights": {
        "scipy_softmax": '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q / np.sqrt(w_key.shape[1]))
''',
        "manual_stable": '''
def state_weights(state, states, w_query, w_key):
    q = np.dot(state, w_query).astype(float)
    k = np.dot(states, w_key).astype(float)
    s = np.einsum("nk,k->n", k, q) / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    return e / e.sum()
''',
    },
    "state_attention": {
        "reuse_weights": '''
def state_attention(state, states, w_query, w_key, w_value):
    return state_weights(state, states, w_query, w_key) @ (states @ w_value)
''',
        "loop_sum": '''
def state_attention(state, states, w_query, w_key, w_value):
    q = state @ w_query
    keys = states @ w_key
    values = states @ w_value
    s = keys @ q / np.sqrt(keys.shape[1])
    w = softmax(s)
    out = np.zeros(values.shape[1])
    for j in range(len(w)):
        out = out + w[j] * values[j]
    return out
''',
    },
}
