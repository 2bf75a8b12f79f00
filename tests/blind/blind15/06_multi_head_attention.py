"""Blind set 15, notebook 06: Multi-head attention. Written from notebooks/06_multi_head_attention.ipynb only."""

MISTAKES = {
    "split_heads": {
        "reshape_without_swap": (["swapaxes", "transpose", "axes"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return x.reshape(*lead, n_heads, t, d // n_heads)
'''),
        "heads_interleaved": (["block", "columns", "interleav", "order"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    y = x.reshape(*lead, t, d // n_heads, n_heads)
    return np.moveaxis(y, -1, -3)
'''),
        "batch_axes_ignored": (["leading", "batch", "axes", "-3"], '''
def split_heads(x, n_heads):
    t, d = x.shape[-2], x.shape[-1]
    return np.swapaxes(x.reshape(t, n_heads, d // n_heads), 0, 1)
'''),
        "swap_wrong_axes": (["swapaxes", "axis", "-3"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.swapaxes(x.reshape(*lead, t, n_heads, d // n_heads), -1, -2)
'''),
    },
    "combine_heads": {
        "reshape_without_swap": (["swapaxes", "transpose", "heads"], '''
def combine_heads(x):
    *lead, h, t, dh = x.shape
    return x.reshape(*lead, t, h * dh)
'''),
        "concat_on_tokens": (["tokens", "columns", "side by side"], '''
def combine_heads(x):
    *lead, h, t, dh = x.shape
    return np.concatenate([x[..., i, :, :] for i in range(h)], axis=-2).reshape(*lead, t, h * dh)
'''),
        "interleaved": (["order", "block", "head h", "interleav"], '''
def combine_heads(x):
    *lead, h, t, dh = x.shape
    y = np.moveaxis(x, -3, -1)
    return y.reshape(*lead, t, h * dh)
'''),
        "sum_heads": (["sum", "concatenat", "side by side"], '''
def combine_heads(x):
    return x.sum(axis=-3)
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
        "no_scaling": (["sqrt", "scale", "d_head"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "no_max_subtraction": (["overflow", "maximum", "subtract"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    e = np.exp(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]))
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "softmax_wrong_axis": (["axis", "rows", "keys"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s - s.max(axis=-2, keepdims=True))
    return e / e.sum(axis=-2, keepdims=True)
'''),
        "single_head": (["split", "heads", "n_heads"], '''
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
        "no_output_projection": (["w_out", "output projection"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ v)
'''),
        "values_not_split": (["split", "values", "heads"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = inputs @ w_value
    return (weights.mean(axis=-3) @ v) @ w_out
'''),
        "d_head_from_d_model": (["d_head", "projected", "d_model"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(inputs.shape[-1] // n_heads)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return combine_heads((e / e.sum(axis=-1, keepdims=True)) @ v) @ w_out
'''),
        "combine_without_swap": (["combine", "swapaxes", "transpose"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    out = weights @ v
    *lead, h, t, dh = out.shape
    return out.reshape(*lead, t, h * dh) @ w_out
'''),
        "weights_times_keys": (["values", "w_value", "keys"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    return combine_heads(weights @ k) @ w_out
'''),
    },
    "torch_attn_mask": {
        "not_inverted": (["invert", "blocked", "~"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask, n_heads, axis=0)
'''),
        "tile_instead_of_repeat": (["repeat", "tile", "order", "b * n_heads + h"], '''
def torch_attn_mask(mask, n_heads):
    return np.tile(~mask, (n_heads, 1, 1))
'''),
        "inplace_invert": (["in place", "change", "copy"], '''
def torch_attn_mask(mask, n_heads):
    np.logical_not(mask, out=mask)
    return np.repeat(mask, n_heads, axis=0)
'''),
        "no_head_copies": (["n_heads", "repeat", "batch * n_heads"], '''
def torch_attn_mask(mask, n_heads):
    return ~mask
'''),
        "float_mask": (["bool", "dtype", "boolean"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(1.0 - mask, n_heads, axis=0)
'''),
    },
}

VARIANTS = {
    "split_heads": {
        "reshape_swap": '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.swapaxes(x.reshape(*lead, t, n_heads, d // n_heads), -3, -2)
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
    y = np.swapaxes(x, -3, -2)
    return y.reshape(*y.shape[:-2], y.shape[-2] * y.shape[-1])
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
        "einsum_scipy": '''
from scipy.special import softmax as _softmax

def head_weights(inputs, w_query, w_key, n_heads):
    q = inputs @ w_query
    k = inputs @ w_key
    d_head = q.shape[-1] // n_heads
    q = q.reshape(*q.shape[:-1], n_heads, d_head)
    k = k.reshape(*k.shape[:-1], n_heads, d_head)
    s = np.einsum("...ihd,...jhd->...hij", q, k) / np.sqrt(d_head)
    return _softmax(s, axis=-1)
''',
    },
    "multi_head_attention": {
        "five_steps": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ v) @ w_out
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
        "repeat_invert": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(~np.asarray(mask, dtype=bool), n_heads, axis=0)
''',
        "broadcast_reshape": '''
def torch_attn_mask(mask, n_heads):
    b, q, k = mask.shape
    blocked = np.logical_not(mask)
    return np.broadcast_to(blocked[:, None], (b, n_heads, q, k)).reshape(b * n_heads, q, k).copy()
''',
    },
}
