"""Blind set 2, notebook 10: Attention at length (online softmax, blocked attention, grouped-query attention). Written from notebooks/10_attention_at_length.ipynb only (the nb10-long branch's copy; see README.md)."""

MISTAKES = {
    "online_softmax": {
        "sum_not_rescaled": (["rescal", "factor", "old maximum", "e^{m - m'}", "exp(m - m')"], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    dtype = scores.dtype if np.issubdtype(scores.dtype, np.floating) else np.float64
    n = scores.shape[-1]
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=dtype)
    running_sum = np.zeros(scores.shape[:-1] + (1,), dtype=dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_max = np.maximum(running_max, chunk.max(axis=-1, keepdims=True))
        running_sum = running_sum + np.exp(chunk - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    return np.exp(scores - running_max) / running_sum
'''),
        "no_running_maximum": (["running maximum", "overflow", "maximum", "max"], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    total = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, scores.shape[-1], block):
        total = total + np.exp(scores[..., start:start + block]).sum(axis=-1, keepdims=True)
    return np.exp(scores) / total
'''),
        "block_max_not_running": (["running", "largest so far", "maximum of the blocks seen", "max(m"], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    dtype = scores.dtype if np.issubdtype(scores.dtype, np.floating) else np.float64
    n = scores.shape[-1]
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=dtype)
    running_sum = np.zeros(scores.shape[:-1] + (1,), dtype=dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_max = chunk.max(axis=-1, keepdims=True)
        running_sum = running_sum * np.exp(running_max - new_max) + np.exp(chunk - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    return np.exp(scores - running_max) / running_sum
'''),
        "last_short_block_skipped": (["last block", "shorter", "remainder", "does not divide"], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf)
    running_sum = np.zeros(scores.shape[:-1] + (1,))
    for b in range(scores.shape[-1] // block):
        chunk = scores[..., b * block:(b + 1) * block]
        new_max = np.maximum(running_max, chunk.max(axis=-1, keepdims=True))
        running_sum = running_sum * np.exp(running_max - new_max) + np.exp(chunk - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    return np.exp(scores - running_max) / running_sum
'''),
        "max_over_all_rows": (["each row", "per row", "keepdims", "every row", "global"], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    dtype = scores.dtype if np.issubdtype(scores.dtype, np.floating) else np.float64
    n = scores.shape[-1]
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=dtype)
    running_sum = np.zeros(scores.shape[:-1] + (1,), dtype=dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_max = np.maximum(running_max, chunk.max())
        running_sum = running_sum * np.exp(running_max - new_max) + np.exp(chunk - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    return np.exp(scores - running_max) / running_sum
'''),
        "changes_scores_in_place": (["in place", "in-place", "modif", "copy"], '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    dtype = scores.dtype if np.issubdtype(scores.dtype, np.floating) else np.float64
    n = scores.shape[-1]
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=dtype)
    running_sum = np.zeros(scores.shape[:-1] + (1,), dtype=dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_max = np.maximum(running_max, chunk.max(axis=-1, keepdims=True))
        running_sum = running_sum * np.exp(running_max - new_max) + np.exp(chunk - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    scores -= running_max
    np.exp(scores, out=scores)
    scores /= running_sum
    return scores
'''),
    },
    "blocked_attention": {
        "causal_mask_from_block_columns": (["true positions", "start", "position", "own columns", "first block"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    queries = queries / keys.shape[-1] ** 0.5  # scaled once, before the loop
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2], values.shape[:-2])
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    output = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    query_positions = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        block_keys = keys[..., start:start + block, :]
        block_values = values[..., start:start + block, :]
        scores = queries @ np.swapaxes(block_keys, -1, -2)  # (..., n_queries, block)
        if causal:
            key_positions = np.arange(block_keys.shape[-2])[None, :]
            scores = np.where(key_positions <= query_positions, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max)
        correction = np.exp(running_max - safe_max)
        weights = np.exp(scores - safe_max)
        running_sum = running_sum * correction + weights.sum(axis=-1, keepdims=True)
        output = output * correction + weights @ block_values
        running_max = new_max
    return output / running_sum
'''),
        "output_not_rescaled": (["rescal", "running output", "factor", "e^{m - m'}", "correction"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    queries = queries / keys.shape[-1] ** 0.5  # scaled once, before the loop
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2], values.shape[:-2])
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    output = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    query_positions = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        block_keys = keys[..., start:start + block, :]
        block_values = values[..., start:start + block, :]
        scores = queries @ np.swapaxes(block_keys, -1, -2)  # (..., n_queries, block)
        if causal:
            key_positions = start + np.arange(block_keys.shape[-2])[None, :]
            scores = np.where(key_positions <= query_positions, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max)
        correction = np.exp(running_max - safe_max)
        weights = np.exp(scores - safe_max)
        running_sum = running_sum * correction + weights.sum(axis=-1, keepdims=True)
        output = output + weights @ block_values
        running_max = new_max
    return output / running_sum
'''),
        "output_not_divided_by_sum": (["divide", "o / s", "running sum", "normalis"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    queries = queries / keys.shape[-1] ** 0.5  # scaled once, before the loop
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2], values.shape[:-2])
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    output = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    query_positions = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        block_keys = keys[..., start:start + block, :]
        block_values = values[..., start:start + block, :]
        scores = queries @ np.swapaxes(block_keys, -1, -2)  # (..., n_queries, block)
        if causal:
            key_positions = start + np.arange(block_keys.shape[-2])[None, :]
            scores = np.where(key_positions <= query_positions, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max)
        correction = np.exp(running_max - safe_max)
        weights = np.exp(scores - safe_max)
        running_sum = running_sum * correction + weights.sum(axis=-1, keepdims=True)
        output = output * correction + weights @ block_values
        running_max = new_max
    return output
'''),
        "not_scaled": (["sqrt", "scale", "d_k"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2], values.shape[:-2])
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    output = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    query_positions = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        block_keys = keys[..., start:start + block, :]
        block_values = values[..., start:start + block, :]
        scores = queries @ np.swapaxes(block_keys, -1, -2)  # (..., n_queries, block)
        if causal:
            key_positions = start + np.arange(block_keys.shape[-2])[None, :]
            scores = np.where(key_positions <= query_positions, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max)
        correction = np.exp(running_max - safe_max)
        weights = np.exp(scores - safe_max)
        running_sum = running_sum * correction + weights.sum(axis=-1, keepdims=True)
        output = output * correction + weights @ block_values
        running_max = new_max
    return output / running_sum
'''),
        "last_short_block_skipped": (["last block", "shorter", "remainder", "does not divide"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    queries = queries / keys.shape[-1] ** 0.5  # scaled once, before the loop
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2], values.shape[:-2])
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    output = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    query_positions = np.arange(n_queries)[:, None]
    for start in range(0, n_keys - block + 1, block):
        block_keys = keys[..., start:start + block, :]
        block_values = values[..., start:start + block, :]
        scores = queries @ np.swapaxes(block_keys, -1, -2)  # (..., n_queries, block)
        if causal:
            key_positions = start + np.arange(block_keys.shape[-2])[None, :]
            scores = np.where(key_positions <= query_positions, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max)
        correction = np.exp(running_max - safe_max)
        weights = np.exp(scores - safe_max)
        running_sum = running_sum * correction + weights.sum(axis=-1, keepdims=True)
        output = output * correction + weights @ block_values
        running_max = new_max
    return output / running_sum
'''),
        "causal_strictly_below": (["diagonal", "itself", "<=", "j <= i"], '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    queries = queries / keys.shape[-1] ** 0.5  # scaled once, before the loop
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2], values.shape[:-2])
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    output = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    query_positions = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        block_keys = keys[..., start:start + block, :]
        block_values = values[..., start:start + block, :]
        scores = queries @ np.swapaxes(block_keys, -1, -2)  # (..., n_queries, block)
        if causal:
            key_positions = start + np.arange(block_keys.shape[-2])[None, :]
            scores = np.where(key_positions < query_positions, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max)
        correction = np.exp(running_max - safe_max)
        weights = np.exp(scores - safe_max)
        running_sum = running_sum * correction + weights.sum(axis=-1, keepdims=True)
        output = output * correction + weights @ block_values
        running_max = new_max
    return output / running_sum
'''),
    },
    "grouped_query_attention": {
        "tile_interleaves_heads": (["repeat", "tile", "h //", "neighbouring", "group"], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    reps = (1,) * (keys.ndim - 3) + (group, 1, 1)
    return matrix_attention(queries, np.tile(keys, reps), np.tile(values, reps))
'''),
        "repeat_on_first_axis": (["axis", "heads axis", "-3", "leading"], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    return matrix_attention(queries, np.repeat(keys, group, axis=0), np.repeat(values, group, axis=0))
'''),
        "groups_reshaped_kv_inner": (["group", "reshape", "neighbouring", "h //", "order"], '''
def grouped_query_attention(queries, keys, values):
    *lead, n_heads, n_queries, d_k = queries.shape
    n_kv_heads = keys.shape[-3]
    grouped = queries.reshape(*lead, n_heads // n_kv_heads, n_kv_heads, n_queries, d_k)
    out = matrix_attention(grouped, keys[..., None, :, :, :], values[..., None, :, :, :])
    return out.reshape(*lead, n_heads, n_queries, values.shape[-1])
'''),
        "only_first_kv_head": (["every key/value head", "group", "h //", "kv head"], '''
def grouped_query_attention(queries, keys, values):
    return matrix_attention(queries, keys[..., :1, :, :], values[..., :1, :, :])
'''),
        "own_attention_sqrt_d_v": (["d_k", "sqrt", "width of the keys"], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    keys, values = np.repeat(keys, group, axis=-3), np.repeat(values, group, axis=-3)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(values.shape[-1])
    return scipy.special.softmax(scores, axis=-1) @ values
'''),
        "own_attention_softmax_over_queries": (["axis", "keys", "rows", "last axis"], '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    keys, values = np.repeat(keys, group, axis=-3), np.repeat(values, group, axis=-3)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return scipy.special.softmax(scores, axis=-2) @ values
'''),
    },
}

