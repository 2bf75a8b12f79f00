"""Fifth fresh set, notebook 06 (NumPy, multi-head attention): what a learner types into each solution cell."""

_HW = '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    d_head = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''

_MHA = '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    heads = weights @ values
    merged = combine_heads(heads)
    return merged @ w_out
'''


def _h(old, new):
    assert old in _HW, old
    return _HW.replace(old, new)


def _a(old, new):
    assert old in _MHA, old
    return _MHA.replace(old, new)


MISTAKES = {
    "split_heads": {
        "heads_reshape_without_transpose": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, n_heads, tokens, d_model // n_heads)
''',
        "heads_interleaved:reshape_order": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x = x.reshape(*lead, tokens, d_model // n_heads, n_heads)
    return np.moveaxis(x, -1, -3)
''',
        "heads_interleaved:strided_slices": '''
def split_heads(x, n_heads):
    return np.stack([x[..., h::n_heads] for h in range(n_heads)], axis=-3)
''',
        "uncatalogued:swapped_last_two": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x = x.reshape(*lead, tokens, n_heads, d_model // n_heads)
    return np.swapaxes(x, -2, -1)
''',
        "uncatalogued:transpose_fixed_rank": '''
def split_heads(x, n_heads):
    tokens, d_model = x.shape[-2:]
    return x.reshape(tokens, n_heads, d_model // n_heads).transpose(1, 0, 2)
''',
        "uncatalogued:heads_moved_to_front": '''
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    return np.moveaxis(x.reshape(*x.shape[:-1], n_heads, d_head), -2, 0)
''',
        "changes_inputs_in_place:shape_assigned": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x.shape = (*lead, tokens, n_heads, d_model // n_heads)
    return np.swapaxes(x, -3, -2)
''',
        "loop_leftover:last_head": '''
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    return np.stack([x[..., h * d_head:(h + 1) * d_head] for h in range(n_heads - 1)], axis=-3)
''',
        "uncatalogued:dims_in_wrong_order": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x = x.reshape(*lead, tokens, d_model // n_heads, n_heads)
    return np.swapaxes(x, -3, -2)
''',
    },
    "combine_heads": {
        "heads_reshape_without_transpose": '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return x.reshape(*lead, tokens, heads * d_head)
''',
        "heads_concatenated_on_wrong_axis": '''
def combine_heads(x):
    heads = x.shape[-3]
    return np.concatenate([x[..., h, :, :] for h in range(heads)], axis=-2)
''',
        "heads_interleaved": '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    x = np.moveaxis(x, -3, -1)  # (..., tokens, d_head, heads)
    return x.reshape(*lead, tokens, heads * d_head)
''',
        "uncatalogued:transpose_fixed_rank": '''
def combine_heads(x):
    heads, tokens, d_head = x.shape[-3:]
    return x.transpose(1, 0, 2).reshape(tokens, heads * d_head)
''',
        "uncatalogued:concatenate_first_axis": '''
def combine_heads(x):
    return np.concatenate(x, axis=-1)
''',
        "heads_averaged:heads_summed": '''
def combine_heads(x):
    return x.sum(axis=-3)
''',
        "uncatalogued:swapped_first_and_last": '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return np.swapaxes(x, -3, -1).reshape(*lead, tokens, heads * d_head)
''',
        "loop_leftover:last_head": '''
def combine_heads(x):
    heads = x.shape[-3]
    return np.concatenate([x[..., h, :, :] for h in range(heads - 1)], axis=-1)
''',
    },
    "head_weights": {
        "no_scaling": _h("/ np.sqrt(d_head)", ""),
        "scale_by_sqrt_d_model": _h("np.sqrt(d_head)", "np.sqrt(inputs.shape[-1])"),
        "scale_by_sqrt_tokens": _h("d_head = q.shape[-1]", "d_head = q.shape[-2]"),
        "scale_by_d_k": _h("np.sqrt(d_head)", "d_head"),
        "softmax_no_max_subtraction": _h("    scores = scores - scores.max(axis=-1, keepdims=True)\n", ""),
        "uncatalogued:global_max": _h("scores.max(axis=-1, keepdims=True)", "scores.max()"),
        "softmax_wrong_axis": _h("scores.max(axis=-1, keepdims=True)\n    e = np.exp(scores)\n    return e / e.sum(axis=-1, keepdims=True)",
                                 "scores.max(axis=-2, keepdims=True)\n    e = np.exp(scores)\n    return e / e.sum(axis=-2, keepdims=True)"),
        "keys_transpose_all_axes": _h("np.swapaxes(k, -1, -2)", "k.T"),
        "keys_times_queries": _h("q @ np.swapaxes(k, -1, -2)", "k @ np.swapaxes(q, -1, -2)"),
        "mixed_up_projections:keys_from_w_query": _h("split_heads(inputs @ w_key, n_heads)", "split_heads(inputs @ w_query, n_heads)"),
        "projection_order": _h("inputs @ w_query, n_heads)\n    k = split_heads(inputs @ w_key",
                               "inputs @ w_query.T, n_heads)\n    k = split_heads(inputs @ w_key.T"),
        "heads_reshape_without_transpose": '''
def head_weights(inputs, w_query, w_key, n_heads):
    *lead, tokens, _ = inputs.shape
    q = (inputs @ w_query).reshape(*lead, n_heads, tokens, -1)
    k = (inputs @ w_key).reshape(*lead, n_heads, tokens, -1)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
    },
    "multi_head_attention": {
        "missing_output_projection": _a("return merged @ w_out", "return merged"),
        "heads_reshape_without_transpose:merge": _a(
            "merged = combine_heads(heads)",
            "merged = heads.reshape(*heads.shape[:-3], heads.shape[-2], -1)"),
        "heads_concatenated_on_wrong_axis": _a(
            "merged = combine_heads(heads)",
            "merged = np.concatenate([heads[..., h, :, :] for h in range(n_heads)], axis=-2)"),
        "uncatalogued:w_out_transposed": _a("return merged @ w_out", "return merged @ w_out.T"),
        "mixed_up_projections:values_from_w_key": _a("split_heads(inputs @ w_value, n_heads)",
                                                     "split_heads(inputs @ w_key, n_heads)"),
        "projection_order:values": _a("split_heads(inputs @ w_value, n_heads)",
                                      "split_heads(inputs @ w_value.T, n_heads)"),
        "returns_weights": _a("return merged @ w_out", "return weights"),
        "weights_transposed": _a("heads = weights @ values", "heads = np.swapaxes(weights, -1, -2) @ values"),
        "uncatalogued:heads_averaged": _a("merged = combine_heads(heads)", "merged = heads.mean(axis=-3)"),
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
        "no_scaling": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    scores = q @ np.swapaxes(k, -1, -2)
    scores -= scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w /= w.sum(axis=-1, keepdims=True)
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
    blocked = ~mask
    return np.repeat(blocked[:, None, :, :], n_heads, axis=1)
''',
        "changes_inputs_in_place": '''
def torch_attn_mask(mask, n_heads):
    mask[...] = ~mask
    return np.repeat(mask, n_heads, axis=0)
''',
        "mask_transposed": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(np.swapaxes(~mask, 1, 2), n_heads, axis=0)
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
        "uncatalogued:tiled_and_not_inverted": '''
def torch_attn_mask(mask, n_heads):
    return np.tile(mask, (n_heads, 1, 1))
''',
        "loop_leftover:last_head": '''
def torch_attn_mask(mask, n_heads):
    return np.stack([~m for m in mask for _ in range(n_heads - 1)])
''',
    },
}

VARIANTS = {
    "split_heads": {
        "stack_blocks": '''
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
        "concatenate_moved": '''
def combine_heads(x):
    return np.concatenate(list(np.moveaxis(x, -3, 0)), axis=-1)
''',
        "moveaxis_reshape": '''
def combine_heads(x):
    y = np.moveaxis(x, -3, -2)
    return y.reshape(y.shape[:-2] + (y.shape[-2] * y.shape[-1],))
''',
    },
    "head_weights": {
        "scipy_softmax": '''
from scipy.special import softmax as sp_softmax

def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(np.matmul(inputs, w_query), n_heads)
    k = split_heads(np.matmul(inputs, w_key), n_heads)
    scores = np.matmul(q, np.moveaxis(k, -1, -2)) / np.sqrt(q.shape[-1])
    return sp_softmax(scores, axis=-1)
''',
        "loop_over_heads": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q_all, k_all = inputs @ w_query, inputs @ w_key
    d_head = q_all.shape[-1] // n_heads
    out = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        s = q_all[..., cols] @ np.swapaxes(k_all[..., cols], -1, -2) / np.sqrt(d_head)
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        out.append(e / e.sum(axis=-1, keepdims=True))
    return np.stack(out, axis=-3)
''',
    },
    "multi_head_attention": {
        "loop_over_heads": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q_all, k_all, v_all = inputs @ w_query, inputs @ w_key, inputs @ w_value
    d_head = q_all.shape[-1] // n_heads
    heads = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        s = q_all[..., cols] @ np.swapaxes(k_all[..., cols], -1, -2) / np.sqrt(d_head)
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        heads.append(e / e.sum(axis=-1, keepdims=True) @ v_all[..., cols])
    return np.concatenate(heads, axis=-1) @ w_out
''',
        "helpers": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    v = split_heads(np.matmul(inputs, w_value), n_heads)
    context = np.matmul(head_weights(inputs, w_query, w_key, n_heads), v)
    return np.matmul(combine_heads(context), w_out)
''',
    },
    "torch_attn_mask": {
        "stack_comprehension": '''
def torch_attn_mask(mask, n_heads):
    return np.stack([np.logical_not(m) for m in mask for _ in range(n_heads)])
''',
        "broadcast_reshape": '''
def torch_attn_mask(mask, n_heads):
    b, q, k = mask.shape
    blocked = np.broadcast_to(~mask[:, None], (b, n_heads, q, k))
    return blocked.reshape(b * n_heads, q, k)
''',
    },
}
