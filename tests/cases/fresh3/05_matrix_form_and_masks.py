"""Third fresh set, notebook 05: learners' answers written without the grader's key.

Each source is what a learner would type in the exercise's solution cell; the notebook's earlier
cells have run. Written on 2026-11-23 from the exercise texts and the catalogue's ids and hints only,
checked only against the notebook's own solution (tests/cases/selfcheck.py fresh3), never against the
grader. Rule: never edited after its first measurement (see README.md).
"""

MISTAKES = {
    "batched_attention": {
        "keys_transpose_all_axes:dot_T": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
''',
        "scale_applied_twice:helper_and_inline": '''
def batched_attention(queries, keys, values, scale=True):
    d_k = keys.shape[-1]
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(d_k)
    weights = softmax(scores / np.sqrt(d_k) if scale else scores)
    return weights @ values
''',
        "scale_by_sqrt_tokens:n_keys": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores /= np.sqrt(keys.shape[-2])
    return softmax(scores) @ values
''',
        "softmax_over_all_entries:scipy_default": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.matmul(queries, np.swapaxes(keys, -1, -2))
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    weights = scipy.special.softmax(scores)
    return weights @ values
''',
        "softmax_wrong_axis:queries_axis": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-2) @ values
''',
        "weights_transposed:swapped_weights": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    weights = softmax(scores)
    return np.swapaxes(weights, -1, -2) @ values
''',
        "keys_times_queries:einsum": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.einsum("...kd,...qd->...kq", keys, queries)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return np.einsum("...qk,...kv->...qv", softmax(scores), values)
''',
        "softmax_no_max_subtraction:manual": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    e = np.exp(scores)
    return (e / e.sum(axis=-1, keepdims=True)) @ values
''',
        "uncatalogued:scale_flag_ignored": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
''',
        "scale_by_sqrt_d_v:scale_by_sqrt_d_v": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(values.shape[-1])
    return softmax(scores, axis=-1) @ values
''',
    },
    "causal_mask": {
        "causal_mask_off_by_one:strict_lower": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
''',
        "causal_mask_off_by_one:one_ahead": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
''',
        "causal_mask_upper:loop": '''
def causal_mask(n_tokens):
    mask = np.zeros((n_tokens, n_tokens), dtype=bool)
    for i in range(n_tokens):
        for j in range(n_tokens):
            mask[i, j] = j >= i
    return mask
''',
        "mask_wrong_sign:triu_k1": '''
def causal_mask(n_tokens):
    # the future is what gets masked
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
''',
        "uncatalogued:float_not_bool": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
''',
        "uncatalogued:additive_float": '''
def causal_mask(n_tokens):
    allowed = np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
    return np.where(allowed, 0.0, -np.inf)
''',
        "uncatalogued:diagonal_only": '''
def causal_mask(n_tokens):
    return np.eye(n_tokens, dtype=bool)
''',
    },
    "masked_attention": {
        "mask_with_zero:where": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, 0.0)
    return softmax(scores, axis=-1) @ values
''',
        "mask_after_softmax:zeroed_weights": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores, axis=-1) * mask
    return weights @ values
''',
        "mask_wrong_sign:where_swapped": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, -np.inf, scores)
    return softmax(scores, axis=-1) @ values
''',
        "keys_transpose_all_axes:neighbour": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ keys.T / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -np.inf)
    return softmax(scores) @ values
''',
        "no_scaling:forgot": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2)
    scores = np.where(mask, scores, -np.inf)
    return softmax(scores) @ values
''',
        "softmax_no_max_subtraction:exp_masked": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    e = np.where(mask, np.exp(scores), 0.0)
    return (e / e.sum(axis=-1, keepdims=True)) @ values
''',
        "uncatalogued:renormalised_after_softmax": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores) * mask
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ values
''',
        "uncatalogued:boolean_indexing": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores[~mask] = -np.inf
    return softmax(scores) @ values
''',
        "mask_transposed:swapaxes": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(np.swapaxes(mask, -1, -2), scores, -np.inf)
    return softmax(scores) @ values
''',
    },
    "padding_mask": {
        "padding_mask_off_by_one:less_equal": '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] <= np.asarray(lengths)[:, None])[:, None, :]
''',
        "padding_mask_off_by_one:loop_range": '''
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b, length in enumerate(lengths):
        for j in range(length - 1):
            mask[b, 0, j] = True
    return mask
''',
        "padding_mask_on_queries:column": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
    return keep[:, :, None]
''',
        "mask_wrong_sign:padding_true": '''
def padding_mask(lengths, n_tokens):
    is_pad = np.arange(n_tokens)[None, :] >= np.asarray(lengths)[:, None]
    return is_pad[:, None, :]
''',
        "uncatalogued:query_axis_missing": '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
''',
        "uncatalogued:int_mask": '''
def padding_mask(lengths, n_tokens):
    keep = (np.arange(n_tokens) < np.asarray(lengths)[:, None]).astype(int)
    return keep[:, None, :]
''',
        "uncatalogued:full_square": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, None, :] < np.asarray(lengths)[:, None, None]
    return np.broadcast_to(keep, (len(lengths), n_tokens, n_tokens)).copy()
''',
    },
}

VARIANTS = {
    "batched_attention": {
        "einsum_ellipsis": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.einsum("...qd,...kd->...qk", queries, keys)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    weights = softmax(scores, axis=-1)
    return np.einsum("...qk,...kv->...qv", weights, values)
''',
        "moveaxis_manual_softmax": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.matmul(queries, np.moveaxis(keys, -1, -2))
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    return np.matmul(w, values)
''',
    },
    "causal_mask": {
        "arange_compare": '''
def causal_mask(n_tokens):
    idx = np.arange(n_tokens)
    return idx[:, None] >= idx[None, :]
''',
        "tri": '''
def causal_mask(n_tokens):
    return np.tri(n_tokens, dtype=bool)
''',
        "not_triu": '''
def causal_mask(n_tokens):
    return ~np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
''',
    },
    "masked_attention": {
        "big_negative": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -1e9)
    return softmax(scores, axis=-1) @ values
''',
        "additive_penalty": '''
def masked_attention(queries, keys, values, mask):
    scores = np.einsum("...qd,...kd->...qk", queries, keys) / np.sqrt(keys.shape[-1])
    scores = scores + (~np.asarray(mask, dtype=bool)) * -1e9
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    return (w / w.sum(axis=-1, keepdims=True)) @ values
''',
        "copy_then_fill": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    full_mask = np.broadcast_to(mask, scores.shape)
    scores = scores.copy()
    scores[~full_mask] = -np.inf
    return softmax(scores) @ values
''',
    },
    "padding_mask": {
        "loop_fill": '''
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b, length in enumerate(lengths):
        mask[b, 0, :length] = True
    return mask
''',
        "expand_dims": '''
def padding_mask(lengths, n_tokens):
    positions = np.arange(n_tokens)
    keep = positions < np.reshape(lengths, (-1, 1))
    return np.expand_dims(keep, axis=1)
''',
        "three_axes_at_once": '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, None, :] < np.array(lengths)[:, None, None]
''',
    },
}
