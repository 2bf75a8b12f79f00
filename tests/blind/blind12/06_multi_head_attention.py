"""Blind set 12, notebook 06: Multi-head attention. Written from notebooks/06_multi_head_attention.ipynb only."""

MISTAKES = {
    "split_heads": {
        "reshape_heads_first": (["reshape", "scrambled", "swapaxes", "columns"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, n_heads, tokens, d_model // n_heads)
'''),
        "no_swap": (["swapaxes", "heads axis", "tokens", "order"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, tokens, n_heads, d_model // n_heads)
'''),
        "reshape_dhead_first": (["d_head", "n_heads", "order", "reshape"], '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    y = x.reshape(*lead, tokens, d_model // n_heads, n_heads)
    return np.swapaxes(np.swapaxes(y, -1, -2), -2, -3)
'''),
        "transpose_all_axes": (["transpose", ".t", "leading", "batch axes"], '''
def split_heads(x, n_heads):
    tokens, d_model = x.shape[-2], x.shape[-1]
    y = x.reshape(x.shape[:-1] + (n_heads, d_model // n_heads))
    return y.transpose(1, 0, 2) if y.ndim == 3 else y.T
'''),
        "ignores_batch_axes": (["leading", "batch", "any number", "axes"], '''
def split_heads(x, n_heads):
    tokens, d_model = x.shape[-2], x.shape[-1]
    y = x.reshape(tokens, n_heads, d_model // n_heads)
    return np.swapaxes(y, 0, 1)
'''),
    },
    "combine_heads": {
        "reshape_without_swap": (["swapaxes", "scrambled", "heads", "tokens"], '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return x.reshape(*lead, tokens, heads * d_head)
'''),
        "swap_wrong_axes": (["axes", "heads", "tokens", "last two"], '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    y = np.swapaxes(x, -1, -2)
    return y.reshape(*lead, tokens, heads * d_head)
'''),
        "concat_along_tokens": (["concatenat", "axis", "columns", "side by side"], '''
def combine_heads(x):
    return np.concatenate(list(np.moveaxis(x, -3, 0)), axis=-2).reshape(x.shape[:-3] + (x.shape[-2], -1))
'''),
        "sum_heads": (["concatenat", "sum", "side by side"], '''
def combine_heads(x):
    return x.sum(axis=-3)
'''),
        "fixed_4d": (["leading", "batch", "any number", "axes"], '''
def combine_heads(x):
    b, h, t, d = x.shape[0], x.shape[-3], x.shape[-2], x.shape[-1]
    return np.swapaxes(x, -3, -2).reshape(b, t, h * d)
'''),
    },
    "head_weights": {
        "scale_by_d_model": (["d_head", "d_model", "sqrt", "scale"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(w_query.shape[0])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "keys_dot_T": (["swapaxes", ".t", "last two axes", "transpose"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ k.T / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "no_max_subtraction": (["overflow", "max", "subtract", "nan"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    e = np.exp(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]))
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "softmax_axis_queries": (["axis", "rows", "last axis", "keys"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-2, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-2, keepdims=True)
'''),
        "global_max": (["row maximum", "max", "underflow", "each row"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(scores - scores.max())
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "split_before_projection": (["project", "split", "before", "w_query"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    d_head = w_query.shape[1] // n_heads
    q = split_heads(inputs, n_heads) @ w_query[: inputs.shape[-1] // n_heads, :d_head]
    k = split_heads(inputs, n_heads) @ w_key[: inputs.shape[-1] // n_heads, :d_head]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    "multi_head_attention": {
        "no_output_projection": (["w_out", "output projection", "mix"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ v)
'''),
        "values_not_split": (["split", "values", "heads"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = (inputs @ w_value)[..., None, :, :]
    out = (weights @ v).mean(axis=-3)
    return out @ w_out
'''),
        "scale_by_d_model": (["d_head", "d_model", "sqrt"], '''
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
        "reshape_no_swap_combine": (["swapaxes", "combine", "concatenat", "scrambled"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    out = weights @ v
    *lead, h, t, d = out.shape
    return out.reshape(*lead, t, h * d) @ w_out
'''),
        "w_out_transposed": (["w_out", "transpose", "w_out.t"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ v) @ w_out.T
'''),
    },
    "torch_attn_mask": {
        "not_inverted": (["invert", "blocked", "convention", "~"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask, n_heads, axis=0)
'''),
        "tile_wrong_order": (["order", "np.tile", "np.repeat", "b * n_heads + h"], '''
def torch_attn_mask(mask, n_heads):
    return np.tile(~mask, (n_heads, 1, 1))
'''),
        "no_repeat": (["heads", "repeat", "batch * n_heads"], '''
def torch_attn_mask(mask, n_heads):
    return ~mask
'''),
        "minus_inf_float": (["bool", "boolean", "float", "-inf"], '''
def torch_attn_mask(mask, n_heads):
    return np.where(np.repeat(mask, n_heads, axis=0), 0.0, -np.inf)
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
        "reshape_swapaxes": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return np.swapaxes(x.reshape(*lead, tokens, n_heads, d_model // n_heads), -2, -3)
''',
        "moveaxis": '''
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    return np.moveaxis(x.reshape(x.shape[:-1] + (n_heads, d_head)), -2, -3).copy()
''',
    },
    "combine_heads": {
        "swapaxes_reshape": '''
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
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "einsum_scipy": '''
import scipy.special
def head_weights(inputs, w_query, w_key, n_heads):
    d_head = w_query.shape[1] // n_heads
    q = split_heads(np.matmul(inputs, w_query), n_heads)
    k = split_heads(np.matmul(inputs, w_key), n_heads)
    return scipy.special.softmax(np.einsum("...qd,...kd->...qk", q, k) / d_head ** 0.5, axis=-1)
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
        s = np.exp(s - s.max(axis=-1, keepdims=True))
        outs.append((s / s.sum(axis=-1, keepdims=True)) @ v[..., cols])
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
    return np.logical_not(np.broadcast_to(mask[:, None], (b, n_heads, q, k))).reshape(b * n_heads, q, k)
''',
    },
}
