"""Sixth fresh set, notebook 02: general attention in NumPy."""

MISTAKES = {
    "project_qkv": {
        "projection_order:weights_first": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return w_query @ inputs, w_key @ inputs, w_value @ inputs
''',
        "projection_order:column_convention": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = w_query.T @ inputs.T
    keys = w_key.T @ inputs.T
    values = w_value.T @ inputs.T
    return queries, keys, values
''',
        "mixed_up_projections:returned_k_q_v": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_key
    values = inputs @ w_value
    return keys, queries, values
''',
        "mixed_up_projections:one_matrix": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_query
    values = inputs @ w_query
    return queries, keys, values
''',
        "mixed_up_projections:keys_values_swapped": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = np.dot(inputs, w_query)
    keys = np.dot(inputs, w_value)
    values = np.dot(inputs, w_key)
    return queries, keys, values
''',
        "lower_precision:float32": '''
def project_qkv(inputs, w_query, w_key, w_value):
    x = inputs.astype(np.float32)
    return x @ w_query.astype(np.float32), x @ w_key.astype(np.float32), x @ w_value.astype(np.float32)
''',
        "loop_leftover:skips_first_token": '''
def project_qkv(inputs, w_query, w_key, w_value):
    tokens, d_k = inputs.shape[0], w_query.shape[1]
    dtype = np.result_type(inputs, w_query)
    queries, keys, values = (np.zeros((tokens, d_k), dtype=dtype) for _ in range(3))
    for i in range(1, tokens):
        queries[i] = inputs[i] @ w_query
        keys[i] = inputs[i] @ w_key
        values[i] = inputs[i] @ w_value
    return queries, keys, values
''',
        "uncatalogued:values_missing": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_key
    return queries, keys
''',
        "uncatalogued:stacked_on_axis_1": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.stack([inputs @ w for w in (w_query, w_key, w_value)], axis=1)
''',
        "uncatalogued:queries_prescaled": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query / np.sqrt(w_query.shape[1])
    return queries, inputs @ w_key, inputs @ w_value
''',
    },
    "state_weights": {
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
    return softmax(keys @ query / keys.shape[1])
''',
        "scale_by_sqrt_d_model:words_width": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(states.shape[1]))
''',
        "scale_by_sqrt_d_model:state_width": '''
def state_weights(state, states, w_query, w_key):
    scores = (states @ w_key) @ (state @ w_query)
    return softmax(scores / np.sqrt(len(state)))
''',
        "scale_by_sqrt_tokens": '''
def state_weights(state, states, w_query, w_key):
    scores = (states @ w_key) @ (state @ w_query)
    return softmax(scores / np.sqrt(len(states)))
''',
        "scale_applied_twice": '''
def state_weights(state, states, w_query, w_key):
    d_k = w_key.shape[1]
    query = state @ w_query / np.sqrt(d_k)
    scores = (states @ w_key) @ query
    return softmax(scores / np.sqrt(d_k))
''',
        "softmax_no_max_subtraction": '''
def state_weights(state, states, w_query, w_key):
    keys = states @ w_key
    scores = keys @ (state @ w_query) / np.sqrt(keys.shape[1])
    e = np.exp(scores)
    return e / e.sum()
''',
        "normalise_by_sum": '''
def state_weights(state, states, w_query, w_key):
    keys = states @ w_key
    scores = keys @ (state @ w_query) / np.sqrt(keys.shape[1])
    return scores / scores.sum()
''',
        "returns_scores": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query
    weights = softmax(scores / np.sqrt(keys.shape[1]))
    return scores
''',
        "integer_arithmetic:floor_division": '''
def state_weights(state, states, w_query, w_key):
    keys = states @ w_key
    scores = keys @ (state @ w_query)
    return softmax(scores // np.sqrt(keys.shape[1]))
''',
        "projection_order:matrix_first": '''
def state_weights(state, states, w_query, w_key):
    query = w_query @ state
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(keys.shape[-1]))
''',
        "mixed_up_projections:swapped": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_key
    keys = states @ w_query
    return softmax(keys @ query / np.sqrt(keys.shape[-1]))
''',
        "lower_precision:float32_scores": '''
def state_weights(state, states, w_query, w_key):
    keys = states @ w_key
    scores = (keys @ (state @ w_query)).astype(np.float32)
    return softmax(scores / np.float32(np.sqrt(keys.shape[1])))
''',
    },
    "state_attention": {
        "weights_times_keys": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ (states @ w_key)
''',
        "returns_weights": '''
def state_attention(state, states, w_query, w_key, w_value):
    values = states @ w_value
    weights = state_weights(state, states, w_query, w_key)
    return weights
''',
        "no_scaling": '''
def state_attention(state, states, w_query, w_key, w_value):
    scores = (states @ w_key) @ (state @ w_query)
    return softmax(scores) @ (states @ w_value)
''',
        "scale_by_sqrt_d_model": '''
def state_attention(state, states, w_query, w_key, w_value):
    scores = (states @ w_key) @ (state @ w_query) / np.sqrt(states.shape[-1])
    return softmax(scores) @ (states @ w_value)
''',
        "softmax_no_max_subtraction": '''
def state_attention(state, states, w_query, w_key, w_value):
    keys = states @ w_key
    scores = keys @ (state @ w_query) / np.sqrt(keys.shape[-1])
    weights = np.exp(scores) / np.sum(np.exp(scores))
    return weights @ (states @ w_value)
''',
        "normalise_by_sum": '''
def state_attention(state, states, w_query, w_key, w_value):
    keys = states @ w_key
    scores = keys @ (state @ w_query) / np.sqrt(keys.shape[-1])
    return (scores / scores.sum()) @ (states @ w_value)
''',
        "loop_leftover:skips_first_word": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    output = np.zeros(values.shape[1])
    for j in range(1, len(weights)):
        output = output + weights[j] * values[j]
    return output
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
        "uncatalogued:sum_over_value_width": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return (weights[:, None] * values).sum(axis=1)
''',
    },
}

VARIANTS = {
    "project_qkv": {
        "stacked_einsum": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.einsum("td,sdk->stk", inputs, np.stack([w_query, w_key, w_value]))
''',
        "matmul_generator": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return tuple(np.matmul(inputs, w) for w in (w_query, w_key, w_value))
''',
    },
    "state_weights": {
        "own_stable_softmax": '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = (k @ q) / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    return e / e.sum()
''',
        "logsumexp": '''
from scipy.special import logsumexp

def state_weights(state, states, w_query, w_key):
    scores = np.dot(states @ w_key, state @ w_query) / np.sqrt(w_key.shape[1])
    return np.exp(scores - logsumexp(scores))
''',
    },
    "state_attention": {
        "einsum": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return np.einsum("n,nv->v", weights, states @ w_value)
''',
        "all_inline": '''
def state_attention(state, states, w_query, w_key, w_value):
    query, keys, values = state @ w_query, states @ w_key, states @ w_value
    weights = softmax(keys @ query / np.sqrt(keys.shape[1]))
    return (weights[:, None] * values).sum(axis=0)
''',
    },
}
