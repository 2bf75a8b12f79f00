"""Blind set 8, notebook 10: Attention at length. Written from notebooks/10_attention_at_length.ipynb only."""

MISTAKES = {
    "online_softmax": {
        "sum_not_rescaled": (['rescale', "e^{m - m'}", 'running sum', 'correction'], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n, block):
        x = scores[..., start:start + block]
        m_new = np.maximum(m, x.max(axis=-1, keepdims=True))
        s = s + np.exp(x - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(scores - m) / s
'''),
        "last_block_dropped": (['last block', 'shorter', 'remainder', 'partial'], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n - n % block, block):
        x = scores[..., start:start + block]
        m_new = np.maximum(m, x.max(axis=-1, keepdims=True))
        s = s * np.exp(m - m_new) + np.exp(x - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(scores - m) / s
'''),
        "max_of_block_only": (['running maximum', 'np.maximum', 'previous', 'largest so far'], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n, block):
        x = scores[..., start:start + block]
        m_new = x.max(axis=-1, keepdims=True)
        s = s * np.exp(m - m_new) + np.exp(x - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(scores - m) / s
'''),
        "factor_inverted": (["e^{m - m'}", 'sign', 'rescale', 'inverted'], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n, block):
        x = scores[..., start:start + block]
        m_new = np.maximum(m, x.max(axis=-1, keepdims=True))
        s = s * np.exp(m_new - m) + np.exp(x - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(scores - m) / s
'''),
        "in_place": (['in place', 'copy', 'changes scores', 'modif'], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n, block):
        x = scores[..., start:start + block]
        m_new = np.maximum(m, x.max(axis=-1, keepdims=True))
        s = s * np.exp(m - m_new) + np.exp(x - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    scores -= m
    np.exp(scores, out=scores)
    scores /= s
    return scores
'''),
        "max_starts_at_zero": (['-inf', 'start', 'initial', 'm = 0'], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n, block):
        x = scores[..., start:start + block]
        m_new = np.maximum(m, x.max(axis=-1, keepdims=True))
        s = s * np.exp(m - m_new) + np.exp(x - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(scores - m) / s
'''),
    },
    "blocked_attention": {
        "output_not_rescaled": (['rescale', 'running output', "e^{m - m'}", "o'"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    m = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_queries, 1), dtype=dtype)
    out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k, -1, -2)
        if causal:
            cols = np.arange(start, start + k.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        factor = np.exp(m - m_new)
        p = np.exp(scores - m_new)
        s = s * factor + p.sum(axis=-1, keepdims=True)
        out = out + p @ v
        m = m_new
    return out / s
'''),
        "mask_block_local_columns": (['start', 'true positions', "block's own columns", 'offset'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    m = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_queries, 1), dtype=dtype)
    out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k, -1, -2)
        if causal:
            cols = np.arange(k.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        factor = np.exp(m - m_new)
        p = np.exp(scores - m_new)
        s = s * factor + p.sum(axis=-1, keepdims=True)
        out = out * factor + p @ v
        m = m_new
    return out / s
'''),
        "not_scaled": (['sqrt', 'scale', 'd_k'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    m = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_queries, 1), dtype=dtype)
    out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k, -1, -2)
        if causal:
            cols = np.arange(start, start + k.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        factor = np.exp(m - m_new)
        p = np.exp(scores - m_new)
        s = s * factor + p.sum(axis=-1, keepdims=True)
        out = out * factor + p @ v
        m = m_new
    return out / s
'''),
        "causal_ignored": (['causal', 'mask', 'j <= i'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    m = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_queries, 1), dtype=dtype)
    out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k, -1, -2)
        if False:
            cols = np.arange(start, start + k.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        factor = np.exp(m - m_new)
        p = np.exp(scores - m_new)
        s = s * factor + p.sum(axis=-1, keepdims=True)
        out = out * factor + p @ v
        m = m_new
    return out / s
'''),
        "last_block_dropped": (['last block', 'shorter', 'remainder', 'partial'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    m = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_queries, 1), dtype=dtype)
    out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_queries)[:, None]
    for start in range(0, n_keys - n_keys % block, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k, -1, -2)
        if causal:
            cols = np.arange(start, start + k.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        factor = np.exp(m - m_new)
        p = np.exp(scores - m_new)
        s = s * factor + p.sum(axis=-1, keepdims=True)
        out = out * factor + p @ v
        m = m_new
    return out / s
'''),
        "scale_by_d_v": (['d_k', 'values', 'width of the keys', 'sqrt'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / values.shape[-1] ** 0.5
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    m = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_queries, 1), dtype=dtype)
    out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k, -1, -2)
        if causal:
            cols = np.arange(start, start + k.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        factor = np.exp(m - m_new)
        p = np.exp(scores - m_new)
        s = s * factor + p.sum(axis=-1, keepdims=True)
        out = out * factor + p @ v
        m = m_new
    return out / s
'''),
    },
    "grouped_query_attention": {
        "tile_not_repeat": (['repeat', 'tile', 'h // ', 'group'], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    reps = (1,) * (keys.ndim - 3) + (group, 1, 1)
    keys = np.tile(keys, reps)
    values = np.tile(values, reps)
    return matrix_attention(queries, keys, values)
'''),
        "repeat_axis0": (['axis', 'heads axis', '-3', 'leading'], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    keys = np.repeat(keys, group, axis=0)
    values = np.repeat(values, group, axis=0)
    return matrix_attention(queries, keys, values)
'''),
        "not_scaled": (['sqrt', 'scale', 'd_k'], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    keys = np.repeat(keys, group, axis=-3)
    values = np.repeat(values, group, axis=-3)
    scores = queries @ np.swapaxes(keys, -1, -2)
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "first_kv_head_only": (['group', 'kv head', 'h // ', 'each group'], '''
def grouped_query_attention(queries, keys, values):
    return matrix_attention(queries, keys[..., :1, :, :], values[..., :1, :, :])
'''),
        "groups_interleaved_reshape": (['reshape', 'order', 'consecutive', 'h // '], '''
def grouped_query_attention(queries, keys, values):
    *lead, n_heads, n_q, d_k = queries.shape
    n_kv = keys.shape[-3]
    grouped = queries.reshape(*lead, n_heads // n_kv, n_kv, n_q, d_k)
    out = matrix_attention(grouped, keys[..., None, :, :, :], values[..., None, :, :, :])
    return out.reshape(*lead, n_heads, n_q, values.shape[-1])
'''),
        "causal_by_habit": (['no mask', 'causal', 'mask'], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    return matrix_attention(queries, np.repeat(keys, group, axis=-3), np.repeat(values, group, axis=-3), causal=True)
'''),
    },
}

VARIANTS = {
    "online_softmax": {
        "running_pair": '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n, block):
        x = scores[..., start:start + block]
        m_new = np.maximum(m, x.max(axis=-1, keepdims=True))
        s = s * np.exp(m - m_new) + np.exp(x - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(scores - m) / s
''',
        "while_loop": '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    running_max, running_sum = None, None
    start = 0
    while start < n:
        chunk = scores[..., start:min(start + block, n)]
        chunk_max = np.max(chunk, axis=-1, keepdims=True)
        if running_max is None:
            running_max = chunk_max
            running_sum = np.sum(np.exp(chunk - chunk_max), axis=-1, keepdims=True)
        else:
            new_max = np.maximum(running_max, chunk_max)
            running_sum = (running_sum * np.exp(running_max - new_max)
                           + np.sum(np.exp(chunk - new_max), axis=-1, keepdims=True))
            running_max = new_max
        start += block
    return np.exp(scores - running_max) / running_sum
''',
    },
    "blocked_attention": {
        "running_triple": '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    m = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_queries, 1), dtype=dtype)
    out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k, -1, -2)
        if causal:
            cols = np.arange(start, start + k.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        factor = np.exp(m - m_new)
        p = np.exp(scores - m_new)
        s = s * factor + p.sum(axis=-1, keepdims=True)
        out = out * factor + p @ v
        m = m_new
    return out / s
''',
        "einsum_safe_max": '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    scale = 1.0 / math.sqrt(keys.shape[-1])
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2])
    run_max = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    run_sum = np.zeros(lead + (n_q, 1), dtype=dtype)
    run_out = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    for start in range(0, n_k, block):
        stop = min(start + block, n_k)
        scores = np.einsum("...qd,...kd->...qk", queries, keys[..., start:stop, :]) * dtype.type(scale)
        if causal:
            allowed = np.arange(start, stop)[None, :] <= np.arange(n_q)[:, None]
            scores = np.where(allowed, scores, -np.inf)
        block_max = scores.max(axis=-1, keepdims=True)
        new_max = np.maximum(run_max, block_max)
        safe_max = np.where(np.isfinite(new_max), new_max, 0.0)
        correction = np.exp(run_max - safe_max)
        weights = np.exp(scores - safe_max)
        run_sum = run_sum * correction + weights.sum(axis=-1, keepdims=True)
        run_out = run_out * correction + weights @ values[..., start:stop, :]
        run_max = new_max
    return (run_out / run_sum).astype(dtype)
''',
    },
    "grouped_query_attention": {
        "repeat": '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    keys = np.repeat(keys, group, axis=-3)
    values = np.repeat(values, group, axis=-3)
    return matrix_attention(queries, keys, values)
''',
        "grouped_reshape": '''
def grouped_query_attention(queries, keys, values):
    *lead, n_heads, n_q, d_k = queries.shape
    n_kv = keys.shape[-3]
    grouped = queries.reshape(*lead, n_kv, n_heads // n_kv, n_q, d_k)
    out = matrix_attention(grouped, keys[..., :, None, :, :], values[..., :, None, :, :])
    return out.reshape(*lead, n_heads, n_q, values.shape[-1])
''',
    },
}
