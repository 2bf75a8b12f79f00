'''Second fresh set, notebook 02: learner submissions written without the key.

Written on 2026-11-23 by a helper session that read only the exercise texts, signatures and solution
cells of solutions/02_general_attention_numpy.ipynb and the ids and titles of the mistake catalogue
(src/attention_course/mistakes.py); not autograder/key/, verdict.py, expected/, accuracy.py, nor any
other case file. Each case was checked only against the notebook's own solution (selfcheck.py), never
against the grader. Rule: this file is never edited after its first measurement.
'''

MISTAKES = {
    "project_qkv": {
        "mixed_up_projections:keys_from_w_query": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_query
    values = inputs @ w_value
    return queries, keys, values
''',
        "mixed_up_projections:return_order": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    return queries, values, keys
''',
        "projection_order:transposed_product": '''
def project_qkv(inputs, w_query, w_key, w_value):
    # W x, as in the paper's column-vector notation
    return w_query.T @ inputs.T, w_key.T @ inputs.T, w_value.T @ inputs.T
''',
        "uncatalogued:weights_transposed": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query.T, inputs @ w_key.T, inputs @ w_value.T
''',
        "lower_precision:float32": '''
def project_qkv(inputs, w_query, w_key, w_value):
    x = inputs.astype(np.float32)
    return x @ w_query.astype(np.float32), x @ w_key.astype(np.float32), x @ w_value.astype(np.float32)
''',
        "uncatalogued:elementwise_star": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
''',
        "uncatalogued:stacked_on_last_axis": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.stack([inputs @ w_query, inputs @ w_key, inputs @ w_value], axis=-1)
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
        "scale_by_sqrt_d_model": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(states.shape[1]))
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
        "integer_arithmetic:floor_division": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = (keys @ query) // np.sqrt(keys.shape[-1])
    return softmax(scores)
''',
        "mixed_up_projections:state_through_w_key": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_key
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(keys.shape[-1]))
''',
        "uncatalogued:query_not_projected": '''
def state_weights(state, states, w_query, w_key):
    keys = states @ w_key
    return softmax(states @ state / np.sqrt(keys.shape[-1]))
''',
    },
    "state_attention": {
        "returns_weights": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return weights
''',
        "weights_times_keys": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ (states @ w_key)
''',
        "values_not_projected:values_not_projected": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ states
''',
        "no_scaling": '''
def state_attention(state, states, w_query, w_key, w_value):
    scores = (states @ w_key) @ (state @ w_query)
    weights = softmax(scores)
    return weights @ (states @ w_value)
''',
        "uncatalogued:mean_not_sum": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return (weights[:, None] * values).mean(axis=0)
''',
        "integer_arithmetic:int_values": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = (states @ w_value).astype(int)
    return weights @ values
''',
        "lower_precision:float32_values": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key).astype(np.float32)
    values = (states @ w_value).astype(np.float32)
    return weights @ values
''',
        "uncatalogued:values_from_state": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights.sum() * (state @ w_query)
''',
    },
}

VARIANTS = {
    "project_qkv": {
        "stacked_matmul": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return np.matmul(inputs, np.stack([w_query, w_key, w_value]))
''',
        "einsum": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return tuple(np.einsum("td,dk->tk", inputs, w) for w in (w_query, w_key, w_value))
''',
        "np_dot": '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = np.dot(inputs, w_query)
    keys = np.dot(inputs, w_key)
    values = np.dot(inputs, w_value)
    return (queries, keys, values)
''',
    },
    "state_weights": {
        "manual_stable_softmax": '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = (k @ q) / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    return e / e.sum()
''',
        "einsum_log_softmax": '''
from scipy.special import log_softmax


def state_weights(state, states, w_query, w_key):
    d_k = w_key.shape[1]
    scores = np.einsum("k,nk->n", state @ w_query, states @ w_key) / np.sqrt(d_k)
    return np.exp(log_softmax(scores))
''',
    },
    "state_attention": {
        "values_transposed": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return (states @ w_value).T @ weights
''',
        "term_by_term": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    total = np.zeros(values.shape[1])
    for j in range(len(weights)):
        total = total + weights[j] * values[j]
    return total
''',
        "einsum_inline": '''
def state_attention(state, states, w_query, w_key, w_value):
    query, keys, values = state @ w_query, states @ w_key, states @ w_value
    weights = softmax(keys @ query / np.sqrt(keys.shape[-1]))
    return np.einsum("n,nv->v", weights, values)
''',
    },
}
