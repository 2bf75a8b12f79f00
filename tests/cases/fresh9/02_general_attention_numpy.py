"""Ninth fresh set, notebook 02: general attention with queries, keys and values (NumPy/SciPy)."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}

# --------------------------------------------------------------------------- project_qkv
MISTAKES["project_qkv"] = {
    "mixed_up_projections:keys_and_values_swapped": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_key
    values = inputs @ w_value
    return queries, values, keys
''',
    "mixed_up_projections:query_matrix_for_all": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_query
    values = inputs @ w_query
    return queries, keys, values
''',
    "projection_order:transposed_product": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return tuple(w.T @ inputs.T for w in (w_query, w_key, w_value))
''',
    "projection_order:weights_transposed": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query.T
    keys = inputs @ w_key.T
    values = inputs @ w_value.T
    return queries, keys, values
''',
    "lower_precision:float32": '''
def project_qkv(inputs, w_query, w_key, w_value):
    x = inputs.astype(np.float32)
    return (x @ w_query.astype(np.float32), x @ w_key.astype(np.float32),
            x @ w_value.astype(np.float32))
''',
    "integer_arithmetic:cast_to_int": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = (inputs @ w_query).astype(int)
    keys = (inputs @ w_key).astype(int)
    values = (inputs @ w_value).astype(int)
    return queries, keys, values
''',
    "uncatalogued:elementwise_projection": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
''',
    "uncatalogued:values_missing": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_key
    return queries, keys
''',
    "uncatalogued:stacked_on_last_axis": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.stack([inputs @ w_query, inputs @ w_key, inputs @ w_value], axis=-1)
''',
    "uncatalogued:concatenated": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.concatenate([inputs @ w_query, inputs @ w_key, inputs @ w_value])
''',
}
VARIANTS["project_qkv"] = {
    "stacked": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.stack([inputs @ w for w in (w_query, w_key, w_value)])
''',
    "broadcast_matmul": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.matmul(inputs, np.stack([w_query, w_key, w_value]))
''',
    "dot_tuple": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = np.dot(inputs, w_query)
    keys = np.dot(inputs, w_key)
    values = np.dot(inputs, w_value)
    return (queries, keys, values)
''',
}

# --------------------------------------------------------------------------- state_weights
MISTAKES["state_weights"] = {
    "no_scaling": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query)
''',
    "scale_by_d_k": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / keys.shape[-1])
''',
    "scale_by_sqrt_d_model": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(states.shape[1]))
''',
    "scale_by_sqrt_d_model:state_width": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    d = len(state)
    return softmax(keys @ query / np.sqrt(d))
''',
    "scale_by_sqrt_tokens": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(len(keys)))
''',
    "softmax_no_max_subtraction": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query / np.sqrt(keys.shape[-1])
    return np.exp(scores) / np.exp(scores).sum()
''',
    "normalise_by_sum": '''
def state_weights(state, states, w_query, w_key):
    scores = (states @ w_key) @ (state @ w_query) / np.sqrt(w_key.shape[1])
    return scores / scores.sum()
''',
    "no_softmax": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return keys @ query / np.sqrt(keys.shape[-1])
''',
    "integer_arithmetic:floor_division": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query // np.sqrt(keys.shape[-1]))
''',
    "projection_order": '''
def state_weights(state, states, w_query, w_key):
    query = w_query @ state
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(keys.shape[-1]))
''',
    "keys_without_transpose": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(query @ keys / np.sqrt(keys.shape[-1]))
''',
    "mixed_up_projections:swapped": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_key
    keys = states @ w_query
    return softmax(keys @ query / np.sqrt(keys.shape[-1]))
''',
    "wrong_query:first_word": '''
def state_weights(state, states, w_query, w_key):
    query = states[0] @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(keys.shape[-1]))
''',
}
VARIANTS["state_weights"] = {
    "row_times_transpose": '''
def state_weights(state, states, w_query, w_key):
    q = np.dot(state, w_query)
    k = np.dot(states, w_key)
    return softmax(q @ k.T / np.sqrt(w_key.shape[1]))
''',
    "manual_stable_softmax": '''
def state_weights(state, states, w_query, w_key):
    keys = states @ w_key
    scores = keys @ (state @ w_query) / np.sqrt(keys.shape[1])
    e = np.exp(scores - scores.max())
    return e / e.sum()
''',
    "einsum": '''
def state_weights(state, states, w_query, w_key):
    query = np.einsum("s,sk->k", state, w_query)
    keys = np.einsum("nd,dk->nk", states, w_key)
    scores = np.einsum("nk,k->n", keys, query)
    return softmax(scores / np.sqrt(keys.shape[-1]), axis=-1)
''',
}

# --------------------------------------------------------------------------- state_attention
MISTAKES["state_attention"] = {
    "weights_times_keys": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ (states @ w_key)
''',
    "returns_weights": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return weights
''',
    "mixed_up_projections:values_from_key_matrix": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_key
    return weights @ values
''',
    "projection_order": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value.T
    return weights @ values
''',
    "loop_leftover": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    output = np.zeros(values.shape[1])
    for j in range(len(weights) - 1):
        output += weights[j] * values[j]
    return output
''',
    "no_scaling": '''
def state_attention(state, states, w_query, w_key, w_value):
    query = state @ w_query
    keys = states @ w_key
    weights = softmax(keys @ query)
    return weights @ (states @ w_value)
''',
    "scale_by_sqrt_d_model": '''
def state_attention(state, states, w_query, w_key, w_value):
    query = state @ w_query
    keys = states @ w_key
    weights = softmax(keys @ query / np.sqrt(states.shape[-1]))
    return weights @ (states @ w_value)
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
    "uncatalogued:summed_over_features": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return (weights[:, None] * values).sum(axis=1)
''',
    "uncatalogued:mean_instead_of_sum": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return np.mean(weights[:, None] * values, axis=0)
''',
}
VARIANTS["state_attention"] = {
    "einsum": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return np.einsum("n,nv->v", weights, states @ w_value)
''',
    "weighted_sum": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = np.matmul(states, w_value)
    return (weights[:, None] * values).sum(axis=0)
''',
    "inline_reassociated": '''
def state_attention(state, states, w_query, w_key, w_value):
    keys = states @ w_key
    weights = softmax(keys @ (state @ w_query) / np.sqrt(keys.shape[-1]))
    return (weights @ states) @ w_value
''',
}
