"""Wrong versions of common steps that several exercises' mutants are built from (grading side)."""

from __future__ import annotations

import numpy as np

from . import reference as ref
from .reference import as_float, softmax


def naive_softmax(scores, axis: int = -1):
    """Softmax without subtracting the maximum: inf, then nan, on large scores (float32 stays float32)."""
    exps = np.exp(as_float(scores))
    return exps / exps.sum(axis=axis, keepdims=True)


def global_max_softmax(scores, axis: int = -1):
    """One maximum subtracted for the whole array: rows far below it underflow (a decoy mistake)."""
    scores = as_float(scores)
    exps = np.exp(scores - scores.max())
    return exps / exps.sum(axis=axis, keepdims=True)


def softmax_over_all_entries(scores, axis=None):
    """``scipy.special.softmax`` without an axis: one normalisation over every entry of the array."""
    return softmax(as_float(scores).reshape(-1)).reshape(np.shape(scores))


def relu(x):
    """ReLU where GELU belongs."""
    return np.maximum(as_float(x), 0)


def gelu_tanh(x):
    """GELU's tanh approximation (``approximate="tanh"``, GPT-2's) where the exact erf form belongs."""
    x = as_float(x)
    inner = np.sqrt(2 / np.pi, dtype=x.dtype) * (x + x.dtype.type(0.044715) * x**3)
    return 0.5 * x * (1 + np.tanh(inner))


# --- splitting and combining heads, wrong: a reshape without the transpose, or interleaved columns --


def split_heads_without_transpose(x, n_heads):
    """Reshape straight to (..., heads, tokens, d_head): each 'head' gets pieces of several tokens."""
    x = np.asarray(x)
    *lead, tokens, d_model = x.shape
    return x.reshape(*lead, n_heads, tokens, d_model // n_heads)


def split_heads_tokens_first(x, n_heads):
    """Reshape to (..., tokens, heads, d_head) and stop there: the heads axis never moved in front."""
    x = np.asarray(x)
    return x.reshape(*x.shape[:-1], n_heads, x.shape[-1] // n_heads)


def split_heads_interleaved(x, n_heads):
    """Head h takes every n_heads-th column (h, h + n_heads, ...) instead of a block."""
    x = np.asarray(x)
    *lead, tokens, d_model = x.shape
    x = x.reshape(*lead, tokens, d_model // n_heads, n_heads)  # (..., tokens, d_head, heads)
    return np.moveaxis(x, -1, -3)  # (..., heads, tokens, d_head)


def combine_heads_without_transpose(x):
    x = np.asarray(x)
    *lead, heads, tokens, d_head = x.shape
    return x.reshape(*lead, tokens, heads * d_head)


def combine_heads_interleaved(x):
    x = np.moveaxis(np.asarray(x), -3, -1)  # (..., tokens, d_head, heads)
    return x.reshape(*x.shape[:-2], x.shape[-2] * x.shape[-1])


def masked_after_softmax(weights, keep, renormalised: bool = False):
    """Weights masked after the softmax: rows that no longer sum to 1; or renormalised, which is
    right until every kept weight of a row underflows to 0 (then nan)."""
    weights = np.where(keep, weights, 0.0)
    return weights / weights.sum(axis=-1, keepdims=True) if renormalised else weights


def unprojected(context, weights, w_out):
    """Multi-head attention's output step without the output projection: the heads' context as it is."""
    return context


# --- the causal mask of new tokens over more keys (07's cache, 09's causal attention), wrong --------


def mask_not_shifted(n_new, n_all):
    """The causal mask not shifted by the keys before the new tokens: new token i sees keys 0..i."""
    return np.tril(np.ones((n_new, n_all), dtype=bool))


def no_mask(n_new, n_all):
    """No mask: the new tokens see each other's future."""
    return None


def attention_masked_after_softmax(queries, keys, values, allowed):
    """The shared steps' attention with the weights zeroed where ``allowed`` is False after an
    unmasked softmax (a mask of None: the plain attention)."""
    if allowed is None:
        return ref.attention(queries, keys, values)
    return ref.weighted_values(masked_after_softmax(ref.attention_weights(queries, keys), allowed), values)


def head_layout_mutants(make) -> dict:
    """The two wrong head layouts, made in the split and the combination together or in only one of
    them (the other done right, or by calling split_heads / combine_heads, which the checks replace
    by references): ``make(split=..., combine=...)`` builds one multi-head function."""
    return {
        "heads_reshape_without_transpose": [
            make(split=split_heads_without_transpose, combine=combine_heads_without_transpose),
            make(combine=combine_heads_without_transpose),
            make(split=split_heads_without_transpose),
        ],
        "heads_interleaved": [
            make(split=split_heads_interleaved, combine=combine_heads_interleaved),
            make(combine=combine_heads_interleaved),
            make(split=split_heads_interleaved),
        ],
    }
