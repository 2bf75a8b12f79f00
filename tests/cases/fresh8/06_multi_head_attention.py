"""Eighth fresh set, notebook 06: multi-head attention."""

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
    "loop_leftover:last_head": '''
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    return np.stack([x[..., h * d_head:(h + 1) * d_head] for h in range(n_heads - 1)], axis=-3)
''',
    "uncatalogued:assumes_no_batch": '''
def split_heads(x, n_heads):
    tokens, d_model = x.shape
    return x.reshape(tokens, n_heads, d_model // n_heads).transpose(1, 0, 2)
''',
    "uncatalogued:swapped_last_two": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x = x.reshape(*lead, tokens, n_heads, d_model // n_heads)
    return np.swapaxes(x, -2, -1)
''',
    "uncatalogued:heads_before_batch": '''
def split_heads(x, n_heads):
    return np.stack(np.split(x, n_heads, axis=-1), axis=0)
''',
    "uncatalogued:dot_T_all_axes": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, tokens, n_heads, d_model // n_heads).T
''',
}
VARIANTS["split_heads"] = {
    "moveaxis": '''
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    return np.moveaxis(x.reshape(x.shape[:-1] + (n_heads, d_head)), -2, -3)
''',
    "split_stack": '''
def split_heads(x, n_heads):
    return np.stack(np.split(x, n_heads, axis=-1), axis=-3)
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
    x = np.moveaxis(x, -3, -1)
    *lead, tokens, d_head, heads = x.shape
    return x.reshape(*lead, tokens, d_head * heads)
''',
    "loop_leftover:last_head": '''
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3] - 1)], axis=-1)
''',
    "heads_averaged:heads_summed": '''
def combine_heads(x):
    return x.sum(axis=-3)
''',
    "uncatalogued:assumes_no_batch": '''
def combine_heads(x):
    heads, tokens, d_head = x.shape
    return x.transpose(1, 0, 2).reshape(tokens, heads * d_head)
''',
    "uncatalogued:batch_axis_moved": '''
def combine_heads(x):
    x = np.moveaxis(x, 0, -2)
    *lead, tokens, heads, d_head = x.shape
    return x.reshape(*lead, tokens, heads * d_head)
''',
}
VARIANTS["combine_heads"] = {
    "concatenate_heads": '''
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-1)
''',
    "moveaxis_reshape": '''
def combine_heads(x):
    moved = np.moveaxis(x, -3, -2)
    return moved.reshape(moved.shape[:-2] + (-1,))
''',
}

# --------------------------------------------------------------------------- head_weights
_HW = '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ W_Q, n_heads)
    keys = split_heads(inputs @ W_K, n_heads)
    scores = SCORES / DIVISOR
    scores = scores - scores.max(axis=AXIS, keepdims=True)
    exps = np.exp(scores)
    return exps / exps.sum(axis=AXIS, keepdims=True)
'''


def _hw(w_q="w_query", w_k="w_key", scores="queries @ np.swapaxes(keys, -1, -2)",
        divisor="np.sqrt(keys.shape[-1])", axis="-1") -> str:
    if divisor is None:
        return _hw(w_q, w_k, scores, "D", axis).replace(" / D", "")
    return (_HW.replace("W_Q", w_q).replace("W_K", w_k).replace("SCORES", scores)
            .replace("DIVISOR", divisor).replace("AXIS", axis))


MISTAKES["head_weights"] = {
    "scale_by_sqrt_d_model": _hw(divisor="np.sqrt(inputs.shape[-1])"),
    "no_scaling": _hw(divisor=None),
    "keys_times_queries": _hw(scores="keys @ np.swapaxes(queries, -1, -2)"),
    "keys_transpose_all_axes": _hw(scores="queries @ keys.T"),
    "softmax_wrong_axis": _hw(axis="-2"),
    "mixed_up_projections:one_matrix": _hw(w_k="w_query"),
    "projection_order:w_transposed": _hw(w_q="w_query.T", w_k="w_key.T"),
    "softmax_no_max_subtraction": '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    e = np.exp(queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1]))
    return e / e.sum(axis=-1, keepdims=True)
''',
    "heads_reshape_without_transpose": '''
def head_weights(inputs, w_query, w_key, n_heads):
    *lead, tokens, d = inputs.shape
    d_head = w_query.shape[-1] // n_heads
    queries = (inputs @ w_query).reshape(*lead, n_heads, tokens, d_head)
    keys = (inputs @ w_key).reshape(*lead, n_heads, tokens, d_head)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(d_head)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
    "uncatalogued:global_max": '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    e = np.exp(scores - scores.max())
    return e / e.sum(axis=-1, keepdims=True)
''',
}
VARIANTS["head_weights"] = {
    "einsum_scipy": '''
from scipy.special import softmax


def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    return softmax(np.einsum("...htd,...hsd->...hts", q, k) / np.sqrt(q.shape[-1]), axis=-1)
''',
    "logsumexp": '''
from scipy.special import logsumexp


def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(np.matmul(inputs, w_query), n_heads)
    k = split_heads(np.matmul(inputs, w_key), n_heads)
    d_head = q.shape[-1]
    scores = np.matmul(q / np.sqrt(d_head), np.swapaxes(k, -2, -1))
    return np.exp(scores - logsumexp(scores, axis=-1, keepdims=True))
''',
}

