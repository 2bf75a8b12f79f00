"""Blind set 7, notebook 10: Attention at length. Written from notebooks/10_attention_at_length.ipynb only."""

_ONLINE = '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_m = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        s = s * np.exp(m - new_m) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
'''

_BLOCKED = '''
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
        kb = keys[..., start:start + block, :]
        vb = values[..., start:start + block, :]
        scores = q @ np.swapaxes(kb, -1, -2)
        if causal:
            cols = np.arange(start, start + kb.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        safe_m = np.where(np.isfinite(new_m), new_m, 0)
        alpha = np.exp(m - safe_m)
        p = np.exp(scores - safe_m)
        s = s * alpha + p.sum(axis=-1, keepdims=True)
        out = out * alpha + p @ vb
        m = new_m
    return out / s
'''


def _r(base, old, new):
    assert old in base, old
    return base.replace(old, new)


MISTAKES = {
    "online_softmax": {
        "sum_not_rescaled": (["rescal", "running sum", "exp(m", "old maximum"],
                             _r(_ONLINE, "s = s * np.exp(m - new_m) + ", "s = s + ")),
        "rescale_sign_flipped": (["sign", "exp(m - new_m)", "rescal", "overflow"],
                                 _r(_ONLINE, "np.exp(m - new_m)", "np.exp(new_m - m)")),
        "last_block_skipped": (["last block", "shorter", "range", "off by one"],
                               _r(_ONLINE, "range(0, n, block)", "range(0, n - block + 1, block)")),
        "first_block_max_only": (["running maximum", "max", "every block", "update"],
                                 _r(_ONLINE, "new_m = np.maximum(m, chunk.max(axis=-1, keepdims=True))",
                                    "new_m = m if start else chunk.max(axis=-1, keepdims=True)")),
        "max_over_all_rows": (["row", "axis", "keepdims", "each row"],
                              _r(_ONLINE, "new_m = np.maximum(m, chunk.max(axis=-1, keepdims=True))",
                                 "new_m = np.maximum(m, chunk.max())")),
        "in_place_shift": (["in place", "change", "modif", "copy"], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_m = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        s = s * np.exp(m - new_m) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    scores -= m
    np.exp(scores, out=scores)
    return scores / s
'''),
    },
    "blocked_attention": {
        "causal_local_columns": (["start", "true positions", "block's own", "first block", "columns"],
                                 _r(_BLOCKED, "cols = np.arange(start, start + kb.shape[-2])[None, :]",
                                    "cols = np.arange(kb.shape[-2])[None, :]")),
        "output_not_rescaled": (["rescal", "running output", "alpha", "exp(m"],
                                _r(_BLOCKED, "out = out * alpha + p @ vb", "out = out + p @ vb")),
        "no_scaling": (["sqrt", "scale", "d_k"],
                       _r(_BLOCKED, "q = queries / keys.shape[-1] ** 0.5", "q = queries")),
        "causal_ignored": (["causal", "mask", "future"],
                           _r(_BLOCKED, "        if causal:\n", "        if False:\n")),
        "strict_causal": (["diagonal", "j <= i", "itself", "strict"],
                          _r(_BLOCKED, "np.where(cols <= rows, scores, -np.inf)", "np.where(cols < rows, scores, -np.inf)")),
        "normalise_each_block": (["normalis", "each block", "running sum", "end"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_q, n_k = q.shape[-2], keys.shape[-2]
    out = np.zeros(q.shape[:-2] + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    n_blocks = 0
    for start in range(0, n_k, block):
        kb = keys[..., start:start + block, :]
        vb = values[..., start:start + block, :]
        scores = q @ np.swapaxes(kb, -1, -2)
        if causal:
            cols = np.arange(start, start + kb.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        mx = scores.max(axis=-1, keepdims=True)
        mx = np.where(np.isfinite(mx), mx, 0)
        p = np.exp(scores - mx)
        out = out + (p / np.maximum(p.sum(axis=-1, keepdims=True), 1e-300)) @ vb
        n_blocks += 1
    return out / n_blocks
'''),
    },
    "grouped_query_attention": {
        "tile_not_repeat": (["repeat", "tile", "neighbouring", "h // group", "group"], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    reps = (1,) * (keys.ndim - 3) + (group, 1, 1)
    return matrix_attention(queries, np.tile(keys, reps), np.tile(values, reps))
'''),
        "repeat_tokens_axis": (["axis", "heads axis", "-3", "tokens"], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    k = np.repeat(keys, group, axis=-2)
    v = np.repeat(values, group, axis=-2)
    return matrix_attention(queries, k, v)
'''),
        "reshape_group_order": (["reshape", "group", "order", "n_kv_heads, group"], '''
def grouped_query_attention(queries, keys, values):
    *lead, h, n_q, d = queries.shape
    n_kv = keys.shape[-3]
    g = h // n_kv
    q = np.swapaxes(queries.reshape(*lead, g, n_kv, n_q, d), -4, -3)
    out = matrix_attention(q, keys[..., :, None, :, :], values[..., :, None, :, :])
    out = np.swapaxes(out, -4, -3)
    return out.reshape(*lead, h, n_q, values.shape[-1])
'''),
        "first_kv_head_only": (["kv head", "key/value head", "h // ", "group"], '''
def grouped_query_attention(queries, keys, values):
    return matrix_attention(queries, keys[..., :1, :, :], values[..., :1, :, :])
'''),
        "group_from_kv_modulo": (["h // group", "modulo", "%", "neighbouring"], '''
def grouped_query_attention(queries, keys, values):
    h, n_kv = queries.shape[-3], keys.shape[-3]
    idx = np.arange(h) % n_kv
    return matrix_attention(queries, keys[..., idx, :, :], values[..., idx, :, :])
'''),
        "causal_added": (["mask", "causal", "no mask"], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    return matrix_attention(queries, np.repeat(keys, group, axis=-3), np.repeat(values, group, axis=-3), causal=True)
'''),
    },
}

VARIANTS = {
    "online_softmax": {
        "running_max_sum": _ONLINE,
        "list_of_blocks": '''
def online_softmax(scores, block):
    x = np.array(scores, copy=True)
    m = None
    s = None
    for chunk in np.split(x, range(block, x.shape[-1], block), axis=-1):
        bm = chunk.max(axis=-1, keepdims=True)
        if m is None:
            m, s = bm, np.exp(chunk - bm).sum(axis=-1, keepdims=True)
        else:
            new_m = np.maximum(m, bm)
            s = s * np.exp(m - new_m) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
            m = new_m
    return np.exp(x - m) / s
''',
    },
    "blocked_attention": {
        "running_stats": _BLOCKED,
        "in_place_exp": '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = (queries / keys.shape[-1] ** 0.5).astype(dtype)
    n_q, n_k, d_v = q.shape[-2], keys.shape[-2], values.shape[-1]
    m = np.full(q.shape[:-2] + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros_like(m)
    out = np.zeros(q.shape[:-2] + (n_q, d_v), dtype=dtype)
    i = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        stop = min(start + block, n_k)
        scores = np.matmul(q, np.swapaxes(keys[..., start:stop, :], -1, -2))
        if causal:
            scores[..., np.arange(start, stop)[None, :] > i] = -np.inf
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        shift = np.where(new_m == -np.inf, 0, new_m)
        correction = np.exp(m - shift)
        scores -= shift
        np.exp(scores, out=scores)
        s = s * correction + scores.sum(axis=-1, keepdims=True)
        out = out * correction + scores @ values[..., start:stop, :]
        m = new_m
    return out / s
''',
    },
    "grouped_query_attention": {
        "repeat_heads": '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    return matrix_attention(queries, np.repeat(keys, group, axis=-3), np.repeat(values, group, axis=-3))
''',
        "reshape_groups": '''
def grouped_query_attention(queries, keys, values):
    *lead, h, n_q, d = queries.shape
    n_kv = keys.shape[-3]
    q = queries.reshape(*lead, n_kv, h // n_kv, n_q, d)
    out = matrix_attention(q, keys[..., :, None, :, :], values[..., :, None, :, :])
    return out.reshape(*lead, h, n_q, values.shape[-1])
''',
    },
}
