"""Blind set 12, notebook 05: Matrix form and masks. Written from notebooks/05_matrix_form_and_masks.ipynb only."""

MISTAKES = {
    "batched_attention": {
        "transpose_dot_T": (["swapaxes", "batch", ".t", "last two axes"], '''
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
        "softmax_no_axis": (["axis", "whole array", "each row"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores) @ values
'''),
        "scale_false_still_divides": (["scale=false", "scale", "flag"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "dk_from_values": (["d_k", "width of the keys", "values", "d_v"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(values.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "dk_from_n_keys": (["d_k", "shape[-1]", "number of keys"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-2])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
    },
    "causal_mask": {
        "upper_triangle": (["triu", "lower", "upper", "j <= i"], '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
        "strict_lower": (["diagonal", "j <= i", "k=-1", "itself"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
'''),
        "float_mask": (["bool", "dtype", "boolean"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
'''),
        "inverted_blocked_true": (["convention", "true where", "allowed", "invert"], '''
def causal_mask(n_tokens):
    return ~np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
        "additive_float_mask": (["-inf", "bool", "float mask", "boolean"], '''
def causal_mask(n_tokens):
    return np.where(np.tril(np.ones((n_tokens, n_tokens), dtype=bool)), 0.0, -np.inf)
'''),
    },
    "masked_attention": {
        "masked_to_zero": (["-inf", "zero", "0", "e^0"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, 0.0)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "zero_weights_after": (["after the softmax", "sum to 1", "before", "renormal"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = scipy.special.softmax(scores, axis=-1) * mask
    return weights @ values
'''),
        "inverted_mask": (["true where", "allowed", "invert", "convention"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, -np.inf, scores)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "multiply_scores_by_mask": (["multipl", "-inf", "zero", "0"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = scores * mask
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "large_negative_small": (["-inf", "exactly 0", "large negative", "-1e9"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -100.0)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "unscaled": (["sqrt", "scale", "d_k"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2)
    scores = np.where(mask, scores, -np.inf)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
    },
    "padding_mask": {
        "less_equal": (["j < lengths", "<=", "off by one"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] <= lengths[:, None])[:, None, :]
'''),
        "missing_middle_axis": (["(batch, 1, n_tokens)", "axis", "broadcast", "queries"], '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < lengths[:, None]
'''),
        "axes_swapped": (["batch", "lengths[:, none]", "order of the axes", "broadcast"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[:, None] < lengths)[:, None, :]
'''),
        "inverted": (["true where", "allowed", "padding", "invert"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] >= lengths[:, None])[:, None, :]
'''),
        "square_mask": (["(batch, 1, n_tokens)", "1", "query"], '''
def padding_mask(lengths, n_tokens):
    row = np.arange(n_tokens)[None, :] < lengths[:, None]
    return np.repeat(row[:, None, :], n_tokens, axis=1)
'''),
        "integer_dtype": (["bool", "dtype", "boolean"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, None, :] < lengths[:, None, None]).astype(int)
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
        "einsum_manual_softmax": '''
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
        "masked_max_manual": '''
def masked_attention(queries, keys, values, mask):
    scores = np.matmul(queries, np.swapaxes(keys, -1, -2)) / np.sqrt(keys.shape[-1])
    mask = np.broadcast_to(mask, scores.shape)
    scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    e = np.where(mask, np.exp(scores - m), 0.0)
    return (e / e.sum(axis=-1, keepdims=True)) @ values
''',
    },
    "padding_mask": {
        "broadcast_compare": '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None])[:, None, :]
''',
        "loop": '''
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b, n in enumerate(lengths):
        mask[b, 0, :n] = True
    return mask
''',
    },
}
