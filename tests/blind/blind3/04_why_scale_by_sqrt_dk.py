"""Blind set 3, notebook 04: why scale by sqrt(d_k). Written from notebooks/04_why_scale_by_sqrt_dk.ipynb only."""

MISTAKES = {
    "score_variance": {
        "scaled_scores": (["raw", "unscaled", "not scaled", "sqrt"], '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T / np.sqrt(queries.shape[1])))
'''),
        "std_instead": (["standard deviation", "std", "variance"], '''
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
'''),
        "ddof1": (["ddof", "n - 1", "number of entries", "unbiased"], '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, ddof=1))
'''),
        "per_row_array": (["one number", "all entries", "axis", "array"], '''
def score_variance(queries, keys):
    return np.var(queries @ keys.T, axis=1)
'''),
        "elementwise_products": (["dot product", "sum", "products"], '''
def score_variance(queries, keys):
    return float(np.var(queries[:, None, :] * keys[None, :, :]))
'''),
    },
    "width_sweep": {
        "full_width": (["first w", "slice", "widths", ":w"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries @ keys.T / w ** power for w in widths])
'''),
        "sqrt_always": (["power", "w ** power", "exponent"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / np.sqrt(w) for w in widths])
'''),
        "off_by_one_slice": (["off-by-one", "first w", "w + 1", "slice"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w + 1] @ keys[:, :w + 1].T / w ** power for w in widths])
'''),
        "multiply_power": (["divide", "multipl", "w ** power"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T * w ** power for w in widths])
'''),
        "stacked_last_axis": (["axis", "stack", "first axis", "len(widths)"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / w ** power for w in widths], axis=-1)
'''),
    },
    "attention_entropy": {
        "naive_plogp": (["nan", "log(0)", "underflow", "log-softmax"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -(p * np.log(p)).sum(axis=-1)
'''),
        "no_minus": (["sign", "minus", "negative"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    log_p = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return (np.exp(log_p) * log_p).sum(axis=-1)
'''),
        "log2": (["natural log", "nats", "log2", "bits"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    log_p = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1) / np.log(2)
'''),
        "axis0": (["axis", "last axis", "rows", "columns"], '''
def attention_entropy(scores):
    m = scores.max(axis=0, keepdims=True)
    log_p = scores - m - np.log(np.exp(scores - m).sum(axis=0, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=0)
'''),
        "forgot_max_in_log": (["maximum", "m", "log-softmax", "subtract"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    log_p = scores - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
'''),
    },
    "softmax_jacobian": {
        "transposed_sign": (["sign", "diag(p) - p p^t", "minus", "order"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.outer(p, p) - np.diag(p)
'''),
        "dot_instead_of_outer": (["outer", "p p^t", "dot", "matrix"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p @ p
'''),
        "diag_only": (["outer", "p p^t", "off-diagonal"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p * (1 - p))
'''),
        "unstable_softmax": (["overflow", "stable", "maximum", "nan"], '''
def softmax_jacobian(scores):
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
'''),
        "identity_minus": (["diag", "identity", "eye", "p_i"], '''
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
        "squared_norm": (["square root", "sqrt", "squared"], '''
def gradient_norms(scores):
    return np.array([(softmax_jacobian(row) ** 2).sum() for row in scores])
'''),
        "spectral_norm": (["frobenius", "ord=2", "spectral", "fro"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), ord=2) for row in scores])
'''),
        "columns_loop": (["rows", "columns", "scores.t", "axis"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(col)) for col in scores.T])
'''),
        "sum_abs": (["frobenius", "square", "abs"], '''
def gradient_norms(scores):
    return np.array([np.abs(softmax_jacobian(row)).sum() for row in scores])
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
    out = np.empty((len(widths), queries.shape[0], keys.shape[0]))
    for i, w in enumerate(widths):
        out[i] = queries[:, :w] @ keys[:, :w].T / float(w) ** power
    return out
''',
        "cumsum": '''
def width_sweep(queries, keys, widths, power):
    partial = np.cumsum(queries[:, None, :] * keys[None, :, :], axis=-1)
    widths = np.asarray(widths)
    return np.moveaxis(partial[:, :, widths - 1], -1, 0) / (widths.astype(float) ** power)[:, None, None]
''',
    },
    "attention_entropy": {
        "log_softmax": '''
def attention_entropy(scores):
    m = np.max(scores, axis=-1, keepdims=True)
    log_p = scores - m - np.log(np.sum(np.exp(scores - m), axis=-1, keepdims=True))
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
''',
        "scipy": '''
from scipy.special import log_softmax

def attention_entropy(scores):
    log_p = log_softmax(scores, axis=-1)
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
    },
    "softmax_jacobian": {
        "diag_outer": '''
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
''',
        "loops": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    n = len(p)
    J = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            J[i, j] = p[i] * ((i == j) - p[j])
    return J
''',
    },
    "gradient_norms": {
        "loop": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row)) for row in scores])
''',
        "vectorised": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    J = p[:, :, None] * np.eye(p.shape[1]) - p[:, :, None] * p[:, None, :]
    return np.sqrt((J ** 2).sum(axis=(1, 2)))
''',
    },
}
