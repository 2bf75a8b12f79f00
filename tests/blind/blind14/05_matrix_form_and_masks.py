"""Blind set 14, notebook 05: Matrix form and masks. Written from notebooks/05_matrix_form_and_masks.ipynb only."""

MISTAKES = {
    "batched_attention": {
        "transpose_T_batch": ([".t", "swapaxes", "last two axes"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "softmax_axis_minus2": (["axis", "keys", "rows"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-2) @ values
'''),
        "softmax_no_axis": (["axis", "whole", "each row"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores) @ values
'''),
        "scale_ignored": (["scale", "k_d", "not divide"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "scale_by_n_keys": (["d_k", "width", "number of keys"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-2])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "naive_softmax": (["overflow", "maximum", "stable"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    e = np.exp(scores)
    return (e / e.sum(axis=-1, keepdims=True)) @ values
'''),
    },
    "causal_mask": {
        "upper_triangle": (["upper", "tril", "below the diagonal"], '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
        "strict_lower": (["diagonal", "itself", "k=-1"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
'''),
        "float_ones": (["bool", "dtype", "boolean"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
'''),
        "inverted": (["inverted", "true", "allowed"], '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
'''),
    },
    "masked_attention": {
        "mask_after_softmax": (["after the softmax", "sum to 1", "renormalis"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = scipy.special.softmax(scores, axis=-1) * mask
    return weights @ values
'''),
        "inverted_mask": (["true", "inverted", "allowed"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, -np.inf, scores)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "multiply_scores_by_mask": (["zero", "-inf", "multiply"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores * mask, axis=-1) @ values
'''),
        "small_negative_fill": (["-inf", "large negative", "exactly 0"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -10.0)
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
        "less_equal": (["<=", "off by one", "lengths"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] <= lengths[:, None])[:, None, :]
'''),
        "missing_middle_axis": (["shape", "(batch, 1, n_tokens)", "axis"], '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < lengths[:, None]
'''),
        "tokens_by_batch": (["broadcast", "transpose", "axis"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[:, None] < lengths[None, :])[:, None, :]
'''),
        "int_dtype": (["bool", "dtype", "boolean"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, None, :] < lengths[:, None, None]).astype(int)
'''),
        "padding_true": (["true", "real tokens", "inverted"], '''
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
    return scipy.special.softmax(scores, axis=-1) @ values
''',
        "einsum_manual": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.einsum("...qd,...kd->...qk", queries, keys)
    if scale:
        scores = scores / np.sqrt(queries.shape[-1])
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
        "arange_compare": '''
def causal_mask(n_tokens):
    idx = np.arange(n_tokens)
    return idx[None, :] <= idx[:, None]
''',
    },
    "masked_attention": {
        "where_inf": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -np.inf)
    return scipy.special.softmax(scores, axis=-1) @ values
''',
        "manual_exp_zero": '''
def masked_attention(queries, keys, values, mask):
    scores = np.einsum("...qd,...kd->...qk", queries, keys) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    e = np.where(mask, np.exp(scores - m), 0.0)
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
