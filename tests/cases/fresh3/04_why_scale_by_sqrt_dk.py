"""Third fresh set, notebook 04: learners' answers written without the grader's key.

Each source is what a learner would type in the exercise's solution cell; the notebook's earlier
cells have run. Written on 2026-11-23 from the exercise texts and the catalogue's ids and hints only,
checked only against the notebook's own solution (tests/cases/selfcheck.py fresh3), never against the
grader. Rule: never edited after its first measurement (see README.md).
"""

MISTAKES = {
    "score_variance": {
        "std_instead_of_variance:np_std": '''
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
''',
        "scaled_too_early:var_of_scaled": '''
def score_variance(queries, keys):
    scores = queries @ keys.T / np.sqrt(keys.shape[-1])
    return float(scores.var())
''',
        "keys_without_transpose:square_only": '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys))
''',
        "sum_instead_of_dot:elementwise": '''
def score_variance(queries, keys):
    return float(np.var(queries[:, None, :] * keys[None, :, :]))
''',
        "uncatalogued:sample_variance": '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, ddof=1))
''',
        "uncatalogued:mean_of_row_variances": '''
def score_variance(queries, keys):
    raw = queries @ keys.T
    return float(raw.var(axis=1).mean())
''',
        "uncatalogued:second_moment": '''
def score_variance(queries, keys):
    raw = queries @ keys.T
    return float(np.mean(raw ** 2))
''',
    },
    "width_sweep": {
        "width_scale_fixed:always_sqrt": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / np.sqrt(w) for w in widths])
''',
        "width_scale_full:d_max": '''
def width_sweep(queries, keys, widths, power):
    d_max = keys.shape[1]
    out = []
    for w in widths:
        out.append(queries[:, :w] @ keys[:, :w].T / float(d_max) ** power)
    return np.stack(out)
''',
        "width_last_columns:negative_slice": '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        q, k = queries[:, -w:], keys[:, -w:]
        out.append(q @ k.T / float(w) ** power)
    return np.array(out)
''',
        "loop_leftover:last_width_skipped": '''
def width_sweep(queries, keys, widths, power):
    result = np.zeros((len(widths), queries.shape[0], keys.shape[0]), dtype=queries.dtype)
    for i, w in enumerate(widths[:-1]):
        result[i] = queries[:, :w] @ keys[:, :w].T / float(w) ** power
    return result
''',
        "width_slice_off_by_one:one_column_short": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w - 1] @ keys[:, :w - 1].T / float(w) ** power for w in widths])
''',
        "uncatalogued:multiplied_by_power": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([(queries[:, :w] @ keys[:, :w].T) * float(w) ** power for w in widths])
''',
        "uncatalogued:power_halved": '''
def width_sweep(queries, keys, widths, power):
    # power 1 means the square root, so halve it
    return np.stack([queries[:, :w] @ keys[:, :w].T / float(w) ** (power / 2) for w in widths])
''',
        "uncatalogued:stacked_last": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / float(w) ** power for w in widths], axis=-1)
''',
    },
    "attention_entropy": {
        "entropy_nan_for_zero_weights:log_of_p": '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(p * np.log(p), axis=-1)
''',
        "softmax_no_max_subtraction:log_softmax": '''
def attention_entropy(scores):
    log_p = scores - np.log(np.exp(scores).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
        "softmax_over_all_entries:log_softmax_no_axis": '''
from scipy.special import log_softmax

def attention_entropy(scores):
    log_p = log_softmax(scores)
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
        "softmax_wrong_axis:columns": '''
from scipy.special import log_softmax

def attention_entropy(scores):
    log_p = log_softmax(scores, axis=0)
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
        "changes_inputs_in_place:shift": '''
def attention_entropy(scores):
    scores -= scores.max(axis=-1, keepdims=True)
    log_w = scores - np.log(np.exp(scores).sum(axis=-1, keepdims=True))
    return -(np.exp(log_w) * log_w).sum(axis=-1)
''',
        "uncatalogued:bits": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    p = np.exp(log_p)
    return -(p * log_p / np.log(2)).sum(axis=-1)
''',
        "uncatalogued:minus_sign_missing": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return (np.exp(log_p) * log_p).sum(axis=-1)
''',
        "uncatalogued:mean_over_keys": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).mean(axis=-1)
''',
        "uncatalogued:kept_last_axis": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1, keepdims=True)
