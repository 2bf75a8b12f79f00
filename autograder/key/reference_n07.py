"""References for notebook 07 (trainable attention, positions, a key-value cache), in NumPy.

Same conventions as :mod:`autograder.key.reference`: token vectors are rows, weights multiply on the
right (``inputs @ w_query``), and float32 stays float32. Each function has keyword *knobs* that make
one catalogued mistake on purpose; ``autograder.key.exercises.n07_trainable_attention`` builds its
mutants from them. With the default knobs every function is the correct answer.
"""

from __future__ import annotations

import numpy as np

from . import reference as ref
from .reference import as_float, combine_heads, split_heads

ROPE_BASE = 10000.0  # RoFormer (Su et al. 2021) and "Attention Is All You Need" both use 10000

# --- the trainable layer, as NumPy --------------------------------------------------------------


def allowed_keys(n_tokens: int, causal: bool, mask: str = "causal") -> np.ndarray | None:
    """(tokens, tokens) boolean: True where query i may attend to key j; None for no mask.

    The causal mask is ``reference.causal_mask``, so the shared causal-mask mistakes (off by one,
    upper triangle) apply without being listed. ``mask`` names this layer's own wrong ones:
    ``inverted`` (the complement of the right one), ``ignored`` (never masks) and ``always`` (masks
    even when ``causal`` is False).
    """
    if mask == "ignored" or (not causal and mask != "always"):
        return None
    right = ref.causal_mask(n_tokens)  # (tokens, tokens)
    return ~right if mask == "inverted" else right


def mhsa(inputs, w_query, w_key, w_value, w_out, n_heads, causal, *, mask="causal",
         masking="-inf", scale="d_head", transpose_weights=(), split=split_heads,
         combine=combine_heads, axis=-1, keys_first=False, project=True, returns="output",
         softmax_fn=None):
    """Multi-head self-attention, optionally causal: (..., tokens, d_in) -> (..., tokens, d_out).

    ``w_query``, ``w_key``, ``w_value``: (d_in, d_out); ``w_out``: (d_out, d_out); head ``h``
    owns columns ``h * d_head:(h + 1) * d_head``. Knobs: ``masking`` is ``-inf`` (right), ``zero``
    (masked scores set to 0) or ``after_softmax`` (weights zeroed after an unmasked softmax);
    ``scale`` is ``d_head``, ``None``, ``d_in`` or ``d_out``; ``transpose_weights`` lists the
    matrices (``query``, ``key``, ``value``, ``out``) used transposed, as when a (d_in, d_out)
    matrix is copied unchanged into ``nn.Linear.weight``; ``softmax_fn`` replaces the softmax.
    The products, the scaling, the softmax and the weighted sum are the shared steps of
    :mod:`.reference`, so the shared mistakes (:mod:`autograder.key.mistakes`) apply to the layer.
    """
    inputs = as_float(inputs)
    mats = {"query": w_query, "key": w_key, "value": w_value, "out": w_out}
    mats = {name: (np.swapaxes(as_float(w), -1, -2) if name in transpose_weights else as_float(w))
            .astype(inputs.dtype, copy=False) for name, w in mats.items()}
    queries = split(inputs @ mats["query"], n_heads)  # (..., heads, tokens, d_head)
    keys = split(inputs @ mats["key"], n_heads)
    values = split(inputs @ mats["value"], n_heads)
    scores = (keys @ np.swapaxes(queries, -1, -2) if keys_first
              else ref.dot_products(queries, keys))  # (..., heads, tokens, tokens)
    widths = {"d_head": keys.shape[-1], "d_in": inputs.shape[-1], "d_out": mats["query"].shape[-1]}
    if scale is not None:
        divisor = (ref.key_scale(widths[scale], scores.dtype) if scale == "d_head"  # the shared step
                   else np.sqrt(widths[scale], dtype=scores.dtype))
        scores = ref.divide_scores(scores, divisor)
    allowed = allowed_keys(scores.shape[-1], causal, mask)
    if allowed is not None and masking == "-inf":
        scores = np.where(allowed, scores, -np.inf)
    elif allowed is not None and masking == "zero":
        scores = np.where(allowed, scores, 0.0)
    weights = (softmax_fn or ref.softmax)(scores, axis=axis)  # (..., heads, tokens, tokens)
    if allowed is not None and masking == "after_softmax":
        weights = np.where(allowed, weights, 0.0)
    if returns == "weights":
        return weights
    context = combine(ref.weighted_values(weights, values))  # (..., tokens, heads * d_head)
    return context @ mats["out"] if project else context


