"""Blind set 11, notebook 04: why scale by sqrt(d_k). Written from notebooks/04_why_scale_by_sqrt_dk.ipynb only."""

MISTAKES = {
    "score_variance": {
        "scaled_scores": (["raw", "unscaled", "sqrt", "scale"], '''
import numpy as np
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T / np.sqrt(queries.shape[1])))
'''),
        "ddof1": (["ddof", "n - 1", "number of entries", "unbiased"], '''
import numpy as np
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, ddof=1))
'''),
        "per_row_var": (["all entries", "axis", "one number", "per row"], '''
import numpy as np
def score_variance(queries, keys):
    return np.var(queries @ keys.T, axis=1)
'''),
        "std_not_var": (["standard deviation", "std", "variance", "square"], '''
import numpy as np
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
'''),
        "diagonal_only": (["diagonal", "all pairs", "every key", "elementwise"], '''
import numpy as np
def score_variance(queries, keys):
    n = min(len(queries), len(keys))
    return float(np.var(np.sum(queries[:n] * keys[:n], axis=1)))
'''),
    },
    "width_sweep": {
        "off_by_one_slice": (["first w", "slice", "off by one", ":w"], '''
import numpy as np
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w - 1] @ keys[:, :w - 1].T / w ** power)
    return np.stack(out)
'''),
        "full_width_always": (["first w", "slice", "width", "entries"], '''
import numpy as np
def width_sweep(queries, keys, widths, power):
    s = queries @ keys.T
    return np.stack([s / w ** power for w in widths])
'''),
        "power_ignored_sqrt": (["power", "w ** power", "exponent"], '''
import numpy as np
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / np.sqrt(w) for w in widths])
'''),
        "multiply_not_divide": (["divide", "multipl", "w ** power"], '''
import numpy as np
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T * w ** power for w in widths])
'''),
        "integer_power": (["integer", "float", "power", "dtype"], '''
import numpy as np
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / np.power(w, int(power)) for w in widths])
'''),
    },
    "attention_entropy": {
        "naive_log_nan": (["log(0)", "nan", "underflow", "log_softmax", "log-sum-exp"], '''
import numpy as np
def attention_entropy(scores):
    s = scores - scores.max(axis=-1, keepdims=True)
    p = np.exp(s) / np.exp(s).sum(axis=-1, keepdims=True)
    return -np.sum(p * np.log(p), axis=-1)
'''),
        "log2": (["nats", "natural log", "log2", "base"], '''
import numpy as np
from scipy.special import log_softmax
def attention_entropy(scores):
    lp = log_softmax(scores, axis=-1)
    return -np.sum(np.exp(lp) * lp, axis=-1) / np.log(2)
'''),
        "missing_minus": (["sign", "minus", "negative"], '''
import numpy as np
from scipy.special import log_softmax
def attention_entropy(scores):
    lp = log_softmax(scores, axis=-1)
    return np.sum(np.exp(lp) * lp, axis=-1)
'''),
        "wrong_axis": (["axis", "last axis", "rows"], '''
import numpy as np
from scipy.special import log_softmax
def attention_entropy(scores):
    lp = log_softmax(scores, axis=0)
    return -np.sum(np.exp(lp) * lp, axis=0)
'''),
        "entropy_of_scores": (["softmax", "weights", "probabilit"], '''
import numpy as np
def attention_entropy(scores):
    p = scores / scores.sum(axis=-1, keepdims=True)
    return -np.sum(p * np.log(np.abs(p) + 1e-300), axis=-1)
'''),
    },
    "softmax_jacobian": {
        "outer_sign": (["minus", "sign", "diag(p) - p p^t"], '''
import numpy as np
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.diag(p) + np.outer(p, p)
'''),
        "inner_not_outer": (["outer", "p p^t", "dot", "inner"], '''
import numpy as np
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.diag(p) - p @ p
'''),
        "unstable_softmax": (["overflow", "stable", "max", "nan"], '''
import numpy as np
def softmax_jacobian(scores):
    p = np.exp(scores) / np.exp(scores).sum()
    return np.diag(p) - np.outer(p, p)
'''),
        "diag_of_scores": (["diag(p)", "probabilit", "softmax", "scores"], '''
import numpy as np
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.diag(scores) - np.outer(p, p)
'''),
        "identity_not_diag": (["diag", "identity", "eye", "delta"], '''
import numpy as np
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.eye(len(p)) - np.outer(p, p)
'''),
    },
    "gradient_norms": {
        "returns_list": (["list", "np.array", "mean"], '''
import numpy as np
def gradient_norms(scores):
    return [np.linalg.norm(softmax_jacobian(row)) for row in scores]
'''),
        "squared_norm": (["square root", "sqrt", "squared"], '''
import numpy as np
def gradient_norms(scores):
    return np.array([np.sum(softmax_jacobian(row) ** 2) for row in scores])
'''),
        "spectral_norm": (["frobenius", "ord", "spectral", "2-norm"], '''
import numpy as np
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), ord=2) for row in scores])
'''),
        "columns_instead": (["rows", "transpose", "column", "each row"], '''
import numpy as np
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(col)) for col in scores.T])
'''),
        "sum_abs": (["frobenius", "square", "absolute"], '''
import numpy as np
def gradient_norms(scores):
    return np.array([np.abs(softmax_jacobian(row)).sum() for row in scores])
'''),
    },
}

