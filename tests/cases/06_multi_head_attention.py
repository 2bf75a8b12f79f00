"""Learner-style answers for notebook 06: one catalogued mistake each, or a correct variant.

Keys: the exercise's solution cell (grade_id), then the mistake id (from
attention_course.mistakes) or a variant's name. Values: what a learner types into that cell.
Run by ``python3 tasks.py accuracy`` and tests/test_accuracy.py.

Mistakes left out on purpose: combine_heads cannot change its input in place in a natural way
(``x.shape = ...`` on the transposed view raises); in multi_head_attention, concatenating the heads
along the tokens axis either fails at ``@ w_out`` (a shape error) or, reshaped to fit, is exactly
``heads_reshape_without_transpose`` on the combining side, the case kept below.
"""

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
    x = x.reshape(*lead, tokens, d_model // n_heads, n_heads)  # (..., tokens, d_head, heads)
    return np.moveaxis(x, -1, -3)  # (..., heads, tokens, d_head)
""",
        "changes_inputs_in_place": """
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    x.shape = (*lead, tokens, n_heads, d_model // n_heads)  # reshape without a copy
    return np.swapaxes(x, -3, -2)
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
    x = np.moveaxis(x, -3, -1)  # (..., tokens, d_head, heads)
    *lead, tokens, d_head, heads = x.shape
    return x.reshape(*lead, tokens, d_head * heads)
""",
    },
    "head_weights": {
        "lower_precision:float32_logsumexp": """
from scipy.special import logsumexp

def head_weights(inputs, w_query, w_key, n_heads):
    inputs, w_query, w_key = (np.asarray(a, dtype=np.float32) for a in (inputs, w_query, w_key))
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.matrix_transpose(keys) / np.float32(np.sqrt(keys.shape[-1]))
    return np.exp(scores - logsumexp(scores, axis=-1, keepdims=True))
""",
        "heads_reshape_without_transpose": """
def head_weights(inputs, w_query, w_key, n_heads):
    queries, keys = inputs @ w_query, inputs @ w_key
    *lead, tokens, width = queries.shape
    queries = queries.reshape(*lead, n_heads, tokens, width // n_heads)
    keys = keys.reshape(*lead, n_heads, tokens, width // n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(width // n_heads)
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "heads_interleaved": """
def head_weights(inputs, w_query, w_key, n_heads):
    queries, keys = inputs @ w_query, inputs @ w_key
    *lead, tokens, width = queries.shape
    d_head = width // n_heads
    queries = np.moveaxis(queries.reshape(*lead, tokens, d_head, n_heads), -1, -3)
    keys = np.moveaxis(keys.reshape(*lead, tokens, d_head, n_heads), -1, -3)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(d_head)
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "no_scaling": """
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2)
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "scale_by_sqrt_d_model": """
def head_weights(inputs, w_query, w_key, n_heads):
    d_model = inputs.shape[-1]
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(d_model)
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "softmax_wrong_axis": """
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=-2, keepdims=True))
    return exps / exps.sum(axis=-2, keepdims=True)
""",
        "softmax_no_max_subtraction": """
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores)
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "softmax_over_all_entries": """
from scipy.special import softmax as scipy_softmax

def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    return scipy_softmax(queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1]))
""",
        "keys_times_queries": """
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = keys @ np.swapaxes(queries, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "returns_scores": """
def head_weights(inputs, w_query, w_key, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    return queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
""",
        "changes_inputs_in_place": """
def head_weights(inputs, w_query, w_key, n_heads):
    w_query /= np.sqrt(w_query.shape[-1] // n_heads)  # fold the scale into W_Q
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2)
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
    },
    "multi_head_attention": {
        "lower_precision:float32_throughout": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    inputs, w_query, w_key, w_value, w_out = (
        np.asarray(a, dtype=np.float32) for a in (inputs, w_query, w_key, w_value, w_out))
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ values) @ w_out
""",
        "heads_reshape_without_transpose": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)  # (..., heads, tokens, tokens)
    values = split_heads(inputs @ w_value, n_heads)  # (..., heads, tokens, d_head)
    context = weights @ values
    return context.reshape(*inputs.shape[:-1], -1) @ w_out  # forgot to move the heads back
""",
        "heads_interleaved": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    def split(x):
        *lead, tokens, width = x.shape
        return np.moveaxis(x.reshape(*lead, tokens, width // n_heads, n_heads), -1, -3)

    queries, keys, values = split(inputs @ w_query), split(inputs @ w_key), split(inputs @ w_value)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    context = np.moveaxis(exps / exps.sum(axis=-1, keepdims=True) @ values, -3, -1)
    return context.reshape(*context.shape[:-2], -1) @ w_out
""",
        "missing_output_projection": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    return combine_heads(weights @ values)
""",
        "no_scaling": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2)
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return combine_heads(exps / exps.sum(axis=-1, keepdims=True) @ values) @ w_out
""",
        "scale_by_sqrt_d_model": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(inputs.shape[-1])
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return combine_heads(exps / exps.sum(axis=-1, keepdims=True) @ values) @ w_out
""",
        "softmax_wrong_axis": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=-2, keepdims=True))
    return combine_heads(exps / exps.sum(axis=-2, keepdims=True) @ values) @ w_out
