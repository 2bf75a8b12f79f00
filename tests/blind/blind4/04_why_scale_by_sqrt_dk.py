"""Blind set 4, notebook 04: Why scale by sqrt(d_k). Written from notebooks/04_why_scale_by_sqrt_dk.ipynb only."""

MISTAKES = {
    "score_variance": {
        "scaled_scores": (["raw", "unscaled", "sqrt", "scale"], '''
def score_variance(queries, keys):
    scores = queries @ keys.T / np.sqrt(queries.shape[1])
    return float(np.var(scores))
'''),
        "ddof_one": (["ddof", "n - 1", "number of entries", "sample variance"], '''
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
        "elementwise_product": (["dot product", "pairs", "keys.t", "n_queries * n_keys"], '''
def score_variance(queries, keys):
    return float(np.var(queries * keys))
'''),
    },
    "width_sweep": {
        "full_width_each_time": (["first w", "slice", "columns", "width"], '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries @ keys.T / w ** power)
    return np.stack(out)
'''),
        "off_by_one_slice": (["first w", "slice", "off-by-one", "w entries"], '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w - 1] @ keys[:, :w - 1].T / w ** power)
    return np.stack(out)
'''),
        "divide_by_d_max": (["w ** power", "width", "d_max", "each width"], '''
def width_sweep(queries, keys, widths, power):
    d_max = queries.shape[1]
    return np.stack([queries[:, :w] @ keys[:, :w].T / d_max ** power for w in widths])
'''),
        "multiply_not_divide": (["divide", "multiply", "power"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T * w ** power for w in widths])
'''),
        "slice_rows": (["rows", "columns", "axis", "entries"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:w] @ keys[:w].T / w ** power for w in widths])
'''),
        "sqrt_ignores_power": (["power", "sqrt", "exponent"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / np.sqrt(w) for w in widths])
'''),
    },
    "attention_entropy": {
        "log_of_zero_nan": (["underflow", "log(0)", "nan", "0 * log"], '''
def attention_entropy(scores):
    s = scores - scores.max(axis=-1, keepdims=True)
    p = np.exp(s) / np.exp(s).sum(axis=-1, keepdims=True)
    return -(p * np.log(p)).sum(axis=-1)
'''),
        "missing_minus": (["sign", "minus", "negative"], '''
def attention_entropy(scores):
    s = scores - scores.max(axis=-1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=-1, keepdims=True))
    return (np.exp(logp) * logp).sum(axis=-1)
'''),
        "log2": (["natural log", "log2", "nats", "bits"], '''
def attention_entropy(scores):
    s = scores - scores.max(axis=-1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=-1, keepdims=True))
    return -(np.exp(logp) * logp).sum(axis=-1) / np.log(2)
'''),
        "no_max_subtraction": (["overflow", "maximum", "stable", "inf"], '''
def attention_entropy(scores):
    e = np.exp(scores)
    p = e / e.sum(axis=-1, keepdims=True)
    return -(p * np.log(p + 1e-300)).sum(axis=-1)
'''),
        "sum_wrong_axis": (["axis", "last axis", "rows", "columns"], '''
def attention_entropy(scores):
    s = scores - scores.max(axis=-1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=-1, keepdims=True))
    return -(np.exp(logp) * logp).sum(axis=0)
'''),
        "entropy_of_scores": (["softmax", "weights", "probabilities"], '''
def attention_entropy(scores):
    p = np.abs(scores) / np.abs(scores).sum(axis=-1, keepdims=True)
    return -(p * np.log(np.where(p > 0, p, 1.0))).sum(axis=-1)
'''),
    },
    "softmax_jacobian": {
        "outer_sign": (["sign", "diag(p) - p p^t", "minus", "outer"], '''
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.diag(p) + np.outer(p, p)
'''),
        "diag_only": (["off-diagonal", "outer", "p p^t", "diagonal"], '''
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.diag(p * (1 - p))
'''),
        "dot_instead_of_outer": (["outer", "dot", "p p^t", "matrix"], '''
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.diag(p) - p @ p
'''),
        "no_max_subtraction": (["overflow", "maximum", "stable", "nan"], '''
def softmax_jacobian(scores):
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
'''),
        "identity_instead_of_diag": (["diag", "identity", "np.eye"], '''
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.eye(len(p)) - np.outer(p, p)
'''),
    },
    "gradient_norms": {
        "returns_list": (["list", "np.array", "mean"], '''
def gradient_norms(scores):
    return [float(np.linalg.norm(softmax_jacobian(row))) for row in scores]
'''),
        "spectral_norm": (["frobenius", "ord", "spectral", "2-norm"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), ord=2) for row in scores])
'''),
        "squared_norm": (["square root", "sqrt", "squared"], '''
def gradient_norms(scores):
    return np.array([(softmax_jacobian(row) ** 2).sum() for row in scores])
'''),
        "columns_not_rows": (["rows", "columns", "transpose", "per query"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(col)) for col in scores.T])
'''),
        "sum_abs": (["frobenius", "absolute", "square"], '''
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
    prods = np.cumsum(queries[:, None, :] * keys[None, :, :], axis=-1)
    w = np.asarray(widths)
    return np.moveaxis(prods[:, :, w - 1], -1, 0) / (w.astype(float) ** power)[:, None, None]
''',
    },
    "attention_entropy": {
        "log_softmax": '''
def attention_entropy(scores):
    s = scores - scores.max(axis=-1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=-1, keepdims=True))
    return -(np.exp(logp) * logp).sum(axis=-1)
''',
        "scipy_entr": '''
from scipy.special import entr, softmax as _softmax


def attention_entropy(scores):
    return entr(_softmax(scores, axis=-1)).sum(axis=-1)
''',
    },
    "softmax_jacobian": {
        "diag_minus_outer": '''
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
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
            J[i, j] = p[i] * ((i == j) - p[j])
    return J
''',
    },
    "gradient_norms": {
        "loop_array": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row)) for row in scores])
''',
        "vectorised": '''
def gradient_norms(scores):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    J = p[:, :, None] * np.eye(p.shape[1]) - p[:, :, None] * p[:, None, :]
    return np.sqrt((J ** 2).sum(axis=(1, 2)))
''',
    },
}
