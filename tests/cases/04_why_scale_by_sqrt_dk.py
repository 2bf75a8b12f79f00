"""Learner-style answers for notebook 04: one catalogued mistake each, or a correct variant.

Keys: the exercise's solution cell (grade_id), then the mistake id (from
attention_course.mistakes) or a variant's name. Values: what a learner types into that cell.
Run by ``python3 tasks.py accuracy`` and tests/test_accuracy.py.

The cases of width_sweep and gradient_norms were written after the fresh held-out set of these two
exercises (tests/cases/fresh/04_why_scale_by_sqrt_dk_new.py), and differ from it.
"""

MISTAKES = {
    "width_sweep": {
        "lower_precision:float32_cast": """
def width_sweep(queries, keys, widths, power):
    q, k = queries.astype(np.float32), keys.astype(np.float32)
    return np.stack([q[:, :w] @ k[:, :w].T / np.float32(w ** power) for w in widths])
""",
        "no_scaling": """
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T for w in widths])
""",
        "width_scale_fixed": """
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / np.sqrt(w) for w in widths])
""",
        "width_scale_full": """
def width_sweep(queries, keys, widths, power):
    d_max = queries.shape[1]
    return np.stack([queries[:, :w] @ keys[:, :w].T / d_max ** power for w in widths])
""",
        "width_last_columns": """
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, queries.shape[1] - w:] @ keys[:, keys.shape[1] - w:].T / w ** power)
    return np.array(out)
""",
        "keys_times_queries": """
def width_sweep(queries, keys, widths, power):
    return np.stack([np.dot(keys[:, :w], queries[:, :w].T) / w ** power for w in widths])
""",
        "scale_applied_twice": """
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / w ** power / w ** power for w in widths])
""",
    },
    "score_variance": {
        "std_instead_of_variance": """
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
""",
        "scaled_too_early": """
def score_variance(queries, keys):
    scores = queries @ keys.T / np.sqrt(keys.shape[-1])
    return scores.var()
""",
        "keys_without_transpose": """
def score_variance(queries, keys):
    return np.var(queries @ keys)
""",
        "sum_instead_of_dot": """
def score_variance(queries, keys):
    return np.var(queries * keys)
""",
    },
    "attention_entropy": {
        "softmax_no_max_subtraction": """
def attention_entropy(scores):
    p = np.exp(scores) / np.exp(scores).sum(axis=-1, keepdims=True)
    return -(p * np.log(p)).sum(axis=-1)
""",
        "entropy_nan_for_zero_weights": """
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(p * np.log(p), axis=-1)
""",
        "softmax_wrong_axis": """
def attention_entropy(scores):
    shifted = scores - scores.max(axis=0)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=0))
    return -(np.exp(log_p) * log_p).sum(axis=0)
""",
        "softmax_over_all_entries": """
def attention_entropy(scores):
    p = softmax(scores)
    return -(p * np.log(p)).sum(axis=-1)
""",
    },
    "gradient_norms": {
        "gradient_norm_squared": """
def gradient_norms(scores):
    return np.array([(softmax_jacobian(row) ** 2).sum() for row in scores])
""",
        "gradient_norm_of_weights": """
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax(row)) for row in scores])
""",
        "gradient_norm_whole_stack": """
def gradient_norms(scores):
    return np.sqrt(sum((softmax_jacobian(row) ** 2).sum() for row in scores))
""",
        "gradient_norm_spectral": """
def gradient_norms(scores):
    return np.array([np.linalg.svd(softmax_jacobian(row), compute_uv=False).max() for row in scores])
""",
        "softmax_no_max_subtraction": """
def gradient_norms(scores):
    exps = np.exp(scores)
    p = exps / exps.sum(axis=-1, keepdims=True)
    jacobians = p[:, :, None] * np.eye(p.shape[1]) - p[:, :, None] * p[:, None, :]
    return np.linalg.norm(jacobians, axis=(1, 2))
""",
        "softmax_wrong_axis": """
def gradient_norms(scores):
    p = softmax(scores, axis=0)
    jacobians = p[:, :, None] * np.eye(p.shape[1]) - p[:, :, None] * p[:, None, :]
    return np.linalg.norm(jacobians, axis=(1, 2))
""",
    },
    "softmax_jacobian": {
        "lower_precision:float32_cast": """
def softmax_jacobian(scores):
    p = softmax(scores.astype(np.float32)).astype(np.float32)
    return np.diag(p) - np.outer(p, p)
""",
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
    p = np.exp(scores) / np.sum(np.exp(scores))
    return np.diag(p) - np.outer(p, p)
""",
    },
}

VARIANTS = {
    "width_sweep": {
        "loop_index": """
def width_sweep(queries, keys, widths, power):
    result = np.zeros((len(widths), queries.shape[0], keys.shape[0]))
    for i in range(len(widths)):
        w = widths[i]
        result[i] = queries[:, :w] @ keys[:, :w].T / w ** power
    return result
""",
        "keys_scaled": """
def width_sweep(queries, keys, widths, power):
    return np.array([queries[:, :w] @ (keys[:, :w] / np.power(w, power)).T for w in widths])
""",
    },
    "gradient_norms": {
        "fro_norm": """
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), "fro") for row in scores])
""",
        "vectorised": """
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    jacobians = np.einsum("qi,ij->qij", p, np.eye(p.shape[-1])) - np.einsum("qi,qj->qij", p, p)
    return np.sqrt(np.einsum("qij,qij->q", jacobians, jacobians))
