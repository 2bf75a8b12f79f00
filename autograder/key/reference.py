"""Reference implementations in NumPy: the ground truth every check compares against.

Conventions, shared by the whole course and by ``reference_torch`` and ``reference_tf``:

- token vectors are rows: ``inputs`` is ``(tokens, d_model)``, optionally with leading batch axes;
- projection weights are ``(d_model, d_k)`` and multiply on the right: ``queries = inputs @ w_query``;
- ``scores[i, j] = queries[i] . keys[j]``, and every row of ``weights`` sums to 1;
- a boolean ``mask`` is True where a query may attend to a key (as in
  ``torch.nn.functional.scaled_dot_product_attention``), broadcastable to ``(..., queries, keys)``.

All functions compute in float64 unless given another floating dtype, and never change their inputs.

The steps every attention computation shares are small functions of their own (``softmax``,
``dot_products``, ``key_scale``, ``divide_scores``, ``apply_mask``, ``weighted_values``,
``project``, ``split_heads``, ``combine_heads``), called through this module's namespace: a
catalogued mistake is defined once, in :mod:`autograder.key.mistakes`, as a wrong version of one
step, and every exercise whose reference takes that step gets the mistake, without listing it.
"""

from __future__ import annotations

import numpy as np


def as_float(x) -> np.ndarray:
    """``x`` as a floating NumPy array: integers become float64, float32 stays float32."""
    x = np.asarray(x)
    return x if np.issubdtype(x.dtype, np.floating) else x.astype(np.float64)


