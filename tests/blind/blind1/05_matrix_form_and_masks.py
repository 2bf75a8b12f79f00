"""Blind set 1, notebook 05: Step by step to the matrix form, with batches and masks (NumPy). Written from notebooks/05_matrix_form_and_masks.ipynb only."""

MISTAKES = {
    "batched_attention": {
        "dot_T_on_batch": (["swapaxes", ".t", "last two axes", "reverses all"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores) @ values
'''),
        "scores_transposed": (["transposed", "keys @ queries", "symmetric", "queries @ keys"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = keys @ np.swapaxes(queries, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores) @ values
'''),
        "scipy_softmax_no_axis": (["axis=-1", "each row", "whole matrix", "axis=none"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    weights = scipy.special.softmax(scores)
    return weights @ values
'''),
        "softmax_over_queries": (["axis=-1", "rows", "columns", "over the keys"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-2) @ values
'''),
        "ignores_scale_flag": (["scale=false", "k_d = 1", "not divide", "scale flag"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(scores) @ values
'''),
        "scale_from_values": (["d_k", "width of the keys", "keys.shape", "d_v"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(values.shape[-1])
    return softmax(scores) @ values
'''),
        "divide_by_d_k": (["square root", "sqrt"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / keys.shape[-1]
    return softmax(scores) @ values
'''),
    },
    "causal_mask": {
        "float_mask": (["bool", "boolean", "dtype"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
'''),
        "blocked_convention": (["allowed", "blocked", "convention", "inverted"], '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
'''),
        "strict_lower": (["diagonal", "itself", "j <= i", "k=-1"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
'''),
        "upper_triangle": (["upper", "lower", "transpose", "future"], '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
    },
    "masked_attention": {
        "fill_zero_not_inf": (["-inf", "infinity", "e^0", "instead of 0"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, 0.0)
    return softmax(scores) @ values
'''),
        "zero_after_softmax": (["renormal", "sum to 1", "after the softmax", "before the softmax"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores) * mask
    return weights @ values
'''),
        "renormalise_after_softmax": (["underflow", "before the softmax", "0/0", "forbidden key"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores) * mask
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ values
'''),
        "mask_inverted": (["inverted", "true where", "allowed", "convention"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, -np.inf, scores)
    return softmax(scores) @ values
'''),
        "no_scaling": (["sqrt", "scale", "always scaled", "square root"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2)
    scores = np.where(mask, scores, -np.inf)
    return softmax(scores) @ values
'''),
        "boolean_index_assignment": (["broadcast", "np.where", "broadcastable"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores[~mask] = -np.inf
    return softmax(scores) @ values
'''),
    },
    "padding_mask": {
        "less_or_equal": (["<=", "j < lengths", "off by one", "one too many"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] <= lengths[:, None])[:, None, :]
'''),
        "missing_query_axis": (["(batch, 1, n_tokens)", "axis of length 1", "queries axis", "np.newaxis"], '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < lengths[:, None]
'''),
        "batch_and_tokens_swapped": (["transpose", "lengths[:, none]", "batch first", "swapped"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[:, None] < lengths[None, :])[:, None, :]
'''),
        "true_on_padding": (["inverted", "real tokens", "allowed", "true for the first"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] >= lengths[:, None])[:, None, :]
'''),
        "int_mask": (["bool", "boolean", "dtype"], '''
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=int)
    for b, length in enumerate(lengths):
        mask[b, 0, :length] = 1
    return mask
'''),
    },
}

VARIANTS = {
    "batched_attention": {
        "swapaxes": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)       # (..., n_queries, n_keys)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    weights = softmax(scores, axis=-1)
    return weights @ values
''',
        "einsum_manual_softmax": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.einsum("...qd,...kd->...qk", queries, keys)
    if scale:
        scores = scores / keys.shape[-1] ** 0.5
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
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
    positions = np.arange(n_tokens)
    return positions[None, :] <= positions[:, None]
''',
        "not_triu": '''
def causal_mask(n_tokens):
    return ~np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
''',
    },
    "masked_attention": {
        "where_minus_inf": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ values
''',
        "additive_mask_manual": '''
def masked_attention(queries, keys, values, mask):
    d_k = keys.shape[-1]
    scores = np.matmul(queries, np.moveaxis(keys, -1, -2)) / np.sqrt(d_k)
    scores = scores + np.where(mask, 0.0, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    return np.matmul(weights, values)
''',
    },
    "padding_mask": {
        "broadcast_compare": '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, None, :] < np.asarray(lengths)[:, None, None]
''',
        "loop_over_batch": '''
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b, length in enumerate(lengths):
        mask[b, 0, :length] = True
    return mask
''',
    },
}
