"""Blind set 7, notebook 05: Matrix form and masks. Written from notebooks/05_matrix_form_and_masks.ipynb only."""

MISTAKES = {
    "batched_attention": {
        "keys_T_reverses_all": (["swapaxes", "transpose", ".t", "last two"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "softmax_axis_minus2": (["axis", "keys", "last axis", "rows"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-2) @ values
'''),
        "scale_ignored": (["scale", "sqrt", "scale=true"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "scale_by_dv": (["d_k", "width of the keys", "d_v", "values"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(values.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "softmax_no_axis": (["axis", "axis=-1", "whole", "every entry"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores) @ values
'''),
        "scale_false_divides_by_one_over": (["scale=false", "not divide", "k_d"], '''
def batched_attention(queries, keys, values, scale=True):
    d_k = keys.shape[-1]
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(d_k if scale else d_k ** 0.5)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
    },
    "causal_mask": {
        "upper_triangle": (["upper", "lower", "tril", "triu"], '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
        "strict_lower": (["diagonal", "itself", "j <= i", "strict"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
'''),
        "float_mask": (["bool", "boolean", "dtype"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
'''),
        "inverted_convention": (["true where", "allowed", "blocked", "inverted"], '''
def causal_mask(n_tokens):
    return ~np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
        "minus_inf_mask": (["bool", "boolean", "-inf", "true where"], '''
def causal_mask(n_tokens):
    return np.where(np.tril(np.ones((n_tokens, n_tokens), dtype=bool)), 0.0, -np.inf)
'''),
    },
    "masked_attention": {
        "mask_to_zero": (["-inf", "0", "before the softmax", "e^0"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, 0.0)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "zero_weights_after": (["after the softmax", "sum to 1", "renormal", "-inf"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = scipy.special.softmax(scores, axis=-1) * mask
    return weights @ values
'''),
        "inverted_mask": (["true where", "allowed", "inverted", "~mask"], '''
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
        "mask_transposed": (["transpose", "queries", "keys", "rows"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(np.swapaxes(mask, -1, -2), scores, -np.inf)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "renormalise_unstable": (["overflow", "before the softmax", "-inf", "largest score"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    w = np.exp(scores - scores.max(axis=-1, keepdims=True)) * mask
    w = w / w.sum(axis=-1, keepdims=True)
    return w @ values
'''),
    },
    "padding_mask": {
        "less_equal": (["<=", "off by one", "j < lengths", "strict"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] <= np.asarray(lengths)[:, None])[:, None, :]
'''),
        "missing_axis": (["(batch, 1, n_tokens)", "axis", "broadcast", "queries"], '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
'''),
        "wrong_axis_position": (["axis", "(batch, 1, n_tokens)", "keys", "queries"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None])[:, :, None]
'''),
        "inverted": (["true where", "padding", "inverted", "allowed"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] >= np.asarray(lengths)[:, None])[:, None, :]
'''),
        "int_mask": (["bool", "boolean", "dtype"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None])[:, None, :].astype(int)
'''),
    },
}

VARIANTS = {
    "batched_attention": {
        "swapaxes_softmax": '''
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
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
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
        "manual_softmax": '''
def masked_attention(queries, keys, values, mask):
    scores = np.matmul(queries, np.swapaxes(keys, -1, -2)) / keys.shape[-1] ** 0.5
    scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    e = np.exp(scores - m)
    return np.matmul(e / e.sum(axis=-1, keepdims=True), values)
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
