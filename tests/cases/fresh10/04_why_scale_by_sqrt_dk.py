"""Tenth fresh set, notebook 04: why scale by sqrt(d_k)."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}

# --------------------------------------------------------------------------- score_variance
MISTAKES["score_variance"] = {
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
    "lower_precision:float16": '''
def score_variance(queries, keys):
    raw = (queries @ keys.T).astype(np.float16)
    return float(raw.var())
''',
    "sum_instead_of_dot:elementwise_products": '''
def score_variance(queries, keys):
    products = queries[:, None, :] * keys[None, :, :]
    return float(np.var(products))
''',
    "uncatalogued:sample_variance": '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, ddof=1))
''',
    "uncatalogued:mean_of_row_variances": '''
def score_variance(queries, keys):
    raw = queries @ keys.T
    return float(np.var(raw, axis=1).mean())
''',
    "uncatalogued:mean_square_not_centred": '''
def score_variance(queries, keys):
    raw = queries @ keys.T
    return float(np.mean(raw ** 2))
''',
}
VARIANTS["score_variance"] = {
    "einsum_ravel": '''
def score_variance(queries, keys):
    raw = np.einsum("qd,kd->qk", queries, keys).ravel()
    return float(np.var(raw))
''',
    "by_hand": '''
def score_variance(queries, keys):
    raw = np.matmul(queries, keys.T)
    return float(((raw - raw.mean()) ** 2).mean())
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
    d_max = keys.shape[-1]
    return np.stack([queries[:, :w] @ keys[:, :w].T / d_max ** power for w in widths])
''',
    "width_last_columns": '''
def width_sweep(queries, keys, widths, power):
    stack = []
    for w in widths:
        stack.append(queries[:, -w:] @ keys[:, -w:].T / float(w) ** power)
    return np.stack(stack)
''',
    "loop_leftover:last_width_unfilled": '''
def width_sweep(queries, keys, widths, power):
    out = np.zeros((len(widths), queries.shape[0], keys.shape[0]), dtype=queries.dtype)
    for i in range(len(widths) - 1):
        w = widths[i]
        out[i] = queries[:, :w] @ keys[:, :w].T / w ** power
    return out
''',
    "keys_without_transpose": '''
def width_sweep(queries, keys, widths, power):
    stack = []
    for w in widths:
        stack.append(queries[:, :w] @ keys[:, :w] / float(w) ** power)
    return np.stack(stack)
''',
    "uncatalogued:divided_by_w_times_power": '''
def width_sweep(queries, keys, widths, power):
    stack = []
    for w in widths:
        stack.append(queries[:, :w] @ keys[:, :w].T / (w * power))
    return np.stack(stack)
''',
    "uncatalogued:widths_on_last_axis": '''
def width_sweep(queries, keys, widths, power):
    stack = [queries[:, :w] @ keys[:, :w].T / float(w) ** power for w in widths]
    return np.stack(stack, axis=-1)
''',
    "uncatalogued:root_raised_to_power": '''
def width_sweep(queries, keys, widths, power):
    stack = []
    for w in widths:
        stack.append(queries[:, :w] @ keys[:, :w].T / np.sqrt(float(w)) ** power)
    return np.stack(stack)
''',
}
VARIANTS["width_sweep"] = {
    "comprehension_array": '''
def width_sweep(queries, keys, widths, power):
    return np.array([np.dot(queries[:, :w], keys[:, :w].T) / float(w) ** power for w in widths])
''',
    "preallocated": '''
def width_sweep(queries, keys, widths, power):
    out = np.empty((len(widths), len(queries), len(keys)), dtype=np.result_type(queries, keys))
    for i, w in enumerate(widths):
        out[i] = queries[:, :w] @ keys[:, :w].T / float(w) ** power
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
    "softmax_wrong_axis": '''
def attention_entropy(scores):
    from scipy.special import log_softmax
    log_p = log_softmax(scores, axis=0)
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
    "softmax_no_max_subtraction": '''
def attention_entropy(scores):
    log_p = scores - np.log(np.exp(scores).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
    "softmax_over_all_entries": '''
def attention_entropy(scores):
    from scipy.special import logsumexp
    log_p = scores - logsumexp(scores)
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
    "changes_inputs_in_place": '''
def attention_entropy(scores):
    scores -= scores.max(axis=-1, keepdims=True)
    log_p = scores - np.log(np.exp(scores).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
    "uncatalogued:log2_bits": '''
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
    "uncatalogued:summed_over_every_row": '''
def attention_entropy(scores):
    shifted = scores - scores.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum()
''',
}
VARIANTS["attention_entropy"] = {
    "scipy_log_softmax": '''
from scipy.special import log_softmax


def attention_entropy(scores):
    log_p = log_softmax(scores, axis=-1)
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
''',
    "logsumexp_identity": '''
def attention_entropy(scores):
    shifted = scores - np.max(scores, axis=-1, keepdims=True)
    log_z = np.log(np.sum(np.exp(shifted), axis=-1))
    p = softmax(shifted, axis=-1)
    return log_z - np.sum(p * shifted, axis=-1)
''',
}

# --------------------------------------------------------------------------- softmax_jacobian
MISTAKES["softmax_jacobian"] = {
    "jacobian_diagonal_only": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p)
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
    "softmax_no_max_subtraction": '''
def softmax_jacobian(scores):
    p = np.exp(scores) / np.exp(scores).sum()
    return np.diag(p) - np.outer(p, p)
''',
    "lower_precision:float32_softmax": '''
def softmax_jacobian(scores):
    p = softmax(scores.astype(np.float32))
    return np.diag(p) - np.outer(p, p)
''',
    "jacobian_inner_product:inner_instead_of_outer": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p @ p.T
''',
    "jacobian_inner_product:broadcast_on_wrong_axis": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return (np.eye(len(p)) - p) * p
''',
}
VARIANTS["softmax_jacobian"] = {
    "identity_form": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return p[:, None] * (np.eye(len(p), dtype=p.dtype) - p[None, :])
''',
    "diagflat_matmul": '''
def softmax_jacobian(scores):
    e = np.exp(scores - scores.max())
    p = e / e.sum()
    return np.diagflat(p) - p[:, None] @ p[None, :]
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
    weights = softmax(scores, axis=-1)
    return np.linalg.norm(weights, axis=-1)
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
    "softmax_wrong_axis": '''
def gradient_norms(scores):
    p = softmax(scores, axis=0)
    norms = []
    for row in p:
        norms.append(np.linalg.norm(np.diag(row) - np.outer(row, row)))
    return np.array(norms)
''',
    "jacobian_diagonal_only:diag_of_weights": '''
def gradient_norms(scores):
    norms = []
    for row in scores:
        norms.append(np.linalg.norm(np.diag(softmax(row))))
    return np.array(norms)
''',
    "loop_leftover:last_row_missing": '''
def gradient_norms(scores):
    norms = np.zeros(scores.shape[0], dtype=scores.dtype)
    for i in range(scores.shape[0] - 1):
        norms[i] = np.linalg.norm(softmax_jacobian(scores[i]))
    return norms
''',
    "uncatalogued:one_norm_per_key": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(column)) for column in scores.T])
''',
}
VARIANTS["gradient_norms"] = {
    "vectorised": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    eye = np.eye(p.shape[-1], dtype=p.dtype)
    jacobians = p[:, :, None] * (eye - p[:, None, :])
    return np.linalg.norm(jacobians, axis=(-2, -1))
''',
    "closed_form": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    s2 = (p ** 2).sum(axis=-1)
    return np.sqrt(np.maximum(s2 - 2 * (p ** 3).sum(axis=-1) + s2 ** 2, 0))
''',
}
