"""Eighth fresh set, notebook 05: matrix form, batches and masks."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}

# --------------------------------------------------------------------------- batched_attention
_BA = '''
def batched_attention(queries, keys, values, scale=True):
    scores = SCORES
    if scale:
        scores = scores / DIVISOR
    weights = softmax(scores, axis=-1)
    return weights @ values
'''


def _ba(scores: str = "queries @ np.swapaxes(keys, -1, -2)", divisor: str = "np.sqrt(keys.shape[-1])") -> str:
    return _BA.replace("SCORES", scores).replace("DIVISOR", divisor)


MISTAKES["batched_attention"] = {
    "no_scaling": '''
def batched_attention(queries, keys, values, scale=True):
    weights = softmax(queries @ np.swapaxes(keys, -1, -2), axis=-1)
    return weights @ values
''',
    "scale_by_d_k": _ba(divisor="keys.shape[-1]"),
    "scale_applied_twice": '''
def batched_attention(queries, keys, values, scale=True):
    d_k = keys.shape[-1]
    if scale:
        queries = queries / np.sqrt(d_k)
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(d_k)
    return softmax(scores, axis=-1) @ values
''',
    "scale_by_sqrt_tokens": _ba(divisor="np.sqrt(keys.shape[-2])"),
    "scale_by_sqrt_d_v:values_width": _ba(divisor="np.sqrt(values.shape[-1])"),
    "keys_transpose_all_axes": _ba(scores="queries @ keys.T"),
    "keys_without_transpose": _ba(scores="queries @ keys"),
    "keys_times_queries": _ba(scores="keys @ np.swapaxes(queries, -1, -2)"),
    "softmax_wrong_axis": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-2) @ values
''',
    "weights_transposed": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return np.swapaxes(softmax(scores, axis=-1), -1, -2) @ values
''',
    "softmax_no_max_subtraction": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True) @ values
''',
    "uncatalogued:scale_flag_ignored": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
''',
}
VARIANTS["batched_attention"] = {
    "einsum": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.einsum("...qd,...kd->...qk", queries, keys)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return np.einsum("...qk,...kv->...qv", softmax(scores, axis=-1), values)
''',
    "queries_scaled_first": '''
import scipy.special


def batched_attention(queries, keys, values, scale=True):
    d_k = keys.shape[-1]
    factor = 1 / np.sqrt(d_k) if scale else 1.0
    scores = np.matmul(queries * factor, np.moveaxis(keys, -1, -2))
    return np.matmul(scipy.special.softmax(scores, axis=-1), values)
''',
}

# --------------------------------------------------------------------------- causal_mask
MISTAKES["causal_mask"] = {
    "causal_mask_upper": '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
''',
    "causal_mask_upper:reversed_comparison": '''
def causal_mask(n_tokens):
    i = np.arange(n_tokens)
    return i[:, None] <= i[None, :]
''',
    "causal_mask_off_by_one:diagonal_hidden": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
''',
    "causal_mask_off_by_one:next_token_seen": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
''',
    "mask_wrong_sign:negated_tril": '''
def causal_mask(n_tokens):
    return ~np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
''',
    "loop_leftover:last_row": '''
def causal_mask(n_tokens):
    mask = np.zeros((n_tokens, n_tokens), dtype=bool)
    for i in range(n_tokens - 1):
        mask[i, :i + 1] = True
    return mask
''',
    "uncatalogued:float_mask": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
''',
    "uncatalogued:int_mask": '''
def causal_mask(n_tokens):
    return np.tri(n_tokens, dtype=int)
''',
}
VARIANTS["causal_mask"] = {
    "tri": '''
def causal_mask(n_tokens):
    return np.tri(n_tokens, dtype=bool)
''',
    "comparison": '''
def causal_mask(n_tokens):
    rows = np.arange(n_tokens)[:, None]
    cols = np.arange(n_tokens)[None, :]
    return cols <= rows
''',
    "not_triu_above": '''
def causal_mask(n_tokens):
    return ~np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
''',
}

# --------------------------------------------------------------------------- masked_attention
_MA = '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    MASKLINE
    weights = softmax(scores, axis=-1)
    return weights @ values
'''


def _ma(line: str) -> str:
    return _MA.replace("MASKLINE", line)


MISTAKES["masked_attention"] = {
    "mask_with_zero": _ma("scores = np.where(mask, scores, 0.0)"),
    "mask_with_zero:multiplied": _ma("scores = scores * mask"),
    "mask_finite_value:minus_100": _ma("scores = np.where(mask, scores, -100.0)"),
    "mask_wrong_sign": _ma("scores = np.where(mask, -np.inf, scores)"),
    "mask_transposed": _ma("scores = np.where(np.swapaxes(mask, -1, -2), scores, -np.inf)"),
    "mask_after_softmax": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores, axis=-1) * mask
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ values
''',
    "mask_after_softmax:not_renormalised": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = np.where(mask, softmax(scores, axis=-1), 0.0)
    return weights @ values
''',
    "no_scaling": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2)
    scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ values
''',
    "softmax_no_max_subtraction": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    e = np.where(mask, np.exp(scores), 0.0)
    return e / e.sum(axis=-1, keepdims=True) @ values
''',
    "uncatalogued:boolean_index_needs_full_mask": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores[~mask] = -np.inf
    return softmax(scores, axis=-1) @ values
''',
}
VARIANTS["masked_attention"] = {
    "additive_inf": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores + np.where(mask, 0.0, -np.inf), axis=-1)
    return weights @ values
''',
    "finfo_min": '''
def masked_attention(queries, keys, values, mask):
    d_k = keys.shape[-1]
    scores = np.einsum("...qd,...kd->...qk", queries, keys) / np.sqrt(d_k)
    scores = np.where(mask, scores, np.finfo(scores.dtype).min)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return (e / e.sum(axis=-1, keepdims=True)) @ values
''',
}

# --------------------------------------------------------------------------- padding_mask
MISTAKES["padding_mask"] = {
    "padding_mask_off_by_one": '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] <= np.asarray(lengths)[:, None])[:, None, :]
''',
    "padding_mask_off_by_one:lengths_minus_one": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens) < (np.asarray(lengths) - 1)[:, None]
    return keep[:, None, :]
''',
    "padding_mask_on_queries": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
    return keep[:, :, None]
''',
    "mask_wrong_sign": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] >= np.asarray(lengths)[:, None]
    return keep[:, None, :]
''',
    "loop_leftover:last_sequence": '''
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b in range(len(lengths) - 1):
        mask[b, 0, :lengths[b]] = True
    return mask
''',
    "uncatalogued:no_query_axis": '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
''',
    "uncatalogued:int_mask": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
    return keep[:, None, :].astype(int)
''',
    "uncatalogued:axis_in_front": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
    return keep[None, :, :]
''',
}
VARIANTS["padding_mask"] = {
    "loop": '''
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b, length in enumerate(lengths):
        mask[b, 0, :length] = True
    return mask
''',
    "three_axes_broadcast": '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, None, :] < np.asarray(lengths)[:, None, None]
''',
    "greater_outer": '''
def padding_mask(lengths, n_tokens):
    return np.expand_dims(np.greater.outer(np.asarray(lengths), np.arange(n_tokens)), 1)
''',
}