# --------------------------------------------------------------------------- multi_head_attention
_MHA = '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ W_V, n_heads)
    context = WEIGHTS @ values
    return combine_heads(context) @ W_O
'''


def _mha(w_v="w_value", weights="weights", w_o="w_out") -> str:
    return _MHA.replace("W_V", w_v).replace("WEIGHTS", weights).replace("W_O", w_o)


MISTAKES["multi_head_attention"] = {
    "missing_output_projection": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ values)
''',
    "mixed_up_projections:values_from_w_key": _mha(w_v="w_key"),
    "weights_transposed": _mha(weights="np.swapaxes(weights, -1, -2)"),
    "uncatalogued:w_out_transposed": _mha(w_o="w_out.T"),
    "heads_reshape_without_transpose": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    context = weights @ split_heads(inputs @ w_value, n_heads)
    *lead, heads, tokens, d_head = context.shape
    return context.reshape(*lead, tokens, heads * d_head) @ w_out
''',
    "weights_times_keys": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    return combine_heads(weights @ keys) @ w_out
''',
    "returns_weights": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    return weights
''',
    "scale_by_sqrt_d_model": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(inputs.shape[-1])
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return combine_heads(e / e.sum(axis=-1, keepdims=True) @ v) @ w_out
''',
    "loop_leftover:last_head": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    context = np.zeros_like(values)
    for h in range(n_heads - 1):
        context[..., h, :, :] = weights[..., h, :, :] @ values[..., h, :, :]
    return combine_heads(context) @ w_out
''',
    "d_head_from_input_width:d_head_from_d_model": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    d_head = inputs.shape[-1] // n_heads
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return combine_heads(e / e.sum(axis=-1, keepdims=True) @ v) @ w_out
''',
}
VARIANTS["multi_head_attention"] = {
    "head_loop_concatenate": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    heads = [weights[..., h, :, :] @ values[..., h, :, :] for h in range(n_heads)]
    return np.concatenate(heads, axis=-1) @ w_out
''',
    "inline_einsum": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q, k, v = (split_heads(inputs @ w, n_heads) for w in (w_query, w_key, w_value))
    scores = np.einsum("...htd,...hsd->...hts", q, k) / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    return combine_heads(np.einsum("...hts,...hsd->...htd", w, v)) @ w_out
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
    "torch_mask_heads_not_merged": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat((~mask)[:, None], n_heads, axis=1)
''',
    "changes_inputs_in_place": '''
def torch_attn_mask(mask, n_heads):
    np.logical_not(mask, out=mask)
    return np.repeat(mask, n_heads, axis=0)
''',
    "uncatalogued:not_repeated": '''
def torch_attn_mask(mask, n_heads):
    return ~mask
''',
    "uncatalogued:repeated_on_queries": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(~mask, n_heads, axis=1)
''',
    "uncatalogued:int_inverted": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(1 - mask, n_heads, axis=0)
''',
    "uncatalogued:additive_float": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(np.where(mask, 0.0, -np.inf), n_heads, axis=0)
''',
}
VARIANTS["torch_attn_mask"] = {
    "broadcast_reshape": '''
def torch_attn_mask(mask, n_heads):
    batch, n_q, n_k = mask.shape
    blocked = np.logical_not(mask)
    return np.broadcast_to(blocked[:, None], (batch, n_heads, n_q, n_k)).reshape(batch * n_heads, n_q, n_k)
''',
    "torch_repeat_interleave": '''
def torch_attn_mask(mask, n_heads):
    blocked = ~torch.from_numpy(np.array(mask, dtype=bool))
    return blocked.repeat_interleave(n_heads, dim=0).numpy()
''',
}
