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
    "key_scores": {
        "sum_instead_of_dot": """
def key_scores(query, keys):
    return keys * query
""",
        "scaled_too_early": """
def key_scores(query, keys):
    return keys @ query / np.sqrt(len(query))
""",
        "changes_inputs_in_place": """
def key_scores(query, keys):
    keys *= query
    return keys.sum(axis=1)
""",
    },
    "scaled_softmax": {
        "no_scaling": """
def scaled_softmax(scores, d_k):
    return softmax(scores, axis=-1)
""",
        "scale_by_d_k": """
def scaled_softmax(scores, d_k):
    return softmax(scores / d_k, axis=-1)
""",
        "scale_by_sqrt_tokens": """
def scaled_softmax(scores, d_k):
    return softmax(scores / np.sqrt(scores.shape[-1]), axis=-1)
""",
        "softmax_over_all_entries": """
def scaled_softmax(scores, d_k):
    return softmax(scores / np.sqrt(d_k))
""",
        "softmax_wrong_axis": """
def scaled_softmax(scores, d_k):
    return softmax(scores / np.sqrt(d_k), axis=0)
""",
        "softmax_no_max_subtraction": """
def scaled_softmax(scores, d_k):
    exps = np.exp(scores / np.sqrt(d_k))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "normalise_by_sum": """
def scaled_softmax(scores, d_k):
    scaled = scores / np.sqrt(d_k)
    return scaled / scaled.sum(axis=-1, keepdims=True)
""",
        "no_softmax": """
def scaled_softmax(scores, d_k):
    return scores / np.sqrt(d_k)
""",
        "changes_inputs_in_place": """
def scaled_softmax(scores, d_k):
    scores -= scores.max(axis=-1, keepdims=True)
    exps = np.exp(scores / np.sqrt(d_k))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
    },
    "attention_for_query": {
        "no_scaling": """
def attention_for_query(query, keys, values):
    return softmax(keys @ query) @ values
""",
        "scale_by_d_k": """
def attention_for_query(query, keys, values):
    d_k = keys.shape[1]
    return softmax(keys @ query / d_k) @ values
""",
        "scale_by_sqrt_tokens": """
def attention_for_query(query, keys, values):
    return softmax(keys @ query / np.sqrt(len(keys))) @ values
""",
        "softmax_no_max_subtraction": """
def attention_for_query(query, keys, values):
    exps = np.exp(keys @ query / np.sqrt(keys.shape[-1]))
    weights = exps / exps.sum()
    return weights @ values
""",
        "normalise_by_sum": """
def attention_for_query(query, keys, values):
    scores = keys @ query / np.sqrt(keys.shape[-1])
    return (scores / scores.sum()) @ values
""",
        "no_softmax": """
def attention_for_query(query, keys, values):
    return (keys @ query / np.sqrt(keys.shape[-1])) @ values
""",
        "returns_weights": """
def attention_for_query(query, keys, values):
    scores = key_scores(query, keys)
    return scaled_softmax(scores, keys.shape[-1])
""",
        "returns_scores": """
def attention_for_query(query, keys, values):
    return key_scores(query, keys)
""",
        "weights_times_keys": """
def attention_for_query(query, keys, values):
    weights = scaled_softmax(key_scores(query, keys), keys.shape[-1])
    return weights @ keys
""",
        "weights_times_scores": """
def attention_for_query(query, keys, values):
    scores = key_scores(query, keys)
    weights = scaled_softmax(scores, keys.shape[-1])
    return weights @ scores
""",
    },
    "general_attention": {
        "no_scaling": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    return softmax(queries @ keys.T, axis=-1) @ values
""",
        "scale_by_d_k": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    return softmax(queries @ keys.T / keys.shape[1], axis=-1) @ values
""",
        "scale_by_sqrt_tokens": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    scores = queries @ keys.T
    return softmax(scores / np.sqrt(scores.shape[0]), axis=-1) @ values
""",
        "scale_by_sqrt_d_model": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    d_model = inputs.shape[1]
    return softmax(queries @ keys.T / np.sqrt(d_model), axis=-1) @ values
""",
        "softmax_over_all_entries": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    return softmax(queries @ keys.T / np.sqrt(keys.shape[-1])) @ values
""",
        "softmax_wrong_axis": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    return softmax(queries @ keys.T / np.sqrt(keys.shape[-1]), axis=0) @ values
""",
        "softmax_no_max_subtraction": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    exps = np.exp(queries @ keys.T / np.sqrt(keys.shape[-1]))
    weights = exps / exps.sum(axis=1, keepdims=True)
    return weights @ values
""",
        "normalise_by_sum": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    scores = queries @ keys.T / np.sqrt(keys.shape[-1])
    return (scores / scores.sum(axis=1, keepdims=True)) @ values
""",
        "no_softmax": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    return (queries @ keys.T / np.sqrt(keys.shape[-1])) @ values
""",
        "keys_without_transpose": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    weights = scaled_softmax(queries @ keys, keys.shape[-1])
    return weights @ values
""",
        "keys_times_queries": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    weights = scaled_softmax(keys @ queries.T, keys.shape[-1])
    return weights @ values
""",
        "weights_transposed": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    weights = scaled_softmax(queries @ keys.T, keys.shape[-1])
    return weights.T @ values
""",
        "weights_times_scores": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    scores = queries @ keys.T
    return scaled_softmax(scores, keys.shape[-1]) @ scores
""",
        "weights_times_keys": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    return scaled_softmax(queries @ keys.T, keys.shape[-1]) @ keys
""",
        "weights_times_queries": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    return scaled_softmax(queries @ keys.T, keys.shape[-1]) @ queries
""",
        "returns_weights": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    return scaled_softmax(queries @ keys.T, keys.shape[-1])
""",
        "returns_scores": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    return queries @ keys.T
""",
        "mixed_up_projections": """
def general_attention(inputs, w_query, w_key, w_value):
    queries = inputs @ w_query
    keys = inputs @ w_value
    values = inputs @ w_key
    return scaled_softmax(queries @ keys.T, keys.shape[-1]) @ values
""",
        "projection_order": """
def general_attention(inputs, w_query, w_key, w_value):
    queries = (w_query @ inputs.T).T
    keys = (w_key @ inputs.T).T
    values = (w_value @ inputs.T).T
    return scaled_softmax(queries @ keys.T, keys.shape[-1]) @ values
""",
        "loop_leftover": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    outputs = []
    for query in queries:
        outputs.append(attention_for_query(query, keys, values))
        return np.array(outputs)
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
    "key_scores": {
        "loop_with_dot": """
def key_scores(query, keys):
    return np.array([np.dot(query, key) for key in keys])
""",
        "einsum": """
def key_scores(query, keys):
    return np.einsum("d,td->t", query, keys)
""",
        "multiply_and_sum": """
def key_scores(query, keys):
    return (keys * query).sum(axis=-1)
""",
        "matmul_transpose": """
def key_scores(query, keys):
    return np.matmul(query, keys.T)
""",
    },
    "scaled_softmax": {
        "hand_written": """
def scaled_softmax(scores, d_k):
    scaled = scores / np.sqrt(d_k)
    exps = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "scipy_special": """
import scipy.special

def scaled_softmax(scores, d_k):
    return scipy.special.softmax(scores / d_k ** 0.5, axis=scores.ndim - 1)
""",
        "logsumexp": """
from scipy.special import logsumexp

def scaled_softmax(scores, d_k):
    scaled = scores / np.sqrt(d_k)
    return np.exp(scaled - logsumexp(scaled, axis=-1, keepdims=True))
""",
        "float64_inside": """
def scaled_softmax(scores, d_k):
    scaled = np.asarray(scores, dtype=np.float64) / np.sqrt(d_k)
    exps = np.exp(scaled - np.max(scaled, axis=-1, keepdims=True))
    return exps / np.sum(exps, axis=-1, keepdims=True)
""",
        "float32": """
def scaled_softmax(scores, d_k):
    scaled = scores.astype(np.float32) / np.float32(np.sqrt(d_k))
    exps = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "loops_over_rows": """
def scaled_softmax(scores, d_k):
    scaled = scores / np.sqrt(d_k)
    flat = scaled.reshape(-1, scaled.shape[-1])
    out = np.empty_like(flat)
    for i, row in enumerate(flat):
        e = np.exp(row - row.max())
        out[i] = e / e.sum()
    return out.reshape(scaled.shape)
""",
    },
    "attention_for_query": {
        "uses_helpers": """
def attention_for_query(query, keys, values):
    weights = scaled_softmax(key_scores(query, keys), len(query))
    return weights @ values
""",
        "scipy_inline": """
def attention_for_query(query, keys, values):
    weights = softmax(keys @ query / np.sqrt(keys.shape[-1]))
    return weights @ values
""",
        "term_by_term_loop": """
def attention_for_query(query, keys, values):
    d_k = keys.shape[-1]
    scores = np.array([np.dot(query, k) for k in keys]) / np.sqrt(d_k)
    exps = np.exp(scores - scores.max())
    weights = exps / exps.sum()
    output = np.zeros(values.shape[1])
    for weight, value in zip(weights, values):
        output = output + weight * value
    return output
""",
        "einsum": """
def attention_for_query(query, keys, values):
    scores = np.einsum("d,td->t", query, keys) / np.sqrt(keys.shape[-1])
    weights = softmax(scores)
    return np.einsum("t,tv->v", weights, values)
""",
        "broadcast_sum": """
def attention_for_query(query, keys, values):
    weights = softmax((keys * query).sum(axis=1) / np.sqrt(query.shape[0]))
    return (weights[:, None] * values).sum(axis=0)
""",
    },
    "general_attention": {
        "uses_helpers": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    weights = scaled_softmax(queries @ keys.T, keys.shape[-1])
    return weights @ values
""",
        "all_inline": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scores = queries @ keys.T / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return (exps / exps.sum(axis=-1, keepdims=True)) @ values
""",
        "loop_over_queries": """
def general_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = project_qkv(inputs, w_query, w_key, w_value)
    return np.array([attention_for_query(q, keys, values) for q in queries])
""",
        "einsum": """
def general_attention(inputs, w_query, w_key, w_value):
    q = np.einsum("td,dk->tk", inputs, w_query)
    k = np.einsum("td,dk->tk", inputs, w_key)
    v = np.einsum("td,dk->tk", inputs, w_value)
    weights = softmax(np.einsum("ik,jk->ij", q, k) / np.sqrt(k.shape[1]), axis=1)
    return np.einsum("ij,jv->iv", weights, v)
""",
        "float32": """
def general_attention(inputs, w_query, w_key, w_value):
    x = inputs.astype(np.float32)
    queries, keys, values = (x @ w.astype(np.float32) for w in (w_query, w_key, w_value))
    scores = queries @ keys.T / np.float32(np.sqrt(keys.shape[-1]))
    return softmax(scores, axis=-1) @ values
""",
    },
}
