'''Second fresh set, notebook 04: learner submissions written without the key.

Written on 2026-11-23 by a helper session that read only the exercise texts, signatures and solution
cells of solutions/04_why_scale_by_sqrt_dk.ipynb and the ids and titles of the mistake catalogue
(src/attention_course/mistakes.py); not autograder/key/, verdict.py, expected/, accuracy.py, nor any
other case file. Each case was checked only against the notebook's own solution (selfcheck.py), never
against the grader. Rule: this file is never edited after its first measurement.
'''

MISTAKES = {
    "score_variance": {
        "std_instead_of_variance": '''
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
''',
        "uncatalogued:ddof_one": '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, ddof=1))
''',
        "uncatalogued:mean_of_row_variances": '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, axis=1).mean())
''',
        "scaled_too_early": '''
def score_variance(queries, keys):
    scores = queries @ keys.T / np.sqrt(keys.shape[1])
    return float(np.var(scores))
''',
        "uncatalogued:mean_square_assumes_zero_mean": '''
def score_variance(queries, keys):
    raw = queries @ keys.T
    return float(np.mean(raw ** 2))
''',
        "sum_instead_of_dot:elementwise": '''
def score_variance(queries, keys):
    products = queries[:, None, :] * keys[None, :, :]
    return float(np.var(products))
''',
        "keys_without_transpose": '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys))
''',
    },
    "width_sweep": {
        "width_scale_fixed": '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w] @ keys[:, :w].T / np.sqrt(w))
    return np.stack(out)
''',
        "width_scale_full": '''
def width_sweep(queries, keys, widths, power):
    d = keys.shape[-1]
    return np.stack([queries[:, :w] @ keys[:, :w].T / d ** power for w in widths])
''',
        "width_last_columns": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, -w:] @ keys[:, -w:].T / float(w) ** power for w in widths])
''',
        "integer_arithmetic:int_divisor": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / int(w ** power) for w in widths])
''',
        "width_slice_off_by_one:slice_one_too_long": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w + 1] @ keys[:, :w + 1].T / float(w) ** power for w in widths])
''',
        "uncatalogued:multiplied_by_power": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T * float(w) ** power for w in widths])
''',
        "uncatalogued:stacked_last": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / float(w) ** power for w in widths], axis=-1)
''',
    },
    "attention_entropy": {
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
        "softmax_wrong_axis:axis0": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=0, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=0, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
        "uncatalogued:log2_bits": '''
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
        "softmax_over_all_entries:log_softmax_no_axis": '''
from scipy.special import log_softmax


def attention_entropy(scores):
    log_p = log_softmax(scores)
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
    },
    "softmax_jacobian": {
        "jacobian_diagonal_only": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p * (1 - p))
''',
        "jacobian_sign_flipped": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.outer(p, p) - np.diag(p)
''',
        "softmax_no_max_subtraction": '''
def softmax_jacobian(scores):
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
''',
        "jacobian_identity_for_diagonal:identity_minus_outer": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.eye(len(p), dtype=p.dtype) - np.outer(p, p)
''',
        "jacobian_inner_product:inner_not_outer": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p @ p
''',
        "lower_precision:float32": '''
def softmax_jacobian(scores):
    p = softmax(scores.astype(np.float32))
    return np.diag(p) - np.outer(p, p)
''',
        "changes_inputs_in_place": '''
def softmax_jacobian(scores):
    scores -= scores.max()
    p = np.exp(scores) / np.exp(scores).sum()
    return np.diag(p) - np.outer(p, p)
''',
    },
    "gradient_norms": {
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
    jacobians = np.stack([softmax_jacobian(row) for row in scores])
    return np.linalg.norm(jacobians)
''',
        "gradient_norm_spectral": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), ord=2) for row in scores])
''',
        "jacobian_diagonal_only": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    return np.sqrt(((p * (1 - p)) ** 2).sum(axis=-1))
''',
        "uncatalogued:over_columns": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(col)) for col in scores.T])
''',
        "gradient_norm_sum_of_abs:entrywise_l1": '''
def gradient_norms(scores):
    return np.array([np.abs(softmax_jacobian(row)).sum() for row in scores])
''',
    },
}

VARIANTS = {
    "score_variance": {
        "manual": '''
def score_variance(queries, keys):
    raw = np.einsum("id,jd->ij", queries, keys)
    centred = raw - raw.mean()
    return float((centred ** 2).mean())
''',
        "ravel_method": '''
def score_variance(queries, keys):
    return (queries @ keys.T).ravel().var().item()
''',
    },
    "width_sweep": {
        "preallocated": '''
def width_sweep(queries, keys, widths, power):
    out = np.empty((len(widths), queries.shape[0], keys.shape[0]), dtype=np.result_type(queries, keys))
    for i, w in enumerate(widths):
        out[i] = np.einsum("qd,kd->qk", queries[:, :w], keys[:, :w]) / float(w) ** power
    return out
''',
        "array_of_list": '''
def width_sweep(queries, keys, widths, power):
    results = [np.dot(queries[:, :w], keys[:, :w].T) / (float(w) ** power) for w in widths]
    return np.array(results)
''',
    },
    "attention_entropy": {
        "scipy_log_softmax": '''
from scipy.special import log_softmax


def attention_entropy(scores):
    log_p = log_softmax(scores, axis=-1)
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
''',
        "logsumexp_identity": '''
from scipy.special import logsumexp


def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return logsumexp(scores, axis=-1) - (p * scores).sum(axis=-1)
''',
        "scipy_entr": '''
from scipy.special import entr


def attention_entropy(scores):
    return entr(softmax(scores, axis=-1)).sum(axis=-1)
''',
    },
    "softmax_jacobian": {
        "kronecker_form": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return p[:, None] * (np.eye(p.shape[0], dtype=p.dtype) - p[None, :])
''',
        "loops": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    n = len(p)
    jac = np.zeros((n, n), dtype=p.dtype)
    for i in range(n):
        for j in range(n):
            jac[i, j] = p[i] * ((1.0 if i == j else 0.0) - p[j])
    return jac
''',
    },
    "gradient_norms": {
        "vectorised": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    jac = np.eye(p.shape[-1], dtype=p.dtype) * p[:, None, :] - p[:, :, None] * p[:, None, :]
    return np.sqrt((jac ** 2).sum(axis=(-2, -1)))
''',
        "fro_loop": '''
def gradient_norms(scores):
    norms = []
    for i in range(scores.shape[0]):
        norms.append(np.linalg.norm(softmax_jacobian(scores[i]), ord="fro"))
    return np.array(norms)
''',
    },
}
