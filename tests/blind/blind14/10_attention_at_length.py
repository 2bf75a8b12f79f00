"""Blind set 14, notebook 10: Attention at length. Written from notebooks/10_attention_at_length.ipynb only."""

MISTAKES = {
    "online_softmax": {
        "sum_not_rescaled": (["rescale", "running sum", "exp(m_old - m_new)"], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf)
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        m = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        s = s + np.exp(chunk - m).sum(axis=-1, keepdims=True)
    return np.exp(scores - m) / s
'''),
        "last_block_dropped": (["last block", "range", "shorter"], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf)
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n - block + 1, block):
        chunk = scores[..., start:start + block]
        new_m = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        s = s * np.exp(m - new_m) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
'''),
        "start_max_zero": (["initial", "-inf", "running maximum"], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.zeros(scores.shape[:-1] + (1,))
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_m = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        s = s * np.exp(m - new_m) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
'''),
        "block_local_max_final": (["final maximum", "block", "running maximum"], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf)
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_m = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        s = s * np.exp(m - new_m) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - scores[..., -1:]) / s
'''),
        "inplace_shift": (["in place", "change", "copy"], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf)
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_m = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        s = s * np.exp(m - new_m) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    scores -= m
    np.exp(scores, out=scores)
    scores /= s
    return scores
'''),
    },
    "blocked_attention": {
        "output_not_rescaled": (["rescale", "running output", "exp(m_old - m_new)"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    nq, nk = q.shape[-2], keys.shape[-2]
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=dtype)
    s = np.zeros(q.shape[:-1] + (1,), dtype=dtype)
    out = np.zeros(q.shape[:-1] + (values.shape[-1],), dtype=dtype)
    for start in range(0, nk, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        sc = q @ np.swapaxes(k, -1, -2)
        if causal:
            j = np.arange(start, start + k.shape[-2])
            sc = np.where(j[None, :] <= np.arange(nq)[:, None], sc, -np.inf)
        new_m = np.maximum(m, sc.max(axis=-1, keepdims=True))
        p = np.exp(sc - new_m)
        s = s * np.exp(m - new_m) + p.sum(axis=-1, keepdims=True)
        out = out + p @ v
        m = new_m
    return out / s
'''),
        "no_scaling": (["sqrt", "scale", "d_k"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries
    nq, nk = q.shape[-2], keys.shape[-2]
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=dtype)
    s = np.zeros(q.shape[:-1] + (1,), dtype=dtype)
    out = np.zeros(q.shape[:-1] + (values.shape[-1],), dtype=dtype)
    for start in range(0, nk, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        sc = q @ np.swapaxes(k, -1, -2)
        if causal:
            j = np.arange(start, start + k.shape[-2])
            sc = np.where(j[None, :] <= np.arange(nq)[:, None], sc, -np.inf)
        new_m = np.maximum(m, sc.max(axis=-1, keepdims=True))
        p = np.exp(sc - new_m)
        r = np.exp(m - new_m)
        s = s * r + p.sum(axis=-1, keepdims=True)
        out = out * r + p @ v
        m = new_m
    return out / s
'''),
        "causal_local_index": (["block offset", "global index", "start"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    nq, nk = q.shape[-2], keys.shape[-2]
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=dtype)
    s = np.zeros(q.shape[:-1] + (1,), dtype=dtype)
    out = np.zeros(q.shape[:-1] + (values.shape[-1],), dtype=dtype)
    for start in range(0, nk, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        sc = q @ np.swapaxes(k, -1, -2)
        if causal:
            j = np.arange(k.shape[-2])
            sc = np.where(j[None, :] <= np.arange(nq)[:, None], sc, -np.inf)
        new_m = np.maximum(m, sc.max(axis=-1, keepdims=True))
        p = np.exp(sc - new_m)
        r = np.exp(m - new_m)
        s = s * r + p.sum(axis=-1, keepdims=True)
        out = out * r + p @ v
        m = new_m
    return out / s
'''),
        "causal_ignored": (["causal", "mask", "future"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    nk = keys.shape[-2]
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=dtype)
    s = np.zeros(q.shape[:-1] + (1,), dtype=dtype)
    out = np.zeros(q.shape[:-1] + (values.shape[-1],), dtype=dtype)
    for start in range(0, nk, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        sc = q @ np.swapaxes(k, -1, -2)
        new_m = np.maximum(m, sc.max(axis=-1, keepdims=True))
        p = np.exp(sc - new_m)
        r = np.exp(m - new_m)
        s = s * r + p.sum(axis=-1, keepdims=True)
        out = out * r + p @ v
        m = new_m
    return out / s
'''),
        "not_normalised": (["divide", "running sum", "normalis"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    nq, nk = q.shape[-2], keys.shape[-2]
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=dtype)
    out = np.zeros(q.shape[:-1] + (values.shape[-1],), dtype=dtype)
    for start in range(0, nk, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        sc = q @ np.swapaxes(k, -1, -2)
        if causal:
            j = np.arange(start, start + k.shape[-2])
            sc = np.where(j[None, :] <= np.arange(nq)[:, None], sc, -np.inf)
        new_m = np.maximum(m, sc.max(axis=-1, keepdims=True))
        p = np.exp(sc - new_m)
        out = out * np.exp(m - new_m) + p @ v
        m = new_m
    return out
'''),
    },
    "grouped_query_attention": {
        "tile_not_repeat": (["repeat", "tile", "h // group"], '''
def grouped_query_attention(queries, keys, values):
    g = queries.shape[-3] // keys.shape[-3]
    reps = (1,) * (keys.ndim - 3) + (g, 1, 1)
    return matrix_attention(queries, np.tile(keys, reps), np.tile(values, reps))
'''),
        "repeat_wrong_axis": (["axis", "heads axis", "-3"], '''
def grouped_query_attention(queries, keys, values):
    g = queries.shape[-3] // keys.shape[-3]
    return matrix_attention(queries, np.repeat(keys, g, axis=0), np.repeat(values, g, axis=0))
'''),
        "group_reshape_wrong_order": (["reshape", "group", "order"], '''
def grouped_query_attention(queries, keys, values):
    *lead, h, n, d = queries.shape
    kv = keys.shape[-3]
    q = queries.reshape(*lead, h // kv, kv, n, d)
    out = matrix_attention(q, keys[..., None, :, :, :], values[..., None, :, :, :])
    return out.reshape(*lead, h, n, values.shape[-1])
'''),
        "unscaled": (["sqrt", "scale", "d_k"], '''
def grouped_query_attention(queries, keys, values):
    g = queries.shape[-3] // keys.shape[-3]
    k = np.repeat(keys, g, axis=-3)
    v = np.repeat(values, g, axis=-3)
    return scipy.special.softmax(queries @ np.swapaxes(k, -1, -2), axis=-1) @ v
'''),
    },
}

