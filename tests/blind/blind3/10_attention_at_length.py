"""Blind set 3, notebook 10: attention at length (online softmax, blocked attention, GQA). Written from notebooks/10_attention_at_length.ipynb only."""

_ONLINE = '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    running_sum = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, scores.shape[-1], block):
        chunk = scores[..., start:start + block]
        new_max = np.maximum(running_max, chunk.max(axis=-1, keepdims=True))
        running_sum = running_sum * np.exp(running_max - new_max) + np.exp(chunk - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    return np.exp(scores - running_max) / running_sum
'''

_BLOCKED = '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    out = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    rows = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        k = keys[..., start:start + block, :]
        v = values[..., start:start + block, :]
        scores = q @ np.swapaxes(k, -1, -2)
        if causal:
            cols = np.arange(start, start + k.shape[-2])[None, :]
            scores = np.where(cols <= rows, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        correction = np.exp(running_max - new_max)
        p = np.exp(scores - new_max)
        running_sum = running_sum * correction + p.sum(axis=-1, keepdims=True)
        out = out * correction + p @ v
        running_max = new_max
    return out / running_sum
'''


def _edit(base, *pairs):
    for old, new in zip(pairs[::2], pairs[1::2], strict=True):
        assert old in base, old
        base = base.replace(old, new)
    return base


MISTAKES = {
    "online_softmax": {
        "sum_not_rescaled": (["rescale", "running sum", "correction", "new maximum"], _edit(_ONLINE,
            "running_sum * np.exp(running_max - new_max) +", "running_sum +")),
        "no_running_max": (["overflow", "running maximum", "inf", "maximum"], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    running_sum = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    for start in range(0, scores.shape[-1], block):
        running_sum = running_sum + np.exp(scores[..., start:start + block]).sum(axis=-1, keepdims=True)
    return np.exp(scores) / running_sum
'''),
        "drops_last_short_block": (["last block", "shorter", "remainder", "n // block"], _edit(_ONLINE,
            "for start in range(0, scores.shape[-1], block):",
            "for start in range(0, scores.shape[-1] // block * block, block):")),
        "correction_sign": (["sign", "rescale", "exp(m_old - m_new)", "correction"], _edit(_ONLINE,
            "np.exp(running_max - new_max)", "np.exp(new_max - running_max)")),
        "block_max_all_rows": (["each row", "row", "axis", "keepdims", "all rows"], _edit(_ONLINE,
            "chunk.max(axis=-1, keepdims=True)", "chunk.max()")),
    },
    "blocked_attention": {
        "output_not_rescaled": (["rescale", "running output", "correction", "output"], _edit(_BLOCKED,
            "out = out * correction + p @ v", "out = out + p @ v")),
        "causal_local_index": (["offset", "block start", "position", "global", "column index"], _edit(_BLOCKED,
            "cols = np.arange(start, start + k.shape[-2])[None, :]", "cols = np.arange(k.shape[-2])[None, :]")),
        "no_scale": (["sqrt", "scale", "d_k"], _edit(_BLOCKED,
            "q = queries / keys.shape[-1] ** 0.5", "q = queries")),
        "not_normalised": (["divide", "running sum", "normalis", "sum to 1"], _edit(_BLOCKED,
            "return out / running_sum", "return out")),
        "drops_last_short_block": (["last block", "shorter", "remainder", "n_keys // block"], _edit(_BLOCKED,
            "for start in range(0, n_keys, block):", "for start in range(0, n_keys - block + 1, block):")),
        "causal_strict": (["diagonal", "j <= i", "itself", "strict"], _edit(_BLOCKED,
            "np.where(cols <= rows, scores, -np.inf)", "np.where(cols < rows, scores, -1e30)")),
    },
    "grouped_query_attention": {
        "tile_not_repeat": (["repeat", "tile", "h // ", "neighbouring", "group"], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    reps = (1,) * (keys.ndim - 3) + (group, 1, 1)
    return matrix_attention(queries, np.tile(keys, reps), np.tile(values, reps))
'''),
        "repeat_axis0": (["axis", "heads axis", "leading", "-3"], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    return matrix_attention(queries, np.repeat(keys, group, axis=0), np.repeat(values, group, axis=0))
'''),
        "repeat_by_kv_heads": (["group size", "n_heads // n_kv_heads", "repeat", "copies"], '''
def grouped_query_attention(queries, keys, values):
    n_kv_heads = keys.shape[-3]
    return matrix_attention(queries, np.repeat(keys, n_kv_heads, axis=-3), np.repeat(values, n_kv_heads, axis=-3))
'''),
        "causal_mask": (["mask", "causal", "no mask"], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    return matrix_attention(queries, np.repeat(keys, group, axis=-3), np.repeat(values, group, axis=-3), causal=True)
'''),
        "interleaved_groups_reshape": (["group", "neighbouring", "reshape", "h // "], '''
def grouped_query_attention(queries, keys, values):
    *lead, n_heads, n_q, d_k = queries.shape
    n_kv = keys.shape[-3]
    grouped = queries.reshape(*lead, n_heads // n_kv, n_kv, n_q, d_k)
    out = matrix_attention(grouped, keys[..., None, :, :, :], values[..., None, :, :, :])
    return out.reshape(*lead, n_heads, n_q, values.shape[-1])
'''),
    },
}

VARIANTS = {
    "online_softmax": {
        "running_pair": _ONLINE,
        "list_of_blocks": '''
def online_softmax(scores, block):
    x = np.asarray(scores)
    m, s = None, None
    for chunk in np.array_split(x, range(block, x.shape[-1], block), axis=-1):
        chunk_max = np.max(chunk, axis=-1, keepdims=True)
        if m is None:
            m = chunk_max
            s = np.sum(np.exp(chunk - m), axis=-1, keepdims=True)
        else:
            new_m = np.maximum(m, chunk_max)
            s = s * np.exp(m - new_m) + np.sum(np.exp(chunk - new_m), axis=-1, keepdims=True)
            m = new_m
    return np.exp(x - m) / s
''',
    },
    "blocked_attention": {
        "running_triple": _BLOCKED,
        "in_place_exp": '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=dtype)
    s = np.zeros(q.shape[:-1] + (1,), dtype=dtype)
    acc = np.zeros(q.shape[:-1] + (values.shape[-1],), dtype=dtype)
    for start in range(0, n_k, block):
        stop = min(start + block, n_k)
        scores = q @ np.swapaxes(keys[..., start:stop, :], -1, -2)
        if causal:
            hidden = np.arange(start, stop)[None, :] > np.arange(n_q)[:, None]
            scores[..., hidden] = -np.inf
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        scale = np.exp(m - new_m)
        scores -= new_m
        np.exp(scores, out=scores)
        s = s * scale + scores.sum(axis=-1, keepdims=True)
        acc = acc * scale + scores @ values[..., start:stop, :]
        m = new_m
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
    grouped = queries.reshape(*lead, n_kv, n_heads // n_kv, n_q, d_k)
    out = matrix_attention(grouped, keys[..., :, None, :, :], values[..., :, None, :, :])
    return out.reshape(*lead, n_heads, n_q, values.shape[-1])
''',
    },
}
