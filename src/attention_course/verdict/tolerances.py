"""How close is right: tolerances by dtype, in one place, and the precision a task is judged at.

:data:`TOLERANCES` is the only table of tolerances in the course; :func:`task_dtype` picks the row
from the task's inputs, never from the answer (a float32 answer to a float64 task fails).
"""

from __future__ import annotations

import numpy as np

# (rtol, atol) by the precision of the result. float32 carries ~7 significant digits.
TOLERANCES: dict[str, tuple[float, float]] = {
    "float16": (2e-3, 2e-3),
    "float32": (2e-5, 2e-6),
    "float64": (1e-9, 1e-12),
}


def tolerance(dtype) -> tuple[float, float]:
    dtype = np.dtype(dtype)
    if np.issubdtype(dtype, np.floating):
        return TOLERANCES.get(dtype.name, TOLERANCES["float32"])
    return TOLERANCES["float64"]  # integers are exact


def task_dtype(probe: dict, actual_dtype=None) -> np.dtype:
    """The precision an answer on ``probe`` is judged at: the task's, never the answer's.

    The floating inputs set it: the coarsest of them, but never coarser than float32 unless every
    one is float16. So a float32 answer to a task given float64 inputs is judged at float64 and
    fails, with a message saying it was computed in lower precision; a float64 answer to float32
    inputs is judged at float32. Only a task with no floating input (integers) takes the answer's
    own precision, at least float32.
    """
    floats = [v.dtype for v in probe["inputs"] if isinstance(v, np.ndarray) and np.issubdtype(v.dtype, np.floating)]
    floor = np.dtype(np.float16) if floats and all(d == np.float16 for d in floats) else np.dtype(np.float32)
    candidates = floats or ([np.dtype(actual_dtype)] if actual_dtype is not None
                            and np.issubdtype(actual_dtype, np.floating) else [])
    coarsest = min(candidates, key=lambda d: d.itemsize) if candidates else np.dtype(np.float64)
    return coarsest if coarsest.itemsize >= floor.itemsize else floor


def close_on(probe: dict, actual, expected, dtype) -> bool:
    """``close`` at the probe's tolerance: a *loose* probe (large values) is ill-conditioned.

    With scores in the thousands, rounding a score by one float32 step moves a weight by about
    1e-4, so two correct computations summing in another order differ by that much. Such a probe
    is there to catch overflow and gross errors: it is judged to 1e-3 of the result's scale.
    """
    if not probe.get("loose"):
        return close(actual, expected, dtype)
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape or not (np.issubdtype(actual.dtype, np.number) or actual.dtype == bool):
        return False
    a, e = actual.astype(np.float64), expected.astype(np.float64)
    finite = e[np.isfinite(e)]
    scale = max(1.0, float(np.abs(finite).max())) if finite.size else 1.0
    return bool(np.allclose(a, e, 1e-3, 1e-3 * scale, True))


def close(actual, expected, dtype=None) -> bool:
    """True when the arrays have the same shape and agree within the tolerance of ``dtype``."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        return False
    if not (np.issubdtype(actual.dtype, np.number) or actual.dtype == bool):
        return False
    rtol, atol = tolerance(dtype if dtype is not None else actual.dtype)
    return bool(np.allclose(actual.astype(np.float64), expected.astype(np.float64), rtol, atol, True))
