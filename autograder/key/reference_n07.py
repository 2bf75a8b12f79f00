"""References for notebook 07 (trainable attention, positions, a key-value cache), in NumPy.

Same conventions as :mod:`autograder.key.reference`: token vectors are rows, weights multiply on the
right (``inputs @ w_query``), and float32 stays float32. Each function is the right answer, composed
of steps; a step an exercise's mistakes replace is a function the reference takes as a keyword
default (``mhsa(..., weights_of=masked_softmax)``), and a mutant of
``autograder.key.exercises.n07_trainable_attention`` is the reference with one of them (or, where
the mistake needs it, two) replaced by a wrong one.
"""

from __future__ import annotations

import numpy as np

from . import reference as ref
from .reference import as_float, combine_heads, split_heads

ROPE_BASE = 10000.0  # RoFormer (Su et al. 2021) and "Attention Is All You Need" both use 10000

# --- the trainable layer, as NumPy --------------------------------------------------------------


def allowed_keys(n_tokens: int, causal: bool) -> np.ndarray | None:
    """(tokens, tokens) boolean: True where query i may attend to key j; None for no mask.

    The causal mask is ``reference.causal_mask``, so the shared causal-mask mistakes (off by one,
    upper triangle) apply without being listed.
    """
    if not causal:
        return None
    return ref.causal_mask(n_tokens)  # (tokens, tokens)


def head_products(queries, keys):
    """Each head's scores before the scaling: the shared ``dot_products``, queries @ keys^T."""
    return ref.dot_products(queries, keys)  # (..., heads, tokens, tokens)


def head_scaled(scores, inputs, keys):
    """The scores divided by sqrt(d_head), the width of one head's keys (the shared ``key_scale``)."""
    return ref.divide_scores(scores, ref.key_scale(keys.shape[-1], scores.dtype))


def masked_softmax(scores, allowed):
    """The attention weights: the softmax over the keys of the scores, -inf where a key is not allowed."""
    if allowed is not None:
        scores = np.where(allowed, scores, -np.inf)
    return ref.softmax(scores, axis=-1)  # (..., heads, tokens, tokens)


def projected_context(context, weights, w_out):
    """What the layer returns: the heads' combined context through the output projection."""
    return context @ w_out  # (..., tokens, d_out)


def mhsa(inputs, w_query, w_key, w_value, w_out, n_heads, causal, *, split=split_heads, combine=combine_heads,
         products=head_products, scale=head_scaled, allowed=allowed_keys, weights_of=masked_softmax,
         output=projected_context):
    """Multi-head self-attention, optionally causal: (..., tokens, d_in) -> (..., tokens, d_out).

    ``w_query``, ``w_key``, ``w_value``: (d_in, d_out); ``w_out``: (d_out, d_out); head ``h``
    owns columns ``h * d_head:(h + 1) * d_head``. The steps: ``split`` and ``combine`` the heads'
    layout, ``products`` the scores, ``scale`` their divisor, ``allowed`` the mask, ``weights_of``
    the masked softmax, ``output`` what is returned. The products, the scaling, the softmax and the
    weighted sum are the shared steps of :mod:`.reference`, so the shared mistakes
    (:mod:`autograder.key.mistakes`) apply to the layer.
    """
    inputs = as_float(inputs)
    w_query, w_key, w_value, w_out = (as_float(w).astype(inputs.dtype, copy=False)
                                      for w in (w_query, w_key, w_value, w_out))
    queries = split(inputs @ w_query, n_heads)  # (..., heads, tokens, d_head)
    keys = split(inputs @ w_key, n_heads)
    values = split(inputs @ w_value, n_heads)
    scores = scale(products(queries, keys), inputs, keys)  # (..., heads, tokens, tokens)
    weights = weights_of(scores, allowed(scores.shape[-1], causal))  # (..., heads, tokens, tokens)
    context = combine(ref.weighted_values(weights, values))  # (..., tokens, heads * d_head)
    return output(context, weights, w_out)


# --- positions ----------------------------------------------------------------------------------


def pair_power(pair, d):
    """The power of 10000 in theta_i = 10000 ** -power for pair index ``pair``: 2i / d."""
    return 2 * pair / d


def positions_from_zero(n_positions):
    """The positions 0 .. n - 1, as a column: (n_positions, 1) float64."""
    return np.arange(n_positions, dtype=np.float64)[:, None]


