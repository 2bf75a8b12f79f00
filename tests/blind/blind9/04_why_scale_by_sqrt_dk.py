"""Blind set 9, notebook 04: Why divide by sqrt(d_k)? Written from notebooks/04_why_scale_by_sqrt_dk.ipynb only."""

MISTAKES = {
    "score_variance": {
        "scaled_scores": (["raw", "unscaled", "sqrt", "scal"], '''
def score_variance(queries, keys):
    scores = queries @ keys.T / np.sqrt(keys.shape[-1])
    return float(np.var(scores))
'''),
        "ddof_one": (["ddof", "n - 1", "n-1", "number of entries"], '''
def score_variance(queries, keys):
    scores = queries @ keys.T
    return float(np.var(scores, ddof=1))
'''),
        "per_row_mean": (["all entries", "per row", "axis", "flatten"], '''
def score_variance(queries, keys):
    scores = queries @ keys.T
    return float(np.var(scores, axis=1).mean())
'''),
        "std_not_var": (["standard deviation", "std", "square"], '''
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
'''),
        "mean_of_squares": (["mean", "subtract the mean", "second moment", "centre"], '''
def score_variance(queries, keys):
    scores = queries @ keys.T
    return float(np.mean(scores ** 2))
'''),
        "elementwise_products": (["dot product", "@", "elementwise", "pairs"], '''
def score_variance(queries, keys):
    products = queries[:, None, :] * keys[None, :, :]
    return float(np.var(products))
'''),
    },
    "width_sweep": {
        "power_ignored": (["power", "w ** power", "exponent"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / np.sqrt(w) for w in widths])
'''),
        "off_by_one_slice": (["first w", "off by one", "slice", ":w"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w - 1] @ keys[:, :w - 1].T / w ** power for w in widths])
'''),
        "scale_by_d_max": (["each width", "d_max", "w ** power", "full width"], '''
def width_sweep(queries, keys, widths, power):
    d_max = queries.shape[1]
    return np.stack([queries[:, :w] @ keys[:, :w].T / d_max ** power for w in widths])
'''),
        "stacked_last_axis": (["axis", "stack", "first axis", "len(widths)"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / w ** power for w in widths], axis=-1)
'''),
        "multiply_not_divide": (["multiply", "divide", "inverse"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T * w ** power for w in widths])
'''),
        "rows_not_columns": (["columns", "rows", "entries", "[:, :w]"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:w] @ keys[:w].T / w ** power for w in widths])
'''),
    },
    "attention_entropy": {
        "naive_p_log_p": (["log-softmax", "nan", "log(0)", "underflow"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -(p * np.log(p)).sum(axis=-1)
'''),
        "log2_bits": (["natural", "nats", "log2", "base"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    log_p = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    p = np.exp(log_p)
    return -(p * log_p).sum(axis=-1) / np.log(2)
'''),
        "missing_minus": (["sign", "minus", "negative"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    log_p = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return (np.exp(log_p) * log_p).sum(axis=-1)
'''),
        "no_max_in_log_softmax": (["overflow", "max", "subtract", "inf"], '''
def attention_entropy(scores):
    log_p = scores - np.log(np.exp(scores).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
'''),
        "sum_without_axis": (["axis", "each row", "last axis", "scalar"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    log_p = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum()
'''),
        "softmax_whole_matrix": (["axis", "whole matrix", "each row", "axis=-1"], '''
from scipy.special import log_softmax


def attention_entropy(scores):
    log_p = log_softmax(scores)
    p = np.exp(log_p)
    return -(p * log_p).sum(axis=-1)
'''),
    },
    "softmax_jacobian": {
        "inner_not_outer": (["outer", "np.outer", "p p^t", "scalar"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p @ p.T
'''),
        "no_diag": (["diag", "diagonal", "np.diag"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return p - np.outer(p, p)
'''),
        "sign_flipped": (["sign", "minus", "order", "opposite"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.outer(p, p) - np.diag(p)
'''),
        "naive_softmax": (["overflow", "stable", "max", "nan"], '''
def softmax_jacobian(scores):
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
'''),
        "diagonal_only": (["outer", "off-diagonal", "p_i p_j", "p_j"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p - p ** 2)
'''),
    },
    "gradient_norms": {
        "no_sqrt": (["sqrt", "square root", "squared"], '''
def gradient_norms(scores):
    return np.array([(softmax_jacobian(row) ** 2).sum() for row in scores])
'''),
        "spectral_norm": (["frobenius", "spectral", "ord", "largest singular"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), 2) for row in scores])
'''),
        "sum_of_abs": (["frobenius", "square", "absolute"], '''
def gradient_norms(scores):
    return np.array([np.abs(softmax_jacobian(row)).sum() for row in scores])
'''),
        "python_list": (["list", "np.array", "numpy array"], '''
def gradient_norms(scores):
    return [np.linalg.norm(softmax_jacobian(row)) for row in scores]
'''),
        "columns_not_rows": (["rows", "each row", "columns", "transpose"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(col)) for col in scores.T])
'''),
    },
}

VARIANTS = {
    "score_variance": {
        "np_var": '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T))
''',
        "manual_moments": '''
def score_variance(queries, keys):
    scores = np.einsum("qd,kd->qk", queries, keys).ravel()
    centred = scores - scores.mean()
    return float((centred ** 2).sum() / scores.size)
''',
    },
    "width_sweep": {
        "loop_stack": '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w] @ keys[:, :w].T / float(w) ** power)
    return np.stack(out)
''',
        "preallocated_einsum": '''
def width_sweep(queries, keys, widths, power):
    result = np.empty((len(widths), queries.shape[0], keys.shape[0]),
                      dtype=np.result_type(queries, keys, float))
    for i, w in enumerate(widths):
        result[i] = np.einsum("qd,kd->qk", queries[:, :w], keys[:, :w]) / np.power(float(w), power)
    return result
''',
    },
    "attention_entropy": {
        "log_softmax_manual": '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    log_p = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
        "scipy_logsumexp": '''
from scipy.special import logsumexp


def attention_entropy(scores):
    log_p = scores - logsumexp(scores, axis=-1, keepdims=True)
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
''',
    },
    "softmax_jacobian": {
        "diag_minus_outer": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - np.outer(p, p)
''',
        "broadcast_eye": '''
def softmax_jacobian(scores):
    shifted = scores - np.max(scores)
    p = np.exp(shifted) / np.exp(shifted).sum()
    return p[:, None] * (np.eye(len(p)) - p[None, :])
''',
    },
    "gradient_norms": {
        "norm_per_row": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row)) for row in scores])
''',
        "vectorised": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    jac = p[:, :, None] * np.eye(p.shape[-1]) - p[:, :, None] * p[:, None, :]
    return np.sqrt((jac ** 2).sum(axis=(1, 2)))
''',
    },
}
