"""Ninth fresh set, notebook 05: the matrix form, batches and masks (NumPy)."""

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
    "no_scaling:flag_inverted": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if not scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
''',
    "scale_by_d_k": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / keys.shape[-1]
    return softmax(scores, axis=-1) @ values
''',
    "scale_by_sqrt_tokens": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-2])
    return softmax(scores, axis=-1) @ values
''',
    "scale_applied_twice": '''
def batched_attention(queries, keys, values, scale=True):
    d_k = keys.shape[-1]
    if scale:
        queries = queries / np.sqrt(d_k)
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(d_k)
    return softmax(scores, axis=-1) @ values
''',
    "softmax_wrong_axis": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-2) @ values
''',
    "softmax_over_all_entries": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores) @ values
''',
    "weights_transposed": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    weights = softmax(scores, axis=-1)
    return np.swapaxes(weights, -1, -2) @ values
''',
    "keys_times_queries": '''
def batched_attention(queries, keys, values, scale=True):
    scores = keys @ np.swapaxes(queries, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
''',
    "softmax_no_max_subtraction": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    exps = np.exp(scores)
    return exps / exps.sum(axis=-1, keepdims=True) @ values
''',
    "returns_weights": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1)
''',
    "scale_by_sqrt_d_v:scaled_by_sqrt_d_v": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(values.shape[-1])
    return softmax(scores, axis=-1) @ values
''',
    "uncatalogued:multiplied_by_root": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores * np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
''',
}
VARIANTS["batched_attention"] = {
    "einsum": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.einsum("...qd,...kd->...qk", queries, keys)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    weights = softmax(scores, axis=-1)
    return np.einsum("...qk,...kv->...qv", weights, values)
''',
    "manual_softmax_matmul": '''
def batched_attention(queries, keys, values, scale=True):
    divisor = np.sqrt(keys.shape[-1]) if scale else 1.0
    scores = np.matmul(queries, keys.swapaxes(-1, -2)) / divisor
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return np.matmul(exps / exps.sum(axis=-1, keepdims=True), values)
''',
    "moveaxis": '''
def batched_attention(queries, keys, values, scale=True):
    keys_t = np.moveaxis(keys, -1, -2)
    scores = queries @ keys_t
    if scale is True:
        scores /= np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ values
''',
    "flag_as_exponent": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1]) ** scale
    return softmax(scores, axis=-1) @ values
''',
}

# --------------------------------------------------------------------------- causal_mask
MISTAKES["causal_mask"] = {
    "causal_mask_upper": '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
''',
    "causal_mask_upper:strictly_above": '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
''',
    "causal_mask_upper:comparison_reversed": '''
def causal_mask(n_tokens):
    positions = np.arange(n_tokens)
    return positions[:, None] <= positions[None, :]
''',
    "causal_mask_off_by_one:diagonal_hidden": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
''',
    "causal_mask_off_by_one:one_future_token": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
''',
    "mask_wrong_sign": '''
def causal_mask(n_tokens):
    return ~np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
''',
    "loop_leftover": '''
def causal_mask(n_tokens):
    mask = np.zeros((n_tokens, n_tokens), dtype=bool)
    for i in range(n_tokens - 1):
        mask[i, : i + 1] = True
    return mask
''',
    "uncatalogued:float_mask": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
''',
    "uncatalogued:int_mask": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=int))
''',
}
VARIANTS["causal_mask"] = {
    "comparison": '''
def causal_mask(n_tokens):
    idx = np.arange(n_tokens)
    return idx[:, None] >= idx[None, :]
''',
    "tri": '''
def causal_mask(n_tokens):
    return np.tri(n_tokens, dtype=bool)
''',
    "not_strict_upper": '''
def causal_mask(n_tokens):
    return ~np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
''',
}

# --------------------------------------------------------------------------- masked_attention
MISTAKES["masked_attention"] = {
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
    "mask_finite_value": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -1000.0)
    return softmax(scores, axis=-1) @ values
''',
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
    "keys_transpose_all_axes": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ keys.T / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ values
''',
    "changes_inputs_in_place": '''
def masked_attention(queries, keys, values, mask):
    queries /= np.sqrt(keys.shape[-1])
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
    "uncatalogued:boolean_mask_added": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(scores + mask, axis=-1) @ values
''',
    "uncatalogued:masked_scores_not_used": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    masked = np.where(mask, scores, -np.inf)
    weights = softmax(scores, axis=-1)
    return weights @ values
''',
}
VARIANTS["masked_attention"] = {
    "log_mask": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    with np.errstate(divide="ignore"):
        scores = scores + np.log(mask.astype(scores.dtype))
    return softmax(scores, axis=-1) @ values
''',
    "large_negative_on_masked_only": '''
def masked_attention(queries, keys, values, mask):
    d_k = keys.shape[-1]
    scores = np.einsum("...qd,...kd->...qk", queries, keys) / np.sqrt(d_k)
    scores = np.where(mask, scores, scores - 1e9)
    scores = scores - scores.max(axis=-1, keepdims=True)
    exps = np.exp(scores)
    return (exps / exps.sum(axis=-1, keepdims=True)) @ values
''',
    "finfo_min": '''
def masked_attention(queries, keys, values, mask):
    scores = np.matmul(queries, np.moveaxis(keys, -1, -2)) / np.sqrt(keys.shape[-1])
    filled = np.where(np.asarray(mask, dtype=bool), scores, np.finfo(scores.dtype).min)
    return scipy.special.softmax(filled, axis=-1) @ values
''',
}

# --------------------------------------------------------------------------- padding_mask
MISTAKES["padding_mask"] = {
    "padding_mask_off_by_one": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] <= np.asarray(lengths)[:, None]
    return keep[:, None, :]
''',
    "padding_mask_off_by_one:one_short": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None] - 1
    return keep[:, None, :]
''',
    "padding_mask_on_queries": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
    return keep[:, :, None]
''',
    "mask_wrong_sign": '''
def padding_mask(lengths, n_tokens):
    pad = np.arange(n_tokens)[None, :] >= np.asarray(lengths)[:, None]
    return pad[:, None, :]
''',
    "loop_leftover": '''
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b in range(len(lengths) - 1):
        mask[b, 0, : lengths[b]] = True
    return mask
''',
    "uncatalogued:queries_axis_missing": '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
''',
    "uncatalogued:int_mask": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
    return keep[:, None, :].astype(int)
''',
    "uncatalogued:keys_and_queries": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
    return keep[:, :, None] & keep[:, None, :]
''',
    "uncatalogued:lengths_not_broadcast": '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, None, :] < np.asarray(lengths)
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
    "three_axes_broadcast": '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens).reshape(1, 1, -1) < np.asarray(lengths).reshape(-1, 1, 1)
''',
    "expand_dims_comprehension": '''
def padding_mask(lengths, n_tokens):
    rows = np.array([[j < length for j in range(n_tokens)] for length in lengths], dtype=bool)
    return np.expand_dims(rows, axis=1)
''',
}
