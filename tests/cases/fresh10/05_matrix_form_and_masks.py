"""Tenth fresh set, notebook 05: the matrix form of attention, and masks."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}

# --------------------------------------------------------------------------- batched_attention
MISTAKES["batched_attention"] = {
    "keys_transpose_all_axes": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
''',
    "keys_times_queries": '''
def batched_attention(queries, keys, values, scale=True):
    scores = keys @ np.swapaxes(queries, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
''',
    "no_scaling:flag_inverted": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if not scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
''',
    "scale_by_sqrt_tokens": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-2])
    return softmax(scores, axis=-1) @ values
''',
    "scale_by_d_k": '''
def batched_attention(queries, keys, values, scale=True):
    d_k = keys.shape[-1] if scale else 1
    scores = queries @ np.swapaxes(keys, -1, -2) / d_k
    return softmax(scores, axis=-1) @ values
''',
    "softmax_wrong_axis": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.matmul(queries, np.swapaxes(keys, -2, -1))
    if scale:
        scores /= np.sqrt(keys.shape[-1])
    weights = softmax(scores, axis=-2)
    return weights @ values
''',
    "softmax_over_all_entries": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    weights = scipy.special.softmax(scores)
    return weights @ values
''',
    "weights_transposed": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    weights = softmax(scores, axis=-1)
    return np.swapaxes(weights, -1, -2) @ values
''',
    "uncatalogued:flag_as_divisor": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2) / (np.sqrt(keys.shape[-1]) * scale)
    return softmax(scores, axis=-1) @ values
''',
}
VARIANTS["batched_attention"] = {
    "einsum": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.einsum("...qd,...kd->...qk", queries, keys)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return np.einsum("...qk,...kv->...qv", softmax(scores, axis=-1), values)
''',
    "queries_scaled_first": '''
def batched_attention(queries, keys, values, scale=True):
    if scale:
        queries = queries / np.sqrt(keys.shape[-1])
    scores = queries @ np.moveaxis(keys, -1, -2)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ values
''',
}

# --------------------------------------------------------------------------- causal_mask
MISTAKES["causal_mask"] = {
    "causal_mask_upper": '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
''',
    "causal_mask_upper:comparison_transposed": '''
def causal_mask(n_tokens):
    idx = np.arange(n_tokens)
    return idx[:, None] <= idx[None, :]
''',
    "causal_mask_off_by_one:strict": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
''',
    "causal_mask_off_by_one:one_ahead": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), 1)
''',
    "mask_wrong_sign:negated_tril": '''
def causal_mask(n_tokens):
    return ~np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
''',
    "loop_leftover:last_row_unwritten": '''
def causal_mask(n_tokens):
    mask = np.zeros((n_tokens, n_tokens), dtype=bool)
    for i in range(n_tokens - 1):
        mask[i, :i + 1] = True
    return mask
''',
    "uncatalogued:float_mask": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
''',
}
VARIANTS["causal_mask"] = {
    "arange_comparison": '''
def causal_mask(n_tokens):
    return np.arange(n_tokens)[None, :] <= np.arange(n_tokens)[:, None]
''',
    "np_tri": '''
def causal_mask(n_tokens):
    return np.tri(n_tokens, dtype=bool)
''',
}

# --------------------------------------------------------------------------- masked_attention
MISTAKES["masked_attention"] = {
    "mask_after_softmax:renormalised": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores, axis=-1) * mask
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ values
''',
    "mask_after_softmax:not_renormalised": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = np.where(mask, softmax(scores, axis=-1), 0.0)
    return weights @ values
''',
    "mask_with_zero": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, 0.0)
    return softmax(scores, axis=-1) @ values
''',
    "mask_with_zero:multiplied": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(scores * mask, axis=-1) @ values
''',
    "mask_finite_value:minus_1000_added": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = scores - 1000.0 * (~mask)
    return softmax(scores, axis=-1) @ values
''',
    "mask_wrong_sign": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, -np.inf, scores)
    return softmax(scores, axis=-1) @ values
''',
    "mask_transposed": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(np.swapaxes(mask, -1, -2), scores, -np.inf)
    return softmax(scores, axis=-1) @ values
''',
    "no_scaling": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2)
    scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ values
''',
    "softmax_no_max_subtraction": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.where(mask, np.exp(scores), 0.0)
    return exps / exps.sum(axis=-1, keepdims=True) @ values
''',
}
VARIANTS["masked_attention"] = {
    "boolean_index_on_copy": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    hidden = ~np.broadcast_to(mask, scores.shape)
    scores[hidden] = -np.inf
    return softmax(scores, axis=-1) @ values
''',
    "finfo_min_stand_in": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, np.finfo(scores.dtype).min)
    return softmax(scores, axis=-1) @ values
''',
}

# --------------------------------------------------------------------------- padding_mask
MISTAKES["padding_mask"] = {
    "padding_mask_on_queries": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
    return keep[:, :, None]
''',
    "padding_mask_off_by_one": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] <= np.asarray(lengths)[:, None]
    return keep[:, None, :]
''',
    "padding_mask_off_by_one:positions_from_one": '''
def padding_mask(lengths, n_tokens):
    positions = np.arange(1, n_tokens + 1)
    return (positions[None, :] < lengths[:, None])[:, None, :]
''',
    "mask_wrong_sign": '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens) >= lengths[:, None])[:, None, :]
''',
    "loop_leftover:last_sequence": '''
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b in range(len(lengths) - 1):
        mask[b, 0, :lengths[b]] = True
    return mask
''',
    "uncatalogued:no_query_axis": '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < lengths[:, None]
''',
    "uncatalogued:int_mask": '''
def padding_mask(lengths, n_tokens):
    keep = (np.arange(n_tokens)[None, :] < lengths[:, None]).astype(int)
    return keep[:, None, :]
''',
}
VARIANTS["padding_mask"] = {
    "loop": '''
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b, length in enumerate(lengths):
        mask[b, 0, :length] = True
    return mask
''',
    "expand_dims": '''
def padding_mask(lengths, n_tokens):
    return np.expand_dims(np.arange(n_tokens) < np.reshape(lengths, (-1, 1)), axis=1)
''',
}