''',
    },
    "softmax_jacobian": {
        "jacobian_diagonal_only:p_one_minus_p": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p * (1 - p))
''',
        "jacobian_sign_flipped:outer_minus_diag": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.outer(p, p) - np.diag(p)
''',
        "softmax_no_max_subtraction:exp": '''
def softmax_jacobian(scores):
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
''',
        "normalise_by_sum:no_exp": '''
def softmax_jacobian(scores):
    p = scores / scores.sum()
    return np.diag(p) - np.outer(p, p)
''',
        "jacobian_inner_product:squares_not_outer": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p ** 2
''',
        "jacobian_identity_for_diagonal:identity_not_diag_p": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.eye(len(p), dtype=p.dtype) - np.outer(p, p)
''',
        "uncatalogued:kronecker_delta_forgotten": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return p[:, None] * (1 - p[None, :])
''',
        "uncatalogued:log_softmax_jacobian": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.eye(p.size, dtype=p.dtype) - p[None, :]
''',
    },
    "gradient_norms": {
        "gradient_norm_squared:no_sqrt": '''
def gradient_norms(scores):
    return np.array([(softmax_jacobian(row) ** 2).sum() for row in scores])
''',
        "gradient_norm_of_weights:norm_of_p": '''
def gradient_norms(scores):
    return np.linalg.norm(softmax(scores, axis=-1), axis=-1)
''',
        "gradient_norm_whole_stack:one_number": '''
def gradient_norms(scores):
    jacobians = np.stack([softmax_jacobian(row) for row in scores])
    return np.linalg.norm(jacobians)
''',
        "gradient_norm_spectral:ord2": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(s), ord=2) for s in scores])
''',
        "softmax_no_max_subtraction:inline": '''
def gradient_norms(scores):
    out = []
    for row in scores:
        e = np.exp(row)
        p = e / e.sum()
        out.append(np.sqrt(((np.diag(p) - np.outer(p, p)) ** 2).sum()))
    return np.array(out)
''',
        "uncatalogued:nuclear_norm": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), ord="nuc") for row in scores])
''',
        "uncatalogued:columns_not_rows": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(column)) for column in scores.T])
''',
        "uncatalogued:largest_entry": '''
def gradient_norms(scores):
    return np.array([np.abs(softmax_jacobian(row)).max() for row in scores])
''',
    },
}

VARIANTS = {
    "score_variance": {
        "mean_of_squares_minus_square": '''
def score_variance(queries, keys):
    s = np.einsum("qd,kd->qk", queries, keys).astype(np.float64)
    return float(((s - s.mean()) ** 2).mean())
''',
        "ravel_var": '''
def score_variance(queries, keys):
    return float(np.var(np.dot(queries, keys.T).ravel()))
''',
    },
    "width_sweep": {
        "comprehension": '''
def width_sweep(queries, keys, widths, power):
    return np.array([queries[:, :w] @ keys[:, :w].T / float(w) ** power for w in widths])
''',
        "einsum_helper": '''
def _scores(q, k, w):
    return np.einsum("id,jd->ij", q[:, :w], k[:, :w])


def width_sweep(queries, keys, widths, power):
    stack = [_scores(queries, keys, int(w)) / (float(w) ** power) for w in widths]
    return np.stack(stack, axis=0)
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
def attention_entropy(scores):
    m = scores.max(axis=-1, keepdims=True)
    lse = m + np.log(np.exp(scores - m).sum(axis=-1, keepdims=True))
    p = np.exp(scores - lse)
    return (lse[..., 0] - (p * scores).sum(axis=-1))
''',
    },
    "softmax_jacobian": {
        "eye_form": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return p[:, None] * (np.eye(len(p), dtype=p.dtype) - p[None, :])
''',
        "einsum_outer": '''
def softmax_jacobian(scores):
    z = scores - scores.max()
    p = np.exp(z) / np.exp(z).sum()
    return np.diagflat(p) - np.einsum("i,j->ij", p, p)
''',
    },
    "gradient_norms": {
        "vectorised": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    eye = np.eye(p.shape[-1], dtype=p.dtype)
    jac = p[:, :, None] * eye - p[:, :, None] * p[:, None, :]
    return np.linalg.norm(jac, axis=(-2, -1))
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
