"""Third fresh set, notebook 06: learners' answers written without the grader's key.

Each source is what a learner would type in the exercise's solution cell; the notebook's earlier
cells have run. Written on 2026-11-23 from the exercise texts and the catalogue's ids and hints only,
checked only against the notebook's own solution (tests/cases/selfcheck.py fresh3), never against the
grader. Rule: never edited after its first measurement (see README.md).
"""

MISTAKES = {
    "split_heads": {
        "heads_reshape_without_transpose:heads_first": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, n_heads, tokens, d_model // n_heads)
''',
        "heads_reshape_without_transpose:no_swap": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, tokens, n_heads, d_model // n_heads)
''',
        "heads_interleaved:d_head_then_heads": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    y = x.reshape(*lead, tokens, d_model // n_heads, n_heads)
    return np.moveaxis(y, -1, -3)
''',
        "changes_inputs_in_place:shape_assignment": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x.shape = (*lead, tokens, n_heads, d_model // n_heads)
    return np.swapaxes(x, -3, -2)
''',
        "uncatalogued:swapped_last_two": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x = x.reshape(*lead, tokens, n_heads, d_model // n_heads)
    return np.swapaxes(x, -2, -1)
''',
        "uncatalogued:hardcoded_2d_transpose": '''
def split_heads(x, n_heads):
    tokens, d_model = x.shape[-2:]
    return x.reshape(tokens, n_heads, d_model // n_heads).transpose(1, 0, 2)
''',
        "uncatalogued:split_tokens_axis": '''
def split_heads(x, n_heads):
    return np.stack(np.split(x, n_heads, axis=-2), axis=-3)
''',
        "uncatalogued:heads_before_batch": '''
def split_heads(x, n_heads):
    return np.stack(np.split(x, n_heads, axis=-1))
''',
    },
    "combine_heads": {
        "heads_reshape_without_transpose:plain_reshape": '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return x.reshape(*lead, tokens, heads * d_head)
''',
        "heads_concatenated_on_wrong_axis:tokens": '''
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-2)
''',
        "heads_interleaved:features_first": '''
def combine_heads(x):
    y = np.swapaxes(x, -3, -2)
    y = np.swapaxes(y, -2, -1)
    return y.reshape(*y.shape[:-2], -1)
''',
        "uncatalogued:hstack_over_first_axis": '''
def combine_heads(x):
    return np.hstack(list(x))
''',
        "heads_averaged:heads_summed": '''
def combine_heads(x):
    return x.sum(axis=-3)
''',
        "heads_wrong_axes_swapped:swapped_last_two": '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return np.swapaxes(x, -1, -2).reshape(*lead, tokens, heads * d_head)
''',
        "uncatalogued:hardcoded_3d": '''
def combine_heads(x):
    heads, tokens, d_head = x.shape[-3:]
    return x.transpose(1, 0, 2).reshape(tokens, heads * d_head)
''',
    },
    "head_weights": {
        "scale_by_sqrt_d_model:full_width": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(w_query.shape[1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "scale_by_d_k:d_head": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / k.shape[-1]
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "heads_reshape_without_transpose:own_split": '''
def head_weights(inputs, w_query, w_key, n_heads):
    def to_heads(t):
        *lead, n, d = t.shape
        return t.reshape(*lead, n_heads, n, d // n_heads)
    q, k = to_heads(inputs @ w_query), to_heads(inputs @ w_key)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = np.exp(s - s.max(axis=-1, keepdims=True))
    return s / s.sum(axis=-1, keepdims=True)
''',
        "softmax_no_max_subtraction:exp": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    e = np.exp(q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1]))
    return e / e.sum(axis=-1, keepdims=True)
''',
        "keys_transpose_all_axes:dot_T": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ k.T / np.sqrt(k.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "softmax_wrong_axis:minus_two": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    e = np.exp(scores - scores.max(axis=-2, keepdims=True))
    return e / e.sum(axis=-2, keepdims=True)
''',
        "loop_leftover:last_head_empty": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    d_head = k.shape[-1]
    out = np.zeros(q.shape[:-1] + (k.shape[-2],))
    for h in range(n_heads - 1):
        s = q[..., h, :, :] @ np.swapaxes(k[..., h, :, :], -1, -2) / np.sqrt(d_head)
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        out[..., h, :, :] = e / e.sum(axis=-1, keepdims=True)
    return out
''',
        "uncatalogued:scale_by_sqrt_n_heads": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(n_heads)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "uncatalogued:global_max": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    e = np.exp(scores - scores.max())
    return e / e.sum(axis=-1, keepdims=True)
''',
    },
    "multi_head_attention": {
        "missing_output_projection:stops_at_concat": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ values)
''',
        "heads_reshape_without_transpose:merge": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    context = weights @ values
    *lead, heads, tokens, d_head = context.shape
    return context.reshape(*lead, tokens, heads * d_head) @ w_out
''',
        "mixed_up_projections:values_from_w_key": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_key, n_heads)
    return combine_heads(weights @ values) @ w_out
''',
        "weights_transposed:swapaxes": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(np.swapaxes(weights, -1, -2) @ values) @ w_out
''',
        "weights_times_keys:keys_summed": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    return combine_heads(weights @ keys) @ w_out
''',
        "scale_by_sqrt_d_model:inline": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(inputs.shape[-1])
    s = np.exp(s - s.max(axis=-1, keepdims=True))
    a = s / s.sum(axis=-1, keepdims=True)
    return combine_heads(a @ v) @ w_out
''',
        "uncatalogued:w_out_transposed": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ values) @ w_out.T
''',
        "uncatalogued:d_head_from_inputs": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    d_head = inputs.shape[-1] // n_heads
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v = inputs @ w_value
    v = np.swapaxes(v.reshape(*v.shape[:-1], n_heads, d_head), -3, -2)
    return combine_heads(weights @ v) @ w_out
''',
        "uncatalogued:residual_added": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return inputs + combine_heads(weights @ values) @ w_out
''',
    },
    "torch_attn_mask": {
        "torch_mask_not_inverted:repeat_only": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(np.asarray(mask, dtype=bool), n_heads, axis=0)
''',
        "torch_mask_heads_tiled:tile": '''
def torch_attn_mask(mask, n_heads):
    return np.tile(~mask, (n_heads, 1, 1))
''',
        "torch_mask_heads_not_merged:own_axis": '''
def torch_attn_mask(mask, n_heads):
    blocked = ~mask
    return np.repeat(blocked[:, None, :, :], n_heads, axis=1)
''',
        "changes_inputs_in_place:logical_not_out": '''
def torch_attn_mask(mask, n_heads):
    np.logical_not(mask, out=mask)
    return np.repeat(mask, n_heads, axis=0)
''',
        "torch_mask_heads_tiled:concatenate_copies": '''
def torch_attn_mask(mask, n_heads):
    return np.concatenate([~mask for _ in range(n_heads)], axis=0)
''',
        "uncatalogued:int_not_bool": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(1 - mask.astype(int), n_heads, axis=0)
''',
        "uncatalogued:float_additive": '''
def torch_attn_mask(mask, n_heads):
    additive = np.where(mask, 0.0, -np.inf)
    return np.repeat(additive, n_heads, axis=0)
''',
        "mask_transposed:queries_keys_swapped": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(np.swapaxes(~mask, -1, -2), n_heads, axis=0)
''',
    },
}

VARIANTS = {
    "split_heads": {
        "moveaxis": '''
def split_heads(x, n_heads):
    new_shape = x.shape[:-1] + (n_heads, x.shape[-1] // n_heads)
    return np.moveaxis(x.reshape(new_shape), -2, -3)
''',
        "split_and_stack": '''
def split_heads(x, n_heads):
    return np.stack(np.split(x, n_heads, axis=-1), axis=-3)
''',
    },
    "combine_heads": {
        "moveaxis": '''
def combine_heads(x):
    y = np.moveaxis(x, -3, -2)
    return y.reshape(y.shape[:-2] + (y.shape[-2] * y.shape[-1],))
''',
        "concatenate_heads": '''
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-1)
''',
    },
    "head_weights": {
        "scipy_softmax_einsum": '''
from scipy.special import softmax as _softmax

def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = np.einsum("...hqd,...hkd->...hqk", q, k) / np.sqrt(k.shape[-1])
    return _softmax(scores, axis=-1)
''',
        "own_split_with_transpose": '''
def head_weights(inputs, w_query, w_key, n_heads):
    def heads(t):
        t = t.reshape(*t.shape[:-1], n_heads, t.shape[-1] // n_heads)
        return np.swapaxes(t, -3, -2)
    q, k = heads(inputs @ w_query), heads(inputs @ w_key)
    d_head = q.shape[-1]
    s = np.matmul(q, np.swapaxes(k, -2, -1)) / np.sqrt(d_head)
    s = s - np.max(s, axis=-1, keepdims=True)
    w = np.exp(s)
    return w / np.sum(w, axis=-1, keepdims=True)
''',
    },
    "multi_head_attention": {
        "loop_over_heads": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    heads = [weights[..., h, :, :] @ values[..., h, :, :] for h in range(n_heads)]
    return np.concatenate(heads, axis=-1) @ w_out
''',
        "einsum": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    a = head_weights(inputs, w_query, w_key, n_heads)
    v = split_heads(np.matmul(inputs, w_value), n_heads)
    context = np.einsum("...hqk,...hkd->...hqd", a, v)
    return np.matmul(combine_heads(context), w_out)
''',
    },
    "torch_attn_mask": {
        "logical_not_repeat": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(np.logical_not(mask), repeats=n_heads, axis=0)
''',
        "broadcast_reshape": '''
def torch_attn_mask(mask, n_heads):
    b, q, k = mask.shape
    blocked = np.broadcast_to(~mask[:, None], (b, n_heads, q, k))
    return blocked.reshape(b * n_heads, q, k)
''',
        "per_sequence_stack": '''
def torch_attn_mask(mask, n_heads):
    pieces = []
    for seq in mask:
        pieces.extend([seq == False] * n_heads)  # noqa: E712
    return np.stack(pieces)
''',
    },
}