""",
        "softmax_no_max_subtraction": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    exps = np.exp(queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1]))
    return combine_heads(exps / exps.sum(axis=-1, keepdims=True) @ values) @ w_out
""",
        "softmax_over_all_entries": """
from scipy.special import softmax as scipy_softmax

def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    weights = scipy_softmax(queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1]))
    return combine_heads(weights @ values) @ w_out
""",
        "keys_times_queries": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    scores = keys @ np.swapaxes(queries, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return combine_heads(exps / exps.sum(axis=-1, keepdims=True) @ values) @ w_out
""",
        "weights_times_scores": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return combine_heads(exps / exps.sum(axis=-1, keepdims=True) @ scores) @ w_out
""",
        "returns_weights": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    context = combine_heads(weights @ values) @ w_out
    return weights
""",
        "changes_inputs_in_place": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    w_query /= np.sqrt(w_query.shape[-1] // n_heads)  # scale once, in W_Q
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2)
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return combine_heads(exps / exps.sum(axis=-1, keepdims=True) @ values) @ w_out
""",
    },
    "torch_attn_mask": {
        "mask_transposed": """
def torch_attn_mask(mask, n_heads):
    return np.repeat(~np.swapaxes(mask, -1, -2), n_heads, axis=0)
""",
        "torch_mask_not_inverted": """
def torch_attn_mask(mask, n_heads):
    return np.repeat(np.asarray(mask, dtype=bool), n_heads, axis=0)
""",
        "torch_mask_heads_tiled": """
def torch_attn_mask(mask, n_heads):
    return np.concatenate([~mask for _ in range(n_heads)])
""",
        "torch_mask_heads_not_merged": """
def torch_attn_mask(mask, n_heads):
    return np.stack([~mask] * n_heads, axis=1)  # (batch, heads, queries, keys)
""",
        "changes_inputs_in_place": """
def torch_attn_mask(mask, n_heads):
    mask ^= True  # flip to PyTorch's convention
    return np.repeat(mask, n_heads, axis=0)
""",
    },
}

