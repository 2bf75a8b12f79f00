"""Fifth fresh set, notebook 02 (NumPy/SciPy): what a learner types into each solution cell."""

_WEIGHTS = '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query
    d_k = keys.shape[-1]
    return softmax(scores / np.sqrt(d_k))
'''


def _w(old, new):
    assert old in _WEIGHTS, old
    return _WEIGHTS.replace(old, new)


MISTAKES = {
    "project_qkv": {
        "projection_order:w_transposed": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query.T, inputs @ w_key.T, inputs @ w_value.T
''',
        "projection_order:weights_first": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = (w_query.T @ inputs.T)
    keys = (w_key.T @ inputs.T)
    values = (w_value.T @ inputs.T)
    return queries, keys, values
''',
        "mixed_up_projections:keys_values_swapped": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_value
    values = inputs @ w_key
    return queries, keys, values
''',
        "mixed_up_projections:one_matrix": '''
def project_qkv(inputs, w_query, w_key, w_value):
    projected = inputs @ w_query
    return projected, projected, projected
''',
        "lower_precision:float32_inputs": '''
def project_qkv(inputs, w_query, w_key, w_value):
    x = inputs.astype(np.float32)
    return x @ w_query.astype(np.float32), x @ w_key.astype(np.float32), x @ w_value.astype(np.float32)
''',
        "integer_arithmetic:astype_int": '''
def project_qkv(inputs, w_query, w_key, w_value):
    x = np.asarray(inputs).astype(int)
    return np.dot(x, w_query), np.dot(x, w_key), np.dot(x, w_value)
''',
        "uncatalogued:elementwise": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
''',
        "uncatalogued:queries_scaled": '''
def project_qkv(inputs, w_query, w_key, w_value):
    d_k = w_key.shape[1]
    queries = inputs @ w_query / np.sqrt(d_k)
    return queries, inputs @ w_key, inputs @ w_value
