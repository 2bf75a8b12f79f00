"""Blind set 10, notebook 10: attention at length. Written from notebooks/10_attention_at_length.ipynb only."""

MISTAKES = {
    "online_softmax": {
        "no_rescale_sum": (["rescale", "e^{m - m'}", "running sum", "old sum"], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf)
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n, block):
        b = scores[..., start:start + block]
        m_new = np.maximum(m, b.max(axis=-1, keepdims=True))
        s = s + np.exp(b - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(scores - m) / s
'''),
        "skip_last_partial_block": (["last block", "shorter", "range", "remainder"], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf)
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n - block + 1, block):
        b = scores[..., start:start + block]
        m_new = np.maximum(m, b.max(axis=-1, keepdims=True))
        s = s * np.exp(m - m_new) + np.exp(b - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(scores - m) / s
'''),
        "block_local_max_final": (["running maximum", "final", "m"], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf)
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n, block):
        b = scores[..., start:start + block]
        m_new = np.maximum(m, b.max(axis=-1, keepdims=True))
        s = s * np.exp(m - m_new) + np.exp(b - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    last = scores[..., -1:]
    return np.exp(scores - last) / (s * np.exp(m - last))
'''),
        "rescale_inverted": (["rescale", "sign", "m - m'", "exponent"], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf)
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n, block):
        b = scores[..., start:start + block]
        m_new = np.maximum(m, b.max(axis=-1, keepdims=True))
        s = s * np.exp(np.minimum(m_new - m, 0.0)) + np.exp(b - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(scores - m) / s
'''),
        "global_max_axis": (["each row", "axis", "keepdims", "row"], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = -np.inf
    s = 0.0
    for start in range(0, n, block):
        b = scores[..., start:start + block]
        m_new = max(m, b.max())
        s = s * np.exp(m - m_new) + np.exp(b - m_new).sum()
        m = m_new
    return np.exp(scores - m) / s
'''),
    },
    "blocked_attention": {
        "causal_local_columns": (["start", "true positions", "block's own columns", "offset"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    nq, nk = q.shape[-2], keys.shape[-2]
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=dtype)
    s = np.zeros(q.shape[:-1] + (1,), dtype=dtype)
    o = np.zeros(q.shape[:-1] + (values.shape[-1],), dtype=dtype)
    for start in range(0, nk, block):
        kb = keys[..., start:start + block, :]
        vb = values[..., start:start + block, :]
        sc = q @ np.swapaxes(kb, -1, -2)
        if causal:
            cols = np.arange(kb.shape[-2])
            sc = np.where(cols[None, :] <= np.arange(nq)[:, None], sc, -np.inf)
        m_new = np.maximum(m, sc.max(axis=-1, keepdims=True))
        e = np.exp(sc - m_new)
        alpha = np.exp(m - m_new)
        s = s * alpha + e.sum(axis=-1, keepdims=True)
        o = o * alpha + e @ vb
        m = m_new
    return o / s
'''),
        "output_not_rescaled": (["rescale", "running output", "o'"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    nq, nk = q.shape[-2], keys.shape[-2]
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=dtype)
    s = np.zeros(q.shape[:-1] + (1,), dtype=dtype)
    o = np.zeros(q.shape[:-1] + (values.shape[-1],), dtype=dtype)
    for start in range(0, nk, block):
        kb = keys[..., start:start + block, :]
        vb = values[..., start:start + block, :]
        sc = q @ np.swapaxes(kb, -1, -2)
        if causal:
            cols = start + np.arange(kb.shape[-2])
            sc = np.where(cols[None, :] <= np.arange(nq)[:, None], sc, -np.inf)
        m_new = np.maximum(m, sc.max(axis=-1, keepdims=True))
        e = np.exp(sc - m_new)
        alpha = np.exp(m - m_new)
        s = s * alpha + e.sum(axis=-1, keepdims=True)
        o = o + e @ vb
        m = m_new
    return o / s
'''),
        "no_scale": (["sqrt", "scale", "d_k"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries
    nq, nk = q.shape[-2], keys.shape[-2]
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=dtype)
    s = np.zeros(q.shape[:-1] + (1,), dtype=dtype)
    o = np.zeros(q.shape[:-1] + (values.shape[-1],), dtype=dtype)
    for start in range(0, nk, block):
        kb = keys[..., start:start + block, :]
        vb = values[..., start:start + block, :]
        sc = q @ np.swapaxes(kb, -1, -2)
        if causal:
            cols = start + np.arange(kb.shape[-2])
            sc = np.where(cols[None, :] <= np.arange(nq)[:, None], sc, -np.inf)
        m_new = np.maximum(m, sc.max(axis=-1, keepdims=True))
        e = np.exp(sc - m_new)
        alpha = np.exp(m - m_new)
        s = s * alpha + e.sum(axis=-1, keepdims=True)
        o = o * alpha + e @ vb
        m = m_new
    return o / s
'''),
        "causal_strict": (["j <= i", "diagonal", "itself", "<"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    nq, nk = q.shape[-2], keys.shape[-2]
    m = np.full(q.shape[:-1] + (1,), -1e30, dtype=dtype)
    s = np.zeros(q.shape[:-1] + (1,), dtype=dtype)
    o = np.zeros(q.shape[:-1] + (values.shape[-1],), dtype=dtype)
    for start in range(0, nk, block):
        kb = keys[..., start:start + block, :]
        vb = values[..., start:start + block, :]
        sc = q @ np.swapaxes(kb, -1, -2)
        if causal:
            cols = start + np.arange(kb.shape[-2])
            sc = np.where(cols[None, :] < np.arange(nq)[:, None], sc, -np.inf)
        m_new = np.maximum(m, sc.max(axis=-1, keepdims=True))
        e = np.exp(sc - m_new)
        alpha = np.exp(m - m_new)
        s = s * alpha + e.sum(axis=-1, keepdims=True)
        o = o * alpha + e @ vb
        m = m_new
    return o / np.maximum(s, 1e-300)
'''),
        "no_max_subtraction": (["maximum", "overflow", "large scores"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    nq, nk = q.shape[-2], keys.shape[-2]
    s = np.zeros(q.shape[:-1] + (1,), dtype=dtype)
    o = np.zeros(q.shape[:-1] + (values.shape[-1],), dtype=dtype)
    for start in range(0, nk, block):
        kb = keys[..., start:start + block, :]
        vb = values[..., start:start + block, :]
        sc = q @ np.swapaxes(kb, -1, -2)
        if causal:
            cols = start + np.arange(kb.shape[-2])
            sc = np.where(cols[None, :] <= np.arange(nq)[:, None], sc, -np.inf)
        e = np.exp(sc)
        s = s + e.sum(axis=-1, keepdims=True)
        o = o + e @ vb
    return o / s
'''),
    },
    "grouped_query_attention": {
        "tile_instead_of_repeat": (["repeat", "tile", "h // ", "group", "neighbouring"], '''
def grouped_query_attention(queries, keys, values):
    g = queries.shape[-3] // keys.shape[-3]
    reps = (1,) * (keys.ndim - 3) + (g, 1, 1)
    return matrix_attention(queries, np.tile(keys, reps), np.tile(values, reps))
'''),
        "modulo_head": (["h // ", "modulo", "%", "group"], '''
def grouped_query_attention(queries, keys, values):
    n_heads, n_kv = queries.shape[-3], keys.shape[-3]
    idx = np.arange(n_heads) % n_kv
    return matrix_attention(queries, keys[..., idx, :, :], values[..., idx, :, :])
'''),
        "no_scale": (["sqrt", "scale", "d_k"], '''
def grouped_query_attention(queries, keys, values):
    g = queries.shape[-3] // keys.shape[-3]
    k = np.repeat(keys, g, axis=-3)
    v = np.repeat(values, g, axis=-3)
    s = queries @ np.swapaxes(k, -1, -2)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return (e / e.sum(axis=-1, keepdims=True)) @ v
'''),
        "repeat_wrong_axis": (["axis", "heads axis", "-3", "tokens"], '''
def grouped_query_attention(queries, keys, values):
    g = queries.shape[-3] // keys.shape[-3]
    k = np.repeat(keys, g, axis=0)
    v = np.repeat(values, g, axis=0)
    return matrix_attention(queries, k, v)
'''),
        "only_first_kv_head": (["group", "kv head", "h // ", "every"], '''
def grouped_query_attention(queries, keys, values):
    return matrix_attention(queries, keys[..., :1, :, :], values[..., :1, :, :])
'''),
    },
}

