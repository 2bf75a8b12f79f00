"""Seventh fresh set, notebook 05. Written without the key (see README.md)."""

MISTAKES = {
    "batched_attention": {
        "keys_transpose_all_axes": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
""",
        "keys_times_queries": """
def batched_attention(queries, keys, values, scale=True):
    scores = keys @ np.swapaxes(queries, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
""",
        "no_scaling:flag_inverted": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if not scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
""",
        "scale_by_sqrt_tokens": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-2])
    return softmax(scores, axis=-1) @ values
""",
        "softmax_wrong_axis": """
def batched_attention(queries, keys, values, scale=True):
    scores = np.matmul(queries, np.swapaxes(keys, -1, -2))
    if scale:
        scores /= np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-2) @ values
""",
        "softmax_no_max_subtraction": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    e = np.exp(scores)
    return (e / e.sum(axis=-1, keepdims=True)) @ values
""",
        "weights_transposed": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return np.swapaxes(softmax(scores, axis=-1), -1, -2) @ values
""",
        "softmax_over_all_entries": """
import scipy.special

def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores) @ values
""",
    },
    "causal_mask": {
        "causal_mask_upper": """
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
""",
        "causal_mask_off_by_one:diagonal_hidden": """
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
""",
        "causal_mask_upper:reversed_comparison": """
def causal_mask(n_tokens):
    i = np.arange(n_tokens)
    return i[:, None] <= i[None, :]
""",
        "uncatalogued:float_mask": """
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
""",
        "uncatalogued:tri_int": """
def causal_mask(n_tokens):
    return np.tri(n_tokens, dtype=int)
""",
        "mask_wrong_sign:triu_k1": """
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
""",
    },
    "masked_attention": {
        "mask_with_zero": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, 0.0)
    return softmax(scores, axis=-1) @ values
""",
        "mask_with_zero:multiplied": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(scores * mask, axis=-1) @ values
""",
        "mask_finite_value": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -1000.0)
    return softmax(scores, axis=-1) @ values
""",
        "mask_wrong_sign": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, -np.inf, scores)
    return softmax(scores, axis=-1) @ values
""",
        "mask_after_softmax": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores, axis=-1) * mask
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ values
""",
        "mask_transposed": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(np.swapaxes(mask, -1, -2), scores, -np.inf)
    return softmax(scores, axis=-1) @ values
""",
        "no_scaling": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2)
    scores[~np.broadcast_to(mask, scores.shape)] = -np.inf
    return softmax(scores, axis=-1) @ values
""",
        "no_scaling:log_mask": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2)
    with np.errstate(divide='ignore'):
        scores = scores + np.log(mask)
    return softmax(scores, axis=-1) @ values
""",
    },
    "padding_mask": {
        "padding_mask_on_queries": """
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
    return keep[:, :, None]
""",
        "padding_mask_off_by_one": """
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] <= np.asarray(lengths)[:, None]
    return keep[:, None, :]
""",
        "padding_mask_off_by_one:positions_from_one": """
def padding_mask(lengths, n_tokens):
    keep = np.arange(1, n_tokens + 1)[None, :] < lengths[:, None]
    return keep[:, None, :]
""",
        "uncatalogued:int_mask": """
def padding_mask(lengths, n_tokens):
    keep = (np.arange(n_tokens)[None, :] < lengths[:, None]).astype(int)
    return keep[:, None, :]
""",
        "uncatalogued:no_query_axis": """
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < lengths[:, None]
""",
        "mask_wrong_sign": """
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens) >= lengths[:, None])[:, None, :]
""",
    },
}

VARIANTS = {
    "batched_attention": {
        "einsum_by_hand": """
def batched_attention(queries, keys, values, scale=True):
    s = np.einsum('...qd,...kd->...qk', queries, keys)
    if scale:
        s = s / np.sqrt(queries.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    return np.einsum('...qk,...kv->...qv', w, values)
""",
        "moveaxis_factor": """
def batched_attention(queries, keys, values, scale=True):
    factor = 1 / np.sqrt(keys.shape[-1]) if scale else 1.0
    scores = np.matmul(queries, np.moveaxis(keys, -1, -2)) * factor
    return np.matmul(softmax(scores), values)
""",
    },
    "causal_mask": {
        "comparison": """
def causal_mask(n_tokens):
    idx = np.arange(n_tokens)
    return idx[None, :] <= idx[:, None]
""",
        "tri_bool": """
def causal_mask(n_tokens):
    return np.tri(n_tokens, dtype=bool)
""",
    },
    "masked_attention": {
        "finfo_min": """
def masked_attention(queries, keys, values, mask):
    d_k = keys.shape[-1]
    scores = np.einsum('...qd,...kd->...qk', queries, keys) / np.sqrt(d_k)
    scores = np.where(mask, scores, np.finfo(scores.dtype).min)
    return softmax(scores, axis=-1) @ values
""",
        "copy_and_fill": """
def masked_attention(queries, keys, values, mask):
    scores = (queries / np.sqrt(keys.shape[-1])) @ np.swapaxes(keys, -1, -2)
    scores = scores.copy()
    scores[~np.broadcast_to(mask, scores.shape)] = -np.inf
    m = scores.max(axis=-1, keepdims=True)
    e = np.exp(scores - m)
    return (e / e.sum(axis=-1, keepdims=True)) @ values
""",
    },
    "padding_mask": {
        "expand_dims": """
def padding_mask(lengths, n_tokens):
    positions = np.arange(n_tokens)
    return np.expand_dims(positions < np.asarray(lengths).reshape(-1, 1), axis=1)
""",
        "loop_rows": """
def padding_mask(lengths, n_tokens):
    out = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b, n in enumerate(lengths):
        out[b, 0, :n] = True
    return out
""",
    },
}
