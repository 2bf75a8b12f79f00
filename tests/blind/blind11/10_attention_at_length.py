"""Blind set 11, notebook 10: attention at length. Written from notebooks/10_attention_at_length.ipynb only."""

MISTAKES = {
    "online_softmax": {
        "sum_not_rescaled": (["rescale", "exp(m_old - m_new)", "running sum", "correct"], '''
import numpy as np
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf)
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n, block):
        b = scores[..., start:start + block]
        m = np.maximum(m, b.max(axis=-1, keepdims=True))
        s = s + np.exp(b - m).sum(axis=-1, keepdims=True)
    return np.exp(scores - m) / s
'''),
        "first_block_max_only": (["running maximum", "max", "overflow", "later block"], '''
import numpy as np
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = scores[..., :block].max(axis=-1, keepdims=True)
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n, block):
        b = scores[..., start:start + block]
        s = s + np.exp(b - m).sum(axis=-1, keepdims=True)
    return np.exp(scores - m) / s
'''),
        "last_block_dropped": (["last block", "range", "shorter", "remainder"], '''
import numpy as np
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -np.inf)
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n - n % block if n >= block else n, block):
        b = scores[..., start:start + block]
        m_new = np.maximum(m, b.max(axis=-1, keepdims=True))
        s = s * np.exp(m - m_new) + np.exp(b - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(scores - m) / s
'''),
        "flat_max": (["row", "keepdims", "every row", "axis"], '''
import numpy as np
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
        "rescale_inverted": (["exp(m_old - m_new)", "sign", "rescale", "factor"], '''
import numpy as np
def online_softmax(scores, block):
    n = scores.shape[-1]
    m = np.full(scores.shape[:-1] + (1,), -1e300)
    s = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, n, block):
        b = scores[..., start:start + block]
        m_new = np.maximum(m, b.max(axis=-1, keepdims=True))
        s = s * np.exp(np.minimum(m_new - m, 700)) + np.exp(b - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(scores - m) / s
'''),
    },
    "blocked_attention": {
        "output_not_rescaled": (["rescale", "running output", "exp(m_old - m_new)", "correction"], '''
import numpy as np
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    nq, nk = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    m = np.full(lead + (nq, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (nq, 1), dtype=dtype)
    o = np.zeros(lead + (nq, values.shape[-1]), dtype=dtype)
    for start in range(0, nk, block):
        sc = q @ np.swapaxes(keys[..., start:start + block, :], -1, -2)
        if causal:
            j = np.arange(start, min(start + block, nk))
            sc = np.where(j[None, :] <= np.arange(nq)[:, None], sc, -np.inf)
        m_new = np.maximum(m, sc.max(axis=-1, keepdims=True))
        scale = np.where(np.isneginf(m_new), 0.0, np.exp(m - np.where(np.isneginf(m_new), 0, m_new)))
        p = np.exp(sc - np.where(np.isneginf(m_new), 0, m_new))
        s = s * scale + p.sum(axis=-1, keepdims=True)
        o = o + p @ values[..., start:start + block, :]
        m = m_new
    return o / s
'''),
        "no_sqrt_scale": (["sqrt", "scale", "d_k"], '''
import numpy as np
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries
    nq, nk = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    m = np.full(lead + (nq, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (nq, 1), dtype=dtype)
    o = np.zeros(lead + (nq, values.shape[-1]), dtype=dtype)
    for start in range(0, nk, block):
        sc = q @ np.swapaxes(keys[..., start:start + block, :], -1, -2)
        if causal:
            j = np.arange(start, min(start + block, nk))
            sc = np.where(j[None, :] <= np.arange(nq)[:, None], sc, -np.inf)
        m_new = np.maximum(m, sc.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(m_new), 0.0, m_new)
        corr = np.exp(m - safe)
        p = np.exp(sc - safe)
        s = s * corr + p.sum(axis=-1, keepdims=True)
        o = o * corr + p @ values[..., start:start + block, :]
        m = m_new
    return o / s
'''),
        "causal_ignored": (["causal", "mask", "future", "j <= i"], '''
import numpy as np
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    nq, nk = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    m = np.full(lead + (nq, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (nq, 1), dtype=dtype)
    o = np.zeros(lead + (nq, values.shape[-1]), dtype=dtype)
    for start in range(0, nk, block):
        sc = q @ np.swapaxes(keys[..., start:start + block, :], -1, -2)
        m_new = np.maximum(m, sc.max(axis=-1, keepdims=True))
        corr = np.exp(m - m_new)
        p = np.exp(sc - m_new)
        s = s * corr + p.sum(axis=-1, keepdims=True)
        o = o * corr + p @ values[..., start:start + block, :]
        m = m_new
    return o / s
'''),
        "causal_block_local_index": (["offset", "start", "block index", "global position"], '''
import numpy as np
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    nq, nk = q.shape[-2], keys.shape[-2]
    lead = q.shape[:-2]
    m = np.full(lead + (nq, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (nq, 1), dtype=dtype)
    o = np.zeros(lead + (nq, values.shape[-1]), dtype=dtype)
    for start in range(0, nk, block):
        sc = q @ np.swapaxes(keys[..., start:start + block, :], -1, -2)
        if causal:
            j = np.arange(sc.shape[-1])
            sc = np.where(j[None, :] <= np.arange(nq)[:, None], sc, -np.inf)
        m_new = np.maximum(m, sc.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(m_new), 0.0, m_new)
        corr = np.exp(m - safe)
        p = np.exp(sc - safe)
        s = s * corr + p.sum(axis=-1, keepdims=True)
        o = o * corr + p @ values[..., start:start + block, :]
        m = m_new
    return o / s
'''),
        "normalise_each_block": (["normalis", "per block", "running sum", "end"], '''
import numpy as np
def blocked_attention(queries, keys, values, block, causal=False):
    q = queries / keys.shape[-1] ** 0.5
    nq, nk = q.shape[-2], keys.shape[-2]
    o = 0.0
    n_blocks = 0
    for start in range(0, nk, block):
        sc = q @ np.swapaxes(keys[..., start:start + block, :], -1, -2)
        if causal:
            j = np.arange(start, min(start + block, nk))
            sc = np.where(j[None, :] <= np.arange(nq)[:, None], sc, -1e30)
        p = np.exp(sc - sc.max(axis=-1, keepdims=True))
        p = p / p.sum(axis=-1, keepdims=True)
        o = o + p @ values[..., start:start + block, :]
        n_blocks += 1
    return o / n_blocks
'''),
    },
    "grouped_query_attention": {
        "tile_not_repeat": (["repeat", "tile", "h // group", "order", "consecutive"], '''
import numpy as np
def grouped_query_attention(queries, keys, values):
    g = queries.shape[-3] // keys.shape[-3]
    k = np.concatenate([keys] * g, axis=-3)
    v = np.concatenate([values] * g, axis=-3)
    return matrix_attention(queries, k, v)
'''),
        "modulo_mapping": (["h // ", "modulo", "%", "group"], '''
import numpy as np
def grouped_query_attention(queries, keys, values):
    n_heads, n_kv = queries.shape[-3], keys.shape[-3]
    idx = np.arange(n_heads) % n_kv
    return matrix_attention(queries, keys[..., idx, :, :], values[..., idx, :, :])
'''),
        "repeat_wrong_axis": (["axis", "heads axis", "-3", "repeat"], '''
import numpy as np
def grouped_query_attention(queries, keys, values):
    g = queries.shape[-3] // keys.shape[-3]
    k = np.repeat(keys, g, axis=-2)
    v = np.repeat(values, g, axis=-2)
    return matrix_attention(queries, k, v)
'''),
        "mean_queries": (["average", "mean", "group", "each query head"], '''
import numpy as np
def grouped_query_attention(queries, keys, values):
    n_heads, n_kv = queries.shape[-3], keys.shape[-3]
    g = n_heads // n_kv
    q = queries.reshape(*queries.shape[:-3], n_kv, g, *queries.shape[-2:]).mean(axis=-3)
    out = matrix_attention(q, keys, values)
    return np.repeat(out, g, axis=-3)
'''),
        "no_scale_manual": (["sqrt", "scale", "d_k"], '''
import numpy as np
from scipy.special import softmax as _sm
def grouped_query_attention(queries, keys, values):
    g = queries.shape[-3] // keys.shape[-3]
    k = np.repeat(keys, g, axis=-3)
    v = np.repeat(values, g, axis=-3)
    return _sm(queries @ np.swapaxes(k, -1, -2), axis=-1) @ v
'''),
    },
}

VARIANTS = {
    "online_softmax": {
        "running": '''
import numpy as np
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
        "while_loop": '''
import numpy as np
def online_softmax(scores, block):
    x = np.asarray(scores, dtype=float)
    m = None
    s = None
    start = 0
    while start < x.shape[-1]:
        b = x[..., start:start + block]
        bm = b.max(axis=-1, keepdims=True)
        if m is None:
            m, s = bm, np.exp(b - bm).sum(axis=-1, keepdims=True)
        else:
            m_new = np.maximum(m, bm)
            s = s * np.exp(m - m_new) + np.exp(b - m_new).sum(axis=-1, keepdims=True)
            m = m_new
        start += block
    return np.exp(x - m) / s
''',
    },
    "blocked_attention": {
        "flash": '''
import numpy as np
def blocked_attention(queries, keys, values, block, causal=False):
    dtype = np.result_type(queries, keys, values)
    q = queries / keys.shape[-1] ** 0.5
    nq, nk = q.shape[-2], keys.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], keys.shape[:-2], values.shape[:-2])
    m = np.full(lead + (nq, 1), -np.inf, dtype=dtype)
    s = np.zeros(lead + (nq, 1), dtype=dtype)
    o = np.zeros(lead + (nq, values.shape[-1]), dtype=dtype)
    qi = np.arange(nq)[:, None]
    for start in range(0, nk, block):
        sc = q @ np.swapaxes(keys[..., start:start + block, :], -1, -2)
        if causal:
            j = np.arange(start, min(start + block, nk))[None, :]
            sc = np.where(j <= qi, sc, -np.inf)
        m_new = np.maximum(m, sc.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(m_new), 0.0, m_new).astype(dtype)
        corr = np.exp(m - safe)
        p = np.exp(sc - safe)
        s = s * corr + p.sum(axis=-1, keepdims=True)
        o = o * corr + p @ values[..., start:start + block, :]
        m = m_new
    return o / s
''',
    },
    "grouped_query_attention": {
        "repeat": '''
import numpy as np
def grouped_query_attention(queries, keys, values):
    g = queries.shape[-3] // keys.shape[-3]
    return matrix_attention(queries, np.repeat(keys, g, axis=-3), np.repeat(values, g, axis=-3))
''',
        "reshape_groups": '''
import numpy as np
def grouped_query_attention(queries, keys, values):
    *lead, h, nq, dk = queries.shape
    kv = keys.shape[-3]
    g = h // kv
    q = queries.reshape(*lead, kv, g * nq, dk)
    out = matrix_attention(q, keys, values)
    return out.reshape(*lead, h, nq, values.shape[-1])
''',
    },
}
