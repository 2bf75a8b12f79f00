"""Describing a wrong result when no catalogued mistake explains it: what is off, and how.

The symptom is read off the learner's results and the expected ones, on every input where they
differ: a shape explained with the exercise's axes (:mod:`.shapes`), nan or inf told apart
(overflow, underflow to 0/0, the log of 0, a masked row), a transpose or axes exchanged, zeros, a
constant factor or another function of the expected result read against the exercise's quantities
(:mod:`.factors`), rows that do not sum to 1, a shift, and which part of the result is right.
"""

from __future__ import annotations

import numpy as np

from ..contracts import CONTRACTS
from .factors import (
    Seen,
    explain_factor,
    explain_function,
    explain_offset,
    explain_slice_factors,
    explain_temperature,
)
from .quantities import axis_word, result_axes
from .shapes import explain_same_shape_permutation, explain_shape
from .tolerances import close, tolerance


def _masks(exercise: str) -> bool:
    """The exercise takes a mask (a row may lose every key to it)."""
    return any(spec.startswith(("~", "%")) for spec in CONTRACTS.get(exercise, ()))


def _weights(expected: np.ndarray) -> bool:
    """The expected result holds weights: rows of non-negative numbers summing to 1."""
    return bool(expected.ndim and expected.shape[-1] > 1 and np.all(expected >= 0)
                and np.allclose(expected.sum(axis=-1), 1.0, 1e-6, 1e-6))


def _indices(flags: np.ndarray) -> str:
    """``0``, ``1 to 3``, ``0, 2 and 5``: the positions where ``flags`` holds, in runs."""
    runs, start = [], None
    positions = [int(i) for i in np.flatnonzero(flags)]
    for k, i in enumerate(positions):
        start = i if start is None else start
        if k + 1 == len(positions) or positions[k + 1] != i + 1:
            runs.append(str(i) if i == start else f"{start} to {i}" if i > start + 1 else f"{start}, {i}")
            start = None
    return runs[0] if len(runs) == 1 else f"{', '.join(runs[:-1])} and {runs[-1]}"


def explain_nonfinite(exercise: str, actual: np.ndarray, expected: np.ndarray) -> str | None:
    """nan and inf told apart: an overflow, an underflow to 0/0, the log of 0, a row with every key masked."""
    if not np.issubdtype(actual.dtype, np.floating) or np.all(np.isfinite(actual)) or not np.all(np.isfinite(expected)):
        return None
    infinite, missing = np.isinf(actual), np.isnan(actual)
    if infinite.any() and np.all(actual[infinite] < 0):
        return ("the result holds -inf where the expected one is finite: the log of 0 (a weight that underflowed "
                "to 0, or a masked one)?")
    if infinite.any():
        return ("the result holds inf where the expected one is finite: a value grew past the largest float "
                "(exp() of a large score overflows; subtract each row's own maximum before exp())?")
    if _weights(expected):
        rows_with_nan, rows_all_nan = missing.any(axis=-1), missing.all(axis=-1)
        if np.array_equal(rows_with_nan, rows_all_nan):
            masked = ", or is every key of those rows masked?" if _masks(exercise) else "?"
            flat = rows_all_nan.reshape(-1)
            which = "every row" if flat.all() else f"row{'s' if flat.sum() > 1 else ''} {_indices(flat)}"
            return (f"every weight of {which} is nan, as 0/0 gives: did every exp() of those rows underflow to 0 "
                    f"(a maximum subtracted that is not each row's own, such as one maximum for all rows){masked}")
        return ("nan beside finite weights in the same rows, as inf/inf gives: exp() overflowed on the largest "
                "scores (subtract each row's own maximum before exp())?")
    return ("the result contains nan where the expected one is finite: from 0/0 (every exp() underflowed to 0), "
            "inf/inf or inf - inf (exp() overflowed) or 0 × log 0 (a weight of exactly 0): does a step overflow, "
            "underflow or take the log of 0?")


def explain_parts(meta: dict, actual: np.ndarray, expected: np.ndarray, dtype) -> str | None:
    """Which part of the result is right: whole slices along one axis (the others wrong in most of
    their entries), or the entries on, above or below the diagonal."""
    if actual.shape != expected.shape or actual.ndim == 0 or actual.size < 2:
        return None
    rtol, atol = tolerance(dtype)
    with np.errstate(invalid="ignore"):
        good = np.isclose(actual.astype(np.float64), expected, rtol, atol, equal_nan=True)
    if good.all() or not good.any():
        return None
    names = result_axes(meta.get("returns", ""), actual.ndim)
    word = axis_word(meta.get("framework", "numpy"))
    for axis in range(actual.ndim):
        others = tuple(i for i in range(actual.ndim) if i != axis)
        # a slice is wrong when most of its entries are: one entry of a wrong head may match by chance
        right_slices, wrong_slices = good.all(axis=others), (~good).mean(axis=others) > 0.5
        if (right_slices | wrong_slices).all() and right_slices.any() and actual.shape[axis] > 1:
            name = f" ({names[axis]})" if names and not names[axis].startswith("a batch") and not \
                names[axis].isdigit() else ""
            right_said, wrong_said = _indices(right_slices), _indices(wrong_slices)
            are = "indices {} are" if int(right_slices.sum()) > 1 else "index {} is"
            return f"along {word} {axis}{name}, {are.format(right_said)} right and {wrong_said} wrong"
    if actual.ndim >= 2 and actual.shape[-1] == actual.shape[-2]:
        n = actual.shape[-1]
        for where, part in (("above the diagonal", np.triu(np.ones((n, n), bool), 1)),
                            ("below the diagonal", np.tril(np.ones((n, n), bool), -1)),
                            ("on the diagonal", np.eye(n, dtype=bool)),
                            ("off the diagonal", ~np.eye(n, dtype=bool))):
            if np.array_equal(~good, np.broadcast_to(part, good.shape)):
                return f"only the entries {where} are wrong"
    return f"{int((~good).sum())} of {good.size} entries are wrong"


