"""Learner-style answers for notebook 04: one catalogued mistake each, or a correct variant.

Keys: the exercise's solution cell (grade_id), then the mistake id (from
attention_course.mistakes) or a variant's name. Values: what a learner types into that cell.
Run by ``python3 tasks.py accuracy`` and tests/test_accuracy.py.

scaled_scores has no scale_applied_twice case: dividing by sqrt(d_k) twice is dividing by d_k,
the scale_by_d_k case. scaled_self_attention, whose scaled_scores is replaced by the reference
during its check, has the scale_applied_twice case (scaled_scores, then another division), which
for the same reason stands for scale_by_d_k there.
"""

MISTAKES = {
    "scaled_scores": {
        "no_scaling": """
def scaled_scores(queries, keys):
    return queries @ keys.T
""",
        "scale_by_d_k": """
def scaled_scores(queries, keys):
    d_k = keys.shape[-1]
    return queries @ keys.T / d_k
""",
        "scale_by_sqrt_tokens": """
def scaled_scores(queries, keys):
    return queries @ keys.T / np.sqrt(len(keys))
""",
        "keys_without_transpose": """
def scaled_scores(queries, keys):
    return np.matmul(queries, keys) / np.sqrt(keys.shape[-1])
""",
        "keys_times_queries": """
def scaled_scores(queries, keys):
    return keys @ queries.T / np.sqrt(keys.shape[-1])
""",
        "changes_inputs_in_place": """
def scaled_scores(queries, keys):
    queries /= np.sqrt(keys.shape[-1])
    return queries @ keys.T
""",
    },
    "scaled_self_attention": {
        "scale_by_sqrt_d_model": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    dimension = inputs.shape[1]
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scores = queries @ keys.T / np.sqrt(dimension)
    return softmax(scores, axis=-1) @ values
""",
        "no_scaling": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    return softmax(queries @ keys.T, axis=-1) @ values
""",
        "scale_applied_twice": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scores = scaled_scores(queries, keys) / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
""",
        "scale_by_sqrt_tokens": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    n_tokens = inputs.shape[0]
    return softmax(queries @ keys.T / np.sqrt(n_tokens), axis=-1) @ values
""",
        "keys_without_transpose": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    return softmax(queries @ keys / np.sqrt(keys.shape[-1]), axis=-1) @ values
""",
        "keys_times_queries": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    return softmax(scaled_scores(keys, queries), axis=-1) @ values
""",
        "softmax_wrong_axis": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    return softmax(scaled_scores(queries, keys), axis=0) @ values
""",
        "softmax_over_all_entries": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    return softmax(scaled_scores(queries, keys)) @ values
""",
        "softmax_no_max_subtraction": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    exps = np.exp(scaled_scores(queries, keys))
    weights = exps / exps.sum(axis=1, keepdims=True)
    return weights @ values
""",
        "normalise_by_sum": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scores = scaled_scores(queries, keys)
    return (scores / scores.sum(axis=-1, keepdims=True)) @ values
""",
        "weights_times_scores": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scores = scaled_scores(queries, keys)
    return softmax(scores, axis=-1) @ scores
""",
        "returns_weights": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys = inputs @ w_query, inputs @ w_key
    return softmax(scaled_scores(queries, keys), axis=-1)
""",
        "mixed_up_projections": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_value, inputs @ w_key
    return softmax(scaled_scores(queries, keys), axis=-1) @ values
""",
        "changes_inputs_in_place": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    w_query /= np.sqrt(w_key.shape[1])  # fold the scale into W_Q
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    return softmax(queries @ keys.T, axis=-1) @ values
""",
    },
    "score_variance": {
        "std_instead_of_variance": """
def score_variance(queries, keys):
    return float(np.std(queries @ keys.T))
""",
        "scaled_too_early": """
def score_variance(queries, keys):
    scores = queries @ keys.T / np.sqrt(keys.shape[-1])
    return scores.var()
""",
        "keys_without_transpose": """
def score_variance(queries, keys):
    return np.var(queries @ keys)
""",
        "sum_instead_of_dot": """
def score_variance(queries, keys):
    return np.var(queries * keys)
""",
    },
    "attention_entropy": {
        "softmax_no_max_subtraction": """
def attention_entropy(scores):
    p = np.exp(scores) / np.exp(scores).sum(axis=-1, keepdims=True)
    return -(p * np.log(p)).sum(axis=-1)
""",
        "entropy_nan_for_zero_weights": """
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -np.sum(p * np.log(p), axis=-1)
""",
        "softmax_wrong_axis": """
def attention_entropy(scores):
    shifted = scores - scores.max(axis=0)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=0))
    return -(np.exp(log_p) * log_p).sum(axis=0)
""",
        "softmax_over_all_entries": """
def attention_entropy(scores):
    p = softmax(scores)
    return -(p * np.log(p)).sum(axis=-1)
""",
    },
    "softmax_jacobian": {
        "jacobian_diagonal_only": """
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p * (1 - p))
""",
        "jacobian_sign_flipped": """
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.outer(p, p) - np.diag(p)
""",
        "softmax_no_max_subtraction": """
def softmax_jacobian(scores):
    p = np.exp(scores) / np.sum(np.exp(scores))
    return np.diag(p) - np.outer(p, p)
""",
    },
}

