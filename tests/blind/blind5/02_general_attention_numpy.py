"""Blind set 5, notebook 02: General attention with queries, keys and values (NumPy/SciPy). Written from notebooks/02_general_attention_numpy.ipynb only."""

MISTAKES = {
    "project_qkv": {
        "weights_times_inputs": (["order", "transpose", "x_i w"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return (w_query @ inputs.T).T, (w_key @ inputs.T).T, (w_value @ inputs.T).T
'''),
        "elementwise": (["matrix product", "@", "elementwise"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
'''),
        "swapped_key_value": (["order", "keys", "values"], '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_value, inputs @ w_key
'''),
    },
    "state_weights": {
        "no_scaling": (["sqrt", "scale", "d_k"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q)
'''),
        "sqrt_d_model": (["d_k", "width of the keys", "sqrt"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q / np.sqrt(states.shape[1]))
'''),
        "divide_by_dk": (["square root", "sqrt", "d_k"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q / k.shape[1])
'''),
        "naive_softmax_overflow": (["overflow", "stable", "max"], '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = (k @ q) / np.sqrt(k.shape[1])
    e = np.exp(s)
    return e / e.sum()
'''),
    },
    "state_attention": {
        "values_unprojected": (["value", "w_value", "project"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return w @ states
'''),
        "keys_as_values": (["value", "keys", "w_value"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return w @ (states @ w_key)
'''),
        "mean_of_weighted": (["mean", "average", "sum"], '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    v = states @ w_value
    return (w[:, None] * v).mean(axis=0)
'''),
        "softmax_no_axis_on_scores": (["sqrt", "scale", "d_k"], '''
def state_attention(state, states, w_query, w_key, w_value):
    q = state @ w_query
    k = states @ w_key
    v = states @ w_value
    return softmax(k @ q) @ v
'''),
    },
}

VARIANTS = {
    "project_qkv": {
        "tuple": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_key, inputs @ w_value
''',
        "stacked_einsum": '''
def project_qkv(inputs, w_query, w_key, w_value):
    w = np.stack([w_query, w_key, w_value])
    return np.einsum("td,ndk->ntk", inputs, w)
''',
        "dot_loop": '''
def project_qkv(inputs, w_query, w_key, w_value):
    return tuple(np.dot(inputs, w) for w in (w_query, w_key, w_value))
''',
    },
    "state_weights": {
        "scipy_softmax": '''
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q / np.sqrt(w_key.shape[1]))
''',
        "manual_stable": '''
def state_weights(state, states, w_query, w_key):
    q = np.asarray(state, dtype=float) @ w_query
    k = np.asarray(states, dtype=float) @ w_key
    s = np.array([np.dot(kj, q) for kj in k]) / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    return e / e.sum()
''',
    },
    "state_attention": {
        "reuse": '''
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return w @ (states @ w_value)
''',
        "self_contained_einsum": '''
from scipy.special import softmax as _sm

def state_attention(state, states, w_query, w_key, w_value):
    q = state @ w_query
    k = states @ w_key
    v = states @ w_value
    w = _sm(np.einsum("k,nk->n", q, k) / np.sqrt(k.shape[1]))
    return np.einsum("n,nv->v", w, v)
''',
    },
}
