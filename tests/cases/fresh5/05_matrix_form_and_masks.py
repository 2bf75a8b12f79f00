"""Fifth fresh set, notebook 05 (NumPy, batches and masks): what a learner types into each solution cell."""

_BATCHED = '''
def batched_attention(queries, keys, values, scale=True):
    d_k = keys.shape[-1]
    scores = np.matmul(queries, np.swapaxes(keys, -2, -1))
    if scale:
        scores = scores / np.sqrt(d_k)
    weights = softmax(scores, axis=-1)
    return np.matmul(weights, values)
'''

_MASKED = '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2)
    scores = scores / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -np.inf)
    weights = softmax(scores, axis=-1)
    return weights @ values
'''


def _b(old, new):
    assert old in _BATCHED, old
    return _BATCHED.replace(old, new)


def _m(old, new):
    assert old in _MASKED, old
    return _MASKED.replace(old, new)


MISTAKES = {
    "batched_attention": {
        "keys_transpose_all_axes": _b("np.swapaxes(keys, -2, -1)", "keys.T"),
        "keys_without_transpose": _b("np.matmul(queries, np.swapaxes(keys, -2, -1))", "np.matmul(queries, keys)"),
        "keys_times_queries": _b("np.matmul(queries, np.swapaxes(keys, -2, -1))",
                                 "np.matmul(keys, np.swapaxes(queries, -2, -1))"),
        "no_scaling:flag_never_read": _b("    if scale:\n        scores = scores / np.sqrt(d_k)\n", ""),
        "uncatalogued:always_scales": _b("    if scale:\n        scores = scores / np.sqrt(d_k)\n",
                                         "    scores = scores / np.sqrt(d_k)\n"),
        "scale_by_d_k": _b("scores / np.sqrt(d_k)", "scores / d_k"),
        "scale_by_sqrt_tokens": _b("d_k = keys.shape[-1]", "d_k = keys.shape[-2]"),
        "softmax_wrong_axis": _b("softmax(scores, axis=-1)", "softmax(scores, axis=-2)"),
        "softmax_over_all_entries:scipy_no_axis": _b("softmax(scores, axis=-1)", "scipy.special.softmax(scores)"),
        "softmax_no_max_subtraction": _b("softmax(scores, axis=-1)",
                                         "np.exp(scores) / np.exp(scores).sum(axis=-1, keepdims=True)"),
        "weights_transposed": _b("np.matmul(weights, values)", "np.matmul(np.swapaxes(weights, -1, -2), values)"),
        "returns_weights": _b("return np.matmul(weights, values)", "return weights"),
        "integer_arithmetic:floordiv": _b("scores / np.sqrt(d_k)", "scores // np.sqrt(d_k)"),
        "uncatalogued:scaled_after_softmax": '''
def batched_attention(queries, keys, values, scale=True):
    weights = softmax(queries @ np.swapaxes(keys, -1, -2), axis=-1)
    if scale:
        weights = weights / np.sqrt(keys.shape[-1])
    return weights @ values
''',
    },
    "causal_mask": {
        "causal_mask_upper": '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
''',
        "causal_mask_upper:broadcast_compare": '''
def causal_mask(n_tokens):
    i = np.arange(n_tokens)
    return i[:, None] <= i[None, :]
''',
        "causal_mask_off_by_one:diagonal_hidden": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
''',
        "causal_mask_off_by_one:one_future_token": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), 1)
''',
        "causal_mask_off_by_one:strict_compare": '''
def causal_mask(n_tokens):
    rows, cols = np.indices((n_tokens, n_tokens))
    return cols < rows
''',
        "mask_wrong_sign:negated": '''
def causal_mask(n_tokens):
    return ~np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
''',
        "uncatalogued:float_mask": '''
def causal_mask(n_tokens):
    return np.tri(n_tokens)
''',
        "uncatalogued:int_mask": '''
def causal_mask(n_tokens):
    idx = np.arange(n_tokens)
    return (idx[:, None] >= idx[None, :]).astype(int)
''',
    },
    "masked_attention": {
        "mask_with_zero": _m("np.where(mask, scores, -np.inf)", "np.where(mask, scores, 0)"),
        "mask_with_zero:multiplied": _m("np.where(mask, scores, -np.inf)", "scores * mask"),
        "mask_finite_value:minus_100": _m("np.where(mask, scores, -np.inf)", "np.where(mask, scores, -100.0)"),
        "mask_wrong_sign": _m("np.where(mask, scores, -np.inf)", "np.where(mask, -np.inf, scores)"),
        "mask_transposed": _m("np.where(mask, scores, -np.inf)",
                              "np.where(np.swapaxes(mask, -1, -2), scores, -np.inf)"),
        "mask_after_softmax:renormalised": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores, axis=-1) * mask
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ values
''',
        "mask_after_softmax:zeroed": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = np.where(mask, softmax(scores, axis=-1), 0.0)
    return weights @ values
''',
        "mask_after_softmax:max_before_mask": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True)) * mask
    return exps / exps.sum(axis=-1, keepdims=True) @ values
