"""Blind set 10, notebook 04: why scale by sqrt(d_k). Written from notebooks/04_why_scale_by_sqrt_dk.ipynb only."""

MISTAKES = {
    "score_variance": {
        "scaled_scores": (["raw", "unscaled", "sqrt", "not scaled"], '''
def score_variance(queries, keys):
    scores = queries @ keys.T / np.sqrt(queries.shape[-1])
    return float(np.var(scores))
'''),
        "std_not_var": (["variance", "std", "standard deviation", "square"], '''
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
'''),
        "per_row_variance": (["all entries", "axis", "one number", "array"], '''
def score_variance(queries, keys):
    return np.var(queries @ keys.T, axis=1)
'''),
        "ddof_one": (["ddof", "n - 1", "number of entries"], '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, ddof=1))
'''),
        "elementwise_product_var": (["dot product", "sum", "elementwise"], '''
def score_variance(queries, keys):
    n = min(len(queries), len(keys))
    return float(np.var(queries[:n] * keys[:n]))
'''),
    },
    "width_sweep": {
        "multiply_by_power": (["divide", "multiply", "w ** power"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([(queries[:, :w] @ keys[:, :w].T) * w ** power for w in widths])
'''),
        "full_width_each_time": (["first w", "slice", "[:, :w]"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([(queries @ keys.T) / w ** power for w in widths])
'''),
        "off_by_one_slice": (["first w", "off by one", "w entries", "slice"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([(queries[:, :w - 1] @ keys[:, :w - 1].T) / w ** power for w in widths])
'''),
        "integer_power": (["integer", "float", "power", "0.5"], '''
def width_sweep(queries, keys, widths, power):
    widths = np.asarray(widths)
    return np.stack([(queries[:, :w] @ keys[:, :w].T) / w ** int(power) for w in widths])
'''),
        "d_max_scale": (["w ** power", "d_max", "each width"], '''
def width_sweep(queries, keys, widths, power):
    d = queries.shape[1]
    return np.stack([(queries[:, :w] @ keys[:, :w].T) / d ** power for w in widths])
'''),
    },
    "attention_entropy": {
        "naive_p_log_p": (["log-softmax", "nan", "underflow", "0 * log"], '''
def attention_entropy(scores):
    s = scores - scores.max(axis=-1, keepdims=True)
    p = np.exp(s) / np.exp(s).sum(axis=-1, keepdims=True)
    return -(p * np.log(p)).sum(axis=-1)
'''),
        "missing_minus": (["sign", "minus", "negative"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    logp = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return (np.exp(logp) * logp).sum(axis=-1)
'''),
        "log2_bits": (["natural log", "nats", "log2", "bits"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    logp = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return -(np.exp(logp) * logp).sum(axis=-1) / np.log(2)
'''),
        "sum_wrong_axis": (["last axis", "axis", "rows"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    logp = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return -(np.exp(logp) * logp).sum(axis=0)
'''),
        "forgot_max_in_logp": (["maximum", "m", "subtract", "log-softmax"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    logp = scores - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return -(np.exp(logp) * logp).sum(axis=-1)
'''),
    },
    "softmax_jacobian": {
        "transposed_order": (["outer", "p p^t", "minus", "sign"], '''
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.outer(p, p) - np.diag(p)
'''),
        "diag_only": (["outer", "p p^t", "off-diagonal"], '''
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.diag(p * (1 - p))
'''),
        "dot_instead_of_outer": (["outer", "dot", "inner product"], '''
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.diag(p) - p @ p
'''),
        "unstable": (["overflow", "stable", "max"], '''
def softmax_jacobian(scores):
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
'''),
        "identity_not_diag": (["diag", "identity", "np.eye"], '''
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.eye(len(p)) - np.outer(p, p)
'''),
    },
    "gradient_norms": {
        "list_return": (["np.array", "list", "array"], '''
def gradient_norms(scores):
    return [float(np.linalg.norm(softmax_jacobian(row))) for row in scores]
'''),
        "squared_norm": (["square root", "sqrt", "frobenius"], '''
def gradient_norms(scores):
    return np.array([np.sum(softmax_jacobian(row) ** 2) for row in scores])
'''),
        "spectral_norm": (["frobenius", "ord", "spectral", "2-norm"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), 2) for row in scores])
'''),
        "columns_instead_of_rows": (["row", "columns", "transpose", "axis"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(col)) for col in scores.T])
'''),
        "abs_sum": (["frobenius", "square", "abs"], '''
def gradient_norms(scores):
    return np.array([np.abs(softmax_jacobian(row)).sum() for row in scores])
'''),
    },
}

VARIANTS = {
    "score_variance": {
        "var": '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T))
''',
        "by_hand": '''
def score_variance(queries, keys):
    s = np.einsum("qd,kd->qk", queries, keys).ravel()
    return float(((s - s.mean()) ** 2).mean())
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
    widths = np.asarray(widths)
    return np.moveaxis(prods[:, :, widths - 1], -1, 0) / (widths.astype(float) ** power)[:, None, None]
''',
    },
    "attention_entropy": {
        "log_softmax": '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    logp = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return -(np.exp(logp) * logp).sum(axis=-1)
''',
        "scipy": '''
def attention_entropy(scores):
    from scipy.special import log_softmax
    logp = log_softmax(scores, axis=-1)
    return -np.sum(np.exp(logp) * logp, axis=-1)
''',
    },
    "softmax_jacobian": {
        "diag_outer": '''
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
''',
        "loop": '''
def softmax_jacobian(scores):
    e = np.exp(scores - np.max(scores))
    p = e / np.sum(e)
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
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    J = np.einsum("qi,ij->qij", p, np.eye(p.shape[-1])) - p[:, :, None] * p[:, None, :]
    return np.sqrt((J ** 2).sum(axis=(-2, -1)))
''',
    },
}
