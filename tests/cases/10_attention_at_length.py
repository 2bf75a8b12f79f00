"""Learner-style answers for notebook 10: one catalogued mistake each, or a correct variant.

Keys: the exercise's solution cell (grade_id), then the mistake id (from
attention_course.mistakes, optionally ``:tag``) or a variant's name. Values: what a learner types into
that cell. Run by ``python3 tasks.py accuracy`` and tests/test_accuracy.py.
"""

MISTAKES = {
    "online_softmax": {
        "online_sum_not_rescaled": """
def online_softmax(scores, block):
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf)
    running_sum = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, scores.shape[-1], block):
        part = scores[..., start:start + block]
        running_max = np.maximum(running_max, part.max(axis=-1, keepdims=True))
        running_sum = running_sum + np.exp(part - running_max).sum(axis=-1, keepdims=True)
    return np.exp(scores - running_max) / running_sum
""",
        "online_sum_not_rescaled:own_max": """
def online_softmax(scores, block):
    total = 0.0
    for start in range(0, scores.shape[-1], block):
        part = scores[..., start:start + block]
        total = total + np.exp(part - part.max(axis=-1, keepdims=True)).sum(axis=-1, keepdims=True)
    return np.exp(scores - scores.max(axis=-1, keepdims=True)) / total
""",
        "running_max_started_at_zero": """
def online_softmax(scores, block):
    m = np.zeros(scores.shape[:-1] + (1,))
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, scores.shape[-1], block):
        part = scores[..., start:start + block]
        m_new = np.maximum(m, part.max(axis=-1, keepdims=True))
        s = s * np.exp(m - m_new) + np.exp(part - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(scores - m) / s
""",
        "block_remainder_dropped": """
def online_softmax(scores, block):
    m = np.full(scores.shape[:-1] + (1,), -np.inf)
    s = np.zeros(scores.shape[:-1] + (1,))
    for i in range(scores.shape[-1] // block):
        part = scores[..., i * block:(i + 1) * block]
        m_new = np.maximum(m, part.max(axis=-1, keepdims=True))
        s = s * np.exp(m - m_new) + np.exp(part - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(scores - m) / s
""",
        "online_sum_not_divided": """
def online_softmax(scores, block):
    m = np.full(scores.shape[:-1] + (1,), -np.inf)
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, scores.shape[-1], block):
        part = scores[..., start:start + block]
        m_new = np.maximum(m, part.max(axis=-1, keepdims=True))
        s = s * np.exp(m - m_new) + np.exp(part - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(scores - m)
""",
        "softmax_no_max_subtraction": """
def online_softmax(scores, block):
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, scores.shape[-1], block):
        s = s + np.exp(scores[..., start:start + block]).sum(axis=-1, keepdims=True)
    return np.exp(scores) / s
""",
        "softmax_no_max_subtraction:first_block": """
def online_softmax(scores, block):
    m = scores[..., :block].max(axis=-1, keepdims=True)
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, scores.shape[-1], block):
        s = s + np.exp(scores[..., start:start + block] - m).sum(axis=-1, keepdims=True)
    return np.exp(scores - m) / s
""",
    },
    "blocked_attention": {
        "online_sum_not_rescaled": """
def blocked_attention(queries, keys, values, block, causal=False):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    m = np.full(queries.shape[:-1] + (1,), -np.inf)
    s = np.zeros(queries.shape[:-1] + (1,))
    out = np.zeros(queries.shape[:-1] + (values.shape[-1],))
    for start in range(0, n_k, block):
        stop = min(start + block, n_k)
        scores = queries @ np.swapaxes(keys[..., start:stop, :], -1, -2) / np.sqrt(keys.shape[-1])
        if causal:
            scores = np.where(np.arange(n_q)[:, None] >= np.arange(start, stop), scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        p = np.exp(scores - m_new)
        s = s + p.sum(axis=-1, keepdims=True)
        out = out * np.exp(m - m_new) + p @ values[..., start:stop, :]
        m = m_new
    return out / s
""",
        "online_sum_not_rescaled:output": """
def blocked_attention(queries, keys, values, block, causal=False):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    m = np.full(queries.shape[:-1] + (1,), -np.inf)
    s = np.zeros(queries.shape[:-1] + (1,))
    out = np.zeros(queries.shape[:-1] + (values.shape[-1],))
    for start in range(0, n_k, block):
        stop = min(start + block, n_k)
        scores = queries @ np.swapaxes(keys[..., start:stop, :], -1, -2) / np.sqrt(keys.shape[-1])
        if causal:
            scores = np.where(np.arange(n_q)[:, None] >= np.arange(start, stop), scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        p = np.exp(scores - m_new)
        s = s * np.exp(m - m_new) + p.sum(axis=-1, keepdims=True)
        out = out + p @ values[..., start:stop, :]
        m = m_new
    return out / s
""",
        "block_causal_offset": """
def blocked_attention(queries, keys, values, block, causal=False):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    m = np.full(queries.shape[:-1] + (1,), -np.inf)
    s = np.zeros(queries.shape[:-1] + (1,))
    out = np.zeros(queries.shape[:-1] + (values.shape[-1],))
    for start in range(0, n_k, block):
        k_block, v_block = keys[..., start:start + block, :], values[..., start:start + block, :]
        scores = queries @ np.swapaxes(k_block, -1, -2) / np.sqrt(keys.shape[-1])
        if causal:
            scores = np.where(np.tril(np.ones(scores.shape[-2:], dtype=bool)), scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        p = np.exp(scores - m_new)
        s = s * np.exp(m - m_new) + p.sum(axis=-1, keepdims=True)
        out = out * np.exp(m - m_new) + p @ v_block
        m = m_new
    return out / s
""",
        "block_remainder_dropped": """
def blocked_attention(queries, keys, values, block, causal=False):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    m = np.full(queries.shape[:-1] + (1,), -np.inf)
    s = np.zeros(queries.shape[:-1] + (1,))
    out = np.zeros(queries.shape[:-1] + (values.shape[-1],))
    for b in range(n_k // block):
        start, stop = b * block, (b + 1) * block
        scores = queries @ np.swapaxes(keys[..., start:stop, :], -1, -2) / np.sqrt(keys.shape[-1])
        if causal:
            scores = np.where(np.arange(n_q)[:, None] >= np.arange(start, stop), scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        p = np.exp(scores - m_new)
        s = s * np.exp(m - m_new) + p.sum(axis=-1, keepdims=True)
        out = out * np.exp(m - m_new) + p @ values[..., start:stop, :]
        m = m_new
    return out / s
""",
        "running_max_started_at_zero": """
def blocked_attention(queries, keys, values, block, causal=False):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    m = np.zeros(queries.shape[:-1] + (1,))
    s = np.zeros(queries.shape[:-1] + (1,))
    out = np.zeros(queries.shape[:-1] + (values.shape[-1],))
    for start in range(0, n_k, block):
        stop = min(start + block, n_k)
        scores = queries @ np.swapaxes(keys[..., start:stop, :], -1, -2) / np.sqrt(keys.shape[-1])
        if causal:
            scores = np.where(np.arange(n_q)[:, None] >= np.arange(start, stop), scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        p = np.exp(scores - m_new)
        s = s * np.exp(m - m_new) + p.sum(axis=-1, keepdims=True)
        out = out * np.exp(m - m_new) + p @ values[..., start:stop, :]
        m = m_new
    return out / s
""",
        "online_sum_not_divided": """
def blocked_attention(queries, keys, values, block, causal=False):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    m = np.full(queries.shape[:-1] + (1,), -np.inf)
    s = np.zeros(queries.shape[:-1] + (1,))
    out = np.zeros(queries.shape[:-1] + (values.shape[-1],))
    for start in range(0, n_k, block):
        stop = min(start + block, n_k)
        scores = queries @ np.swapaxes(keys[..., start:stop, :], -1, -2) / np.sqrt(keys.shape[-1])
        if causal:
            scores = np.where(np.arange(n_q)[:, None] >= np.arange(start, stop), scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        p = np.exp(scores - m_new)
        s = s * np.exp(m - m_new) + p.sum(axis=-1, keepdims=True)
        out = out * np.exp(m - m_new) + p @ values[..., start:stop, :]
        m = m_new
    return out
""",
        "softmax_no_max_subtraction": """
def blocked_attention(queries, keys, values, block, causal=False):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    total = np.zeros(queries.shape[:-1] + (1,))
    out = np.zeros(queries.shape[:-1] + (values.shape[-1],))
    for start in range(0, n_k, block):
        stop = min(start + block, n_k)
        scores = queries @ np.swapaxes(keys[..., start:stop, :], -1, -2) / np.sqrt(keys.shape[-1])
        if causal:
            scores = np.where(np.arange(n_q)[:, None] >= np.arange(start, stop), scores, -np.inf)
        p = np.exp(scores)
        total = total + p.sum(axis=-1, keepdims=True)
        out = out + p @ values[..., start:stop, :]
    return out / total
""",
        "block_causal_offset:sign": """
def blocked_attention(queries, keys, values, block, causal=False):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    m = np.full(queries.shape[:-1] + (1,), -np.inf)
    s = np.zeros(queries.shape[:-1] + (1,))
    out = np.zeros(queries.shape[:-1] + (values.shape[-1],))
    for start in range(0, n_k, block):
        stop = min(start + block, n_k)
        scores = queries @ np.swapaxes(keys[..., start:stop, :], -1, -2) / np.sqrt(keys.shape[-1])
        if causal:
            allowed = np.tril(np.ones((n_q, stop - start), dtype=bool), k=start)
            scores = np.where(allowed, scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        p = np.exp(scores - m_new)
        s = s * np.exp(m - m_new) + p.sum(axis=-1, keepdims=True)
        out = out * np.exp(m - m_new) + p @ values[..., start:stop, :]
        m = m_new
    return out / s
""",
        "causal_flag_ignored": """
def blocked_attention(queries, keys, values, block, causal=False):
    n_k = keys.shape[-2]
    m = np.full(queries.shape[:-1] + (1,), -np.inf)
    s = np.zeros(queries.shape[:-1] + (1,))
    out = np.zeros(queries.shape[:-1] + (values.shape[-1],))
    for start in range(0, n_k, block):
        scores = queries @ np.swapaxes(keys[..., start:start + block, :], -1, -2) / np.sqrt(keys.shape[-1])
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        p = np.exp(scores - m_new)
        s = s * np.exp(m - m_new) + p.sum(axis=-1, keepdims=True)
        out = out * np.exp(m - m_new) + p @ values[..., start:start + block, :]
        m = m_new
    return out / s
""",
        "causal_mask_off_by_one": """
def blocked_attention(queries, keys, values, block, causal=False):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    m = np.full(queries.shape[:-1] + (1,), -np.inf)
    s = np.zeros(queries.shape[:-1] + (1,))
    out = np.zeros(queries.shape[:-1] + (values.shape[-1],))
    for start in range(0, n_k, block):
        stop = min(start + block, n_k)
        scores = queries @ np.swapaxes(keys[..., start:stop, :], -1, -2) / np.sqrt(keys.shape[-1])
        if causal:
            scores = np.where(np.arange(n_q)[:, None] > np.arange(start, stop), scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        p = np.exp(scores - m_new)
        s = s * np.exp(m - m_new) + p.sum(axis=-1, keepdims=True)
        out = out * np.exp(m - m_new) + p @ values[..., start:stop, :]
        m = m_new
    return out / s
""",
        "no_scaling": """
def blocked_attention(queries, keys, values, block, causal=False):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    m = np.full(queries.shape[:-1] + (1,), -np.inf)
    s = np.zeros(queries.shape[:-1] + (1,))
    out = np.zeros(queries.shape[:-1] + (values.shape[-1],))
    for start in range(0, n_k, block):
        stop = min(start + block, n_k)
        scores = queries @ np.swapaxes(keys[..., start:stop, :], -1, -2)
        if causal:
            scores = np.where(np.arange(n_q)[:, None] >= np.arange(start, stop), scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        p = np.exp(scores - m_new)
        s = s * np.exp(m - m_new) + p.sum(axis=-1, keepdims=True)
        out = out * np.exp(m - m_new) + p @ values[..., start:stop, :]
        m = m_new
    return out / s
""",
        "mask_with_zero": """
def blocked_attention(queries, keys, values, block, causal=False):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    m = np.full(queries.shape[:-1] + (1,), -np.inf)
    s = np.zeros(queries.shape[:-1] + (1,))
    out = np.zeros(queries.shape[:-1] + (values.shape[-1],))
    for start in range(0, n_k, block):
        stop = min(start + block, n_k)
        scores = queries @ np.swapaxes(keys[..., start:stop, :], -1, -2) / np.sqrt(keys.shape[-1])
        if causal:
            scores = scores * (np.arange(n_q)[:, None] >= np.arange(start, stop))
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        p = np.exp(scores - m_new)
        s = s * np.exp(m - m_new) + p.sum(axis=-1, keepdims=True)
        out = out * np.exp(m - m_new) + p @ values[..., start:stop, :]
        m = m_new
    return out / s
""",
    },
    "grouped_query_attention": {
        "kv_heads_grouped_wrong": """
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    reps = (1,) * (keys.ndim - 3) + (group, 1, 1)
    return matrix_attention(queries, np.tile(keys, reps), np.tile(values, reps))
""",
        "kv_heads_grouped_wrong:reshape": """
def grouped_query_attention(queries, keys, values):
    *lead, n_heads, n_q, d_k = queries.shape
    n_kv = keys.shape[-3]
    grouped = queries.reshape(*lead, n_heads // n_kv, n_kv, n_q, d_k)  # (..., group, kv head, tokens, d_k)
    out = matrix_attention(grouped, keys[..., None, :, :, :], values[..., None, :, :, :])
    return out.reshape(*lead, n_heads, n_q, values.shape[-1])
""",
        "no_scaling": """
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    keys, values = np.repeat(keys, group, axis=-3), np.repeat(values, group, axis=-3)
    weights = scipy.special.softmax(queries @ np.swapaxes(keys, -1, -2), axis=-1)
    return weights @ values
""",
        "softmax_wrong_axis": """
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    keys, values = np.repeat(keys, group, axis=-3), np.repeat(values, group, axis=-3)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-2) @ values
""",
    },
}

