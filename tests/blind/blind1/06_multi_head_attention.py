"""Blind set 1, notebook 06: Multi-head attention (NumPy, checked against PyTorch and Keras). Written from notebooks/06_multi_head_attention.ipynb only."""

MISTAKES = {
    "split_heads": {
        "reshape_without_transpose": (["transpose", "swapaxes", "reshape alone", "scrambl"], '''
def split_heads(x, n_heads):
    *lead, n_tokens, d_model = x.shape
    return x.reshape(*lead, n_heads, n_tokens, d_model // n_heads)
'''),
        "swap_first_two_axes": (["leading", "batch", "-3, -2", "negative axes"], '''
def split_heads(x, n_heads):
    *lead, n_tokens, d_model = x.shape
    return np.swapaxes(x.reshape(*lead, n_tokens, n_heads, d_model // n_heads), 0, 1)
'''),
        "strided_columns": (["block", "strided", "contiguous", "columns h * d_head"], '''
def split_heads(x, n_heads):
    *lead, n_tokens, d_model = x.shape
    d_head = d_model // n_heads
    return np.moveaxis(x.reshape(*lead, n_tokens, d_head, n_heads), -1, -3)
'''),
        "assumes_batch_axis": (["leading axes", "any number", "no batch", "2-d"], '''
def split_heads(x, n_heads):
    batch, n_tokens, d_model = x.shape
    return x.reshape(batch, n_tokens, n_heads, d_model // n_heads).transpose(0, 2, 1, 3)
'''),
        "split_stack_axis0": (["axis=-3", "leading", "batch", "heads axis"], '''
def split_heads(x, n_heads):
    return np.stack(np.split(x, n_heads, axis=-1), axis=0)
'''),
    },
    "combine_heads": {
        "reshape_without_swap": (["swapaxes", "transpose", "reshape alone", "scrambl"], '''
def combine_heads(x):
    *lead, n_heads, n_tokens, d_head = x.shape
    return x.reshape(*lead, n_tokens, n_heads * d_head)
'''),
        "concatenate_first_axis": (["leading", "batch", "first axis", "np.concatenate"], '''
def combine_heads(x):
    return np.concatenate(x, axis=-1)
'''),
        "interleaved_columns": (["block", "interleav", "order of the columns", "side by side"], '''
def combine_heads(x):
    y = np.moveaxis(x, -3, -1)  # (..., tokens, d_head, heads)
    return y.reshape(*y.shape[:-2], y.shape[-2] * y.shape[-1])
'''),
        "hardcoded_3d": (["leading axes", "any number", "batch", "(..., heads"], '''
def combine_heads(x):
    n_heads, n_tokens, d_head = x.shape[-3:]
    return x.transpose(1, 0, 2).reshape(n_tokens, n_heads * d_head)
'''),
    },
    "head_weights": {
        "scale_by_d_model": (["d_head", "sqrt(d_model)", "width of each head", "per head"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(w_query.shape[1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)
'''),
        "keys_dot_T": (["swapaxes", "last two axes", ".t", "reverses all"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ keys.T / np.sqrt(queries.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)
'''),
        "split_by_reshape_only": (["transpose", "swapaxes", "split_heads", "reshape"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    *lead, n_tokens, _ = inputs.shape
    queries = (inputs @ w_query).reshape(*lead, n_heads, n_tokens, -1)
    keys = (inputs @ w_key).reshape(*lead, n_heads, n_tokens, -1)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)
'''),
        "no_max_subtraction": (["overflow", "maximum", "subtract", "stable"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1])
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)
'''),
        "softmax_over_queries": (["axis=-1", "rows", "columns", "over the keys"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1])
    scores = scores - scores.max(axis=-2, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-2, keepdims=True)
'''),
        "d_head_from_inputs": (["w_query.shape", "projected", "non-square", "d_head from"], '''
def head_weights(inputs, w_query, w_key, n_heads):
    d_head = inputs.shape[-1] // n_heads
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(d_head)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)
'''),
    },
    "multi_head_attention": {
        "no_output_projection": (["w_out", "output projection", "w_o", "mix"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ values)
'''),
        "combine_by_reshape": (["combine_heads", "swapaxes", "transpose", "scrambl"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    heads = weights @ values  # (..., heads, tokens, d_head)
    concatenated = heads.reshape(*inputs.shape[:-1], -1)
    return concatenated @ w_out
'''),
        "d_head_from_d_model": (["d_head", "projected", "w_query.shape", "d_model"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    *lead, n_tokens, d_model = inputs.shape
    d_head = d_model // n_heads

    def heads(a):
        return np.swapaxes(a.reshape(*lead, n_tokens, n_heads, d_head), -3, -2)

    q, k, v = heads(inputs @ w_query), heads(inputs @ w_key), heads(inputs @ w_value)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return combine_heads(weights @ v) @ w_out
'''),
        "inputs_as_values": (["w_value", "value projection", "values are projected"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs, n_heads)
    return combine_heads(weights @ values) @ w_out
'''),
        "inline_scale_d_model": (["d_head", "sqrt(d_model)", "per head", "width of each head"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(w_query.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return combine_heads(weights @ v) @ w_out
'''),
        "weights_transposed": (["transpose", "rows are queries", "weights @ values"], '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(np.swapaxes(weights, -1, -2) @ values) @ w_out
'''),
    },
    "torch_attn_mask": {
        "tile_head_major": (["repeat", "tile", "b * n_heads + h", "heads of sequence"], '''
def torch_attn_mask(mask, n_heads):
    return np.tile(~mask, (n_heads, 1, 1))
'''),
        "not_inverted": (["blocked", "invert", "~", "convention"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask, n_heads, axis=0)
'''),
        "one_minus_int": (["bool", "boolean", "dtype", "logical_not"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(1 - mask, n_heads, axis=0)
'''),
        "repeat_without_axis": (["axis=0", "flatten", "first axis", "1-d"], '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(~mask, n_heads)
'''),
        "inverts_in_place": (["in place", "in-place", "copy", "do not change"], '''
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
    d_head = d_model // n_heads
    return np.swapaxes(x.reshape(*lead, n_tokens, n_heads, d_head), -3, -2)
''',
        "split_stack": '''
def split_heads(x, n_heads):
    return np.stack(np.split(x, n_heads, axis=-1), axis=-3)
''',
    },
    "combine_heads": {
        "swapaxes_reshape": '''
def combine_heads(x):
    y = np.swapaxes(x, -3, -2)  # (..., tokens, heads, d_head)
    return y.reshape(*y.shape[:-2], y.shape[-2] * y.shape[-1])
''',
        "concatenate_heads": '''
def combine_heads(x):
    return np.concatenate(list(np.moveaxis(x, -3, 0)), axis=-1)
''',
    },
    "head_weights": {
        "split_then_softmax": '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)   # (..., heads, tokens, d_head)
    keys = split_heads(inputs @ w_key, n_heads)
    d_head = queries.shape[-1]
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(d_head)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)
''',
        "loop_over_heads_scipy": '''
from scipy.special import softmax as scipy_softmax


def head_weights(inputs, w_query, w_key, n_heads):
    projected_q, projected_k = inputs @ w_query, inputs @ w_key
    d_head = projected_q.shape[-1] // n_heads
    heads = []
    for h in range(n_heads):
        q = projected_q[..., h * d_head:(h + 1) * d_head]
        k = projected_k[..., h * d_head:(h + 1) * d_head]
        heads.append(scipy_softmax(np.einsum("...id,...jd->...ij", q, k) / np.sqrt(d_head), axis=-1))
    return np.stack(heads, axis=-3)
''',
    },
    "multi_head_attention": {
        "composed": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)      # (..., heads, tokens, tokens)
    values = split_heads(inputs @ w_value, n_heads)              # (..., heads, tokens, d_head)
    return combine_heads(weights @ values) @ w_out
''',
        "loop_over_heads": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q_all, k_all, v_all = inputs @ w_query, inputs @ w_key, inputs @ w_value
    d_head = q_all.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        scores = q_all[..., cols] @ np.swapaxes(k_all[..., cols], -1, -2) / np.sqrt(d_head)
        scores = scores - scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        outputs.append(weights @ v_all[..., cols])
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
    batch, n_queries, n_keys = mask.shape
    blocked = np.logical_not(mask)[:, None]  # (batch, 1, queries, keys)
    return np.broadcast_to(blocked, (batch, n_heads, n_queries, n_keys)).reshape(batch * n_heads, n_queries, n_keys)
''',
    },
}
