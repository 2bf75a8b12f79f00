"""Blind set 14, notebook 04: Why scale by sqrt(d_k). Written from notebooks/04_why_scale_by_sqrt_dk.ipynb only."""

MISTAKES = {
    "score_variance": {
        "scaled_scores": (["raw", "unscaled", "sqrt"], '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T / np.sqrt(queries.shape[-1])))
'''),
        "sample_variance_ddof1": (["ddof", "n - 1", "number of entries"], '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, ddof=1))
'''),
        "variance_per_row": (["all entries", "axis", "one number"], '''
def score_variance(queries, keys):
    return np.var(queries @ keys.T, axis=1)
'''),
        "std_not_var": (["standard deviation", "std", "variance"], '''
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
'''),
        "elementwise_diag": (["dot products", "every pair", "all"], '''
def score_variance(queries, keys):
    n = min(len(queries), len(keys))
    return float(np.var(np.sum(queries[:n] * keys[:n], axis=1)))
'''),
    },
    "width_sweep": {
        "sqrt_always": (["power", "w ** power", "exponent"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / np.sqrt(w) for w in widths])
'''),
        "off_by_one_slice": (["first w", "slice", "off by one"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w - 1] @ keys[:, :w - 1].T / w ** power for w in widths])
'''),
        "divide_by_dmax": (["w", "width", "d_max"], '''
def width_sweep(queries, keys, widths, power):
    d = queries.shape[1]
    return np.stack([queries[:, :w] @ keys[:, :w].T / d ** power for w in widths])
'''),
        "integer_power_division": (["integer", "float", "dtype"], '''
def width_sweep(queries, keys, widths, power):
    out = np.zeros((len(widths), len(queries), len(keys)))
    for i, w in enumerate(widths):
        out[i] = queries[:, :w] @ keys[:, :w].T / int(w ** power)
    return out
'''),
        "last_w_columns": (["first w", "columns", "slice"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, -w:] @ keys[:, -w:].T / w ** power for w in widths])
'''),
    },
    "attention_entropy": {
        "log_of_zero_nan": (["log(0)", "underflow", "nan"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(p * np.log(p), axis=-1)
'''),
        "log2_bits": (["natural log", "log2", "bits"], '''
def attention_entropy(scores):
    s = scores - scores.max(axis=-1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=-1, keepdims=True))
    p = np.exp(logp)
    return -np.sum(p * logp, axis=-1) / np.log(2)
'''),
        "missing_minus": (["sign", "minus", "negative"], '''
def attention_entropy(scores):
    s = scores - scores.max(axis=-1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=-1, keepdims=True))
    return np.sum(np.exp(logp) * logp, axis=-1)
'''),
        "softmax_axis0": (["axis", "last axis", "rows"], '''
def attention_entropy(scores):
    s = scores - scores.max(axis=0, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=0, keepdims=True))
    return -np.sum(np.exp(logp) * logp, axis=-1)
'''),
        "entropy_of_scores": (["softmax", "weights", "probabilities"], '''
def attention_entropy(scores):
    p = np.abs(scores) / np.abs(scores).sum(axis=-1, keepdims=True)
    return -np.sum(p * np.log(p + 1e-12), axis=-1)
'''),
    },
    "softmax_jacobian": {
        "transposed_outer_sign": (["minus", "outer", "p p^t"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) + np.outer(p, p)
'''),
        "diag_only": (["off-diagonal", "outer", "p_i p_j"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p * (1 - p))
'''),
        "inner_product": (["outer", "inner", "dot"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - np.dot(p, p)
'''),
        "naive_softmax": (["overflow", "stable", "maximum"], '''
def softmax_jacobian(scores):
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
'''),
        "elementwise_square": (["outer", "matrix", "p_i p_j"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - np.diag(p ** 2)
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
    return np.array([np.sum(softmax_jacobian(row) ** 2) for row in scores])
'''),
        "columns_instead_of_rows": (["rows", "columns", "transpose"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(col)) for col in scores.T])
'''),
        "mean_not_per_row": (["per row", "each query", "mean"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row)) for row in scores]).mean()
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
    return float(np.mean((s - s.mean()) ** 2))
''',
    },
    "width_sweep": {
        "loop_stack": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / float(w) ** power for w in widths])
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
    s = scores - scores.max(axis=-1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=-1, keepdims=True))
    return -np.sum(np.exp(logp) * logp, axis=-1)
''',
        "scipy_entropy": '''
def attention_entropy(scores):
    from scipy.stats import entropy
    return entropy(softmax(scores, axis=-1), axis=-1)
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
    s = scores - np.max(scores)
    p = np.exp(s) / np.exp(s).sum()
    n = len(p)
    J = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            J[i, j] = p[i] * ((i == j) - p[j])
    return J
''',
    },
    "gradient_norms": {
        "loop_rows": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row)) for row in scores])
''',
        "vectorised": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    J = np.eye(p.shape[-1]) * p[:, None, :] - p[:, :, None] * p[:, None, :]
    return np.sqrt((J ** 2).sum(axis=(-2, -1)))
''',
    },
}
