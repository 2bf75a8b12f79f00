"""Ninth fresh set, notebook 06: multi-head attention (NumPy)."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}

# --------------------------------------------------------------------------- split_heads
MISTAKES["split_heads"] = {
    "heads_reshape_without_transpose": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, n_heads, tokens, d_model // n_heads)
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
    "loop_leftover": '''
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    heads = [x[..., h * d_head:(h + 1) * d_head] for h in range(n_heads - 1)]
    return np.stack(heads, axis=-3)
''',
    "uncatalogued:assumes_no_batch": '''
def split_heads(x, n_heads):
    tokens, d_model = x.shape
    return x.reshape(tokens, n_heads, d_model // n_heads).transpose(1, 0, 2)
''',
    "uncatalogued:last_two_axes_swapped": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x = x.reshape(*lead, tokens, n_heads, d_model // n_heads)
    return np.swapaxes(x, -2, -1)
''',
    "uncatalogued:heads_axis_first": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x = x.reshape(*lead, tokens, n_heads, d_model // n_heads)
    return np.moveaxis(x, -2, 0)
''',
    "uncatalogued:heads_and_width_confused": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x = x.reshape(*lead, tokens, d_model // n_heads, n_heads)
    return np.swapaxes(x, -3, -2)
''',
}
VARIANTS["split_heads"] = {
    "moveaxis": '''
def split_heads(x, n_heads):
    new_shape = x.shape[:-1] + (n_heads, x.shape[-1] // n_heads)
    return np.moveaxis(x.reshape(new_shape), -2, -3)
''',
    "split_and_stack": '''
def split_heads(x, n_heads):
    return np.stack(np.split(x, n_heads, axis=-1), axis=-3)
''',
    "explicit_transpose": '''
def split_heads(x, n_heads):
    nd = x.ndim
    y = x.reshape(*x.shape[:-1], n_heads, -1)
    order = list(range(nd - 2)) + [nd - 1, nd - 2, nd]
    return y.transpose(order)
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
    heads = [x[..., h, :, :] for h in range(x.shape[-3])]
    return np.concatenate(heads, axis=-2)
''',
    "heads_interleaved": '''
def combine_heads(x):
    x = np.swapaxes(x, -3, -2)  # (..., tokens, heads, d_head)
    x = np.swapaxes(x, -2, -1)  # (..., tokens, d_head, heads)
    return x.reshape(*x.shape[:-2], -1)
''',
    "loop_leftover": '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    out = np.zeros((*lead, tokens, heads * d_head), dtype=x.dtype)
    for h in range(heads - 1):
        out[..., h * d_head:(h + 1) * d_head] = x[..., h, :, :]
    return out
''',
    "uncatalogued:assumes_no_batch": '''
def combine_heads(x):
    heads, tokens, d_head = x.shape
    return x.transpose(1, 0, 2).reshape(tokens, heads * d_head)
''',
    "uncatalogued:hstack_ignores_batch": '''
def combine_heads(x):
    return np.hstack(x)
''',
    "heads_averaged:heads_summed": '''
def combine_heads(x):
    return x.sum(axis=-3)
''',
    "uncatalogued:wrong_axes_swapped": '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return np.swapaxes(x, -3, -1).reshape(*lead, tokens, heads * d_head)
''',
}
VARIANTS["combine_heads"] = {
    "concatenate_heads": '''
def combine_heads(x):
    return np.concatenate(list(np.moveaxis(x, -3, 0)), axis=-1)
''',
    "moveaxis_reshape": '''
def combine_heads(x):
    y = np.moveaxis(x, -3, -2)
    return y.reshape(*y.shape[:-2], y.shape[-2] * y.shape[-1])
''',
    "einsum": '''
def combine_heads(x):
    y = np.einsum("...htd->...thd", x)
    return y.reshape(y.shape[:-2] + (-1,))
''',
}

# --------------------------------------------------------------------------- head_weights
_HW = '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    d_head = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    scores = scores - np.max(scores, axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / np.sum(e, axis=-1, keepdims=True)
'''


def _hw(*pairs):
    src = _HW
    for old, new in pairs:
        assert src.count(old) == 1, old
        src = src.replace(old, new)
    return src


MISTAKES["head_weights"] = {
    "scale_by_sqrt_d_model": _hw(("np.sqrt(d_head)", "np.sqrt(inputs.shape[-1])")),
    "scale_by_sqrt_d_model:projected_width": _hw(("np.sqrt(d_head)", "np.sqrt(w_query.shape[1])")),
    "no_scaling": _hw((" / np.sqrt(d_head)", "")),
    "scale_by_d_k": _hw(("np.sqrt(d_head)", "d_head")),
    "heads_reshape_without_transpose": '''
def head_weights(inputs, w_query, w_key, n_heads):
    *lead, tokens, d = (inputs @ w_query).shape
    q = (inputs @ w_query).reshape(*lead, n_heads, tokens, d // n_heads)
    k = (inputs @ w_key).reshape(*lead, n_heads, tokens, d // n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d // n_heads)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
    "keys_transpose_all_axes": _hw(("np.swapaxes(k, -1, -2)", "k.T")),
    "keys_times_queries": _hw(("q @ np.swapaxes(k, -1, -2)", "k @ np.swapaxes(q, -1, -2)")),
    "softmax_no_max_subtraction": _hw(("    scores = scores - np.max(scores, axis=-1, keepdims=True)\n", "")),
    "softmax_wrong_axis": _hw(("np.sum(e, axis=-1, keepdims=True)", "np.sum(e, axis=-2, keepdims=True)"),
                              ("np.max(scores, axis=-1, keepdims=True)", "np.max(scores, axis=-2, keepdims=True)")),
    "mixed_up_projections": _hw(("split_heads(inputs @ w_key, n_heads)", "split_heads(inputs @ w_query, n_heads)")),
    "projection_order": _hw(("inputs @ w_query,", "inputs @ w_query.T,"), ("inputs @ w_key,", "inputs @ w_key.T,")),
    "uncatalogued:global_max": _hw(("np.max(scores, axis=-1, keepdims=True)", "np.max(scores)")),
    "softmax_over_all_entries": _hw(("np.sum(e, axis=-1, keepdims=True)", "np.sum(e)"),
                                    ("np.max(scores, axis=-1, keepdims=True)", "np.max(scores)")),
}
VARIANTS["head_weights"] = {
    "scipy_softmax": '''
def head_weights(inputs, w_query, w_key, n_heads):
    from scipy.special import softmax
    q = split_heads(np.matmul(inputs, w_query), n_heads)
    k = split_heads(np.matmul(inputs, w_key), n_heads)
    scores = np.matmul(q, k.swapaxes(-1, -2)) / np.sqrt(q.shape[-1])
    return softmax(scores, axis=-1)
''',
    "loop_over_heads": '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries, keys = inputs @ w_query, inputs @ w_key
    d_head = queries.shape[-1] // n_heads
    per_head = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        s = queries[..., cols] @ np.swapaxes(keys[..., cols], -1, -2) / np.sqrt(d_head)
        s = np.exp(s - s.max(axis=-1, keepdims=True))
        per_head.append(s / s.sum(axis=-1, keepdims=True))
    return np.stack(per_head, axis=-3)
''',
    "scaled_queries": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = (q / np.sqrt(k.shape[-1])) @ np.moveaxis(k, -1, -2)
    weights = np.exp(scores - scores.max(-1)[..., None])
    return weights / weights.sum(-1)[..., None]
''',
}

# --------------------------------------------------------------------------- multi_head_attention
_MHA = '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    heads = weights @ values
    concatenated = combine_heads(heads)
    return concatenated @ w_out
'''


def _mha(*pairs):
    src = _MHA
    for old, new in pairs:
        assert src.count(old) == 1, old
        src = src.replace(old, new)
    return src


MISTAKES["multi_head_attention"] = {
    "missing_output_projection": _mha(("return concatenated @ w_out", "return concatenated")),
    "uncatalogued:output_projection_transposed": _mha(("concatenated @ w_out", "concatenated @ w_out.T")),
    "heads_reshape_without_transpose:values": _mha((
        "split_heads(inputs @ w_value, n_heads)",
        "(inputs @ w_value).reshape(*inputs.shape[:-2], n_heads, inputs.shape[-2], -1)")),
    "heads_reshape_without_transpose:combined": _mha((
        "combine_heads(heads)", "heads.reshape(*heads.shape[:-3], heads.shape[-2], -1)")),
    "heads_concatenated_on_wrong_axis": _mha((
        "combine_heads(heads)", "np.concatenate(list(np.moveaxis(heads, -3, 0)), axis=-2)")),
    "weights_times_keys": _mha(("    values = split_heads(inputs @ w_value, n_heads)\n",
                                "    keys = split_heads(inputs @ w_key, n_heads)\n"),
                               ("heads = weights @ values", "heads = weights @ keys")),
    "weights_transposed": _mha(("weights @ values", "np.swapaxes(weights, -1, -2) @ values")),
    "loop_leftover": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    heads = np.zeros_like(weights @ values)
    for h in range(n_heads - 1):
        heads[..., h, :, :] = weights[..., h, :, :] @ values[..., h, :, :]
    return combine_heads(heads) @ w_out
''',
    "no_scaling": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    scores = q @ np.swapaxes(k, -1, -2)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return combine_heads(weights @ v) @ w_out
''',
    "scale_by_sqrt_d_model": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(inputs.shape[-1])
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return combine_heads(weights @ v) @ w_out
''',
    "softmax_no_max_subtraction": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    e = np.exp(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]))
    return combine_heads(e / e.sum(axis=-1, keepdims=True) @ v) @ w_out
''',
    "uncatalogued:values_not_projected": _mha(("split_heads(inputs @ w_value, n_heads)", "split_heads(inputs, n_heads)")),
}
VARIANTS["multi_head_attention"] = {
    "loop_over_heads": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q, k, v = inputs @ w_query, inputs @ w_key, inputs @ w_value
    d_head = q.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        scores = q[..., cols] @ np.swapaxes(k[..., cols], -1, -2) / np.sqrt(d_head)
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        outputs.append(scores / scores.sum(axis=-1, keepdims=True) @ v[..., cols])
    return np.concatenate(outputs, axis=-1) @ w_out
''',
    "einsum": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    context = np.einsum("...hqk,...hkd->...hqd", weights, v)
    return np.einsum("...te,eo->...to", combine_heads(context), w_out)
''',
    "moveaxis_combine": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    attn = head_weights(inputs, w_query, w_key, n_heads)
    context = attn @ split_heads(inputs @ w_value, n_heads)
    context = np.moveaxis(context, -3, -2)
    context = context.reshape(*context.shape[:-2], -1)
    return np.matmul(context, w_out)
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
    return np.tile(~mask, (n_heads, 1, 1))
''',
    "torch_mask_heads_tiled:concatenated": '''
def torch_attn_mask(mask, n_heads):
    blocked = np.logical_not(mask)
    return np.concatenate([blocked] * n_heads, axis=0)
''',
    "torch_mask_heads_not_merged": '''
def torch_attn_mask(mask, n_heads):
    blocked = ~mask
    return np.repeat(blocked[:, None, :, :], n_heads, axis=1)
''',
    "mask_transposed": '''
def torch_attn_mask(mask, n_heads):
    blocked = ~np.swapaxes(mask, -1, -2)
    return np.repeat(blocked, n_heads, axis=0)
''',
    "changes_inputs_in_place": '''
def torch_attn_mask(mask, n_heads):
    np.logical_not(mask, out=mask)
    return np.repeat(mask, n_heads, axis=0)
''',
    "loop_leftover": '''
def torch_attn_mask(mask, n_heads):
    batch = mask.shape[0]
    out = np.zeros((batch * n_heads,) + mask.shape[1:], dtype=bool)
    for b in range(batch - 1):
        for h in range(n_heads):
            out[b * n_heads + h] = ~mask[b]
    return out
''',
    "uncatalogued:int_mask": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(1 - mask.astype(int), n_heads, axis=0)
''',
    "uncatalogued:float_additive_mask": '''
def torch_attn_mask(mask, n_heads):
    additive = np.where(mask, 0.0, -np.inf)
    return np.repeat(additive, n_heads, axis=0)
''',
    "uncatalogued:repeated_along_queries": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(~mask, n_heads, axis=1)
''',
    "uncatalogued:repeat_without_axis": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(~mask, n_heads)
''',
}
VARIANTS["torch_attn_mask"] = {
    "broadcast_reshape": '''
def torch_attn_mask(mask, n_heads):
    batch, n_q, n_k = mask.shape
    blocked = np.broadcast_to(~mask[:, None], (batch, n_heads, n_q, n_k))
    return blocked.reshape(batch * n_heads, n_q, n_k)
''',
    "invert_repeat_method": '''
def torch_attn_mask(mask, n_heads):
    return np.invert(mask).repeat(n_heads, axis=0)
''',
    "comprehension": '''
def torch_attn_mask(mask, n_heads):
    return np.stack([~m for m in mask for _ in range(n_heads)])
''',
}
