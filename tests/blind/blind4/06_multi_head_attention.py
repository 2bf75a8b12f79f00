"""Blind set 4, notebook 06: Multi-head attention. Written from notebooks/06_multi_head_attention.ipynb only."""

MISTAKES = {
    "split_heads": {
        "reshape_only": (["swapaxes", "transpose", "heads axis", "reshape alone"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return x.reshape(*lead, n_heads, t, d // n_heads)
'''),
        "interleaved_columns": (["block of columns", "interleav", "h * d_head", "order"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    y = x.reshape(*lead, t, d // n_heads, n_heads)
    return np.moveaxis(y, -1, -3)
'''),
        "fixed_axes_2d": (["leading", "batch axes", "-3", "negative axes"], '''
def split_heads(x, n_heads):
    t, d = x.shape[-2], x.shape[-1]
    y = x.reshape(x.shape[0], t, n_heads, d // n_heads)
    return y.transpose(0, 2, 1, 3)
'''),
        "swap_wrong_axes": (["swapaxes", "axes", "-3, -2", "tokens"], '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    y = x.reshape(*lead, t, n_heads, d // n_heads)
    return np.swapaxes(y, -1, -2)
'''),
    },
    "combine_heads": {
        "reshape_only": (["swapaxes", "transpose", "heads", "reshape alone"], '''
def combine_heads(x):
    *lead, h, t, dh = x.shape
    return x.reshape(*lead, t, h * dh)
'''),
        "concatenate_tokens": (["concatenate", "axis", "side by side", "columns"], '''
def combine_heads(x):
    *lead, h, t, dh = x.shape
    return np.swapaxes(x, -2, -1).reshape(*lead, t, h * dh)
'''),
        "sum_heads": (["sum", "concatenate", "side by side", "heads"], '''
def combine_heads(x):
    return x.sum(axis=-3)
'''),
        "fixed_4d": (["leading", "batch axes", "any number", "negative axes"], '''
def combine_heads(x):
    b, h, t, dh = x.shape
    return x.transpose(0, 2, 1, 3).reshape(b, t, h * dh)
'''),
    },
    "head_weights": {
        "scale_by_d_model": (["d_head", "sqrt", "d_model", "per head"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(w_query.shape[1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "softmax_wrong_axis": (["axis", "rows", "columns", "keys"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-2, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-2, keepdims=True)
'''),
        "no_max_subtraction": (["overflow", "maximum", "stable", "subtract"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    e = np.exp(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]))
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "no_split_single_head": (["split_heads", "heads", "per head", "split"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q, k = inputs @ w_query, inputs @ w_key
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1] // n_heads)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    w = e / e.sum(axis=-1, keepdims=True)
    return np.repeat(w[..., None, :, :], n_heads, axis=-3)
'''),
        "keys_dot_T": ([".t", "swapaxes", "last two axes", "transpose"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ k.T / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    "multi_head_attention": {
        "no_output_projection": (["w_out", "output projection", "project"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ v)
'''),
        "sum_heads_not_combine": (["combine", "concatenat", "sum", "side by side"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    out = weights @ v
    return out.sum(axis=-3) @ w_out[: out.shape[-1]]
'''),
        "values_not_split": (["split", "values", "heads", "v"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = inputs @ w_value
    out = (weights @ v[..., None, :, :]).mean(axis=-3)
    return out @ w_out
'''),
        "values_from_inputs": (["w_value", "values", "project"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs, n_heads)
    return combine_heads(weights @ v) @ w_out
'''),
        "one_head_only": (["n_heads", "heads", "one head", "single"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, 1)
    v = split_heads(inputs @ w_value, 1)
    return combine_heads(weights @ v) @ w_out
'''),
    },
    "torch_attn_mask": {
        "not_inverted": (["invert", "blocked", "true", "convention"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask, n_heads, axis=0)
'''),
        "tile_wrong_order": (["repeat", "tile", "b * n_heads + h", "order"], '''
def torch_attn_mask(mask, n_heads):
    return np.tile(~mask, (n_heads, 1, 1))
'''),
        "no_repeat": (["n_heads", "repeat", "batch * n_heads", "heads"], '''
def torch_attn_mask(mask, n_heads):
    return ~mask
'''),
        "in_place_invert": (["in place", "change", "modif", "copy"], '''
def torch_attn_mask(mask, n_heads):
    np.logical_not(mask, out=mask)
    return np.repeat(mask, n_heads, axis=0)
'''),
        "minus_one_int": (["bool", "boolean", "dtype", "~"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(1 - mask.astype(int), n_heads, axis=0)
'''),
    },
}

VARIANTS = {
    "split_heads": {
        "reshape_swapaxes": '''
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.swapaxes(x.reshape(*lead, t, n_heads, d // n_heads), -3, -2)
''',
        "moveaxis": '''
def split_heads(x, n_heads):
    y = x.reshape(x.shape[:-1] + (n_heads, x.shape[-1] // n_heads))
    return np.moveaxis(y, -2, -3)
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
from scipy.special import softmax as _sp_softmax


def head_weights(inputs, w_query, w_key, n_heads):
    d_head = w_query.shape[1] // n_heads
    q = (inputs @ w_query).reshape(*inputs.shape[:-1], n_heads, d_head)
    k = (inputs @ w_key).reshape(*inputs.shape[:-1], n_heads, d_head)
    s = np.einsum("...ihd,...jhd->...hij", q, k) / np.sqrt(d_head)
    return _sp_softmax(s, axis=-1)
''',
    },
    "multi_head_attention": {
        "five_steps": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ v) @ w_out
''',
        "loop_heads": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q, k, v = inputs @ w_query, inputs @ w_key, inputs @ w_value
    d_head = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        sl = slice(h * d_head, (h + 1) * d_head)
        s = q[..., sl] @ np.swapaxes(k[..., sl], -1, -2) / np.sqrt(d_head)
        s = s - s.max(axis=-1, keepdims=True)
        e = np.exp(s)
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
    out = np.broadcast_to(np.logical_not(mask)[:, None], (b, n_heads, q, k))
    return out.reshape(b * n_heads, q, k).copy()
''',
    },
}
