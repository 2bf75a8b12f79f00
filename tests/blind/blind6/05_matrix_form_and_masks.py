"""Blind set 6, notebook 05: Matrix form, batches and masks. Written from notebooks/05_matrix_form_and_masks.ipynb only."""

MISTAKES = {
    "batched_attention": {
        "dot_T": (["swapaxes", ".t", "last two axes", "batch"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
'''),
        "softmax_no_axis": (["axis", "every entry", "row", "axis=none"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores) @ values
'''),
        "always_scaled": (["scale=false", "scale", "flag", "k_d = 1"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(scores) @ values
'''),
        "sqrt_n_keys": (["d_k", "width of the keys", "number of keys", "shape[-1]"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-2])
    return softmax(scores) @ values
'''),
        "softmax_columns": (["axis", "column", "last axis", "keys"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-2) @ values
'''),
    },
    "causal_mask": {
        "upper_triangle": (["upper", "tril", "triu", "lower", "future"], '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
        "not_boolean": (["bool", "boolean", "dtype"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
'''),
        "strict_lower": (["diagonal", "itself", "k=-1", "j <= i"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
'''),
        "inverted": (["invert", "true where", "allowed", "opposite"], '''
def causal_mask(n_tokens):
    return ~np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
    },
    "masked_attention": {
        "mask_after_softmax": (["renormal", "sum to 1", "before the softmax", "after the softmax"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores) * mask
    return weights @ values
'''),
        "zero_fill": (["-inf", "zero", "large negative", "fill"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, 0.0)
    return softmax(scores) @ values
'''),
        "inverted_mask": (["invert", "true where", "opposite", "hidden"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, -np.inf, scores)
    return softmax(scores) @ values
'''),
        "no_scaling": (["sqrt", "scale", "d_k"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2)
    scores = np.where(mask, scores, -np.inf)
    return softmax(scores) @ values
'''),
        "renormalise_after": (["before the softmax", "underflow", "nan", "after the softmax"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores) * mask
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ values
'''),
    },
    "padding_mask": {
        "less_equal": (["<=", "off-by-one", "j < lengths", "strictly"], '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, None, :] <= lengths[:, None, None]
'''),
        "missing_axis": (["(batch, 1, n_tokens)", "middle", "newaxis", "axis"], '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < lengths[:, None]
'''),
        "wrong_reshape": (["reshape", "transpose", "order", "broadcast"], '''
def padding_mask(lengths, n_tokens):
    m = np.arange(n_tokens)[:, None] < lengths[None, :]
    return m.reshape(len(lengths), 1, n_tokens)
'''),
        "int_dtype": (["bool", "boolean", "dtype"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, None, :] < lengths[:, None, None]).astype(int)
'''),
        "inverted": (["padding", "invert", "true where", "opposite"], '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, None, :] >= lengths[:, None, None]
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
    return softmax(scores, axis=-1) @ values
''',
        "einsum": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.einsum("...qd,...kd->...qk", queries, keys)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    return np.einsum("...qk,...kv->...qv", w, values)
''',
    },
    "causal_mask": {
        "tril": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
''',
        "arange": '''
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
    return softmax(scores, axis=-1) @ values
''',
        "manual": '''
def masked_attention(queries, keys, values, mask):
    scores = np.matmul(queries, np.swapaxes(keys, -1, -2)) / np.sqrt(keys.shape[-1])
    mask = np.broadcast_to(mask, scores.shape)
    masked = np.where(mask, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ values
''',
    },
    "padding_mask": {
        "broadcast": '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens) < np.asarray(lengths)[:, None])[:, None, :]
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
