"""Fifth fresh set, notebook 04 (NumPy): what a learner types into each solution cell."""

MISTAKES = {
    "score_variance": {
        "std_instead_of_variance": '''
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
''',
        "scaled_too_early": '''
def score_variance(queries, keys):
    scores = queries @ keys.T / np.sqrt(keys.shape[1])
    return float(scores.var())
''',
        "keys_without_transpose": '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys))
''',
        "sum_instead_of_dot:products_not_summed": '''
def score_variance(queries, keys):
    products = queries[:, None, :] * keys[None, :, :]
    return float(np.var(products))
''',
        "lower_precision:float16": '''
def score_variance(queries, keys):
    raw = (queries @ keys.T).astype(np.float16)
    return float(np.var(raw))
''',
        "returns_scores": '''
def score_variance(queries, keys):
    raw = queries @ keys.T
    variance = np.var(raw)
    return raw
''',
        "uncatalogued:ddof_one": '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, ddof=1))
''',
        "uncatalogued:mean_of_row_variances": '''
def score_variance(queries, keys):
    return float(np.var(queries @ keys.T, axis=1).mean())
''',
        "variance_from_formula:theory_formula": '''
def score_variance(queries, keys):
    return float(queries.shape[1] * np.var(queries) * np.var(keys))
''',
        "uncatalogued:mean_square": '''
def score_variance(queries, keys):
    raw = queries @ keys.T
    return float(np.mean(raw ** 2))
''',
    },
    "width_sweep": {
        "width_scale_fixed": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / np.sqrt(w) for w in widths])
''',
        "width_scale_full": '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w] @ keys[:, :w].T / keys.shape[-1] ** power)
    return np.stack(out)
''',
        "width_last_columns": '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, -w:] @ keys[:, -w:].T / float(w) ** power)
    return np.stack(out)
''',
        "keys_without_transpose": '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w] @ keys[:, :w] / float(w) ** power)
    return np.stack(out)
''',
        "keys_times_queries": '''
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(keys[:, :w] @ queries[:, :w].T / float(w) ** power)
    return np.stack(out)
''',
        "integer_arithmetic:buffer_of_widths_dtype": '''
def width_sweep(queries, keys, widths, power):
    result = np.zeros((len(widths), queries.shape[0], keys.shape[0]), dtype=widths.dtype)
    for i, w in enumerate(widths):
        result[i] = queries[:, :w] @ keys[:, :w].T / w ** power
    return result
''',
        "loop_leftover:last_width": '''
def width_sweep(queries, keys, widths, power):
    result = np.zeros((len(widths), queries.shape[0], keys.shape[0]), dtype=queries.dtype)
    for i in range(len(widths) - 1):
        w = widths[i]
        result[i] = queries[:, :w] @ keys[:, :w].T / float(w) ** power
    return result
''',
        "lower_precision:float16": '''
def width_sweep(queries, keys, widths, power):
    q, k = queries.astype(np.float16), keys.astype(np.float16)
    return np.stack([q[:, :w] @ k[:, :w].T / float(w) ** power for w in widths]).astype(queries.dtype)
''',
        "uncatalogued:multiplied": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T * float(w) ** power for w in widths])
''',
        "uncatalogued:divided_then_times_power": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w] @ keys[:, :w].T / float(w) * power for w in widths])
''',
        "width_slice_off_by_one:slice_one_short": '''
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, :w - 1] @ keys[:, :w - 1].T / float(w) ** power for w in widths])
''',
    },
    "attention_entropy": {
        "entropy_nan_for_zero_weights": '''
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(p * np.log(p), axis=-1)
''',
        "softmax_no_max_subtraction:log_softmax_unshifted": '''
def attention_entropy(scores):
    log_p = scores - np.log(np.exp(scores).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
        "uncatalogued:global_max": '''
def attention_entropy(scores):
    shifted = scores - scores.max()
    log_p = shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
''',
        "softmax_wrong_axis:axis0": '''
from scipy.special import log_softmax

def attention_entropy(scores):
    log_p = log_softmax(scores, axis=0)
    return -(np.exp(log_p) * log_p).sum(axis=-1)
''',
        "softmax_over_all_entries:scipy_no_axis": '''
from scipy.special import log_softmax

def attention_entropy(scores):
    log_p = log_softmax(scores)
    return -(softmax(scores) * log_p).sum(axis=-1)
''',
        "uncatalogued:log2": '''
from scipy.special import log_softmax

def attention_entropy(scores):
    log_p = log_softmax(scores, axis=-1)
    return -(np.exp(log_p) * log_p / np.log(2)).sum(axis=-1)
''',
        "uncatalogued:minus_sign_missing": '''
from scipy.special import log_softmax

def attention_entropy(scores):
    log_p = log_softmax(scores, axis=-1)
    return np.sum(np.exp(log_p) * log_p, axis=-1)
''',
        "uncatalogued:summed_over_queries": '''
from scipy.special import log_softmax

def attention_entropy(scores):
    log_p = log_softmax(scores, axis=-1)
    return -(np.exp(log_p) * log_p).sum(axis=0)
''',
        "lower_precision:float16_weights": '''
from scipy.special import log_softmax

def attention_entropy(scores):
    log_p = log_softmax(scores, axis=-1)
    p = np.exp(log_p).astype(np.float16)
    return -(p * log_p).sum(axis=-1)
''',
        "changes_inputs_in_place": '''
def attention_entropy(scores):
    scores -= scores.max(axis=-1, keepdims=True)
    log_p = scores - np.log(np.exp(scores).sum(axis=-1, keepdims=True))
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
        "jacobian_inner_product:inner_not_outer": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - np.dot(p, p)
''',
        "jacobian_inner_product:p_squared_broadcast": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - p ** 2
''',
        "jacobian_identity_for_diagonal:missing_p_factor": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.eye(len(p)) - p[:, None]
''',
        "loop_leftover:last_row": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    n = len(p)
    J = np.zeros((n, n), dtype=p.dtype)
    for i in range(n - 1):
        for j in range(n):
            J[i, j] = p[i] * ((i == j) - p[j])
    return J
''',
        "lower_precision:float32": '''
def softmax_jacobian(scores):
    p = softmax(scores.astype(np.float32))
    return np.diag(p) - np.outer(p, p)
''',
        "changes_inputs_in_place": '''
def softmax_jacobian(scores):
    scores -= scores.max()
    e = np.exp(scores)
    p = e / e.sum()
    return np.diag(p) - np.outer(p, p)
''',
    },
    "gradient_norms": {
        "gradient_norm_squared": '''
def gradient_norms(scores):
    return np.array([np.sum(softmax_jacobian(row) ** 2) for row in scores])
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
    return np.array([np.linalg.norm(softmax_jacobian(s), ord=2) for s in scores])
''',
        "uncatalogued:ord_one": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(s), 1) for s in scores])
