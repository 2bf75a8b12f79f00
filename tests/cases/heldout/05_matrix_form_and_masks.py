"""Held-out learner answers for notebook 05 (see README.md: never used to tune the diagnosis)."""

MISTAKES = {
    "batched_attention": {
        "keys_transpose_all_axes:method": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.transpose()
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
""",
        "no_scaling:divide_by_flag": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / scale
    return softmax(scores, axis=-1) @ values
""",
        "softmax_wrong_axis:axis_one": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=1) @ values
""",
        "scale_by_sqrt_tokens:keys_count": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-2])
    return softmax(scores, axis=-1) @ values
""",
    },
    "causal_mask": {
        "causal_mask_upper:tri_transposed": """
def causal_mask(n_tokens):
    return np.tri(n_tokens, dtype=bool).T
""",
        "causal_mask_off_by_one:tri": """
def causal_mask(n_tokens):
    return np.tri(n_tokens, k=-1, dtype=bool)
""",
        "mask_wrong_sign:triu_k1": """
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
""",
    },
    "masked_attention": {
        "mask_with_zero:multiply": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(scores * mask, axis=-1) @ values
""",
        "mask_after_softmax:multiply": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return (softmax(scores, axis=-1) * mask) @ values
""",
        "mask_wrong_sign:where_swapped": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(np.where(mask, -np.inf, scores), axis=-1) @ values
""",
        "keys_times_queries": """
def masked_attention(queries, keys, values, mask):
    scores = keys @ np.swapaxes(queries, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ values
""",
    },
    "padding_mask": {
        "padding_mask_off_by_one:from_one": """
def padding_mask(lengths, n_tokens):
    keep = np.arange(1, n_tokens + 1)[None, :] < np.asarray(lengths)[:, None]
    return keep[:, None, :]
""",
        "padding_mask_on_queries:newaxis_last": """
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
    return keep[:, :, np.newaxis]
""",
    },
}

VARIANTS = {
    "batched_attention": {
        "queries_width": """
def batched_attention(queries, keys, values, scale=True):
    scores = np.matmul(queries, np.swapaxes(keys, -2, -1))
    if scale:
        scores = scores / np.sqrt(queries.shape[-1])
    return np.matmul(softmax(scores, axis=-1), values)
""",
        "einsum": """
def batched_attention(queries, keys, values, scale=True):
    scores = np.einsum('...qd,...kd->...qk', queries, keys)
    if scale:
        scores /= np.sqrt(keys.shape[-1])
    return np.einsum('...qk,...kv->...qv', softmax(scores), values)
""",
    },
    "causal_mask": {
        "tri": """
def causal_mask(n_tokens):
    return np.tri(n_tokens, dtype=bool)
""",
        "compare_indices": """
def causal_mask(n_tokens):
    i = np.arange(n_tokens)
    return i[:, None] >= i[None, :]
""",
    },
    "masked_attention": {
        "additive_mask": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = scores + np.where(mask, 0.0, -np.inf)
    return softmax(scores, axis=-1) @ values
""",
        "minus_1e9": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(np.where(mask, scores, -1e9), axis=-1) @ values
""",
    },
    "padding_mask": {
        "fill_loop": """
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b, length in enumerate(lengths):
        mask[b, 0, :length] = True
    return mask
""",
    },
}
