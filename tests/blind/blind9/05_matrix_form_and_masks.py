"""Blind set 9, notebook 05: Matrix form, batches and masks. Written from notebooks/05_matrix_form_and_masks.ipynb only."""

MISTAKES = {
    "batched_attention": {
        "dot_T_on_batch": (["swapaxes", ".t", "last two axes", "batch"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores) @ values
'''),
        "transposed_scores": (["transpose", "keys @ queries", "symmetric"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = keys @ np.swapaxes(queries, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores) @ values
'''),
        "softmax_over_queries": (["axis", "row", "over the keys", "axis=-2"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-2) @ values
'''),
        "scale_by_d_v": (["d_k", "width of the keys", "d_v", "values"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(values.shape[-1])
    return softmax(scores) @ values
'''),
        "scale_flag_ignored": (["scale=false", "scale", "flag", "k_d = 1"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(scores) @ values
'''),
        "scipy_softmax_no_axis": (["axis", "whole", "each row", "axis=none"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores) @ values
'''),
        "divide_by_d_k": (["sqrt", "square root"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / keys.shape[-1]
    return softmax(scores) @ values
'''),
    },
    "causal_mask": {
        "upper_triangle": (["upper", "tril", "triu", "future"], '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
        "float_not_bool": (["bool", "dtype", "boolean"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
'''),
        "strict_lower": (["diagonal", "k=-1", "itself", "j <= i"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
'''),
        "blocked_convention": (["blocked", "allowed", "invert", "convention"], '''
def causal_mask(n_tokens):
    return ~np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
        "one_above_diagonal": (["diagonal", "k=1", "one above", "future"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
'''),
    },
    "masked_attention": {
        "masked_to_zero": (["-inf", "zero", "0 instead", "still get"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, 0.0)
    return softmax(scores) @ values
'''),
        "zero_after_softmax": (["renormal", "after the softmax", "sum to 1"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores) * mask
    return weights @ values
'''),
        "inverted_mask": (["invert", "true where allowed", "convention", "blocked"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, -np.inf, scores)
    return softmax(scores) @ values
'''),
        "renormalise_after": (["underflow", "nan", "before the softmax", "renormal"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores) * mask
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ values
'''),
        "no_scaling": (["sqrt", "scal", "d_k"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2)
    scores = np.where(mask, scores, -np.inf)
    return softmax(scores) @ values
'''),
        "dot_T_on_batch": (["swapaxes", ".t", "last two axes", "batch"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ keys.T / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -np.inf)
    return softmax(scores) @ values
'''),
    },
    "padding_mask": {
        "less_or_equal": (["<=", "off by one", "strictly", "lengths[b]"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] <= lengths[:, None])[:, None, :]
'''),
        "missing_query_axis": (["(batch, 1, n_tokens)", "axis of length 1", "middle axis", "none"], '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < lengths[:, None]
'''),
        "broadcast_transposed": (["transpose", "broadcast", "lengths[:, none]", "batch axis"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[:, None] < lengths)[:, None, :]
'''),
        "padding_true": (["invert", "padding", "allowed", "blocked"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] >= lengths[:, None])[:, None, :]
'''),
        "int_dtype": (["bool", "dtype", "boolean"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] < lengths[:, None])[:, None, :].astype(int)
'''),
        "hides_query_rows_too": (["rows", "queries", "keys only", "(batch, 1, n_tokens)"], '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] < lengths[:, None]
    return keep[:, :, None] & keep[:, None, :]
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
        "einsum_manual_softmax": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.einsum("...qd,...kd->...qk", queries, keys)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return np.einsum("...qk,...kd->...qd", weights, values)
''',
        "matmul_func": '''
def batched_attention(queries, keys, values, scale=True):
    d_k = keys.shape[-1]
    factor = 1.0 / np.sqrt(d_k) if scale else 1.0
    scores = np.matmul(queries, np.moveaxis(keys, -1, -2)) * factor
    return np.matmul(scipy.special.softmax(scores, axis=-1), values)
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
    return softmax(scores, axis=-1) @ values
''',
        "large_negative_fill": '''
def masked_attention(queries, keys, values, mask):
    scores = np.einsum("...qd,...kd->...qk", queries, keys) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -1e30)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores) * mask
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ values
''',
    },
    "padding_mask": {
        "arange_broadcast": '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, None, :] < np.asarray(lengths)[:, None, None])
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
