"""Blind set 7, notebook 04: Why scale by sqrt(d_k). Written from notebooks/04_why_scale_by_sqrt_dk.ipynb only."""

MISTAKES = {
    "score_variance": {
        "scaled_scores": (["raw", "unscaled", "sqrt", "not scaled"], '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T / np.sqrt(queries.shape[1])))
'''),
        "sample_variance_ddof1": (["ddof", "n - 1", "number of entries", "np.var"], '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, ddof=1))
'''),
        "variance_per_row": (["all", "axis", "one number", "every entry"], '''
def score_variance(queries, keys):
    return np.var(queries @ keys.T, axis=1)
'''),
        "std_not_var": (["standard deviation", "std", "variance", "square"], '''
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
'''),
        "mean_square": (["mean", "subtract the mean", "centre", "center"], '''
def score_variance(queries, keys):
    return float(np.mean((queries @ keys.T) ** 2))
'''),
        "elementwise_diag": (["every pair", "keys[j]", "all", "n_queries * n_keys"], '''
def score_variance(queries, keys):
    n = min(len(queries), len(keys))
    return float(np.var(np.sum(queries[:n] * keys[:n], axis=1)))
'''),
    },
    "width_sweep": {
        "sqrt_power": (["power", "w ** power", "exponent"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / np.sqrt(w) for w in widths])
'''),
        "off_by_one_slice": (["first w", "off by one", "slice", ":w"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w + 1] @ keys[:, :w + 1].T / w ** power for w in widths])
'''),
        "dmax_divisor": (["w", "d_max", "each width", "width"], '''
def width_sweep(queries, keys, widths, power):
    d = queries.shape[1]
    return np.stack([queries[:, :w] @ keys[:, :w].T / d ** power for w in widths])
'''),
        "multiply_power": (["divide", "multiply", "w ** power"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T * w ** power for w in widths])
'''),
        "int_power_truncated": (["integer", "float", "int", "power"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / int(w ** power) for w in widths])
'''),
        "last_columns": (["first", "last", "slice", ":w"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, -w:] @ keys[:, -w:].T / w ** power for w in widths])
'''),
    },
    "attention_entropy": {
        "naive_log_of_p": (["log-softmax", "log(0)", "nan", "underflow"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(p * np.log(p), axis=-1)
'''),
        "wrong_axis": (["axis", "last axis", "rows"], '''
def attention_entropy(scores):
    m = scores.max(axis=0, keepdims=True)
    logp = scores - m - np.log(np.exp(scores - m).sum(axis=0, keepdims=True))
    return -np.sum(np.exp(logp) * logp, axis=0)
'''),
        "no_minus_sign": (["sign", "minus", "negative"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    logp = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return np.sum(np.exp(logp) * logp, axis=-1)
'''),
        "log2": (["natural", "log2", "nats", "bits"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    logp = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return -np.sum(np.exp(logp) * logp, axis=-1) / np.log(2)
'''),
        "forgot_max_in_logp": (["max", "m", "subtract", "log-softmax"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    logp = scores - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return -np.sum(np.exp(logp) * logp, axis=-1)
'''),
        "sum_of_logp": (["p_j", "weight", "multiply by p", "exp"], '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    logp = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return -np.mean(logp, axis=-1)
'''),
    },
    "softmax_jacobian": {
        "missing_diag": (["diag", "diagonal", "delta"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return -np.outer(p, p)
'''),
        "diag_minus_p_not_outer": (["outer", "p p^t", "p_j", "product"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p
'''),
        "naive_softmax": (["overflow", "stable", "max", "nan"], '''
def softmax_jacobian(scores):
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
'''),
        "inner_product": (["outer", "inner", "dot", "p p^t"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - np.dot(p, p)
'''),
        "sign_flipped": (["sign", "minus", "order"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.outer(p, p) - np.diag(p)
'''),
        "identity_minus": (["diag(p)", "identity", "eye", "p_i"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.eye(len(p)) - np.outer(p, p)
'''),
    },
    "gradient_norms": {
        "no_sqrt": (["square root", "sqrt", "squared"], '''
def gradient_norms(scores):
    return np.array([np.sum(softmax_jacobian(s) ** 2) for s in scores])
'''),
        "sum_of_abs": (["absolute", "abs", "squared", "frobenius"], '''
def gradient_norms(scores):
    return np.array([np.abs(softmax_jacobian(s)).sum() for s in scores])
'''),
        "spectral_norm": (["frobenius", "spectral", "ord", "2-norm"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(s), 2) for s in scores])
'''),
        "returns_list": (["list", "np.array", "array"], '''
def gradient_norms(scores):
    return [np.linalg.norm(softmax_jacobian(s)) for s in scores]
'''),
        "columns_not_rows": (["row", "column", "transpose", "axis"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(s)) for s in scores.T])
'''),
        "largest_entry": (["frobenius", "max", "largest", "sum of the squared"], '''
def gradient_norms(scores):
    return np.array([np.abs(softmax_jacobian(s)).max() for s in scores])
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
    s = np.einsum("id,jd->ij", queries, keys).ravel()
    return float(((s - s.mean()) ** 2).sum() / s.size)
''',
    },
    "width_sweep": {
        "loop_stack": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / float(w) ** power for w in widths])
''',
        "preallocated": '''
def width_sweep(queries, keys, widths, power):
    out = np.empty((len(widths), queries.shape[0], keys.shape[0]), dtype=np.result_type(queries, keys, float))
    for i, w in enumerate(widths):
        w = int(w)
        out[i] = np.dot(queries[:, :w], keys[:, :w].T) / np.power(float(w), power)
    return out
''',
    },
    "attention_entropy": {
        "log_softmax": '''
def attention_entropy(scores):
    m = np.max(scores, axis=-1, keepdims=True)
    logp = scores - m - np.log(np.sum(np.exp(scores - m), axis=-1, keepdims=True))
    return -np.sum(np.exp(logp) * logp, axis=-1)
''',
        "scipy_log_softmax": '''
from scipy.special import log_softmax


def attention_entropy(scores):
    logp = log_softmax(scores, axis=-1)
    return -(np.exp(logp) * logp).sum(axis=-1)
''',
    },
    "softmax_jacobian": {
        "diag_outer": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - np.outer(p, p)
''',
        "broadcast": '''
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
    J = p[:, :, None] * np.eye(p.shape[1]) - p[:, :, None] * p[:, None, :]
    return np.sqrt((J ** 2).sum(axis=(1, 2)))
''',
    },
}
