"""Seventh fresh set, notebook 04. Written without the key (see README.md)."""

MISTAKES = {
    "score_variance": {
        "scaled_too_early": """
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T / np.sqrt(keys.shape[1])))
""",
        "std_instead_of_variance": """
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
""",
        "uncatalogued:sample_variance": """
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, ddof=1))
""",
        "keys_without_transpose": """
def score_variance(queries, keys):
    return float(np.var(queries @ keys))
""",
        "sum_instead_of_dot": """
def score_variance(queries, keys):
    products = queries[:, None, :] * keys[None, :, :]
    return float(np.var(products))
""",
        "uncatalogued:mean_square": """
def score_variance(queries, keys):
    raw = queries @ keys.T
    return float(np.mean(raw ** 2))
""",
        "uncatalogued:mean_of_row_variances": """
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, axis=1).mean())
""",
    },
    "width_sweep": {
        "width_scale_fixed": """
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / np.sqrt(w) for w in widths])
""",
        "width_scale_full": """
def width_sweep(queries, keys, widths, power):
    d = keys.shape[-1]
    return np.stack([queries[:, :w] @ keys[:, :w].T / d ** power for w in widths])
""",
        "width_last_columns": """
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, -w:] @ keys[:, -w:].T / w ** power for w in widths])
""",
        "no_scaling:power_ignored": """
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T for w in widths])
""",
        "integer_arithmetic:floordiv": """
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append((queries[:, :w] @ keys[:, :w].T) // (w ** power))
    return np.array(out)
""",
        "loop_leftover:last_width": """
def width_sweep(queries, keys, widths, power):
    out = np.zeros((len(widths), len(queries), len(keys)))
    for i in range(len(widths) - 1):
        w = widths[i]
        out[i] = queries[:, :w] @ keys[:, :w].T / w ** power
    return out
""",
        "uncatalogued:multiplied_by_w_power": """
def width_sweep(queries, keys, widths, power):
    return np.stack([(queries[:, :w] @ keys[:, :w].T) * w ** power for w in widths])
""",
        "width_slice_off_by_one:one_entry_too_many": """
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w + 1] @ keys[:, :w + 1].T / w ** power for w in widths])
""",
    },
    "attention_entropy": {
        "entropy_nan_for_zero_weights": """
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -(p * np.log(p)).sum(axis=-1)
""",
        "softmax_no_max_subtraction": """
def attention_entropy(scores):
    log_p = scores - np.log(np.exp(scores).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
""",
        "softmax_wrong_axis": """
from scipy.special import log_softmax

def attention_entropy(scores):
    log_p = log_softmax(scores, axis=0)
    return -(np.exp(log_p) * log_p).sum(axis=-1)
""",
        "changes_inputs_in_place": """
def attention_entropy(scores):
    scores -= scores.max(axis=-1, keepdims=True)
    log_p = scores - np.log(np.exp(scores).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
""",
        "uncatalogued:log2": """
from scipy.special import log_softmax

def attention_entropy(scores):
    log_p = log_softmax(scores, axis=-1)
    return -(np.exp(log_p) * log_p / np.log(2)).sum(axis=-1)
""",
        "uncatalogued:minus_sign_missing": """
from scipy.special import log_softmax

def attention_entropy(scores):
    log_p = log_softmax(scores, axis=-1)
    return (np.exp(log_p) * log_p).sum(axis=-1)
""",
        "lower_precision:float32": """
from scipy.special import log_softmax

def attention_entropy(scores):
    log_p = log_softmax(scores.astype(np.float32), axis=-1)
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
        "no_softmax": """
def softmax_jacobian(scores):
    return np.diag(scores) - np.outer(scores, scores)
""",
        "normalise_by_sum": """
def softmax_jacobian(scores):
    p = scores / scores.sum()
    return np.diag(p) - np.outer(p, p)
""",
        "uncatalogued:diag_p_only": """
def softmax_jacobian(scores):
    return np.diag(softmax(scores))
""",
        "lower_precision:float32": """
def softmax_jacobian(scores):
    p = softmax(scores.astype(np.float32))
    return np.diag(p) - np.outer(p, p)
""",
    },
    "gradient_norms": {
        "gradient_norm_squared": """
def gradient_norms(scores):
    return np.array([np.sum(softmax_jacobian(row) ** 2) for row in scores])
""",
        "gradient_norm_of_weights": """
def gradient_norms(scores):
    return np.linalg.norm(softmax(scores, axis=-1), axis=-1)
""",
        "gradient_norm_whole_stack": """
def gradient_norms(scores):
    return np.linalg.norm(np.stack([softmax_jacobian(r) for r in scores]))
""",
        "gradient_norm_spectral": """
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(r), ord=2) for r in scores])
""",
        "loop_leftover:first_row_skipped": """
def gradient_norms(scores):
    norms = np.zeros(len(scores))
    for i in range(1, len(scores)):
        norms[i] = np.linalg.norm(softmax_jacobian(scores[i]))
    return norms
""",
        "jacobian_diagonal_only": """
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    return np.linalg.norm(p * (1 - p), axis=-1)
""",
        "uncatalogued:columns_not_rows": """
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(col)) for col in scores.T])
""",
    },
}

VARIANTS = {
    "score_variance": {
        "by_hand": """
def score_variance(queries, keys):
    raw = np.einsum('qd,kd->qk', queries, keys)
    return float(((raw - raw.mean()) ** 2).mean())
""",
        "ravel": """
def score_variance(queries, keys):
    return np.var(np.dot(queries, keys.T).ravel()).item()
""",
    },
    "width_sweep": {
        "prealloc_einsum": """
def width_sweep(queries, keys, widths, power):
    out = np.empty((len(widths), queries.shape[0], keys.shape[0]), dtype=np.result_type(queries, keys))
    for i, w in enumerate(widths):
        out[i] = np.einsum('qd,kd->qk', queries[:, :w], keys[:, :w]) / float(w) ** power
    return out
""",
        "comprehension": """
def width_sweep(queries, keys, widths, power):
    return np.array([(queries[:, :w] @ keys[:, :w].T) * (1.0 / float(w) ** power) for w in widths])
""",
    },
    "attention_entropy": {
        "entr": """
from scipy.special import entr

def attention_entropy(scores):
    return entr(softmax(scores, axis=-1)).sum(axis=-1)
""",
        "logsumexp": """
from scipy.special import logsumexp

def attention_entropy(scores):
    log_p = scores - logsumexp(scores, axis=-1, keepdims=True)
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
""",
    },
    "softmax_jacobian": {
        "broadcast": """
def softmax_jacobian(scores):
    p = softmax(scores)
    return p[:, None] * (np.eye(len(p), dtype=p.dtype) - p[None, :])
""",
        "loops": """
def softmax_jacobian(scores):
    e = np.exp(scores - np.max(scores))
    p = e / e.sum()
    n = len(p)
    J = np.empty((n, n), dtype=p.dtype)
    for i in range(n):
        for j in range(n):
            J[i, j] = p[i] * ((i == j) - p[j])
    return J
""",
    },
    "gradient_norms": {
        "vectorised": """
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    J = p[:, :, None] * np.eye(p.shape[1], dtype=p.dtype) - p[:, :, None] * p[:, None, :]
    return np.sqrt((J ** 2).sum(axis=(1, 2)))
""",
        "fro": """
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(s), 'fro') for s in scores])
""",
    },
}
