"""Blind set 8, notebook 06: Multi-head attention. Written from notebooks/06_multi_head_attention.ipynb only."""

MISTAKES = {
    "split_heads": {
        "reshape_only": (["swapaxes", "transpose", "reshape alone", "tokens"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, n_heads, tokens, d_model // n_heads)
'''),
        "heads_last_order": (["order", "reshape", "(tokens, n_heads, d_head)", "interleav"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    y = x.reshape(*lead, tokens, d_model // n_heads, n_heads)
    return np.swapaxes(np.swapaxes(y, -1, -2), -3, -2)
'''),
        "swap_axes_0_1": (["leading axes", "negative axes", "-3", "batch"], '''
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    y = x.reshape(*x.shape[:-1], n_heads, d_head)
    return np.swapaxes(y, 0, 1)
'''),
        "fixed_batch_axis": (["leading axes", "any number", "batch", "ndim"], '''
def split_heads(x, n_heads):
    batch, tokens, d_model = x.shape
    return x.reshape(batch, tokens, n_heads, d_model // n_heads).transpose(0, 2, 1, 3)
'''),
        "d_head_as_heads": (["d_head", "n_heads", "d_model // n_heads", "swapped"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    d_head = d_model // n_heads
    return np.swapaxes(x.reshape(*lead, tokens, d_head, n_heads), -3, -2)
'''),
    },
    "combine_heads": {
        "reshape_only": (["swapaxes", "transpose", "reshape alone", "tokens"], '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return x.reshape(*lead, tokens, heads * d_head)
'''),
        "concat_wrong_axis": (["axis", "concatenate", "columns", "side by side"], '''
def combine_heads(x):
    return np.concatenate(list(np.moveaxis(x, -3, 0)), axis=-2)
'''),
        "three_d_only": (["leading axes", "any number", "batch", "ndim"], '''
def combine_heads(x):
    heads, tokens, d_head = x.shape[-3:]
    return x.transpose(1, 0, 2).reshape(tokens, heads * d_head)
'''),
        "sum_heads": (["sum", "concatenat", "side by side", "heads * d_head"], '''
def combine_heads(x):
    return x.sum(axis=-3)
'''),
        "swap_wrong_axes": (["swapaxes", "-3, -2", "axes", "transpose"], '''
def combine_heads(x):
    y = np.swapaxes(x, -1, -2)
    return y.reshape(*x.shape[:-3], x.shape[-2], x.shape[-3] * x.shape[-1])
'''),
    },
    "head_weights": {
        "scale_by_d_model": (["d_head", "d_model", "sqrt", "per head"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(w_query.shape[1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "no_max_subtraction": (["overflow", "maximum", "max", "stable"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    e = np.exp(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]))
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "global_max": (["row maximum", "keepdims", "each row", "max"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s - s.max())
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "sum_axis_wrong": (["axis", "rows", "columns", "axis=-1"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s - s.max(axis=-2, keepdims=True))
    return e / e.sum(axis=-2, keepdims=True)
'''),
        "split_weights_not_projections": (["project", "split", "w_query", "before"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs, n_heads) @ split_heads(w_query, n_heads)[..., : inputs.shape[-1] // n_heads, :]
    k = split_heads(inputs, n_heads) @ split_heads(w_key, n_heads)[..., : inputs.shape[-1] // n_heads, :]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "not_scaled": (["sqrt", "scale", "d_head"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    "multi_head_attention": {
        "no_output_projection": (["w_out", "output projection", "w_o"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    a = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(a @ v)
'''),
        "values_not_split": (["split", "values", "heads", "split_heads"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    a = head_weights(inputs, w_query, w_key, n_heads)
    v = inputs @ w_value
    out = (a @ v[..., None, :, :]).mean(axis=-3)
    return out @ w_out
'''),
        "d_head_from_d_model": (["d_head", "projected", "d_model", "columns"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    d_head = inputs.shape[-1] // n_heads
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    return combine_heads(a @ v) @ w_out
'''),
        "value_with_key_weights": (["w_value", "values", "w_key"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    a = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_key, n_heads)
    return combine_heads(a @ v) @ w_out
'''),
        "concatenate_first_axis": (["batch", "leading axes", "concatenate", "axis"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    a = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    heads = a @ v
    return np.concatenate(list(heads), axis=-1) @ w_out
'''),
        "weights_transposed": (["transpose", "rows", "a @ v", "swapaxes"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    a = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(np.swapaxes(a, -1, -2) @ v) @ w_out
'''),
    },
    "torch_attn_mask": {
        "not_inverted": (["invert", "blocked", "~", "logical_not"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask, n_heads, axis=0)
'''),
        "tile_not_repeat": (["repeat", "tile", "order", "b * n_heads + h"], '''
def torch_attn_mask(mask, n_heads):
    return np.tile(~mask, (n_heads, 1, 1))
'''),
        "in_place_invert": (["in place", "copy", "changes mask", "modif"], '''
def torch_attn_mask(mask, n_heads):
    np.logical_not(mask, out=mask)
    return np.repeat(mask, n_heads, axis=0)
'''),
        "heads_as_new_axis": (["reshape", "batch * n_heads", "(batch, n_heads", "axis"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat((~mask)[:, None], n_heads, axis=1)
'''),
        "negation_as_int": (["bool", "dtype", "1 -", "boolean"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(1 - mask.astype(int), n_heads, axis=0)
'''),
    },
}

VARIANTS = {
    "split_heads": {
        "reshape_swapaxes": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return np.swapaxes(x.reshape(*lead, tokens, n_heads, d_model // n_heads), -3, -2)
''',
        "stack_slices": '''
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    return np.stack([x[..., h * d_head:(h + 1) * d_head] for h in range(n_heads)], axis=-3)
''',
    },
    "combine_heads": {
        "swapaxes_reshape": '''
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
        "split_then_scores": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "einsum_scipy": '''
from scipy.special import softmax as _softmax


def head_weights(inputs, w_query, w_key, n_heads):
    d_head = w_query.shape[1] // n_heads
    q = (inputs @ w_query).reshape(*inputs.shape[:-1], n_heads, d_head)
    k = (inputs @ w_key).reshape(*inputs.shape[:-1], n_heads, d_head)
    s = np.einsum("...ihd,...jhd->...hij", q, k) / np.sqrt(d_head)
    return _softmax(s, axis=-1)
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
    d_head = w_query.shape[1] // n_heads
    outs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        q, k, v = inputs @ w_query[:, cols], inputs @ w_key[:, cols], inputs @ w_value[:, cols]
        s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        outs.append((e / e.sum(axis=-1, keepdims=True)) @ v)
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
    blocked = np.logical_not(mask)
    return np.broadcast_to(blocked[:, None], (b, n_heads, q, k)).reshape(b * n_heads, q, k).copy()
''',
    },
}
