"""Blind set 11, notebook 02: general attention in NumPy. Written from notebooks/02_general_attention_numpy.ipynb only."""

MISTAKES = {
    "project_qkv": {
        "weights_first": (["order", "x_i w_q", "transpose", "left"], '''
import numpy as np
def project_qkv(inputs, w_query, w_key, w_value):
    return w_query.T @ inputs.T, w_key.T @ inputs.T, w_value.T @ inputs.T
'''),
        "elementwise": (["matrix product", "@", "elementwise"], '''
import numpy as np
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs * w_query, inputs * w_key, inputs * w_value
'''),
        "swapped_key_value": (["key", "value", "swapped"], '''
import numpy as np
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_value, inputs @ w_key
'''),
        "all_query": (["w_key", "w_value", "same matrix"], '''
import numpy as np
def project_qkv(inputs, w_query, w_key, w_value):
    q = inputs @ w_query
    return q, q, q
'''),
    },
    "state_weights": {
        "no_scale": (["sqrt", "scale", "divide", "d_k"], '''
import numpy as np
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = k @ q
    e = np.exp(s - s.max())
    return e / e.sum()
'''),
        "unstable_softmax": (["overflow", "max", "stable", "inf"], '''
import numpy as np
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = k @ q / np.sqrt(k.shape[1])
    return np.exp(s) / np.exp(s).sum()
'''),
        "sqrt_of_d_model": (["d_k", "d_model", "width of the key", "sqrt"], '''
import numpy as np
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = k @ q / np.sqrt(states.shape[1])
    e = np.exp(s - s.max())
    return e / e.sum()
'''),
        "integer_division": (["integer", "floor", "//", "dtype"], '''
import numpy as np
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = (k @ q) // int(np.sqrt(k.shape[1]))
    e = np.exp(s - s.max())
    return e / e.sum()
'''),
        "divide_by_dk": (["sqrt", "square root", "d_k"], '''
import numpy as np
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    s = k @ q / k.shape[1]
    e = np.exp(s - s.max())
    return e / e.sum()
'''),
    },
    "state_attention": {
        "weighted_keys": (["value", "keys", "w_value"], '''
import numpy as np
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return w @ (states @ w_key)
'''),
        "raw_states": (["project", "w_value", "values"], '''
import numpy as np
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return w @ states
'''),
        "mean_of_values": (["average", "mean", "weighted"], '''
import numpy as np
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return (w[:, None] * (states @ w_value)).mean(axis=0)
'''),
        "elementwise_no_sum": (["sum", "weighted sum", "shape"], '''
import numpy as np
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return w[:, None] * (states @ w_value)
'''),
        "argmax_value": (["argmax", "hard", "one value", "weighted sum"], '''
import numpy as np
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return (states @ w_value)[np.argmax(w)]
'''),
    },
}

VARIANTS = {
    "project_qkv": {
        "matmul": '''
import numpy as np
def project_qkv(inputs, w_query, w_key, w_value):
    return inputs @ w_query, inputs @ w_key, inputs @ w_value
''',
        "stacked_einsum": '''
import numpy as np
def project_qkv(inputs, w_query, w_key, w_value):
    w = np.stack([w_query, w_key, w_value])
    return np.einsum("td,sdk->stk", inputs, w)
''',
    },
    "state_weights": {
        "stable": '''
import numpy as np
def state_weights(state, states, w_query, w_key):
    q = np.asarray(state, dtype=float) @ w_query
    k = np.asarray(states, dtype=float) @ w_key
    s = k @ q / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    return e / e.sum()
''',
        "scipy": '''
import numpy as np
from scipy.special import softmax as _sp_softmax
def state_weights(state, states, w_query, w_key):
    q = np.dot(state.astype(np.float64), w_query)
    k = np.dot(states.astype(np.float64), w_key)
    return _sp_softmax(k @ q / np.sqrt(w_key.shape[1]))
''',
    },
    "state_attention": {
        "vecmat": '''
import numpy as np
def state_attention(state, states, w_query, w_key, w_value):
    w = state_weights(state, states, w_query, w_key)
    return w @ (states @ w_value)
''',
        "loop": '''
import numpy as np
def state_attention(state, states, w_query, w_key, w_value):
    q = state @ w_query
    k = states @ w_key
    s = k @ q / np.sqrt(k.shape[1])
    e = np.exp(s - s.max())
    w = e / e.sum()
    out = np.zeros(w_value.shape[1])
    for j in range(states.shape[0]):
        out = out + w[j] * (states[j] @ w_value)
    return out
''',
    },
}
