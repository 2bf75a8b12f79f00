"""Seventh fresh set, notebook 02. Written without the key (see README.md)."""

MISTAKES = {
    "project_qkv": {
        "projection_order:transposed_products": """
def project_qkv(inputs, w_query, w_key, w_value):
    return w_query.T @ inputs.T, w_key.T @ inputs.T, w_value.T @ inputs.T
""",
        "projection_order:weights_transposed": """
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query.T, inputs @ w_key.T, inputs @ w_value.T
""",
        "mixed_up_projections:key_value_swapped": """
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_value
    values = inputs @ w_key
    return queries, keys, values
""",
        "mixed_up_projections:one_matrix": """
def project_qkv(inputs, w_query, w_key, w_value):
    q = inputs @ w_query
    return q, q, q
""",
        "mixed_up_projections:returned_q_v_k": """
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_key
    values = inputs @ w_value
    return queries, values, keys
""",
        "integer_arithmetic:astype_int": """
def project_qkv(inputs, w_query, w_key, w_value):
    return tuple((inputs @ w).astype(int) for w in (w_query, w_key, w_value))
""",
        "lower_precision:float32": """
def project_qkv(inputs, w_query, w_key, w_value):
    x = inputs.astype(np.float32)
    return x @ w_query.astype(np.float32), x @ w_key.astype(np.float32), x @ w_value.astype(np.float32)
""",
        "uncatalogued:values_forgotten": """
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_key
""",
    },
    "state_weights": {
        "no_scaling": """
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query)
""",
        "scale_by_d_k": """
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / keys.shape[1])
""",
        "scale_by_sqrt_d_model": """
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(states.shape[1]))
""",
        "scale_by_sqrt_d_model:state_width": """
def state_weights(state, states, w_query, w_key):
    scores = (states @ w_key) @ (state @ w_query)
    return softmax(scores / np.sqrt(len(state)))
""",
        "scale_by_sqrt_tokens": """
def state_weights(state, states, w_query, w_key):
    scores = (states @ w_key) @ (state @ w_query)
    return softmax(scores / np.sqrt(len(states)))
""",
        "softmax_no_max_subtraction": """
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    e = np.exp(k @ q / np.sqrt(k.shape[-1]))
    return e / e.sum()
""",
        "normalise_by_sum": """
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = k @ q / np.sqrt(k.shape[-1])
    return s / s.sum()
""",
        "scale_applied_twice": """
def state_weights(state, states, w_query, w_key):
    d_k = w_key.shape[1]
    query = state @ w_query / np.sqrt(d_k)
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(d_k))
""",
        "integer_arithmetic:floordiv": """
def state_weights(state, states, w_query, w_key):
    scores = (states @ w_key) @ (state @ w_query)
    return softmax(scores // np.sqrt(w_key.shape[1]))
""",
        "mixed_up_projections:query_from_w_key": """
def state_weights(state, states, w_query, w_key):
    query = state @ w_key
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(keys.shape[-1]))
""",
    },
    "state_attention": {
        "weights_times_keys": """
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ (states @ w_key)
""",
        "values_not_projected:values_not_projected": """
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ states
""",
        "returns_weights": """
def state_attention(state, states, w_query, w_key, w_value):
    return state_weights(state, states, w_query, w_key)
""",
        "no_scaling": """
def state_attention(state, states, w_query, w_key, w_value):
    scores = (states @ w_key) @ (state @ w_query)
    weights = softmax(scores)
    return weights @ (states @ w_value)
""",
        "projection_order": """
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value.T
    return weights @ values
""",
        "loop_leftover:last_word_left_out": """
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    out = np.zeros(values.shape[1])
    for j in range(len(values) - 1):
        out = out + weights[j] * values[j]
    return out
""",
        "scale_by_sqrt_d_model": """
def state_attention(state, states, w_query, w_key, w_value):
    scores = (states @ w_key) @ (state @ w_query) / np.sqrt(states.shape[-1])
    return softmax(scores) @ (states @ w_value)
""",
        "lower_precision:float32_values": """
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = (states @ w_value).astype(np.float32)
    return weights.astype(np.float32) @ values
""",
    },
}

VARIANTS = {
    "project_qkv": {
        "stacked": """
def project_qkv(inputs, w_query, w_key, w_value):
    return np.stack([inputs @ w for w in (w_query, w_key, w_value)])
""",
        "einsum": """
def project_qkv(inputs, w_query, w_key, w_value):
    proj = lambda w: np.einsum('td,dk->tk', inputs, w)
    return proj(w_query), proj(w_key), proj(w_value)
""",
    },
    "state_weights": {
        "by_hand_stable": """
def state_weights(state, states, w_query, w_key):
    q = np.dot(state, w_query)
    k = np.dot(states, w_key)
    s = np.array([np.dot(q, k_j) for k_j in k]) / np.sqrt(len(q))
    e = np.exp(s - s.max())
    return e / np.sum(e)
""",
        "logsumexp": """
from scipy.special import logsumexp

def state_weights(state, states, w_query, w_key):
    s = np.einsum('k,nk->n', state @ w_query, states @ w_key) / np.sqrt(w_key.shape[-1])
    return np.exp(s - logsumexp(s))
""",
    },
    "state_attention": {
        "einsum": """
def state_attention(state, states, w_query, w_key, w_value):
    a = state_weights(state, states, w_query, w_key)
    return np.einsum('n,nv->v', a, states @ w_value)
""",
        "term_by_term": """
def state_attention(state, states, w_query, w_key, w_value):
    a = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return sum(a[j] * values[j] for j in range(len(values)))
""",
    },
}
