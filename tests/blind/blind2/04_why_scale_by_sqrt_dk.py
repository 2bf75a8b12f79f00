"""Blind set 2, notebook 04: Why scale by sqrt(d_k). Written from notebooks/04_why_scale_by_sqrt_dk.ipynb only."""

MISTAKES = {
    "score_variance": {
        "scaled_scores": (["raw", "unscaled", "not scaled", "sqrt"], '''
def score_variance(queries, keys):
    scores = queries @ keys.T / np.sqrt(keys.shape[-1])
    return float(np.var(scores))
'''),
        "sample_variance_ddof1": (["ddof", "n - 1", "sample variance", "number of entries"], '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, ddof=1))
'''),
        "variance_per_row": (["one number", "all entries", "axis", "every entry"], '''
def score_variance(queries, keys):
    return np.var(queries @ keys.T, axis=-1)
'''),
        "standard_deviation": (["standard deviation", "std", "square"], '''
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
'''),
        "array_of_one_entry": (["array of one", "scalar", "float(", "one entry"], '''
def score_variance(queries, keys):
    return np.array([np.var(queries @ keys.T)])
'''),
    },
    "width_sweep": {
        "off_by_one_slice": (["first w", "off by one", "off-by-one", "slice", ":w"], '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w - 1] @ keys[:, :w - 1].T / w ** power)
    return np.stack(out)
'''),
        "times_power_not_exponent": (["power", "exponent", "**"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / (w * power if power else 1) for w in widths])
'''),
        "always_sqrt": (["power", "argument", "not scaled", "divided by w"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / np.sqrt(w) for w in widths])
'''),
        "scale_by_d_max": (["w ** power", "each width", "d_max", "width w"], '''
def width_sweep(queries, keys, widths, power):
    d_max = queries.shape[1]
    return np.stack([queries[:, :w] @ keys[:, :w].T for w in widths]) / d_max ** power
'''),
        "sliced_rows_not_columns": (["columns", "entries", "[:, :w]", "rows"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:w] @ keys[:w].T / w ** power for w in widths])
'''),
    },
    "attention_entropy": {
        "naive_p_log_p": (["log-softmax", "log softmax", "underflow", "nan", "0 * log"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -(p * np.log(p)).sum(axis=-1)
'''),
        "log_base_2": (["natural", "nats", "log2", "base"], '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    p = np.exp(log_p)
    return -(p * log_p).sum(axis=-1) / np.log(2)
'''),
        "missing_minus": (["sign", "minus", "negative"], '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return (np.exp(log_p) * log_p).sum(axis=-1)
'''),
        "log_softmax_without_axis": (["axis=-1", "whole", "axis", "each row"], '''
from scipy.special import log_softmax

def attention_entropy(scores):
    log_p = log_softmax(scores)
    return -(np.exp(log_p) * log_p).sum(axis=-1)
'''),
        "sum_over_first_axis": (["axis", "last axis", "each row", "keys"], '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=0)
'''),
    },
    "softmax_jacobian": {
        "elementwise_not_outer": (["outer", "p p^t", "np.outer", "pp^t"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p * p
'''),
        "sign_flipped": (["sign", "minus", "diag(p) -"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.outer(p, p) - np.diag(p)
'''),
        "naive_softmax_overflow": (["overflow", "stable", "max", "nan"], '''
def softmax_jacobian(scores):
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
'''),
        "inner_product": (["outer", "inner", "dot", "scalar"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - np.dot(p, p)
'''),
        "only_diagonal": (["outer", "p p^t", "subtract", "off-diagonal"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p * (1 - p))
'''),
    },
    "gradient_norms": {
        "returns_list": (["list", "np.array"], '''
def gradient_norms(scores):
    return [np.linalg.norm(softmax_jacobian(row)) for row in scores]
'''),
        "spectral_norm": (["frobenius", "spectral", "ord", "2-norm"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), ord=2) for row in scores])
'''),
        "no_square_root": (["square root", "sqrt", "squared"], '''
def gradient_norms(scores):
    return np.array([(softmax_jacobian(row) ** 2).sum() for row in scores])
'''),
        "columns_not_rows": (["rows", "columns", "each row", "transpose"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(scores[:, j])) for j in range(scores.shape[1])])
'''),
        "sum_of_absolute_values": (["frobenius", "squared", "absolute", "square root"], '''
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
        "manual_mean_of_squares": '''
def score_variance(queries, keys):
    s = np.einsum("qd,kd->qk", queries, keys).ravel()
    return float(np.mean((s - s.mean()) ** 2))
''',
    },
    "width_sweep": {
        "loop_stack": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / w ** power for w in widths])
''',
        "cumsum": '''
def width_sweep(queries, keys, widths, power):
    widths = np.asarray(widths)
    partial = np.cumsum(queries[:, None, :] * keys[None, :, :], axis=-1)  # (q, k, d_max)
    out = np.moveaxis(partial[:, :, widths - 1], -1, 0)  # (widths, q, k)
    return out / (widths.astype(float) ** power)[:, None, None]
''',
    },
    "attention_entropy": {
        "manual_log_softmax": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
        "logsumexp_identity": '''
from scipy.special import logsumexp

def attention_entropy(scores):
    lse = logsumexp(scores, axis=-1)
    p = softmax(scores, axis=-1)
    return lse - (p * scores).sum(axis=-1)
''',
        "scipy_log_softmax": '''
from scipy.special import log_softmax

def attention_entropy(scores):
    log_p = log_softmax(scores, axis=-1)
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
''',
    },
    "softmax_jacobian": {
        "diag_minus_outer": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - np.outer(p, p)
''',
        "loops_kronecker": '''
def softmax_jacobian(scores):
    s = scores - np.max(scores)
    p = np.exp(s) / np.exp(s).sum()
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
        "closed_form": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    s2 = (p ** 2).sum(axis=-1)
    return np.sqrt(s2 - 2 * (p ** 3).sum(axis=-1) + s2 ** 2)
''',
    },
}