def explain_inverted(actual: np.ndarray, expected: np.ndarray) -> str | None:
    """A boolean result that is the expected one negated everywhere: the mask's convention flipped."""
    if actual.dtype != bool or actual.shape != expected.shape or not actual.size:
        return None
    if np.array_equal(actual, ~expected.astype(bool)):
        return ("every entry is the opposite of the expected one: True and False swapped; check which convention "
                "the text uses, True for a position that is kept or for one that is blocked.")
    return None


def explain_shift(meta: dict, actual: np.ndarray, expected: np.ndarray, dtype) -> str | None:
    """The expected result moved by one position along an axis: an index off by one."""
    word = axis_word(meta.get("framework", "numpy"))
    for axis in range(actual.ndim):
        if actual.shape[axis] < 3:
            continue
        for step in (1, -1):
            mine = np.take(actual, range(max(step, 0), actual.shape[axis] + min(step, 0)), axis=axis)
            theirs = np.take(expected, range(max(-step, 0), expected.shape[axis] + min(-step, 0)), axis=axis)
            unmoved = np.take(expected, range(max(step, 0), expected.shape[axis] + min(step, 0)), axis=axis)
            if close(mine, theirs, dtype) and not close(unmoved, theirs, dtype):  # a constant axis shows no shift
                later = "later" if step > 0 else "earlier"
                return (f"the right numbers, but one position {later} along {word} {axis}: an index off by one "
                        f"(range(1, n) for range(n), i - 1 for i, or a diagonal offset of 1)?")
    return None


def symptom(exercise: str, meta: dict, wrong: list[Seen], right: list[Seen]) -> str:
    """What is wrong with the learner's result on the first input in ``wrong``, precisely, when no
    catalogued mistake explains it; the other inputs confirm a factor or a function of the result."""
    shown = wrong[0]
    actual, expected, probe, dtype = shown.actual, shown.expected, shown.probe, shown.dtype
    if actual.shape != expected.shape:
        return explain_shape(exercise, meta, actual, expected, probe, dtype)
    same = [seen for seen in wrong if seen.actual is not None and seen.actual.shape == seen.expected.shape]
    told = explain_nonfinite(exercise, actual, expected)
    if told:
        return told
    if actual.ndim >= 2 and actual.shape[-1] == actual.shape[-2] and close(np.swapaxes(actual, -1, -2), expected, dtype):
        return "the result is the transpose of the expected one."
    told = explain_same_shape_permutation(meta, actual, expected, exercise, probe, dtype)
    if told:
        return told
    told = explain_inverted(actual, expected) or explain_shift(meta, actual, expected, dtype)
    if told:
        return told
    a, e = actual.astype(np.float64), expected.astype(np.float64)
    if float(np.sum(e * e)) > 0 and a.size and not np.any(a):
        return ("every entry of the result is 0: nothing was written to it (a loop that never ran, or a "
                "buffer returned before it was filled?).")
    told = (explain_factor(exercise, same, right, formula_only=True) or explain_function(same)
            or explain_temperature(exercise, same, right))
    if told:
        return told
    if _weights(e):
        sums = a.sum(axis=-1)
        if not np.allclose(sums, 1.0, 1e-4, 1e-5):
            columns = a.ndim >= 2 and np.allclose(a.sum(axis=-2), 1.0, 1e-4, 1e-5)
            where = " (the columns do, instead of the rows)" if columns else ""
            return (f"the weights of each query should sum to 1, but the row sums here range from "
                    f"{np.nanmin(sums):.4g} to {np.nanmax(sums):.4g}{where}.")
    told = explain_factor(exercise, same, right) or explain_slice_factors(exercise, meta, shown) or explain_offset(same)
    if told:
        return told
    return describe_difference(actual, expected, explain_parts(meta, actual, expected, dtype))


def describe_difference(actual: np.ndarray, expected: np.ndarray, parts: str | None = None) -> str:
    """The largest difference and where it is, after which part is right (when one is)."""
    if actual.shape != expected.shape:
        return f"the result has shape {actual.shape} but should have shape {expected.shape}."
    difference = np.abs(actual.astype(np.float64) - expected)
    where = np.unravel_index(int(np.argmax(difference)), difference.shape) if difference.ndim else ()
    if not difference.ndim:
        return f"your result is {float(actual):.4g} where {float(expected):.4g} is expected."
    said = f": {parts}" if parts else ""
    return (f"the result differs from the expected one{said} (largest difference {difference.max():.3g}"
            f" at index {tuple(int(i) for i in where)}).")
