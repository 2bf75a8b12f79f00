"""Notebook 03: TensorFlow's tensors, casting and dtypes, after seed 000.

The references compute in float64 (the ground truth); the shared mistakes are derived from NumPy
functions made of the shared steps (``mistakes_from``), which keep float32 as float32.
"""

import numpy as np

from .. import reference as ref
from . import Exercise


def _sqrt(d_k) -> float:
    """sqrt(d_k) as a Python float (weak in NumPy 2: it keeps float32 arrays float32)."""
    return float(np.sqrt(np.asarray(d_k, dtype=np.float64)))

def _in_float64(function):
    """``function`` computed in float64 whatever the inputs' dtype: the ground truth."""
    return lambda *args: function(*(np.asarray(a, dtype=np.float64) if hasattr(a, "shape") else a
                                    for a in args))

# --- exercise 1: scale_scores_tf ------------------------------------------------------------------

def _scaled(scores, d_k):
    """scores / sqrt(d_k) through the shared steps; integers become floats, floats keep their dtype."""
    scores = ref.as_float(scores)
    return ref.divide_scores(scores, ref.key_scale(d_k, scores.dtype))

def _truncated_towards_zero(scores, d_k):
    """The scaled scores cast back to the integer dtype: tf.cast truncates towards zero."""
    return np.trunc(ref.as_float(scores) / _sqrt(d_k))

# --- exercise 2: weighted_values_tf ---------------------------------------------------------------

def _weights_as_integers(weights, values):
    """The weights cast to the values' integer dtype (to int32, 0.9999 is 0) before the product."""
    values = np.asarray(values)
    if not np.issubdtype(values.dtype, np.integer):
        return ref.weighted_values(weights, values)
    return ref.weighted_values(np.trunc(ref.as_float(weights)), values)

# --- exercise 3: float32_roundoff ----------------------------------------------------------------


def _roundoff(x):
    """float32(x) - x in float64."""
    x = np.asarray(x, dtype=np.float64)
    return x.astype(np.float32).astype(np.float64) - x


EXERCISES = [
    Exercise(
        "scale_scores_tf",
        reference=_in_float64(_scaled),
        mistakes_from=_scaled,
        framework="tensorflow",
        returns="a float (n_queries, n_keys) tensor: float32 for int32 scores, the scores' dtype for floats",
        mutants={
            "integer_arithmetic": [  # tf.cast back to int32, or scores // int(sqrt(d_k))
                _truncated_towards_zero,
                lambda scores, d_k: np.floor(ref.as_float(scores) / float(int(_sqrt(d_k)))),
            ],
        },
    ),
    Exercise(
        "weighted_values_tf",
        reference=_in_float64(lambda weights, values: ref.weighted_values(weights, values)),
        mistakes_from=lambda weights, values: ref.weighted_values(weights, values),
        framework="tensorflow",
        returns="a (n_queries, d_v) tensor in the weights' dtype",
        mutants={"integer_arithmetic": _weights_as_integers},
    ),
    Exercise(
        "float32_roundoff",
        reference=_roundoff,
        framework="tensorflow",
        returns="a float64 tensor of the shape of x",
    ),
]