''',
        "jacobian_diagonal_only": '''
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    return np.sqrt(np.sum((p * (1 - p)) ** 2, axis=-1))
''',
        "loop_leftover:last_query": '''
def gradient_norms(scores):
    norms = np.zeros(len(scores), dtype=scores.dtype)
    for i in range(len(scores) - 1):
        norms[i] = np.linalg.norm(softmax_jacobian(scores[i]))
    return norms
''',
        "softmax_wrong_axis:axis0": '''
def gradient_norms(scores):
    P = softmax(scores, axis=0)
    return np.array([np.linalg.norm(np.diag(p) - np.outer(p, p)) for p in P])
''',
        "softmax_no_max_subtraction": '''
def gradient_norms(scores):
    out = []
    for row in scores:
        p = np.exp(row) / np.exp(row).sum()
        out.append(np.linalg.norm(np.diag(p) - np.outer(p, p)))
    return np.array(out)
''',
        "uncatalogued:norm_per_column": '''
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(row), axis=0) for row in scores])
''',
    },
}

VARIANTS = {
    "score_variance": {
        "by_hand": '''
def score_variance(queries, keys):
    s = np.einsum("id,jd->ij", queries, keys)
    centred = s - s.mean()
    return float((centred ** 2).mean())
''',
        "flattened": '''
def score_variance(queries, keys):
    scores = np.dot(queries, keys.T).ravel()
    return float(np.var(scores))
''',
    },
    "width_sweep": {
        "preallocated_einsum": '''
def width_sweep(queries, keys, widths, power):
    out = np.empty((len(widths), len(queries), len(keys)), dtype=np.result_type(queries, keys))
    for i, w in enumerate(widths):
        w = int(w)
        out[i] = np.einsum("qd,kd->qk", queries[:, :w], keys[:, :w]) / w ** power
    return out
''',
        "cumulative_sums": '''
def width_sweep(queries, keys, widths, power):
    partial = np.cumsum(queries[:, None, :] * keys[None, :, :], axis=-1)  # (n_q, n_k, d_max)
    return np.stack([partial[:, :, int(w) - 1] / float(w) ** power for w in widths])
''',
    },
    "attention_entropy": {
        "entr": '''
from scipy.special import entr

def attention_entropy(scores):
    return entr(softmax(scores, axis=-1)).sum(axis=-1)
''',
        "logsumexp": '''
from scipy.special import logsumexp

def attention_entropy(scores):
    log_p = scores - logsumexp(scores, axis=-1, keepdims=True)
    p = np.exp(log_p)
    return -np.einsum("...k,...k->...", p, log_p)
''',
    },
    "softmax_jacobian": {
        "broadcast_eye": '''
def softmax_jacobian(scores):
    e = np.exp(scores - np.max(scores))
    p = e / e.sum()
    return p[:, None] * (np.eye(len(p), dtype=p.dtype) - p[None, :])
''',
        "double_loop": '''
def softmax_jacobian(scores):
    p = softmax(scores)
    n = p.shape[0]
    J = np.empty((n, n), dtype=p.dtype)
    for i in range(n):
        for j in range(n):
            J[i, j] = p[i] * (1 - p[i]) if i == j else -p[i] * p[j]
    return J
''',
    },
    "gradient_norms": {
        "batched_jacobians": '''
def gradient_norms(scores):
    P = softmax(scores, axis=-1)
    eye = np.eye(P.shape[-1], dtype=P.dtype)
    J = P[:, :, None] * eye - P[:, :, None] * P[:, None, :]
    return np.sqrt((J ** 2).sum(axis=(1, 2)))
''',
        "list_of_frobenius": '''
def gradient_norms(scores):
    norms = [np.linalg.norm(softmax_jacobian(scores[i]), ord="fro") for i in range(scores.shape[0])]
    return np.array(norms)
''',
    },
}
