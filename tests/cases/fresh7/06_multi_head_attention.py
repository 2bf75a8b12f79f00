"""Seventh fresh set, notebook 06. Written without the key (see README.md)."""

MISTAKES = {
    "split_heads": {
        "heads_reshape_without_transpose": """
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, n_heads, tokens, d_model // n_heads)
""",
        "heads_interleaved": """
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    y = x.reshape(*lead, tokens, d_model // n_heads, n_heads)
    return np.moveaxis(y, -1, -3)
""",
        "changes_inputs_in_place:shape_assigned": """
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x.shape = (*lead, tokens, n_heads, d_model // n_heads)
    return np.swapaxes(x, -3, -2)
""",
        "uncatalogued:no_batch_axes": """
def split_heads(x, n_heads):
    tokens, d_model = x.shape[-2], x.shape[-1]
    return x.reshape(tokens, n_heads, d_model // n_heads).transpose(1, 0, 2)
""",
        "uncatalogued:dot_T_all_axes": """
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, tokens, n_heads, d_model // n_heads).T
""",
        "uncatalogued:heads_moved_first": """
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return np.moveaxis(x.reshape(*lead, tokens, n_heads, d_model // n_heads), -2, 0)
""",
    },
    "combine_heads": {
        "heads_reshape_without_transpose": """
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return x.reshape(*lead, tokens, heads * d_head)
""",
        "heads_concatenated_on_wrong_axis": """
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-2)
""",
        "heads_interleaved": """
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    y = np.moveaxis(x, -3, -1)
    return y.reshape(*lead, tokens, heads * d_head)
""",
        "heads_averaged:heads_summed": """
def combine_heads(x):
    return x.sum(axis=-3)
""",
        "uncatalogued:no_batch_axes": """
def combine_heads(x):
    return np.concatenate(list(x), axis=-1)
""",
    },
    "head_weights": {
        "scale_by_sqrt_d_model": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(inputs.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
""",
        "no_scaling": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
        "softmax_no_max_subtraction": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    e = np.exp(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]))
    return e / e.sum(axis=-1, keepdims=True)
""",
        "heads_reshape_without_transpose": """
def head_weights(inputs, w_query, w_key, n_heads):
    *lead, t, _ = inputs.shape
    q = (inputs @ w_query).reshape(*lead, n_heads, t, -1)
    k = (inputs @ w_key).reshape(*lead, n_heads, t, -1)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
        "mixed_up_projections:keys_from_w_query": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_query, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
        "softmax_wrong_axis": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-2, keepdims=True))
    return e / e.sum(axis=-2, keepdims=True)
""",
        "keys_times_queries": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = k @ np.swapaxes(q, -1, -2) / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    },
    "multi_head_attention": {
        "missing_output_projection": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ values)
""",
        "heads_reshape_without_transpose": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    context = weights @ values
    *lead, h, t, dh = context.shape
    return context.reshape(*lead, t, h * dh) @ w_out
""",
        "mixed_up_projections:values_from_w_key": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_key, n_heads)
    return combine_heads(weights @ values) @ w_out
""",
        "uncatalogued:w_out_transposed": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ values) @ w_out.T
""",
        "weights_transposed": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(np.swapaxes(weights, -1, -2) @ values) @ w_out
""",
        "scale_by_sqrt_d_model": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q, k, v = (split_heads(inputs @ w, n_heads) for w in (w_query, w_key, w_value))
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(inputs.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return combine_heads((e / e.sum(axis=-1, keepdims=True)) @ v) @ w_out
""",
        "loop_leftover:last_head": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    context = np.zeros_like(values)
    for h in range(n_heads - 1):
        context[..., h, :, :] = weights[..., h, :, :] @ values[..., h, :, :]
    return combine_heads(context) @ w_out
""",
    },
    "torch_attn_mask": {
        "torch_mask_not_inverted": """
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask, n_heads, axis=0)
""",
        "torch_mask_heads_tiled": """
def torch_attn_mask(mask, n_heads):
    return np.tile(~mask, (n_heads, 1, 1))
""",
        "torch_mask_heads_not_merged": """
def torch_attn_mask(mask, n_heads):
    return np.repeat((~mask)[:, None], n_heads, axis=1)
""",
        "changes_inputs_in_place": """
def torch_attn_mask(mask, n_heads):
    np.logical_not(mask, out=mask)
    return np.repeat(mask, n_heads, axis=0)
""",
        "uncatalogued:float_additive_mask": """
def torch_attn_mask(mask, n_heads):
    return np.repeat(np.where(mask, 0.0, -np.inf), n_heads, axis=0)
""",
        "uncatalogued:not_repeated": """
def torch_attn_mask(mask, n_heads):
    return ~mask
""",
    },
}

VARIANTS = {
    "split_heads": {
        "moveaxis": """
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    return np.moveaxis(x.reshape(x.shape[:-1] + (n_heads, d_head)), -2, -3)
""",
        "stack_slices": """
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    return np.stack([x[..., h * d_head:(h + 1) * d_head] for h in range(n_heads)], axis=-3)
""",
    },
    "combine_heads": {
        "concatenate": """
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-1)
""",
        "moveaxis": """
def combine_heads(x):
    y = np.moveaxis(x, -3, -2)
    return y.reshape(y.shape[:-2] + (-1,))
""",
    },
    "head_weights": {
        "einsum_scipy": """
from scipy.special import softmax

def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    return softmax(np.einsum('...hqd,...hkd->...hqk', q, k) / np.sqrt(q.shape[-1]), axis=-1)
""",
    },
    "multi_head_attention": {
        "loop_over_heads": """
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
""",
        "einsum": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    a = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    return np.einsum('...td,de->...te', combine_heads(np.einsum('...hqk,...hkd->...hqd', a, v)), w_out)
""",
    },
    "torch_attn_mask": {
        "broadcast_reshape": """
def torch_attn_mask(mask, n_heads):
    b, q, k = mask.shape
    blocked = np.logical_not(mask)
    return np.broadcast_to(blocked[:, None], (b, n_heads, q, k)).reshape(b * n_heads, q, k)
""",
        "concatenate": """
def torch_attn_mask(mask, n_heads):
    return np.concatenate([np.stack([m == False] * n_heads) for m in mask])
""",
    },
}
