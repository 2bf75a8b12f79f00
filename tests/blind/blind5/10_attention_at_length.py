"""Blind set 5, notebook 10: Attention at length (online softmax, blocked attention, GQA). Written from notebooks/10_attention_at_length.ipynb only."""

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
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2], values.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    out = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k, -1, -2)
        if causal:
            cols = np.arange(start, start + k.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        safe = np.where(np.isinf(new_m), 0.0, new_m)
        p = np.exp(scores - safe)
        alpha = np.exp(np.where(np.isinf(m), -np.inf, m - safe))
        s = s * alpha + p.sum(axis=-1, keepdims=True)
        out = out * alpha + p @ v
        m = new_m
    return out / s
'''

MISTAKES = {
    "online_softmax": {
        "sum_not_rescaled": (["rescale", "running sum", "exp(m_old - m_new)"], _ONLINE.replace(
            "s = s * np.exp(m - new_m) + ", "s = s + ")),
        "final_uses_block_max": (["running maximum", "last block", "final"], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf)
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        block_m = chunk.max(axis=-1, keepdims=True)
        new_m = np.maximum(m, block_m)
        s = s * np.exp(m - new_m) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - block_m) / s
'''),
        "drops_last_partial_block": (["last block", "shorter", "remainder"], _ONLINE.replace(
            "for start in range(0, n, block):", "for start in range(0, n - n % block if n >= block else n, block):")),
        "max_starts_at_zero": (["-inf", "initial", "below 0"], _ONLINE.replace(
            "m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)",
            "m = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)")),
        "exp_without_max": (["overflow", "maximum", "subtract"], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    n = scores.shape[-1]
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n, block):
        s = s + np.exp(scores[..., start:start + block]).sum(axis=-1, keepdims=True)
    return np.exp(scores) / s
'''),
    },
    "blocked_attention": {
        "output_not_rescaled": (["rescale", "running output", "alpha"], _BLOCKED.replace(
            "out = out * alpha + p @ v", "out = out + p @ v")),
        "no_final_division": (["divide", "running sum", "normalis"], _BLOCKED.replace("return out / s", "return out")),
        "scale_missing": (["sqrt", "scale", "d_k"], _BLOCKED.replace("q = queries / keys.shape[-1] ** 0.5", "q = queries")),
        "causal_local_index": (["causal", "block offset", "start"], _BLOCKED.replace(
            "cols = np.arange(start, start + k.shape[-2])[None, :]", "cols = np.arange(k.shape[-2])[None, :]")),
        "causal_ignored": (["causal", "mask", "j <= i"], _BLOCKED.replace("        if causal:\n", "        if False:\n")),
    },
    "grouped_query_attention": {
        "tile_not_repeat": (["repeat", "tile", "h // group"], '''
def grouped_query_attention(queries, keys, values):
    g = queries.shape[-3] // keys.shape[-3]
    reps = (1,) * (keys.ndim - 3) + (g, 1, 1)
    return matrix_attention(queries, np.tile(keys, reps), np.tile(values, reps))
'''),
        "group_reshape_wrong_order": (["group", "reshape", "h // (n_heads // n_kv_heads)"], '''
def grouped_query_attention(queries, keys, values):
    *lead, h, n, d = queries.shape
    kv = keys.shape[-3]
    g = h // kv
    q = np.swapaxes(queries.reshape(*lead, g, kv, n, d), -4, -3)
    out = matrix_attention(q, keys[..., :, None, :, :], values[..., :, None, :, :])
    return np.swapaxes(out, -4, -3).reshape(*lead, h, n, values.shape[-1])
'''),
        "values_not_repeated": (["values", "repeat", "value heads"], '''
def grouped_query_attention(queries, keys, values):
    g = queries.shape[-3] // keys.shape[-3]
    k = np.repeat(keys, g, axis=-3)
    return matrix_attention(queries, k, np.tile(values, (1,) * (values.ndim - 3) + (g, 1, 1)))
'''),
        "scale_by_heads": (["sqrt", "d_k", "scale"], '''
def grouped_query_attention(queries, keys, values):
    g = queries.shape[-3] // keys.shape[-3]
    k = np.repeat(keys, g, axis=-3)
    v = np.repeat(values, g, axis=-3)
    s = queries @ np.swapaxes(k, -1, -2) / math.sqrt(queries.shape[-3])
    return scipy.special.softmax(s, axis=-1) @ v
'''),
    },
}

VARIANTS = {
    "online_softmax": {
        "running_max_sum": _ONLINE,
        "logaddexp": '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    log_s = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    for start in range(0, scores.shape[-1], block):
        chunk = scores[..., start:start + block]
        m = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        log_s = np.logaddexp(log_s, scipy.special.logsumexp(chunk, axis=-1, keepdims=True))
    return np.exp(scores - log_s)
''',
    },
    "blocked_attention": {
        "running": _BLOCKED,
        "inplace_exp": '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = (queries / keys.shape[-1] ** 0.5).astype(dtype)
    n_q, n_k = q.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2], values.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    out = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    for start in range(0, n_k, block):
        stop = min(start + block, n_k)
        if causal and start >= n_q:
            break
        scores = q @ np.swapaxes(keys[..., start:stop, :], -1, -2)
        if causal:
            allowed = np.arange(start, stop)[None, :] <= np.arange(n_q)[:, None]
            scores = np.where(allowed, scores, -np.inf)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        finite = np.isfinite(new_m)
        shift = np.where(finite, new_m, 0.0)
        scores -= shift
        np.exp(scores, out=scores)
        alpha = np.where(np.isfinite(m), np.exp(m - shift), 0.0)
        s = s * alpha + scores.sum(axis=-1, keepdims=True)
        out = out * alpha + scores @ values[..., start:stop, :]
        m = new_m
    return out / s
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