VARIANTS = {
    "online_softmax": {
        "running": '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf)
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_m = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        s = s * np.exp(m - new_m) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
''',
        "first_block_init": '''
def online_softmax(scores, block):
    first = scores[..., :block]
    m = first.max(axis=-1, keepdims=True)
    s = np.exp(first - m).sum(axis=-1, keepdims=True)
    start = block
    while start < scores.shape[-1]:
        chunk = scores[..., start:start + block]
        m_new = np.maximum(m, np.max(chunk, axis=-1, keepdims=True))
        s = s * np.exp(m - m_new) + np.sum(np.exp(chunk - m_new), axis=-1, keepdims=True)
        m = m_new
        start += block
    return np.exp(scores - m) / s
''',
    },
    "blocked_attention": {
        "flash": '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    nq, nk = q.shape[-2], keys.shape[-2]
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=dtype)
    s = np.zeros(q.shape[:-1] + (1,), dtype=dtype)
    out = np.zeros(q.shape[:-1] + (values.shape[-1],), dtype=dtype)
    rows = np.arange(nq)[:, None]
    for start in range(0, nk, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        sc = q @ np.swapaxes(k, -1, -2)
        if causal:
            j = np.arange(start, start + k.shape[-2])[None, :]
            sc = np.where(j <= rows, sc, -np.inf)
        new_m = np.maximum(m, sc.max(axis=-1, keepdims=True))
        safe = np.where(np.isfinite(new_m), new_m, 0)
        p = np.exp(sc - safe)
        r = np.exp(m - safe)
        s = s * r + p.sum(axis=-1, keepdims=True)
        out = out * r + p @ v
        m = new_m
    return (out / s).astype(dtype)
''',
        "einsum_masked_fill": '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    scale = 1.0 / keys.shape[-1] ** 0.5
    nq, nk = queries.shape[-2], keys.shape[-2]
    lead = queries.shape[:-2]
    m = np.full(lead + (nq, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (nq, 1), dtype=dtype)
    out = np.zeros(lead + (nq, values.shape[-1]), dtype=dtype)
    for start in range(0, nk, block):
        stop = min(start + block, nk)
        sc = np.einsum("...qd,...kd->...qk", queries, keys[..., start:stop, :]) * scale
        if causal:
            sc[..., np.arange(start, stop)[None, :] > np.arange(nq)[:, None]] = -np.inf
        new_m = np.maximum(m, sc.max(axis=-1, keepdims=True))
        with np.errstate(invalid="ignore"):
            r = np.where(np.isneginf(m), 0.0, np.exp(m - new_m))
            p = np.where(np.isneginf(sc), 0.0, np.exp(sc - new_m))
        s = s * r + p.sum(axis=-1, keepdims=True)
        out = out * r + np.einsum("...qk,...kv->...qv", p, values[..., start:stop, :])
        m = new_m
    return (out / s).astype(dtype)
''',
    },
    "grouped_query_attention": {
        "repeat": '''
def grouped_query_attention(queries, keys, values):
    g = queries.shape[-3] // keys.shape[-3]
    return matrix_attention(queries, np.repeat(keys, g, axis=-3), np.repeat(values, g, axis=-3))
''',
        "group_reshape": '''
def grouped_query_attention(queries, keys, values):
    *lead, h, n, d = queries.shape
    kv = keys.shape[-3]
    q = queries.reshape(*lead, kv, h // kv, n, d)
    out = matrix_attention(q, keys[..., :, None, :, :], values[..., :, None, :, :])
    return out.reshape(*lead, h, n, values.shape[-1])
''',
    },
}
