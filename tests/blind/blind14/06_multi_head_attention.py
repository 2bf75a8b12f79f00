"""Blind set 14, notebook 06: Multi-head attention. Written from notebooks/06_multi_head_attention.ipynb only."""

MISTAKES = {
    "split_heads": {
        "reshape_no_swap": (["swapaxes", "transpose", "reshape alone"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return x.reshape(*lead, n_heads, t, d // n_heads)
'''),
        "heads_last_reshape_order": (["order", "reshape", "interleav"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.swapaxes(x.reshape(*lead, t, d // n_heads, n_heads), -1, -2).swapaxes(-2, -3)
'''),
        "batch_not_supported": (["leading", "batch axes", "..."], '''
def split_heads(x, n_heads):
    t, d = x.shape[-2], x.shape[-1]
    return x.reshape(t, n_heads, d // n_heads).transpose(1, 0, 2)
'''),
        "swap_wrong_axes": (["axes", "swapaxes", "-3"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.swapaxes(x.reshape(*lead, t, n_heads, d // n_heads), -1, -2)
'''),
        "d_head_equals_n_heads": (["d_head", "n_heads", "d_model // n_heads"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.swapaxes(x.reshape(*lead, t, d // n_heads, n_heads), -2, -3)
'''),
    },
    "combine_heads": {
        "reshape_no_swap": (["swapaxes", "transpose", "reshape alone"], '''
def combine_heads(x):
    *lead, h, t, dh = x.shape
    return x.reshape(*lead, t, h * dh)
'''),
        "concat_on_tokens": (["tokens", "axis", "columns"], '''
def combine_heads(x):
    *lead, h, t, dh = x.shape
    return x.reshape(*lead, h * t, dh)
'''),
        "sum_heads": (["sum", "concatenat", "side by side"], '''
def combine_heads(x):
    return x.sum(axis=-3)
'''),
        "swap_last_two": (["axes", "-3", "swapaxes"], '''
def combine_heads(x):
    *lead, h, t, dh = x.shape
    return np.swapaxes(x, -1, -2).reshape(*lead, t, h * dh)
'''),
    },
    "head_weights": {
        "scale_by_d_model": (["d_head", "sqrt", "d_model"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(w_query.shape[1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "softmax_over_queries": (["axis", "rows", "keys"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-2, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-2, keepdims=True)
'''),
        "no_stable_shift": (["overflow", "maximum", "subtract"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    e = np.exp(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]))
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "global_max_shift": (["row", "maximum", "keepdims"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s - s.max())
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "split_before_projection": (["project", "split", "before"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs, n_heads) @ split_heads(w_query, n_heads)
    k = split_heads(inputs, n_heads) @ split_heads(w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    "multi_head_attention": {
        "no_output_projection": (["w_out", "output projection", "w_o"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(w @ v)
'''),
        "values_not_split": (["split", "heads", "values"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = inputs @ w_value
    return (w @ v[..., None, :, :]).mean(axis=-3) @ w_out
'''),
        "reshape_instead_of_combine": (["combine_heads", "swapaxes", "reshape"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    out = w @ v
    return out.reshape(*inputs.shape[:-1], -1) @ w_out
'''),
        "single_head_scale": (["d_head", "sqrt", "d_model"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(inputs.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return combine_heads((e / e.sum(axis=-1, keepdims=True)) @ v) @ w_out
'''),
        "w_out_before_combine": (["order", "w_out", "after"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value @ w_out, n_heads)
    return combine_heads(w @ v)
'''),
    },
    "torch_attn_mask": {
        "not_inverted": (["invert", "blocked", "~"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask, n_heads, axis=0)
'''),
        "tile_not_repeat": (["repeat", "tile", "order"], '''
def torch_attn_mask(mask, n_heads):
    return np.tile(~mask, (n_heads, 1, 1))
'''),
        "no_head_copies": (["n_heads", "batch * n_heads", "repeat"], '''
def torch_attn_mask(mask, n_heads):
    return ~mask
'''),
        "minus_one_int": (["bool", "~", "not"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(1 - mask.astype(int), n_heads, axis=0)
'''),
        "inplace_invert": (["in place", "change", "copy"], '''
def torch_attn_mask(mask, n_heads):
    np.logical_not(mask, out=mask)
    return np.repeat(mask, n_heads, axis=0)
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
        "moveaxis_stack": '''
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    return np.stack([x[..., h * d_head:(h + 1) * d_head] for h in range(n_heads)], axis=-3)
''',
    },
    "combine_heads": {
        "swap_reshape": '''
def combine_heads(x):
    *lead, h, t, dh = x.shape
    return np.swapaxes(x, -2, -3).reshape(*lead, t, h * dh)
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
    from scipy.special import softmax
    d_head = w_query.shape[1] // n_heads
    q = (inputs @ w_query).reshape(*inputs.shape[:-1], n_heads, d_head)
    k = (inputs @ w_key).reshape(*inputs.shape[:-1], n_heads, d_head)
    return softmax(np.einsum("...ihd,...jhd->...hij", q, k) / np.sqrt(d_head), axis=-1)
''',
    },
    "multi_head_attention": {
        "five_steps": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(w @ v) @ w_out
''',
        "loop_over_heads": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    d_head = w_query.shape[1] // n_heads
    outs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        q, k, v = inputs @ w_query[:, cols], inputs @ w_key[:, cols], inputs @ w_value[:, cols]
        s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
        s = s - s.max(axis=-1, keepdims=True)
        e = np.exp(s)
        outs.append((e / e.sum(axis=-1, keepdims=True)) @ v)
    return np.concatenate(outs, axis=-1) @ w_out
''',
    },
    "torch_attn_mask": {
        "repeat_invert": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(~mask, n_heads, axis=0)
''',
        "broadcast_reshape": '''
def torch_attn_mask(mask, n_heads):
    b, q, k = mask.shape
    return np.broadcast_to(np.logical_not(mask)[:, None], (b, n_heads, q, k)).reshape(b * n_heads, q, k)
''',
    },
}
