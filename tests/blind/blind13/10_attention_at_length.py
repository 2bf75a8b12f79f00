"""Blind set 13, notebook 10: Attention at length. Written from notebooks/10_attention_at_length.ipynb only."""

MISTAKES = {
    'online_softmax': {
        'sum_not_rescaled': (['rescale', 'running sum', 'correction', 'exp(m_old - m_new)'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf)
    running_sum = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_max = np.maximum(running_max, chunk.max(axis=-1, keepdims=True))
        running_sum = running_sum + np.exp(chunk - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    return np.exp(scores - running_max) / running_sum
'''),
        'rescale_sign_flipped': (['sign', 'exp(m - m_new)', 'rescale', 'overflow'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf)
    running_sum = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_max = np.maximum(running_max, chunk.max(axis=-1, keepdims=True))
        running_sum = running_sum * np.exp(new_max - running_max) + np.exp(chunk - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    return np.exp(scores - running_max) / running_sum
'''),
        'drops_last_block': (['last block', 'shorter', 'range', 'remainder'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf)
    running_sum = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n - block + 1, block):
        chunk = scores[..., start:start + block]
        new_max = np.maximum(running_max, chunk.max(axis=-1, keepdims=True))
        running_sum = running_sum * np.exp(running_max - new_max) + np.exp(chunk - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    return np.exp(scores - running_max) / running_sum
'''),
        'no_running_max': (['maximum', 'overflow', 'subtract', 'running max'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    running_sum = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, scores.shape[-1], block):
        running_sum = running_sum + np.exp(scores[..., start:start + block]).sum(axis=-1, keepdims=True)
    return np.exp(scores) / running_sum
'''),
        'last_block_max': (['running maximum', 'final', 'maximum of all', 'last block'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf)
    running_sum = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_max = np.maximum(running_max, chunk.max(axis=-1, keepdims=True))
        running_sum = running_sum * np.exp(running_max - new_max) + np.exp(chunk - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    return np.exp(scores - chunk.max(axis=-1, keepdims=True)) / running_sum
'''),
    },
    'blocked_attention': {
        'output_not_rescaled': (['rescale', 'output', 'correction', 'running output'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    query_pos = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k, -1, -2)
        if causal:
            key_pos = np.arange(start, start + k.shape[-2])[None, :]
            scores = np.where(key_pos <= query_pos, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max)
        correction = np.exp(running_max - safe_max)
        p = np.exp(scores - safe_max)
        running_sum = running_sum * correction + p.sum(axis=-1, keepdims=True)
        out = out + p @ v
        running_max = new_max
    return out / running_sum
'''),
        'no_scaling': (['sqrt', 'scale', 'd_k'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    query_pos = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k, -1, -2)
        if causal:
            key_pos = np.arange(start, start + k.shape[-2])[None, :]
            scores = np.where(key_pos <= query_pos, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max)
        correction = np.exp(running_max - safe_max)
        p = np.exp(scores - safe_max)
        running_sum = running_sum * correction + p.sum(axis=-1, keepdims=True)
        out = out * correction + p @ v
        running_max = new_max
    return out / running_sum
'''),
        'block_local_positions': (['offset', 'start', 'position', 'global'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    query_pos = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k, -1, -2)
        if causal:
            key_pos = np.arange(k.shape[-2])[None, :]
            scores = np.where(key_pos <= query_pos, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max)
        correction = np.exp(running_max - safe_max)
        p = np.exp(scores - safe_max)
        running_sum = running_sum * correction + p.sum(axis=-1, keepdims=True)
        out = out * correction + p @ v
        running_max = new_max
    return out / running_sum
'''),
        'drops_last_block': (['last block', 'shorter', 'range', 'remainder'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    query_pos = np.arange(n_queries)[:, None]
    for start in range(0, n_keys - block + 1, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k, -1, -2)
        if causal:
            key_pos = np.arange(start, start + k.shape[-2])[None, :]
            scores = np.where(key_pos <= query_pos, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max)
        correction = np.exp(running_max - safe_max)
        p = np.exp(scores - safe_max)
        running_sum = running_sum * correction + p.sum(axis=-1, keepdims=True)
        out = out * correction + p @ v
        running_max = new_max
    return out / running_sum
'''),
        'no_final_division': (['divide', 'running sum', 'normalis', 'normaliz'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    query_pos = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k, -1, -2)
        if causal:
            key_pos = np.arange(start, start + k.shape[-2])[None, :]
            scores = np.where(key_pos <= query_pos, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max)
        correction = np.exp(running_max - safe_max)
        p = np.exp(scores - safe_max)
        running_sum = running_sum * correction + p.sum(axis=-1, keepdims=True)
        out = out * correction + p @ v
        running_max = new_max
    return out
'''),
    },
    'grouped_query_attention': {
        'tile_not_repeat': (['repeat', 'tile', 'h // ', 'group'], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    keys = np.tile(keys, (group, 1, 1))
    values = np.tile(values, (group, 1, 1))
    return matrix_attention(queries, keys, values)
'''),
        'repeat_wrong_axis': (['axis', 'heads axis', '-3', 'leading'], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    keys = np.repeat(keys, group, axis=0)
    values = np.repeat(values, group, axis=0)
    return matrix_attention(queries, keys, values)
'''),
        'repeat_by_kv_heads': (['group size', 'n_heads // n_kv_heads', 'repeat', 'n_kv_heads'], '''
def grouped_query_attention(queries, keys, values):
    group = keys.shape[-3]
    keys = np.repeat(keys, group, axis=-3)
    values = np.repeat(values, group, axis=-3)
    return matrix_attention(queries, keys, values)
'''),
        'modulo_head_index': (['h // ', 'group', 'modulo', '%'], '''
def grouped_query_attention(queries, keys, values):
    n_heads, n_kv = queries.shape[-3], keys.shape[-3]
    index = np.arange(n_heads) % n_kv
    return matrix_attention(queries, keys[..., index, :, :], values[..., index, :, :])
'''),
    },
}

VARIANTS = {
    'online_softmax': {
        'running_max_sum': '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf)
    running_sum = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_max = np.maximum(running_max, chunk.max(axis=-1, keepdims=True))
        running_sum = running_sum * np.exp(running_max - new_max) + np.exp(chunk - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    return np.exp(scores - running_max) / running_sum
''',
        'array_split': '''
def online_softmax(scores, block):
    scores = np.asarray(scores, dtype=float)
    m = None
    s = None
    for chunk in np.array_split(scores, range(block, scores.shape[-1], block), axis=-1):
        chunk_max = chunk.max(axis=-1, keepdims=True)
        if m is None:
            m = chunk_max
            s = np.exp(chunk - m).sum(axis=-1, keepdims=True)
            continue
        new_m = np.maximum(m, chunk_max)
        s = s * np.exp(m - new_m) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
''',
    },
    'blocked_attention': {
        'running_output': '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_queries, n_keys = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    query_pos = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k, -1, -2)
        if causal:
            key_pos = np.arange(start, start + k.shape[-2])[None, :]
            scores = np.where(key_pos <= query_pos, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max)
        correction = np.exp(running_max - safe_max)
        p = np.exp(scores - safe_max)
        running_sum = running_sum * correction + p.sum(axis=-1, keepdims=True)
        out = out * correction + p @ v
        running_max = new_max
    return out / running_sum
''',
        'in_place_exp': '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = np.asarray(queries, dtype=dtype) / keys.shape[-1] ** 0.5
    n_q, n_k = q.shape[-2], keys.shape[-2]
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=dtype)
    s = np.zeros(q.shape[:-1] + (1,), dtype=dtype)
    acc = np.zeros(q.shape[:-1] + (values.shape[-1],), dtype=dtype)
    for start in range(0, n_k, block):
        stop = min(start + block, n_k)
        scores = np.einsum("...qd,...kd->...qk", q, keys[..., start:stop, :])
        if causal:
            allowed = np.arange(start, stop)[None, :] <= np.arange(n_q)[:, None]
            scores = np.where(allowed, scores, -np.inf)
        block_max = scores.max(axis=-1, keepdims=True)
        new_m = np.maximum(m, block_max)
        shift = np.where(np.isfinite(new_m), new_m, 0.0)
        scores -= shift
        np.exp(scores, out=scores)
        alpha = np.exp(m - shift)
        s = alpha * s + scores.sum(axis=-1, keepdims=True)
        acc = alpha * acc + np.einsum("...qk,...kv->...qv", scores, values[..., start:stop, :])
        m = new_m
    return acc / s
''',
    },
    'grouped_query_attention': {
        'np_repeat': '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    keys = np.repeat(keys, group, axis=-3)
    values = np.repeat(values, group, axis=-3)
    return matrix_attention(queries, keys, values)
''',
        'reshape_groups': '''
def grouped_query_attention(queries, keys, values):
    *lead, n_heads, n_queries, d_k = queries.shape
    n_kv = keys.shape[-3]
    grouped = queries.reshape(*lead, n_kv, n_heads // n_kv, n_queries, d_k)  # (..., kv, group, q, d)
    out = matrix_attention(grouped, keys[..., :, None, :, :], values[..., :, None, :, :])
    return out.reshape(*lead, n_heads, n_queries, values.shape[-1])
''',
    },
}
