"""Held-out learner answers for notebook 02 (see README.md: never used to tune the diagnosis)."""

MISTAKES = {
    "project_qkv": {
        "mixed_up_projections:queries_keys": """
def project_qkv(inputs, w_query, w_key, w_value):
    queries = inputs @ w_key
    keys = inputs @ w_query
    values = inputs @ w_value
    return queries, keys, values
""",
    },
    "key_scores": {
        "keys_without_transpose": """
def key_scores(query, keys):
    return np.dot(query, keys)
""",
        "sum_instead_of_dot:plus": """
def key_scores(query, keys):
    return np.sum(keys + query, axis=1)
""",
        "scaled_too_early:shape": """
def key_scores(query, keys):
    return keys @ query / np.sqrt(keys.shape[1])
""",
    },
    "scaled_softmax": {
        "scale_applied_twice": """
def scaled_softmax(scores, d_k):
    scaled = scores / np.sqrt(d_k)
    return softmax(scaled / np.sqrt(d_k), axis=-1)
""",
        "softmax_over_all_entries:axis_none": """
def scaled_softmax(scores, d_k):
    return softmax(scores / np.sqrt(d_k), axis=None)
""",
        "softmax_wrong_axis:axis_one": """
def scaled_softmax(scores, d_k):
    return softmax(scores / np.sqrt(d_k), axis=1)
""",
        "integer_arithmetic:floor_division": """
def scaled_softmax(scores, d_k):
    return softmax(scores // np.sqrt(d_k), axis=-1)
""",
        "lower_precision": """
def scaled_softmax(scores, d_k):
    scaled = (scores / np.sqrt(d_k)).astype(np.float16)
    return softmax(scaled, axis=-1)
""",
    },
    "attention_for_query": {
        "scale_applied_twice": """
def attention_for_query(query, keys, values):
    scores = key_scores(query, keys) / np.sqrt(keys.shape[-1])
    weights = scaled_softmax(scores, keys.shape[-1])
    return weights @ values
""",
        "scale_by_sqrt_tokens:len_values": """
def attention_for_query(query, keys, values):
    weights = scaled_softmax(key_scores(query, keys), len(values))
    return weights @ values
""",
        "returns_weights:inline": """
def attention_for_query(query, keys, values):
    scores = keys @ query / np.sqrt(len(query))
    return softmax(scores)
""",
        "softmax_no_max_subtraction:inline": """
def attention_for_query(query, keys, values):
    scores = keys @ query / np.sqrt(len(query))
    weights = np.exp(scores) / np.sum(np.exp(scores))
    return weights @ values
""",
    },
    "general_attention": {
        "scale_applied_twice": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    d_k = keys.shape[-1]
    weights = scaled_softmax(queries @ keys.T / np.sqrt(d_k), d_k)
    return weights @ values
""",
        "softmax_wrong_axis:axis0": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    weights = softmax(queries @ keys.T / np.sqrt(keys.shape[1]), axis=0)
    return weights @ values
""",
        "keys_times_queries:inline": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    weights = scaled_softmax(keys @ queries.T, keys.shape[1])
    return weights @ values
""",
        "scale_by_sqrt_d_model:helper": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    weights = scaled_softmax(queries @ keys.T, inputs.shape[1])
    return weights @ values
""",
        "weights_transposed:inline": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    weights = softmax(queries @ keys.T / np.sqrt(keys.shape[-1]), axis=-1)
    return weights.T @ values
""",
    },
}

VARIANTS = {
    "project_qkv": {
        "matmul_stack": """
def project_qkv(inputs, w_query, w_key, w_value):
    return np.stack([np.matmul(inputs, w) for w in (w_query, w_key, w_value)])
""",
    },
    "key_scores": {
        "query_times_transpose": """
def key_scores(query, keys):
    return query @ keys.T
""",
        "list_comprehension": """
def key_scores(query, keys):
    return np.array([np.dot(k, query) for k in keys])
""",
    },
    "scaled_softmax": {
        "power_minus_half": """
def scaled_softmax(scores, d_k):
    return softmax(scores * d_k ** -0.5, axis=-1)
""",
        "manual_math_sqrt": """
import math

def scaled_softmax(scores, d_k):
    scaled = scores / math.sqrt(d_k)
    exps = np.exp(scaled - np.max(scaled, axis=-1, keepdims=True))
    return exps / np.sum(exps, axis=-1, keepdims=True)
""",
    },
    "attention_for_query": {
        "len_query": """
def attention_for_query(query, keys, values):
    weights = scaled_softmax(key_scores(query, keys), len(query))
    return weights @ values
""",
        "values_transpose": """
def attention_for_query(query, keys, values):
    weights = softmax(keys @ query / np.sqrt(keys.shape[1]))
    return values.T @ weights
""",
    },
    "general_attention": {
        "rows_via_attention_for_query": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    return np.array([attention_for_query(q, keys, values) for q in queries])
""",
        "einsum_scipy": """
def general_attention(inputs, w_query, w_key, w_value):
    q = np.einsum('td,dk->tk', inputs, w_query)
    k = np.einsum('td,dk->tk', inputs, w_key)
    v = np.einsum('td,dk->tk', inputs, w_value)
    weights = softmax(np.einsum('qd,kd->qk', q, k) / np.sqrt(k.shape[-1]), axis=1)
    return weights @ v
""",
    },
}
