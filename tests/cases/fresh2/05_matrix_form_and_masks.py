'''Second fresh set, notebook 05: learner submissions written without the key.

Written on 2026-11-23 by a helper session that read only the exercise texts, signatures and solution
cells of solutions/05_matrix_form_and_masks.ipynb and the ids and titles of the mistake catalogue
(src/attention_course/mistakes.py); not autograder/key/, verdict.py, expected/, accuracy.py, nor any
other case file. Each case was checked only against the notebook's own solution (selfcheck.py), never
against the grader. Rule: this file is never edited after its first measurement.
'''

MISTAKES = {
    "batched_attention": {
        "keys_transpose_all_axes": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
''',
        "scale_by_sqrt_tokens": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-2])
    return softmax(scores, axis=-1) @ values
''',
        "weights_times_keys": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ keys
''',
        "uncatalogued:scale_flag_ignored": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
''',
        "softmax_wrong_axis:axis_minus_two": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-2) @ values
''',
        "softmax_over_all_entries": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores) @ values
''',
        "softmax_no_max_subtraction": '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores /= np.sqrt(keys.shape[-1])
    exps = np.exp(scores)
    return exps / exps.sum(axis=-1, keepdims=True) @ values
''',
        "keys_times_queries": '''
def batched_attention(queries, keys, values, scale=True):
    scores = keys @ np.swapaxes(queries, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
''',
    },
    "causal_mask": {
        "causal_mask_upper": '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
''',
        "causal_mask_off_by_one:strict": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
''',
        "causal_mask_off_by_one:k_plus_one": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
''',
        "mask_wrong_sign": '''
def causal_mask(n_tokens):
    return ~np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
''',
        "uncatalogued:float_not_bool": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
''',
        "causal_mask_upper:arange": '''
def causal_mask(n_tokens):
    i = np.arange(n_tokens)
    return i[:, None] <= i[None, :]
''',
    },
    "masked_attention": {
        "mask_with_zero": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, 0.0)
    return softmax(scores, axis=-1) @ values
''',
        "mask_with_zero:multiplied": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(scores * mask, axis=-1) @ values
''',
        "mask_after_softmax": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores, axis=-1) * mask
    return weights @ values
''',
        "mask_after_softmax:renormalised": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores, axis=-1) * mask
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ values
''',
        "mask_wrong_sign": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, -np.inf, scores)
    return softmax(scores, axis=-1) @ values
''',
        "keys_transpose_all_axes": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ keys.T / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ values
''',
        "mask_transposed:swapaxes": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(np.swapaxes(mask, -1, -2), scores, -np.inf)
    return softmax(scores, axis=-1) @ values
''',
        "no_scaling": '''
def masked_attention(queries, keys, values, mask):
    scores = np.where(mask, queries @ np.swapaxes(keys, -1, -2), -np.inf)
    return softmax(scores, axis=-1) @ values
''',
    },
    "padding_mask": {
        "padding_mask_off_by_one": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] <= np.asarray(lengths)[:, None]
    return keep[:, None, :]
''',
        "padding_mask_off_by_one:minus_one": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None] - 1
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
        "uncatalogued:query_axis_missing": '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
''',
        "uncatalogued:int_dtype": '''
def padding_mask(lengths, n_tokens):
    keep = (np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]).astype(int)
    return keep[:, None, :]
''',
        "uncatalogued:comparison_transposed": '''
def padding_mask(lengths, n_tokens):
    keep = np.arange(n_tokens)[:, None] < np.asarray(lengths)[None, :]
    return keep[:, None, :]
''',
    },
}

VARIANTS = {
    "batched_attention": {
        "einsum": '''
def batched_attention(queries, keys, values, scale=True):
    scores = np.einsum("...qd,...kd->...qk", queries, keys)
    if scale:
        scores = scores / np.sqrt(queries.shape[-1])
    weights = softmax(scores)
    return np.einsum("...qk,...kv->...qv", weights, values)
''',
        "manual_stable_softmax": '''
def batched_attention(queries, keys, values, scale=True):
    d_k = keys.shape[-1]
    scores = np.matmul(queries, keys.swapaxes(-2, -1)) / (np.sqrt(d_k) if scale else 1.0)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w /= w.sum(axis=-1, keepdims=True)
    return np.matmul(w, values)
''',
        "moveaxis": '''
def batched_attention(queries, keys, values, scale=True):
    k_t = np.moveaxis(keys, -1, -2)
    scores = queries @ k_t
    if scale is True:
        scores = scores * (1.0 / np.sqrt(keys.shape[-1]))
    return scipy.special.softmax(scores, axis=-1) @ values
''',
    },
    "causal_mask": {
        "arange_compare": '''
def causal_mask(n_tokens):
    positions = np.arange(n_tokens)
    return positions[None, :] <= positions[:, None]
''',
        "np_tri": '''
def causal_mask(n_tokens):
    return np.tri(n_tokens, dtype=bool)
''',
        "not_upper": '''
def causal_mask(n_tokens):
    return ~np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
''',
    },
    "masked_attention": {
        "large_negative": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -1e30)
    return softmax(scores, axis=-1) @ values
''',
        "additive_inf": '''
def masked_attention(queries, keys, values, mask):
    d_k = keys.shape[-1]
    scores = np.einsum("...qd,...kd->...qk", queries, keys) / np.sqrt(d_k)
    scores = scores + np.where(mask, 0.0, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    exps = np.exp(scores)
    return (exps / exps.sum(axis=-1, keepdims=True)) @ values
''',
    },
    "padding_mask": {
        "loop": '''
def padding_mask(lengths, n_tokens):
    mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b, length in enumerate(lengths):
        mask[b, 0, :length] = True
    return mask
''',
        "three_axes": '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens) < np.asarray(lengths)[:, None, None]
''',
        "expand_dims": '''
def padding_mask(lengths, n_tokens):
    lengths = np.array(lengths).reshape(-1, 1)
    return np.expand_dims(np.arange(n_tokens).reshape(1, -1) < lengths, axis=1)
''',
    },
}
