"""Blind set 15, notebook 04: Why scale by sqrt(d_k). Written from notebooks/04_why_scale_by_sqrt_dk.ipynb only."""

MISTAKES = {
    "score_variance": {
        "scaled_scores": (["raw", "unscaled", "sqrt"], '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T / np.sqrt(queries.shape[1])))
'''),
        "ddof_one": (["ddof", "number of entries", "n - 1"], '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, ddof=1))
'''),
        "per_row_variance": (["all entries", "axis", "one number"], '''
def score_variance(queries, keys):
    return np.var(queries @ keys.T, axis=1)
'''),
        "std_instead": (["variance", "standard deviation", "std"], '''
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
'''),
        "elementwise_products": (["dot product", "sum", "elementwise"], '''
def score_variance(queries, keys):
    return float(np.var(queries[:, None, :] * keys[None, :, :]))
'''),
    },
    "width_sweep": {
        "last_w_entries": (["first", "last", "slice"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, -w:] @ keys[:, -w:].T / w ** power for w in widths])
'''),
        "off_by_one_slice": (["first w", "off by one", "slice"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w - 1] @ keys[:, :w - 1].T / w ** power for w in widths])
'''),
        "multiply_by_power": (["divide", "multiply", "power"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T * w ** power for w in widths])
'''),
        "always_sqrt": (["power", "sqrt", "exponent"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / np.sqrt(w) for w in widths])
'''),
        "divide_by_dmax": (["w", "d_max", "width"], '''
def width_sweep(queries, keys, widths, power):
    d = queries.shape[1]
    return np.stack([queries[:, :w] @ keys[:, :w].T / d ** power for w in widths])
'''),
    },
    "attention_entropy": {
        "log_of_zero": (["log(0)", "underflow", "nan", "log_softmax"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -(p * np.log(p)).sum(axis=-1)
'''),
        "log2": (["natural log", "log2", "nats"], '''
def attention_entropy(scores):
    logp = scores - scipy_logsumexp(scores)
    p = np.exp(logp)
    return -(p * logp).sum(axis=-1) / np.log(2)

def scipy_logsumexp(scores):
    m = scores.max(axis=-1, keepdims=True)
    return m + np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
'''),
        "missing_minus": (["sign", "minus", "negative"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    logp = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return (np.exp(logp) * logp).sum(axis=-1)
'''),
        "softmax_all_entries": (["axis", "last axis", "every entry"], '''
def attention_entropy(scores):
    m = scores.max()
    logp = scores - m - np.log(np.exp(scores - m).sum())
    return -(np.exp(logp) * logp).sum(axis=-1)
'''),
        "keepdims_shape": (["shape", "keepdims", "last axis"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    logp = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return -(np.exp(logp) * logp).sum(axis=-1, keepdims=True)
'''),
    },
    "softmax_jacobian": {
        "missing_diag": (["diag", "diagonal", "p p^t"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return -np.outer(p, p)
'''),
        "diag_minus_p_squared_only": (["outer", "off-diagonal", "p p^t"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p - p ** 2)
'''),
        "sign_flipped": (["sign", "minus", "p p^t"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.outer(p, p) - np.diag(p)
'''),
        "naive_softmax": (["overflow", "stable", "maximum"], '''
def softmax_jacobian(scores):
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
'''),
        "inner_product": (["outer", "inner", "dot"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p @ p
'''),
    },
    "gradient_norms": {
        "returns_list": (["list", "np.array", "array"], '''
def gradient_norms(scores):
    return [float(np.linalg.norm(softmax_jacobian(row))) for row in scores]
'''),
        "spectral_norm": (["frobenius", "ord", "spectral"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), ord=2) for row in scores])
'''),
        "squared_norm": (["square root", "sqrt", "squared"], '''
def gradient_norms(scores):
    return np.array([(softmax_jacobian(row) ** 2).sum() for row in scores])
'''),
        "columns_instead_of_rows": (["row", "column", "transpose"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(col)) for col in scores.T])
'''),
        "mean_norm": (["mean", "per row", "one number"], '''
def gradient_norms(scores):
    return np.array(np.mean([np.linalg.norm(softmax_jacobian(row)) for row in scores]))
'''),
    },
}

VARIANTS = {
    "score_variance": {
        "npvar": '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T))
''',
        "einsum_manual": '''
def score_variance(queries, keys):
    s = np.einsum("id,jd->ij", queries, keys)
    return float(((s - s.mean()) ** 2).mean())
''',
    },
    "width_sweep": {
        "loop": '''
def width_sweep(queries, keys, widths, power):
    out = np.empty((len(widths), queries.shape[0], keys.shape[0]))
    for i, w in enumerate(widths):
        w = int(w)
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
    scores = np.asarray(scores, dtype=float)
    m = scores.max(axis=-1, keepdims=True)
    logp = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return -(np.exp(logp) * logp).sum(axis=-1)
''',
        "scipy_special": '''
import scipy.special

def attention_entropy(scores):
    logp = scipy.special.log_softmax(scores, axis=-1)
    return -np.sum(np.exp(logp) * logp, axis=-1)
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
    J = np.empty((n, n))
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
    J = p[:, :, None] * np.eye(p.shape[1]) - p[:, :, None] * p[:, None, :]
    return np.sqrt((J ** 2).sum(axis=(1, 2)))
''',
    },
}
