"""Sixth fresh set, notebook 05: matrix form, batches and masks."""

MISTAKES = {
    "batched_attention": {
        "keys_transpose_all_axes": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
''',
        "keys_without_transpose": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.matmul(queries, keys)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores) @ values
''',
        "keys_times_queries": '''
def batched_attention(queries, keys, values, scale=True):
    scores = keys @ np.swapaxes(queries, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
''',
        "no_scaling": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
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
        scores /= np.sqrt(keys.shape[-2])
    return softmax(scores, axis=-1) @ values
''',
        "softmax_wrong_axis": '''
def batched_attention(queries, keys, values, scale=True):
    d_k = keys.shape[-1]
    scores = queries @ np.swapaxes(keys, -1, -2) / (np.sqrt(d_k) if scale else 1.0)
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
        "softmax_no_max_subtraction": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    e = np.exp(scores)
    return (e / e.sum(axis=-1, keepdims=True)) @ values
''',
        "lower_precision:float32": '''
def batched_attention(queries, keys, values, scale=True):
    q, k, v = (a.astype(np.float32) for a in (queries, keys, values))
    scores = q @ np.swapaxes(k, -1, -2)
    if scale:
        scores = scores / np.sqrt(np.float32(k.shape[-1]))
    return softmax(scores, axis=-1) @ v
''',
        "uncatalogued:scale_flag_ignored": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
''',
    },
    "causal_mask": {
        "causal_mask_upper": '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
''',
        "causal_mask_upper:comparison_reversed": '''
def causal_mask(n_tokens):
    i = np.arange(n_tokens)
    return i[:, None] <= i[None, :]
''',
        "causal_mask_off_by_one:diagonal_hidden": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
''',
        "causal_mask_off_by_one:strict_comparison": '''
def causal_mask(n_tokens):
    rows, cols = np.indices((n_tokens, n_tokens))
    return cols < rows
''',
        "causal_mask_off_by_one:next_token_visible": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), 1)
''',
        "mask_wrong_sign:negated": '''
def causal_mask(n_tokens):
    return ~np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
''',
        "uncatalogued:float_mask_from_np_tri": '''
def causal_mask(n_tokens):
    return np.tri(n_tokens)
''',
        "uncatalogued:int_mask": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=int))
''',
    },
    "masked_attention": {
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
        "mask_finite_value:minus_1000": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -1000.0)
    return softmax(scores, axis=-1) @ values
''',
        "mask_after_softmax:zeroed": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores, axis=-1) * mask
    return weights @ values
''',
        "mask_after_softmax:renormalised": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = np.where(mask, softmax(scores, axis=-1), 0.0)
    weights = weights / weights.sum(axis=-1, keepdims=True)
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
        "keys_transpose_all_axes": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ keys.T / np.sqrt(keys.shape[-1])
    scores[~np.broadcast_to(mask, scores.shape)] = -np.inf
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
    exps = np.exp(np.where(mask, scores, -np.inf))
    return (exps / exps.sum(axis=-1, keepdims=True)) @ values
''',
    },
    "padding_mask": {
        "padding_mask_on_queries": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
    return keep[:, :, None]
''',
        "padding_mask_off_by_one": '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens) <= lengths[:, None])[:, None, :]
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
        "uncatalogued:query_axis_missing": '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
''',
        "uncatalogued:int_mask": '''
def padding_mask(lengths, n_tokens):
    keep = (np.arange(n_tokens)[None, :] < lengths[:, None]).astype(int)
    return keep[:, None, :]
''',
        "uncatalogued:queries_and_keys": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
    return keep[:, None, :] & keep[:, :, None]
''',
    },
}

VARIANTS = {
    "batched_attention": {
        "matmul_own_softmax": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.matmul(queries, np.swapaxes(keys, -1, -2))
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w /= w.sum(axis=-1, keepdims=True)
    return np.matmul(w, values)
''',
        "einsum_scipy": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.einsum("...qd,...kd->...qk", queries, keys)
    divisor = np.sqrt(keys.shape[-1]) if scale else 1.0
    return scipy.special.softmax(scores / divisor, axis=-1) @ values
''',
    },
    "causal_mask": {
        "comparison": '''
def causal_mask(n_tokens):
    idx = np.arange(n_tokens)
    return idx[:, None] >= idx
''',
        "np_tri_bool": '''
def causal_mask(n_tokens):
    return np.tri(n_tokens, dtype=bool)
''',
    },
    "masked_attention": {
        "log_of_mask": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ keys.swapaxes(-1, -2) / np.sqrt(keys.shape[-1])
    with np.errstate(divide="ignore"):
        scores = scores + np.log(mask)
    return softmax(scores) @ values
''',
        "large_negative_added_to_masked_only": '''
def masked_attention(queries, keys, values, mask):
    scores = np.matmul(queries, np.swapaxes(keys, -1, -2)) / np.sqrt(keys.shape[-1])
    scores = scores + np.where(mask, 0.0, -1e9)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    return (w / w.sum(axis=-1, keepdims=True)) @ values
''',
    },
    "padding_mask": {
        "stacked_rows": '''
def padding_mask(lengths, n_tokens):
    return np.stack([[np.arange(n_tokens) < length] for length in lengths])
''',
        "three_axes_at_once": '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens) < np.asarray(lengths)[:, None, None]
''',
    },
}
