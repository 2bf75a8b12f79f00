"""Blind set 9, notebook 10: Attention at length. Written from notebooks/10_attention_at_length.ipynb only."""

MISTAKES = {
    'online_softmax': {
        'sum_not_rescaled': (['rescal', "e^{m - m'}", 'running sum', 'factor'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    running_sum = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_max = np.maximum(running_max, chunk.max(axis=-1, keepdims=True))
        running_sum = running_sum + np.exp(chunk - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    return np.exp(scores - running_max) / running_sum
'''),
        'max_of_first_block_only': (['running maximum', 'update', 'overflow', 'max'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    running_max = scores[..., :block].max(axis=-1, keepdims=True)
    running_sum = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        running_sum = running_sum + np.exp(chunk - running_max).sum(axis=-1, keepdims=True)
    return np.exp(scores - running_max) / running_sum
'''),
        'no_maximum': (['overflow', 'maximum', 'subtract'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    total = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, scores.shape[-1], block):
        total = total + np.exp(scores[..., start:start + block]).sum(axis=-1, keepdims=True)
    return np.exp(scores) / total
'''),
        'drops_last_partial_block': (['last block', 'shorter', 'remainder', 'range'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    running_sum = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n - block + 1, block):
        chunk = scores[..., start:start + block]
        new_max = np.maximum(running_max, chunk.max(axis=-1, keepdims=True))
        running_sum = running_sum * np.exp(running_max - new_max) + np.exp(chunk - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    return np.exp(scores - running_max) / running_sum
'''),
        'max_starts_at_zero': (['-inf', 'initial', 'start', 'minus infinity'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    running_max = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    running_sum = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_max = np.maximum(running_max, chunk.max(axis=-1, keepdims=True))
        running_sum = running_sum * np.exp(running_max - new_max) + np.exp(chunk - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    return np.exp(scores - running_max) / running_sum
'''),
        'state_without_keepdims': (['keepdims', '(..., 1)', 'broadcast'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    running_max = np.full(scores.shape[:-1], -np.inf, dtype=scores.dtype)
    running_sum = np.zeros(scores.shape[:-1], dtype=scores.dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_max = np.maximum(running_max, chunk.max(axis=-1))
        running_sum = running_sum * np.exp(running_max - new_max) + np.exp(chunk - new_max).sum(axis=-1)
        running_max = new_max
    return np.exp(scores - running_max) / running_sum
'''),
        'shifts_scores_in_place': (['in place', 'modif', 'copy', 'must not change'], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    running_sum = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_max = np.maximum(running_max, chunk.max(axis=-1, keepdims=True))
        running_sum = running_sum * np.exp(running_max - new_max) + np.exp(chunk - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    scores -= running_max
    np.exp(scores, out=scores)
    return scores / running_sum
'''),
    },
    'blocked_attention': {
        'mask_from_block_columns': (['true positions', 'start', "block's own columns", 'offset'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2], values.shape[:-2])
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    running_out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        k_block = keys[..., start:start + block, :]
        v_block = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_block, -1, -2)
        if causal:
            cols = np.arange(k_block.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max).astype(dtype)
        p = np.exp(scores - safe_max)
        factor = np.exp(running_max - safe_max)
        running_sum = running_sum * factor + p.sum(axis=-1, keepdims=True)
        running_out = running_out * factor + p @ v_block
        running_max = new_max
    return running_out / running_sum
'''),
        'output_not_rescaled': (['rescal', 'running output', 'factor'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2], values.shape[:-2])
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    running_out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        k_block = keys[..., start:start + block, :]
        v_block = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_block, -1, -2)
        if causal:
            cols = np.arange(start, start + k_block.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max).astype(dtype)
        p = np.exp(scores - safe_max)
        factor = np.exp(running_max - safe_max)
        running_sum = running_sum * factor + p.sum(axis=-1, keepdims=True)
        running_out = running_out + p @ v_block
        running_max = new_max
    return running_out / running_sum
'''),
        'sum_not_rescaled': (['running sum', 'rescal', 'factor'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2], values.shape[:-2])
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    running_out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        k_block = keys[..., start:start + block, :]
        v_block = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_block, -1, -2)
        if causal:
            cols = np.arange(start, start + k_block.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max).astype(dtype)
        p = np.exp(scores - safe_max)
        factor = np.exp(running_max - safe_max)
        running_sum = running_sum + p.sum(axis=-1, keepdims=True)
        running_out = running_out * factor + p @ v_block
        running_max = new_max
    return running_out / running_sum
'''),
        'no_scale': (['sqrt', 'scale', 'd_k'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2], values.shape[:-2])
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    running_out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        k_block = keys[..., start:start + block, :]
        v_block = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_block, -1, -2)
        if causal:
            cols = np.arange(start, start + k_block.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max).astype(dtype)
        p = np.exp(scores - safe_max)
        factor = np.exp(running_max - safe_max)
        running_sum = running_sum * factor + p.sum(axis=-1, keepdims=True)
        running_out = running_out * factor + p @ v_block
        running_max = new_max
    return running_out / running_sum
'''),
        'drops_last_partial_block': (['last block', 'shorter', 'remainder', 'range'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2], values.shape[:-2])
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    running_out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_queries)[:, None]
    for start in range(0, n_keys - block + 1, block):
        k_block = keys[..., start:start + block, :]
        v_block = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_block, -1, -2)
        if causal:
            cols = np.arange(start, start + k_block.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max).astype(dtype)
        p = np.exp(scores - safe_max)
        factor = np.exp(running_max - safe_max)
        running_sum = running_sum * factor + p.sum(axis=-1, keepdims=True)
        running_out = running_out * factor + p @ v_block
        running_max = new_max
    return running_out / running_sum
'''),
        'per_block_softmax_averaged': (['running', 'per block', 'normalis', 'whole row'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    q = queries / keys.shape[-1] ** 0.5
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    rows = np.arange(n_queries)[:, None]
    outputs = []
    for start in range(0, n_keys, block):
        k_block = keys[..., start:start + block, :]
        scores = q @ np.swapaxes(k_block, -1, -2)
        if causal:
            cols = np.arange(start, start + k_block.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -1e30)
        weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
        weights = weights / weights.sum(axis=-1, keepdims=True)
        outputs.append(weights @ values[..., start:start + block, :])
    return sum(outputs) / len(outputs)
'''),
        'strict_causal': (['diagonal', 'j <= i', 'itself'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2], values.shape[:-2])
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    running_out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        k_block = keys[..., start:start + block, :]
        v_block = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_block, -1, -2)
        if causal:
            cols = np.arange(start, start + k_block.shape[-2])[None, :]
            scores = np.where(cols < rows, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max).astype(dtype)
        p = np.exp(scores - safe_max)
        factor = np.exp(running_max - safe_max)
        running_sum = running_sum * factor + p.sum(axis=-1, keepdims=True)
        running_out = running_out * factor + p @ v_block
        running_max = new_max
    return running_out / running_sum
'''),
    },
    'grouped_query_attention': {
        'tile_not_repeat': (['tile', 'repeat', 'h //', 'neighbouring', 'group'], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    reps = (1,) * (keys.ndim - 3) + (group, 1, 1)
    return matrix_attention(queries, np.tile(keys, reps), np.tile(values, reps))
'''),
        'grouped_reshape_wrong_order': (['reshape', 'order', 'h //', 'neighbouring'], '''
def grouped_query_attention(queries, keys, values):
    *lead, n_heads, n_queries, d_k = queries.shape
    n_kv = keys.shape[-3]
    grouped = queries.reshape(*lead, n_heads // n_kv, n_kv, n_queries, d_k)
    out = matrix_attention(grouped, keys[..., None, :, :, :], values[..., None, :, :, :])
    return out.reshape(*lead, n_heads, n_queries, values.shape[-1])
'''),
        'only_first_kv_head': (['h //', 'group', 'key/value head', 'each group'], '''
def grouped_query_attention(queries, keys, values):
    return matrix_attention(queries, keys[..., :1, :, :], values[..., :1, :, :])
'''),
        'scale_by_d_v': (['d_k', 'sqrt', 'd_v'], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    k = np.repeat(keys, group, axis=-3)
    v = np.repeat(values, group, axis=-3)
    scores = queries @ np.swapaxes(k, -1, -2) / math.sqrt(v.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ v
'''),
        'queries_averaged_per_group': (['every query head', 'n_heads', 'mean', 'each query head'], '''
def grouped_query_attention(queries, keys, values):
    *lead, n_heads, n_queries, d_k = queries.shape
    n_kv = keys.shape[-3]
    grouped = queries.reshape(*lead, n_kv, n_heads // n_kv, n_queries, d_k).mean(axis=-3)
    return matrix_attention(grouped, keys, values)
'''),
        'group_from_tokens_axis': (['n_kv_heads', 'shape[-3]', 'heads axis'], '''
def grouped_query_attention(queries, keys, values):
    group = max(queries.shape[-3] // keys.shape[-2], 1)
    return matrix_attention(queries, np.repeat(keys, group, axis=-3), np.repeat(values, group, axis=-3))
'''),
    },
}

VARIANTS = {
    'online_softmax': {
        'running_max_sum': '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    running_sum = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_max = np.maximum(running_max, chunk.max(axis=-1, keepdims=True))
        running_sum = running_sum * np.exp(running_max - new_max) + np.exp(chunk - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    return np.exp(scores - running_max) / running_sum
''',
        'logaddexp_running': '''
from scipy.special import logsumexp as _logsumexp


def online_softmax(scores, block):
    log_total = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    start = 0
    while start < scores.shape[-1]:
        chunk = scores[..., start:start + block]
        log_total = np.logaddexp(log_total, _logsumexp(chunk, axis=-1, keepdims=True))
        start += block
    return np.exp(scores - log_total)
''',
    },
    'blocked_attention': {
        'running_state_arrays': '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2], values.shape[:-2])
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    running_out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        k_block = keys[..., start:start + block, :]
        v_block = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_block, -1, -2)
        if causal:
            cols = np.arange(start, start + k_block.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max).astype(dtype)
        p = np.exp(scores - safe_max)
        factor = np.exp(running_max - safe_max)
        running_sum = running_sum * factor + p.sum(axis=-1, keepdims=True)
        running_out = running_out * factor + p @ v_block
        running_max = new_max
    return running_out / running_sum
''',
        'einsum_first_block': '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    scale = 1.0 / math.sqrt(keys.shape[-1])
    n_q = queries.shape[-2]
    m = s = o = None
    for start in range(0, keys.shape[-2], block):
        stop = min(start + block, keys.shape[-2])
        scores = np.einsum("...qd,...kd->...qk", queries, keys[..., start:stop, :]) * scale
        if causal:
            hidden = np.arange(start, stop)[None, :] > np.arange(n_q)[:, None]
            scores[..., hidden] = -np.inf
        block_max = scores.max(axis=-1, keepdims=True)
        if m is None:
            m = block_max
            p = np.exp(scores - m)
            s = p.sum(axis=-1, keepdims=True)
            o = p @ values[..., start:stop, :]
            continue
        new_m = np.maximum(m, block_max)
        alpha = np.exp(m - new_m)
        p = np.exp(scores - new_m)
        s = alpha * s + p.sum(axis=-1, keepdims=True)
        o = alpha * o + p @ values[..., start:stop, :]
        m = new_m
    return (o / s).astype(dtype, copy=False)
''',
    },
    'grouped_query_attention': {
        'repeat_kv_heads': '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    return matrix_attention(queries, np.repeat(keys, group, axis=-3), np.repeat(values, group, axis=-3))
''',
        'grouped_reshape': '''
def grouped_query_attention(queries, keys, values):
    *lead, n_heads, n_queries, d_k = queries.shape
    n_kv = keys.shape[-3]
    grouped = queries.reshape(*lead, n_kv, n_heads // n_kv, n_queries, d_k)
    out = matrix_attention(grouped, keys[..., :, None, :, :], values[..., :, None, :, :])
    return out.reshape(*lead, n_heads, n_queries, values.shape[-1])
''',
    },
}
