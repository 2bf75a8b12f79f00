"""Held-out learner answers for notebook 04 (see README.md: never used to tune the diagnosis)."""

MISTAKES = {
    "scaled_scores": {
        "scale_by_sqrt_tokens:n_queries": """
def scaled_scores(queries, keys):
    return queries @ keys.T / np.sqrt(len(queries))
""",
        "keys_without_transpose:dot": """
def scaled_scores(queries, keys):
    return np.dot(queries, keys) / np.sqrt(keys.shape[-1])
""",
        "no_scaling:matmul": """
def scaled_scores(queries, keys):
    return np.matmul(queries, keys.T)
""",
    },
    "scaled_self_attention": {
        "scale_applied_twice:helper": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scores = scaled_scores(queries, keys) / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
""",
        "weights_transposed": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    weights = softmax(scaled_scores(queries, keys), axis=-1)
    return weights.T @ values
""",
        "scale_by_d_k": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    weights = softmax(queries @ keys.T / keys.shape[-1], axis=-1)
    return weights @ values
""",
        "keys_times_queries:helper": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    return softmax(scaled_scores(keys, queries), axis=-1) @ values
""",
        "softmax_wrong_axis:axis0": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    return softmax(scaled_scores(queries, keys), axis=0) @ values
""",
    },
    "score_variance": {
        "std_instead_of_variance:sqrt_var": """
def score_variance(queries, keys):
    return float(np.sqrt(np.var(queries @ keys.T)))
""",
        "scaled_too_early:helper": """
def score_variance(queries, keys):
    return float(np.var(scaled_scores(queries, keys)))
""",
    },
    "attention_entropy": {
        "entropy_nan_for_zero_weights:scipy": """
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(p * np.log(p), axis=-1)
""",
        "softmax_over_all_entries:scipy": """
def attention_entropy(scores):
    shifted = scores - scores.max()
    log_p = shifted - np.log(np.exp(shifted).sum())
    return -(np.exp(log_p) * log_p).sum(axis=-1)
""",
    },
    "softmax_jacobian": {
        "jacobian_sign_flipped:outer_minus_diag": """
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.outer(p, p) - np.diag(p)
""",
        "jacobian_diagonal_only:p_one_minus_p": """
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p * (1 - p))
""",
    },
}

VARIANTS = {
    "scaled_scores": {
        "times_power": """
def scaled_scores(queries, keys):
    return np.matmul(queries, np.swapaxes(keys, -1, -2)) * keys.shape[-1] ** -0.5
""",
        "queries_width": """
def scaled_scores(queries, keys):
    return (queries @ keys.T) / np.sqrt(queries.shape[1])
""",
    },
    "scaled_self_attention": {
        "own_stable_softmax": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    q, k, v = inputs @ w_query, inputs @ w_key, inputs @ w_value
    s = q @ k.T / np.sqrt(k.shape[1])
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ v
""",
    },
    "score_variance": {
        "mean_of_squares": """
def score_variance(queries, keys):
    raw = queries @ keys.T
    return float(np.mean((raw - raw.mean()) ** 2))
""",
    },
    "attention_entropy": {
        "scipy_stats_entropy": """
import scipy.stats

def attention_entropy(scores):
    return scipy.stats.entropy(softmax(scores, axis=-1), axis=-1)
""",
    },
    "softmax_jacobian": {
        "broadcast_outer": """
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diagflat(p) - p[:, None] * p[None, :]
""",
    },
}
