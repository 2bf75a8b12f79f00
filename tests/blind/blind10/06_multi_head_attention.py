"""Blind set 10, notebook 06: multi-head attention. Written from notebooks/06_multi_head_attention.ipynb only."""

MISTAKES = {
    "split_heads": {
        "reshape_without_swap": (["swapaxes", "scrambled", "reshape", "tokens"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return x.reshape(*lead, n_heads, t, d // n_heads)
'''),
        "reshape_heads_last": (["n_heads, d_head", "order", "reshape"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.moveaxis(x.reshape(*lead, t, d // n_heads, n_heads), -1, -3)
'''),
        "transpose_all": ([".t", "transpose", "batch", "leading"], '''
def split_heads(x, n_heads):
    t, d = x.shape[-2:]
    return x.reshape(t, n_heads, d // n_heads).transpose(1, 0, 2)
'''),
        "no_swap_at_end": (["swapaxes", "heads", "tokens", "axis"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return x.reshape(*lead, t, n_heads, d // n_heads)
'''),
    },
    "combine_heads": {
        "reshape_without_swap": (["swapaxes", "reshape", "order", "scrambled"], '''
def combine_heads(x):
    *lead, h, t, dh = x.shape
    return x.reshape(*lead, t, h * dh)
'''),
        "sum_heads": (["concatenat", "sum", "side by side"], '''
def combine_heads(x):
    return np.swapaxes(x, -3, -2).sum(axis=-2)
'''),
        "mean_heads": (["concatenat", "mean", "average"], '''
def combine_heads(x):
    out = np.swapaxes(x, -3, -2)
    *lead, t, h, dh = out.shape
    return np.tile(out.mean(axis=-2), h)
'''),
        "wrong_swap_axes": (["axes", "heads", "tokens", "-3"], '''
def combine_heads(x):
    *lead, h, t, dh = x.shape
    return np.swapaxes(x, -1, -2).reshape(*lead, t, h * dh)
'''),
    },
    "head_weights": {
        "scale_d_model": (["d_head", "d_model", "sqrt"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(w_query.shape[1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "keys_T": ([".t", "last two axes", "swapaxes"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ k.T / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "no_split": (["split", "per head", "heads"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = inputs @ w_query
    k = inputs @ w_key
    d_head = q.shape[-1] // n_heads
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    w = e / e.sum(axis=-1, keepdims=True)
    return np.repeat(w[..., None, :, :], n_heads, axis=-3)
'''),
        "softmax_over_queries": (["axis", "rows", "columns", "keys"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-2, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-2, keepdims=True)
'''),
        "unstable": (["overflow", "maximum", "subtract"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    e = np.exp(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    "multi_head_attention": {
        "no_output_projection": (["w_out", "output projection", "mix"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(w @ v)
'''),
        "values_not_split": (["split", "values", "heads"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = inputs @ w_value
    return (w.mean(axis=-3) @ v) @ w_out
'''),
        "w_out_before_combine": (["order", "combine", "concatenat", "w_out"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    out = w @ v
    dh = out.shape[-1]
    mixed = sum(out[..., h, :, :] @ w_out[:dh] for h in range(n_heads))
    return mixed
'''),
        "transposed_weights": (["transpose", "weights", "rows"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(np.swapaxes(w, -1, -2) @ v) @ w_out
'''),
        "scale_d_model_inline": (["d_head", "d_model", "sqrt"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(inputs.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return combine_heads((e / e.sum(axis=-1, keepdims=True)) @ v) @ w_out
'''),
    },
    "torch_attn_mask": {
        "not_inverted": (["blocked", "invert", "true", "~"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask, n_heads, axis=0)
'''),
        "tile_order": (["order", "tile", "repeat", "b * n_heads + h"], '''
def torch_attn_mask(mask, n_heads):
    return ~np.tile(mask, (n_heads, 1, 1))
'''),
        "no_repeat": (["heads", "repeat", "batch * n_heads"], '''
def torch_attn_mask(mask, n_heads):
    return ~mask
'''),
        "in_place_invert": (["in place", "change", "copy"], '''
def torch_attn_mask(mask, n_heads):
    np.logical_not(mask, out=mask)
    return np.repeat(mask, n_heads, axis=0)
'''),
        "concatenate_heads_first": (["order", "head", "sequence", "stack"], '''
def torch_attn_mask(mask, n_heads):
    return ~np.stack([mask] * n_heads, axis=0).reshape(-1, *mask.shape[1:])
'''),
    },
}

VARIANTS = {
    "split_heads": {
        "reshape_swap": '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.swapaxes(x.reshape(*lead, t, n_heads, d // n_heads), -2, -3)
''',
        "moveaxis": '''
def split_heads(x, n_heads):
    new_shape = x.shape[:-1] + (n_heads, x.shape[-1] // n_heads)
    return np.moveaxis(np.reshape(x, new_shape), -2, -3).copy()
''',
    },
    "combine_heads": {
        "swap_reshape": '''
def combine_heads(x):
    *lead, h, t, dh = x.shape
    return np.swapaxes(x, -3, -2).reshape(*lead, t, h * dh)
''',
        "concatenate": '''
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-1)
''',
    },
    "head_weights": {
        "split_softmax": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "einsum_scipy": '''
def head_weights(inputs, w_query, w_key, n_heads):
    from scipy.special import softmax as sp_softmax
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    d_head = w_query.shape[1] // n_heads
    return sp_softmax(np.einsum("...hqd,...hkd->...hqk", q, k) / np.sqrt(d_head), axis=-1)
''',
    },
    "multi_head_attention": {
        "five_steps": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(w @ v) @ w_out
''',
        "head_loop": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q, k, v = inputs @ w_query, inputs @ w_key, inputs @ w_value
    dh = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        sl = slice(h * dh, (h + 1) * dh)
        s = q[..., sl] @ np.swapaxes(k[..., sl], -1, -2) / np.sqrt(dh)
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        outs.append((e / e.sum(axis=-1, keepdims=True)) @ v[..., sl])
    return np.concatenate(outs, axis=-1) @ w_out
''',
    },
    "torch_attn_mask": {
        "repeat_invert": '''
def torch_attn_mask(mask, n_heads):
    return ~np.repeat(mask, n_heads, axis=0)
''',
        "broadcast_reshape": '''
def torch_attn_mask(mask, n_heads):
    b, q, k = mask.shape
    out = np.broadcast_to(np.logical_not(mask)[:, None], (b, n_heads, q, k))
    return out.reshape(b * n_heads, q, k)
''',
    },
}
