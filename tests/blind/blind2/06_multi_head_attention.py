"""Blind set 2, notebook 06: Multi-head attention. Written from notebooks/06_multi_head_attention.ipynb only."""

MISTAKES = {
    "split_heads": {
        "reshape_without_transpose": (["transpose", "swapaxes", "scrambl", "reshape"], '''
def split_heads(x, n_heads):
    *lead, n_tokens, d_model = x.shape
    return x.reshape(*lead, n_heads, n_tokens, d_model // n_heads)
'''),
        "interleaved_columns": (["block", "interleav", "(heads, d_head)", "columns"], '''
def split_heads(x, n_heads):
    *lead, n_tokens, d_model = x.shape
    y = x.reshape(*lead, n_tokens, d_model // n_heads, n_heads)
    return np.moveaxis(y, -1, -3)
'''),
        "swapaxes_0_1": (["leading", "batch", "swapaxes(-3, -2)", "any number"], '''
def split_heads(x, n_heads):
    *lead, n_tokens, d_model = x.shape
    return x.reshape(*lead, n_tokens, n_heads, d_model // n_heads).swapaxes(0, 1)
'''),
        "true_division_d_head": (["integer division", "//", "float", "int("], '''
def split_heads(x, n_heads):
    *lead, n_tokens, d_model = x.shape
    d_head = d_model / n_heads
    return np.swapaxes(x.reshape(*lead, n_tokens, n_heads, d_head), -3, -2)
'''),
        "only_two_dimensions": (["leading", "batch", "any number", "..."], '''
def split_heads(x, n_heads):
    n_tokens, d_model = x.shape[-2], x.shape[-1]
    return x.reshape(n_tokens, n_heads, d_model // n_heads).transpose(1, 0, 2)
'''),
    },
    "combine_heads": {
        "reshape_without_transpose": (["transpose", "swapaxes", "scrambl", "reshape"], '''
def combine_heads(x):
    *lead, n_heads, n_tokens, d_head = x.shape
    return x.reshape(*lead, n_tokens, n_heads * d_head)
'''),
        "stacked_along_tokens": (["side by side", "columns", "concatenat", "tokens axis"], '''
def combine_heads(x):
    *lead, n_heads, n_tokens, d_head = x.shape
    return x.reshape(*lead, n_heads * n_tokens, d_head)
'''),
        "interleaved_columns": (["block", "interleav", "order of the columns", "columns"], '''
def combine_heads(x):
    *lead, n_heads, n_tokens, d_head = x.shape
    y = np.moveaxis(x, -3, -1)  # (..., tokens, d_head, heads)
    return y.reshape(*lead, n_tokens, n_heads * d_head)
'''),
        "sum_over_heads": (["sum", "concatenat", "side by side", "heads * d_head"], '''
def combine_heads(x):
    return x.sum(axis=-3)
'''),
        "swapaxes_0_1": (["leading", "batch", "swapaxes(-3, -2)", "any number"], '''
def combine_heads(x):
    y = x.swapaxes(0, 1)
    return y.reshape(*y.shape[:-2], y.shape[-2] * y.shape[-1])
'''),
    },
    "head_weights": {
        "sqrt_d_model": (["d_head", "sqrt(d_model)", "width of", "head"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(w_query.shape[1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "split_without_transpose": (["transpose", "swapaxes", "split", "scrambl"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q, k = inputs @ w_query, inputs @ w_key
    *lead, n_tokens, width = q.shape
    q = q.reshape(*lead, n_heads, n_tokens, width // n_heads)
    k = k.reshape(*lead, n_heads, n_tokens, width // n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(width // n_heads)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "keys_dot_T": (["swapaxes", "last two axes", ".t", "transpose"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ k.T / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "softmax_over_queries": (["axis", "rows", "columns", "keys"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-2, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-2, keepdims=True)
'''),
        "no_max_subtraction": (["overflow", "maximum", "subtract", "stable"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    "multi_head_attention": {
        "no_output_projection": (["w_out", "output projection", "mix", "w_o"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ values)
'''),
        "d_head_from_d_model": (["d_head", "projected", "d_model", "w_query.shape[1]"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    d_head = inputs.shape[-1] // n_heads
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return combine_heads(weights @ v) @ w_out
'''),
        "sqrt_d_model": (["d_head", "sqrt", "scale", "width of"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(w_query.shape[1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return combine_heads(weights @ v) @ w_out
'''),
        "combine_by_plain_reshape": (["transpose", "combine", "swapaxes", "scrambl"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    heads = weights @ split_heads(inputs @ w_value, n_heads)  # (..., heads, tokens, d_head)
    *lead, h, n_tokens, d_head = heads.shape
    return heads.reshape(*lead, n_tokens, h * d_head) @ w_out
'''),
        "values_from_w_key": (["w_value", "values", "keys"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_key, n_heads)
    return combine_heads(weights @ values) @ w_out
'''),
    },
    "torch_attn_mask": {
        "not_inverted": (["blocked", "convention", "invert", "~"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask, n_heads, axis=0)
'''),
        "tile_heads_first": (["order", "repeat", "tile", "b * n_heads + h"], '''
def torch_attn_mask(mask, n_heads):
    return np.tile(~mask, (n_heads, 1, 1))
'''),
        "not_repeated": (["n_heads", "repeat", "copies", "batch * n_heads"], '''
def torch_attn_mask(mask, n_heads):
    return ~mask
'''),
        "one_minus_mask_int": (["bool", "dtype", "~", "logical_not"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(1 - mask.astype(int), n_heads, axis=0)
'''),
        "inverted_in_place": (["in place", "modif", "copy", "argument"], '''
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
    *lead, n_tokens, d_model = x.shape
    return np.swapaxes(x.reshape(*lead, n_tokens, n_heads, d_model // n_heads), -3, -2)
''',
        "split_stack": '''
def split_heads(x, n_heads):
    return np.stack(np.split(x, n_heads, axis=-1), axis=-3)
''',
        "moveaxis": '''
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    return np.moveaxis(x.reshape(x.shape[:-1] + (n_heads, d_head)), -2, -3)
''',
    },
    "combine_heads": {
        "swapaxes_reshape": '''
def combine_heads(x):
    y = np.swapaxes(x, -3, -2)
    return y.reshape(*y.shape[:-2], y.shape[-2] * y.shape[-1])
''',
        "concatenate_heads": '''
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-1)
''',
    },
    "head_weights": {
        "split_and_stable_softmax": '''
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
    d_head = w_query.shape[1] // n_heads
    q = (inputs @ w_query).reshape(*inputs.shape[:-1], n_heads, d_head)
    k = (inputs @ w_key).reshape(*inputs.shape[:-1], n_heads, d_head)
    scores = np.einsum("...ihd,...jhd->...hij", q, k) / np.sqrt(d_head)
    return _softmax(scores, axis=-1)
''',
    },
    "multi_head_attention": {
        "five_steps": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)  # (..., heads, tokens, tokens)
    values = split_heads(inputs @ w_value, n_heads)  # (..., heads, tokens, d_head)
    return combine_heads(weights @ values) @ w_out
''',
        "loop_over_heads": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q, k, v = inputs @ w_query, inputs @ w_key, inputs @ w_value
    d_head = q.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        scores = q[..., cols] @ np.swapaxes(k[..., cols], -1, -2) / np.sqrt(d_head)
        scores = scores - scores.max(axis=-1, keepdims=True)
        w = np.exp(scores)
        w = w / w.sum(axis=-1, keepdims=True)
        outputs.append(w @ v[..., cols])
    return np.concatenate(outputs, axis=-1) @ w_out
''',
    },
    "torch_attn_mask": {
        "repeat_inverted": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(~mask, n_heads, axis=0)
''',
        "broadcast_reshape": '''
def torch_attn_mask(mask, n_heads):
    b, q, k = mask.shape
    blocked = np.logical_not(mask)[:, None, :, :]
    return np.broadcast_to(blocked, (b, n_heads, q, k)).reshape(b * n_heads, q, k).copy()
''',
    },
}
