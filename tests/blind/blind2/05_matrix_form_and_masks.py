"""Blind set 2, notebook 05: Matrix form, batches and masks. Written from notebooks/05_matrix_form_and_masks.ipynb only."""

MISTAKES = {
    "batched_attention": {
        "dot_T_on_batch": (["swapaxes", ".t", "last two axes", "transpose"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores) @ values
'''),
        "softmax_without_axis": (["axis", "whole", "each row", "all entries"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores) @ values
'''),
        "always_scales": (["scale=false", "scale", "flag", "k_d = 1"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(scores) @ values
'''),
        "sqrt_of_n_keys": (["d_k", "width of the keys", "shape[-1]", "n_keys"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-2])
    return softmax(scores) @ values
'''),
        "naive_softmax_overflow": (["overflow", "stable", "max", "nan"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    e = np.exp(scores)
    return (e / e.sum(axis=-1, keepdims=True)) @ values
'''),
        "scores_transposed": (["transpose", "keys @ queries", "rows", "columns"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.swapaxes(keys @ np.swapaxes(queries, -1, -2), -1, -2)
    scores = np.swapaxes(scores, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores) @ values
'''),
    },
    "causal_mask": {
        "upper_triangle": (["upper", "lower", "triu", "future"], '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
        "float_dtype": (["bool", "boolean", "dtype"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
'''),
        "strict_lower_no_diagonal": (["diagonal", "itself", "j <= i", "k=-1"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
'''),
        "blocked_convention": (["convention", "blocked", "allowed", "invert"], '''
def causal_mask(n_tokens):
    return ~np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
    },
    "masked_attention": {
        "masked_scores_zero": (["-inf", "infinity", "zero", "before the softmax"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, 0.0)
    return softmax(scores) @ values
'''),
        "zero_weights_no_renormalise": (["renormal", "after the softmax", "sum to 1"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores) * mask
    return weights @ values
'''),
        "mask_inverted": (["convention", "true where", "allowed", "invert"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, -np.inf, scores)
    return softmax(scores) @ values
'''),
        "not_scaled": (["sqrt", "scale", "divide"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2)
    scores = np.where(mask, scores, -np.inf)
    return softmax(scores) @ values
'''),
        "zero_after_then_renormalise": (["nan", "underflow", "before the softmax", "forbidden"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores) * mask
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ values
'''),
    },
    "padding_mask": {
        "missing_query_axis": (["(batch, 1, n_tokens)", "axis of length 1", "none", "newaxis"], '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < lengths[:, None]
'''),
        "less_or_equal": (["j < lengths", "off by one", "<=", "off-by-one"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] <= lengths[:, None])[:, None, :]
'''),
        "integer_dtype": (["bool", "dtype", "boolean"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] < lengths[:, None]).astype(int)[:, None, :]
'''),
        "padding_true": (["convention", "allowed", "invert", "padding"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] >= lengths[:, None])[:, None, :]
'''),
        "broadcast_transposed": (["broadcast", "transpose", "lengths[:, none]", "axes"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[:, None] < lengths[None, :])[:, None, :]
'''),
    },
}

VARIANTS = {
    "batched_attention": {
        "swapaxes_matmul": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
''',
        "einsum_ellipsis": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.einsum("...qd,...kd->...qk", queries, keys)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    return np.einsum("...qk,...kv->...qv", weights, values)
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
        "np_tri": '''
def causal_mask(n_tokens):
    return np.tri(n_tokens, dtype=bool)
''',
    },
    "masked_attention": {
        "where_minus_inf": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ values
''',
        "manual_masked_exp": '''
def masked_attention(queries, keys, values, mask):
    scores = np.einsum("...qd,...kd->...qk", queries, keys) / np.sqrt(keys.shape[-1])
    masked = np.where(mask, scores, -np.inf)
    m = masked.max(axis=-1, keepdims=True)
    e = np.exp(masked - m)
    return (e / e.sum(axis=-1, keepdims=True)) @ values
''',
    },
    "padding_mask": {
        "broadcast_compare": '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, None, :] < np.asarray(lengths)[:, None, None]
''',
        "loop_fill": '''
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b, length in enumerate(lengths):
        mask[b, 0, :length] = True
    return mask
''',
    },
}
