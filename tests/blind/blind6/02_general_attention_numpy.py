"""Blind set 6, notebook 02: General attention with queries, keys and values (NumPy/SciPy). Written from notebooks/02_general_attention_numpy.ipynb only."""

MISTAKES = {
    "project_qkv": {
        "transposed_weights": (["transpose", ".t", "w_query.t"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query.T, inputs @ w_key.T, inputs @ w_value.T
'''),
        "swapped_order": (["order", "swapped", "queries, keys, values"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_key
    values = inputs @ w_value
    return keys, queries, values
'''),
        "same_matrix": (["w_key", "w_value", "same matrix", "copy"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_query
    values = inputs @ w_query
    return queries, keys, values
'''),
        "elementwise": (["elementwise", "element-wise", "matrix product", "@"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
'''),
        "int_cast": (["integer", "int", "dtype", "float"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return ((inputs @ w_query).astype(int), (inputs @ w_key).astype(int), (inputs @ w_value).astype(int))
'''),
    },
    "state_weights": {
        "no_scaling": (["sqrt", "scale", "divide", "d_k"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q)
'''),
        "sqrt_d_model": (["d_k", "d_model", "width of the keys", "w_key.shape[1]"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q / np.sqrt(states.shape[1]))
'''),
        "sqrt_d_state": (["d_k", "d_state", "width of the keys", "w_key.shape[1]"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q / np.sqrt(state.shape[0]))
'''),
        "divide_by_dk": (["square root", "sqrt", "instead of"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q / w_key.shape[1])
'''),
        "naive_exp": (["overflow", "stable", "max", "inf", "nan"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = k @ q / np.sqrt(w_key.shape[1])
    e = np.exp(s)
    return e / e.sum()
'''),
        "sqrt_n_states": (["d_k", "n_states", "number of words", "width of the keys"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q / np.sqrt(len(states)))
'''),
    },
    "state_attention": {
        "keys_not_values": (["values", "keys", "w_value"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return w @ (states @ w_key)
'''),
        "unprojected_values": (["w_value", "project", "values"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return w @ states
'''),
        "no_scaling": (["sqrt", "scale", "divide", "d_k"], '''
def state_attention(state, states, w_query, w_key, w_value):
    q = state @ w_query
    k = states @ w_key
    v = states @ w_value
    w = softmax(k @ q)
    return w @ v
'''),
        "mean_not_sum": (["mean", "average", "instead of a sum"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    v = states @ w_value
    return (w[:, None] * v).mean(axis=0)
'''),
        "sum_wrong_axis": (["axis", "sum over", "words", "axis=0"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    v = states @ w_value
    return (w[:, None] * v).sum(axis=1)
'''),
    },
}

VARIANTS = {
    "project_qkv": {
        "matmul": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_key, inputs @ w_value
''',
        "einsum_stack": '''
def project_qkv(inputs, w_query, w_key, w_value):
    w = np.stack([w_query, w_key, w_value])
    return np.einsum("td,cdk->ctk", inputs, w)
''',
    },
    "state_weights": {
        "scipy": '''
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    scores = keys @ query / np.sqrt(w_key.shape[1])
    return softmax(scores)
''',
        "manual_stable": '''
def state_weights(state, states, w_query, w_key):
    q = np.dot(state, w_query).astype(float)
    k = np.dot(states, w_key)
    s = np.array([np.dot(q, kj) for kj in k]) / np.sqrt(k.shape[1])
    e = np.exp(s - s.max())
    return e / e.sum()
''',
    },
    "state_attention": {
        "reuse": '''
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ (states @ w_value)
''',
        "term_by_term": '''
from scipy.special import softmax as _sm

def state_attention(state, states, w_query, w_key, w_value):
    q = state @ w_query
    keys = states @ w_key
    values = states @ w_value
    w = _sm(keys @ q / np.sqrt(keys.shape[1]))
    out = np.zeros(values.shape[1])
    for j in range(len(values)):
        out = out + w[j] * values[j]
    return out
''',
    },
}
