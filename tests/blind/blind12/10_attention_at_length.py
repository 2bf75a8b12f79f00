"""Blind set 12, notebook 10: Attention at length. Written from notebooks/10_attention_at_length.ipynb only."""

MISTAKES = {
    "online_softmax": {
        "no_rescale_of_sum": (["rescal", "e^{m - m'}", "old maximum", "running sum"], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_m = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        s = s + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
'''),
        "no_running_max": (["overflow", "maximum", "running max", "inf"], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    s = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n, block):
        s = s + np.exp(scores[..., start:start + block]).sum(axis=-1, keepdims=True)
    return np.exp(scores) / s
'''),
        "block_max_not_running": (["running maximum", "block's own", "max(m", "largest seen"], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_m = chunk.max(axis=-1, keepdims=True)
        s = s * np.exp(m - new_m) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
'''),
        "last_block_dropped": (["last block", "shorter", "range", "n // block"], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, (n // block) * block, block):
        chunk = scores[..., start:start + block]
        new_m = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        s = s * np.exp(m - new_m) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
'''),
        "scale_factor_inverted": (["e^{m - m'}", "sign", "new - old", "rescal"], '''
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_m = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        s = s * np.exp(new_m - m) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
'''),
        "in_place_shift": (["in place", "change", "copy", "scores"], '''
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
        "block_local_mask": (["start", "true positions", "first block", "offset"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    q = queries / keys.shape[-1] ** 0.5
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    o = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k_b = keys[..., start:start + block, :]
        v_b = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_b, -1, -2)
        if causal:
            cols = np.arange(k_b.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        factor = np.exp(m - new_m)
        p = np.exp(scores - new_m)
        s = s * factor + p.sum(axis=-1, keepdims=True)
        o = o * factor + p @ v_b
        m = new_m
    return o / s
'''),
        "output_not_rescaled": (["rescal", "running output", "factor", "e^{m - m'}"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    q = queries / keys.shape[-1] ** 0.5
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    o = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k_b = keys[..., start:start + block, :]
        v_b = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_b, -1, -2)
        if causal:
            cols = start + np.arange(k_b.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        factor = np.exp(m - new_m)
        p = np.exp(scores - new_m)
        s = s * factor + p.sum(axis=-1, keepdims=True)
        o = o + p @ v_b
        m = new_m
    return o / s
'''),
        "no_final_division": (["divide", "o / s", "running sum", "normalis"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    q = queries / keys.shape[-1] ** 0.5
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    o = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k_b = keys[..., start:start + block, :]
        v_b = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_b, -1, -2)
        if causal:
            cols = start + np.arange(k_b.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        factor = np.exp(m - new_m)
        p = np.exp(scores - new_m)
        s = s * factor + p.sum(axis=-1, keepdims=True)
        o = o * factor + p @ v_b
        m = new_m
    return o
'''),
        "unscaled": (["sqrt", "d_k", "scale"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    q = queries
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    o = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k_b = keys[..., start:start + block, :]
        v_b = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_b, -1, -2)
        if causal:
            cols = start + np.arange(k_b.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        factor = np.exp(m - new_m)
        p = np.exp(scores - new_m)
        s = s * factor + p.sum(axis=-1, keepdims=True)
        o = o * factor + p @ v_b
        m = new_m
    return o / s
'''),
        "last_block_dropped": (["last block", "shorter", "range", "n // block"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    q = queries / keys.shape[-1] ** 0.5
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    o = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k - n_k % block, block):
        k_b = keys[..., start:start + block, :]
        v_b = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_b, -1, -2)
        if causal:
            cols = start + np.arange(k_b.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        factor = np.exp(m - new_m)
        p = np.exp(scores - new_m)
        s = s * factor + p.sum(axis=-1, keepdims=True)
        o = o * factor + p @ v_b
        m = new_m
    return o / s
'''),
        "per_block_softmax": (["per block", "running maximum", "whole row", "normalis"], '''
import scipy.special
def blocked_attention(queries, keys, values, block, causal=False):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    out = 0
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k_b = keys[..., start:start + block, :]
        scores = queries @ np.swapaxes(k_b, -1, -2) / keys.shape[-1] ** 0.5
        if causal:
            scores = np.where(start + np.arange(k_b.shape[-2])[None, :] <= rows, scores, -np.inf)
        out = out + np.nan_to_num(scipy.special.softmax(scores, axis=-1)) @ values[..., start:start + block, :]
    return out / ((n_k + block - 1) // block)
'''),
        "causal_strict": (["j <= i", "diagonal", "itself", "strict"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    q = queries / keys.shape[-1] ** 0.5
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    o = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k_b = keys[..., start:start + block, :]
        v_b = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_b, -1, -2)
        if causal:
            cols = start + np.arange(k_b.shape[-2])[None, :]
            scores = np.where(cols < rows, scores, -np.inf)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        factor = np.exp(m - new_m)
        p = np.exp(scores - new_m)
        s = s * factor + p.sum(axis=-1, keepdims=True)
        o = o * factor + p @ v_b
        m = new_m
    return o / s
'''),
    },
    "grouped_query_attention": {
        "tile_interleaved": (["np.tile", "np.repeat", "h // ", "group"], '''
def grouped_query_attention(queries, keys, values):
    n_heads, n_kv = queries.shape[-3], keys.shape[-3]
    group = n_heads // n_kv
    reps = (1,) * (keys.ndim - 3) + (group, 1, 1)
    keys = np.tile(keys, reps)
    values = np.tile(values, reps)
    return matrix_attention(queries, keys, values)
'''),
        "modulo_mapping": (["h // ", "modulo", "%", "neighbouring"], '''
def grouped_query_attention(queries, keys, values):
    n_heads, n_kv = queries.shape[-3], keys.shape[-3]
    kv_of = np.arange(n_heads) % n_kv
    return matrix_attention(queries, keys[..., kv_of, :, :], values[..., kv_of, :, :])
'''),
        "repeat_wrong_axis": (["axis", "heads axis", "-3", "tokens"], '''
def grouped_query_attention(queries, keys, values):
    n_heads, n_kv = queries.shape[-3], keys.shape[-3]
    group = n_heads // n_kv
    keys = np.repeat(keys, group, axis=-2)
    values = np.repeat(values, group, axis=-2)
    return matrix_attention(queries, keys, values)
'''),
        "repeat_by_n_kv": (["n_heads // n_kv_heads", "group size", "repeat", "count"], '''
def grouped_query_attention(queries, keys, values):
    n_heads, n_kv = queries.shape[-3], keys.shape[-3]
    group = n_heads // n_kv
    keys = np.repeat(keys, n_kv, axis=-3)
    values = np.repeat(values, n_kv, axis=-3)
    return matrix_attention(queries, keys, values)
'''),
        "reshape_wrong_order": (["reshape", "group", "order", "neighbouring"], '''
def grouped_query_attention(queries, keys, values):
    *lead, n_heads, n_q, d_k = queries.shape
    n_kv = keys.shape[-3]
    group = n_heads // n_kv
    q = np.swapaxes(queries.reshape(*lead, group, n_kv, n_q, d_k), -4, -3).reshape(*lead, n_kv, group * n_q, d_k)
    out = matrix_attention(q, keys, values).reshape(*lead, n_kv, group, n_q, values.shape[-1])
    return np.swapaxes(out, -4, -3).reshape(*lead, n_heads, n_q, values.shape[-1])
'''),
        "first_kv_head_only": (["every key/value head", "mqa", "first head", "group"], '''
def grouped_query_attention(queries, keys, values):
    return matrix_attention(queries, keys[..., :1, :, :], values[..., :1, :, :])
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
        chunk = scores[..., start:start + block]
        new_m = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        s = s * np.exp(m - new_m) + np.exp(chunk - new_m).sum(axis=-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s
''',
        "while_loop_float": '''
def online_softmax(scores, block):
    x = np.asarray(scores)
    lead = x.shape[:-1]
    m = np.full(lead + (1,), -np.inf)
    s = np.zeros(lead + (1,))
    start = 0
    while start < x.shape[-1]:
        b = x[..., start:start + block]
        m_b = np.max(b, axis=-1, keepdims=True)
        m_new = np.where(m > m_b, m, m_b)
        s = s * np.exp(m - m_new) + np.sum(np.exp(b - m_new), axis=-1, keepdims=True)
        m = m_new
        start += block
    return (np.exp(x - m) / s).astype(np.result_type(x.dtype, np.float32))
''',
    },
    "blocked_attention": {
        "running_triple": '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    q = queries / keys.shape[-1] ** 0.5
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    o = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        k_b = keys[..., start:start + block, :]
        v_b = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k_b, -1, -2)
        if causal:
            cols = start + np.arange(k_b.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        factor = np.exp(m - new_m)
        p = np.exp(scores - new_m)
        s = s * factor + p.sum(axis=-1, keepdims=True)
        o = o * factor + p @ v_b
        m = new_m
    return o / s
''',
        "einsum_inplace": '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    scale = keys.shape[-1] ** 0.5
    q = (queries / scale).astype(dtype)
    n_q, n_k, d_v = q.shape[-2], keys.shape[-2], values.shape[-1]
    shape = q.shape[:-1]
    m = np.full(shape + (1,), -np.inf, dtype=dtype)
    s = np.zeros(shape + (1,), dtype=dtype)
    o = np.zeros(shape + (d_v,), dtype=dtype)
    q_pos = np.arange(n_q)
    for start in range(0, n_k, block):
        stop = min(start + block, n_k)
        scores = np.einsum("...qd,...kd->...qk", q, keys[..., start:stop, :]).astype(dtype)
        if causal:
            blocked = np.arange(start, stop)[None, :] > q_pos[:, None]
            scores[..., blocked] = -np.inf
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        alpha = np.exp(m - m_new)
        scores -= m_new
        np.exp(scores, out=scores)
        s = alpha * s + scores.sum(axis=-1, keepdims=True)
        o = alpha * o + np.einsum("...qk,...kv->...qv", scores, values[..., start:stop, :])
        m = m_new
    return o / s
''',
    },
    "grouped_query_attention": {
        "repeat_kv": '''
def grouped_query_attention(queries, keys, values):
    n_heads, n_kv = queries.shape[-3], keys.shape[-3]
    group = n_heads // n_kv
    keys = np.repeat(keys, group, axis=-3)
    values = np.repeat(values, group, axis=-3)
    return matrix_attention(queries, keys, values)
''',
        "reshape_groups": '''
def grouped_query_attention(queries, keys, values):
    *lead, n_heads, n_q, d_k = queries.shape
    n_kv = keys.shape[-3]
    group = n_heads // n_kv
    q = queries.reshape(*lead, n_kv, group * n_q, d_k)
    out = matrix_attention(q, keys, values)
    return out.reshape(*lead, n_heads, n_q, values.shape[-1])
''',
    },
}
