"""Blind set 2, notebook 02: General attention with queries, keys and values (NumPy/SciPy). Written from notebooks/02_general_attention_numpy.ipynb only."""

MISTAKES = {
    "project_qkv": {
        "weights_times_inputs_transposed": (["transpose", "order", "rows", "inputs @ w"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return w_query @ inputs.T, w_key @ inputs.T, w_value @ inputs.T
'''),
        "returns_in_wrong_order": (["order", "keys", "values", "tuple"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_value, inputs @ w_key
'''),
        "copy_paste_w_query": (["w_key", "w_value", "same matrix", "copy"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_query, inputs @ w_query
'''),
        "weights_transposed": (["transpose", "w_query.t", "(d_model, d_k)"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query.T, inputs @ w_key.T, inputs @ w_value.T
'''),
        "cast_to_float32": (["float32", "precision", "dtype", "float64"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    x = inputs.astype(np.float32)
    return x @ w_query.astype(np.float32), x @ w_key.astype(np.float32), x @ w_value.astype(np.float32)
'''),
    },
    "state_weights": {
        "sqrt_of_d_model": (["d_k", "key width", "w_key.shape[1]", "width of the keys"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(states.shape[1]))
'''),
        "no_scaling": (["sqrt", "scale", "divide", "division"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query)
'''),
        "naive_softmax_overflow": (["overflow", "max", "stable", "inf", "nan"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query / np.sqrt(w_key.shape[1])
    exps = np.exp(scores)
    return exps / exps.sum()
'''),
        "scale_after_softmax": (["before the softmax", "after the softmax", "sum to 1", "order"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query) / np.sqrt(w_key.shape[1])
'''),
        "divide_by_dk_not_sqrt": (["square root", "sqrt"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / w_key.shape[1])
'''),
    },
    "state_attention": {
        "values_not_projected": (["w_value", "project", "value"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ states
'''),
        "keys_instead_of_values": (["value", "keys", "w_value"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ (states @ w_key)
'''),
        "sum_wrong_axis": (["axis", "sum over", "words", "weighted sum"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return (weights[:, None] * values).sum(axis=1)
'''),
        "unscaled_scores": (["sqrt", "scale", "divide"], '''
def state_attention(state, states, w_query, w_key, w_value):
    scores = (states @ w_key) @ (state @ w_query)
    weights = softmax(scores)
    return weights @ (states @ w_value)
'''),
        "sqrt_of_d_v": (["d_k", "key width", "w_key.shape[1]", "width of the keys"], '''
def state_attention(state, states, w_query, w_key, w_value):
    values = states @ w_value
    scores = (states @ w_key) @ (state @ w_query) / np.sqrt(values.shape[1])
    return softmax(scores) @ values
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
        "manual_stable_einsum": '''
def state_weights(state, states, w_query, w_key):
    q = np.einsum("s,sk->k", state, w_query)
    k = np.einsum("nd,dk->nk", states, w_key)
    scores = np.einsum("k,nk->n", q, k) / np.sqrt(k.shape[-1])
    e = np.exp(scores - scores.max())
    return e / e.sum()
''',
    },
    "state_attention": {
        "reuse_weights": '''
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
