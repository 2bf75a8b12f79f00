"""Eighth fresh set, notebook 04: why scale by sqrt(d_k)."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}

# --------------------------------------------------------------------------- score_variance
MISTAKES["score_variance"] = {
    "scaled_too_early": '''
def score_variance(queries, keys):
    raw = queries @ keys.T / np.sqrt(keys.shape[-1])
    return float(np.var(raw))
''',
    "std_instead_of_variance": '''
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
''',
    "keys_without_transpose": '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys))
''',
    "sum_instead_of_dot": '''
def score_variance(queries, keys):
    return float(np.var(queries * keys))
''',
    "lower_precision:float16": '''
def score_variance(queries, keys):
    raw = (queries @ keys.T).astype(np.float16)
    return float(raw.var())
''',
    "uncatalogued:ddof_one": '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, ddof=1))
''',
    "uncatalogued:variance_per_query": '''
def score_variance(queries, keys):
    return np.var(queries @ keys.T, axis=1)
''',
    "uncatalogued:mean_square": '''
def score_variance(queries, keys):
    raw = queries @ keys.T
    return float(np.mean(raw ** 2))
''',
    "variance_from_formula:theoretical_formula": '''
def score_variance(queries, keys):
    return float(queries.shape[-1] * np.var(queries) * np.var(keys))
''',
}
VARIANTS["score_variance"] = {
    "by_hand": '''
def score_variance(queries, keys):
    raw = np.einsum("qd,kd->qk", queries, keys)
    return float(((raw - raw.mean()) ** 2).mean())
''',
    "method_item": '''
def score_variance(queries, keys):
    return np.matmul(queries, keys.T).var().item()
''',
}

# --------------------------------------------------------------------------- width_sweep
MISTAKES["width_sweep"] = {
    "width_scale_fixed": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / np.sqrt(w) for w in widths])
''',
    "width_scale_full": '''
def width_sweep(queries, keys, widths, power):
    d_max = keys.shape[-1]
    return np.stack([queries[:, :w] @ keys[:, :w].T / float(d_max) ** power for w in widths])
''',
    "width_last_columns": '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, -w:] @ keys[:, -w:].T / float(w) ** power)
    return np.stack(out)
''',
    "integer_arithmetic:int_divisor": '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w] @ keys[:, :w].T / int(w ** power))
    return np.stack(out)
''',
    "loop_leftover:last_width": '''
def width_sweep(queries, keys, widths, power):
    out = np.zeros((len(widths), len(queries), len(keys)), dtype=queries.dtype)
    for i in range(len(widths) - 1):
        w = widths[i]
        out[i] = queries[:, :w] @ keys[:, :w].T / float(w) ** power
    return out
''',
    "uncatalogued:w_times_power": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / (w * power) for w in widths])
''',
    "width_slice_off_by_one:slice_one_short": '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w - 1] @ keys[:, :w - 1].T / float(w) ** power)
    return np.stack(out)
''',
    "uncatalogued:stacked_last_axis": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / float(w) ** power for w in widths], axis=-1)
''',
}
VARIANTS["width_sweep"] = {
    "preallocated": '''
def width_sweep(queries, keys, widths, power):
    out = np.empty((len(widths), queries.shape[0], keys.shape[0]), dtype=np.result_type(queries, keys))
    for i, w in enumerate(widths):
        out[i] = np.einsum("qd,kd->qk", queries[:, :w], keys[:, :w]) / float(w) ** power
    return out
''',
    "power_function": '''
import math


def width_sweep(queries, keys, widths, power):
    scores = [np.dot(queries[:, :int(w)], keys[:, :int(w)].T) / math.pow(w, power) for w in widths]
    return np.array(scores)
''',
}

# --------------------------------------------------------------------------- attention_entropy
MISTAKES["attention_entropy"] = {
    "entropy_nan_for_zero_weights": '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -(p * np.log(p)).sum(axis=-1)
''',
    "softmax_no_max_subtraction": '''
def attention_entropy(scores):
    log_p = scores - np.log(np.exp(scores).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
    "softmax_wrong_axis": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=0, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=0, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
    "no_softmax:entropy_of_scores": '''
def attention_entropy(scores):
    return -(scores * np.log(scores)).sum(axis=-1)
''',
    "lower_precision:float32": '''
def attention_entropy(scores):
    s = scores.astype(np.float32)
    shifted = s - s.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
    "uncatalogued:log2": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p / np.log(2)).sum(axis=-1)
''',
    "uncatalogued:sign_missing": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return (np.exp(log_p) * log_p).sum(axis=-1)
''',
    "uncatalogued:mean_not_sum": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).mean(axis=-1)
''',
    "uncatalogued:keepdims": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1, keepdims=True)
''',
}
VARIANTS["attention_entropy"] = {
    "logsumexp": '''
from scipy.special import logsumexp


def attention_entropy(scores):
    log_p = scores - logsumexp(scores, axis=-1, keepdims=True)
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
''',
    "entr": '''
from scipy.special import entr


def attention_entropy(scores):
    return entr(softmax(scores, axis=-1)).sum(axis=-1)
''',
    "lse_minus_mean_score": '''
def attention_entropy(scores):
    shifted = scores - np.max(scores, axis=-1, keepdims=True)
    e = np.exp(shifted)
    total = e.sum(axis=-1, keepdims=True)
    p = e / total
    return np.log(total[..., 0]) - (p * shifted).sum(axis=-1)
''',
}

# --------------------------------------------------------------------------- softmax_jacobian
MISTAKES["softmax_jacobian"] = {
    "jacobian_diagonal_only": '''
def softmax_jacobian(scores):
    return np.diag(softmax(scores))
''',
    "jacobian_diagonal_only:true_diagonal": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p * (1 - p))
''',
    "jacobian_sign_flipped": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.outer(p, p) - np.diag(p)
''',
    "no_softmax": '''
def softmax_jacobian(scores):
    return np.diag(scores) - np.outer(scores, scores)
''',
    "softmax_no_max_subtraction": '''
def softmax_jacobian(scores):
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
''',
    "lower_precision:float32_softmax": '''
def softmax_jacobian(scores):
    p = softmax(scores.astype(np.float32))
    return np.diag(p) - np.outer(p, p)
''',
    "uncatalogued:outer_only": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return -np.outer(p, p)
''',
    "jacobian_inner_product:dot_for_outer": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p @ p.T
''',
}
VARIANTS["softmax_jacobian"] = {
    "eye_broadcast": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return p[:, None] * (np.eye(len(p), dtype=p.dtype) - p[None, :])
''',
    "diagflat_einsum": '''
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.diagflat(p) - np.einsum("i,j->ij", p, p)
''',
}

# --------------------------------------------------------------------------- gradient_norms
MISTAKES["gradient_norms"] = {
    "gradient_norm_squared": '''
def gradient_norms(scores):
    return np.array([(softmax_jacobian(row) ** 2).sum() for row in scores])
''',
    "gradient_norm_of_weights": '''
def gradient_norms(scores):
    return np.linalg.norm(softmax(scores, axis=-1), axis=-1)
''',
    "gradient_norm_whole_stack": '''
def gradient_norms(scores):
    return np.linalg.norm(np.stack([softmax_jacobian(row) for row in scores]))
''',
    "gradient_norm_spectral": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), ord=2) for row in scores])
''',
    "jacobian_diagonal_only": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(np.diag(softmax(row))) for row in scores])
''',
    "loop_leftover:first_row": '''
def gradient_norms(scores):
    norms = np.zeros(len(scores), dtype=scores.dtype)
    for i in range(1, len(scores)):
        norms[i] = np.linalg.norm(softmax_jacobian(scores[i]))
    return norms
''',
    "softmax_wrong_axis": '''
def gradient_norms(scores):
    p = softmax(scores, axis=0)
    return np.array([np.linalg.norm(np.diag(row) - np.outer(row, row)) for row in p])
''',
    "uncatalogued:norm_of_columns": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), axis=0).sum() for row in scores])
''',
}
VARIANTS["gradient_norms"] = {
    "vectorised": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    n = p.shape[-1]
    jac = p[:, :, None] * np.eye(n, dtype=p.dtype) - p[:, :, None] * p[:, None, :]
    return np.sqrt((jac ** 2).sum(axis=(-2, -1)))
''',
    "closed_form": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    s2 = (p ** 2).sum(axis=-1)
    return np.sqrt(s2 - 2 * (p ** 3).sum(axis=-1) + s2 ** 2)
''',
    "fro_list": '''
def gradient_norms(scores):
    norms = [np.linalg.norm(softmax_jacobian(scores[i]), ord="fro") for i in range(scores.shape[0])]
    return np.array(norms)
''',
}
