"""Blind set 5, notebook 05: Matrix form, batches and masks. Written from notebooks/05_matrix_form_and_masks.ipynb only."""

MISTAKES = {
    "batched_attention": {
        "transpose_T_batch": (["swapaxes", "last two axes", ".t"], '''
def batched_attention(queries, keys, values, scale=True):
    s = queries @ keys.T
    if scale:
        s = s / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(s, axis=-1) @ values
'''),
        "softmax_wrong_axis": (["axis", "keys", "columns"], '''
def batched_attention(queries, keys, values, scale=True):
    s = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        s = s / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(s, axis=-2) @ values
'''),
        "scale_false_ignored": (["scale=false", "k_d = 1", "do not divide"], '''
def batched_attention(queries, keys, values, scale=True):
    s = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(s, axis=-1) @ values
'''),
        "sqrt_of_n_keys": (["d_k", "width of the keys", "sqrt"], '''
def batched_attention(queries, keys, values, scale=True):
    s = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        s = s / np.sqrt(keys.shape[-2])
    return scipy.special.softmax(s, axis=-1) @ values
'''),
        "softmax_no_axis": (["axis", "every entry", "each row"], '''
def batched_attention(queries, keys, values, scale=True):
    s = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        s = s / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(s) @ values
'''),
    },
    "causal_mask": {
        "upper_triangle": (["upper", "tril", "lower"], '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
        "strict_lower": (["diagonal", "itself", "j <= i"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
'''),
        "float_mask": (["bool", "dtype", "boolean"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
'''),
    },
    "masked_attention": {
        "mask_after_softmax": (["before the softmax", "renormal", "sum to 1"], '''
def masked_attention(queries, keys, values, mask):
    s = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    w = scipy.special.softmax(s, axis=-1) * mask
    return w @ values
'''),
        "mask_inverted": (["invert", "true where", "~mask"], '''
def masked_attention(queries, keys, values, mask):
    s = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    s = np.where(mask, -np.inf, s)
    return scipy.special.softmax(s, axis=-1) @ values
'''),
        "multiply_scores_by_mask": (["zero", "-inf", "multiply"], '''
def masked_attention(queries, keys, values, mask):
    s = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(s * mask, axis=-1) @ values
'''),
        "no_scale": (["sqrt", "scale", "d_k"], '''
def masked_attention(queries, keys, values, mask):
    s = queries @ np.swapaxes(keys, -1, -2)
    s = np.where(mask, s, -np.inf)
    return scipy.special.softmax(s, axis=-1) @ values
'''),
    },
    "padding_mask": {
        "less_equal": (["<=", "off by one", "j < lengths"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] <= lengths[:, None])[:, None, :]
'''),
        "missing_middle_axis": (["(batch, 1, n_tokens)", "axis", "none"], '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < lengths[:, None]
'''),
        "lengths_as_count_ones": (["first lengths[b]", "last", "padding"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] >= n_tokens - lengths[:, None])[:, None, :]
'''),
    },
}

VARIANTS = {
    "batched_attention": {
        "swapaxes": '''
def batched_attention(queries, keys, values, scale=True):
    s = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        s = s / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(s, axis=-1) @ values
''',
        "einsum_manual_softmax": '''
def batched_attention(queries, keys, values, scale=True):
    s = np.einsum("...qd,...kd->...qk", queries, keys)
    if scale:
        s = s / np.sqrt(queries.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
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
    i = np.arange(n_tokens)
    return i[None, :] <= i[:, None]
''',
    },
    "masked_attention": {
        "where_neg_inf": '''
def masked_attention(queries, keys, values, mask):
    s = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    s = np.where(mask, s, -np.inf)
    return scipy.special.softmax(s, axis=-1) @ values
''',
        "manual_masked_exp": '''
def masked_attention(queries, keys, values, mask):
    s = np.matmul(queries, np.swapaxes(keys, -1, -2)) / np.sqrt(keys.shape[-1])
    mask = np.broadcast_to(mask, s.shape)
    m = np.where(mask, s, -np.inf).max(axis=-1, keepdims=True)
    e = np.where(mask, np.exp(np.where(mask, s - m, 0.0)), 0.0)
    return (e / e.sum(axis=-1, keepdims=True)) @ values
''',
    },
    "padding_mask": {
        "arange": '''
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
