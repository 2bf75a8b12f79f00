"""Held-out learner answers for notebook 04 (see README.md: never used to tune the diagnosis)."""

MISTAKES = {
    "score_variance": {
        "std_instead_of_variance:sqrt_var": """
def score_variance(queries, keys):
    return float(np.sqrt(np.var(queries @ keys.T)))
""",
        "scaled_too_early:helper": """
def score_variance(queries, keys):
    scaled = queries @ keys.T / np.sqrt(keys.shape[-1])  # was a call of notebook 04's former scaled_scores
    return float(np.var(scaled))
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
