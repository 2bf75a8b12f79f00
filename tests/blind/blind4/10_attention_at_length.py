"""Blind set 4, notebook 10: Attention at length. Written from notebooks/10_attention_at_length.ipynb only."""

MISTAKES = {
    "online_softmax": {
        "sum_not_rescaled": (['rescale', 'running sum', 'exp(m_old - m_new)', 'correction'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    shape = scores.shape[:-1] + (1,)
    m = np.full(shape, -np.inf, dtype=scores.dtype)
    s = np.zeros(shape, dtype=scores.dtype)
    for start in range(0, scores.shape[-1], block):
        x = scores[..., start:start + block]
        new_m = np.maximum(m, x.max(axis=-1, keepdims=True))
        s = s + np.exp(x - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
'''),
        "rescale_sign": (['sign', 'exp(m_old - m_new)', 'rescale', 'overflow'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    shape = scores.shape[:-1] + (1,)
    m = np.full(shape, -np.inf, dtype=scores.dtype)
    s = np.zeros(shape, dtype=scores.dtype)
    for start in range(0, scores.shape[-1], block):
        x = scores[..., start:start + block]
        new_m = np.maximum(m, x.max(axis=-1, keepdims=True))
        s = s * np.exp(new_m - m) + np.exp(x - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
'''),
        "drops_last_block": (['last block', 'shorter', 'remainder', 'range'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    shape = scores.shape[:-1] + (1,)
    m = np.full(shape, -np.inf, dtype=scores.dtype)
    s = np.zeros(shape, dtype=scores.dtype)
    for start in range(0, scores.shape[-1] - block + 1, block):
        x = scores[..., start:start + block]
        new_m = np.maximum(m, x.max(axis=-1, keepdims=True))
        s = s * np.exp(m - new_m) + np.exp(x - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
'''),
        "max_of_block_only": (['running maximum', 'np.maximum', 'previous', 'max'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    shape = scores.shape[:-1] + (1,)
    m = np.full(shape, -np.inf, dtype=scores.dtype)
    s = np.zeros(shape, dtype=scores.dtype)
    for start in range(0, scores.shape[-1], block):
        x = scores[..., start:start + block]
        new_m = x.max(axis=-1, keepdims=True)
        s = s * np.exp(m - new_m) + np.exp(x - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
'''),
        "global_max_all_rows": (['row', 'axis', 'each row', 'global'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    shape = scores.shape[:-1] + (1,)
    m = np.full(shape, -np.inf, dtype=scores.dtype)
    s = np.zeros(shape, dtype=scores.dtype)
    for start in range(0, scores.shape[-1], block):
        x = scores[..., start:start + block]
        new_m = np.maximum(m, x.max())
        s = s * np.exp(m - new_m) + np.exp(x - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
'''),
        "final_uses_block_max": (['final', 'm', 'running maximum', 'last block'], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    shape = scores.shape[:-1] + (1,)
    m = np.full(shape, -np.inf, dtype=scores.dtype)
    s = np.zeros(shape, dtype=scores.dtype)
    for start in range(0, scores.shape[-1], block):
        x = scores[..., start:start + block]
        new_m = np.maximum(m, x.max(axis=-1, keepdims=True))
        s = s * np.exp(m - new_m) + np.exp(x - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - scores[..., -1:]) / s
'''),
    },
    "blocked_attention": {
        "output_not_rescaled": (['rescale', 'running output', 'correction', 'alpha'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_q, n_k = q.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2], values.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    out = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k_b = keys[..., start:start + block, :]
        v_b = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_b, -1, -2)
        if causal:
            cols = np.arange(start, start + k_b.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(new_m), 0.0, new_m)
        alpha = np.exp(m - safe)
        p = np.exp(scores - safe)
        s = s * alpha + p.sum(axis=-1, keepdims=True)
        out = out + p @ v_b
        m = new_m
    return out / s
'''),
        "no_final_division": (['divide', 'running sum', 'normalis', 'sum'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_q, n_k = q.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2], values.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    out = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k_b = keys[..., start:start + block, :]
        v_b = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_b, -1, -2)
        if causal:
            cols = np.arange(start, start + k_b.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(new_m), 0.0, new_m)
        alpha = np.exp(m - safe)
        p = np.exp(scores - safe)
        s = s * alpha + p.sum(axis=-1, keepdims=True)
        out = out * alpha + p @ v_b
        m = new_m
    return out
'''),
        "causal_lower_right": (['top-left', 'is_causal', 'j <= i', 'corner'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_q, n_k = q.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2], values.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    out = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k_b = keys[..., start:start + block, :]
        v_b = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_b, -1, -2)
        if causal:
            cols = np.arange(start, start + k_b.shape[-2])[None, :]
            scores = np.where(cols <= rows + (n_k - n_q), scores, -np.inf)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(new_m), 0.0, new_m)
        alpha = np.exp(m - safe)
        p = np.exp(scores - safe)
        s = s * alpha + p.sum(axis=-1, keepdims=True)
        out = out * alpha + p @ v_b
        m = new_m
    return out / s
'''),
        "causal_strict": (['diagonal', 'j <= i', 'itself', 'strict'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_q, n_k = q.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2], values.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    out = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k_b = keys[..., start:start + block, :]
        v_b = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_b, -1, -2)
        if causal:
            cols = np.arange(start, start + k_b.shape[-2])[None, :]
            scores = np.where(cols < rows, scores, -np.inf)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(new_m), 0.0, new_m)
        alpha = np.exp(m - safe)
        p = np.exp(scores - safe)
        s = s * alpha + p.sum(axis=-1, keepdims=True)
        out = out * alpha + p @ v_b
        m = new_m
    return out / s
'''),
        "no_scaling": (['sqrt', 'scale', 'd_k'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries
    n_q, n_k = q.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2], values.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    out = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k_b = keys[..., start:start + block, :]
        v_b = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_b, -1, -2)
        if causal:
            cols = np.arange(start, start + k_b.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(new_m), 0.0, new_m)
        alpha = np.exp(m - safe)
        p = np.exp(scores - safe)
        s = s * alpha + p.sum(axis=-1, keepdims=True)
        out = out * alpha + p @ v_b
        m = new_m
    return out / s
'''),
        "drops_last_block": (['last block', 'shorter', 'remainder', 'range'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_q, n_k = q.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2], values.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    out = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k - block + 1, block):
        k_b = keys[..., start:start + block, :]
        v_b = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_b, -1, -2)
        if causal:
            cols = np.arange(start, start + k_b.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(new_m), 0.0, new_m)
        alpha = np.exp(m - safe)
        p = np.exp(scores - safe)
        s = s * alpha + p.sum(axis=-1, keepdims=True)
        out = out * alpha + p @ v_b
        m = new_m
    return out / s
'''),
        "causal_ignored": (['causal', 'mask', 'future'], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_q, n_k = q.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2], values.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    out = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k_b = keys[..., start:start + block, :]
        v_b = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_b, -1, -2)
        if False:
            cols = np.arange(start, start + k_b.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(new_m), 0.0, new_m)
        alpha = np.exp(m - safe)
        p = np.exp(scores - safe)
        s = s * alpha + p.sum(axis=-1, keepdims=True)
        out = out * alpha + p @ v_b
        m = new_m
    return out / s
'''),
    },
    "grouped_query_attention": {
        "tile_not_repeat": (['repeat', 'tile', 'h // group', 'order'], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    keys = np.tile(keys, (group, 1, 1))
    values = np.tile(values, (group, 1, 1))
    return matrix_attention(queries, keys, values)
'''),
        "repeat_tokens_axis": (['axis', 'heads axis', '-3', 'tokens'], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    keys = np.repeat(keys, group, axis=-2)
    values = np.repeat(values, group, axis=-2)
    return matrix_attention(queries, keys, values)
'''),
        "group_reshape_wrong_order": (['group', 'reshape', 'h // group', 'order'], '''
def grouped_query_attention(queries, keys, values):
    *lead, n_heads, n_q, d_k = queries.shape
    n_kv = keys.shape[-3]
    q = queries.reshape(*lead, n_heads // n_kv, n_kv, n_q, d_k)
    out = matrix_attention(q, keys, values)
    return out.reshape(*lead, n_heads, n_q, values.shape[-1])
'''),
        "values_not_repeated": (['values', 'repeat', 'both'], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    keys = np.repeat(keys, group, axis=-3)
    return matrix_attention(queries, keys, values)
'''),
        "scale_by_all_heads": (['d_k', 'sqrt', 'scale', 'heads'], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    keys = np.repeat(keys, group, axis=-3)
    values = np.repeat(values, group, axis=-3)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1] * queries.shape[-3])
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    return (w / w.sum(axis=-1, keepdims=True)) @ values
'''),
    },
}

VARIANTS = {
    "online_softmax": {
        "running": '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    shape = scores.shape[:-1] + (1,)
    m = np.full(shape, -np.inf, dtype=scores.dtype)
    s = np.zeros(shape, dtype=scores.dtype)
    for start in range(0, scores.shape[-1], block):
        x = scores[..., start:start + block]
        new_m = np.maximum(m, x.max(axis=-1, keepdims=True))
        s = s * np.exp(m - new_m) + np.exp(x - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
''',
        "logaddexp": '''
def online_softmax(scores, block):
    x = np.asarray(scores, dtype=float)
    log_total = np.full(x.shape[:-1] + (1,), -np.inf)
    start = 0
    while start < x.shape[-1]:
        chunk = x[..., start:start + block]
        c_max = chunk.max(axis=-1, keepdims=True)
        log_total = np.logaddexp(log_total, c_max + np.log(np.exp(chunk - c_max).sum(axis=-1, keepdims=True)))
        start += block
    return np.exp(x - log_total).astype(np.asarray(scores).dtype)
''',
    },
    "blocked_attention": {
        "running": '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_q, n_k = q.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2], values.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    out = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k_b = keys[..., start:start + block, :]
        v_b = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_b, -1, -2)
        if causal:
            cols = np.arange(start, start + k_b.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(new_m), 0.0, new_m)
        alpha = np.exp(m - safe)
        p = np.exp(scores - safe)
        s = s * alpha + p.sum(axis=-1, keepdims=True)
        out = out * alpha + p @ v_b
        m = new_m
    return out / s
''',
        "per_block_scores_inplace": '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = (queries / keys.shape[-1] ** 0.5).astype(dtype)
    n_q, n_k, d_v = q.shape[-2], keys.shape[-2], values.shape[-1]
    lead = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2])
    run_max = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    run_sum = np.zeros(lead + (n_q, 1), dtype=dtype)
    acc = np.zeros(lead + (n_q, d_v), dtype=dtype)
    i = np.arange(n_q)[:, None]
    start = 0
    while start < n_k:
        stop = min(start + block, n_k)
        scores = np.matmul(q, np.swapaxes(keys[..., start:stop, :], -1, -2))
        if causal:
            scores[..., np.arange(start, stop)[None, :] > i] = -np.inf
        block_max = np.maximum(run_max, scores.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(block_max), block_max, 0.0)
        scale_old = np.exp(run_max - shift)
        scores -= shift
        np.exp(scores, out=scores)
        run_sum = run_sum * scale_old + scores.sum(axis=-1, keepdims=True)
        acc = acc * scale_old + scores @ values[..., start:stop, :]
        run_max = block_max
        start = stop
    return acc / run_sum
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
        "grouped_queries_einsum": '''
def grouped_query_attention(queries, keys, values):
    *lead, n_heads, n_q, d_k = queries.shape
    n_kv = keys.shape[-3]
    g = n_heads // n_kv
    q = queries.reshape(*lead, n_kv, g, n_q, d_k)
    scores = np.einsum("...kgqd,...knd->...kgqn", q, keys) / np.sqrt(d_k)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    out = np.einsum("...kgqn,...knv->...kgqv", w, values)
    return out.reshape(*lead, n_heads, n_q, values.shape[-1])
''',
    },
}