VARIANTS = {
    "split_heads": {
        "stack_of_np_split": """
def split_heads(x, n_heads):
    return np.stack(np.split(x, n_heads, axis=-1), axis=-3)
""",
        "loop_over_heads": """
def split_heads(x, n_heads):
    d_head = x.shape[-1] // n_heads
    return np.stack([x[..., h * d_head:(h + 1) * d_head] for h in range(n_heads)], axis=-3)
""",
        "moveaxis_and_minus_one": """
def split_heads(x, n_heads):
    x = x.reshape(*x.shape[:-1], n_heads, -1)  # (..., tokens, heads, d_head)
    return np.moveaxis(x, -2, -3)
""",
        "transpose_with_axes": """
def split_heads(x, n_heads):
    *lead, tokens, d_model = x.shape
    n = len(lead)
    x = x.reshape(*lead, tokens, n_heads, d_model // n_heads)
    return x.transpose(*range(n), n + 1, n, n + 2)
""",
    },
    "combine_heads": {
        "concatenate_loop": """
def combine_heads(x):
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-1)
""",
        "reverse_order_then_flip_back": """
def combine_heads(x):
    heads = [x[..., h, :, :] for h in reversed(range(x.shape[-3]))]
    return np.concatenate(heads[::-1], axis=-1)
""",
        "moveaxis_then_reshape": """
def combine_heads(x):
    x = np.moveaxis(x, -3, -2)  # (..., tokens, heads, d_head)
    return x.reshape(*x.shape[:-2], -1)
""",
        "einsum_copy": """
def combine_heads(x):
    *lead, heads, tokens, d_head = x.shape
    return np.einsum("...htd->...thd", x).reshape(*lead, tokens, heads * d_head)
""",
    },
    "head_weights": {
        "einsum_scipy_softmax": """
from scipy.special import softmax as scipy_softmax

def head_weights(inputs, w_query, w_key, n_heads):
    queries = np.stack(np.split(inputs @ w_query, n_heads, axis=-1), axis=-3)
    keys = np.stack(np.split(inputs @ w_key, n_heads, axis=-1), axis=-3)
    scores = np.einsum("...qd,...kd->...qk", queries, keys) / np.sqrt(queries.shape[-1])
    return scipy_softmax(scores, axis=-1)
""",
        "loop_over_heads": """
def head_weights(inputs, w_query, w_key, n_heads):
    queries, keys = inputs @ w_query, inputs @ w_key
    d_head = queries.shape[-1] // n_heads
    heads = []
    for h in range(n_heads):
        q = queries[..., h * d_head:(h + 1) * d_head]
        k = keys[..., h * d_head:(h + 1) * d_head]
        s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        heads.append(e / e.sum(axis=-1, keepdims=True))
    return np.stack(heads, axis=-3)
""",
        "float64_scale_folded_in_queries": """
def head_weights(inputs, w_query, w_key, n_heads):
    inputs = np.asarray(inputs, dtype=np.float64)
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    queries = queries / np.sqrt(queries.shape[-1])
    scores = queries @ np.swapaxes(keys, -1, -2)
    scores -= scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights
""",
    },
    "multi_head_attention": {
        "reversed_loop_scipy": """
from scipy.special import softmax

def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    # heads computed one at a time, last head first, then put back in order
    q, k, v = inputs @ w_query, inputs @ w_key, inputs @ w_value
    d_head = q.shape[-1] // n_heads
    outputs = {}
    for h in reversed(range(n_heads)):
        block = slice(h * d_head, (h + 1) * d_head)
        s = q[..., block] @ np.swapaxes(k[..., block], -1, -2) / np.sqrt(d_head)
        outputs[h] = softmax(s, axis=-1) @ v[..., block]
    return np.concatenate([outputs[h] for h in range(n_heads)], axis=-1) @ w_out
""",
        "einsum_inline": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    *lead, tokens, _ = inputs.shape
    def split(w):
        x = inputs @ w
        return x.reshape(*lead, tokens, n_heads, -1)  # (..., tokens, heads, d_head)
    q, k, v = split(w_query), split(w_key), split(w_value)
    scores = np.einsum("...qhd,...khd->...hqk", q, k) / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores) / np.exp(scores).sum(axis=-1, keepdims=True)
    context = np.einsum("...hqk,...khd->...qhd", weights, v)  # (..., tokens, heads, d_head)
    return context.reshape(*lead, tokens, -1) @ w_out
""",
        "split_and_concatenate_helpers": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = head_weights(inputs, w_query, w_key, n_heads)  # (..., heads, tokens, tokens)
    values = np.split(inputs @ w_value, n_heads, axis=-1)  # n_heads x (..., tokens, d_head)
    heads = [weights[..., h, :, :] @ values[h] for h in range(n_heads)]
    return np.concatenate(heads, axis=-1) @ w_out
""",
        "transpose_then_reshape_w_out_blocks": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    queries = split_heads(inputs @ w_query, n_heads)
    keys = split_heads(inputs @ w_key, n_heads)
    values = split_heads(inputs @ w_value, n_heads)
    d_head = values.shape[-1]
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(d_head)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = weights / weights.sum(axis=-1, keepdims=True)
    context = weights @ values  # (..., heads, tokens, d_head)
    # W_O's rows in blocks, one per head: the sum over heads is the concatenation times W_O
    w_out_heads = w_out.reshape(n_heads, d_head, -1)  # (heads, d_head, d_out)
    return (context @ w_out_heads).sum(axis=-3)
""",
        "float64_transpose_first": """
def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
    inputs = np.asarray(inputs, dtype=np.float64)
    def split(x):  # swap a copy first, then reshape: (..., heads, tokens, d_head)
        *lead, tokens, width = x.shape
        x = np.swapaxes(x, -1, -2).reshape(*lead, n_heads, width // n_heads, tokens)
        return np.swapaxes(x, -1, -2)
    queries, keys, values = split(inputs @ w_query), split(inputs @ w_key), split(inputs @ w_value)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    context = exps / exps.sum(axis=-1, keepdims=True) @ values
    return combine_heads(context) @ w_out
""",
    },
    "torch_attn_mask": {
        "repeat_logical_not": """
def torch_attn_mask(mask, n_heads):
    return np.repeat(np.logical_not(mask), n_heads, axis=0)
""",
        "broadcast_and_reshape": """
def torch_attn_mask(mask, n_heads):
    batch, n_queries, n_keys = mask.shape
    blocked = np.broadcast_to((~mask)[:, None], (batch, n_heads, n_queries, n_keys))  # (batch, heads, q, k)
    return blocked.reshape(batch * n_heads, n_queries, n_keys)
""",
        "list_comprehension": """
def torch_attn_mask(mask, n_heads):
    return np.array([~m for m in mask for _ in range(n_heads)])
""",
    },
}
