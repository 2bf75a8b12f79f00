"""Sixth fresh set, notebook 06: multi-head attention."""

MISTAKES = {
    "split_heads": {
        "heads_reshape_without_transpose": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, n_heads, tokens, d_model // n_heads)
''',
        "heads_reshape_without_transpose:axes_never_swapped": '''
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    return x.reshape(x.shape[:-1] + (n_heads, d_head))
''',
        "heads_interleaved": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x = x.reshape(*lead, tokens, d_model // n_heads, n_heads)
    return np.moveaxis(x, -1, -3)
''',
        "changes_inputs_in_place": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x.shape = (*lead, tokens, n_heads, d_model // n_heads)
    return np.swapaxes(x, -3, -2)
''',
        "lower_precision:float32": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x = x.astype(np.float32).reshape(*lead, tokens, n_heads, d_model // n_heads)
    return np.swapaxes(x, -3, -2)
''',
        "uncatalogued:assumes_no_batch": '''
def split_heads(x, n_heads):
    tokens, d_model = x.shape[-2:]
    return x.reshape(tokens, n_heads, d_model // n_heads).transpose(1, 0, 2)
''',
        "uncatalogued:swapped_last_two_axes": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x = x.reshape(*lead, tokens, n_heads, d_model // n_heads)
    return np.swapaxes(x, -2, -1)
''',
        "uncatalogued:heads_before_batch": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x = x.reshape(*lead, tokens, n_heads, d_model // n_heads)
    return np.moveaxis(x, -2, 0)
''',
    },
    "combine_heads": {
        "heads_reshape_without_transpose": '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return x.reshape(*lead, tokens, heads * d_head)
''',
        "heads_interleaved": '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return np.moveaxis(x, -3, -1).reshape(*lead, tokens, heads * d_head)
''',
        "heads_concatenated_on_wrong_axis": '''
def combine_heads(x):
    return np.concatenate(list(np.moveaxis(x, -3, 0)), axis=-2)
''',
        "loop_leftover:last_head_dropped": '''
def combine_heads(x):
    n_heads = x.shape[-3]
    return np.concatenate([x[..., h, :, :] for h in range(n_heads - 1)], axis=-1)
''',
        "lower_precision:float32": '''
def combine_heads(x):
    x = np.swapaxes(x, -3, -2).astype(np.float32)
    return x.reshape(*x.shape[:-2], -1)
''',
        "heads_averaged:heads_summed": '''
def combine_heads(x):
    return x.sum(axis=-3)
''',
        "uncatalogued:assumes_three_axes": '''
def combine_heads(x):
    heads, tokens, d_head = x.shape[-3:]
    return x.transpose(1, 0, 2).reshape(tokens, heads * d_head)
''',
        "uncatalogued:full_transpose": '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return x.T.reshape(*lead, tokens, heads * d_head)
''',
    },
    "head_weights": {
        "scale_by_sqrt_d_model": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(inputs.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "no_scaling": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "scale_applied_twice": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    d_head = k.shape[-1]
    q = q / np.sqrt(d_head)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "keys_transpose_all_axes": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ k.T / np.sqrt(k.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "keys_times_queries": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = k @ np.swapaxes(q, -1, -2) / np.sqrt(k.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "softmax_no_max_subtraction": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    e = np.exp(q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1]))
    return e / e.sum(axis=-1, keepdims=True)
''',
        "softmax_wrong_axis": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    scores = scores - scores.max(axis=-2, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-2, keepdims=True)
''',
        "heads_reshape_without_transpose": '''
def head_weights(inputs, w_query, w_key, n_heads):
    *lead, tokens, _ = inputs.shape
    q = (inputs @ w_query).reshape(*lead, n_heads, tokens, -1)
    k = (inputs @ w_key).reshape(*lead, n_heads, tokens, -1)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "mixed_up_projections:query_matrix_for_keys": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_query, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "uncatalogued:one_global_maximum": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    e = np.exp(scores - scores.max())
    return e / e.sum(axis=-1, keepdims=True)
''',
    },
    "multi_head_attention": {
        "missing_output_projection": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ values)
''',
        "heads_reshape_without_transpose": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    context = weights @ split_heads(inputs @ w_value, n_heads)
    merged = context.reshape(*inputs.shape[:-1], -1)
    return merged @ w_out
''',
        "heads_concatenated_on_wrong_axis": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    context = weights @ split_heads(inputs @ w_value, n_heads)
    heads = [context[..., h, :, :] for h in range(n_heads)]
    return np.concatenate(heads, axis=-2) @ w_out
''',
        "scale_by_sqrt_d_model": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(inputs.shape[-1])
    scores -= scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w /= w.sum(axis=-1, keepdims=True)
    return combine_heads(w @ v) @ w_out
''',
        "weights_times_keys": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    return combine_heads(weights @ keys) @ w_out
''',
        "mixed_up_projections:values_from_w_query": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_query, n_heads)
    return combine_heads(weights @ values) @ w_out
''',
        "weights_transposed": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(np.swapaxes(weights, -1, -2) @ values) @ w_out
''',
        "loop_leftover:head_zero_left_empty": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    context = np.zeros_like(values)
    for h in range(1, n_heads):
        context[..., h, :, :] = weights[..., h, :, :] @ values[..., h, :, :]
    return combine_heads(context) @ w_out
''',
        "lower_precision:float32": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    f = np.float32
    weights = head_weights(inputs.astype(f), w_query.astype(f), w_key.astype(f), n_heads)
    values = split_heads(inputs.astype(f) @ w_value.astype(f), n_heads)
    return combine_heads(weights @ values) @ w_out.astype(f)
''',
        "uncatalogued:w_out_transposed": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ values) @ w_out.T
''',
        "d_head_from_input_width:d_head_from_d_model": '''
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
''',
    },
    "torch_attn_mask": {
        "torch_mask_not_inverted": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask, n_heads, axis=0)
''',
        "torch_mask_heads_tiled": '''
def torch_attn_mask(mask, n_heads):
    return np.tile(~mask, (n_heads, 1, 1))
''',
        "torch_mask_heads_tiled:concatenated_copies": '''
def torch_attn_mask(mask, n_heads):
    blocked = np.logical_not(mask)
    return np.concatenate([blocked] * n_heads, axis=0)
''',
        "torch_mask_heads_not_merged": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat((~mask)[:, None], n_heads, axis=1)
''',
        "changes_inputs_in_place": '''
def torch_attn_mask(mask, n_heads):
    mask ^= True
    return np.repeat(mask, n_heads, axis=0)
''',
        "uncatalogued:float_additive_mask": '''
def torch_attn_mask(mask, n_heads):
    additive = np.where(mask, 0.0, -np.inf)
    return np.repeat(additive, n_heads, axis=0)
''',
        "uncatalogued:int_mask": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(1 - mask.astype(int), n_heads, axis=0)
''',
        "uncatalogued:heads_not_repeated": '''
def torch_attn_mask(mask, n_heads):
    return ~mask
''',
    },
}

