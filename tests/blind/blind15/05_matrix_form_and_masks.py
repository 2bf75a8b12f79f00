"""Blind set 15, notebook 05: Matrix form and masks. Written from notebooks/05_matrix_form_and_masks.ipynb only."""

MISTAKES = {
    "batched_attention": {
        "transpose_dot_T": (["swapaxes", "batch", "transpose", "last two"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "softmax_no_axis": (["axis", "every entry", "last axis"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores) @ values
'''),
        "softmax_axis_queries": (["axis", "keys", "columns"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-2) @ values
'''),
        "scale_ignored": (["scale", "scale=false", "flag"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "sqrt_of_n_keys": (["d_k", "width of the keys", "sqrt"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-2])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "divide_by_dk": (["sqrt", "square root"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / keys.shape[-1]
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
    },
    "causal_mask": {
        "upper_triangle": (["upper", "triu", "lower"], '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
        "strict_lower": (["diagonal", "itself", "k=-1"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
'''),
        "float_mask": (["bool", "dtype", "boolean"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
'''),
        "inverted": (["true", "blocked", "invert"], '''
def causal_mask(n_tokens):
    return ~np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
    },
    "masked_attention": {
        "mask_after_softmax": (["after the softmax", "before", "renormal"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = scipy.special.softmax(scores, axis=-1) * mask
    return weights @ values
'''),
        "mask_inverted": (["true", "where", "invert", "allowed"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, -np.inf, scores)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "multiply_scores_by_mask": (["multiply", "zero score", "-inf"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores * mask, axis=-1) @ values
'''),
        "zero_fill": (["-inf", "zero score", "exactly 0"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, 0.0)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "not_scaled": (["sqrt", "scale", "d_k"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2)
    scores = np.where(mask, scores, -np.inf)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
    },
    "padding_mask": {
        "less_equal": (["<=", "off by one", "j < lengths"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] <= np.asarray(lengths)[:, None])[:, None, :]
'''),
        "missing_middle_axis": (["axis", "(batch, 1, n_tokens)", "middle"], '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
'''),
        "wrong_broadcast": (["broadcast", "lengths[:, none]", "batch"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[:, None] < np.asarray(lengths)[None, :])[:, None, :]
'''),
        "int_mask": (["bool", "dtype", "boolean"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, None, :] < np.asarray(lengths)[:, None, None]).astype(int)
'''),
        "inverted": (["true", "padding", "invert"], '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, None, :] >= np.asarray(lengths)[:, None, None]
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
    s = np.einsum("...qd,...kd->...qk", queries, keys)
    if scale:
        s = s / keys.shape[-1] ** 0.5
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return np.einsum("...qk,...kv->...qv", e / e.sum(axis=-1, keepdims=True), values)
''',
    },
    "causal_mask": {
        "tril": '''
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
        "manual_zeroing": '''
def masked_attention(queries, keys, values, mask):
    scores = np.matmul(queries, np.swapaxes(keys, -1, -2)) / keys.shape[-1] ** 0.5
    mask = np.broadcast_to(mask, scores.shape)
    row_max = np.max(np.where(mask, scores, -np.inf), axis=-1, keepdims=True)
    e = np.where(mask, np.exp(np.where(mask, scores - row_max, 0.0)), 0.0)
    return (e / e.sum(axis=-1, keepdims=True)) @ values
''',
    },
    "padding_mask": {
        "broadcast": '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, None, :] < np.asarray(lengths)[:, None, None]
''',
        "loop": '''
def padding_mask(lengths, n_tokens):
    out = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b, n in enumerate(lengths):
        out[b, 0, :n] = True
    return out
''',
    },
}
