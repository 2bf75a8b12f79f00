'''Second fresh set, notebook 06: learner submissions written without the key.

Written on 2026-11-23 by a helper session that read only the exercise texts, signatures and solution
cells of solutions/06_multi_head_attention.ipynb and the ids and titles of the mistake catalogue
(src/attention_course/mistakes.py); not autograder/key/, verdict.py, expected/, accuracy.py, nor any
other case file. Each case was checked only against the notebook's own solution (selfcheck.py), never
against the grader. Rule: this file is never edited after its first measurement.
'''

MISTAKES = {
    "split_heads": {
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
        "uncatalogued:assumes_2d": '''
def split_heads(x, n_heads):
    tokens = x.shape[0]
    return x.reshape(tokens, n_heads, -1).transpose(1, 0, 2)
''',
        "uncatalogued:swapped_last_two": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x = x.reshape(*lead, tokens, n_heads, d_model // n_heads)
    return np.swapaxes(x, -1, -2)
''',
        "changes_inputs_in_place:shape_assignment": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x.shape = (*lead, tokens, n_heads, d_model // n_heads)
    return np.swapaxes(x, -3, -2)
''',
        "uncatalogued:full_transpose": '''
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, tokens, n_heads, d_model // n_heads).T
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
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-2)
''',
        "heads_interleaved": '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    x = np.moveaxis(x, -3, -1)
    return x.reshape(*lead, tokens, heads * d_head)
''',
        "uncatalogued:assumes_3d": '''
def combine_heads(x):
    heads, tokens, d_head = x.shape[-3:]
    return x.transpose(1, 0, 2).reshape(tokens, heads * d_head)
''',
        "uncatalogued:wrong_axes_swapped": '''
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return np.swapaxes(x, -1, -3).reshape(*lead, tokens, heads * d_head)
''',
        "uncatalogued:batch_axes_merged": '''
def combine_heads(x):
    tokens = x.shape[-2]
    return np.swapaxes(x, -3, -2).reshape(tokens, -1)
''',
    },
    "head_weights": {
        "scale_by_sqrt_d_model": '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(inputs.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    exps = np.exp(scores)
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
    q = inputs @ w_query
    k = inputs @ w_key
    d_head = q.shape[-1] // n_heads
    q = q.reshape(*lead, n_heads, tokens, d_head)
    k = k.reshape(*lead, n_heads, tokens, d_head)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
''',
        "softmax_wrong_axis:axis_minus_two": '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=-2, keepdims=True))
    return exps / exps.sum(axis=-2, keepdims=True)
''',
        "uncatalogued:d_head_from_inputs": '''
def head_weights(inputs, w_query, w_key, n_heads):
    d_head = inputs.shape[-1] // n_heads
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(d_head)
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
        "softmax_over_all_entries:per_head": '''
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=(-2, -1), keepdims=True))
    return exps / exps.sum(axis=(-2, -1), keepdims=True)
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
    values = split_heads(inputs @ w_value, n_heads)
    context = weights @ values
    *lead, heads, tokens, d_head = context.shape
    return context.reshape(*lead, tokens, heads * d_head) @ w_out
''',
        "uncatalogued:values_not_split": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    context = weights @ (inputs @ w_value)
    return combine_heads(context) @ w_out
''',
        "mixed_up_projections:values_with_w_query": '''
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
        "uncatalogued:w_out_transposed": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ values) @ w_out.T
''',
        "lower_precision:float32": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    inputs = inputs.astype(np.float32)
    w_query, w_key, w_value, w_out = (w.astype(np.float32) for w in (w_query, w_key, w_value, w_out))
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ values) @ w_out
''',
        "scale_by_sqrt_d_model": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(inputs.shape[-1])
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    return combine_heads(w @ v) @ w_out
''',
    },
    "torch_attn_mask": {
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
    blocked = ~mask
    return np.repeat(blocked[:, None, :, :], n_heads, axis=1)
''',
        "changes_inputs_in_place": '''
def torch_attn_mask(mask, n_heads):
    np.logical_not(mask, out=mask)
    return np.repeat(mask, n_heads, axis=0)
''',
        "uncatalogued:repeated_on_query_axis": '''
def torch_attn_mask(mask, n_heads):
    return np.repeat(~mask, n_heads, axis=1)
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
    },
}

VARIANTS = {
    "split_heads": {
        "moveaxis": '''
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    return np.moveaxis(x.reshape(x.shape[:-1] + (n_heads, d_head)), -2, -3)
''',
        "split_and_stack": '''
def split_heads(x, n_heads):
    return np.stack(np.split(x, n_heads, axis=-1), axis=-3)
''',
        "transpose_axes": '''
def split_heads(x, n_heads):
    nd = x.ndim
    y = x.reshape(*x.shape[:-1], n_heads, -1)
    axes = list(range(nd - 2)) + [nd - 1, nd - 2, nd]
    return y.transpose(axes)
''',
    },
    "combine_heads": {
        "concatenate_heads": '''
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-1)
''',
        "moveaxis_reshape": '''
def combine_heads(x):
    y = np.moveaxis(x, -3, -2)
    return y.reshape(y.shape[:-2] + (-1,))
''',
    },
    "head_weights": {
        "einsum_scipy": '''
from scipy.special import softmax


def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    scores = np.einsum("...hid,...hjd->...hij", q, k) / np.sqrt(q.shape[-1])
    return softmax(scores, axis=-1)
''',
        "loop_over_heads": '''
def head_weights(inputs, w_query, w_key, n_heads):
    q_all, k_all = inputs @ w_query, inputs @ w_key
    d_head = q_all.shape[-1] // n_heads
    out = []
    for h in range(n_heads):
        q = q_all[..., h * d_head:(h + 1) * d_head]
        k = k_all[..., h * d_head:(h + 1) * d_head]
        s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
        e = np.exp(s - np.max(s, axis=-1, keepdims=True))
        out.append(e / np.sum(e, axis=-1, keepdims=True))
    return np.stack(out, axis=-3)
''',
    },
    "multi_head_attention": {
        "loop_and_concatenate": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    v_all = inputs @ w_value
    d_head = v_all.shape[-1] // n_heads
    heads = [weights[..., h, :, :] @ v_all[..., h * d_head:(h + 1) * d_head] for h in range(n_heads)]
    return np.concatenate(heads, axis=-1) @ w_out
''',
        "einsum_everything": '''
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q, k, v = (split_heads(inputs @ w, n_heads) for w in (w_query, w_key, w_value))
    s = np.einsum("...hqd,...hkd->...hqk", q, k) / np.sqrt(k.shape[-1])
    s -= s.max(axis=-1, keepdims=True)
    a = np.exp(s)
    a /= a.sum(axis=-1, keepdims=True)
    context = np.einsum("...hqk,...hkd->...hqd", a, v)
    return np.matmul(combine_heads(context), w_out)
''',
    },
    "torch_attn_mask": {
        "broadcast_reshape": '''
def torch_attn_mask(mask, n_heads):
    mask = np.asarray(mask)
    batch, n_q, n_k = mask.shape
    blocked = np.logical_not(mask)
    return np.broadcast_to(blocked[:, None], (batch, n_heads, n_q, n_k)).reshape(batch * n_heads, n_q, n_k)
''',
        "torch_repeat_interleave": '''
def torch_attn_mask(mask, n_heads):
    t = torch.from_numpy(np.array(mask, dtype=bool))
    return (~t).repeat_interleave(n_heads, dim=0).numpy()
''',
    },
}
