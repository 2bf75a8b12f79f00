"""Blind set 1, notebook 04: Why divide by sqrt(d_k)? (NumPy). Written from notebooks/04_why_scale_by_sqrt_dk.ipynb only."""

MISTAKES = {
    "score_variance": {
        "scaled_scores": (["raw", "unscaled", "not scaled", "without dividing"], '''
def score_variance(queries, keys):
    scores = queries @ keys.T / np.sqrt(keys.shape[-1])
    return np.var(scores)
'''),
        "sample_variance_ddof1": (["ddof", "n - 1", "number of entries", "sample variance"], '''
def score_variance(queries, keys):
    scores = queries @ keys.T
    return np.var(scores, ddof=1)
'''),
        "mean_of_row_variances": (["all entries", "whole matrix", "per row", "flatten"], '''
def score_variance(queries, keys):
    scores = queries @ keys.T
    return np.var(scores, axis=1).mean()
'''),
        "standard_deviation": (["std", "standard deviation", "square"], '''
def score_variance(queries, keys):
    return np.std(queries @ keys.T)
'''),
        "elementwise_product": (["dot product", "elementwise", "element-wise", "matrix product"], '''
def score_variance(queries, keys):
    return np.var(queries * keys)
'''),
    },
    "width_sweep": {
        "slices_rows": (["columns", "first w entries", "[:, :w]", "rows"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:w] @ keys[:w].T / w ** power for w in widths])
'''),
        "scale_by_d_max": (["each width", "w ** power", "d_max", "its own width"], '''
def width_sweep(queries, keys, widths, power):
    d_max = queries.shape[1]
    return np.stack([queries[:, :w] @ keys[:, :w].T / d_max ** power for w in widths])
'''),
        "ignores_power": (["power", "exponent", "w ** power"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / np.sqrt(w) for w in widths])
'''),
        "off_by_one_slice": (["off by one", "first w", ":w", "w + 1"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w + 1] @ keys[:, :w + 1].T / w ** power for w in widths])
'''),
        "multiplies": (["multipl", "instead of dividing", "divided, not multiplied"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T * w ** power for w in widths])
'''),
        "stack_last_axis": (["first axis", "axis=0", "(len(widths)", "slice i"], '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / w ** power for w in widths], axis=-1)
'''),
    },
    "attention_entropy": {
        "p_log_p_nan": (["log-softmax", "log softmax", "0 * log", "underflow"], '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(p * np.log(p), axis=-1)
'''),
        "log2_bits": (["natural", "nats", "log2", "bits"], '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -np.sum(np.exp(log_p) * log_p, axis=-1) / np.log(2)
'''),
        "missing_minus": (["sign", "negative", "minus"], '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return np.sum(np.exp(log_p) * log_p, axis=-1)
'''),
        "log_softmax_no_axis": (["axis=-1", "last axis", "each row", "whole matrix"], '''
from scipy.special import log_softmax


def attention_entropy(scores):
    log_p = log_softmax(scores)
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
'''),
        "mean_over_keys": (["mean", "average", "sum over the keys"], '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -np.mean(np.exp(log_p) * log_p, axis=-1)
'''),
        "log_softmax_without_max": (["overflow", "maximum", "subtract", "m = max"], '''
def attention_entropy(scores):
    log_p = scores - np.log(np.exp(scores).sum(axis=-1, keepdims=True))
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
'''),
    },
    "softmax_jacobian": {
        "dot_instead_of_outer": (["outer", "p p^t", "np.outer", "dot product"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p @ p
'''),
        "elementwise_square": (["outer", "np.outer", "p_i p_j", "p[:, none]"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p * p
'''),
        "diagonal_only": (["off-diagonal", "off diagonal", "p_i p_j", "-p_i"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p * (1 - p))
'''),
        "sign_flipped": (["sign", "diag(p) - p p^t", "the other way", "negated"], '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.outer(p, p) - np.diag(p)
'''),
        "naive_softmax": (["overflow", "stable", "maximum", "subtract"], '''
def softmax_jacobian(scores):
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
'''),
        "uses_scores_not_p": (["probabilities", "weights p", "of the scores", "p = softmax"], '''
def softmax_jacobian(scores):
    return np.diag(scores) - np.outer(scores, scores)
'''),
    },
    "gradient_norms": {
        "spectral_norm": (["frobenius", "'fro'", "spectral", "largest singular"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), 2) for row in scores])
'''),
        "no_square_root": (["square root", "sqrt", "frobenius"], '''
def gradient_norms(scores):
    return np.array([np.sum(softmax_jacobian(row) ** 2) for row in scores])
'''),
        "whole_matrix_once": (["each row", "row by row", "per row", "one jacobian per"], '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    jacobian = np.diag(p.ravel()) - np.outer(p, p)
    return np.linalg.norm(jacobian)
'''),
        "columns_not_rows": (["rows", "columns", "each query", "scores.t"], '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(column)) for column in scores.T])
'''),
        "norm_of_weights": (["jacobian", "diag(p) - p p^t", "of the weights"], '''
def gradient_norms(scores):
    return np.linalg.norm(softmax(scores, axis=-1), axis=-1)
'''),
        "sum_of_abs": (["frobenius", "squared entries", "square", "absolute"], '''
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
        "by_hand_einsum": '''
def score_variance(queries, keys):
    scores = np.einsum("qd,kd->qk", queries, keys)
    return ((scores - scores.mean()) ** 2).mean()
''',
    },
    "width_sweep": {
        "loop_stack": '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w] @ keys[:, :w].T / w ** power)
    return np.stack(out)
''',
        "preallocated_einsum": '''
def width_sweep(queries, keys, widths, power):
    result = np.empty((len(widths), queries.shape[0], keys.shape[0]))
    for i, w in enumerate(widths):
        result[i] = np.einsum("qd,kd->qk", queries[:, :w], keys[:, :w]) / np.power(float(w), power)
    return result
''',
    },
    "attention_entropy": {
        "manual_log_softmax": '''
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    log_p = scores - m - np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
        "scipy_entr": '''
from scipy.special import entr


def attention_entropy(scores):
    return entr(softmax(scores, axis=-1)).sum(axis=-1)
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
        "broadcast_eye": '''
def softmax_jacobian(scores):
    shifted = scores - scores.max()
    p = np.exp(shifted) / np.exp(shifted).sum()
    return p[:, None] * (np.eye(len(p)) - p[None, :])
''',
    },
    "gradient_norms": {
        "loop_rows": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), "fro") for row in scores])
''',
        "batched_jacobians": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    n = p.shape[-1]
    jacobians = p[:, :, None] * np.eye(n) - p[:, :, None] * p[:, None, :]
    return np.sqrt((jacobians ** 2).sum(axis=(-2, -1)))
''',
    },
}
