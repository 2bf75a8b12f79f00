"""Fresh learner answers for notebook 05 (see README.md: written without the key, never tuned on)."""

MISTAKES = {
    "batched_attention": {
        "keys_transpose_all_axes:dot_T": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
""",
        "scale_by_sqrt_tokens:n_queries": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(queries.shape[-2])
    return softmax(scores, axis=-1) @ values
""",
        "scale_by_d_k": """
def batched_attention(queries, keys, values, scale=True):
    d_k = keys.shape[-1]
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / d_k
    return softmax(scores) @ values
""",
        "softmax_wrong_axis:axis_one": """
def batched_attention(queries, keys, values, scale=True):
    scores = np.matmul(queries, np.swapaxes(keys, -1, -2))
    if scale:
        scores /= np.sqrt(keys.shape[-1])
    return np.matmul(softmax(scores, axis=1), values)
""",
        "softmax_no_max_subtraction:own_softmax": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    exps = np.exp(scores)
    return exps / exps.sum(axis=-1, keepdims=True) @ values
""",
        "weights_transposed": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    weights = softmax(scores, axis=-1)
    return np.swapaxes(weights, -1, -2) @ values
""",
        "weights_times_keys": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ keys
""",
        "keys_times_queries:einsum": """
def batched_attention(queries, keys, values, scale=True):
    scores = np.einsum("...qd,...kd->...kq", queries, keys)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
""",
        "uncatalogued:scale_flag_ignored": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
""",
        "scale_by_sqrt_d_v:scale_by_sqrt_d_v": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(values.shape[-1])
    return softmax(scores, axis=-1) @ values
""",
        "uncatalogued:swapaxes_zero_one": """
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.swapaxes(0, 1)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
""",
    },
    "causal_mask": {
        "causal_mask_upper": """
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
""",
        "causal_mask_upper:compare": """
def causal_mask(n_tokens):
    return np.arange(n_tokens)[:, None] <= np.arange(n_tokens)
""",
        "causal_mask_off_by_one:k_minus_one": """
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)), k=-1).astype(bool)
""",
        "causal_mask_off_by_one:k_plus_one": """
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
""",
        "causal_mask_off_by_one:strict": """
def causal_mask(n_tokens):
    i = np.arange(n_tokens)
    return i[:, None] > i[None, :]
""",
        "mask_wrong_sign:blocked_convention": """
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
""",
        "uncatalogued:float_mask": """
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
""",
    },
    "masked_attention": {
        "mask_with_zero": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, 0.0)
    return softmax(scores, axis=-1) @ values
""",
        "mask_with_zero:multiply": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(scores * mask, axis=-1) @ values
""",
        "mask_after_softmax": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores, axis=-1) * mask
    return weights @ values
""",
        "mask_after_softmax:renormalised_exps": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True)) * mask
    return exps / exps.sum(axis=-1, keepdims=True) @ values
""",
        "mask_wrong_sign": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, -np.inf, scores)
    return softmax(scores, axis=-1) @ values
""",
        "no_scaling": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2)
    scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ values
""",
        "keys_transpose_all_axes": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ keys.T / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -np.inf)
    return softmax(scores) @ values
""",
        "mask_transposed:swapaxes": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(np.swapaxes(mask, -1, -2), scores, -np.inf)
    return softmax(scores, axis=-1) @ values
""",
        "uncatalogued:boolean_index_without_broadcast": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores[~mask] = -np.inf
    return softmax(scores, axis=-1) @ values
""",
    },
    "padding_mask": {
        "padding_mask_off_by_one:less_equal": """
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] <= np.asarray(lengths)[:, None])[:, None, :]
""",
        "padding_mask_off_by_one:arange_from_one": """
def padding_mask(lengths, n_tokens):
    positions = np.arange(1, n_tokens + 1)
    return (positions < lengths[:, None])[:, None, :]
""",
        "padding_mask_on_queries:trailing_axis": """
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] < lengths[:, None]
    return keep[:, :, None]
""",
        "mask_wrong_sign:padding_true": """
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens) >= lengths[:, None])[:, None, :]
""",
        "uncatalogued:no_query_axis": """
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < lengths[:, None]
""",
        "uncatalogued:int_mask": """
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] < lengths[:, None]).astype(int)[:, None, :]
""",
        "uncatalogued:no_broadcast_axis": """
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens) < lengths)[:, None, None]
""",
        "uncatalogued:left_padding": """
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] >= n_tokens - lengths[:, None])[:, None, :]
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
    return np.einsum("...qk,...kv->...qv", softmax(scores, axis=-1), values)
""",
        "moveaxis_own_softmax": """
def batched_attention(queries, keys, values, scale=True):
    scores = np.matmul(queries, np.moveaxis(keys, -1, -2))
    if scale:
        scores = scores / keys.shape[-1] ** 0.5
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    return np.matmul(weights, values)
""",
        "scale_queries_first_scipy": """
def batched_attention(queries, keys, values, scale=True):
    from scipy.special import softmax as scipy_softmax
    if scale:
        queries = queries / np.sqrt(keys.shape[-1])
    return scipy_softmax(queries @ keys.swapaxes(-1, -2), axis=-1) @ values
""",
    },
    "causal_mask": {
        "tri": """
def causal_mask(n_tokens):
    return np.tri(n_tokens, dtype=bool)
""",
        "compare": """
def causal_mask(n_tokens):
    return np.arange(n_tokens)[:, None] >= np.arange(n_tokens)[None, :]
""",
        "not_strict_upper": """
def causal_mask(n_tokens):
    return ~np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
""",
    },
    "masked_attention": {
        "finfo_min": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, np.finfo(scores.dtype).min)
    return softmax(scores, axis=-1) @ values
""",
        "log_mask_added": """
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    with np.errstate(divide="ignore"):
        scores = scores + np.log(mask.astype(scores.dtype))
    return softmax(scores, axis=-1) @ values
""",
        "broadcast_then_index": """
def masked_attention(queries, keys, values, mask):
    scores = np.einsum("...qd,...kd->...qk", queries, keys) / np.sqrt(keys.shape[-1])
    scores[~np.broadcast_to(mask, scores.shape)] = -np.inf
    return softmax(scores, axis=-1) @ values
""",
    },
    "padding_mask": {
        "loop_over_batch": """
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b, length in enumerate(lengths):
        mask[b, 0, :length] = True
    return mask
""",
        "reshape_lengths": """
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens) < np.asarray(lengths).reshape(-1, 1, 1)
""",
        "greater_outer": """
def padding_mask(lengths, n_tokens):
    return np.greater.outer(lengths, np.arange(n_tokens))[:, None, :]
""",
    },
}
