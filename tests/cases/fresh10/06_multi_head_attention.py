"""Tenth fresh set, notebook 06: multi-head attention."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}

# --------------------------------------------------------------------------- split_heads
MISTAKES["split_heads"] = {
    "heads_reshape_without_transpose": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, n_heads, tokens, d_model // n_heads)
''',
    "heads_reshape_without_transpose:heads_left_behind_tokens": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, tokens, n_heads, d_model // n_heads)
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
    "loop_leftover:last_head_missing": '''
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    heads = [x[..., h * d_head:(h + 1) * d_head] for h in range(n_heads - 1)]
    return np.stack(heads, axis=-3)
''',
    "uncatalogued:ignores_batch_axes": '''
def split_heads(x, n_heads):
    tokens, d_model = x.shape[-2], x.shape[-1]
    return x.reshape(tokens, n_heads, d_model // n_heads).transpose(1, 0, 2)
''',
    "uncatalogued:swapped_wrong_axes": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x = x.reshape(*lead, tokens, n_heads, d_model // n_heads)
    return np.swapaxes(x, -3, -1)
''',
}
VARIANTS["split_heads"] = {
    "np_split": '''
def split_heads(x, n_heads):
    return np.stack(np.split(x, n_heads, axis=-1), axis=-3)
''',
    "moveaxis": '''
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    return np.moveaxis(x.reshape(x.shape[:-1] + (n_heads, d_head)), -2, -3)
''',
}

# --------------------------------------------------------------------------- combine_heads
MISTAKES["combine_heads"] = {
    "heads_reshape_without_transpose": '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return x.reshape(*lead, tokens, heads * d_head)
''',
    "heads_concatenated_on_wrong_axis": '''
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-2)
''',
    "heads_interleaved": '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return np.moveaxis(x, -3, -1).reshape(*lead, tokens, d_head * heads)
''',
    "loop_leftover:last_head_not_copied": '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    out = np.zeros((*lead, tokens, heads * d_head), dtype=x.dtype)
    for h in range(heads - 1):
        out[..., h * d_head:(h + 1) * d_head] = x[..., h, :, :]
    return out
''',
    "uncatalogued:ignores_batch_axes": '''
def combine_heads(x):
    heads, tokens, d_head = x.shape[-3:]
    return x.transpose(1, 0, 2).reshape(tokens, heads * d_head)
''',
    "uncatalogued:features_swapped_with_heads": '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return np.swapaxes(x, -3, -1).reshape(*lead, tokens, heads * d_head)
''',
}
VARIANTS["combine_heads"] = {
    "concatenate_heads": '''
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-1)
''',
    "moveaxis": '''
def combine_heads(x):
    moved = np.moveaxis(x, -3, -2)
    return moved.reshape(moved.shape[:-2] + (-1,))
''',
}

# --------------------------------------------------------------------------- head_weights
MISTAKES["head_weights"] = {
    "scale_by_sqrt_d_model": '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(inputs.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    exps = np.exp(scores)
    return exps / exps.sum(axis=-1, keepdims=True)
''',
    "softmax_no_max_subtraction": '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    exps = np.exp(queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1]))
    return exps / exps.sum(axis=-1, keepdims=True)
''',
    "heads_reshape_without_transpose": '''
def head_weights(inputs, w_query, w_key, n_heads):
    *lead, tokens, _ = inputs.shape
    d_head = w_query.shape[1] // n_heads
    queries = (inputs @ w_query).reshape(*lead, n_heads, tokens, d_head)
    keys = (inputs @ w_key).reshape(*lead, n_heads, tokens, d_head)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(d_head)
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
''',
    "keys_transpose_all_axes": '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ keys.T / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
''',
    "softmax_wrong_axis": '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=-2, keepdims=True))
    return exps / exps.sum(axis=-2, keepdims=True)
''',
    "no_scaling": '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2)
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
''',
    "mixed_up_projections:keys_from_w_query": '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_query, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
''',
    "uncatalogued:one_max_for_all_heads": '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max())
    return exps / exps.sum(axis=-1, keepdims=True)
''',
}
VARIANTS["head_weights"] = {
    "scipy_softmax": '''
from scipy.special import softmax as scipy_softmax


def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    d_head = queries.shape[-1]
    return scipy_softmax(queries @ np.swapaxes(keys, -1, -2) / np.sqrt(d_head), axis=-1)
''',
    "torch_softmax": '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(np.matmul(inputs, w_query), n_heads)
    keys = split_heads(np.matmul(inputs, w_key), n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return torch.softmax(torch.from_numpy(scores), dim=-1).numpy()
''',
}

# --------------------------------------------------------------------------- multi_head_attention
MISTAKES["multi_head_attention"] = {
    "missing_output_projection": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ values)
''',
    "heads_reshape_without_transpose": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    context = weights @ values
    combined = context.reshape(*inputs.shape[:-1], -1)
    return combined @ w_out
''',
    "scale_by_sqrt_d_model": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(inputs.shape[-1])
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = exps / exps.sum(axis=-1, keepdims=True)
    return combine_heads(weights @ values) @ w_out
''',
    "weights_times_keys": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    return combine_heads(weights @ keys) @ w_out
''',
    "mixed_up_projections:values_from_w_key": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_key, n_heads)
    return combine_heads(weights @ values) @ w_out
''',
    "heads_concatenated_on_wrong_axis": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    context = weights @ split_heads(inputs @ w_value, n_heads)
    heads = [context[..., h, :, :] for h in range(n_heads)]
    return np.concatenate(heads, axis=-2) @ w_out
''',
    "loop_leftover:heads_loop_one_short": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = inputs @ w_value
    d_head = values.shape[-1] // n_heads
    combined = np.zeros(values.shape, dtype=values.dtype)
    for h in range(n_heads - 1):
        block = slice(h * d_head, (h + 1) * d_head)
        combined[..., block] = weights[..., h, :, :] @ values[..., block]
    return combined @ w_out
''',
    "weights_transposed": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(np.swapaxes(weights, -1, -2) @ values) @ w_out
''',
    "uncatalogued:w_out_transposed": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ values) @ w_out.T
''',
}
VARIANTS["multi_head_attention"] = {
    "loop_over_heads": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    d_head = queries.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        block = slice(h * d_head, (h + 1) * d_head)
        q, k, v = queries[..., block], keys[..., block], values[..., block]
        scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
        scores = scores - scores.max(axis=-1, keepdims=True)
        exps = np.exp(scores)
        outputs.append(exps / exps.sum(axis=-1, keepdims=True) @ v)
    return np.concatenate(outputs, axis=-1) @ w_out
''',
    "values_on_the_left": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    context = np.swapaxes(np.swapaxes(values, -1, -2) @ np.swapaxes(weights, -1, -2), -1, -2)
    return combine_heads(context) @ w_out
''',
}

# --------------------------------------------------------------------------- torch_attn_mask
MISTAKES["torch_attn_mask"] = {
    "torch_mask_not_inverted": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(np.asarray(mask, dtype=bool), n_heads, axis=0)
''',
    "torch_mask_heads_tiled": '''
def torch_attn_mask(mask, n_heads):
    blocked = ~mask
    return np.tile(blocked, (n_heads, 1, 1))
''',
    "torch_mask_heads_not_merged": '''
def torch_attn_mask(mask, n_heads):
    blocked = np.logical_not(mask)
    return np.repeat(blocked[:, None, :, :], n_heads, axis=1)
''',
    "changes_inputs_in_place": '''
def torch_attn_mask(mask, n_heads):
    np.logical_not(mask, out=mask)
    return np.repeat(mask, n_heads, axis=0)
''',
    "mask_transposed": '''
def torch_attn_mask(mask, n_heads):
    blocked = ~np.swapaxes(mask, -1, -2)
    return np.repeat(blocked, n_heads, axis=0)
''',
    "uncatalogued:int_mask": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(1 - mask.astype(int), n_heads, axis=0)
''',
    "uncatalogued:repeated_along_queries": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(~mask, n_heads, axis=1)
''',
}
VARIANTS["torch_attn_mask"] = {
    "repeat_interleave": '''
def torch_attn_mask(mask, n_heads):
    return torch.from_numpy(~mask).repeat_interleave(n_heads, dim=0).numpy()
''',
    "broadcast_reshape": '''
def torch_attn_mask(mask, n_heads):
    batch, n_q, n_k = mask.shape
    blocked = np.broadcast_to((mask == False)[:, None], (batch, n_heads, n_q, n_k))  # noqa: E712
    return blocked.reshape(batch * n_heads, n_q, n_k)
''',
}
