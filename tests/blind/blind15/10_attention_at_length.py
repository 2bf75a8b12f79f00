"""Blind set 15, notebook 10: Attention at length. Written from notebooks/10_attention_at_length.ipynb only."""

MISTAKES = {
    "online_softmax": {
        "sum_not_rescaled": (['rescale', 'running sum', 'exp(m_old - m_new)', 'correction'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    dtype = np.result_type(scores.dtype, np.float32)
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_m = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        s = s + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
'''),
        "rescale_sign_flipped": (['sign', 'exp(m_old - m_new)', 'rescale'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    dtype = np.result_type(scores.dtype, np.float32)
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_m = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        s = s * np.exp(np.where(np.isinf(m), 0, new_m - m)) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
'''),
        "drops_last_partial_block": (['last block', 'shorter', 'partial', 'remainder'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    dtype = np.result_type(scores.dtype, np.float32)
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=dtype)
    for start in range(0, n - block + 1, block):
        chunk = scores[..., start:start + block]
        new_m = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        s = s * np.exp(m - new_m) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
'''),
        "inplace_shift": (['in place', 'change', 'scores', 'copy'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    dtype = np.result_type(scores.dtype, np.float32)
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_m = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        s = s * np.exp(m - new_m) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    scores -= m
    np.exp(scores, out=scores)
    return scores / s
'''),
        "max_of_last_block": (['running maximum', 'maximum', 'every block'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    dtype = np.result_type(scores.dtype, np.float32)
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_m = chunk.max(axis=-1, keepdims=True)
        s = s * np.exp(m - new_m) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
'''),
        "max_frozen_after_first_block": (['running maximum', 'overflow', 'update'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    dtype = np.result_type(scores.dtype, np.float32)
    m = None
    s = np.zeros(scores.shape[:-1] + (1,), dtype=dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        if m is None:
            m = chunk.max(axis=-1, keepdims=True)
        s = s + np.exp(chunk - m).sum(axis=-1, keepdims=True)
    return np.exp(scores - m) / s
'''),
    },
    "blocked_attention": {
        "output_not_rescaled": (['rescale', 'output', 'correction', 'running maximum'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_q, n_k = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    out = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        sc = q @ np.swapaxes(k, -1, -2)
        if causal:
            cols = np.arange(start, start + k.shape[-2])[None, :]
            sc = np.where(cols <= rows, sc, -np.inf)
        new_m = np.maximum(m, sc.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(new_m), 0, new_m)
        corr = np.exp(m - safe)
        p = np.exp(sc - safe)
        s = s * corr + p.sum(axis=-1, keepdims=True)
        out = out + p @ v
        m = new_m
    return out / s
'''),
        "not_divided_by_sum": (['divide', 'running sum', 'normalis'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_q, n_k = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    out = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        sc = q @ np.swapaxes(k, -1, -2)
        if causal:
            cols = np.arange(start, start + k.shape[-2])[None, :]
            sc = np.where(cols <= rows, sc, -np.inf)
        new_m = np.maximum(m, sc.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(new_m), 0, new_m)
        corr = np.exp(m - safe)
        p = np.exp(sc - safe)
        s = s * corr + p.sum(axis=-1, keepdims=True)
        out = out * corr + p @ v
        m = new_m
    return out
'''),
        "no_scaling": (['sqrt', 'scale', 'd_k'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries
    n_q, n_k = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    out = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        sc = q @ np.swapaxes(k, -1, -2)
        if causal:
            cols = np.arange(start, start + k.shape[-2])[None, :]
            sc = np.where(cols <= rows, sc, -np.inf)
        new_m = np.maximum(m, sc.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(new_m), 0, new_m)
        corr = np.exp(m - safe)
        p = np.exp(sc - safe)
        s = s * corr + p.sum(axis=-1, keepdims=True)
        out = out * corr + p @ v
        m = new_m
    return out / s
'''),
        "causal_excludes_diagonal": (['diagonal', 'j <= i', 'itself'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_q, n_k = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    out = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        sc = q @ np.swapaxes(k, -1, -2)
        if causal:
            cols = np.arange(start, start + k.shape[-2])[None, :]
            sc = np.where(cols < rows, sc, -np.inf)
        new_m = np.maximum(m, sc.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(new_m), 0, new_m)
        corr = np.exp(m - safe)
        p = np.exp(sc - safe)
        s = s * corr + p.sum(axis=-1, keepdims=True)
        out = out * corr + p @ v
        m = new_m
    return out / s
'''),
        "causal_mask_block_local": (['block offset', 'start', 'column index', 'global'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_q, n_k = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    out = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        sc = q @ np.swapaxes(k, -1, -2)
        if causal:
            cols = np.arange(k.shape[-2])[None, :]
            sc = np.where(cols <= rows, sc, -np.inf)
        new_m = np.maximum(m, sc.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(new_m), 0, new_m)
        corr = np.exp(m - safe)
        p = np.exp(sc - safe)
        s = s * corr + p.sum(axis=-1, keepdims=True)
        out = out * corr + p @ v
        m = new_m
    return out / s
'''),
        "scale_by_d_v": (['d_k', 'width of the keys', 'values'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / values.shape[-1] ** 0.5
    n_q, n_k = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    out = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        sc = q @ np.swapaxes(k, -1, -2)
        if causal:
            cols = np.arange(start, start + k.shape[-2])[None, :]
            sc = np.where(cols <= rows, sc, -np.inf)
        new_m = np.maximum(m, sc.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(new_m), 0, new_m)
        corr = np.exp(m - safe)
        p = np.exp(sc - safe)
        s = s * corr + p.sum(axis=-1, keepdims=True)
        out = out * corr + p @ v
        m = new_m
    return out / s
'''),
    },
    "grouped_query_attention": {
        "tile_not_repeat": (['tile', 'repeat', 'h // group', 'order'], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    k = np.tile(keys, (group, 1, 1))
    v = np.tile(values, (group, 1, 1))
    s = queries @ np.swapaxes(k, -1, -2) / np.sqrt(queries.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v
'''),
        "reshape_wrong_grouping": (['group', 'reshape', 'h // group'], '''
def grouped_query_attention(queries, keys, values):
    *lead, n_heads, n_q, d_k = queries.shape
    n_kv = keys.shape[-3]
    q = queries.reshape(*lead, n_heads // n_kv, n_kv, n_q, d_k)
    s = q @ np.expand_dims(np.swapaxes(keys, -1, -2), -4) / d_k ** 0.5
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    out = (e / e.sum(axis=-1, keepdims=True)) @ np.expand_dims(values, -4)
    return out.reshape(*lead, n_heads, n_q, values.shape[-1])
'''),
        "no_scaling": (['sqrt', 'scale', 'd_k'], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    k = np.repeat(keys, group, axis=-3)
    v = np.repeat(values, group, axis=-3)
    s = queries @ np.swapaxes(k, -1, -2)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v
'''),
        "repeat_by_n_kv_heads": (['group', 'n_heads // n_kv_heads', 'repeat'], '''
def grouped_query_attention(queries, keys, values):
    group = keys.shape[-3]
    k = np.repeat(keys, group, axis=-3)
    v = np.repeat(values, group, axis=-3)
    s = queries @ np.swapaxes(k, -1, -2) / np.sqrt(queries.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v
'''),
        "softmax_over_queries": (['axis', 'keys', 'last axis'], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    k = np.repeat(keys, group, axis=-3)
    v = np.repeat(values, group, axis=-3)
    s = queries @ np.swapaxes(k, -1, -2) / np.sqrt(queries.shape[-1])
    e = np.exp(s - s.max(axis=-2, keepdims=True))
    return (e / e.sum(axis=-2, keepdims=True)) @ v
'''),
    },
}

VARIANTS = {
    "online_softmax": {
        "running_max_sum": '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    dtype = np.result_type(scores.dtype, np.float32)
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_m = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        s = s * np.exp(m - new_m) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
''',
        "while_loop": '''
def online_softmax(scores, block):
    x = np.asarray(scores)
    n = x.shape[-1]
    running_max = None
    running_sum = None
    start = 0
    while start < n:
        chunk = x[..., start:min(start + block, n)]
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
    return np.exp(x - running_max) / running_sum
''',
    },
    "blocked_attention": {
        "flash_style": '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_q, n_k = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    out = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        sc = q @ np.swapaxes(k, -1, -2)
        if causal:
            cols = np.arange(start, start + k.shape[-2])[None, :]
            sc = np.where(cols <= rows, sc, -np.inf)
        new_m = np.maximum(m, sc.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(new_m), 0, new_m)
        corr = np.exp(m - safe)
        p = np.exp(sc - safe)
        s = s * corr + p.sum(axis=-1, keepdims=True)
        out = out * corr + p @ v
        m = new_m
    return out / s
''',
        "einsum_where": '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    scale = 1.0 / keys.shape[-1] ** 0.5
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    run_max = np.full(queries.shape[:-1] + (1,), -np.inf, dtype=dtype)
    run_sum = np.zeros(queries.shape[:-1] + (1,), dtype=dtype)
    acc = np.zeros(queries.shape[:-1] + (values.shape[-1],), dtype=dtype)
    i = np.arange(n_q)[:, None]
    for lo in range(0, n_k, block):
        hi = min(lo + block, n_k)
        scores = np.einsum("...qd,...kd->...qk", queries, keys[..., lo:hi, :]) * scale
        if causal:
            scores = np.where(np.arange(lo, hi)[None, :] > i, -np.inf, scores)
        block_max = scores.max(axis=-1, keepdims=True)
        new_max = np.maximum(run_max, block_max)
        finite = np.isfinite(new_max)
        shift = np.where(finite, new_max, 0.0)
        factor = np.where(finite, np.exp(run_max - shift), 0.0)
        weights = np.exp(scores - shift)
        run_sum = run_sum * factor + weights.sum(axis=-1, keepdims=True)
        acc = acc * factor + np.einsum("...qk,...kv->...qv", weights, values[..., lo:hi, :])
        run_max = new_max
    return (acc / run_sum).astype(dtype, copy=False)
''',
    },
    "grouped_query_attention": {
        "repeat_kv": '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    k = np.repeat(keys, group, axis=-3)
    v = np.repeat(values, group, axis=-3)
    s = queries @ np.swapaxes(k, -1, -2) / np.sqrt(queries.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v
''',
        "reshape_groups": '''
def grouped_query_attention(queries, keys, values):
    *lead, n_heads, n_q, d_k = queries.shape
    n_kv = keys.shape[-3]
    q = queries.reshape(*lead, n_kv, n_heads // n_kv, n_q, d_k)
    k = keys[..., :, None, :, :]
    v = values[..., :, None, :, :]
    s = q @ np.swapaxes(k, -1, -2) / d_k ** 0.5
    w = scipy.special.softmax(s, axis=-1)
    out = w @ v
    return out.reshape(*lead, n_heads, n_q, values.shape[-1])
''',
    },
}
