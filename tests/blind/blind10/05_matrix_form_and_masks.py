"""Blind set 10, notebook 05: matrix form and masks. Written from notebooks/05_matrix_form_and_masks.ipynb only."""

MISTAKES = {
    "batched_attention": {
        "keys_dot_T": ([".t", "last two axes", "swapaxes", "transpose"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
'''),
        "softmax_axis_minus2": (["axis", "keys", "last axis"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-2) @ values
'''),
        "scale_ignored": (["scale", "scale=false", "sqrt"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=-1) @ values
'''),
        "scale_by_n_keys": (["d_k", "width", "n_keys"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-2])
    return softmax(scores, axis=-1) @ values
'''),
        "softmax_flattened": (["axis", "whole", "all scores"], '''
def batched_attention(queries, keys, values, scale=True):
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    return softmax(scores, axis=None) @ values
'''),
    },
    "causal_mask": {
        "upper_triangle": (["below", "upper", "tril", "future"], '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
        "strict_lower": (["diagonal", "itself", "k=-1", "on the diagonal"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
'''),
        "int_dtype": (["bool", "boolean", "dtype"], '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
'''),
        "inverted_convention": (["true where", "allowed", "blocked", "invert"], '''
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
'''),
    },
    "masked_attention": {
        "zero_scores": (["-inf", "zero", "infinity", "e^0"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, 0.0)
    return softmax(scores, axis=-1) @ values
'''),
        "zero_weights_after": (["after", "renormal", "sum to 1", "before the softmax"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = softmax(scores, axis=-1) * mask
    return weights @ values
'''),
        "mask_inverted": (["true", "allowed", "invert", "where"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, -np.inf, scores)
    return softmax(scores, axis=-1) @ values
'''),
        "no_scale": (["sqrt", "scale", "d_k"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2)
    scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ values
'''),
        "unstable_exp": (["overflow", "max", "stable", "large"], '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    e = np.where(mask, np.exp(scores), 0.0)
    return e / e.sum(axis=-1, keepdims=True) @ values
'''),
    },
    "padding_mask": {
        "less_equal": (["<", "<=", "off by one", "lengths"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens) <= np.asarray(lengths)[:, None])[:, None, :]
'''),
        "missing_middle_axis": (["(batch, 1, n_tokens)", "axis", "1", "broadcast"], '''
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
'''),
        "wrong_broadcast_axis": (["queries", "keys", "axis", "(batch, 1, n_tokens)"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None])[:, :, None]
'''),
        "inverted": (["true", "padding", "allowed", "invert"], '''
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] >= np.asarray(lengths)[:, None])[:, None, :]
'''),
        "transposed_compare": (["batch", "transpose", "broadcast", "lengths[b]"], '''
def padding_mask(lengths, n_tokens):
    lengths = np.asarray(lengths)
    return (np.arange(n_tokens)[:, None] < lengths[None, :]).T[:, None, :][..., ::-1]
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
        "tril": '''
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
''',
        "arange_compare": '''
def causal_mask(n_tokens):
    i = np.arange(n_tokens)
    return i[:, None] >= i[None, :]
''',
    },
    "masked_attention": {
        "where_inf": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ values
''',
        "renormalise_after": '''
def masked_attention(queries, keys, values, mask):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    e = np.where(mask, np.exp(scores - m), 0.0)
    return (e / e.sum(axis=-1, keepdims=True)) @ values
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
