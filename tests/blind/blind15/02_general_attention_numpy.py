"""Blind set 15, notebook 02: General attention in NumPy. Written from notebooks/02_general_attention_numpy.ipynb only."""

MISTAKES = {
    "project_qkv": {
        "weights_on_left": (["order", "x w", "left", "transpose"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return w_query.T @ inputs.T, w_key.T @ inputs.T, w_value.T @ inputs.T
'''),
        "elementwise_product": (["matrix product", "@", "elementwise"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
'''),
        "swapped_key_value": (["order", "keys", "values", "swap"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_value, inputs @ w_key
'''),
        "query_for_all": (["w_key", "w_value", "same"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    q = inputs @ w_query
    return q, q, q
'''),
    },
    "state_weights": {
        "no_scaling": (["sqrt", "scale", "divide"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(q @ k.T)
'''),
        "sqrt_of_d_model": (["d_k", "width of the keys", "sqrt"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(q @ k.T / np.sqrt(states.shape[1]))
'''),
        "divide_by_dk": (["sqrt", "square root", "d_k"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(q @ k.T / w_key.shape[1])
'''),
        "key_weights_for_query": (["w_query", "query", "project"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_key[: state.shape[0]]
    k = states @ w_key
    return softmax(q @ k.T / np.sqrt(w_key.shape[1]))
'''),
        "normalise_by_sum": (["softmax", "sum", "exp"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = q @ k.T / np.sqrt(w_key.shape[1])
    return s / s.sum()
'''),
        "naive_exp": (["overflow", "stable", "maximum"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = q @ k.T / np.sqrt(w_key.shape[1])
    e = np.exp(s)
    return e / e.sum()
'''),
    },
    "state_attention": {
        "weights_times_keys": (["values", "keys", "w_value"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ (states @ w_key)
'''),
        "weights_times_states": (["values", "project", "w_value"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ states
'''),
        "no_sum_over_words": (["sum", "weighted sum", "words"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights[:, None] * (states @ w_value)
'''),
        "unscaled_scores": (["sqrt", "scale", "divide"], '''
def state_attention(state, states, w_query, w_key, w_value):
    scores = (state @ w_query) @ (states @ w_key).T
    return softmax(scores) @ (states @ w_value)
'''),
        "mean_of_values": (["mean", "average", "weighted"], '''
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
        "stacked_einsum": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.einsum("td,ndk->ntk", inputs, np.stack([w_query, w_key, w_value]))
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
    s = (states @ w_key) @ (state @ w_query) / w_key.shape[1] ** 0.5
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
    w = np.exp(s - s.max())
    w = w / w.sum()
    out = np.zeros(values.shape[1])
    for j in range(len(w)):
        out = out + w[j] * values[j]
    return out
''',
    },
}
