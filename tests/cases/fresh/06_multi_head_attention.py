"""Fresh learner answers for notebook 06 (see README.md: written without the key, never tuned on)."""

MISTAKES = {
    "split_heads": {
        "heads_reshape_without_transpose:no_swap": """
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, tokens, n_heads, d_model // n_heads)
""",
        "heads_interleaved:strided_slices": """
def split_heads(x, n_heads):
    return np.stack([x[..., h::n_heads] for h in range(n_heads)], axis=-3)
""",
        "changes_inputs_in_place:shape_assignment": """
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x.shape = (*lead, tokens, n_heads, d_model // n_heads)
    return np.swapaxes(x, -3, -2)
""",
        "uncatalogued:swapaxes_zero_one": """
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, tokens, n_heads, d_model // n_heads).swapaxes(0, 1)
""",
        "uncatalogued:heads_axis_first": """
def split_heads(x, n_heads):
    return np.stack(np.split(x, n_heads, axis=-1), axis=0)
""",
        "uncatalogued:split_along_tokens": """
def split_heads(x, n_heads):
    return np.stack(np.split(x, n_heads, axis=-2), axis=-3)
""",
    },
    "combine_heads": {
        "heads_concatenated_on_wrong_axis:tokens": """
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-2)
""",
        "heads_interleaved:moveaxis_last": """
def combine_heads(x):
    return np.moveaxis(x, -3, -1).reshape(*x.shape[:-3], x.shape[-2], -1)
""",
        "heads_reshape_without_transpose:explicit_shape": """
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return x.reshape(*lead, tokens, heads * d_head)
""",
        "uncatalogued:concatenate_first_axis": """
def combine_heads(x):
    return np.concatenate(x, axis=-1)
""",
        "uncatalogued:drops_batch_axes": """
def combine_heads(x):
    return np.swapaxes(x, -3, -2).reshape(x.shape[-2], -1)
""",
        "uncatalogued:transpose_fixed_axes": """
def combine_heads(x):
    heads, tokens, d_head = x.shape[-3:]
    return x.transpose(1, 0, 2).reshape(tokens, heads * d_head)
""",
        "uncatalogued:swap_heads_with_features": """
def combine_heads(x):
    return np.swapaxes(x, -1, -3).reshape(*x.shape[:-3], x.shape[-2], -1)
""",
    },
    "head_weights": {
        "no_scaling": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
        "scale_by_sqrt_d_model:projected_width": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(w_query.shape[1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
        "scale_by_d_k:d_head": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / k.shape[-1]
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
        "scale_applied_twice:queries_and_scores": """
def head_weights(inputs, w_query, w_key, n_heads):
    d_head = w_query.shape[-1] // n_heads
    q = split_heads(inputs @ w_query, n_heads) / np.sqrt(d_head)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
        "softmax_no_max_subtraction": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    e = np.exp(q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1]))
    return e / e.sum(axis=-1, keepdims=True)
""",
        "softmax_over_all_entries:per_head": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=(-2, -1), keepdims=True))
    return e / e.sum(axis=(-2, -1), keepdims=True)
""",
        "keys_times_queries": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = k @ np.swapaxes(q, -1, -2) / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
        "mixed_up_projections:both_from_w_query": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_query, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
        "uncatalogued:scale_by_sqrt_n_heads": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(n_heads)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
        "uncatalogued:transpose_fixed_axes": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    },
    "multi_head_attention": {
        "mixed_up_projections:values_with_w_key": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_key, n_heads)
    return combine_heads(weights @ values) @ w_out
""",
        "scale_by_sqrt_d_model:own_scores": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(inputs.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return combine_heads(e / e.sum(axis=-1, keepdims=True) @ v) @ w_out
""",
        "softmax_wrong_axis:heads_axis": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-3, keepdims=True))
    return combine_heads(e / e.sum(axis=-3, keepdims=True) @ v) @ w_out
""",
        "uncatalogued:w_out_transposed": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    context = weights @ split_heads(inputs @ w_value, n_heads)
    return combine_heads(context) @ w_out.T
""",
        "uncatalogued:w_out_applied_to_values": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value @ w_out, n_heads)
    return combine_heads(weights @ values)
""",
        "uncatalogued:values_not_projected": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    return combine_heads(weights @ split_heads(inputs, n_heads)) @ w_out
""",
        "uncatalogued:concatenate_first_axis": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    context = weights @ split_heads(inputs @ w_value, n_heads)
    return np.concatenate(context, axis=-1) @ w_out
""",
        "uncatalogued:d_head_from_d_model": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    d_head = inputs.shape[-1] // n_heads
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    v = split_heads(inputs @ w_value, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return combine_heads(e / e.sum(axis=-1, keepdims=True) @ v) @ w_out
""",
        "lower_precision:float32": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    inputs = inputs.astype(np.float32)
    weights = head_weights(inputs, w_query.astype(np.float32), w_key.astype(np.float32), n_heads)
    context = weights @ split_heads(inputs @ w_value.astype(np.float32), n_heads)
    return combine_heads(context) @ w_out.astype(np.float32)
""",
    },
}

VARIANTS = {
    "split_heads": {
        "moveaxis": """
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    return np.moveaxis(x.reshape(*x.shape[:-1], n_heads, d_head), -2, -3)
""",
        "slices_stacked": """
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    return np.stack([x[..., h * d_head:(h + 1) * d_head] for h in range(n_heads)], axis=-3)
""",
        "split_moved": """
def split_heads(x, n_heads):
    return np.moveaxis(np.array(np.split(x, n_heads, axis=-1)), 0, -3)
""",
    },
    "combine_heads": {
        "concatenate_heads": """
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-1)
""",
        "moveaxis": """
def combine_heads(x):
    y = np.moveaxis(x, -3, -2)
    return y.reshape(*y.shape[:-2], -1)
""",
        "method_chain": """
def combine_heads(x):
    return x.swapaxes(-3, -2).reshape(*x.shape[:-3], x.shape[-2], x.shape[-3] * x.shape[-1])
""",
    },
    "head_weights": {
        "einsum": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = np.einsum("...hqd,...hkd->...hqk", q, k) / np.sqrt(q.shape[-1])
    s = s - np.max(s, axis=-1, keepdims=True)
    return np.exp(s) / np.sum(np.exp(s), axis=-1, keepdims=True)
""",
        "loop_over_heads_scipy": """
def head_weights(inputs, w_query, w_key, n_heads):
    from scipy.special import softmax
    d_head = w_query.shape[-1] // n_heads
    heads = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        q, k = inputs @ w_query[:, cols], inputs @ w_key[:, cols]
        heads.append(softmax(q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head), axis=-1))
    return np.stack(heads, axis=-3)
""",
        "scale_queries": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = (q / np.sqrt(q.shape[-1])) @ k.swapaxes(-1, -2)
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)
""",
    },
    "multi_head_attention": {
        "all_inline": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q, k, v = (split_heads(inputs @ w, n_heads) for w in (w_query, w_key, w_value))
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return combine_heads(e / e.sum(axis=-1, keepdims=True) @ v) @ w_out
""",
        "loop_over_heads_concatenate": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    d_head = w_value.shape[-1] // n_heads
    heads = [weights[..., h, :, :] @ (inputs @ w_value[:, h * d_head:(h + 1) * d_head]) for h in range(n_heads)]
    return np.concatenate(heads, axis=-1) @ w_out
""",
        "einsum_everything": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(np.einsum("...td,dk->...tk", inputs, w_value), n_heads)
    context = np.einsum("...hqk,...hkd->...hqd", weights, values)
    return np.einsum("...tk,ko->...to", combine_heads(context), w_out)
""",
    },
}
