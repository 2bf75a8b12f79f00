"""Blind set 8, notebook 04: Why scale by sqrt(d_k). Written from notebooks/04_why_scale_by_sqrt_dk.ipynb only."""

MISTAKES = {
    "score_variance": {
        "scaled_scores": (["raw", "unscaled", "sqrt", "not scaled"], '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T / np.sqrt(queries.shape[-1])))
'''),
        "sample_variance_ddof1": (["ddof", "n - 1", "sample variance", "number of entries"], '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, ddof=1))
'''),
        "variance_per_row": (["all entries", "axis", "one number", "per row"], '''
def score_variance(queries, keys):
    return np.var(queries @ keys.T, axis=1)
'''),
        "std_not_var": (["standard deviation", "std", "square"], '''
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
'''),
        "elementwise_product": (["dot product", "elementwise", "keys.t", "matrix product"], '''
def score_variance(queries, keys):
    n = min(len(queries), len(keys))
    return float(np.var(queries[:n] * keys[:n]))
'''),
        "mean_square_not_var": (["mean", "subtract", "centre", "second moment"], '''
def score_variance(queries, keys):
    scores = queries @ keys.T
    return float(np.mean(scores ** 2))
'''),
    },
    "width_sweep": {
        "last_w_columns": (["first", "leading", "last", "slice"], '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, -w:] @ keys[:, -w:].T / w ** power)
    return np.stack(out)
'''),
        "divide_by_d_max": (["w ** power", "each width", "d_max", "width"], '''
def width_sweep(queries, keys, widths, power):
    d_max = queries.shape[1]
    return np.stack([queries[:, :w] @ keys[:, :w].T / d_max ** power for w in widths])
'''),
        "multiply_instead_of_divide": (["divide", "multiply", "w ** power"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T * w ** power for w in widths])
'''),
        "sqrt_always": (["power", "p", "sqrt", "exponent"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / np.sqrt(w) for w in widths])
'''),
        "off_by_one_slice": (["off by one", "w + 1", "first w", "slice"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, : w - 1] @ keys[:, : w - 1].T / w ** power for w in widths])
'''),
        "rows_not_columns": (["columns", "entries", "rows", "axis"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:w] @ keys[:w].T / w ** power for w in widths])
'''),
    },
    "attention_entropy": {
        "naive_log_nan": (["log(0)", "nan", "underflow", "0 log 0"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(p * np.log(p), axis=-1)
'''),
        "missing_minus": (["sign", "minus", "negative"], '''
def attention_entropy(scores):
    logp = scores - scores.max(axis=-1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(axis=-1, keepdims=True))
    return np.sum(np.exp(logp) * logp, axis=-1)
'''),
        "log2": (["natural log", "log2", "nats", "bits"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0)), 0.0), axis=-1)
'''),
        "wrong_axis": (["axis", "last axis", "each row", "columns"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=0)
    return -np.sum(np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0), axis=-1)
'''),
        "entropy_of_scores": (["softmax", "weights", "probabilities"], '''
def attention_entropy(scores):
    p = np.abs(scores) / np.abs(scores).sum(axis=-1, keepdims=True)
    return -np.sum(np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0), axis=-1)
'''),
        "epsilon_in_log": (["epsilon", "exact", "log-softmax", "1e-"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(p * np.log(p + 1e-9), axis=-1)
'''),
    },
    "softmax_jacobian": {
        "outer_wrong_sign": (["sign", "minus", "diag(p) - p p^t"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.outer(p, p) - np.diag(p)
'''),
        "diag_only": (["off-diagonal", "outer", "p p^t", "-p_i p_j"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p * (1 - p))
'''),
        "dot_not_outer": (["outer", "np.outer", "dot", "matrix"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p @ p
'''),
        "naive_softmax": (["overflow", "stable", "max", "nan"], '''
def softmax_jacobian(scores):
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
'''),
        "diag_of_scores": (["diag(p)", "probabilities", "scores", "softmax"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(scores) - np.outer(p, p)
'''),
        "identity_minus": (["identity", "diag(p)", "eye"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.eye(len(p)) - np.outer(p, p)
'''),
    },
    "gradient_norms": {
        "returns_list": (["list", "np.array", "array"], '''
def gradient_norms(scores):
    return [np.linalg.norm(softmax_jacobian(row)) for row in scores]
'''),
        "spectral_norm": (["frobenius", "ord", "spectral", "2-norm"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), ord=2) for row in scores])
'''),
        "squared_norm": (["square root", "sqrt", "squared"], '''
def gradient_norms(scores):
    return np.array([np.sum(softmax_jacobian(row) ** 2) for row in scores])
'''),
        "columns_not_rows": (["rows", "columns", "transpose", "each query"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(col)) for col in scores.T])
'''),
        "sum_abs": (["frobenius", "absolute", "sum of squares"], '''
def gradient_norms(scores):
    return np.array([np.abs(softmax_jacobian(row)).sum() for row in scores])
'''),
        "norm_of_softmax": (["jacobian", "derivative", "softmax"], '''
def gradient_norms(scores):
    return np.linalg.norm(softmax(scores, axis=-1), axis=-1)
'''),
    },
}

VARIANTS = {
    "score_variance": {
        "np_var": '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T))
''',
        "manual": '''
def score_variance(queries, keys):
    s = np.einsum("qd,kd->qk", queries, keys).ravel()
    return float(((s - s.mean()) ** 2).sum() / s.size)
''',
    },
    "width_sweep": {
        "loop": '''
def width_sweep(queries, keys, widths, power):
    result = np.empty((len(widths), queries.shape[0], keys.shape[0]))
    for i, w in enumerate(widths):
        result[i] = queries[:, :w] @ keys[:, :w].T / float(w) ** power
    return result
''',
        "cumsum": '''
def width_sweep(queries, keys, widths, power):
    partial = np.cumsum(queries[:, None, :] * keys[None, :, :], axis=-1)  # (q, k, d)
    widths = np.asarray(widths)
    return np.moveaxis(partial[:, :, widths - 1], -1, 0) / (widths.astype(float) ** power)[:, None, None]
''',
    },
    "attention_entropy": {
        "log_softmax": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
''',
        "scipy_entr": '''
from scipy.special import entr


def attention_entropy(scores):
    return entr(softmax(scores, axis=-1)).sum(axis=-1)
''',
    },
    "softmax_jacobian": {
        "diag_outer": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - np.outer(p, p)
''',
        "loops": '''
def softmax_jacobian(scores):
    e = np.exp(scores - np.max(scores))
    p = e / e.sum()
    n = len(p)
    J = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            J[i, j] = p[i] * ((1.0 if i == j else 0.0) - p[j])
    return J
''',
    },
    "gradient_norms": {
        "loop_norm": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row)) for row in scores])
''',
        "vectorised": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    jac = p[:, :, None] * np.eye(p.shape[-1])[None] - p[:, :, None] * p[:, None, :]
    return np.sqrt((jac ** 2).sum(axis=(1, 2)))
''',
    },
}