''',
        "loop_leftover:return_inside_loop": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries, keys, values = [], [], []
    for x in inputs:
        queries.append(x @ w_query)
        keys.append(x @ w_key)
        values.append(x @ w_value)
        return np.array(queries), np.array(keys), np.array(values)
''',
    },
    "state_weights": {
        "no_scaling": _w("softmax(scores / np.sqrt(d_k))", "softmax(scores)"),
        "scale_by_d_k": _w("softmax(scores / np.sqrt(d_k))", "softmax(scores / d_k)"),
        "scale_by_sqrt_d_model:state_width": _w("d_k = keys.shape[-1]", "d_k = state.shape[0]"),
        "scale_by_sqrt_d_model:words_width": _w("d_k = keys.shape[-1]", "d_k = states.shape[1]"),
        "scale_by_sqrt_tokens": _w("d_k = keys.shape[-1]", "d_k = len(states)"),
        "scale_applied_twice": _w("scores = keys @ query", "scores = keys @ query / np.sqrt(keys.shape[1])"),
        "softmax_no_max_subtraction:by_hand": _w(
            "return softmax(scores / np.sqrt(d_k))",
            "e = np.exp(scores / np.sqrt(d_k))\n    return e / e.sum()"),
        "normalise_by_sum": _w(
            "return softmax(scores / np.sqrt(d_k))",
            "scaled = scores / np.sqrt(d_k)\n    return scaled / scaled.sum()"),
        "integer_arithmetic:floor_division": _w("scores / np.sqrt(d_k)", "scores // np.sqrt(d_k)"),
        "keys_without_transpose": _w("scores = keys @ query", "scores = query @ keys"),
        "mixed_up_projections:swapped": _w(
            "query = state @ w_query\n    keys = states @ w_key",
            "query = state @ w_key\n    keys = states @ w_query"),
        "uncatalogued:query_not_projected": _w("scores = keys @ query", "scores = keys @ state"),
        "uncatalogued:scaled_after_softmax": _w(
            "return softmax(scores / np.sqrt(d_k))", "return softmax(scores) / np.sqrt(d_k)"),
        "returns_scores": _w("return softmax(scores / np.sqrt(d_k))", "return scores"),
        "lower_precision:float16_scores": _w(
            "scores = keys @ query", "scores = (keys @ query).astype(np.float16)"),
    },
    "state_attention": {
        "weights_times_keys": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    keys = states @ w_key
    return weights @ keys
''',
        "weights_times_scores": '''
def state_attention(state, states, w_query, w_key, w_value):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query
    weights = softmax(scores / np.sqrt(keys.shape[1]))
    return weights @ scores
''',
        "returns_weights": '''
def state_attention(state, states, w_query, w_key, w_value):
    values = states @ w_value
    weights = state_weights(state, states, w_query, w_key)
    output = weights @ values
    return weights
''',
        "values_not_projected:values_not_projected": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ states
''',
        "projection_order:w_value_transposed": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ (states @ w_value.T)
''',
        "no_scaling": '''
def state_attention(state, states, w_query, w_key, w_value):
    q = state @ w_query
    k = states @ w_key
    v = states @ w_value
    return softmax(k @ q) @ v
''',
        "scale_by_sqrt_d_v:scale_by_sqrt_d_v": '''
def state_attention(state, states, w_query, w_key, w_value):
    q = state @ w_query
    k = states @ w_key
    v = states @ w_value
    return softmax(k @ q / np.sqrt(v.shape[1])) @ v
''',
        "lower_precision:values_float16": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = (states @ w_value).astype(np.float16)
    return weights @ values
''',
        "loop_leftover:last_word_skipped": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    output = np.zeros(values.shape[1])
    for j in range(len(states) - 1):
        output = output + weights[j] * values[j]
    return output
''',
        "uncatalogued:not_summed": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights[:, None] * (states @ w_value)
''',
        "softmax_no_max_subtraction": '''
def state_attention(state, states, w_query, w_key, w_value):
    keys = states @ w_key
    scores = (state @ w_query) @ keys.T / np.sqrt(keys.shape[1])
    weights = np.exp(scores) / np.sum(np.exp(scores))
    return weights @ (states @ w_value)
''',
    },
}

VARIANTS = {
    "project_qkv": {
        "generator_tuple": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return tuple(inputs @ w for w in (w_query, w_key, w_value))
''',
        "einsum_stacked": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.stack([np.einsum("td,dk->tk", inputs, w) for w in (w_query, w_key, w_value)])
''',
        "np_dot": '''
def project_qkv(inputs, w_query, w_key, w_value):
    q = np.dot(inputs, w_query)
    k = np.dot(inputs, w_key)
    v = np.dot(inputs, w_value)
    return q, k, v
''',
    },
    "state_weights": {
        "by_hand_stable": '''
def state_weights(state, states, w_query, w_key):
    q = np.dot(state, w_query)
    k = np.dot(states, w_key)
    s = np.einsum("nk,k->n", k, q) / np.sqrt(w_key.shape[1])
    e = np.exp(s - s.max())
    return e / e.sum()
''',
        "log_softmax": '''
from scipy.special import log_softmax

def state_weights(state, states, w_query, w_key):
    scores = (states @ w_key) @ (state @ w_query) / np.sqrt(w_key.shape[1])
    return np.exp(log_softmax(scores))
''',
    },
    "state_attention": {
        "values_transposed": '''
def state_attention(state, states, w_query, w_key, w_value):
    values = states @ w_value
    return values.T @ state_weights(state, states, w_query, w_key)
''',
        "inline_einsum": '''
def state_attention(state, states, w_query, w_key, w_value):
    keys, values = states @ w_key, states @ w_value
    scores = keys @ (state @ w_query) / np.sqrt(keys.shape[-1])
    alpha = softmax(scores)
    return np.einsum("n,nv->v", alpha, values)
''',
    },
}
