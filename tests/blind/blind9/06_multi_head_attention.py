"""Blind set 9, notebook 06: Multi-head attention. Written from notebooks/06_multi_head_attention.ipynb only."""

MISTAKES = {
    "split_heads": {
        "reshape_without_swap": (["transpose", "swapaxes", "reshape", "scrambled"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, n_heads, tokens, d_model // n_heads)
'''),
        "swapped_last_axes": (["swapaxes(-3, -2)", "heads and tokens", "axes", "wrong axes"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return np.swapaxes(x.reshape(*lead, tokens, n_heads, d_model // n_heads), -1, -2)
'''),
        "strided_columns": (["block", "contiguous", "interleav", "columns"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    y = x.reshape(*lead, tokens, d_model // n_heads, n_heads)
    return np.moveaxis(y, -1, -3)
'''),
        "no_batch_axes": (["batch", "leading", "any number"], '''
def split_heads(x, n_heads):
    tokens, d_model = x.shape[-2], x.shape[-1]
    return x.reshape(tokens, n_heads, d_model // n_heads).transpose(1, 0, 2)
'''),
        "full_transpose": ([".t", "swapaxes", "all axes", "transpose"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    y = x.reshape(*lead, tokens, n_heads, d_model // n_heads)
    return y.transpose()
'''),
    },
    "combine_heads": {
        "reshape_without_swap": (["swapaxes", "transpose", "heads and tokens", "reshape"], '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return x.reshape(*lead, tokens, heads * d_head)
'''),
        "swap_wrong_axes": (["axes", "swapaxes(-3, -2)", "wrong axes"], '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return np.swapaxes(x, -1, -2).reshape(*lead, tokens, heads * d_head)
'''),
        "concatenate_rows": (["axis", "side by side", "concatenate", "columns"], '''
def combine_heads(x):
    return np.concatenate(list(x), axis=-2)
'''),
        "only_three_dims": (["batch", "leading", "any number"], '''
def combine_heads(x):
    heads, tokens, d_head = x.shape[-3:]
    return x.transpose(1, 0, 2).reshape(tokens, heads * d_head)
'''),
        "sum_over_heads": (["sum", "concatenat", "side by side"], '''
def combine_heads(x):
    return x.sum(axis=-3)
'''),
    },
    "head_weights": {
        "scale_by_full_width": (["d_head", "d_model", "whole width", "sqrt"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(w_query.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "d_head_from_inputs": (["d_head", "projected", "w_query.shape", "not from d_model"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    d_head = inputs.shape[-1] // n_heads
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "keys_dot_T": (["swapaxes", ".t", "last two axes"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ k.T / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "softmax_axis_minus_2": (["axis", "row", "last axis", "sum to 1"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-2, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-2, keepdims=True)
'''),
        "no_max_subtraction": (["overflow", "max", "subtract"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    e = np.exp(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]))
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "split_without_transpose": (["transpose", "swapaxes", "reshape", "scrambled"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    def split(a):
        *lead, tokens, width = a.shape
        return a.reshape(*lead, n_heads, tokens, width // n_heads)
    q = split(inputs @ w_query)
    k = split(inputs @ w_key)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    "multi_head_attention": {
        "no_output_projection": (["w_out", "output projection", "mix"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ values)
'''),
        "scale_by_d_model": (["d_head", "sqrt", "d_model"], '''
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
        "combine_without_swap": (["transpose", "swapaxes", "combine"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    heads = weights @ split_heads(inputs @ w_value, n_heads)
    *lead, h, tokens, d_head = heads.shape
    return heads.reshape(*lead, tokens, h * d_head) @ w_out
'''),
        "values_with_w_key": (["w_value", "values", "copy"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_key, n_heads)
    return combine_heads(weights @ values) @ w_out
'''),
        "d_head_from_d_model": (["d_head", "projected", "not from d_model"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    d_head = inputs.shape[-1] // n_heads
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    return combine_heads(w @ v) @ w_out
'''),
        "w_out_transposed": (["w_out.t", "transpose", "output projection"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ values) @ w_out.T
'''),
    },
    "torch_attn_mask": {
        "not_inverted": (["invert", "blocked", "convention", "~"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask, n_heads, axis=0)
'''),
        "head_major_tile": (["order", "tile", "repeat", "b * n_heads + h"], '''
def torch_attn_mask(mask, n_heads):
    return np.tile(~mask, (n_heads, 1, 1))
'''),
        "no_flatten": (["reshape", "batch * n_heads", "(batch * heads"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat((~mask)[:, None], n_heads, axis=1)
'''),
        "int_inversion": (["bool", "dtype", "boolean"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(1 - mask.astype(int), n_heads, axis=0)
'''),
        "repeat_wrong_axis": (["axis", "axis=0", "first axis"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(~mask, n_heads, axis=1)
'''),
        "in_place_invert": (["in place", "modif", "copy", "do not change"], '''
def torch_attn_mask(mask, n_heads):
    np.logical_not(mask, out=mask)
    return np.repeat(mask, n_heads, axis=0)
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
        "moveaxis": '''
def split_heads(x, n_heads):
    y = x.reshape(x.shape[:-1] + (n_heads, x.shape[-1] // n_heads))
    return np.moveaxis(y, -2, -3)
''',
    },
    "combine_heads": {
        "swapaxes_reshape": '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return np.swapaxes(x, -3, -2).reshape(*lead, tokens, heads * d_head)
''',
        "concatenate_heads": '''
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-1)
''',
    },
    "head_weights": {
        "split_then_softmax": '''
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
    d_head = w_query.shape[-1] // n_heads
    q = (inputs @ w_query).reshape(inputs.shape[:-1] + (n_heads, d_head))
    k = (inputs @ w_key).reshape(inputs.shape[:-1] + (n_heads, d_head))
    scores = np.einsum("...ihd,...jhd->...hij", q, k) / np.sqrt(d_head)
    return _softmax(scores, axis=-1)
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
    d_head = w_query.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        q = inputs @ w_query[:, cols]
        k = inputs @ w_key[:, cols]
        v = inputs @ w_value[:, cols]
        s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
        s = s - s.max(axis=-1, keepdims=True)
        a = np.exp(s)
        a = a / a.sum(axis=-1, keepdims=True)
        outputs.append(a @ v)
    return np.concatenate(outputs, axis=-1) @ w_out
''',
    },
    "torch_attn_mask": {
        "repeat_axis0": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(~mask, n_heads, axis=0)
''',
        "broadcast_reshape": '''
def torch_attn_mask(mask, n_heads):
    batch, n_q, n_k = mask.shape
    blocked = np.logical_not(mask)
    return np.broadcast_to(blocked[:, None], (batch, n_heads, n_q, n_k)).reshape(batch * n_heads, n_q, n_k)
''',
    },
}
