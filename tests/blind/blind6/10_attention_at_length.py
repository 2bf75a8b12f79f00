"""Blind set 6, notebook 10: Attention at length (online softmax, blocked attention, grouped-query attention). Written from notebooks/10_attention_at_length.ipynb only."""

_ONLINE = '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    dtype = scores.dtype
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=dtype)
    s = np.zeros(scores.shape[:-1] + (1,), dtype=dtype)
    for start in range(0, n, block):
        b = scores[..., start:start + block]
        m_new = np.maximum(m, b.max(axis=-1, keepdims=True))
        s = s * np.exp(m - m_new) + np.exp(b - m_new).sum(axis=-1, keepdims=True)
        m = m_new
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
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        sc = q @ np.swapaxes(k, -1, -2)
        if causal:
            cols = np.arange(start, start + k.shape[-2])[None, :]
            sc = np.where(cols <= rows, sc, -np.inf)
        m_new = np.maximum(m, sc.max(axis=-1, keepdims=True))
        safe = np.where(np.isfinite(m_new), m_new, 0).astype(dtype)
        factor = np.exp(m - safe)
        p = np.exp(sc - safe)
        s = s * factor + p.sum(axis=-1, keepdims=True)
        out = out * factor + p @ v
        m = m_new
    return (out / s).astype(dtype)
