"""Blind set 7, notebook 06: Multi-head attention. Written from notebooks/06_multi_head_attention.ipynb only."""

MISTAKES = {
    "split_heads": {
        "reshape_only": (["swapaxes", "transpose", "axes", "reshape alone"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return x.reshape(*lead, n_heads, t, d // n_heads)
'''),
        "swap_wrong_axes": (["axes", "swapaxes", "heads, tokens", "-3"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.swapaxes(x.reshape(*lead, t, n_heads, d // n_heads), -2, -1)
'''),
        "interleaved_heads": (["block", "interleav", "columns", "h * d_head"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.moveaxis(x.reshape(*lead, t, d // n_heads, n_heads), -1, -3)
'''),
        "fixed_axes_no_batch": (["leading", "batch", "axes", "negative"], '''
def split_heads(x, n_heads):
    t, d = x.shape[-2:]
    y = x.reshape(*x.shape[:-1], n_heads, d // n_heads)
    return np.transpose(y, (1, 0, 2)) if y.ndim == 3 else np.swapaxes(y, 0, 1)
'''),
        "d_head_as_heads": (["n_heads", "d_head", "d_model // n_heads"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.swapaxes(x.reshape(*lead, t, d // n_heads, n_heads), -3, -2)
'''),
    },
    "combine_heads": {
        "reshape_only": (["swapaxes", "transpose", "axes", "tokens"], '''
def combine_heads(x):
    *lead, h, t, d = x.shape
    return x.reshape(*lead, t, h * d)
'''),
        "interleaved": (["block", "interleav", "columns", "head h"], '''
def combine_heads(x):
    *lead, h, t, d = x.shape
    return np.moveaxis(x, -3, -1).reshape(*lead, t, h * d)
'''),
        "sum_heads": (["concatenat", "sum", "side by side"], '''
def combine_heads(x):
    return x.sum(axis=-3)
'''),
        "mean_heads": (["concatenat", "mean", "average", "side by side"], '''
def combine_heads(x):
    return x.mean(axis=-3)
'''),
        "concat_tokens_axis": (["axis", "concatenat", "tokens", "last axis"], '''
def combine_heads(x):
    *lead, h, t, d = x.shape
    return x.reshape(*lead, h * t, d)
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
        "no_scaling": (["sqrt", "scale", "d_head"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "keys_dot_T": (["swapaxes", ".t", "last two", "transpose"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ k.T / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "softmax_wrong_axis": (["axis", "rows", "keys", "last axis"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-2, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-2, keepdims=True)
'''),
        "no_max_subtraction": (["overflow", "max", "stable", "subtract"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "global_max": (["max", "row", "keepdims", "each row"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s - s.max())
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    "multi_head_attention": {
        "no_output_projection": (["w_out", "output projection", "mix"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    a = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(a @ v)
'''),
        "values_not_split": (["split", "value", "heads"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    a = head_weights(inputs, w_query, w_key, n_heads)
    v = inputs @ w_value
    out = (a @ v[..., None, :, :]).mean(axis=-3)
    return out @ w_out
'''),
        "scale_d_model": (["d_head", "d_model", "sqrt"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    from scipy.special import softmax as _sm
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(inputs.shape[-1])
    return combine_heads(_sm(s, axis=-1) @ v) @ w_out
'''),
        "reshape_instead_of_combine": (["combine", "swapaxes", "reshape", "heads side by side"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    a = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    c = (a @ v).reshape(*inputs.shape[:-1], -1)
    return c @ w_out
'''),
        "keys_as_values": (["value", "w_value", "key"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    a = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_key, n_heads)
    return combine_heads(a @ v) @ w_out
'''),
        "w_out_transposed": (["transpose", "w_out", ".t"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    a = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(a @ v) @ w_out.T
'''),
    },
    "torch_attn_mask": {
        "not_inverted": (["invert", "blocked", "true where", "~"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask, n_heads, axis=0)
'''),
        "tile_wrong_order": (["order", "repeat", "tile", "b * n_heads + h"], '''
def torch_attn_mask(mask, n_heads):
    return np.tile(~mask, (n_heads, 1, 1))
'''),
        "no_repeat": (["repeat", "heads", "batch * n_heads"], '''
def torch_attn_mask(mask, n_heads):
    return ~mask
'''),
        "minus_not_logical": (["bool", "boolean", "logical", "~"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(1 - mask.astype(int), n_heads, axis=0)
'''),
        "in_place_invert": (["in place", "change", "copy", "mask"], '''
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
        "stable_softmax": '''
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
    d_head = w_query.shape[1] // n_heads
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    return _softmax(np.einsum("...hid,...hjd->...hij", q, k) / d_head ** 0.5, axis=-1)
''',
    },
    "multi_head_attention": {
        "five_steps": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    a = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(a @ v) @ w_out
''',
        "loop_heads": '''
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
    return np.repeat(~mask, n_heads, axis=0)
''',
        "broadcast_reshape": '''
def torch_attn_mask(mask, n_heads):
    b, q, k = mask.shape
    return np.broadcast_to(np.logical_not(mask)[:, None], (b, n_heads, q, k)).reshape(b * n_heads, q, k)
''',
    },
}
