"""Sixth fresh set, notebook 04: why scale by sqrt(d_k)."""

MISTAKES = {
    "score_variance": {
        "scaled_too_early": '''
def score_variance(queries, keys):
    scores = queries @ keys.T / np.sqrt(keys.shape[1])
    return float(np.var(scores))
''',
        "std_instead_of_variance": '''
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
''',
        "keys_without_transpose": '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys))
''',
        "sum_instead_of_dot:elementwise_products": '''
def score_variance(queries, keys):
    products = queries[:, None, :] * keys[None, :, :]
    return float(products.var())
''',
        "lower_precision:float16": '''
def score_variance(queries, keys):
    raw = queries.astype(np.float16) @ keys.astype(np.float16).T
    return float(np.var(raw))
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
        "uncatalogued:mean_square_not_centred": '''
def score_variance(queries, keys):
    raw = queries @ keys.T
    return float(np.mean(raw ** 2))
''',
        "variance_from_formula:theoretical_d_k": '''
def score_variance(queries, keys):
    return float(queries.shape[1])
''',
    },
    "width_sweep": {
        "width_scale_fixed": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / np.sqrt(w) for w in widths])
''',
        "width_scale_full": '''
def width_sweep(queries, keys, widths, power):
    d_max = keys.shape[-1]
    out = []
    for w in widths:
        out.append(queries[:, :w] @ keys[:, :w].T / d_max ** power)
    return np.stack(out)
''',
        "width_last_columns": '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, -w:] @ keys[:, -w:].T / float(w) ** power)
    return np.stack(out)
''',
        "no_scaling": '''
def width_sweep(queries, keys, widths, power):
    return np.array([queries[:, :w] @ keys[:, :w].T for w in widths])
''',
        "integer_arithmetic:int_divisor": '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        divisor = int(w ** power)
        out.append(queries[:, :w] @ keys[:, :w].T / divisor)
    return np.stack(out)
''',
        "loop_leftover:last_width_unwritten": '''
def width_sweep(queries, keys, widths, power):
    result = np.zeros((len(widths), queries.shape[0], keys.shape[0]), dtype=queries.dtype)
    for i in range(len(widths) - 1):
        w = widths[i]
        result[i] = queries[:, :w] @ keys[:, :w].T / w ** power
    return result
''',
        "keys_without_transpose": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w] / w ** power for w in widths])
''',
        "lower_precision:float32_buffer": '''
def width_sweep(queries, keys, widths, power):
    result = np.empty((len(widths), len(queries), len(keys)), dtype=np.float32)
    for i, w in enumerate(widths):
        result[i] = queries[:, :w] @ keys[:, :w].T / w ** power
    return result
''',
        "uncatalogued:multiplied_by_power": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([(queries[:, :w] @ keys[:, :w].T) * w ** power for w in widths])
