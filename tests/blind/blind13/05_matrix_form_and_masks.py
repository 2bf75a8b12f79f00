"""Blind set 13, notebook 05: Matrix form and masks. Written from notebooks/05_matrix_form_and_masks.ipynb only."""

MISTAKES = {
    "batched_attention": {
        "plain_transpose_T": (["transpose", "swapaxes", "last two axes", ".t", "batch"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "softmax_no_axis": (["axis", "every entry", "row", "axis=-1"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores) @ values
'''),
        "softmax_over_queries": (["axis", "column", "queries", "keys"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-2) @ values
'''),
        "scale_ignored": (["scale", "sqrt", "d_k", "flag"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "scale_by_n_keys": (["d_k", "width", "n_keys", "sqrt"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-2])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
    },
    "causal_mask": {
        "upper_triangle": (["tril", "triu", "upper", "lower", "below"], '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
        "float_dtype": (["bool", "boolean", "dtype"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
'''),
        "strict_lower": (["diagonal", "itself", "k=-1", "j <= i"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
'''),
        "inverted": (["true", "false", "invert", "blocked"], '''
def causal_mask(n_tokens):
    return ~np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
    },
    "masked_attention": {
        "mask_after_softmax": (["before the softmax", "renormal", "sum to 1", "after"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = scipy.special.softmax(scores, axis=-1) * mask
    return weights @ values
'''),
        "mask_zero_scores": (["-inf", "zero", "score of 0", "infinity"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, 0.0)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "mask_inverted": (["true", "false", "invert", "allowed"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, -np.inf, scores)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "no_scaling": (["sqrt", "scale", "d_k"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2)
    scores = np.where(mask, scores, -np.inf)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "additive_minus_large_small": (["-inf", "large", "exactly 0", "finite"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = scores - 10.0 * (1 - mask)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
    },
    "padding_mask": {
        "less_equal": (["<=", "< ", "off by one", "strictly"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens) <= np.asarray(lengths)[:, None])[:, None, :]
'''),
        "missing_middle_axis": (["(batch, 1, n_tokens)", "axis", "none", "middle"], '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
'''),
        "wrong_broadcast": (["broadcast", "lengths[:, none]", "batch", "column"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[:, None] < np.asarray(lengths))[:, None, :]
'''),
        "int_dtype": (["bool", "boolean", "dtype"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens) < np.asarray(lengths)[:, None]).astype(int)[:, None, :]
'''),
        "reversed_comparison": (["true", "padding", "real tokens", ">="], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens) >= np.asarray(lengths)[:, None])[:, None, :]
'''),
    },
}

VARIANTS = {
    "batched_attention": {
        "swapaxes": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ values
''',
        "einsum_manual": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.einsum("...qd,...kd->...qk", queries, keys)
    if scale:
        scores = scores / keys.shape[-1] ** 0.5
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    return np.einsum("...qk,...kv->...qv", w, values)
''',
    },
    "causal_mask": {
        "tril_bool": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
''',
        "arange_compare": '''
def causal_mask(n_tokens):
    idx = np.arange(n_tokens)
    return idx[None, :] <= idx[:, None]
''',
    },
    "masked_attention": {
        "where_neg_inf": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -np.inf)
    return scipy.special.softmax(scores, axis=-1) @ values
''',
        "manual_exp_zero": '''
def masked_attention(queries, keys, values, mask):
    scores = np.einsum("...qd,...kd->...qk", queries, keys) / keys.shape[-1] ** 0.5
    mask = np.broadcast_to(mask, scores.shape)
    row_max = np.max(np.where(mask, scores, -np.inf), axis=-1, keepdims=True)
    e = np.where(mask, np.exp(np.where(mask, scores - row_max, 0.0)), 0.0)
    return (e / e.sum(axis=-1, keepdims=True)) @ values
''',
    },
    "padding_mask": {
        "broadcast_compare": '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None])[:, None, :]
''',
        "loop_rows": '''
def padding_mask(lengths, n_tokens):
    out = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b, length in enumerate(lengths):
        out[b, 0, :length] = True
    return out
''',
    },
}