def pair_angles(positions, d_model, power=pair_power):
    """The angles t * w_i of the even and the odd columns, ``w_i = 10000 ** (-2i / d_model)`` for
    both columns of pair i: two (positions, d/2) arrays."""
    pair = np.arange(d_model // 2, dtype=np.float64)  # i = 0 .. d/2 - 1
    angles = positions * np.float64(ROPE_BASE) ** (-power(pair, d_model))  # (positions, d/2)
    return angles, angles


def interleaved(even, odd, d_model):
    """(positions, d_model) float64: the even columns from ``even``, the odd ones from ``odd``."""
    encoding = np.empty((even.shape[0], d_model))
    encoding[:, 0::2], encoding[:, 1::2] = even, odd
    return encoding


def sinusoidal_encoding(n_positions, d_model, *, positions=positions_from_zero, angles=pair_angles,
                        even_wave=np.sin, odd_wave=np.cos, layout=interleaved):
    """(n_positions, d_model) float64: ``P[t, 2i] = sin(t w_i)``, ``P[t, 2i + 1] = cos(t w_i)``.

    ``w_i = 10000 ** (-2i / d_model)``. The steps: ``positions`` the column of positions,
    ``angles`` the even and the odd columns' angles, ``even_wave`` and ``odd_wave`` the functions
    of them, ``layout`` where the columns go.
    """
    n_positions, d_model = int(n_positions), int(d_model)
    even, odd = angles(positions(n_positions), d_model)  # (positions, d/2) each
    return layout(even_wave(even), odd_wave(odd), d_model)


def given_positions(positions, n_tokens):
    """The positions the caller gives, as float64: (tokens,)."""
    return np.asarray(positions, dtype=np.float64)


def adjacent_pairs(x):
    """The features of each pair: (2i, 2i + 1), the first and the second of every pair."""
    return x[..., 0::2], x[..., 1::2]


def rotate_pairs(first, second, cos, sin):
    """Each pair (first, second) rotated by its angle: the angle's cosine and sine."""
    return first * cos - second * sin, first * sin + second * cos


def interleaved_pairs(x, rotated_first, rotated_second):
    """The rotated pairs put back where they came from, in ``x``'s shape and dtype."""
    out = np.empty_like(x)
    out[..., 0::2], out[..., 1::2] = rotated_first, rotated_second
    return out


def rotary_embedding(x, positions, *, positions_of=given_positions, power=pair_power, pairs=adjacent_pairs,
                     rotate=rotate_pairs, put_back=interleaved_pairs):
    """RoPE: rotate each pair of features of token t by the angle ``positions[t] * theta_i``.

    ``x``: (..., tokens, d) with d even; ``positions``: (tokens,). Pair i is the features
    (2i, 2i + 1) and ``theta_i = 10000 ** (-2i / d)``::

        out[2i]     = x[2i] cos(a) - x[2i + 1] sin(a)
        out[2i + 1] = x[2i] sin(a) + x[2i + 1] cos(a)

    The steps: ``positions_of`` the positions used, ``power`` as :func:`pair_angles`', ``pairs``
    and ``put_back`` which features make a pair, ``rotate`` the rotation. No ``positions + 1``:
    KEYING.md rules it uncatalogued here.
    """
    x = as_float(x)
    d = x.shape[-1]
    positions = positions_of(positions, x.shape[-2])
    pair = np.arange(d // 2, dtype=np.float64)
    angles = positions[:, None] * ROPE_BASE ** (-power(pair, d))  # (tokens, d/2)
    cos, sin = np.cos(angles).astype(x.dtype), np.sin(angles).astype(x.dtype)
    first, second = pairs(x)
    return put_back(x, *rotate(first, second, cos, sin))


# --- decoding with a key-value cache ------------------------------------------------------------


def cache_allowed(n_new: int, n_all: int) -> np.ndarray:
    """(n_new, n_all) boolean: True where new token i, at position n_all - n_new + i, may attend.

    The last n_new rows (the lower-right corner) of the (n_all, n_all) causal mask, taken from
    ``reference.causal_mask``, so the shared causal-mask mistakes (off by one, upper triangle)
    apply to it without being listed.
    """
    return ref.causal_mask(n_all)[n_all - n_new:]  # (n_new, n_all)


def appended(cached, new):
    """The cache with the new tokens' keys (or values) after it: (..., n_cached + n_new, d)."""
    return np.concatenate([cached, new], axis=-2)


def masked_attention(queries, keys, values, allowed):
    """The shared steps' attention (``reference.attention``) with the mask ``allowed``."""
    return ref.attention(queries, keys, values, allowed)  # (..., n_queries, d_v)


def kv_cache_step(queries, keys, values, cached_keys, cached_values, *, append=appended, allowed=cache_allowed,
                  attention=masked_attention):
    """Attention of the new tokens over the cache with their own keys and values appended.

    ``queries``, ``keys``: (..., n_new, d_k); ``values``: (..., n_new, d_v); ``cached_keys``:
    (..., n_cached, d_k); ``cached_values``: (..., n_cached, d_v). Returns the new tokens' context,
    (..., n_new, d_v), computed from the shared steps of :mod:`.reference` (``ref.attention``), so
    the shared mistakes apply. The steps: ``append`` the keys and values attended to, ``allowed``
    the mask, ``attention`` the masked attention.
    """
    queries = as_float(queries)
    keys, values = as_float(keys), as_float(values)
    cached_keys, cached_values = as_float(cached_keys), as_float(cached_values)
    all_keys = append(cached_keys, keys)  # (..., n_cached + n_new, d_k)
    all_values = append(cached_values, values)  # (..., n_cached + n_new, d_v)
    return attention(queries, all_keys, all_values, allowed(queries.shape[-2], all_keys.shape[-2]))  # (..., n_new, d_v)