VARIANTS = {
    "split_heads": {
        "moveaxis": '''
def split_heads(x, n_heads):
    shape = x.shape[:-1] + (n_heads, x.shape[-1] // n_heads)
    return np.moveaxis(x.reshape(shape), -2, -3)
''',
        "np_split_stack": '''
def split_heads(x, n_heads):
    return np.stack(np.split(x, n_heads, axis=-1), axis=-3)
''',
    },
    "combine_heads": {
        "concatenate_moved_heads": '''
def combine_heads(x):
    return np.concatenate(list(np.moveaxis(x, -3, 0)), axis=-1)
''',
        "moveaxis_reshape": '''
def combine_heads(x):
    y = np.moveaxis(x, -3, -2)
    return y.reshape(*y.shape[:-2], y.shape[-2] * y.shape[-1])
''',
    },
    "head_weights": {
        "scipy_softmax": '''
import scipy.special

def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(np.matmul(inputs, w_query), n_heads)
    k = split_heads(np.matmul(inputs, w_key), n_heads)
    scores = np.matmul(q, np.swapaxes(k, -1, -2)) / np.sqrt(q.shape[-1])
    return scipy.special.softmax(scores, axis=-1)
''',
        "own_split_logsumexp": '''
from scipy.special import logsumexp

def head_weights(inputs, w_query, w_key, n_heads):
    def heads(a):
        return np.moveaxis(a.reshape(*a.shape[:-1], n_heads, -1), -2, -3)
    q, k = heads(inputs @ w_query), heads(inputs @ w_key)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    return np.exp(scores - logsumexp(scores, axis=-1, keepdims=True))
''',
    },
    "multi_head_attention": {
        "loop_over_heads": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = inputs @ w_value
    d_head = values.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        outputs.append(weights[..., h, :, :] @ values[..., h * d_head:(h + 1) * d_head])
    return np.concatenate(outputs, axis=-1) @ w_out
''',
        "helpers_in_one_line": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    context = head_weights(inputs, w_query, w_key, n_heads) @ split_heads(inputs @ w_value, n_heads)
    return np.matmul(combine_heads(context), w_out)
''',
    },
    "torch_attn_mask": {
        "broadcast_reshape": '''
def torch_attn_mask(mask, n_heads):
    b, q, k = mask.shape
    return np.broadcast_to(~mask[:, None], (b, n_heads, q, k)).reshape(b * n_heads, q, k)
''',
        "torch_repeat_interleave": '''
def torch_attn_mask(mask, n_heads):
    blocked = torch.from_numpy(np.logical_not(mask))
    return blocked.repeat_interleave(n_heads, dim=0).numpy()
''',
    },
}
