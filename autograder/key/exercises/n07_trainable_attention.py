"""Notebook 07: attention that learns (PyTorch), positions, and a key-value cache (Raschka, ch. 3).

``mhsa_forward`` grades the learner's ``MultiHeadSelfAttention`` module through a function that
builds it, loads four (d_in, d_out) matrices into its ``nn.Linear`` layers (transposed: PyTorch
stores (out, in)) and runs it in eval mode. Its reference is the NumPy multi-head attention of
notebook 06 with an optional causal mask. (The notebook compares the module with
``torch.nn.MultiheadAttention`` in an ungraded cell: a second graded test of the same function, as
the second edition had, graded one answer twice.)

Each mutant is a reference of :mod:`..reference_n07` with one step (or two, where the mistake needs
it) replaced by a wrong one, or the right layer on its weights as a slip loads them (without ``.T``).

``kv_cache_step``'s reference computes through the shared steps (``reference.attention``), so the
shared mistakes (scaling, softmax, mask sign, ...) apply without being listed; its own mutants are
the cache's: the new keys not appended, the cache ignored, the new keys put first, and the causal
mask not shifted by the cache length or missing among the new tokens (its mask is the shared
``causal_mask``'s corner, so that mask's own mistakes come from the shared transformations).
"""


from functools import partial

import numpy as np

from .. import reference as ref
from .. import reference_n07 as ref7
from ..mutants import (
    attention_masked_after_softmax,
    head_layout_mutants,
    mask_not_shifted,
    masked_after_softmax,
    naive_softmax,
    no_mask,
    unprojected,
)
from . import Exercise

# --- the trainable layer ------------------------------------------------------------------------


def _mhsa(**wrong):
    """The layer (07's ``mhsa``) graded as ``mhsa_forward``, with the steps in ``wrong`` replaced."""
    def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
        return ref7.mhsa(inputs, w_query, w_key, w_value, w_out, n_heads, causal, **wrong)

    return mhsa_forward


def _weights_not_transposed(*which):
    """The layer with the matrices ``which`` (0 to 3: W_Q, W_K, W_V, W_O) copied into
    ``nn.Linear.weight`` without ``.T``: each used transposed."""
    def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
        weights = [np.swapaxes(ref.as_float(w), -1, -2) if i in which else w
                   for i, w in enumerate((w_query, w_key, w_value, w_out))]
        return ref7.mhsa(inputs, *weights, n_heads, causal)

    return mhsa_forward


def _masked_with_zero(scores, allowed):
    """The masked scores set to 0, not -inf, before the softmax."""
    return ref.softmax(scores if allowed is None else np.where(allowed, scores, 0.0), axis=-1)


def _masked_after_softmax(scores, allowed):
    """An unmasked softmax, the masked weights zeroed after it."""
    weights = ref.softmax(scores, axis=-1)
    return weights if allowed is None else masked_after_softmax(weights, allowed)


def _scaled_by(width):
    """The scores divided by sqrt(width(inputs, keys)) where sqrt(d_head) belongs."""
    def scale(scores, inputs, keys):
        return ref.divide_scores(scores, np.sqrt(width(inputs, keys), dtype=scores.dtype))

    return scale


_MHSA_MUTANTS = {
    "linear_weight_not_transposed": [
        _weights_not_transposed(0, 1, 2, 3),
        _weights_not_transposed(0, 1, 2),
        _weights_not_transposed(3),
        # one projection's weight copied without .T, the others with it
        *(_weights_not_transposed(one) for one in (0, 1, 2)),
    ],
    # the causal flag never masks, or masks always
    "causal_flag_ignored": [_mhsa(allowed=lambda n_tokens, causal: None),
                            _mhsa(allowed=lambda n_tokens, causal: ref.causal_mask(n_tokens))],
    "mask_wrong_sign": _mhsa(allowed=lambda n_tokens, causal: ~ref.causal_mask(n_tokens) if causal else None),
    "mask_with_zero": _mhsa(weights_of=_masked_with_zero),
    "mask_after_softmax": _mhsa(weights_of=_masked_after_softmax),
    "no_scaling": _mhsa(scale=lambda scores, inputs, keys: scores),
    # d_out (the heads' keys side by side), or d_in
    "scale_by_sqrt_d_model": [_mhsa(scale=_scaled_by(lambda inputs, keys: keys.shape[-3] * keys.shape[-1])),
                              _mhsa(scale=_scaled_by(lambda inputs, keys: inputs.shape[-1]))],
    "softmax_wrong_axis": _mhsa(weights_of=lambda scores, allowed: ref.softmax(ref.apply_mask(scores, allowed), axis=-2)),
    "softmax_no_max_subtraction": _mhsa(
        weights_of=lambda scores, allowed: naive_softmax(ref.apply_mask(scores, allowed), axis=-1)),
    "keys_times_queries": _mhsa(products=lambda queries, keys: keys @ np.swapaxes(queries, -1, -2)),
    **head_layout_mutants(_mhsa),
    "missing_output_projection": _mhsa(output=unprojected),
    "returns_weights": _mhsa(output=lambda context, weights, w_out: weights),
}