VARIANTS = {
    "score_variance": {
        "var_all": '''
import numpy as np
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T))
''',
        "manual": '''
import numpy as np
def score_variance(queries, keys):
    s = np.einsum("qd,kd->qk", queries, keys).ravel()
    return float(np.mean((s - s.mean()) ** 2))
''',
    },
    "width_sweep": {
        "loop": '''
import numpy as np
def width_sweep(queries, keys, widths, power):
    out = np.empty((len(widths), queries.shape[0], keys.shape[0]))
    for i, w in enumerate(widths):
        w = int(w)
        out[i] = queries[:, :w] @ keys[:, :w].T / float(w) ** power
    return out
''',
        "cumsum": '''
import numpy as np
def width_sweep(queries, keys, widths, power):
    prods = np.cumsum(queries[:, None, :] * keys[None, :, :], axis=-1)
    w = np.asarray(widths, dtype=int)
    return np.moveaxis(prods[:, :, w - 1], -1, 0) / (w.astype(float) ** power)[:, None, None]
''',
    },
    "attention_entropy": {
        "log_softmax": '''
import numpy as np
def attention_entropy(scores):
    s = scores - scores.max(axis=-1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=-1, keepdims=True))
    return -np.sum(np.exp(logp) * logp, axis=-1)
''',
        "scipy": '''
import numpy as np
from scipy.special import log_softmax, softmax as _sm
def attention_entropy(scores):
    return -np.sum(_sm(scores, axis=-1) * log_softmax(scores, axis=-1), axis=-1)
''',
    },
    "softmax_jacobian": {
        "diag_outer": '''
import numpy as np
def softmax_jacobian(scores):
    e = np.exp(scores - np.max(scores))
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
''',
        "loops": '''
import numpy as np
from scipy.special import softmax as _sm
def softmax_jacobian(scores):
    p = _sm(scores)
    n = len(p)
    J = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            J[i, j] = p[i] * ((1.0 if i == j else 0.0) - p[j])
    return J
''',
    },
    "gradient_norms": {
        "loop_rows": '''
import numpy as np
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), "fro") for row in scores])
''',
        "vectorised": '''
import numpy as np
def gradient_norms(scores):
    s = scores - scores.max(axis=-1, keepdims=True)
    p = np.exp(s) / np.exp(s).sum(axis=-1, keepdims=True)
    J = p[:, :, None] * np.eye(p.shape[1])[None] - p[:, :, None] * p[:, None, :]
    return np.sqrt((J ** 2).sum(axis=(1, 2)))
''',
    },
}
