"""Held-out learner answers for notebook 06 (see README.md: never used to tune the diagnosis)."""

MISTAKES = {
    "split_heads": {
        "heads_reshape_without_transpose:direct": """
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, n_heads, tokens, d_model // n_heads)
""",
        "heads_interleaved:minus_one": """
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x = x.reshape(*lead, tokens, -1, n_heads)
    return np.moveaxis(x, -1, -3)
""",
    },
    "combine_heads": {
        "heads_concatenated_on_wrong_axis:concatenate": """
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-2)
""",
        "heads_reshape_without_transpose:minus_one": """
def combine_heads(x):
    return x.reshape(*x.shape[:-3], x.shape[-2], -1)
""",
    },
    "head_weights": {
        "scale_by_sqrt_d_model:inputs": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(inputs.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
        "keys_transpose_all_axes": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
        "softmax_wrong_axis:axis_minus_two": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-2, keepdims=True))
    return e / e.sum(axis=-2, keepdims=True)
""",
    },
    "multi_head_attention": {
        "missing_output_projection:helpers": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    return combine_heads(weights @ split_heads(inputs @ w_value, n_heads))
""",
        "weights_transposed": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    context = np.swapaxes(weights, -1, -2) @ split_heads(inputs @ w_value, n_heads)
    return combine_heads(context) @ w_out
""",
        "heads_reshape_without_transpose:combine_inline": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    context = weights @ split_heads(inputs @ w_value, n_heads)
    return context.reshape(*context.shape[:-3], context.shape[-2], -1) @ w_out
""",
    },
}

VARIANTS = {
    "split_heads": {
        "stack_split": """
def split_heads(x, n_heads):
    return np.stack(np.split(x, n_heads, axis=-1), axis=-3)
""",
    },
    "combine_heads": {
        "concatenate_heads": """
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-1)
""",
    },
    "head_weights": {
        "einsum_global_max": """
def head_weights(inputs, w_query, w_key, n_heads):
    q = split_heads(inputs @ w_query, n_heads)
    k = split_heads(inputs @ w_key, n_heads)
    s = np.einsum('...hqd,...hkd->...hqk', q, k) / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    },
    "multi_head_attention": {
        "slices_per_head": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    q, k, v = inputs @ w_query, inputs @ w_key, inputs @ w_value
    d_head = q.shape[-1] // n_heads
    heads = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        s = q[..., cols] @ np.swapaxes(k[..., cols], -1, -2) / np.sqrt(d_head)
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        heads.append((e / e.sum(axis=-1, keepdims=True)) @ v[..., cols])
    return np.concatenate(heads, axis=-1) @ w_out
""",
    },
}
