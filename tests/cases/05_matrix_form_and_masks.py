"""Learner-style answers for notebook 05: one catalogued mistake each, or a correct variant.

Keys: the exercise's solution cell (grade_id), then the mistake id (from
attention_course.mistakes) or a variant's name. Values: what a learner types into that cell.
Run by ``python3 tasks.py accuracy`` and tests/test_accuracy.py.
"""

MISTAKES = {
    "batched_attention": {
        "keys_transpose_all_axes": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores) @ values
""",
        "keys_without_transpose": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores) @ values
""",
        "keys_times_queries": """
def batched_attention(queries, keys, values, scale=True):
    scores = keys @ np.swapaxes(queries, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores) @ values
""",
        "no_scaling": """
def batched_attention(queries, keys, values, scale=True):
    return softmax(queries @ np.swapaxes(keys, -1, -2)) @ values
""",
        "scale_by_d_k": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / keys.shape[-1]
    return softmax(scores) @ values
""",
        "scale_by_sqrt_tokens": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-2])
    return softmax(scores) @ values
""",
        "softmax_wrong_axis": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-2) @ values
""",
        "softmax_over_all_entries": """
from scipy.special import softmax as scipy_softmax

def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy_softmax(scores) @ values
""",
        "softmax_no_max_subtraction": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    exps = np.exp(scores)
    return exps / exps.sum(axis=-1, keepdims=True) @ values
""",
        "weights_times_scores": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores) @ scores
""",
        "returns_weights": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores)
""",
        "weights_transposed": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return np.swapaxes(softmax(scores), -1, -2) @ values
""",
        "loop_leftover": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    weights = softmax(scores)
    output = np.zeros(queries.shape[:-1] + values.shape[-1:])
    output[..., 0, :] = weights[..., 0, :] @ values  # steps 6 and 7 for the first row only
    return output
""",
    },
    "causal_mask": {
        "causal_mask_off_by_one": """
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
""",
        "causal_mask_upper": """
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
""",
        "mask_wrong_sign": """
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
""",
    },
    "masked_attention": {
        "mask_transposed": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(np.where(np.swapaxes(mask, -1, -2), scores, -np.inf)) @ values
""",
        "mask_finite_value": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(np.where(mask, scores, -1e4)) @ values
""",
        "mask_after_softmax": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return (softmax(scores) * mask) @ values
""",
        "mask_wrong_sign": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(np.where(mask, -np.inf, scores)) @ values
""",
        "mask_with_zero": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(scores * mask) @ values
""",
        "no_scaling": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2)
    return softmax(np.where(mask, scores, -np.inf)) @ values
""",
        "softmax_wrong_axis": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(np.where(mask, scores, -np.inf), axis=-2) @ values
""",
        "keys_transpose_all_axes": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ keys.T / np.sqrt(keys.shape[-1])
    return softmax(np.where(mask, scores, -np.inf)) @ values
""",
        "returns_weights": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(np.where(mask, scores, -np.inf))
""",
    },
    "padding_mask": {
        "padding_mask_off_by_one": """
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] <= lengths[:, None])[:, None, :]
""",
        "mask_wrong_sign": """
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] >= lengths[:, None])[:, None, :]
""",
        "padding_mask_on_queries": """
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] < lengths[:, None])[:, :, None]
""",
    },
}

VARIANTS = {
    "batched_attention": {
        "einsum": """
def batched_attention(queries, keys, values, scale=True):
    scores = np.einsum("...qd,...kd->...qk", queries, keys)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return np.einsum("...qk,...kd->...qd", softmax(scores), values)
""",
        "matrix_transpose_and_scipy": """
from scipy.special import softmax as scipy_softmax

def batched_attention(queries, keys, values, scale=True):
    d_k = keys.shape[-1]
    scores = queries @ np.matrix_transpose(keys) / (np.sqrt(d_k) if scale else 1.0)
    return scipy_softmax(scores, axis=-1) @ values
""",
        "logsumexp": """
from scipy.special import logsumexp

def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.swapaxes(-1, -2)
    if scale:
        scores /= np.sqrt(keys.shape[-1])
    return np.exp(scores - logsumexp(scores, axis=-1, keepdims=True)) @ values
""",
    },
    "causal_mask": {
        "tri": """
def causal_mask(n_tokens):
    return np.tri(n_tokens, dtype=bool)
""",
        "compare_positions": """
def causal_mask(n_tokens):
    positions = np.arange(n_tokens)
    return positions[:, None] >= positions[None, :]
""",
    },
    "masked_attention": {
        "large_negative": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -1e30)
    return softmax(scores) @ values
""",
        "masked_fill_copy": """
def masked_attention(queries, keys, values, mask):
    scores = np.einsum("...qd,...kd->...qk", queries, keys) / np.sqrt(keys.shape[-1])
    scores = np.broadcast_to(scores, np.broadcast_shapes(scores.shape, np.shape(mask))).copy()
    scores[~np.broadcast_to(mask, scores.shape)] = -np.inf
    return softmax(scores) @ values
""",
    },
    "padding_mask": {
        "loop": """
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b, length in enumerate(lengths):
        mask[b, 0, :length] = True
    return mask
""",
        "three_axes_broadcast": """
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, None, :] < np.asarray(lengths)[:, None, None]
""",
    },
}
