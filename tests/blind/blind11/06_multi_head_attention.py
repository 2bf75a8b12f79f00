"""Blind set 11, notebook 06: multi-head attention. Written from notebooks/06_multi_head_attention.ipynb only."""

MISTAKES = {
    "split_heads": {
        "reshape_no_swap": (["swapaxes", "transpose", "reshape alone", "tokens"], '''
import numpy as np
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return x.reshape(*lead, n_heads, t, d // n_heads)
'''),
        "heads_last_reshape": (["order", "reshape", "n_heads, d_head", "block of columns"], '''
import numpy as np
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.swapaxes(x.reshape(*lead, t, d // n_heads, n_heads), -1, -3).swapaxes(-1, -2)
'''),
        "swap_wrong_axes": (["swapaxes", "axes", "-3", "-2"], '''
import numpy as np
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.swapaxes(x.reshape(*lead, t, n_heads, d // n_heads), -1, -2)
'''),
        "no_batch_axes": (["leading", "batch axes", "..."], '''
import numpy as np
def split_heads(x, n_heads):
    t, d = x.shape[-2], x.shape[-1]
    return np.swapaxes(x.reshape(t, n_heads, d // n_heads), 0, 1)
'''),
    },
    "combine_heads": {
        "reshape_no_swap": (["swapaxes", "transpose", "reshape alone"], '''
import numpy as np
def combine_heads(x):
    *lead, h, t, dh = x.shape
    return x.reshape(*lead, t, h * dh)
'''),
        "wrong_order": (["order", "heads", "interleav", "columns"], '''
import numpy as np
def combine_heads(x):
    *lead, h, t, dh = x.shape
    return np.moveaxis(x, -3, -1).reshape(*lead, t, h * dh)
'''),
        "concatenate_tokens": (["concatenate", "axis", "tokens"], '''
import numpy as np
def combine_heads(x):
    return np.concatenate(list(np.moveaxis(x, -3, 0)), axis=-2)
'''),
        "sum_heads": (["sum", "side by side", "concatenat"], '''
import numpy as np
def combine_heads(x):
    return x.sum(axis=-3)
'''),
    },
    "head_weights": {
        "scale_d_model": (["d_head", "d_model", "sqrt"], '''
import numpy as np
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(w_query.shape[1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "softmax_axis_queries": (["axis", "rows", "keys", "last axis"], '''
import numpy as np
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-2, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-2, keepdims=True)
'''),
        "no_max_subtract": (["overflow", "max", "subtract"], '''
import numpy as np
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "global_max": (["max", "row", "keepdims", "each row"], '''
import numpy as np
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s - s.max())
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "single_head_then_split": (["split", "heads", "per head", "d_head"], '''
import numpy as np
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
        "no_output_projection": (["w_out", "output projection", "step 5"], '''
import numpy as np
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(w @ v)
'''),
        "values_not_split": (["split", "values", "heads"], '''
import numpy as np
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = inputs @ w_value
    ctx = (w @ v[..., None, :, :]).mean(axis=-3)
    return ctx @ w_out
'''),
        "combine_without_swap": (["combine", "swapaxes", "reshape", "tokens"], '''
import numpy as np
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    ctx = w @ v
    *lead, h, t, dh = ctx.shape
    return ctx.reshape(*lead, t, h * dh) @ w_out
'''),
        "residual_added": (["residual", "inputs", "add"], '''
import numpy as np
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return inputs + combine_heads(w @ v) @ w_out
'''),
        "weights_transposed": (["transpose", "weights", "keys", "queries"], '''
import numpy as np
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(np.swapaxes(w, -1, -2) @ v) @ w_out
'''),
    },
    "torch_attn_mask": {
        "not_inverted": (["blocked", "invert", "~", "convention"], '''
import numpy as np
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask, n_heads, axis=0)
'''),
        "tile_order": (["repeat", "tile", "order", "b * n_heads + h"], '''
import numpy as np
def torch_attn_mask(mask, n_heads):
    return np.tile(~mask, (n_heads, 1, 1))
'''),
        "float_mask": (["bool", "boolean", "dtype", "-inf"], '''
import numpy as np
def torch_attn_mask(mask, n_heads):
    return np.where(np.repeat(mask, n_heads, axis=0), 0.0, -np.inf)
'''),
        "no_repeat": (["heads", "repeat", "batch * n_heads"], '''
import numpy as np
def torch_attn_mask(mask, n_heads):
    return ~mask
'''),
        "minus_one": (["~", "logical_not", "bool", "1 -"], '''
import numpy as np
def torch_attn_mask(mask, n_heads):
    return np.repeat(1 - mask.astype(int), n_heads, axis=0)
'''),
    },
}

VARIANTS = {
    "split_heads": {
        "reshape_swap": '''
import numpy as np
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.swapaxes(x.reshape(*lead, t, n_heads, d // n_heads), -2, -3)
''',
        "stack_slices": '''
import numpy as np
def split_heads(x, n_heads):
    return np.stack(np.split(x, n_heads, axis=-1), axis=-3)
''',
    },
    "combine_heads": {
        "swap_reshape": '''
import numpy as np
def combine_heads(x):
    *lead, h, t, dh = x.shape
    return np.swapaxes(x, -2, -3).reshape(*lead, t, h * dh)
''',
        "concat": '''
import numpy as np
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-1)
''',
    },
    "head_weights": {
        "split_then_softmax": '''
import numpy as np
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "einsum_scipy": '''
import numpy as np
from scipy.special import softmax as _sm
def head_weights(inputs, w_query, w_key, n_heads):
    d_head = w_query.shape[1] // n_heads
    q = (inputs @ w_query).reshape(*inputs.shape[:-1], n_heads, d_head)
    k = (inputs @ w_key).reshape(*inputs.shape[:-1], n_heads, d_head)
    s = np.einsum("...ihd,...jhd->...hij", q, k) / np.sqrt(d_head)
    return _sm(s, axis=-1)
''',
    },
    "multi_head_attention": {
        "five_steps": '''
import numpy as np
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(w @ v) @ w_out
''',
        "loop_heads": '''
import numpy as np
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q, k, v = inputs @ w_query, inputs @ w_key, inputs @ w_value
    dh = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        sl = slice(h * dh, (h + 1) * dh)
        s = q[..., sl] @ np.swapaxes(k[..., sl], -1, -2) / np.sqrt(dh)
        s = s - s.max(axis=-1, keepdims=True)
        e = np.exp(s)
        outs.append((e / e.sum(axis=-1, keepdims=True)) @ v[..., sl])
    return np.concatenate(outs, axis=-1) @ w_out
''',
    },
    "torch_attn_mask": {
        "repeat_not": '''
import numpy as np
def torch_attn_mask(mask, n_heads):
    return np.repeat(~np.asarray(mask, dtype=bool), n_heads, axis=0)
''',
        "broadcast_reshape": '''
import numpy as np
def torch_attn_mask(mask, n_heads):
    b, q, k = mask.shape
    out = np.broadcast_to(np.logical_not(mask)[:, None], (b, n_heads, q, k))
    return out.reshape(b * n_heads, q, k).copy()
''',
    },
}
