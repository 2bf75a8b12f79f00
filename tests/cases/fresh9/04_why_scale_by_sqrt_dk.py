"""Ninth fresh set, notebook 04: why divide by sqrt(d_k) (NumPy)."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}

# --------------------------------------------------------------------------- score_variance
MISTAKES["score_variance"] = {
    "scaled_too_early": '''
def score_variance(queries, keys):
    scores = queries @ keys.T / np.sqrt(keys.shape[-1])
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
    "sum_instead_of_dot:elementwise": '''
def score_variance(queries, keys):
    return float(np.var(queries * keys))
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
    "uncatalogued:mean_of_column_variances": '''
def score_variance(queries, keys):
    raw = queries @ keys.T
    return float(raw.var(axis=0).mean())
''',
    "uncatalogued:mean_square_not_centred": '''
def score_variance(queries, keys):
    raw = queries @ keys.T
    return float(np.mean(raw ** 2))
''',
    "variance_from_formula:theoretical_formula": '''
def score_variance(queries, keys):
    return float(queries.shape[1] * np.var(queries) * np.var(keys))
''',
}
VARIANTS["score_variance"] = {
    "by_hand": '''
def score_variance(queries, keys):
    raw = np.dot(queries, keys.T)
    return float(((raw - raw.mean()) ** 2).mean())
''',
    "einsum": '''
def score_variance(queries, keys):
    raw = np.einsum("qd,kd->qk", queries, keys)
    return float(raw.var())
''',
    "flattened_list": '''
def score_variance(queries, keys):
    dots = [float(q @ k) for q in queries for k in keys]
    return float(np.var(np.array(dots)))
''',
}

# --------------------------------------------------------------------------- width_sweep
MISTAKES["width_sweep"] = {
    "width_scale_fixed": '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w] @ keys[:, :w].T / np.sqrt(w))
    return np.stack(out)
''',
    "width_scale_full": '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w] @ keys[:, :w].T / float(keys.shape[-1]) ** power)
    return np.stack(out)
''',
    "width_last_columns": '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, -w:] @ keys[:, -w:].T / float(w) ** power)
    return np.stack(out)
''',
    "loop_leftover": '''
def width_sweep(queries, keys, widths, power):
    out = np.zeros((len(widths), queries.shape[0], keys.shape[0]), dtype=queries.dtype)
    for i in range(len(widths) - 1):
        w = widths[i]
        out[i] = queries[:, :w] @ keys[:, :w].T / float(w) ** power
    return out
''',
    "keys_without_transpose": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w] / float(w) ** power for w in widths])
''',
    "integer_arithmetic:buffer_like_widths": '''
def width_sweep(queries, keys, widths, power):
    out = np.zeros((len(widths), len(queries), len(keys)), dtype=widths.dtype)
    for i, w in enumerate(widths):
        out[i] = queries[:, :w] @ keys[:, :w].T / float(w) ** power
    return out
''',
    "uncatalogued:multiplied_by_power": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([(queries[:, :w] @ keys[:, :w].T) * float(w) ** power for w in widths])
''',
    "uncatalogued:first_w_rows": '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:w] @ keys[:w].T / float(w) ** power)
    return np.stack(out)
''',
    "uncatalogued:widths_on_last_axis": '''
def width_sweep(queries, keys, widths, power):
    out = [queries[:, :w] @ keys[:, :w].T / float(w) ** power for w in widths]
    return np.stack(out, axis=-1)
''',
    "uncatalogued:float64_buffer": '''
def width_sweep(queries, keys, widths, power):
    out = np.zeros((len(widths), queries.shape[0], keys.shape[0]))
    for i, w in enumerate(widths):
        out[i] = queries[:, :w] @ keys[:, :w].T / float(w) ** power
    return out
''',
}
VARIANTS["width_sweep"] = {
    "einsum_comprehension": '''
def width_sweep(queries, keys, widths, power):
    return np.array([np.einsum("qd,kd->qk", queries[:, :w], keys[:, :w]) / float(w) ** power
                     for w in widths])
''',
    "cumulative_products": '''
def width_sweep(queries, keys, widths, power):
    partial = np.cumsum(queries[:, None, :] * keys[None, :, :], axis=-1)  # (n_q, n_k, d_max)
    chosen = np.moveaxis(partial[..., np.asarray(widths) - 1], -1, 0)  # (n_widths, n_q, n_k)
    divisors = np.array([float(w) ** power for w in widths], dtype=queries.dtype)
    return chosen / divisors[:, None, None]
''',
    "preallocated": '''
def width_sweep(queries, keys, widths, power):
    out = np.empty((len(widths), queries.shape[0], keys.shape[0]), dtype=queries.dtype)
    for i, w in enumerate(widths):
        out[i] = np.dot(queries[:, :w], keys[:, :w].T) / float(w) ** power
    return out
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
    "softmax_over_all_entries": '''
def attention_entropy(scores):
    from scipy.special import log_softmax
    log_p = log_softmax(scores)
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
    "softmax_wrong_axis": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=0, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=0, keepdims=True))
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
    shifted = s - s.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
    "uncatalogued:log_base_2": '''
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
    "uncatalogued:global_max": '''
def attention_entropy(scores):
    shifted = scores - np.max(scores)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
    "uncatalogued:mean_instead_of_sum": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).mean(axis=-1)
''',
}
VARIANTS["attention_entropy"] = {
    "scipy_log_softmax": '''
def attention_entropy(scores):
    from scipy.special import log_softmax
    log_p = log_softmax(scores, axis=-1)
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
''',
    "xlogy": '''
def attention_entropy(scores):
    from scipy.special import xlogy
    p = softmax(scores, axis=-1)
    return -xlogy(p, p).sum(axis=-1)
''',
    "logsumexp": '''
def attention_entropy(scores):
    from scipy.special import logsumexp
    log_p = scores - logsumexp(scores, axis=-1, keepdims=True)
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
}

# --------------------------------------------------------------------------- softmax_jacobian
MISTAKES["softmax_jacobian"] = {
    "jacobian_diagonal_only": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p)
''',
    "jacobian_diagonal_only:p_times_one_minus_p": '''
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
    "no_softmax": '''
def softmax_jacobian(scores):
    return np.diag(scores) - np.outer(scores, scores)
''',
    "normalise_by_sum": '''
def softmax_jacobian(scores):
    p = scores / scores.sum()
    return np.diag(p) - np.outer(p, p)
''',
    "lower_precision:float32": '''
def softmax_jacobian(scores):
    p = softmax(scores.astype(np.float32))
    return np.diag(p) - np.outer(p, p)
''',
    "loop_leftover": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    n = len(p)
    jac = np.zeros((n, n), dtype=p.dtype)
    for i in range(n - 1):
        for j in range(n):
            jac[i, j] = p[i] * ((i == j) - p[j])
    return jac
''',
    "jacobian_identity_for_diagonal:identity_minus_outer": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.eye(len(p)) - np.outer(p, p)
''',
    "jacobian_inner_product:inner_instead_of_outer": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p @ p
''',
    "jacobian_outer_product_added:outer_added": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) + np.outer(p, p)
''',
}
VARIANTS["softmax_jacobian"] = {
    "broadcast": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return p[:, None] * (np.eye(len(p), dtype=p.dtype) - p[None, :])
''',
    "diagflat_column_row": '''
def softmax_jacobian(scores):
    p = softmax(scores - np.max(scores))
    return np.diagflat(p) - p[:, None] @ p[None, :]
''',
    "loops": '''
def softmax_jacobian(scores):
    shifted = scores - scores.max()
    p = np.exp(shifted) / np.exp(shifted).sum()
    n = p.shape[0]
    jac = np.empty((n, n), dtype=p.dtype)
    for i in range(n):
        for j in range(n):
            jac[i, j] = p[i] * (1 - p[j]) if i == j else -p[i] * p[j]
    return jac
''',
}

# --------------------------------------------------------------------------- gradient_norms
MISTAKES["gradient_norms"] = {
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
    "jacobian_diagonal_only": '''
def gradient_norms(scores):
    norms = []
    for row in scores:
        p = softmax(row)
        norms.append(np.linalg.norm(np.diag(p)))
    return np.array(norms)
''',
    "softmax_no_max_subtraction": '''
def gradient_norms(scores):
    norms = []
    for row in scores:
        p = np.exp(row) / np.exp(row).sum()
        norms.append(np.linalg.norm(np.diag(p) - np.outer(p, p)))
    return np.array(norms)
''',
    "loop_leftover": '''
def gradient_norms(scores):
    norms = np.zeros(scores.shape[0], dtype=scores.dtype)
    for i in range(scores.shape[0] - 1):
        norms[i] = np.linalg.norm(softmax_jacobian(scores[i]))
    return norms
''',
    "softmax_wrong_axis:columns": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(column)) for column in scores.T])
''',
    "lower_precision:float32": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row.astype(np.float32))) for row in scores])
''',
    "uncatalogued:mean_of_norms": '''
def gradient_norms(scores):
    return np.mean([np.linalg.norm(softmax_jacobian(row)) for row in scores])
''',
    "uncatalogued:nuclear_norm": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), ord="nuc") for row in scores])
''',
}
VARIANTS["gradient_norms"] = {
    "vectorised": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    eye = np.eye(scores.shape[-1], dtype=p.dtype)
    jac = p[:, :, None] * (eye - p[:, None, :])
    return np.sqrt((jac ** 2).sum(axis=(-2, -1)))
''',
    "fro_keyword": '''
def gradient_norms(scores):
    out = []
    for i in range(len(scores)):
        out.append(np.linalg.norm(softmax_jacobian(scores[i]), ord="fro"))
    return np.array(out)
''',
    "norm_over_stack_axes": '''
def gradient_norms(scores):
    jacobians = np.stack([softmax_jacobian(row) for row in scores])
    return np.linalg.norm(jacobians, axis=(1, 2))
''',
}
