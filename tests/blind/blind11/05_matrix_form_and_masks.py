"""Blind set 11, notebook 05: matrix form and masks. Written from notebooks/05_matrix_form_and_masks.ipynb only."""

MISTAKES = {
    "batched_attention": {
        "plain_transpose": (["transpose", ".t", "last two axes", "swapaxes", "batch"], '''
import numpy as np
from scipy.special import softmax as _sm
def batched_attention(queries, keys, values, scale=True):
    s = queries @ keys.T
    if scale:
        s = s / np.sqrt(keys.shape[-1])
    return _sm(s, axis=-1) @ values
'''),
        "softmax_axis_minus2": (["axis", "keys", "last axis", "rows"], '''
import numpy as np
from scipy.special import softmax as _sm
def batched_attention(queries, keys, values, scale=True):
    s = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        s = s / np.sqrt(keys.shape[-1])
    return _sm(s, axis=-2) @ values
'''),
        "scale_ignored": (["scale=false", "flag", "scale"], '''
import numpy as np
from scipy.special import softmax as _sm
def batched_attention(queries, keys, values, scale=True):
    s = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    return _sm(s, axis=-1) @ values
'''),
        "scale_by_dv": (["d_k", "d_v", "width of the keys", "values"], '''
import numpy as np
from scipy.special import softmax as _sm
def batched_attention(queries, keys, values, scale=True):
    s = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        s = s / np.sqrt(values.shape[-1])
    return _sm(s, axis=-1) @ values
'''),
        "softmax_no_axis": (["axis", "whole", "flatten", "last axis"], '''
import numpy as np
from scipy.special import softmax as _sm
def batched_attention(queries, keys, values, scale=True):
    s = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        s = s / np.sqrt(keys.shape[-1])
    return _sm(s) @ values
'''),
        "naive_exp": (["overflow", "max", "stable", "nan"], '''
import numpy as np
def batched_attention(queries, keys, values, scale=True):
    s = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        s = s / np.sqrt(keys.shape[-1])
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True) @ values
'''),
    },
    "causal_mask": {
        "upper_triangle": (["upper", "triu", "lower", "below the diagonal"], '''
import numpy as np
def causal_mask(n_tokens):
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
        "strict_lower": (["diagonal", "itself", "k=-1", "j <= i"], '''
import numpy as np
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)
'''),
        "float_mask": (["bool", "boolean", "dtype"], '''
import numpy as np
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens)))
'''),
        "inverted": (["true", "false", "inverted", "allowed"], '''
import numpy as np
def causal_mask(n_tokens):
    return ~np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
'''),
    },
    "masked_attention": {
        "fill_zero": (["-inf", "zero", "0 before the softmax", "e^0"], '''
import numpy as np
from scipy.special import softmax as _sm
def masked_attention(queries, keys, values, mask):
    s = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    s = np.where(mask, s, 0.0)
    return _sm(s, axis=-1) @ values
'''),
        "zero_weights_after": (["after the softmax", "sum to 1", "renormal"], '''
import numpy as np
from scipy.special import softmax as _sm
def masked_attention(queries, keys, values, mask):
    s = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    w = _sm(s, axis=-1) * mask
    return w @ values
'''),
        "inverted_mask": (["true", "false", "inverted", "allowed", "hidden"], '''
import numpy as np
from scipy.special import softmax as _sm
def masked_attention(queries, keys, values, mask):
    s = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    s = np.where(mask, -np.inf, s)
    return _sm(s, axis=-1) @ values
'''),
        "renorm_after_unstable": (["overflow", "masked key", "largest score", "before the softmax"], '''
import numpy as np
def masked_attention(queries, keys, values, mask):
    s = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True)) * mask
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ values
'''),
        "no_scale": (["sqrt", "scale", "d_k"], '''
import numpy as np
from scipy.special import softmax as _sm
def masked_attention(queries, keys, values, mask):
    s = queries @ np.swapaxes(keys, -1, -2)
    s = np.where(mask, s, -np.inf)
    return _sm(s, axis=-1) @ values
'''),
    },
    "padding_mask": {
        "less_equal": (["<=", "off by one", "j < lengths", "strict"], '''
import numpy as np
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, :] <= np.asarray(lengths)[:, None])[:, None, :]
'''),
        "missing_axis": (["(batch, 1, n_tokens)", "axis of length 1", "newaxis", "broadcast"], '''
import numpy as np
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
'''),
        "wrong_broadcast_orientation": (["queries", "rows", "columns", "keys", "(batch, 1"], '''
import numpy as np
def padding_mask(lengths, n_tokens):
    m = np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
    return m[:, :, None]
'''),
        "int_mask": (["bool", "boolean", "dtype"], '''
import numpy as np
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens)[None, None, :] < np.asarray(lengths)[:, None, None]).astype(int)
'''),
        "inverted": (["padding", "true", "real tokens", "inverted"], '''
import numpy as np
def padding_mask(lengths, n_tokens):
    return np.arange(n_tokens)[None, None, :] >= np.asarray(lengths)[:, None, None]
'''),
    },
}

VARIANTS = {
    "batched_attention": {
        "swapaxes": '''
import numpy as np
from scipy.special import softmax as _sm
def batched_attention(queries, keys, values, scale=True):
    s = queries @ np.swapaxes(keys, -1, -2)
    if scale:
        s = s / np.sqrt(keys.shape[-1])
    return _sm(s, axis=-1) @ values
''',
        "einsum": '''
import numpy as np
def batched_attention(queries, keys, values, scale=True):
    s = np.einsum("...qd,...kd->...qk", queries, keys)
    if scale:
        s = s / np.sqrt(keys.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    return np.einsum("...qk,...kv->...qv", w, values)
''',
    },
    "causal_mask": {
        "tril": '''
import numpy as np
def causal_mask(n_tokens):
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool))
''',
        "arange": '''
import numpy as np
def causal_mask(n_tokens):
    i = np.arange(n_tokens)
    return i[None, :] <= i[:, None]
''',
    },
    "masked_attention": {
        "where_inf": '''
import numpy as np
from scipy.special import softmax as _sm
def masked_attention(queries, keys, values, mask):
    s = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    s = np.where(mask, s, -np.inf)
    return _sm(s, axis=-1) @ values
''',
        "manual": '''
import numpy as np
def masked_attention(queries, keys, values, mask):
    s = np.matmul(queries, np.swapaxes(keys, -1, -2)) / np.sqrt(keys.shape[-1])
    s = np.where(mask, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return (e / e.sum(axis=-1, keepdims=True)) @ values
''',
    },
    "padding_mask": {
        "broadcast": '''
import numpy as np
def padding_mask(lengths, n_tokens):
    return (np.arange(n_tokens) < np.asarray(lengths)[:, None])[:, None, :]
''',
        "loop": '''
import numpy as np
def padding_mask(lengths, n_tokens):
    lengths = np.asarray(lengths)
    out = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
    for b, n in enumerate(lengths):
        out[b, 0, :n] = True
    return out
''',
    },
}
