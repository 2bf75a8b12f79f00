"""Notebook 03: the same attention in TensorFlow, integer inputs and float32, after seed 000.

The references compute in float64; the mutants keep float32 as float32, so that a mutant
reproduces a float32 overflow the way the learner's TensorFlow code does. The ``uses`` stand-ins keep TensorFlow's dtypes instead: int32 scores stay int32 and weights are
float32, so a learner's ``attention_tf`` that calls them sees what its own helpers would return.
"""

import math

import numpy as np

from .. import reference as ref
from ..mutants import naive_softmax as _naive_softmax
from . import Exercise


def _sqrt(d_k) -> float:
    """sqrt(d_k) as a Python float (weak in NumPy 2: it keeps float32 arrays float32)."""
    return float(np.sqrt(np.asarray(d_k, dtype=np.float64)))




def _in_float64(function):
    """``function`` computed in float64 whatever the inputs' dtype: the ground truth."""
    return lambda *args: function(*(np.asarray(a, dtype=np.float64) if hasattr(a, "shape") else a
                                    for a in args))


# --- exercise 1: scores ---------------------------------------------------------------------------


def _scores(queries, keys):
    """queries @ keys^T in the inputs' own dtype: int32 in, exact int32 out."""
    return np.asarray(queries) @ np.swapaxes(np.asarray(keys), -1, -2)  # (n_queries, n_keys)


# --- exercise 2: weights from scores --------------------------------------------------------------


def _weights_with(divisor=lambda scores, d_k: _sqrt(d_k), normalise=ref.softmax, floor=False):
    """softmax(scores / divisor) with one step replaced; floats keep their precision."""

    def weights(scores, d_k):
        scaled = ref.as_float(scores) / divisor(scores, d_k)
        if floor:  # what `scores // 2` or a cast back to int32 does
            scaled = np.floor(scaled)
        return normalise(scaled, axis=-1)

    return weights


_weights = _weights_with()


def _weights_float32(scores, d_k):
    """The stand-in for a learner's attention_weights_tf: float32 like tf.nn.softmax."""
    scores = np.asarray(scores)
    if not np.issubdtype(scores.dtype, np.floating):
        scores = scores.astype(np.float32)
    return ref.softmax(scores / _sqrt(d_k), axis=-1)


_WEIGHT_MUTANTS = {
    "integer_arithmetic": [  # scores / sqrt(d_k) floored (a cast back to int32), or scores // int(sqrt(d_k))
        _weights_with(floor=True),
        _weights_with(divisor=lambda s, d_k: float(int(_sqrt(d_k))), floor=True),
    ],
    "no_scaling": _weights_with(divisor=lambda s, d_k: 1.0),
    "scale_by_d_k": _weights_with(divisor=lambda s, d_k: float(d_k)),
    "scale_by_sqrt_tokens": _weights_with(divisor=lambda s, d_k: math.sqrt(np.shape(s)[-1])),
    "softmax_wrong_axis": _weights_with(normalise=lambda s, axis: ref.softmax(s, axis=-2)),
    "softmax_no_max_subtraction": _weights_with(
        normalise=lambda s, axis: _naive_softmax(s.astype(np.float32) if s.dtype == np.float64
                                                 else s, axis)),
    "normalise_by_sum": _weights_with(normalise=lambda s, axis: s / s.sum(axis=axis, keepdims=True)),
    "no_softmax": _weights_with(normalise=lambda s, axis: s),
}


# --- exercises 3 and 4: attention from the embeddings ---------------------------------------------


def _attention_with(weights_of=_weights, scores_of=lambda q, k: q @ np.swapaxes(k, -1, -2),
                     combine=lambda weights, scores, queries, keys, values: weights @ values):
    """Self-attention of ``inputs`` with one step replaced; float32 inputs stay float32."""

    def attention(inputs, w_query, w_key, w_value):
        queries, keys, values = (ref.as_float(inputs) @ ref.as_float(w)
                                 for w in (w_query, w_key, w_value))  # (tokens, d_k)
        scores = scores_of(queries, keys)  # (queries, keys)
        weights = weights_of(scores, keys.shape[-1])  # each row sums to 1
        return combine(weights, scores, queries, keys, values)  # (queries, d_v)

    return attention


def _attention_mutants() -> dict:
    mutants = {mistake: [_attention_with(weights_of=way) for way in (weights if isinstance(weights, list) else [weights])]
               for mistake, weights in _WEIGHT_MUTANTS.items()}
    mutants.update({
        "keys_times_queries": _attention_with(scores_of=lambda q, k: k @ np.swapaxes(q, -1, -2)),
        "keys_without_transpose": _attention_with(scores_of=lambda q, k: q @ k),
        "weights_transposed": _attention_with(combine=lambda w, s, q, k, v: np.swapaxes(w, -1, -2) @ v),
        "weights_times_scores": _attention_with(combine=lambda w, s, q, k, v: w @ s),
        "weights_times_keys": _attention_with(combine=lambda w, s, q, k, v: w @ k),
        "returns_weights": _attention_with(combine=lambda w, s, q, k, v: w),
        "returns_scores": _attention_with(combine=lambda w, s, q, k, v: s),
    })
    return mutants


EXERCISES = [
    Exercise(
        "scores_tf",
        reference=lambda queries, keys: ref.attention_scores(queries, keys, scale=False),
        framework="tensorflow",
        returns="a (n_queries, n_keys) tensor of scores, int32 for int32 inputs",
        integers_ok=True,
        mutants={
            "keys_times_queries": lambda queries, keys: _scores(keys, queries),
            "keys_without_transpose": lambda queries, keys: np.asarray(queries) @ np.asarray(keys),
            "sum_instead_of_dot": lambda queries, keys: np.asarray(queries) * np.asarray(keys),
            "scaled_too_early": lambda queries, keys: _scores(queries, keys) / _sqrt(np.shape(keys)[-1]),
        },
    ),
    Exercise(
        "attention_weights_tf",
        reference=_in_float64(lambda scores, d_k: ref.scaled_softmax(scores, d_k)),
        mistakes_from=lambda scores, d_k: ref.scaled_softmax(scores, d_k),
        framework="tensorflow",
        returns="a float32 (n_queries, n_keys) tensor of weights",
        mutants=_WEIGHT_MUTANTS,
    ),
    Exercise(
        "attention_tf",
        reference=_in_float64(lambda *args: ref.self_attention(*args)),
        mistakes_from=lambda *args: ref.self_attention(*args),
        framework="tensorflow",
        returns="a float32 (tokens, d_v) tensor, one attention output per word",
        uses={"scores_tf": _scores, "attention_weights_tf": _weights_float32},
        mutants=_attention_mutants(),
    ),
    Exercise(
        "attention_numpy",
        reference=_in_float64(lambda *args: ref.self_attention(*args)),
        mistakes_from=lambda *args: ref.self_attention(*args),
        framework="numpy",
        returns="a floating (tokens, d_v) NumPy array, one attention output per word",
        mutants=_attention_mutants(),
    ),
]
