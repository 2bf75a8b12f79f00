"""Notebook 07: attention that learns (PyTorch), positions, and a key-value cache (Raschka, ch. 3).

``mhsa_forward`` grades the learner's ``MultiHeadSelfAttention`` module through a function that
builds it, loads four (d_in, d_out) matrices into its ``nn.Linear`` layers (transposed: PyTorch
stores (out, in)) and runs it in eval mode. Its reference is the NumPy multi-head attention of
notebook 06 with an optional causal mask. (The notebook compares the module with
``torch.nn.MultiheadAttention`` in an ungraded cell: a second graded test of the same function, as
the second edition had, graded one answer twice.)

``kv_cache_step``'s reference computes through the shared steps (``reference.attention``), so the
shared mistakes (scaling, softmax, mask sign, ...) apply without being listed; its own mutants are
the cache's: the new keys not appended, the cache ignored, the new keys put first, and the causal
mask not shifted by the cache length or missing among the new tokens (its mask is the shared
``causal_mask``'s corner, so that mask's own mistakes come from the shared transformations).
"""


import numpy as np

from .. import reference_n07 as ref7
from ..mutants import head_layout_mutants
from ..mutants import naive_softmax as _naive_softmax
from . import Exercise

# --- the trainable layer ------------------------------------------------------------------------


def _mhsa(**knobs):
    def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
        return ref7.mhsa(inputs, w_query, w_key, w_value, w_out, n_heads, causal, **knobs)

    return mhsa_forward


_MHSA_MUTANTS = {
    "linear_weight_not_transposed": [
        _mhsa(transpose_weights=("query", "key", "value", "out")),
        _mhsa(transpose_weights=("query", "key", "value")),
        _mhsa(transpose_weights=("out",)),
        # one projection's weight copied without .T, the others with it
        *(_mhsa(transpose_weights=(one,)) for one in ("query", "key", "value")),
    ],
    "causal_flag_ignored": [_mhsa(mask="ignored"), _mhsa(mask="always")],
    "mask_wrong_sign": _mhsa(mask="inverted"),
    "mask_with_zero": _mhsa(masking="zero"),
    "mask_after_softmax": _mhsa(masking="after_softmax"),
    "no_scaling": _mhsa(scale=None),
    "scale_by_sqrt_d_model": [_mhsa(scale="d_out"), _mhsa(scale="d_in")],
    "softmax_wrong_axis": _mhsa(axis=-2),
    "softmax_no_max_subtraction": _mhsa(softmax_fn=_naive_softmax),
    "keys_times_queries": _mhsa(keys_first=True),
    **head_layout_mutants(_mhsa),
    "missing_output_projection": _mhsa(project=False),
    "returns_weights": _mhsa(returns="weights"),
}


# --- positions ----------------------------------------------------------------------------------


def _sinusoidal(**knobs):
    def sinusoidal_encoding(n_positions, d_model):
        return ref7.sinusoidal_encoding(n_positions, d_model, **knobs)

    return sinusoidal_encoding


def _last_pair_unwritten(n_positions, d_model):
    """A loop over range(d_model // 2 - 1): the last pair of columns left at 0."""
    encoding = ref7.sinusoidal_encoding(n_positions, d_model)
    encoding[:, -2:] = 0.0
    return encoding


def _rotary(**knobs):
    def rotary_embedding(x, positions):
        return ref7.rotary_embedding(x, positions, **knobs)

    return rotary_embedding


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


def _cached(**knobs):
    def kv_cache_step(queries, keys, values, cached_keys, cached_values):
        return ref7.kv_cache_step(queries, keys, values, cached_keys, cached_values, **knobs)

    return kv_cache_step


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
            "sinusoid_halves_not_interleaved": _sinusoidal(layout="halves"),
            "sinusoid_wrong_exponent": [*(_sinusoidal(exponent=exponent) for exponent in (
                "column", "column_doubled", "doubled", "pair_index", "positive", "undivided")),
                _sinusoidal(exponent="positive", angles_dtype=np.float32)],
            "sin_cos_swapped": _sinusoidal(swap=True),
            "positions_from_one": _sinusoidal(first_position=1),
            "integer_arithmetic": _sinusoidal(exponent="floored"),
            "loop_leftover": _last_pair_unwritten,
        },
    ),
    Exercise(
        "rotary_embedding",
        mistakes_from=_rotary(),
        framework="torch",
        returns="a tensor with the shape of x",
        mutants={
            "rope_rotation_wrong_direction": _rotary(direction=-1.0),
            "rope_halves_instead_of_pairs": _rotary(pairs="halves"),
            "sinusoid_wrong_exponent": [_rotary(exponent=exponent) for exponent in (
                "pair_index", "doubled", "positive", "undivided")],
            "rope_ignores_positions": _rotary(use_positions=False),
            "sin_cos_swapped": _rotary(swap=True),
            "rope_pair_overwritten_before_use": [_rotary_overwritten("even"), _rotary_overwritten("odd")],
        },
    ),
    Exercise(
        "kv_cache_step",
        mistakes_from=_cached(),
        framework="torch",
        returns="a tensor of shape (..., n_new, d_v): the new tokens' context",
        mutants={
            "kv_cache_new_tokens_missing": _cached(append="missing"),
            "kv_cache_ignored": _cached(append="cache_ignored"),
            "kv_cache_wrong_order": _cached(append="before"),
            "kv_cache_mask_not_shifted": _cached(mask="upper_left"),
            "kv_cache_mask_missing": _cached(mask="none"),
            "mask_after_softmax": _cached(masking="after_softmax"),
        },
    ),
]
