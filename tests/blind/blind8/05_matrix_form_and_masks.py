"""Blind set 8, notebook 05: Matrix form and masks. Written from notebooks/05_matrix_form_and_masks.ipynb only."""

MISTAKES = {
    "batched_attention": {
        "transpose_T_batched": (["swapaxes", "batch", ".t", "last two axes"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "softmax_no_axis": (["axis", "axis=-1", "each row", "whole"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores) @ values
'''),
        "softmax_axis_minus2": (["axis", "keys", "axis=-1", "columns"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-2) @ values
'''),
        "scale_ignored": (["scale", "scale=false", "sqrt"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "scale_by_n_keys": (["d_k", "width", "number of keys", "shape[-1]"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-2])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "naive_exp": (["overflow", "stable", "max", "nan"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    e = np.exp(scores)
    return (e / e.sum(axis=-1, keepdims=True)) @ values
'''),
    },
    "causal_mask": {
        "upper_triangle": (["upper", "triu", "lower", "j <= i"], '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
        "float_mask": (["bool", "dtype", "boolean"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
'''),
        "strict_lower": (["diagonal", "k=-1", "itself", "j <= i"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
'''),
        "inverted": (["true", "allowed", "invert", "blocked"], '''
def causal_mask(n_tokens):
    return ~np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
        "int_tril_astype_missing": (["bool", "dtype", "integer"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=int))
'''),
    },
    "masked_attention": {
        "mask_after_softmax": (["before the softmax", "renormalis", "sum to 1", "after"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = scipy.special.softmax(scores, axis=-1) * mask
    return weights @ values
'''),
        "mask_to_zero": (["-inf", "zero", "exp(0)", "negative infinity"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, 0.0)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "inverted_mask": (["true", "allowed", "invert", "~mask"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, -np.inf, scores)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "multiply_scores_by_mask": (["multiply", "-inf", "zero score", "where"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores * mask, axis=-1) @ values
'''),
        "small_negative_constant": (["-inf", "large", "-1e9", "exactly 0"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -100.0)
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
        "less_equal": (["<=", "off by one", "j < lengths", "strict"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens) <= lengths[:, None])[:, None, :]
'''),
        "missing_middle_axis": (["(batch, 1, n_tokens)", "axis", "none", "1"], '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < lengths[:, None]
'''),
        "broadcast_wrong_way": (["broadcast", "lengths[:, none]", "transpose", "(n_tokens, batch)"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[:, None] < lengths)[None]
'''),
        "inverted": (["true", "padding", "invert", "real tokens"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens) >= lengths[:, None])[:, None, :]
'''),
        "int_dtype": (["bool", "dtype", "boolean"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens) < lengths[:, None]).astype(int)[:, None, :]
'''),
    },
}

VARIANTS = {
    "batched_attention": {
        "swapaxes_scipy": '''
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
        scores = scores / np.sqrt(queries.shape[-1])
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
    i = np.arange(n_tokens)
    return i[None, :] <= i[:, None]
''',
    },
    "masked_attention": {
        "where_neg_inf": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -np.inf)
    return scipy.special.softmax(scores, axis=-1) @ values
''',
        "manual_softmax_finfo": '''
def masked_attention(queries, keys, values, mask):
    scores = np.matmul(queries, np.swapaxes(keys, -1, -2)) / np.sqrt(queries.shape[-1])
    mask = np.broadcast_to(mask, scores.shape)
    scores = np.where(mask, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.where(mask, np.exp(scores), 0.0)
    return (w / w.sum(axis=-1, keepdims=True)) @ values
''',
    },
    "padding_mask": {
        "broadcast": '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None])[:, None, :]
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
