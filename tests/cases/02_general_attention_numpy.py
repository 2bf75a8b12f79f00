"""Learner-style answers for notebook 02: one catalogued mistake each, or a correct variant.

Keys: the exercise's solution cell (grade_id), then the mistake id (from
attention_course.mistakes) or a variant's name. Values: what a learner types into that cell.
Run by ``python3 tasks.py accuracy`` and tests/test_accuracy.py.
"""

MISTAKES = {
    "project_qkv": {
        "projection_order": """
def project_qkv(inputs, w_query, w_key, w_value):
    # each word as a column vector: q = W x
    queries = np.array([w_query @ x for x in inputs])
    keys = np.array([w_key @ x for x in inputs])
    values = np.array([w_value @ x for x in inputs])
    return queries, keys, values
""",
        "mixed_up_projections": """
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_value
    values = inputs @ w_key
    return queries, keys, values
""",
    },
    "state_weights": {
        "no_scaling": """
def state_weights(state, states, w_query, w_key):
    return softmax((states @ w_key) @ (state @ w_query))
""",
        "scale_by_d_k": """
def state_weights(state, states, w_query, w_key):
    q = state @ w_query
    k = states @ w_key
    return softmax(k @ q / k.shape[1])
""",
        "scale_by_sqrt_d_model": """
def state_weights(state, states, w_query, w_key):
    d_model = states.shape[-1]
    scores = (states @ w_key) @ (state @ w_query)
    return softmax(scores / np.sqrt(d_model))
""",
        "scale_by_sqrt_tokens": """
def state_weights(state, states, w_query, w_key):
    scores = (states @ w_key) @ (state @ w_query)
    return softmax(scores / np.sqrt(scores.shape[0]))
""",
        "softmax_no_max_subtraction": """
def state_weights(state, states, w_query, w_key):
    scores = (states @ w_key) @ (state @ w_query) / np.sqrt(w_key.shape[-1])
    return np.exp(scores) / np.exp(scores).sum()
""",
        "normalise_by_sum": """
def state_weights(state, states, w_query, w_key):
    scores = (states @ w_key) @ (state @ w_query) / np.sqrt(w_key.shape[-1])
    return scores / np.sum(scores)
""",
        "no_softmax": """
def state_weights(state, states, w_query, w_key):
    return (states @ w_key) @ (state @ w_query) / np.sqrt(w_key.shape[-1])
""",
        "returns_scores": """
def state_weights(state, states, w_query, w_key):
    return (states @ w_key) @ (state @ w_query)
""",
        "scale_applied_twice": """
def state_weights(state, states, w_query, w_key):
    d_k = w_key.shape[-1]
    scores = (states @ w_key) @ (state @ w_query) / np.sqrt(d_k)
    return softmax(scores / np.sqrt(d_k))
""",
    },
    "state_attention": {
        "returns_weights": """
def state_attention(state, states, w_query, w_key, w_value):
    return state_weights(state, states, w_query, w_key)
""",
        "weights_times_keys": """
def state_attention(state, states, w_query, w_key, w_value):
    return state_weights(state, states, w_query, w_key) @ (states @ w_key)
""",
        "no_scaling": """
def state_attention(state, states, w_query, w_key, w_value):
    weights = softmax((states @ w_key) @ (state @ w_query))
    return weights @ (states @ w_value)
""",
        "scale_by_sqrt_d_model": """
def state_attention(state, states, w_query, w_key, w_value):
    weights = softmax((states @ w_key) @ (state @ w_query) / np.sqrt(states.shape[1]))
    return weights @ (states @ w_value)
""",
        "mixed_up_projections": """
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return weights @ (states @ w_query)
""",
        "softmax_no_max_subtraction": """
def state_attention(state, states, w_query, w_key, w_value):
    e = np.exp((states @ w_key) @ (state @ w_query) / np.sqrt(w_key.shape[1]))
    return e @ (states @ w_value) / e.sum()
""",
    },
}

VARIANTS = {
    "project_qkv": {
        "stacked_array": """
def project_qkv(inputs, w_query, w_key, w_value):
    return np.stack([inputs @ w_query, inputs @ w_key, inputs @ w_value])
""",
        "list": """
def project_qkv(inputs, w_query, w_key, w_value):
    return [inputs @ w for w in (w_query, w_key, w_value)]
""",
        "einsum": """
def project_qkv(inputs, w_query, w_key, w_value):
    weights = np.stack([w_query, w_key, w_value])  # (3, d_model, d_k)
    return tuple(np.einsum("td,pdk->ptk", inputs, weights))
""",
        "loops": """
def project_qkv(inputs, w_query, w_key, w_value):
    tokens, d_model = inputs.shape
    results = []
    for w in (w_query, w_key, w_value):
        out = np.zeros((tokens, w.shape[1]))
        for i in range(tokens):
            for j in range(w.shape[1]):
                for m in range(d_model):
                    out[i, j] += inputs[i, m] * w[m, j]
        results.append(out)
    return tuple(results)
""",
        "np_dot_float64": """
def project_qkv(inputs, w_query, w_key, w_value):
    x = inputs.astype(np.float64)
    return np.dot(x, w_query), np.dot(x, w_key), np.dot(x, w_value)
""",
    },
    "state_weights": {
        "matmul_functions": """
def state_weights(state, states, w_query, w_key):
    query = np.matmul(state, w_query)
    keys = np.matmul(states, w_key)
    return softmax(np.matmul(keys, query) / np.sqrt(keys.shape[-1]), axis=-1)
""",
        "float32_inputs_kept": """
def state_weights(state, states, w_query, w_key):
    scores = (states @ w_key) @ (state @ w_query)
    scores = scores / np.sqrt(w_key.shape[1]).astype(scores.dtype) if scores.dtype.kind == "f" else \
        scores / np.sqrt(w_key.shape[1])
    scores = scores - scores.max()
    return np.exp(scores) / np.exp(scores).sum()
""",
    },
    "state_attention": {
        "einsum": """
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return np.einsum('n,nd,dv->v', weights, states, w_value)
""",
        "inline": """
def state_attention(state, states, w_query, w_key, w_value):
    q = state @ w_query
    k, v = states @ w_key, states @ w_value
    return softmax(k @ q / np.sqrt(len(q))) @ v
""",
    },
}