""",
        "flattened": """
def gradient_norms(scores):
    return np.stack([np.sqrt(np.sum(np.square(softmax_jacobian(s).ravel()))) for s in scores])
""",
    },
    "score_variance": {
        "method": """
def score_variance(queries, keys):
    return (queries @ keys.T).var()
""",
        "by_hand": """
def score_variance(queries, keys):
    raw = queries @ keys.T
    return float(((raw - raw.mean()) ** 2).mean())
""",
        "einsum_numpy_scalar": """
def score_variance(queries, keys):
    return np.var(np.einsum("qd,kd->qk", queries, keys))
""",
        "loops": """
def score_variance(queries, keys):
    dots = [float(np.dot(q, k)) for q in queries for k in keys]
    mean = sum(dots) / len(dots)
    return sum((d - mean) ** 2 for d in dots) / len(dots)
""",
    },
    "attention_entropy": {
        "log_softmax": """
from scipy.special import log_softmax

def attention_entropy(scores):
    log_p = log_softmax(scores, axis=-1)
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
""",
        "scipy_entr": """
from scipy.special import entr

def attention_entropy(scores):
    return entr(softmax(scores, axis=-1)).sum(axis=-1)
""",
        "xlogy": """
from scipy.special import xlogy

def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -xlogy(p, p).sum(axis=-1)
""",
        "logsumexp_identity": """
from scipy.special import logsumexp

def attention_entropy(scores):
    # H = logsumexp(s) - sum p s
    p = softmax(scores, axis=-1)
    return logsumexp(scores, axis=-1) - (p * scores).sum(axis=-1)
""",
        "where_guard": """
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    terms = np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0)
    return -terms.sum(axis=-1)
""",
        "float64_inside": """
def attention_entropy(scores):
    s = np.asarray(scores, dtype=np.float64)
    shifted = s - s.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
""",
    },
    "softmax_jacobian": {
        "loops": """
def softmax_jacobian(scores):
    p = softmax(scores)
    n = len(p)
    jacobian = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            jacobian[i, j] = p[i] * ((i == j) - p[j])
    return jacobian
""",
        "einsum": """
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - np.einsum("i,j->ij", p, p)
""",
        "hand_written_softmax": """
def softmax_jacobian(scores):
    e = np.exp(scores - np.max(scores))
    p = e / e.sum()
    return np.diagflat(p) - p[:, None] * p[None, :]
""",
        "identity_form": """
def softmax_jacobian(scores):
    p = softmax(scores)
    return p[:, None] * (np.eye(len(p)) - p[None, :])
""",
    },
}