VARIANTS = {
    "online_softmax": {
        "running": '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf)
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n, block):
        b = scores[..., start:start + block]
        m_new = np.maximum(m, b.max(axis=-1, keepdims=True))
        s = s * np.exp(m - m_new) + np.exp(b - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(scores - m) / s
''',
        "split_list": '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    pieces = np.split(scores, list(range(block, n, block)), axis=-1)
    m = None
    s = None
    for b in pieces:
        bm = b.max(axis=-1, keepdims=True)
        if m is None:
            m, s = bm, np.exp(b - bm).sum(axis=-1, keepdims=True)
            continue
        m_new = np.maximum(m, bm)
        s = s * np.exp(m - m_new) + np.exp(b - m_new).sum(axis=-1, keepdims=True)
        m = m_new
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
    o = np.zeros(q.shape[:-1] + (values.shape[-1],), dtype=dtype)
    rows = np.arange(nq)[:, None]
    for start in range(0, nk, block):
        kb = keys[..., start:start + block, :]
        vb = values[..., start:start + block, :]
        sc = q @ np.swapaxes(kb, -1, -2)
        if causal:
            cols = start + np.arange(kb.shape[-2])
            sc = np.where(cols[None, :] <= rows, sc, -np.inf)
        m_new = np.maximum(m, sc.max(axis=-1, keepdims=True))
        safe = np.where(np.isfinite(m_new), m_new, 0.0)
        e = np.exp(sc - safe)
        alpha = np.exp(np.where(np.isfinite(m), m - safe, -np.inf))
        s = s * alpha + e.sum(axis=-1, keepdims=True)
        o = o * alpha + e @ vb
        m = m_new
    return (o / s).astype(dtype)
''',
    },
    "grouped_query_attention": {
        "repeat": '''
def grouped_query_attention(queries, keys, values):
    g = queries.shape[-3] // keys.shape[-3]
    return matrix_attention(queries, np.repeat(keys, g, axis=-3), np.repeat(values, g, axis=-3))
''',
        "reshape_groups": '''
def grouped_query_attention(queries, keys, values):
    *lead, h, nq, dk = queries.shape
    kvh = keys.shape[-3]
    q = queries.reshape(*lead, kvh, h // kvh, nq, dk)
    out = matrix_attention(q, keys[..., :, None, :, :], values[..., :, None, :, :])
    return out.reshape(*lead, h, nq, values.shape[-1])
''',
    },
}
