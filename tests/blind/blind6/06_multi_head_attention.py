"""Blind set 6, notebook 06: Multi-head attention. Written from notebooks/06_multi_head_attention.ipynb only."""

MISTAKES = {
    "split_heads": {
        "reshape_only": (["transpose", "swapaxes", "reshape", "scrambled"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, n_heads, tokens, d_model // n_heads)
'''),
        "swap_first_axes": (["leading", "batch", "axes", "-2", "-3"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, tokens, n_heads, d_model // n_heads).swapaxes(0, 1)
'''),
        "interleaved": (["interleav", "block", "columns", "d_head, n_heads"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    y = x.reshape(*lead, tokens, d_model // n_heads, n_heads)
    return np.moveaxis(y, -1, -3)
'''),
        "unbatched_only": (["batch", "leading axes", "any number"], '''
def split_heads(x, n_heads):
    tokens, d_model = x.shape[-2], x.shape[-1]
    return x.reshape(tokens, n_heads, d_model // n_heads).transpose(1, 0, 2)
'''),
    },
    "combine_heads": {
        "reshape_only": (["transpose", "swapaxes", "reshape", "before"], '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return x.reshape(*lead, tokens, heads * d_head)
'''),
        "concat_wrong_axis": (["axis", "side by side", "columns", "hstack"], '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return np.concatenate([x[..., h, :, :] for h in range(heads)], axis=-2).reshape(*lead, tokens, heads * d_head)
'''),
        "interleaved": (["interleav", "order", "-3", "block"], '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    y = np.moveaxis(x, -3, -1)
    return y.reshape(*lead, tokens, heads * d_head)
'''),
        "unbatched_only": (["batch", "leading axes", "any number"], '''
def combine_heads(x):
    heads, tokens, d_head = x.shape[-3:]
    return x.reshape(-1, heads, tokens, d_head)[0].transpose(1, 0, 2).reshape(tokens, heads * d_head)
'''),
    },
    "head_weights": {
        "sqrt_d_model": (["d_head", "sqrt(d_model)", "width of a head", "per head"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(w_query.shape[1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "no_max": (["overflow", "max", "stable", "subtract"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "softmax_columns": (["axis", "rows", "column", "sum to 1"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-2, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-2, keepdims=True)
'''),
        "no_transpose_split": (["transpose", "swapaxes", "reshape", "scrambled"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = inputs @ w_query
    k = inputs @ w_key
    *lead, t, d = q.shape
    q = q.reshape(*lead, n_heads, t, d // n_heads)
    k = k.reshape(*lead, n_heads, t, d // n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d // n_heads)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "no_scaling": (["sqrt", "scale", "d_head"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2)
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
        "sqrt_d_model": (["d_head", "sqrt(d_model)", "width of a head"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(inputs.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    w = e / e.sum(axis=-1, keepdims=True)
    return combine_heads(w @ v) @ w_out
'''),
        "combine_no_transpose": (["transpose", "combine", "swapaxes", "reshape"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    heads = w @ v
    *lead, h, t, dh = heads.shape
    return heads.reshape(*lead, t, h * dh) @ w_out
'''),
        "keys_as_values": (["w_value", "values", "keys"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_key, n_heads)
    return combine_heads(w @ v) @ w_out
'''),
        "unprojected_values": (["w_value", "project", "values"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs, n_heads)
    return combine_heads(w @ v) @ w_value @ w_out
'''),
    },
    "torch_attn_mask": {
        "not_inverted": (["invert", "blocked", "~", "opposite", "true where"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask, n_heads, axis=0)
'''),
        "tile_order": (["repeat", "tile", "order", "b * n_heads + h"], '''
def torch_attn_mask(mask, n_heads):
    return np.tile(~mask, (n_heads, 1, 1))
'''),
        "no_repeat": (["n_heads", "repeat", "batch * n_heads", "heads"], '''
def torch_attn_mask(mask, n_heads):
    return ~mask
'''),
        "in_place": (["in place", "modif", "copy", "changes"], '''
def torch_attn_mask(mask, n_heads):
    np.logical_not(mask, out=mask)
    return np.repeat(mask, n_heads, axis=0)
'''),
        "float_mask": (["bool", "boolean", "float", "-inf", "dtype"], '''
def torch_attn_mask(mask, n_heads):
    blocked = np.where(mask, 0.0, -np.inf)
    return np.repeat(blocked, n_heads, axis=0)
'''),
    },
}

VARIANTS = {
    "split_heads": {
        "reshape_swap": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return np.swapaxes(x.reshape(*lead, tokens, n_heads, d_model // n_heads), -3, -2)
''',
        "moveaxis": '''
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    y = x.reshape(x.shape[:-1] + (n_heads, d_head))
    return np.moveaxis(y, -2, -3).copy()
''',
    },
    "combine_heads": {
        "swap_reshape": '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return np.swapaxes(x, -3, -2).reshape(*lead, tokens, heads * d_head)
''',
        "concatenate": '''
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-1)
''',
    },
    "head_weights": {
        "split_then_softmax": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "einsum": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = inputs @ w_query
    k = inputs @ w_key
    d_head = q.shape[-1] // n_heads
    q = q.reshape(q.shape[:-1] + (n_heads, d_head))
    k = k.reshape(k.shape[:-1] + (n_heads, d_head))
    s = np.einsum("...ihd,...jhd->...hij", q, k) / np.sqrt(d_head)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
    },
    "multi_head_attention": {
        "helpers": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ values) @ w_out
''',
        "loop_over_heads": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q, k, v = inputs @ w_query, inputs @ w_key, inputs @ w_value
    d_head = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        s = q[..., cols] @ np.swapaxes(k[..., cols], -1, -2) / np.sqrt(d_head)
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        outs.append((e / e.sum(axis=-1, keepdims=True)) @ v[..., cols])
    return np.concatenate(outs, axis=-1) @ w_out
''',
    },
    "torch_attn_mask": {
        "repeat": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(~np.asarray(mask, dtype=bool), n_heads, axis=0)
''',
        "broadcast": '''
def torch_attn_mask(mask, n_heads):
    b, q, k = mask.shape
    blocked = np.logical_not(mask)
    return np.broadcast_to(blocked[:, None], (b, n_heads, q, k)).reshape(b * n_heads, q, k)
''',
    },
}
