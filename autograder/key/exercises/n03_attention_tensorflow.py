"""Notebook 03: TensorFlow's tensors, casting and dtypes, after seed 000.

The references (the solution notebook's functions) are given float64 inputs (``computed_in_float64``:
the ground truth); the shared mistakes are derived from NumPy functions made of the shared steps
(``mistakes_from``), which keep float32 as float32.
"""

import numpy as np

from .. import reference as ref
from . import Exercise


def _sqrt(d_k) -> float:
    """sqrt(d_k) as a Python float (weak in NumPy 2: it keeps float32 arrays float32)."""
    return float(np.sqrt(np.asarray(d_k, dtype=np.float64)))


# --- exercise 1: scale_scores_tf ------------------------------------------------------------------

def _scaled(scores, d_k):
    """scores / sqrt(d_k) through the shared steps; integers become floats, floats keep their dtype."""
    scores = ref.as_float(scores)
    return ref.divide_scores(scores, ref.key_scale(d_k, scores.dtype))

def _truncated_towards_zero(scores, d_k):
    """The scaled scores cast back to the integer dtype: tf.cast truncates towards zero."""
    return np.trunc(ref.as_float(scores) / _sqrt(d_k))

# --- exercise 2: float16_scores ------------------------------------------------------------------

def _queries_transposed(queries, keys):
    """queries.T @ keys / sqrt(d_k) in float32, rounded to the inputs' float16."""
    wide = [np.asarray(a, dtype=np.float32) for a in (queries, keys)]
    with np.errstate(over="ignore", invalid="ignore"):
        scores = wide[0].T @ wide[1] / np.float32(np.sqrt(wide[0].shape[-1]))  # (d_k, d_k)
    return scores.astype(np.asarray(queries).dtype)


def _through_float32(queries, keys):
    """The scaled scores of float16 inputs formed in float32 (the shared steps), rounded back once.

    The shared mistakes are derived from this: made in float32, they overflow only where their
    own result does not fit float16 (unscaled scores), as a learner's float32 computation does.
    """
    dtype = np.asarray(queries).dtype
    wide = [np.asarray(a, dtype=np.float32) for a in (queries, keys)]
    with np.errstate(over="ignore", invalid="ignore"):  # a mistake's unscaled scores may not fit
        return np.asarray(ref.attention_scores(*wide)).astype(dtype)


def _divided_after_float16_product(queries, keys):
    """queries @ keys^T in float16, then divided: a dot product above 65504 is inf already."""
    with np.errstate(over="ignore", invalid="ignore"):  # the overflow is the mistake, not news
        return ref.attention_scores(np.asarray(queries), np.asarray(keys))  # float16 kept


def _queries_floor_divided(queries, keys):
    """The queries floor-divided by sqrt(d_k) before the product (``queries // root``, in the inputs'
    dtype), the product formed in float32."""
    dtype = np.asarray(queries).dtype
    with np.errstate(over="ignore", invalid="ignore"):
        floored = np.asarray(queries) // ref.key_scale(np.shape(keys)[-1], dtype)
        return ref.dot_products(floored.astype(np.float32), np.asarray(keys, np.float32)).astype(dtype)


def _cast_before_dividing(queries, keys):
    """The products formed in float32 but cast to float16 before the division: inf all the same."""
    dtype = np.asarray(queries).dtype
    with np.errstate(over="ignore", invalid="ignore"):
        products = ref.dot_products(np.asarray(queries, np.float32), np.asarray(keys, np.float32)).astype(dtype)
        return ref.divide_scores(products, ref.key_scale(np.shape(keys)[-1], dtype))


# --- exercise 3: float32_roundoff ----------------------------------------------------------------


def _roundoff(x):
    """float32(x) - x in float64."""
    x = np.asarray(x, dtype=np.float64)
    return x.astype(np.float32).astype(np.float64) - x


def _relative_roundoff(x):
    """The round-off divided by x (nan where x is 0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return _roundoff(x) / np.asarray(x, dtype=np.float64)


EXERCISES = [
    Exercise(
        "scale_scores_tf",
        computed_in_float64=True,
        mistakes_from=_scaled,
        framework="tensorflow",
        returns="a float (n_queries, n_keys) tensor: float32 for int32 scores, the scores' dtype for floats",
        mutants={
            "integer_arithmetic": [  # tf.cast back to int32, or scores // int(sqrt(d_k)), or / int(sqrt(d_k))
                _truncated_towards_zero,
                lambda scores, d_k: np.floor(ref.as_float(scores) / float(int(_sqrt(d_k)))),
                lambda scores, d_k: ref.as_float(scores) / float(int(_sqrt(d_k))),
            ],
        },
    ),
    Exercise(
        "float16_scores",
        computed_in_float64=True,
        mistakes_from=_through_float32,
        framework="tensorflow",
        returns="a float16 (n_queries, n_keys) tensor, finite wherever the scaled score fits float16",
        mutants={"float16_overflow": [_divided_after_float16_product, _cast_before_dividing],
                 "integer_arithmetic": _queries_floor_divided,
                 # the queries transposed where the keys should be: queries.T @ keys, (d_k, d_k)
                 "keys_without_transpose": _queries_transposed},
    ),
    Exercise(
        "float32_roundoff",
        mistakes_from=_roundoff,
        framework="tensorflow",
        returns="a float64 tensor of the shape of x",
        # the subtraction done in float32 (both sides rounded first): zero everywhere. Not float16's
        # round-off in place of float32's: KEYING.md rules that uncatalogued (seven sets of eight)
        mutants={"lower_precision": lambda x: (np.asarray(x).astype(np.float32) - np.asarray(x).astype(np.float32))
                 .astype(np.float64),
                 # described slips (verdict.slips): divided by x, its absolute value, the other sign
                 "roundoff_relative": _relative_roundoff,
                 "roundoff_absolute": [lambda x: np.abs(_roundoff(x)), lambda x: -_roundoff(x)]},
    ),
]
