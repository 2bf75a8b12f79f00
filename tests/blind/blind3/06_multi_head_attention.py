"""Blind set 3, notebook 06: multi-head attention. Written from notebooks/06_multi_head_attention.ipynb only."""

MISTAKES = {
    "split_heads": {
        "reshape_only": (["swapaxes", "scrambled", "reshape", "axes"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, n_heads, tokens, d_model // n_heads)
'''),
        "transpose_all": (["transpose", "leading", "batch axes", "swapaxes"], '''
def split_heads(x, n_heads):
    tokens, d_model = x.shape[-2:]
    return x.reshape(*x.shape[:-1], n_heads, d_model // n_heads).transpose(1, 0, 2)
'''),
        "interleaved_columns": (["block of columns", "interleav", "h * d_head", "columns"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    d_head = d_model // n_heads
    return np.swapaxes(x.reshape(*lead, tokens, d_head, n_heads), -1, -2).swapaxes(-3, -2)
'''),
        "swap_wrong_axes": (["axes", "swapaxes", "-3", "heads and tokens"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return np.swapaxes(x.reshape(*lead, tokens, n_heads, d_model // n_heads), -1, -2)
'''),
    },
    "combine_heads": {
        "reshape_only": (["swapaxes", "tokens", "heads", "order"], '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return x.reshape(*lead, tokens, heads * d_head)
'''),
        "sum_heads": (["concatenat", "side by side", "sum"], '''
def combine_heads(x):
    return x.sum(axis=-3)
'''),
        "wrong_order_columns": (["column order", "head h", "d_head", "interleav"], '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return np.moveaxis(x, -3, -1).reshape(*lead, tokens, heads * d_head)
'''),
        "transpose_3d_only": (["leading", "batch axes", "transpose", "any number"], '''
def combine_heads(x):
    heads, tokens, d_head = x.shape[-3:]
    return x.transpose(1, 0, 2).reshape(tokens, heads * d_head)
'''),
    },
    "head_weights": {
        "scale_dmodel": (["d_head", "d_model", "sqrt", "width"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(w_query.shape[1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "keys_dot_T": (["transpose", "last two axes", "swapaxes", ".t"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ k.T / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "no_max_subtract": (["overflow", "maximum", "subtract", "stable"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    e = np.exp(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]))
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "global_max_no_keepdims": (["row maximum", "keepdims", "each row", "whole"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s - s.max())
    return e / e.sum(axis=-2, keepdims=True)
'''),
        "no_split": (["split", "heads", "split_heads"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = inputs @ w_query
    k = inputs @ w_key
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1] // n_heads)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    w = e / e.sum(axis=-1, keepdims=True)
    return np.repeat(w[..., None, :, :], n_heads, axis=-3)
'''),
    },
    "multi_head_attention": {
        "no_output_projection": (["w_out", "output projection", "mix"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ v)
'''),
        "values_not_split": (["split", "value", "heads", "split_heads"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = inputs @ w_value
    return weights.mean(axis=-3) @ v @ w_out
'''),
        "weights_transposed": (["transpose", "weights", "rows", "keys"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(np.swapaxes(weights, -1, -2) @ v) @ w_out
'''),
        "w_out_before_combine": (["order", "combine", "w_out", "concatenat"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value @ w_out, n_heads)
    return combine_heads(weights @ v)
'''),
        "w_out_transposed": (["transpose", "w_out", "d_out"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ v) @ w_out.T
'''),
    },
    "torch_attn_mask": {
        "not_inverted": (["invert", "blocked", "convention", "true where"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask, n_heads, axis=0)
'''),
        "tile_order": (["order", "tile", "repeat", "b * n_heads + h", "heads of sequence"], '''
def torch_attn_mask(mask, n_heads):
    return np.tile(~mask, (n_heads, 1, 1))
'''),
        "not_repeated": (["n_heads", "repeat", "batch * n_heads", "heads"], '''
def torch_attn_mask(mask, n_heads):
    return ~mask
'''),
        "inplace_invert": (["in place", "change", "mask", "copy"], '''
def torch_attn_mask(mask, n_heads):
    np.logical_not(mask, out=mask)
    return np.repeat(mask, n_heads, axis=0)
'''),
        "float_mask": (["boolean", "bool", "dtype", "-inf"], '''
def torch_attn_mask(mask, n_heads):
    return np.where(np.repeat(mask, n_heads, axis=0), 0.0, -np.inf)
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
    return np.moveaxis(x.reshape(x.shape[:-1] + (n_heads, d_head)), -2, -3)
''',
    },
    "combine_heads": {
        "swap_reshape": '''
def combine_heads(x):
    y = np.swapaxes(x, -3, -2)
    return y.reshape(*y.shape[:-2], y.shape[-2] * y.shape[-1])
''',
        "concatenate": '''
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-1)
''',
    },
    "head_weights": {
        "stable": '''
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
    d_head = w_query.shape[1] // n_heads
    q = split_heads(np.einsum("...td,de->...te", inputs, w_query), n_heads)
    k = split_heads(np.einsum("...td,de->...te", inputs, w_key), n_heads)
    s = np.einsum("...qd,...kd->...qk", q, k) / np.sqrt(d_head)
    s -= np.max(s, axis=-1, keepdims=True)
    w = np.exp(s)
    return w / np.sum(w, axis=-1, keepdims=True)
''',
    },
    "multi_head_attention": {
        "five_steps": '''
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
        s = s - s.max(axis=-1, keepdims=True)
        w = np.exp(s)
        w = w / w.sum(axis=-1, keepdims=True)
        outs.append(w @ v[..., cols])
    return np.concatenate(outs, axis=-1) @ w_out
''',
    },
    "torch_attn_mask": {
        "repeat": '''
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