def softmax(scores, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax: subtracting the maximum keeps ``exp`` from overflowing."""
    scores = as_float(scores)
    shifted = scores - scores.max(axis=axis, keepdims=True)
    exps = np.exp(shifted)
    return exps / exps.sum(axis=axis, keepdims=True)


def dot_scores(query, inputs) -> np.ndarray:
    """Scores of one ``query`` (d,) against every row of ``inputs`` (tokens, d): shape (tokens,)."""
    return dot_products(as_float(query)[None, :], inputs)[0]


def weighted_sum(weights, vectors) -> np.ndarray:
    """The context vector: ``sum_i weights[i] * vectors[i]``, shape (d,)."""
    return as_float(weights) @ as_float(vectors)


def project(inputs, w_query, w_key, w_value):
    """Queries, keys and values: each ``inputs @ w``, shape (..., tokens, d_k)."""
    inputs = as_float(inputs)
    return inputs @ as_float(w_query), inputs @ as_float(w_key), inputs @ as_float(w_value)


def dot_products(queries, keys) -> np.ndarray:
    """``queries @ keys^T`` over the last two axes: (..., n_queries, d_k), (..., n_keys, d_k) -> (..., n_queries, n_keys)."""
    return as_float(queries) @ np.swapaxes(as_float(keys), -1, -2)


def key_scale(d_k, dtype=np.float64):
    """The divisor of the scores for keys of width ``d_k``: sqrt(d_k), in ``dtype``."""
    return np.sqrt(d_k, dtype=dtype)  # a float64 scalar would promote float32


def divide_scores(scores, divisor) -> np.ndarray:
    """The scores divided once by ``divisor``."""
    return as_float(scores) / divisor


def attention_scores(queries, keys, scale: bool | float = True) -> np.ndarray:
    """``queries @ keys^T``, divided by sqrt(d_k) when ``scale`` is True (or by ``scale`` if a number).

    Shapes: queries (..., n_queries, d_k), keys (..., n_keys, d_k) -> (..., n_queries, n_keys).
    """
    scores = dot_products(queries, keys)  # (..., n_queries, n_keys)
    if scale is True:
        scale = key_scale(np.shape(keys)[-1], scores.dtype)
    return divide_scores(scores, scale) if scale else scores


def weighted_values(weights, values) -> np.ndarray:
    """Each query's weighted sum of the values: (..., n_queries, n_keys) @ (..., n_keys, d_v)."""
    return as_float(weights) @ as_float(values)


def apply_mask(scores, mask=None) -> np.ndarray:
    """Scores with -inf wherever ``mask`` is False, so softmax gives those keys weight 0."""
    scores = as_float(scores)
    if mask is None:
        return scores
    return np.where(np.asarray(mask, dtype=bool), scores, -np.inf)


def attention_weights(queries, keys, mask=None, scale: bool | float = True) -> np.ndarray:
    """Softmax over keys of the (scaled, masked) scores: (..., n_queries, n_keys), rows sum to 1."""
    return softmax(apply_mask(attention_scores(queries, keys, scale), mask), axis=-1)


def attention(queries, keys, values, mask=None, scale: bool | float = True) -> np.ndarray:
    """Scaled dot-product attention: ``softmax(Q K^T / sqrt(d_k)) V``, shape (..., n_queries, d_v)."""
    return weighted_values(attention_weights(queries, keys, mask, scale), values)


def self_attention(inputs, w_query, w_key, w_value, mask=None, scale: bool | float = True):
    """Project ``inputs`` to queries, keys and values, then attend: (..., tokens, d_v)."""
    queries, keys, values = project(inputs, w_query, w_key, w_value)
    if scale is True:
        scale = self_attention_scale(inputs, keys)
    return attention(queries, keys, values, mask, scale)


def self_attention_scale(inputs, keys):
    """The divisor of self-attention's scores: sqrt(d_k), the keys' width (not the inputs')."""
    keys = as_float(keys)
    return key_scale(keys.shape[-1], keys.dtype)


def causal_mask(n_tokens: int) -> np.ndarray:
    """(n, n) boolean mask, True on and below the diagonal: token i sees tokens 0..i."""
    return np.tril(np.ones((n_tokens, n_tokens), dtype=bool))


def padding_mask(lengths, n_tokens: int) -> np.ndarray:
    """(batch, 1, n) boolean mask, True for the first ``lengths[b]`` keys of sequence b."""
    lengths = np.asarray(lengths)
    keep = np.arange(n_tokens)[None, :] < lengths[:, None]  # (batch, n_keys)
    return keep[:, None, :]


def split_heads(x, n_heads: int) -> np.ndarray:
    """(..., tokens, d_model) -> (..., heads, tokens, d_head), head h taking columns h*d_head.."""
    x = np.asarray(x)
    *lead, tokens, d_model = x.shape
    if d_model % n_heads:
        raise ValueError(f"d_model={d_model} is not divisible by n_heads={n_heads}")
    x = x.reshape(*lead, tokens, n_heads, d_model // n_heads)  # (..., tokens, heads, d_head)
    return np.swapaxes(x, -3, -2)  # (..., heads, tokens, d_head)


def combine_heads(x) -> np.ndarray:
    """(..., heads, tokens, d_head) -> (..., tokens, heads * d_head): concatenate the heads."""
    x = np.swapaxes(np.asarray(x), -3, -2)  # (..., tokens, heads, d_head)
    return x.reshape(*x.shape[:-2], x.shape[-2] * x.shape[-1])


def multi_head_attention(
    inputs, w_query, w_key, w_value, w_out, n_heads: int, mask=None, biases=None
) -> np.ndarray:
    """Multi-head self-attention with square (d_model, d_model) projections and output projection.

    ``biases``, if given, is a tuple (b_query, b_key, b_value, b_out) of (d_model,) vectors.
    """
    b_query, b_key, b_value, b_out = biases if biases is not None else (0.0, 0.0, 0.0, 0.0)
    inputs = as_float(inputs)
    queries = split_heads(inputs @ w_query + b_query, n_heads)  # (..., heads, tokens, d_head)
    keys = split_heads(inputs @ w_key + b_key, n_heads)
    values = split_heads(inputs @ w_value + b_value, n_heads)
    context = attention(queries, keys, values, mask)  # (..., heads, tokens, d_head)
    return combine_heads(context) @ w_out + b_out  # (..., tokens, d_model)
