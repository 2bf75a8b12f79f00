"""Blind set 13, notebook 04: Why scale by sqrt(d_k). Written from notebooks/04_why_scale_by_sqrt_dk.ipynb only."""

MISTAKES = {
    "score_variance": {
        "scaled_scores": (["raw", "unscaled", "sqrt", "scaled"], '''
def score_variance(queries, keys):
    scores = queries @ keys.T / np.sqrt(queries.shape[1])
    return float(np.var(scores))
'''),
        "ddof_one": (["ddof", "n - 1", "number of entries", "unbiased"], '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, ddof=1))
'''),
        "per_row_variance": (["all entries", "axis", "one number", "per row"], '''
def score_variance(queries, keys):
    return np.var(queries @ keys.T, axis=1)
'''),
        "std_not_var": (["standard deviation", "std", "variance", "square"], '''
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
'''),
        "elementwise_diagonal": (["all pairs", "n_queries * n_keys", "diagonal", "every query"], '''
def score_variance(queries, keys):
    n = min(len(queries), len(keys))
    return float(np.var(np.sum(queries[:n] * keys[:n], axis=1)))
'''),
    },
    "width_sweep": {
        "sqrt_of_power": (["power", "w ** power", "exponent"], '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w] @ keys[:, :w].T / np.sqrt(w))
    return np.array(out)
'''),
        "off_by_one_slice": (["first w", "slice", "off by one", ":w"], '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w + 1] @ keys[:, :w + 1].T / w ** power)
    return np.array(out)
'''),
        "divide_by_dmax": (["w ** power", "each width", "d_max", "its own"], '''
def width_sweep(queries, keys, widths, power):
    d_max = queries.shape[1]
    return np.stack([queries[:, :w] @ keys[:, :w].T / d_max ** power for w in widths])
'''),
        "last_w_entries": (["first", "last", "slice", "entries"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, -w:] @ keys[:, -w:].T / w ** power for w in widths])
'''),
        "multiply_not_divide": (["divide", "multiply", "w ** power"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T * w ** power for w in widths])
'''),
    },
    "attention_entropy": {
        "log_of_zero": (["log", "zero", "underflow", "log_softmax", "nan"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(p * np.log(p), axis=-1)
'''),
        "missing_minus": (["sign", "minus", "negative"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    logp = scores - scores.max(axis=-1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(axis=-1, keepdims=True))
    return np.sum(p * logp, axis=-1)
'''),
        "softmax_no_axis": (["axis", "every entry", "row", "last axis"], '''
def attention_entropy(scores):
    p = softmax(scores)
    logp = np.log(np.clip(p, 1e-300, None))
    return -np.sum(p * logp, axis=-1)
'''),
        "log2_bits": (["natural log", "nats", "log2", "bits"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0)), 0.0), axis=-1)
'''),
        "entropy_of_scores": (["softmax", "weights", "probabilities"], '''
def attention_entropy(scores):
    p = np.abs(scores) / np.abs(scores).sum(axis=-1, keepdims=True)
    return -np.sum(np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0), axis=-1)
'''),
    },
    "softmax_jacobian": {
        "missing_diag": (["diag", "diagonal", "diag(p)"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return -np.outer(p, p)
'''),
        "sign_flipped": (["sign", "minus", "diag(p) - p p^t"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.outer(p, p) - np.diag(p)
'''),
        "inner_product": (["outer", "p p^t", "inner", "np.outer"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p @ p
'''),
        "diag_p_squared": (["diag", "p_i (1 - p_i)", "diagonal"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p * (1 - p))
'''),
        "naive_softmax_overflow": (["overflow", "stable", "maximum", "nan"], '''
def softmax_jacobian(scores):
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
'''),
    },
    "gradient_norms": {
        "python_list": (["array", "list", "np.array"], '''
def gradient_norms(scores):
    return [float(np.linalg.norm(softmax_jacobian(row))) for row in scores]
'''),
        "spectral_norm": (["frobenius", "ord", "spectral", "fro"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), ord=2) for row in scores])
'''),
        "squared_norm": (["square root", "sqrt", "frobenius", "squared"], '''
def gradient_norms(scores):
    return np.array([np.sum(softmax_jacobian(row) ** 2) for row in scores])
'''),
        "columns_not_rows": (["row", "column", "transpose", "per query"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(col)) for col in scores.T])
'''),
        "sum_of_abs": (["frobenius", "absolute", "sum of squares"], '''
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
        "manual_mean": '''
def score_variance(queries, keys):
    s = np.einsum("qd,kd->qk", queries, keys).ravel()
    return float(np.mean((s - s.mean()) ** 2))
''',
    },
    "width_sweep": {
        "loop_stack": '''
def width_sweep(queries, keys, widths, power):
    out = np.empty((len(widths), queries.shape[0], keys.shape[0]))
    for i, w in enumerate(widths):
        out[i] = queries[:, :w] @ keys[:, :w].T / float(w) ** power
    return out
''',
        "cumsum": '''
def width_sweep(queries, keys, widths, power):
    partial = np.cumsum(queries[:, None, :] * keys[None, :, :], axis=-1)  # (q, k, d_max)
    widths = np.asarray(widths)
    return np.moveaxis(partial[..., widths - 1], -1, 0) / (widths.astype(float) ** power)[:, None, None]
''',
    },
    "attention_entropy": {
        "log_softmax": '''
from scipy.special import log_softmax


def attention_entropy(scores):
    logp = log_softmax(scores, axis=-1)
    return -np.sum(np.exp(logp) * logp, axis=-1)
''',
        "logsumexp": '''
from scipy.special import logsumexp


def attention_entropy(scores):
    scores = np.asarray(scores, dtype=float)
    lse = logsumexp(scores, axis=-1, keepdims=True)
    p = np.exp(scores - lse)
    return np.squeeze(lse, -1) - np.sum(p * scores, axis=-1)
''',
    },
    "softmax_jacobian": {
        "diag_minus_outer": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - np.outer(p, p)
''',
        "loops": '''
def softmax_jacobian(scores):
    s = np.asarray(scores, dtype=float)
    e = np.exp(s - s.max())
    p = e / e.sum()
    n = len(p)
    jac = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            jac[i, j] = p[i] * ((1.0 if i == j else 0.0) - p[j])
    return jac
''',
    },
    "gradient_norms": {
        "loop_rows": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row)) for row in scores])
''',
        "closed_form": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    jac = p[:, :, None] * np.eye(p.shape[-1]) - p[:, :, None] * p[:, None, :]
    return np.sqrt((jac ** 2).sum(axis=(-2, -1)))
''',
    },
}