''',
        "uncatalogued:stacked_last_axis": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / float(w) ** power for w in widths], axis=-1)
''',
    },
    "attention_entropy": {
        "entropy_nan_for_zero_weights": '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(p * np.log(p), axis=-1)
''',
        "softmax_no_max_subtraction": '''
def attention_entropy(scores):
    log_p = scores - np.log(np.sum(np.exp(scores), axis=-1, keepdims=True))
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
''',
        "softmax_wrong_axis": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=0, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=0, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
        "softmax_over_all_entries": '''
def attention_entropy(scores):
    shifted = scores - scores.max()
    log_p = shifted - np.log(np.exp(shifted).sum())
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
        "changes_inputs_in_place": '''
def attention_entropy(scores):
    scores -= scores.max(axis=-1, keepdims=True)
    log_p = scores - np.log(np.exp(scores).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
        "lower_precision:float32": '''
def attention_entropy(scores):
    s = scores.astype(np.float32)
    s = s - s.max(axis=-1, keepdims=True)
    log_p = s - np.log(np.exp(s).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
        "uncatalogued:one_global_maximum": '''
def attention_entropy(scores):
    shifted = scores - np.max(scores)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
        "uncatalogued:log2": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p / np.log(2)).sum(axis=-1)
''',
        "uncatalogued:minus_sign_missing": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return (np.exp(log_p) * log_p).sum(axis=-1)
''',
        "uncatalogued:summed_over_queries": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=0)
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
    p = np.exp(scores) / np.exp(scores).sum()
    return np.diag(p) - np.outer(p, p)
''',
        "normalise_by_sum": '''
def softmax_jacobian(scores):
    p = scores / scores.sum()
    return np.diag(p) - np.outer(p, p)
''',
        "lower_precision:float32_softmax": '''
def softmax_jacobian(scores):
    p = softmax(scores.astype(np.float32))
    return np.diag(p) - np.outer(p, p)
''',
        "jacobian_identity_for_diagonal:identity_instead_of_diag": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.eye(len(p)) - np.outer(p, p)
''',
        "jacobian_inner_product:p_times_p_not_outer": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p * p
''',
        "uncatalogued:outer_term_only": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return -np.outer(p, p)
''',
    },
    "gradient_norms": {
        "gradient_norm_squared": '''
def gradient_norms(scores):
    return np.array([np.sum(softmax_jacobian(row) ** 2) for row in scores])
''',
        "gradient_norm_of_weights": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax(row)) for row in scores])
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
        "loop_leftover:last_row_skipped": '''
def gradient_norms(scores):
    norms = np.zeros(len(scores))
    for i in range(len(scores) - 1):
        norms[i] = np.linalg.norm(softmax_jacobian(scores[i]))
    return norms
''',
        "softmax_wrong_axis": '''
def gradient_norms(scores):
    p = softmax(scores, axis=0)
    norms = []
    for column in p.T:
        jac = np.diag(column) - np.outer(column, column)
        norms.append(np.linalg.norm(jac))
    return np.array(norms)
''',
        "softmax_no_max_subtraction": '''
def gradient_norms(scores):
    e = np.exp(scores)
    p = e / e.sum(axis=1, keepdims=True)
    return np.array([np.linalg.norm(np.diag(r) - np.outer(r, r)) for r in p])
''',
        "jacobian_diagonal_only": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    return np.array([np.linalg.norm(np.diag(r - r ** 2)) for r in p])
''',
        "gradient_norm_sum_of_abs:sum_of_absolute_entries": '''
def gradient_norms(scores):
    return np.array([np.abs(softmax_jacobian(row)).sum() for row in scores])
''',
    },
}

VARIANTS = {
    "score_variance": {
        "einsum_var_method": '''
def score_variance(queries, keys):
    return float(np.einsum("qd,kd->qk", queries, keys).var())
''',
        "by_hand": '''
def score_variance(queries, keys):
    raw = np.matmul(queries, keys.T)
    centred = raw - raw.mean()
    return float((centred * centred).mean())
''',
    },
    "width_sweep": {
        "preallocated": '''
def width_sweep(queries, keys, widths, power):
    out = np.empty((len(widths), queries.shape[0], keys.shape[0]), dtype=np.result_type(queries, keys))
    for i, w in enumerate(widths):
        out[i] = queries[:, :w] @ keys[:, :w].T / w ** power
    return out
''',
        "comprehension_einsum": '''
def width_sweep(queries, keys, widths, power):
    return np.array([np.einsum("qd,kd->qk", queries[:, :w], keys[:, :w]) / float(w) ** power for w in widths])
''',
    },
    "attention_entropy": {
        "logsumexp": '''
from scipy.special import logsumexp

def attention_entropy(scores):
    log_p = scores - logsumexp(scores, axis=-1, keepdims=True)
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
''',
        "scipy_log_softmax": '''
from scipy.special import log_softmax

def attention_entropy(scores):
    lp = log_softmax(scores, axis=-1)
    return -(np.exp(lp) * lp).sum(-1)
''',
    },
    "softmax_jacobian": {
        "broadcast_eye": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return p[:, None] * (np.eye(len(p), dtype=p.dtype) - p[None, :])
''',
        "fill_diagonal": '''
def softmax_jacobian(scores):
    shifted = scores - scores.max()
    p = np.exp(shifted) / np.exp(shifted).sum()
    jac = -np.outer(p, p)
    jac[np.diag_indices_from(jac)] += p
    return jac
''',
    },
    "gradient_norms": {
        "sqrt_of_sum": '''
def gradient_norms(scores):
    return np.array([np.sqrt(np.sum(softmax_jacobian(r) ** 2)) for r in scores])
''',
        "vectorised": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    eye = np.eye(p.shape[-1], dtype=p.dtype)
    jac = p[:, :, None] * eye - p[:, :, None] * p[:, None, :]
    return np.sqrt((jac ** 2).sum(axis=(1, 2)))
''',
    },
}