VARIANTS = {
    "online_softmax": {
        "running_max_and_sum": '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    dtype = scores.dtype if np.issubdtype(scores.dtype, np.floating) else np.float64
    n = scores.shape[-1]
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=dtype)
    running_sum = np.zeros(scores.shape[:-1] + (1,), dtype=dtype)
    for start in range(0, n, block):
        chunk = scores[..., start:start + block]
        new_max = np.maximum(running_max, chunk.max(axis=-1, keepdims=True))
        running_sum = running_sum * np.exp(running_max - new_max) + np.exp(chunk - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    return np.exp(scores - running_max) / running_sum
''',
        "running_logsumexp_split": '''
def online_softmax(scores, block):
    scores = np.asarray(scores)
    if not np.issubdtype(scores.dtype, np.floating):
        scores = scores.astype(np.float64)
    log_total = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    for chunk in np.split(scores, list(range(block, scores.shape[-1], block)), axis=-1):
        chunk_max = chunk.max(axis=-1, keepdims=True)
        chunk_lse = chunk_max + np.log(np.exp(chunk - chunk_max).sum(axis=-1, keepdims=True))
        log_total = np.logaddexp(log_total, chunk_lse)
    return np.exp(scores - log_total)
''',
    },
    "blocked_attention": {
        "running_max_sum_output": '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    queries = queries / keys.shape[-1] ** 0.5  # scaled once, before the loop
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2], values.shape[:-2])
    running_max = np.full(lead + (n_queries, 1), -np.inf, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    output = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)
    query_positions = np.arange(n_queries)[:, None]
    for start in range(0, n_keys, block):
        block_keys = keys[..., start:start + block, :]
        block_values = values[..., start:start + block, :]
        scores = queries @ np.swapaxes(block_keys, -1, -2)  # (..., n_queries, block)
        if causal:
            key_positions = start + np.arange(block_keys.shape[-2])[None, :]
            scores = np.where(key_positions <= query_positions, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isneginf(new_max), 0.0, new_max)
        correction = np.exp(running_max - safe_max)
        weights = np.exp(scores - safe_max)
        running_sum = running_sum * correction + weights.sum(axis=-1, keepdims=True)
        output = output * correction + weights @ block_values
        running_max = new_max
    return output / running_sum
''',
        "in_place_exp_einsum": '''
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = (queries / keys.shape[-1] ** 0.5).astype(dtype, copy=False)
    n_q, n_k = q.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2], values.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (n_q, 1), dtype=dtype)
    o = np.zeros(lead + (n_q, values.shape[-1]), dtype=dtype)
    for start in range(0, n_k, block):
        stop = min(start + block, n_k)
        scores = np.einsum("...qd,...kd->...qk", q, keys[..., start:stop, :]).astype(dtype, copy=False)
        if causal:
            hidden = np.arange(start, stop)[None, :] > np.arange(n_q)[:, None]
            scores = np.where(hidden, -np.inf, scores).astype(dtype, copy=False)
        new_m = np.maximum(m, scores.max(axis=-1, keepdims=True))
        shift = np.where(new_m == -np.inf, 0, new_m).astype(dtype)
        scale = np.exp(m - shift)
        scores -= shift
        np.exp(scores, out=scores)
        s = s * scale + scores.sum(axis=-1, keepdims=True)
        o = o * scale + np.einsum("...qk,...kv->...qv", scores, values[..., start:stop, :])
        m = new_m
    return o / s
''',
    },
    "grouped_query_attention": {
        "repeat_kv": '''
def grouped_query_attention(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    return matrix_attention(queries, np.repeat(keys, group, axis=-3), np.repeat(values, group, axis=-3))
''',
        "reshape_queries_into_groups": '''
def grouped_query_attention(queries, keys, values):
    *lead, n_heads, n_queries, d_k = queries.shape
    n_kv_heads = keys.shape[-3]
    grouped = queries.reshape(*lead, n_kv_heads, n_heads // n_kv_heads, n_queries, d_k)
    out = matrix_attention(grouped, keys[..., :, None, :, :], values[..., :, None, :, :])
    return out.reshape(*lead, n_heads, n_queries, values.shape[-1])
''',
        "torch_sdpa_enable_gqa": '''
def grouped_query_attention(queries, keys, values):
    q, k, v = (torch.from_numpy(np.ascontiguousarray(a)) for a in (queries, keys, values))
    return torch.nn.functional.scaled_dot_product_attention(q, k, v, enable_gqa=True).numpy()
''',
    },
}
