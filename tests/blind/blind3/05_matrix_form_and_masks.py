"""Blind set 3, notebook 05: matrix form and masks. Written from notebooks/05_matrix_form_and_masks.ipynb only."""

MISTAKES = {
    "batched_attention": {
        "keys_T_all_axes": (["transpose", "last two axes", "swapaxes", ".t"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "softmax_no_axis": (["axis", "last axis", "whole", "each row"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores) @ values
'''),
        "scale_ignored": (["scale=false", "scale", "sqrt"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "scale_by_values_width": (["d_k", "d_v", "width of the keys"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(values.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "softmax_axis_minus2": (["axis", "columns", "rows", "axis=-2"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-2) @ values
'''),
        "naive_exp": (["overflow", "stable", "maximum", "nan"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True) @ values
'''),
    },
    "causal_mask": {
        "upper_triangle": (["upper", "triu", "lower", "future"], '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
        "float_mask": (["bool", "boolean", "dtype"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
'''),
        "strict_lower": (["diagonal", "j <= i", "itself", "k=-1"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
'''),
        "blocked_convention": (["convention", "true where", "allowed", "blocked", "inverted"], '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
'''),
    },
    "masked_attention": {
        "mask_to_zero": (["0", "zero", "-inf", "e^0"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, 0.0)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "zero_weights_after": (["after the softmax", "sum to 1", "renormal", "before"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = scipy.special.softmax(scores, axis=-1) * mask
    return weights @ values
'''),
        "inverted_mask": (["true where", "allowed", "inverted", "convention"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, -np.inf, scores)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "no_scale": (["sqrt", "scale", "d_k"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2)
    scores = np.where(mask, scores, -np.inf)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "large_negative_add": (["-inf", "large", "exactly 0", "add"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = scores - 1e4 * (~mask)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
    },
    "padding_mask": {
        "le_instead_of_lt": (["<=", "off-by-one", "j < lengths", "lengths"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] <= lengths[:, None])[:, None, :]
'''),
        "no_query_axis": (["(batch, 1, n_tokens)", "axis of length 1", "broadcast", "query axis"], '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < lengths[:, None]
'''),
        "wrong_axis_position": (["(batch, 1, n_tokens)", "axis", "keys", "queries"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] < lengths[:, None])[:, :, None]
'''),
        "inverted": (["true where", "padding", "allowed", "inverted"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] >= lengths[:, None])[:, None, :]
'''),
    },
}

VARIANTS = {
    "batched_attention": {
        "matrix": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ values
''',
        "einsum_manual": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.einsum("...qd,...kd->...qk", queries, keys)
    d_k = keys.shape[-1]
    scores = scores / np.sqrt(d_k) if scale else scores
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w /= w.sum(axis=-1, keepdims=True)
    return np.einsum("...qk,...kv->...qv", w, values)
''',
    },
    "causal_mask": {
        "tril": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
''',
        "broadcast": '''
def causal_mask(n_tokens):
    i = np.arange(n_tokens)
    return i[None, :] <= i[:, None]
''',
    },
    "masked_attention": {
        "where_inf": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -np.inf)
    return scipy.special.softmax(scores, axis=-1) @ values
''',
        "manual": '''
def masked_attention(queries, keys, values, mask):
    scores = np.matmul(queries, np.moveaxis(keys, -1, -2)) / keys.shape[-1] ** 0.5
    scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    w = np.exp(scores - m)
    w = w / w.sum(axis=-1, keepdims=True)
    return w @ values
''',
    },
    "padding_mask": {
        "broadcast": '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens) < np.asarray(lengths)[:, None])[:, None, :]
''',
        "loop": '''
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b, length in enumerate(lengths):
        mask[b, 0, :length] = True
    return mask
''',
    },
}
