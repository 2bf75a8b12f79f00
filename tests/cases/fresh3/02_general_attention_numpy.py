"""Third fresh set, notebook 02: learners' answers written without the grader's key.

Each source is what a learner would type in the exercise's solution cell; the notebook's earlier
cells have run. Written on 2026-11-23 from the exercise texts and the catalogue's ids and hints only,
checked only against the notebook's own solution (tests/cases/selfcheck.py fresh3), never against the
grader. Rule: never edited after its first measurement (see README.md).
"""

MISTAKES = {
    "project_qkv": {
        "projection_order:weights_first": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return w_query.T @ inputs.T, w_key.T @ inputs.T, w_value.T @ inputs.T
''',
        "mixed_up_projections:values_from_key": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_key
    values = inputs @ w_key
    return queries, keys, values
''',
        "mixed_up_projections:returned_kqv": '''
def project_qkv(inputs, w_query, w_key, w_value):
    q, k, v = (inputs @ w for w in (w_query, w_key, w_value))
    return k, q, v
''',
        "lower_precision:float32": '''
def project_qkv(inputs, w_query, w_key, w_value):
    x = inputs.astype(np.float32)
    return x @ w_query.astype(np.float32), x @ w_key.astype(np.float32), x @ w_value.astype(np.float32)
''',
        "integer_arithmetic:astype_int": '''
def project_qkv(inputs, w_query, w_key, w_value):
    # the walkthrough's numbers are integers, so keep them integers
    return tuple((inputs @ w).astype(int) for w in (w_query, w_key, w_value))
''',
        "uncatalogued:elementwise_product": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
''',
        "uncatalogued:stacked_on_last_axis": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.stack([inputs @ w_query, inputs @ w_key, inputs @ w_value], axis=-1)
''',
        "uncatalogued:one_matrix_for_all": '''
def project_qkv(inputs, w_query, w_key, w_value):
    projected = inputs @ w_query
    return projected, projected, projected
''',
    },
    "state_weights": {
        "no_scaling:plain_softmax": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query)
''',
        "scale_by_sqrt_d_model:states_width": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(states.shape[1]))
''',
        "scale_by_sqrt_tokens:n_states": '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax((k @ q) / np.sqrt(len(states)))
''',
        "scale_by_d_k:no_root": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    d_k = keys.shape[1]
    return softmax(keys @ query / d_k)
''',
        "softmax_no_max_subtraction:by_hand": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query / np.sqrt(keys.shape[-1])
    e = np.exp(scores)
    return e / e.sum()
''',
        "mixed_up_projections:query_through_w_key": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_key
    keys = states @ w_query
    return softmax(keys @ query / np.sqrt(keys.shape[-1]))
''',
        "lower_precision:float32": '''
def state_weights(state, states, w_query, w_key):
    query = (state @ w_query).astype(np.float32)
    keys = (states @ w_key).astype(np.float32)
    return softmax(keys @ query / np.float32(np.sqrt(keys.shape[-1])))
''',
        "uncatalogued:scale_by_sqrt_d_state": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(state.shape[0]))
''',
        "uncatalogued:floor_division": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax((keys @ query) // np.sqrt(keys.shape[-1]))
''',
        "uncatalogued:scaled_after_softmax": '''
def state_weights(state, states, w_query, w_key):
    scores = (states @ w_key) @ (state @ w_query)
    return softmax(scores) / np.sqrt(w_key.shape[1])
''',
    },
    "state_attention": {
        "weights_times_keys:keys_summed": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ (states @ w_key)
''',
        "returns_weights:forgot_values": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return weights
''',
        "no_scaling:inline": '''
def state_attention(state, states, w_query, w_key, w_value):
    query = state @ w_query
    keys, values = states @ w_key, states @ w_value
    weights = softmax(keys @ query)
    return weights @ values
''',
        "scale_by_sqrt_d_model:inline": '''
def state_attention(state, states, w_query, w_key, w_value):
    query = state @ w_query
    keys, values = states @ w_key, states @ w_value
    weights = softmax(keys @ query / np.sqrt(states.shape[-1]))
    return weights @ values
''',
        "lower_precision:values_float32": '''
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
        "uncatalogued:weighted_but_not_summed": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return weights[:, None] * values
''',
        "uncatalogued:summed_over_features": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return (weights[:, None] * values).sum(axis=1)
''',
    },
}

VARIANTS = {
    "project_qkv": {
        "stacked": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.stack([inputs @ w_query, inputs @ w_key, inputs @ w_value])
''',
        "generator_tuple": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return tuple(np.matmul(inputs, w) for w in (w_query, w_key, w_value))
''',
        "einsum": '''
def project_qkv(inputs, w_query, w_key, w_value):
    q = np.einsum("td,dk->tk", inputs, w_query)
    k = np.einsum("td,dk->tk", inputs, w_key)
    v = np.einsum("td,dk->tk", inputs, w_value)
    return q, k, v
''',
    },
    "state_weights": {
        "stable_by_hand": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query / np.sqrt(w_key.shape[1])
    e = np.exp(scores - scores.max())
    return e / e.sum()
''',
        "einsum_axis0": '''
def state_weights(state, states, w_query, w_key):
    q = np.dot(state, w_query)
    k = np.dot(states, w_key)
    scores = np.einsum("k,nk->n", q, k)
    return softmax(scores / np.sqrt(k.shape[-1]), axis=0)
''',
    },
    "state_attention": {
        "loop_sum": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    total = np.zeros(values.shape[1])
    for weight, value in zip(weights, values):
        total = total + weight * value
    return total
''',
        "values_transposed": '''
def state_attention(state, states, w_query, w_key, w_value):
    values = states @ w_value
    return values.T @ state_weights(state, states, w_query, w_key)
''',
        "einsum": '''
def state_attention(state, states, w_query, w_key, w_value):
    alpha = state_weights(state, states, w_query, w_key)
    return np.einsum("n,nd,dv->v", alpha, states, w_value)
''',
    },
}