# --- positions ----------------------------------------------------------------------------------


def _power(pair, d, exponent="pair"):
    """The power of 10000 in theta_i = 10000 ** -power for pair index ``pair``: 2i / d, or one of
    the slips (see :func:`sinusoidal_encoding`'s knobs)."""
    return {"pair_index": pair / d, "floored": (2 * pair) // d, "positive": -2 * pair / d,
            "undivided": 2 * pair, "doubled": 4 * pair / d}.get(exponent, 2 * pair / d)


def sinusoidal_encoding(n_positions, d_model, *, layout="interleaved", exponent="pair",
                        swap=False, first_position=0, angles_dtype=np.float64):
    """(n_positions, d_model) float64: ``P[t, 2i] = sin(t w_i)``, ``P[t, 2i + 1] = cos(t w_i)``.

    ``w_i = 10000 ** (-2i / d_model)``. Knobs: ``layout`` ``halves`` (sines in the first half of
    the columns, cosines in the second); ``exponent`` ``column`` (10000 ** (-j / d) with j the
    column, so the cosine of a pair gets another frequency than its sine) or ``column_doubled``
    (10000 ** (-2j / d): the column index j taken for i in 2i) or ``doubled`` (10000 ** (-4i / d):
    ``arange(0, d, 2)``, already 2i, doubled again) or ``pair_index``
    (10000 ** (-i / d)) or ``floored`` (``2i // d``, 0 for every pair: integer division) or
    ``positive`` (10000 ** (+2i / d): the sign lost) or ``undivided`` (10000 ** (-2i), no ``/ d``); ``swap``
    (cosines first); ``first_position`` 1 (count from 1); ``angles_dtype`` float32 (the angles
    computed in float32, as a float32 answer computes them: with a positive exponent they grow to
    thousands, where float32's rounding shows in their sines).
    """
    n_positions, d_model = int(n_positions), int(d_model)
    positions = np.arange(first_position, first_position + n_positions, dtype=np.float64)[:, None]
    pair = np.arange(d_model // 2, dtype=np.float64)  # i = 0 .. d/2 - 1
    first, second = (np.cos, np.sin) if swap else (np.sin, np.cos)
    if exponent in ("column", "column_doubled"):
        times = 2 if exponent == "column_doubled" else 1
        even = first(positions * ROPE_BASE ** (-times * (2 * pair) / d_model))
        odd = second(positions * ROPE_BASE ** (-times * (2 * pair + 1) / d_model))
    else:
        power = _power(pair, d_model, exponent).astype(angles_dtype)
        angles = positions.astype(angles_dtype) * angles_dtype(ROPE_BASE) ** (-power)  # (positions, d/2)
        even, odd = first(angles), second(angles)
    if layout == "halves":
        return np.concatenate([even, odd], axis=-1)
    encoding = np.empty((n_positions, d_model))
    encoding[:, 0::2], encoding[:, 1::2] = even, odd
    return encoding


def rotary_embedding(x, positions, *, pairs="adjacent", direction=1.0, exponent="pair",
                     use_positions=True, swap=False):
    """RoPE: rotate each pair of features of token t by the angle ``positions[t] * theta_i``.

    ``x``: (..., tokens, d) with d even; ``positions``: (tokens,). Pair i is the features
    (2i, 2i + 1) and ``theta_i = 10000 ** (-2i / d)``::

        out[2i]     = x[2i] cos(a) - x[2i + 1] sin(a)
        out[2i + 1] = x[2i] sin(a) + x[2i + 1] cos(a)

    Knobs: ``pairs`` ``halves`` (pair i is features i and i + d/2, the GPT-NeoX layout);
    ``direction`` -1 (rotates the other way); ``exponent`` as :func:`sinusoidal_encoding`'s;
    ``use_positions`` False (uses 0, 1, 2, ... instead of the given positions); ``swap`` (sine and
    cosine exchanged in the rotation). No ``positions + 1``: KEYING.md rules it uncatalogued here.
    """
    x = as_float(x)
    d = x.shape[-1]
    n_tokens = x.shape[-2]
    positions = (np.asarray(positions, dtype=np.float64) if use_positions
                 else np.arange(n_tokens, dtype=np.float64))
    pair = np.arange(d // 2, dtype=np.float64)
    power = _power(pair, d, exponent)
    angles = direction * positions[:, None] * ROPE_BASE ** (-power)  # (tokens, d/2)
    cos, sin = np.cos(angles).astype(x.dtype), np.sin(angles).astype(x.dtype)
    if swap:
        cos, sin = sin, cos
    if pairs == "halves":
        first, second = x[..., : d // 2], x[..., d // 2:]
    else:
        first, second = x[..., 0::2], x[..., 1::2]
    rotated_first = first * cos - second * sin
    rotated_second = first * sin + second * cos
    if pairs == "halves":
        return np.concatenate([rotated_first, rotated_second], axis=-1)
    out = np.empty_like(x)
    out[..., 0::2], out[..., 1::2] = rotated_first, rotated_second
    return out


# --- decoding with a key-value cache ------------------------------------------------------------


def cache_allowed(n_new: int, n_all: int, mask: str = "lower_right") -> np.ndarray | None:
    """(n_new, n_all) boolean: True where new token i, at position n_all - n_new + i, may attend.

    The right mask is the last n_new rows (the lower-right corner) of the (n_all, n_all) causal
    mask, taken from ``reference.causal_mask``, so the shared causal-mask mistakes (off by one,
    upper triangle) apply to it without being listed. ``mask`` names a wrong one of this exercise's
    own: ``upper_left`` (the causal mask not shifted by the cache length: new token i sees keys
    0..i) and ``none`` (no mask: the new tokens see each other's future).
    """
    if mask == "none":
        return None
    if mask == "upper_left":
        return np.tril(np.ones((n_new, n_all), dtype=bool))
    return ref.causal_mask(n_all)[n_all - n_new:]  # (n_new, n_all)


def kv_cache_step(queries, keys, values, cached_keys, cached_values, *, append="after",
                  mask="lower_right", masking="-inf"):
    """Attention of the new tokens over the cache with their own keys and values appended.

    ``queries``, ``keys``: (..., n_new, d_k); ``values``: (..., n_new, d_v); ``cached_keys``:
    (..., n_cached, d_k); ``cached_values``: (..., n_cached, d_v). Returns the new tokens' context,
    (..., n_new, d_v), computed from the shared steps of :mod:`.reference` (``ref.attention``), so
    the shared mistakes apply. Knobs: ``append`` ``before`` (the new keys and values put in front
    of the cache), ``missing`` (the new keys and values never appended: the cache alone, unmasked)
    or ``cache_ignored`` (the new tokens alone, causally masked); ``mask`` see
    :func:`cache_allowed`; ``masking`` ``after_softmax`` (weights zeroed after an unmasked softmax).
    """
    queries = as_float(queries)
    keys, values = as_float(keys), as_float(values)
    cached_keys, cached_values = as_float(cached_keys), as_float(cached_values)
    if append == "missing":
        if cached_keys.shape[-2] == 0:  # nothing to attend to: an empty weighted sum, as torch gives it
            return np.zeros((*queries.shape[:-1], cached_values.shape[-1]), dtype=queries.dtype)
        return ref.attention(queries, cached_keys, cached_values)  # (..., n_new, d_v)
    if append == "cache_ignored":
        all_keys, all_values = keys, values
    elif append == "before":
        all_keys = np.concatenate([keys, cached_keys], axis=-2)
        all_values = np.concatenate([values, cached_values], axis=-2)
    else:
        all_keys = np.concatenate([cached_keys, keys], axis=-2)  # (..., n_cached + n_new, d_k)
        all_values = np.concatenate([cached_values, values], axis=-2)  # (..., n_cached + n_new, d_v)
    allowed = cache_allowed(queries.shape[-2], all_keys.shape[-2], mask)  # (n_new, n_all)
    if masking == "after_softmax" and allowed is not None:
        weights = np.where(allowed, ref.attention_weights(queries, all_keys), 0.0)
        return ref.weighted_values(weights, all_values)
    return ref.attention(queries, all_keys, all_values, allowed)  # (..., n_new, d_v)
