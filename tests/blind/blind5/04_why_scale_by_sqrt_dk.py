"""Blind set 5, notebook 04: Why scale by sqrt(d_k). Written from notebooks/04_why_scale_by_sqrt_dk.ipynb only."""

MISTAKES = {
    "score_variance": {
        "sample_variance": (["ddof", "n - 1", "number of entries"], '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, ddof=1))
'''),
        "scaled_scores": (["raw", "unscaled", "sqrt"], '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T / np.sqrt(queries.shape[1])))
'''),
        "per_row_variance": (["all entries", "one number", "axis"], '''
def score_variance(queries, keys):
    return np.var(queries @ keys.T, axis=1)
'''),
        "std_not_var": (["standard deviation", "std", "variance"], '''
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
'''),
    },
    "width_sweep": {
        "off_by_one_slice": (["first w", "slice", "off by one"], '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w - 1] @ keys[:, :w - 1].T / w ** power)
    return np.array(out)
'''),
        "divide_by_dmax": (["w ** power", "each width", "d_max"], '''
def width_sweep(queries, keys, widths, power):
    d = queries.shape[1]
    return np.stack([queries[:, :w] @ keys[:, :w].T / d ** power for w in widths])
'''),
        "power_ignored_sqrt": (["power", "exponent", "w ** power"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / np.sqrt(w) for w in widths])
'''),
        "multiply_by_power": (["divide", "multipl", "w ** power"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T * w ** power for w in widths])
'''),
    },
    "attention_entropy": {
        "log_of_zero_nan": (["underflow", "log", "0 * log 0"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(p * np.log(p), axis=-1)
'''),
        "no_minus_sign": (["sign", "minus", "negative"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    logp = scores - scores.max(axis=-1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(axis=-1, keepdims=True))
    return np.sum(p * logp, axis=-1)
'''),
        "log2": (["natural log", "nats", "log2"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(np.where(p > 0, p * np.log2(np.where(p > 0, p, 1)), 0.0), axis=-1)
'''),
        "softmax_no_axis": (["axis", "last axis", "each row"], '''
def attention_entropy(scores):
    p = softmax(scores)
    return -np.sum(np.where(p > 0, p * np.log(np.where(p > 0, p, 1)), 0.0), axis=-1)
'''),
    },
    "softmax_jacobian": {
        "missing_diag": (["diag", "diagonal", "p_i"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return -np.outer(p, p)
'''),
        "inner_product": (["outer", "p p^t", "np.outer"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p @ p
'''),
        "diag_p_times_one_minus": (["off-diagonal", "-p_i p_j", "outer"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p * (1 - p))
'''),
        "naive_softmax": (["overflow", "stable", "max"], '''
def softmax_jacobian(scores):
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
'''),
    },
    "gradient_norms": {
        "returns_list": (["list", "np.array", "array"], '''
def gradient_norms(scores):
    return [np.linalg.norm(softmax_jacobian(row)) for row in scores]
'''),
        "spectral_norm": (["frobenius", "ord", "spectral"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), 2) for row in scores])
'''),
        "squared_norm": (["square root", "sqrt", "squared"], '''
def gradient_norms(scores):
    return np.array([np.sum(softmax_jacobian(row) ** 2) for row in scores])
'''),
        "columns_loop": (["rows", "columns", "transpose"], '''
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
        "manual": '''
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
    prods = np.cumsum(queries[:, None, :] * keys[None, :, :], axis=-1)  # (q, k, d)
    w = np.asarray(widths)
    return np.moveaxis(prods[:, :, w - 1], -1, 0) / (w.astype(float) ** power)[:, None, None]
''',
    },
    "attention_entropy": {
        "logsoftmax": '''
from scipy.special import log_softmax

def attention_entropy(scores):
    logp = log_softmax(scores, axis=-1)
    return -np.sum(np.exp(logp) * logp, axis=-1)
''',
        "xlogy": '''
from scipy.special import xlogy

def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(xlogy(p, p), axis=-1)
''',
    },
    "softmax_jacobian": {
        "diag_outer": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - np.outer(p, p)
''',
        "torch_autograd": '''
def softmax_jacobian(scores):
    s = torch.tensor(np.asarray(scores, dtype=np.float64))
    return torch.autograd.functional.jacobian(lambda x: torch.softmax(x, dim=0), s).numpy()
''',
    },
    "gradient_norms": {
        "loop": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row)) for row in scores])
''',
        "closed_form": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    J = p[:, :, None] * np.eye(p.shape[1])[None] - p[:, :, None] * p[:, None, :]
    return np.sqrt((J ** 2).sum(axis=(1, 2)))
''',
    },
}