VARIANTS = {
    "scaled_scores": {
        "dot_transpose": """
def scaled_scores(queries, keys):
    return np.dot(queries, keys.T) / np.sqrt(keys.shape[1])
""",
        "einsum": """
def scaled_scores(queries, keys):
    return np.einsum("qd,kd->qk", queries, keys) / keys.shape[-1] ** 0.5
""",
        "scale_queries_first": """
def scaled_scores(queries, keys):
    return (queries / np.sqrt(keys.shape[-1])) @ keys.T
""",
        "loops": """
def scaled_scores(queries, keys):
    d_k = keys.shape[-1]
    out = np.zeros((len(queries), len(keys)))
    for i, q in enumerate(queries):
        for j, k in enumerate(keys):
            out[i, j] = np.dot(q, k) / np.sqrt(d_k)
    return out
""",
        "float32": """
def scaled_scores(queries, keys):
    q, k = queries.astype(np.float32), keys.astype(np.float32)
    return q @ k.T / np.float32(np.sqrt(k.shape[-1]))
""",
    },
    "scaled_self_attention": {
        "hand_written_softmax": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scores = queries @ keys.T / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True) @ values
""",
        "scipy_special": """
import scipy.special

def scaled_self_attention(inputs, w_query, w_key, w_value):
    q, k, v = inputs @ w_query, inputs @ w_key, inputs @ w_value
    return scipy.special.softmax(q @ k.T / np.sqrt(k.shape[1]), axis=1) @ v
""",
        "einsum": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    q = np.einsum("td,dk->tk", inputs, w_query)
    k = np.einsum("td,dk->tk", inputs, w_key)
    v = np.einsum("td,dv->tv", inputs, w_value)
    weights = softmax(np.einsum("ik,jk->ij", q, k) / np.sqrt(k.shape[-1]), axis=-1)
    return np.einsum("ij,jv->iv", weights, v)
""",
        "loops": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    out = []
    for q in queries:
        s = np.array([q @ k for k in keys]) / np.sqrt(keys.shape[-1])
        w = np.exp(s - s.max())
        w /= w.sum()
        out.append(sum(w_j * v_j for w_j, v_j in zip(w, values)))
    return np.array(out)
""",
        "float32": """
def scaled_self_attention(inputs, w_query, w_key, w_value):
    x = inputs.astype(np.float32)
    q, k, v = (x @ w.astype(np.float32) for w in (w_query, w_key, w_value))
    return softmax(q @ k.T / np.float32(np.sqrt(k.shape[-1])), axis=-1).astype(np.float32) @ v
""",
    },
    "score_variance": {
        "method": """
def score_variance(queries, keys):
    return (queries @ keys.T).var()
""",
        "by_hand": """
def score_variance(queries, keys):
    raw = queries @ keys.T
    return float(((raw - raw.mean()) ** 2).mean())
""",
        "einsum_numpy_scalar": """
def score_variance(queries, keys):
    return np.var(np.einsum("qd,kd->qk", queries, keys))
""",
        "loops": """
def score_variance(queries, keys):
    dots = [float(np.dot(q, k)) for q in queries for k in keys]
    mean = sum(dots) / len(dots)
    return sum((d - mean) ** 2 for d in dots) / len(dots)
""",
    },
    "attention_entropy": {
        "log_softmax": """
from scipy.special import log_softmax

def attention_entropy(scores):
    log_p = log_softmax(scores, axis=-1)
    return -np.sum(np.exp(log_p) * log_p, axis=-1)
""",
        "scipy_entr": """
from scipy.special import entr

def attention_entropy(scores):
    return entr(softmax(scores, axis=-1)).sum(axis=-1)
""",
        "xlogy": """
from scipy.special import xlogy

def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    return -xlogy(p, p).sum(axis=-1)
""",
        "logsumexp_identity": """
from scipy.special import logsumexp

def attention_entropy(scores):
    # H = logsumexp(s) - sum p s
    p = softmax(scores, axis=-1)
    return logsumexp(scores, axis=-1) - (p * scores).sum(axis=-1)
""",
        "where_guard": """
def attention_entropy(scores):
    p = softmax(scores, axis=-1)
    terms = np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0)
    return -terms.sum(axis=-1)
""",
        "float64_inside": """
def attention_entropy(scores):
    s = np.asarray(scores, dtype=np.float64)
    shifted = s - s.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return -(np.exp(log_p) * log_p).sum(axis=-1)
""",
    },
    "softmax_jacobian": {
        "loops": """
def softmax_jacobian(scores):
    p = softmax(scores)
    n = len(p)
    jacobian = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            jacobian[i, j] = p[i] * ((i == j) - p[j])
    return jacobian
""",
        "einsum": """
def softmax_jacobian(scores):
    p = softmax(scores)
    return np.diag(p) - np.einsum("i,j->ij", p, p)
""",
        "hand_written_softmax": """
def softmax_jacobian(scores):
    e = np.exp(scores - np.max(scores))
    p = e / e.sum()
    return np.diagflat(p) - p[:, None] * p[None, :]
""",
        "identity_form": """
def softmax_jacobian(scores):
    p = softmax(scores)
    return p[:, None] * (np.eye(len(p)) - p[None, :])
""",
        "float32": """
def softmax_jacobian(scores):
    p = softmax(scores.astype(np.float32)).astype(np.float32)
    return np.diag(p) - np.outer(p, p)
""",
    },
}