# --- positions ----------------------------------------------------------------------------------

# The power of 10000 in theta_i = 10000 ** -power, written wrong: i / d (the pair index where 2i
# belongs), 4i / d (``arange(0, d, 2)``, already 2i, doubled again), +2i / d (the sign lost), 2i (no
# ``/ d``), or 2i // d (integer division: 0 for every pair)
_PAIR_INDEX, _DOUBLED, _POSITIVE, _UNDIVIDED, _FLOORED = (
    lambda pair, d: pair / d, lambda pair, d: 4 * pair / d, lambda pair, d: -2 * pair / d,
    lambda pair, d: 2 * pair, lambda pair, d: (2 * pair) // d)


def _sinusoidal(**wrong):
    """07's ``sinusoidal_encoding`` with the steps in ``wrong`` replaced."""
    def sinusoidal_encoding(n_positions, d_model):
        return ref7.sinusoidal_encoding(n_positions, d_model, **wrong)

    return sinusoidal_encoding


def _column_angles(times):
    """Angles from the column index j: 10000 ** (-times * j / d), so the cosine of a pair gets
    another frequency than its sine (``times`` 2: j taken for i in 2i)."""
    def angles(positions, d_model):
        pair = np.arange(d_model // 2, dtype=np.float64)
        return (positions * ref7.ROPE_BASE ** (-times * (2 * pair) / d_model),
                positions * ref7.ROPE_BASE ** (-times * (2 * pair + 1) / d_model))

    return angles


def _float32_angles(power):
    """The angles computed in float32, as a float32 answer computes them: with a positive exponent
    they grow to thousands, where float32's rounding shows in their sines."""
    def angles(positions, d_model):
        pair = np.arange(d_model // 2, dtype=np.float64)
        angles = positions.astype(np.float32) * np.float32(ref7.ROPE_BASE) ** (-power(pair, d_model).astype(np.float32))
        return angles, angles

    return angles


def _halves(even, odd, d_model):
    """Sines in the first half of the columns, cosines in the second."""
    return np.concatenate([even, odd], axis=-1)


def _last_pair_unwritten(n_positions, d_model):
    """A loop over range(d_model // 2 - 1): the last pair of columns left at 0."""
    encoding = ref7.sinusoidal_encoding(n_positions, d_model)
    encoding[:, -2:] = 0.0
    return encoding


def _rotary(**wrong):
    """07's ``rotary_embedding`` with the steps in ``wrong`` replaced."""
    def rotary_embedding(x, positions):
        return ref7.rotary_embedding(x, positions, **wrong)

    return rotary_embedding


def _halves_of(x):
    """Pair i is the features i and i + d/2 (the GPT-NeoX layout)."""
    d = x.shape[-1]
    return x[..., : d // 2], x[..., d // 2:]


def _rotary_overwritten(first_written="even"):
    """RoPE written in place: one feature of each pair is overwritten by its rotated value, and the
    other is then computed from that rotated value instead of the original (``first_written`` says
    which half of the pairs is written first: the even features 0, 2, ... or the odd ones)."""

    def rotary_embedding(x, positions):
        x = ref7.as_float(x)
        d = x.shape[-1]
        angles = np.asarray(positions, dtype=np.float64)[:, None] * ref7.ROPE_BASE ** (
            -np.arange(0, d, 2, dtype=np.float64) / d)
        cos, sin = np.cos(angles).astype(x.dtype), np.sin(angles).astype(x.dtype)
        even, odd = x[..., 0::2], x[..., 1::2]
        out = np.empty_like(x)
        if first_written == "even":
            out[..., 0::2] = even * cos - odd * sin
            out[..., 1::2] = out[..., 0::2] * sin + odd * cos
        else:
            out[..., 1::2] = even * sin + odd * cos
            out[..., 0::2] = even * cos - out[..., 1::2] * sin
        return out

    return rotary_embedding


# --- decoding with a key-value cache ------------------------------------------------------------


def _cached(**wrong):
    """07's ``kv_cache_step`` with the steps in ``wrong`` replaced."""
    def kv_cache_step(queries, keys, values, cached_keys, cached_values):
        return ref7.kv_cache_step(queries, keys, values, cached_keys, cached_values, **wrong)

    return kv_cache_step


def _new_tokens_not_appended(queries, keys, values, cached_keys, cached_values):
    """The new keys and values never appended: the cache alone, unmasked (an empty cache gives an
    empty weighted sum, zeros, as torch gives it)."""
    queries, cached_keys, cached_values = (ref.as_float(a) for a in (queries, cached_keys, cached_values))
    if cached_keys.shape[-2] == 0:
        return np.zeros((*queries.shape[:-1], cached_values.shape[-1]), dtype=queries.dtype)
    return ref.attention(queries, cached_keys, cached_values)  # (..., n_new, d_v)


EXERCISES = [
    Exercise(
        "mhsa_forward",
        mistakes_from=_mhsa(),
        framework="torch",
        returns="a tensor of shape (batch, tokens, d_out)",
        mutants=_MHSA_MUTANTS,
    ),
    Exercise(
        "sinusoidal_encoding",
        mistakes_from=_sinusoidal(),
        framework="torch",
        returns="a float32 tensor of shape (n_positions, d_model)",
        dtype="float32",
        dtype_hint="Positions and frequencies made from Python or NumPy numbers are float64 (and "
                   "`torch.arange(n)` is int64): give `dtype=torch.float32`.",
        mutants={
            "sinusoid_halves_not_interleaved": _sinusoidal(layout=_halves),
            "sinusoid_wrong_exponent": [
                _sinusoidal(angles=_column_angles(1)), _sinusoidal(angles=_column_angles(2)),
                *(_sinusoidal(angles=partial(ref7.pair_angles, power=power))
                  for power in (_DOUBLED, _PAIR_INDEX, _POSITIVE, _UNDIVIDED)),
                _sinusoidal(angles=_float32_angles(_POSITIVE))],
            # cosines in the even columns, sines in the odd ones
            "sin_cos_swapped": _sinusoidal(even_wave=np.cos, odd_wave=np.sin),
            "positions_from_one": _sinusoidal(
                positions=lambda n_positions: np.arange(1, 1 + n_positions, dtype=np.float64)[:, None]),
            "integer_arithmetic": _sinusoidal(angles=partial(ref7.pair_angles, power=_FLOORED)),
            "loop_leftover": _last_pair_unwritten,
        },
    ),
    Exercise(
        "rotary_embedding",
        mistakes_from=_rotary(),
        framework="torch",
        returns="a tensor with the shape of x",
        mutants={
            # the sines' sign flipped: every pair turned by minus its angle
            "rope_rotation_wrong_direction": _rotary(
                rotate=lambda first, second, cos, sin: ref7.rotate_pairs(first, second, cos, -sin)),
            "rope_halves_instead_of_pairs": _rotary(
                pairs=_halves_of, put_back=lambda x, first, second: np.concatenate([first, second], axis=-1)),
            "sinusoid_wrong_exponent": [_rotary(power=power) for power in (_PAIR_INDEX, _DOUBLED, _POSITIVE,
                                                                           _UNDIVIDED)],
            "rope_ignores_positions": _rotary(
                positions_of=lambda positions, n_tokens: np.arange(n_tokens, dtype=np.float64)),
            "sin_cos_swapped": _rotary(rotate=lambda first, second, cos, sin: ref7.rotate_pairs(first, second, sin, cos)),
            "rope_pair_overwritten_before_use": [_rotary_overwritten("even"), _rotary_overwritten("odd")],
        },
    ),
    Exercise(
        "kv_cache_step",
        mistakes_from=_cached(),
        framework="torch",
        returns="a tensor of shape (..., n_new, d_v): the new tokens' context",
        mutants={
            "kv_cache_new_tokens_missing": _new_tokens_not_appended,
            "kv_cache_ignored": _cached(append=lambda cached, new: new),
            # the new keys and values put in front of the cache
            "kv_cache_wrong_order": _cached(append=lambda cached, new: np.concatenate([new, cached], axis=-2)),
            "kv_cache_mask_not_shifted": _cached(allowed=mask_not_shifted),
            "kv_cache_mask_missing": _cached(allowed=no_mask),
            "mask_after_softmax": _cached(attention=attention_masked_after_softmax),
        },
    ),
]
