"""Wrong versions of common steps that several exercises' mutants are built from (grading side)."""

from __future__ import annotations

import numpy as np

from .reference import as_float, softmax


def naive_softmax(scores, axis: int = -1):
    """Softmax without subtracting the maximum: inf, then nan, on large scores (float32 stays float32)."""
    exps = np.exp(as_float(scores))
    return exps / exps.sum(axis=axis, keepdims=True)


def softmax_over_all_entries(scores, axis=None):
    """``scipy.special.softmax`` without an axis: one normalisation over every entry of the array."""
    return softmax(as_float(scores).reshape(-1)).reshape(np.shape(scores))
