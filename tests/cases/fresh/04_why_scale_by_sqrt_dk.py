"""Fresh learner answers for notebook 04 (see README.md: written without the key, never tuned on)."""

MISTAKES = {
    "score_variance": {
        "scaled_too_early": """
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T / np.sqrt(keys.shape[-1])))
""",
        "std_instead_of_variance:np_std": """
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
""",
        "sum_instead_of_dot:elementwise": """
def score_variance(queries, keys):
    return float(np.var(queries * keys))
""",
        "keys_without_transpose": """
def score_variance(queries, keys):
    return float(np.var(queries @ keys))
""",
        "uncatalogued:sample_variance": """
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, ddof=1))
""",
        "uncatalogued:mean_of_row_variances": """
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, axis=-1).mean())
""",
        "uncatalogued:second_moment": """
def score_variance(queries, keys):
    return float(np.mean((queries @ keys.T) ** 2))
""",
        "variance_from_formula:theoretical_formula": """
def score_variance(queries, keys):
    return float(np.var(queries) * np.var(keys) * keys.shape[-1])
""",
    },
    "attention_entropy": {
        "entropy_nan_for_zero_weights:naive": """
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -(p * np.log(p)).sum(axis=-1)
""",
        "softmax_wrong_axis:axis0": """
def attention_entropy(scores):
    log_p = scores - scores.max(axis=0, keepdims=True)
    log_p = log_p - np.log(np.exp(log_p).sum(axis=0, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
""",
        "softmax_no_max_subtraction:log_softmax": """
def attention_entropy(scores):
    log_p = scores - np.log(np.exp(scores).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
""",
        "uncatalogued:log2": """
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1) / np.log(2)
""",
        "uncatalogued:summed_over_queries": """
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=0)
""",
        "uncatalogued:minus_sign_missing": """
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))
    return np.sum(np.exp(log_p) * log_p, axis=-1)
""",
        "uncatalogued:mean_over_keys": """
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).mean(axis=-1)
""",
        "uncatalogued:global_max": """
def attention_entropy(scores):
    shifted = scores - scores.max()
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
""",
    },
    "softmax_jacobian": {
        "jacobian_diagonal_only": """
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p * (1 - p))
""",
        "jacobian_sign_flipped": """
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.outer(p, p) - np.diag(p)
""",
        "softmax_no_max_subtraction": """
def softmax_jacobian(scores):
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
""",
        "no_softmax:jacobian_of_scores": """
def softmax_jacobian(scores):
    return np.diag(scores) - np.outer(scores, scores)
""",
        "normalise_by_sum": """
def softmax_jacobian(scores):
    p = scores / scores.sum()
    return np.diag(p) - np.outer(p, p)
""",
        "jacobian_inner_product:inner_instead_of_outer": """
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p @ p.T
""",
        "jacobian_inner_product:square_instead_of_outer": """
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p * p
""",
    },
}

VARIANTS = {
    "score_variance": {
        "by_hand": """
def score_variance(queries, keys):
    raw = queries @ keys.T
    return float(((raw - raw.mean()) ** 2).mean())
""",
        "einsum_method": """
def score_variance(queries, keys):
    return np.einsum("qd,kd->qk", queries, keys).var()
""",
        "double_loop": """
def score_variance(queries, keys):
    values = [float(np.dot(q, k)) for q in queries for k in keys]
    return float(np.var(values))
""",
    },
    "attention_entropy": {
        "scipy_log_softmax": """
def attention_entropy(scores):
    from scipy.special import log_softmax
    log_p = log_softmax(scores, axis=-1)
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
""",
        "entr": """
def attention_entropy(scores):
    from scipy.special import entr
    return entr(softmax(scores, axis=-1)).sum(axis=-1)
""",
        "logsumexp_identity": """
def attention_entropy(scores):
    from scipy.special import logsumexp
    p = softmax(scores, axis=-1)
    return logsumexp(scores, axis=-1) - (p * scores).sum(axis=-1)
""",
        "where_guard": """
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    safe = np.where(p > 0, p, 1.0)
    return -np.sum(np.where(p > 0, p * np.log(safe), 0.0), axis=-1)
""",
    },
    "softmax_jacobian": {
        "row_times_identity_minus_p": """
def softmax_jacobian(scores):
    p = softmax(scores)
    return p[:, None] * (np.eye(len(p)) - p[None, :])
""",
        "diagflat": """
def softmax_jacobian(scores):
    p = softmax(scores - np.max(scores))
    return np.diagflat(p) - np.outer(p, p)
""",
        "double_loop": """
def softmax_jacobian(scores):
    p = softmax(scores)
    n = len(p)
    jacobian = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            jacobian[i, j] = p[i] * ((i == j) - p[j])
    return jacobian
""",
    },
}
