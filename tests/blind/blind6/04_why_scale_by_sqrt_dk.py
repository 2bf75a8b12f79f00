"""Blind set 6, notebook 04: Why scale by sqrt(d_k). Written from notebooks/04_why_scale_by_sqrt_dk.ipynb only."""

MISTAKES = {
    "score_variance": {
        "sample_variance": (["ddof", "n - 1", "sample variance", "number of entries"], '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, ddof=1))
'''),
        "std_not_var": (["standard deviation", "std", "square"], '''
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
'''),
        "scaled_scores": (["raw", "unscaled", "sqrt", "not scaled"], '''
def score_variance(queries, keys):
    d_k = queries.shape[-1]
    return float(np.var(queries @ keys.T / np.sqrt(d_k)))
'''),
        "per_column": (["axis", "all entries", "one number", "every entry"], '''
def score_variance(queries, keys):
    return np.var(queries @ keys.T, axis=0)
'''),
        "theoretical": (["empirical", "theoretical", "formula", "dot products"], '''
def score_variance(queries, keys):
    d_k = queries.shape[-1]
    return float(np.var(queries) * np.var(keys) * d_k)
'''),
    },
    "width_sweep": {
        "ignores_power": (["power", "w ** power", "p"], '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w] @ keys[:, :w].T / np.sqrt(w))
    return np.array(out)
'''),
        "last_entries": (["first", "last", "slice", "[:w]"], '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, -w:] @ keys[:, -w:].T / w ** power)
    return np.array(out)
'''),
        "off_by_one": (["off-by-one", "first w", "slice", "w + 1"], '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w + 1] @ keys[:, :w + 1].T / w ** power)
    return np.array(out)
'''),
        "divide_by_dmax": (["d_max", "width", "w ** power", "each width"], '''
def width_sweep(queries, keys, widths, power):
    d_max = queries.shape[1]
    out = []
    for w in widths:
        out.append(queries[:, :w] @ keys[:, :w].T / d_max ** power)
    return np.array(out)
'''),
        "multiplies": (["divide", "multiply", "instead of"], '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w] @ keys[:, :w].T * w ** power)
    return np.array(out)
'''),
    },
    "attention_entropy": {
        "log2": (["natural", "log2", "nats", "bits", "base"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(p * np.log2(np.clip(p, 1e-300, None)), axis=-1)
'''),
        "naive_softmax": (["overflow", "stable", "max", "inf"], '''
def attention_entropy(scores):
    e = np.exp(scores)
    p = e / e.sum(axis=-1, keepdims=True)
    return -np.sum(p * np.log(p), axis=-1)
'''),
        "log_of_zero": (["log(0)", "underflow", "0 * log", "nan", "log-softmax"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(p * np.log(p), axis=-1)
'''),
        "no_minus": (["minus", "sign", "negative"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    logp = scores - scores.max(axis=-1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(axis=-1, keepdims=True))
    return np.sum(p * logp, axis=-1)
'''),
        "softmax_no_axis": (["axis", "last axis", "every entry", "each row"], '''
def attention_entropy(scores):
    p = softmax(scores)
    logp = np.log(np.clip(p, 1e-300, None))
    return -np.sum(p * logp, axis=-1)
'''),
    },
    "softmax_jacobian": {
        "sign_flipped": (["sign", "minus", "diag(p) - p p^t"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.outer(p, p) - np.diag(p)
'''),
        "no_diagonal": (["diagonal", "diag"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return -np.outer(p, p)
'''),
        "elementwise_square": (["outer", "p p^t", "outer product"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p * p
'''),
        "naive_softmax": (["overflow", "stable", "max", "nan"], '''
def softmax_jacobian(scores):
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
'''),
        "dot_not_outer": (["outer", "dot product", "scalar", "p p^t"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p @ p
'''),
    },
    "gradient_norms": {
        "returns_list": (["list", "np.array", "mean"], '''
def gradient_norms(scores):
    return [np.linalg.norm(softmax_jacobian(row)) for row in scores]
'''),
        "no_sqrt": (["sqrt", "square root", "frobenius", "squared"], '''
def gradient_norms(scores):
    return np.array([np.sum(softmax_jacobian(row) ** 2) for row in scores])
'''),
        "spectral_norm": (["frobenius", "spectral", "ord", "largest singular"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), 2) for row in scores])
'''),
        "skips_last_row": (["loop", "range", "last row", "every row"], '''
def gradient_norms(scores):
    out = np.zeros(scores.shape[0])
    for i in range(scores.shape[0] - 1):
        out[i] = np.linalg.norm(softmax_jacobian(scores[i]))
    return out
'''),
        "norm_of_softmax": (["jacobian", "softmax_jacobian", "derivative"], '''
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
        "by_hand": '''
def score_variance(queries, keys):
    s = np.einsum("qd,kd->qk", queries, keys).ravel()
    return float(np.mean((s - s.mean()) ** 2))
''',
    },
    "width_sweep": {
        "loop": '''
def width_sweep(queries, keys, widths, power):
    slices = [queries[:, :w] @ keys[:, :w].T / float(w) ** power for w in widths]
    return np.stack(slices)
''',
        "cumsum": '''
def width_sweep(queries, keys, widths, power):
    prods = queries[:, None, :] * keys[None, :, :]
    partial = np.cumsum(prods, axis=-1)
    widths = np.asarray(widths)
    out = np.moveaxis(partial[:, :, widths - 1], -1, 0)
    return out / (widths.astype(float) ** power)[:, None, None]
''',
    },
    "attention_entropy": {
        "log_softmax": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -np.sum(np.exp(logp) * logp, axis=-1)
''',
        "logsumexp": '''
from scipy.special import logsumexp as _lse

def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return _lse(scores, axis=-1) - np.sum(p * scores, axis=-1)
''',
    },
    "softmax_jacobian": {
        "diag_minus_outer": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - np.outer(p, p)
''',
        "broadcast": '''
def softmax_jacobian(scores):
    s = scores - np.max(scores)
    p = np.exp(s) / np.exp(s).sum()
    return p[:, None] * (np.eye(len(p)) - p[None, :])
''',
    },
    "gradient_norms": {
        "per_row": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), "fro") for row in scores])
''',
        "closed_form": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    s2 = np.sum(p ** 2, axis=-1)
    return np.sqrt(np.maximum(s2 - 2 * np.sum(p ** 3, axis=-1) + s2 ** 2, 0.0))
''',
    },
}