'''


def _edit(src, *pairs):
    for old, new in pairs:
        assert old in src, old
        src = src.replace(old, new)
    return src


MISTAKES = {
    "online_softmax": {
        "no_rescale": (["rescale", "e^{m - m'}", "running sum", "old maximum"], _edit(_ONLINE,
            ("s = s * np.exp(m - m_new) + ", "s = s + "))),
        "rescale_inverted": (["rescale", "sign", "m - m'", "factor"], _edit(_ONLINE,
            ("np.exp(m - m_new)", "np.exp(np.where(np.isfinite(m), m_new - m, 0))"))),
        "skips_last_block": (["last block", "shorter", "range", "divide n"], _edit(_ONLINE,
            ("range(0, n, block)", "range(0, max(n - block + 1, 1), block)"))),
        "not_normalised": (["divide", "sum", "normalis", "sum to 1"], _edit(_ONLINE,
            ("return np.exp(scores - m) / s", "return np.exp(scores - m)"))),
        "in_place": (["in place", "modif", "copy", "change"], _edit(_ONLINE,
            ("    return np.exp(scores - m) / s\n", "    scores -= m\n    np.exp(scores, out=scores)\n    scores /= s\n    return scores\n"))),
        "max_starts_at_zero": (["-inf", "initial", "start", "m = 0", "far below"], _edit(_ONLINE,
            ("np.full(scores.shape[:-1] + (1,), -np.inf, dtype=dtype)", "np.zeros(scores.shape[:-1] + (1,), dtype=dtype)"))),
    },
    "blocked_attention": {
        "output_not_rescaled": (["rescale", "running output", "factor", "old maximum"], _edit(_BLOCKED,
            ("out = out * factor + p @ v", "out = out + p @ v"))),
        "not_normalised": (["divide", "sum", "normalis", "running sum"], _edit(_BLOCKED,
            ("return (out / s).astype(dtype)", "return out.astype(dtype)"))),
        "local_causal_index": (["offset", "block", "global", "start", "position"], _edit(_BLOCKED,
            ("np.arange(start, start + k.shape[-2])[None, :]", "np.arange(k.shape[-2])[None, :]"))),
        "no_scaling": (["sqrt", "scale", "d_k"], _edit(_BLOCKED,
            ("q = queries / keys.shape[-1] ** 0.5", "q = queries"))),
        "skips_last_block": (["last block", "shorter", "range", "divide n_keys"], _edit(_BLOCKED,
            ("range(0, n_k, block)", "range(0, max(n_k - block + 1, 1), block)"))),
        "lower_right_causal": (["upper-left", "is_causal", "j <= i", "lower-right"], _edit(_BLOCKED,
            ("sc = np.where(cols <= rows, sc, -np.inf)", "sc = np.where(cols <= rows + (n_k - n_q), sc, -np.inf)"))),
    },
    "grouped_query_attention": {
        "tile": (["tile", "repeat", "h // group", "neighbouring", "interleav"], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    reps = (1,) * (keys.ndim - 3) + (group, 1, 1)
    return matrix_attention(queries, np.tile(keys, reps), np.tile(values, reps))
'''),
        "repeat_axis0": (["axis", "-3", "heads axis", "batch"], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    return matrix_attention(queries, np.repeat(keys, group, axis=0), np.repeat(values, group, axis=0))
'''),
        "repeat_by_kv_heads": (["group", "n_heads // n_kv_heads", "repeat", "how many"], '''
def grouped_query_attention(queries, keys, values):
    n_kv = keys.shape[-3]
    return matrix_attention(queries, np.repeat(keys, n_kv, axis=-3), np.repeat(values, n_kv, axis=-3))
'''),
        "group_major_reshape": (["reshape", "groups", "order", "neighbouring"], '''
def grouped_query_attention(queries, keys, values):
    *lead, n_heads, n_q, d_k = queries.shape
    n_kv = keys.shape[-3]
    group = n_heads // n_kv
    q = queries.reshape(*lead, group, n_kv, n_q, d_k)
    out = matrix_attention(q, keys[..., None, :, :, :], values[..., None, :, :, :])
    return out.reshape(*lead, n_heads, n_q, values.shape[-1])
'''),
        "causal_mask": (["mask", "causal", "no mask"], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    return matrix_attention(queries, np.repeat(keys, group, axis=-3), np.repeat(values, group, axis=-3),
                            causal=True)
'''),
        "no_scaling": (["sqrt", "scale", "d_k"], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    k = np.repeat(keys, group, axis=-3)
    v = np.repeat(values, group, axis=-3)
    w = scipy.special.softmax(queries @ np.swapaxes(k, -1, -2), axis=-1)
    return w @ v
'''),
    },
}

VARIANTS = {
    "online_softmax": {
        "running": _ONLINE,
        "list_of_blocks": '''
def online_softmax(scores, block):
    x = np.array(scores, copy=True)
    m = np.full(x.shape[:-1] + (1,), -np.inf, dtype=x.dtype)
    s = np.zeros_like(m)
    for b in np.array_split(x, range(block, x.shape[-1], block), axis=-1):
        block_max = np.max(b, axis=-1, keepdims=True)
        new = np.maximum(m, block_max)
        s = s * np.exp(m - new) + np.sum(np.exp(b - new), axis=-1, keepdims=True)
        m = new
    return np.exp(x - m) / s
''',
    },
    "blocked_attention": {
        "running": _BLOCKED,
        "in_place_exp": '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = (queries / keys.shape[-1] ** 0.5).astype(dtype)
    n_q, n_k, d_v = q.shape[-2], keys.shape[-2], values.shape[-1]
    shape = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2], values.shape[:-2])
    m = np.full(shape + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(shape + (n_q, 1), dtype=dtype)
    acc = np.zeros(shape + (n_q, d_v), dtype=dtype)
    i = np.arange(n_q)[:, None]
    for start in range(0, n_k, block):
        stop = min(start + block, n_k)
        scores = q @ np.swapaxes(keys[..., start:stop, :], -1, -2)
        if causal:
            scores = np.where(np.arange(start, stop)[None, :] > i, -np.inf, scores)
        new_max = np.maximum(m, scores.max(axis=-1, keepdims=True))
        new_max = np.where(new_max == -np.inf, 0, new_max).astype(dtype)
        scale = np.exp(m - new_max)
        scores -= new_max
        np.exp(scores, out=scores)
        s = s * scale + scores.sum(axis=-1, keepdims=True)
        acc = acc * scale + scores @ values[..., start:stop, :]
        m = new_max
    return acc / s
''',
    },
    "grouped_query_attention": {
        "repeat": '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    return matrix_attention(queries, np.repeat(keys, group, axis=-3), np.repeat(values, group, axis=-3))
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
