"""Tenth fresh set, notebook 02: general attention with queries, keys and values (NumPy/SciPy)."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}

# --------------------------------------------------------------------------- project_qkv
MISTAKES["project_qkv"] = {
    "projection_order:weights_transposed": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = np.dot(inputs, w_query.T)
    keys = np.dot(inputs, w_key.T)
    values = np.dot(inputs, w_value.T)
    return queries, keys, values
''',
    "projection_order:weight_first": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = w_query.T @ inputs.T
    keys = w_key.T @ inputs.T
    values = w_value.T @ inputs.T
    return queries, keys, values
''',
    "mixed_up_projections:key_from_query_matrix": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_query
    values = inputs @ w_value
    return queries, keys, values
''',
    "integer_arithmetic:astype_int": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = (inputs @ w_query).astype(int)
    keys = (inputs @ w_key).astype(int)
    values = (inputs @ w_value).astype(int)
    return queries, keys, values
''',
    "lower_precision:float32": '''
def project_qkv(inputs, w_query, w_key, w_value):
    x = inputs.astype(np.float32)
    return x @ w_query.astype(np.float32), x @ w_key.astype(np.float32), x @ w_value.astype(np.float32)
''',
    "loop_leftover:first_token_skipped": '''
def project_qkv(inputs, w_query, w_key, w_value):
    out = np.zeros((3, inputs.shape[0], w_query.shape[1]), dtype=np.result_type(inputs, w_query))
    for t in range(1, inputs.shape[0]):
        out[0, t] = inputs[t] @ w_query
        out[1, t] = inputs[t] @ w_key
        out[2, t] = inputs[t] @ w_value
    return out
''',
    "uncatalogued:stacked_on_last_axis": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.stack([inputs @ w_query, inputs @ w_key, inputs @ w_value], axis=-1)
''',
}
VARIANTS["project_qkv"] = {
    "einsum": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return tuple(np.einsum("td,dk->tk", inputs, w) for w in (w_query, w_key, w_value))
''',
    "stacked_matmul": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.matmul(inputs, np.stack([w_query, w_key, w_value]))
''',
}

# --------------------------------------------------------------------------- state_weights
MISTAKES["state_weights"] = {
    "scale_by_sqrt_d_model:words_width": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(states.shape[1]))
''',
    "scale_by_sqrt_tokens": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(len(states)))
''',
    "scale_by_d_k": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / keys.shape[-1])
''',
    "no_scaling": '''
def state_weights(state, states, w_query, w_key):
    scores = (states @ w_key) @ (state @ w_query)
    return softmax(scores)
''',
    "normalise_by_sum": '''
def state_weights(state, states, w_query, w_key):
    keys = states @ w_key
    scores = keys @ (state @ w_query) / np.sqrt(keys.shape[-1])
    return scores / scores.sum()
''',
    "integer_arithmetic:floor_division": '''
def state_weights(state, states, w_query, w_key):
    keys = states @ w_key
    scores = keys @ (state @ w_query)
    return softmax(scores // np.sqrt(keys.shape[-1]))
''',
    "softmax_no_max_subtraction": '''
def state_weights(state, states, w_query, w_key):
    keys = states @ w_key
    scores = keys @ (state @ w_query) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores)
    return exps / exps.sum()
''',
    "mixed_up_projections:keys_from_w_query": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_query
    return softmax(keys @ query / np.sqrt(keys.shape[-1]))
''',
    "uncatalogued:sqrt_applied_to_weights": '''
def state_weights(state, states, w_query, w_key):
    keys = states @ w_key
    weights = softmax(keys @ (state @ w_query))
    return weights / np.sqrt(keys.shape[-1])
''',
}
VARIANTS["state_weights"] = {
    "np_dot": '''
def state_weights(state, states, w_query, w_key):
    d_k = w_key.shape[1]
    scores = np.dot(states @ w_key, state @ w_query) / np.sqrt(d_k)
    return softmax(scores)
''',
    "manual_stable_softmax": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max())
    return exps / exps.sum()
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
    "projection_order:value_matrix_transposed": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value.T
    return weights @ values
''',
    "mixed_up_projections:values_from_w_key": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_key
    return weights @ values
''',
    "loop_leftover:seed_sum_one_short": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    output = weights[0] * values[0]
    for j in range(1, len(weights) - 1):
        output = output + weights[j] * values[j]
    return output
''',
    "lower_precision:float32_product": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key).astype(np.float32)
    values = (states @ w_value).astype(np.float32)
    return weights @ values
''',
    "values_not_projected:values_not_projected": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ states
''',
    "uncatalogued:weighted_values_not_summed": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights[:, None] * (states @ w_value)
''',
}
VARIANTS["state_attention"] = {
    "einsum": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return np.einsum("n,nv->v", weights, states @ w_value)
''',
    "transposed_product": '''
def state_attention(state, states, w_query, w_key, w_value):
    values = np.matmul(states, w_value)
    return values.T @ state_weights(state, states, w_query, w_key)
''',
}
