"""Blind set 12, notebook 04: Why scale by sqrt(d_k). Written from notebooks/04_why_scale_by_sqrt_dk.ipynb only."""

MISTAKES = {
    "score_variance": {
        "scaled_scores": (["raw", "unscaled", "sqrt", "scale"], '''
def score_variance(queries, keys):
    scores = queries @ keys.T / np.sqrt(keys.shape[1])
    return float(np.var(scores))
'''),
        "ddof_one": (["ddof", "n - 1", "number of entries", "np.var"], '''
def score_variance(queries, keys):
    scores = queries @ keys.T
    return float(np.var(scores, ddof=1))
'''),
        "std_instead_of_var": (["standard deviation", "std", "square"], '''
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
'''),
        "variance_per_row": (["all entries", "axis", "one number", "row"], '''
def score_variance(queries, keys):
    return np.var(queries @ keys.T, axis=1)
'''),
        "elementwise_products": (["dot product", "sum", "products"], '''
def score_variance(queries, keys):
    products = queries[:, None, :] * keys[None, :, :]
    return float(np.var(products))
'''),
    },
    "width_sweep": {
        "all_columns": (["first w", "slice", "[:, :w]", "width"], '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries @ keys.T / w ** power)
    return np.array(out)
'''),
        "off_by_one_slice": (["first w", "off by one", "w entries", ":w"], '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w - 1] @ keys[:, :w - 1].T / w ** power)
    return np.array(out)
'''),
        "sqrt_always": (["power", "w ** power", "exponent"], '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w] @ keys[:, :w].T / np.sqrt(w))
    return np.array(out)
'''),
        "multiply_by_power": (["divide", "multipl", "w ** power"], '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w] @ keys[:, :w].T * w ** power)
    return np.array(out)
'''),
        "integer_power_trunc": (["integer", "float", "power"], '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w] @ keys[:, :w].T / w ** int(power))
    return np.array(out)
'''),
        "dmax_divisor": (["w", "d_max", "width of the slice", "divide"], '''
def width_sweep(queries, keys, widths, power):
    d = keys.shape[1]
    return np.stack([queries[:, :w] @ keys[:, :w].T / d ** power for w in widths])
'''),
    },
    "attention_entropy": {
        "naive_plog_p": (["log-softmax", "nan", "0 * log", "underflow"], '''
def attention_entropy(scores):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    return -np.sum(p * np.log(p), axis=-1)
'''),
        "missing_minus": (["sign", "minus", "negative"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    log_p = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return np.sum(np.exp(log_p) * log_p, axis=-1)
'''),
        "log_softmax_no_max": (["overflow", "max", "subtract"], '''
def attention_entropy(scores):
    log_p = scores - np.log(np.exp(scores).sum(axis=-1, keepdims=True))
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
'''),
        "sum_of_log_p_only": (["weight", "p_j", "multiply", "p log p"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    log_p = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return -np.mean(log_p, axis=-1)
'''),
        "log2_bits": (["natural log", "nats", "log2", "bits"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    log_p = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return -np.sum(np.exp(log_p) * log_p, axis=-1) / np.log(2)
'''),
        "max_without_keepdims_axis0": (["axis", "last axis", "row"], '''
def attention_entropy(scores):
    m = scores.max(axis=0, keepdims=True)
    log_p = scores - m - np.log(np.exp(scores - m).sum(axis=0, keepdims=True))
    return -np.sum(np.exp(log_p) * log_p, axis=0)
'''),
    },
    "softmax_jacobian": {
        "transposed_outer_sign": (["diag", "minus", "outer", "p p^t"], '''
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.diag(p) + np.outer(p, p)
'''),
        "elementwise_square": (["outer", "p p^t", "np.outer", "matrix"], '''
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.diag(p) - np.diag(p * p)
'''),
        "unstable_softmax": (["overflow", "stable", "max", "nan"], '''
def softmax_jacobian(scores):
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
'''),
        "diag_p_squared_missing": (["diag", "diagonal", "identity"], '''
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return p - np.outer(p, p)
'''),
        "identity_minus_p": (["p_i", "diag(p)", "identity", "delta"], '''
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.eye(len(p)) - np.outer(p, p)
'''),
    },
    "gradient_norms": {
        "returns_list": (["list", "np.array", "array"], '''
def gradient_norms(scores):
    return [float(np.linalg.norm(softmax_jacobian(row))) for row in scores]
'''),
        "squared_norm": (["square root", "sqrt", "squared"], '''
def gradient_norms(scores):
    return np.array([np.sum(softmax_jacobian(row) ** 2) for row in scores])
'''),
        "spectral_norm": (["frobenius", "ord", "spectral", "2-norm"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), ord=2) for row in scores])
'''),
        "sum_of_entries": (["square", "frobenius", "sum of squared"], '''
def gradient_norms(scores):
    return np.array([np.abs(softmax_jacobian(row)).sum() for row in scores])
'''),
        "columns_not_rows": (["row", "column", "transpose", "each query"], '''
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
        "manual_mean": '''
def score_variance(queries, keys):
    s = np.einsum("qd,kd->qk", queries, keys).ravel()
    return float(np.mean((s - s.mean()) ** 2))
''',
    },
    "width_sweep": {
        "loop_stack": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / float(w) ** power for w in widths])
''',
        "preallocated": '''
def width_sweep(queries, keys, widths, power):
    out = np.empty((len(widths), queries.shape[0], keys.shape[0]))
    for i, w in enumerate(widths):
        w = int(w)
        out[i] = np.einsum("qd,kd->qk", queries[:, :w], keys[:, :w]) / np.power(float(w), power)
    return out
''',
    },
    "attention_entropy": {
        "log_softmax": '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    log_p = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
''',
        "scipy_log_softmax": '''
from scipy.special import log_softmax
def attention_entropy(scores):
    log_p = log_softmax(scores, axis=-1)
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
    },
    "softmax_jacobian": {
        "diag_minus_outer": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - np.outer(p, p)
''',
        "broadcast_delta": '''
def softmax_jacobian(scores):
    e = np.exp(scores - np.max(scores))
    p = e / e.sum()
    return p[:, None] * (np.eye(len(p)) - p[None, :])
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
    eye = np.eye(scores.shape[-1])
    jac = p[..., :, None] * (eye - p[..., None, :])
    return np.sqrt((jac ** 2).sum(axis=(-2, -1)))
''',
    },
}
