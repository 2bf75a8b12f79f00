"""Blind set 13, notebook 06: Multi-head attention. Written from notebooks/06_multi_head_attention.ipynb only."""

MISTAKES = {
    "split_heads": {
        "reshape_only": (["swapaxes", "transpose", "reshape alone", "moveaxis"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, n_heads, tokens, d_model // n_heads)
'''),
        "strided_columns": (["block of columns", "interleav", "contiguous", "d_head, n_heads"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    y = x.reshape(*lead, tokens, d_model // n_heads, n_heads)
    return np.moveaxis(y, -1, -3)
'''),
        "swap_first_axes": (["batch", "leading", "axes", "-3, -2"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    y = x.reshape(*lead, tokens, n_heads, d_model // n_heads)
    return np.swapaxes(y, 0, 1)
'''),
        "no_batch_support": (["batch", "leading", "any number", "axes"], '''
def split_heads(x, n_heads):
    tokens, d_model = x.shape[-2], x.shape[-1]
    y = x.reshape(tokens, n_heads, d_model // n_heads)
    return np.swapaxes(y, 0, 1)
'''),
    },
    "combine_heads": {
        "reshape_only": (["swapaxes", "transpose", "reshape alone", "moveaxis"], '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return x.reshape(*lead, tokens, heads * d_head)
'''),
        "interleaved_columns": (["block of columns", "interleav", "order", "heads side by side"], '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    y = np.moveaxis(x, -3, -1)
    return y.reshape(*lead, tokens, heads * d_head)
'''),
        "concatenate_tokens_axis": (["axis", "concatenate", "tokens", "columns"], '''
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-2)
'''),
        "swap_wrong_axes": (["swapaxes", "-3, -2", "axes", "d_head"], '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    y = np.swapaxes(x, -3, -1)
    return y.reshape(*lead, tokens, heads * d_head)
'''),
    },
    "head_weights": {
        "scale_d_model": (["d_head", "sqrt", "d_model", "width of a head"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(w_query.shape[1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "softmax_wrong_axis": (["axis", "row", "column", "sum to 1"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-2, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-2, keepdims=True)
'''),
        "no_scaling": (["sqrt", "scale", "d_head"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "keys_dot_T": (["transpose", "swapaxes", ".t", "last two axes"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ k.T / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "global_max": (["maximum", "row", "max", "keepdims"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(scores - scores.max())
    return e / e.sum()
'''),
    },
    "multi_head_attention": {
        "no_output_projection": (["w_out", "output projection", "step 5", "mix"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ v)
'''),
        "combine_without_swap": (["combine", "swapaxes", "transpose", "heads side by side"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    out = weights @ v
    *lead, heads, tokens, d_head = out.shape
    return out.reshape(*lead, tokens, heads * d_head) @ w_out
'''),
        "scale_sqrt_d_model": (["d_head", "sqrt", "d_model"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(inputs.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    return combine_heads(w @ v) @ w_out
'''),
        "weights_transposed": (["transpose", "swapaxes", "weights", "rows"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(np.swapaxes(weights, -1, -2) @ v) @ w_out
'''),
        "value_projection_with_key": (["w_value", "values", "keys"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_key, n_heads)
    return combine_heads(weights @ v) @ w_out
'''),
    },
    "torch_attn_mask": {
        "not_inverted": (["invert", "blocked", "true", "~mask"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask, n_heads, axis=0)
'''),
        "tile_order": (["repeat", "tile", "order", "b * n_heads + h"], '''
def torch_attn_mask(mask, n_heads):
    return np.tile(~mask, (n_heads, 1, 1))
'''),
        "no_head_repeat": (["n_heads", "repeat", "batch * n_heads", "heads"], '''
def torch_attn_mask(mask, n_heads):
    return ~mask
'''),
        "changes_mask_in_place": (["in place", "in-place", "change", "copy"], '''
def torch_attn_mask(mask, n_heads):
    np.logical_not(mask, out=mask)
    return np.repeat(mask, n_heads, axis=0)
'''),
        "int_dtype": (["bool", "boolean", "dtype"], '''
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
        "split_and_softmax": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
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
    scores = np.einsum("...ihd,...jhd->...hij", q, k) / np.sqrt(d_head)
    return _softmax(scores, axis=-1)
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
        s = s - s.max(axis=-1, keepdims=True)
        w = np.exp(s)
        w = w / w.sum(axis=-1, keepdims=True)
        outs.append(w @ v[..., cols])
    return np.concatenate(outs, axis=-1) @ w_out
''',
    },
    "torch_attn_mask": {
        "repeat_not": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(~np.asarray(mask, dtype=bool), n_heads, axis=0)
''',
        "broadcast_reshape": '''
def torch_attn_mask(mask, n_heads):
    blocked = np.logical_not(mask)
    b, q, k = blocked.shape
    return np.broadcast_to(blocked[:, None], (b, n_heads, q, k)).reshape(b * n_heads, q, k).copy()
''',
    },
}