''',
        "no_scaling": _m("    scores = scores / np.sqrt(keys.shape[-1])\n", ""),
        "keys_transpose_all_axes": _m("np.swapaxes(keys, -1, -2)", "keys.T"),
        "softmax_no_max_subtraction": _m("softmax(scores, axis=-1)",
                                         "np.exp(scores) / np.sum(np.exp(scores), axis=-1, keepdims=True)"),
        "uncatalogued:boolean_index_no_broadcast": _m("    scores = np.where(mask, scores, -np.inf)\n",
                                                      "    scores[~mask] = -np.inf\n"),
        "lower_precision:float32_scores": _m("scores = scores / np.sqrt(keys.shape[-1])",
                                             "scores = (scores / np.sqrt(keys.shape[-1])).astype(np.float32)"),
    },
    "padding_mask": {
        "padding_mask_off_by_one": '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] <= lengths[:, None])[:, None, :]
''',
        "padding_mask_off_by_one:positions_from_one": '''
def padding_mask(lengths, n_tokens):
    positions = np.arange(1, n_tokens + 1)
    return (positions < lengths[:, None])[:, None, :]
''',
        "padding_mask_on_queries": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens) < np.asarray(lengths)[:, None]
    return keep[:, :, None]
''',
        "mask_wrong_sign:true_on_padding": '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens) >= lengths[:, None])[:, None, :]
''',
        "uncatalogued:no_query_axis": '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < lengths[:, None]
''',
        "uncatalogued:int_dtype": '''
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=int)
    for b, length in enumerate(lengths):
        mask[b, 0, :length] = 1
    return mask
''',
        "uncatalogued:square_mask": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens) < lengths[:, None]
    return keep[:, :, None] & keep[:, None, :]
''',
        "loop_leftover:last_sequence": '''
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b in range(len(lengths) - 1):
        mask[b, 0, :lengths[b]] = True
    return mask
''',
    },
}

VARIANTS = {
    "batched_attention": {
        "einsum_stable_by_hand": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.einsum("...qd,...kd->...qk", queries, keys)
    if scale:
        scores = scores / np.sqrt(queries.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    return np.einsum("...qk,...kv->...qv", weights, values)
''',
        "moveaxis_factor": '''
def batched_attention(queries, keys, values, scale=True):
    factor = 1 / np.sqrt(keys.shape[-1]) if scale else 1.0
    scores = queries @ np.moveaxis(keys, -1, -2) * factor
    return scipy.special.softmax(scores, axis=-1) @ values
''',
    },
    "causal_mask": {
        "compare": '''
def causal_mask(n_tokens):
    r = np.arange(n_tokens)
    return r[:, None] >= r[None, :]
''',
        "tri_bool": '''
def causal_mask(n_tokens):
    return np.tri(n_tokens, dtype=bool)
''',
        "not_upper": '''
def causal_mask(n_tokens):
    return ~np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
''',
    },
    "masked_attention": {
        "finfo_min": '''
def masked_attention(queries, keys, values, mask):
    d_k = keys.shape[-1]
    scores = np.einsum("...qd,...kd->...qk", queries, keys) / np.sqrt(d_k)
    scores = np.where(mask, scores, np.finfo(scores.dtype).min)
    return softmax(scores) @ values
''',
        "additive_inf": '''
def masked_attention(queries, keys, values, mask):
    bias = np.where(mask, 0.0, -np.inf)
    scores = queries @ np.swapaxes(keys, -2, -1) / np.sqrt(keys.shape[-1]) + bias
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return (e / e.sum(axis=-1, keepdims=True)) @ values
''',
    },
    "padding_mask": {
        "loop": '''
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b, n in enumerate(lengths):
        mask[b, 0, :n] = True
    return mask
''',
        "expand_dims": '''
def padding_mask(lengths, n_tokens):
    lengths = np.asarray(lengths)
    return np.expand_dims(np.arange(n_tokens) < lengths[:, np.newaxis], axis=1)
''',
    },
}