VARIANTS = {
    "online_softmax": {
        "while_loop_float32_kept": """
def online_softmax(scores, block):
    m = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    s = np.zeros_like(m)
    start = 0
    while start < scores.shape[-1]:
        part = scores[..., start:start + block]
        m_new = np.maximum(m, np.max(part, axis=-1, keepdims=True))
        s = s * np.exp(m - m_new) + np.sum(np.exp(part - m_new), axis=-1, keepdims=True)
        m = m_new
        start += block
    return np.exp(scores - m) / s
""",
        "array_split": """
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf)
    s = np.zeros(scores.shape[:-1] + (1,))
    for part in np.array_split(scores, -(-n // block), axis=-1):
        m_new = np.maximum(m, part.max(axis=-1, keepdims=True))
        s = s * np.exp(m - m_new) + np.exp(part - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(scores - m) / s
""",
        "running_log_sum": """
def online_softmax(scores, block):
    log_total = np.full(scores.shape[:-1] + (1,), -np.inf)
    for start in range(0, scores.shape[-1], block):
        part = scores[..., start:start + block]
        log_total = np.logaddexp(log_total, scipy.special.logsumexp(part, axis=-1, keepdims=True))
    return np.exp(scores - log_total)
""",
    },
    "blocked_attention": {
        "query_and_key_tiles": """
def blocked_attention(queries, keys, values, block, causal=False):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2], values.shape[:-2])
    out = np.zeros(lead + (n_q, values.shape[-1]), dtype=np.result_type(queries, keys, values))
    for q0 in range(0, n_q, block):
        q = queries[..., q0:q0 + block, :]
        rows = np.arange(q0, q0 + q.shape[-2])
        m = np.full(lead + (q.shape[-2], 1), -np.inf)
        s = np.zeros(lead + (q.shape[-2], 1))
        acc = np.zeros(lead + (q.shape[-2], values.shape[-1]))
        for k0 in range(0, n_k, block):
            if causal and k0 > rows[-1]:
                break  # every later key is in the future of every query of this tile
            scores = q @ np.swapaxes(keys[..., k0:k0 + block, :], -1, -2) / keys.shape[-1] ** 0.5
            if causal:
                scores = np.where(rows[:, None] >= np.arange(k0, k0 + scores.shape[-1]), scores, -np.inf)
            m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
            p = np.exp(scores - m_new)
            scale = np.exp(m - m_new)
            s = s * scale + p.sum(axis=-1, keepdims=True)
            acc = acc * scale + p @ values[..., k0:k0 + block, :]
            m = m_new
        out[..., q0:q0 + block, :] = acc / s
    return out
""",
        "key_blocks_as_index_lists": """
def blocked_attention(queries, keys, values, block, causal=False):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    dtype = np.result_type(queries, keys, values)
    m = np.full(queries.shape[:-1] + (1,), -np.inf, dtype=dtype)
    s = np.zeros(queries.shape[:-1] + (1,), dtype=dtype)
    out = 0
    for positions in np.array_split(np.arange(n_k), range(block, n_k, block)):
        scores = queries @ np.swapaxes(keys[..., positions, :], -1, -2) / keys.shape[-1] ** 0.5
        if causal:
            scores = np.where(positions <= np.arange(n_q)[:, None], scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        p = np.exp(scores - m_new)
        fix = np.exp(m - m_new)
        s = s * fix + p.sum(axis=-1, keepdims=True)
        out = out * fix + p @ values[..., positions, :]
        m = m_new
    return out / s
""",
    },
    "grouped_query_attention": {
        "grouped_reshape_no_copies": """
def grouped_query_attention(queries, keys, values):
    *lead, n_heads, n_q, d_k = queries.shape
    n_kv = keys.shape[-3]
    grouped = queries.reshape(*lead, n_kv, n_heads // n_kv, n_q, d_k)  # (..., kv head, group, tokens, d_k)
    out = matrix_attention(grouped, keys[..., :, None, :, :], values[..., :, None, :, :])
    return out.reshape(*lead, n_heads, n_q, values.shape[-1])
""",
        "loop_over_heads": """
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    heads = []
    for h in range(queries.shape[-3]):
        heads.append(matrix_attention(queries[..., h, :, :], keys[..., h // group, :, :], values[..., h // group, :, :]))
    return np.stack(heads, axis=-3)
""",
    },
}
