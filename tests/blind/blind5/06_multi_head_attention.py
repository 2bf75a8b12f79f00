"""Blind set 5, notebook 06: Multi-head attention. Written from notebooks/06_multi_head_attention.ipynb only."""

MISTAKES = {
    "split_heads": {
        "reshape_no_swap": (["swapaxes", "transpose", "reshape alone"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return x.reshape(*lead, n_heads, t, d // n_heads)
'''),
        "interleaved_columns": (["block of columns", "interleav", "order"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.swapaxes(x.reshape(*lead, t, d // n_heads, n_heads), -1, -2).swapaxes(-3, -2)
'''),
        "batch_axes_dropped": (["leading", "batch axes", "..."], '''
def split_heads(x, n_heads):
    t, d = x.shape[-2], x.shape[-1]
    return np.swapaxes(x.reshape(t, n_heads, d // n_heads), 0, 1)
'''),
    },
    "combine_heads": {
        "reshape_no_swap": (["swapaxes", "transpose", "reshape alone"], '''
def combine_heads(x):
    *lead, h, t, dh = x.shape
    return x.reshape(*lead, t, h * dh)
'''),
        "concat_tokens": (["concatenat", "axis", "columns"], '''
def combine_heads(x):
    return np.concatenate(list(np.moveaxis(x, -3, 0)), axis=-2)
'''),
        "swap_wrong_axes": (["axes", "swapaxes", "heads and tokens"], '''
def combine_heads(x):
    *lead, h, t, dh = x.shape
    return np.swapaxes(x, -1, -2).reshape(*lead, t, h * dh)
'''),
    },
    "head_weights": {
        "scale_d_model": (["d_head", "sqrt", "d_model"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(w_query.shape[1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "no_max_subtraction": (["overflow", "maximum", "subtract"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "global_max_sum_axis": (["axis", "row", "keepdims"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-2, keepdims=True)
'''),
        "no_split_single_head": (["split", "heads", "per head"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = inputs @ w_query
    k = inputs @ w_key
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1] // n_heads)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return np.repeat(w[..., None, :, :], n_heads, axis=-3)
'''),
    },
    "multi_head_attention": {
        "no_output_projection": (["w_out", "output projection", "d_out"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(w @ v)
'''),
        "values_not_split": (["split", "values", "heads"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = inputs @ w_value
    return w.mean(axis=-3) @ v @ w_out
'''),
        "combine_without_swap": (["swapaxes", "combine", "reshape"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    o = w @ v
    *lead, h, t, dh = o.shape
    return o.reshape(*lead, t, h * dh) @ w_out
'''),
        "sum_heads": (["concatenat", "sum", "side by side"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    o = (w @ v).sum(axis=-3)
    return np.concatenate([o] * n_heads, axis=-1) @ w_out
'''),
    },
    "torch_attn_mask": {
        "not_inverted": (["invert", "blocked", "~mask"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask, n_heads, axis=0)
'''),
        "tile_instead_of_repeat": (["repeat", "tile", "b * n_heads + h"], '''
def torch_attn_mask(mask, n_heads):
    return np.tile(~mask, (n_heads, 1, 1))
'''),
        "inplace_change": (["in place", "copy", "do not change"], '''
def torch_attn_mask(mask, n_heads):
    np.logical_not(mask, out=mask)
    return np.repeat(mask, n_heads, axis=0)
'''),
        "float_mask": (["bool", "dtype", "-inf"], '''
def torch_attn_mask(mask, n_heads):
    return np.where(np.repeat(mask, n_heads, axis=0), 0.0, -np.inf)
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
        "stack_slices": '''
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    return np.stack([x[..., h * d_head:(h + 1) * d_head] for h in range(n_heads)], axis=-3)
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
        "split_then_softmax": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
        "scipy_einsum": '''
import scipy.special

def head_weights(inputs, w_query, w_key, n_heads):
    d_head = w_query.shape[1] // n_heads
    q = (inputs @ w_query).reshape(*inputs.shape[:-1], n_heads, d_head)
    k = (inputs @ w_key).reshape(*inputs.shape[:-1], n_heads, d_head)
    s = np.einsum("...ihd,...jhd->...hij", q, k) / np.sqrt(d_head)
    return scipy.special.softmax(s, axis=-1)
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
    q, k, v = inputs @ w_query, inputs @ w_key, inputs @ w_value
    d_head = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        sl = slice(h * d_head, (h + 1) * d_head)
        s = q[..., sl] @ np.swapaxes(k[..., sl], -1, -2) / np.sqrt(d_head)
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        outs.append((e / e.sum(axis=-1, keepdims=True)) @ v[..., sl])
    return np.concatenate(outs, axis=-1) @ w_out
''',
    },
    "torch_attn_mask": {
        "repeat_invert": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(~np.asarray(mask, dtype=bool), n_heads, axis=0)
''',
        "broadcast_reshape": '''
def torch_attn_mask(mask, n_heads):
    b, q, k = mask.shape
    return np.logical_not(np.broadcast_to(mask[:, None], (b, n_heads, q, k))).reshape(b * n_heads, q, k)
''',
    },
}
