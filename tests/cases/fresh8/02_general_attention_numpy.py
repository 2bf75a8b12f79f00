"""Eighth fresh set, notebook 02: general attention with NumPy."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}

# --------------------------------------------------------------------------- project_qkv
MISTAKES["project_qkv"] = {
    "projection_order:wT_xT": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return w_query.T @ inputs.T, w_key.T @ inputs.T, w_value.T @ inputs.T
''',
    "projection_order:x_wT": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query.T, inputs @ w_key.T, inputs @ w_value.T
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
    queries = inputs @ w_query
    keys = inputs @ w_query
    values = inputs @ w_query
    return queries, keys, values
''',
    "mixed_up_projections:returned_k_q_v": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries, keys, values = (inputs @ w for w in (w_query, w_key, w_value))
    return keys, queries, values
''',
    "integer_arithmetic:astype_int": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return tuple((inputs @ w).astype(int) for w in (w_query, w_key, w_value))
''',
    "lower_precision:float32_inputs": '''
def project_qkv(inputs, w_query, w_key, w_value):
    x = inputs.astype(np.float32)
    return x @ w_query.astype(np.float32), x @ w_key.astype(np.float32), x @ w_value.astype(np.float32)
''',
    "uncatalogued:stacked_last_axis": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.stack([inputs @ w_query, inputs @ w_key, inputs @ w_value], axis=-1)
''',
    "uncatalogued:elementwise_product": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
''',
}
VARIANTS["project_qkv"] = {
    "stacked": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.stack([inputs @ w_query, inputs @ w_key, inputs @ w_value])
''',
    "einsum": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return tuple(np.einsum("td,dk->tk", inputs, w) for w in (w_query, w_key, w_value))
''',
    "np_dot": '''
def project_qkv(inputs, w_query, w_key, w_value):
    q = np.dot(inputs, w_query)
    k = np.dot(inputs, w_key)
    v = np.dot(inputs, w_value)
    return (q, k, v)
''',
}

# --------------------------------------------------------------------------- state_weights
_SW = '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query
    return softmax(scores / DIVISOR)
'''


def _sw(divisor: str) -> str:
    return _SW.replace("DIVISOR", divisor)


MISTAKES["state_weights"] = {
    "no_scaling": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query)
''',
    "scale_by_d_k": _sw("keys.shape[-1]"),
    "scale_by_sqrt_d_model:words_width": _sw("np.sqrt(states.shape[-1])"),
    "scale_by_sqrt_d_model:state_width": _sw("np.sqrt(len(state))"),
    "scale_by_sqrt_tokens": _sw("np.sqrt(len(states))"),
    "integer_arithmetic:floor_division": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query // np.sqrt(keys.shape[-1])
    return softmax(scores)
''',
    "mixed_up_projections:swapped": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_key
    keys = states @ w_query
    return softmax(keys @ query / np.sqrt(keys.shape[-1]))
''',
    "softmax_no_max_subtraction": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query / np.sqrt(keys.shape[-1])
    e = np.exp(scores)
    return e / e.sum()
''',
    "normalise_by_sum": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query / np.sqrt(keys.shape[-1])
    return scores / scores.sum()
''',
    "uncatalogued:query_not_projected": '''
def state_weights(state, states, w_query, w_key):
    keys = states @ w_key
    return softmax(keys @ state / np.sqrt(keys.shape[-1]))
''',
}
VARIANTS["state_weights"] = {
    "by_hand_stable": '''
def state_weights(state, states, w_query, w_key):
    q = np.dot(state, w_query)
    k = np.dot(states, w_key)
    s = k @ q / np.sqrt(k.shape[1])
    e = np.exp(s - s.max())
    return e / e.sum()
''',
    "einsum_logsumexp": '''
from scipy.special import logsumexp


def state_weights(state, states, w_query, w_key):
    keys = np.einsum("nm,mk->nk", states, w_key)
    scores = np.einsum("nk,k->n", keys, state @ w_query) / np.sqrt(keys.shape[-1])
    return np.exp(scores - logsumexp(scores))
''',
}

# --------------------------------------------------------------------------- state_attention
MISTAKES["state_attention"] = {
    "weights_times_keys:reuses_keys": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    keys = states @ w_key
    return weights @ keys
''',
    "returns_weights": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return weights
''',
    "no_scaling:own_weights": '''
def state_attention(state, states, w_query, w_key, w_value):
    scores = (states @ w_key) @ (state @ w_query)
    return softmax(scores) @ (states @ w_value)
''',
    "scale_by_sqrt_d_model:own_weights": '''
def state_attention(state, states, w_query, w_key, w_value):
    scores = (states @ w_key) @ (state @ w_query) / np.sqrt(states.shape[1])
    return softmax(scores) @ (states @ w_value)
''',
    "loop_leftover:last_state": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    out = np.zeros(values.shape[1])
    for i in range(len(states) - 1):
        out = out + weights[i] * values[i]
    return out
''',
    "lower_precision:float32_values": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = (states @ w_value).astype(np.float32)
    return weights.astype(np.float32) @ values
''',
    "values_not_projected:values_not_projected": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ states
''',
    "uncatalogued:no_sum": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights[:, None] * (states @ w_value)
''',
    "uncatalogued:mean_of_values": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return (weights[:, None] * (states @ w_value)).mean(axis=0)
''',
}
VARIANTS["state_attention"] = {
    "einsum": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return np.einsum("n,nv->v", weights, np.einsum("nm,mv->nv", states, w_value))
''',
    "inline": '''
def state_attention(state, states, w_query, w_key, w_value):
    keys, values = states @ w_key, states @ w_value
    scores = keys @ (state @ w_query) / np.sqrt(keys.shape[-1])
    return softmax(scores) @ values
''',
    "weighted_rows_summed": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return np.sum(weights[:, None] * (states @ w_value), axis=0)
''',
}
