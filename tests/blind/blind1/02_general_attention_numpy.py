"""Blind set 1, notebook 02: General attention with queries, keys and values (NumPy/SciPy). Written from notebooks/02_general_attention_numpy.ipynb only."""

MISTAKES = {
    "project_qkv": {
        "weights_on_the_left": (["transpose", "row vector", "inputs @ w", "column vector"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    # column-vector habit: W x
    return w_query @ inputs.T, w_key @ inputs.T, w_value @ inputs.T
'''),
        "value_uses_w_key": (["w_value", "copy", "same matrix", "value matrix"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_key
    values = inputs @ w_key
    return queries, keys, values
'''),
        "elementwise_product": (["elementwise", "element-wise", "matrix product", "np.dot", "matmul"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
'''),
        "weights_transposed": (["transpose", "w_query.t", "(d_model, d_k)", "transposed weight"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query.T, inputs @ w_key.T, inputs @ w_value.T
'''),
        "wrong_order_returned": (["order", "queries, keys, values", "swapped"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_key
    values = inputs @ w_value
    return keys, queries, values
'''),
    },
    "state_weights": {
        "scale_by_d_state": (["d_k", "width of the keys", "w_key.shape", "not the width of the state"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query / np.sqrt(state.shape[0])
    return softmax(scores)
'''),
        "scale_by_d_model": (["d_k", "width of the keys", "w_key.shape", "d_model"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query / np.sqrt(states.shape[1])
    return softmax(scores)
'''),
        "no_scaling": (["sqrt", "scale", "square root", "√d_k"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query)
'''),
        "divide_by_d_k": (["square root", "sqrt", "instead of d_k"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    d_k = w_key.shape[1]
    return softmax(keys @ query / d_k)
'''),
        "naive_softmax_overflows": (["overflow", "stable", "maximum", "subtract"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query / np.sqrt(w_key.shape[1])
    exps = np.exp(scores)
    return exps / exps.sum()
'''),
        "state_projected_with_w_key": (["w_query", "query matrix", "project the state", "d_state"], '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_key
    keys = states @ w_key
    scores = keys @ query / np.sqrt(w_key.shape[1])
    return softmax(scores)
'''),
    },
    "state_attention": {
        "weights_times_keys": (["w_value", "value vectors", "instead of the values"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    keys = states @ w_key
    return weights @ keys
'''),
        "unprojected_states": (["w_value", "value vectors", "projected", "values v_j"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ states
'''),
        "values_times_weights": (["weights @ values", "transpose", "order of the product"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return values @ weights
'''),
        "sum_over_wrong_axis": (["axis=0", "over the words", "sum over", "wrong axis"], '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return (weights[:, None] * values).sum(axis=1)
'''),
        "inline_unscaled": (["sqrt", "scale", "square root", "√d_k"], '''
def state_attention(state, states, w_query, w_key, w_value):
    query = state @ w_query
    keys = states @ w_key
    values = states @ w_value
    weights = softmax(keys @ query)
    return weights @ values
'''),
        "mean_instead_of_sum": (["mean", "average", "instead of a sum"], '''
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
    return np.stack([np.einsum("td,dk->tk", inputs, w) for w in (w_query, w_key, w_value)])
''',
    },
    "state_weights": {
        "scipy_softmax": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query                      # (d_k,)
    keys = states @ w_key                        # (n_states, d_k)
    scores = keys @ query / np.sqrt(w_key.shape[1])
    return softmax(scores)
''',
        "manual_stable": '''
def state_weights(state, states, w_query, w_key):
    query = np.dot(state, w_query)
    keys = np.dot(states, w_key)
    scores = np.array([np.dot(query, k) for k in keys], dtype=float) / keys.shape[1] ** 0.5
    exps = np.exp(scores - scores.max())
    return exps / exps.sum()
''',
    },
    "state_attention": {
        "reuse_weights": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)  # (n_states,)
    values = states @ w_value                                # (n_states, d_v)
    return weights @ values
''',
        "inline_einsum": '''
def state_attention(state, states, w_query, w_key, w_value):
    query = state @ w_query
    keys = states @ w_key
    values = states @ w_value
    weights = softmax(keys @ query / np.sqrt(keys.shape[-1]))
    return np.einsum("j,jv->v", weights, values)
''',
        "term_by_term": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return (weights[:, None] * values).sum(axis=0)
''',
    },
}
