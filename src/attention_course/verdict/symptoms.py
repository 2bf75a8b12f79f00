"""Describing a wrong result when no catalogued mistake explains it: what is off, and how.

The symptom is read off the learner's result and the expected one: a transpose, rows that do not
sum to 1, nan or inf, zeros, a constant factor (compared with the exercise's sizes), or the largest
difference and where it is.
"""

from __future__ import annotations

import numpy as np

from ..contracts import CONTRACTS, parse_spec
from .tolerances import close

_SIZE_WORDS = {"d_k": "d_k", "d_v": "d_v", "d_model": "d_model", "tokens": "the number of tokens",
               "n_keys": "the number of keys", "n_queries": "the number of queries", "d": "d",
               "d_head": "d_head", "n_tokens": "n_tokens", "batch": "the batch size"}


def _sizes(exercise: str, probe: dict) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for spec, value in zip(CONTRACTS.get(exercise, ()), probe["inputs"], strict=False):
        if spec.startswith("=") and not np.shape(value):
            sizes.setdefault(spec[1:], int(value))
        elif spec == "int" and not np.shape(value):
            sizes.setdefault("d_k", int(value))  # scale_scores_tf(scores, d_k) and the like
        elif spec not in ("float", "heads") and "<=" not in spec:
            broadcastable, _, names = parse_spec(spec)
            shape = np.shape(value)[len(np.shape(value)) - len(names):] if len(np.shape(value)) >= len(names) else ()
            for name, size in zip(names, shape, strict=False):
                if not broadcastable:
                    sizes.setdefault(name, int(size))
    return sizes


def _factor_names(c: float, sizes: dict[str, int]) -> list[str]:
    names = []
    for name, size in sizes.items():
        if size <= 1:
            continue
        word = _SIZE_WORDS.get(name, name)
        for value, text in ((size, word), (np.sqrt(size), f"sqrt({word})"), (1 / size, f"1/{word}"),
                            (1 / np.sqrt(size), f"1/sqrt({word})")):
            if abs(c - value) <= 1e-4 * abs(value):
                names.append(f"{text} = {value:.4g}")
    return names


def symptom(exercise: str, actual: np.ndarray, expected: np.ndarray, probe: dict, dtype) -> str:
    """What is wrong with ``actual``, precisely, when no catalogued mistake explains it."""
    if actual.shape != expected.shape:
        if actual.ndim >= 2 and actual.shape == expected.shape[:-2] + expected.shape[-1:] + expected.shape[-2:-1]:
            if close(np.swapaxes(actual, -1, -2), expected, dtype):
                return f"the result is the transpose of the expected one (shape {actual.shape}, not {expected.shape})."
        return describe_difference(actual, expected)
    if np.issubdtype(actual.dtype, np.floating) and not np.all(np.isfinite(actual)) and np.all(np.isfinite(expected)):
        return "the result contains nan or inf although the expected one is finite: does a step overflow?"
    if actual.ndim >= 2 and actual.shape[-1] == actual.shape[-2] and close(np.swapaxes(actual, -1, -2), expected, dtype):
        return "the result is the transpose of the expected one."
    a, e = actual.astype(np.float64), expected.astype(np.float64)
    if expected.ndim and np.allclose(e.sum(axis=-1), 1.0, 1e-6, 1e-6) and np.all(e >= 0):
        sums = a.sum(axis=-1)
        if not np.allclose(sums, 1.0, 1e-4, 1e-5):
            columns = a.ndim >= 2 and np.allclose(a.sum(axis=-2), 1.0, 1e-4, 1e-5)
            where = " (the columns do, instead of the rows)" if columns else ""
            return (f"the weights of each query should sum to 1, but the row sums here range from "
                    f"{np.nanmin(sums):.4g} to {np.nanmax(sums):.4g}{where}.")
    norm = float(np.sum(e * e))
    if norm > 0 and a.size and not np.any(a):
        return ("every entry of the result is 0: nothing was written to it (a loop that never ran, or a "
                "buffer returned before it was filled?).")
    if norm > 0 and np.all(np.isfinite(a)):
        c = float(np.sum(a * e) / norm)
        if abs(c - 1) > 1e-3 and np.allclose(a, c * e, 1e-5, 1e-7):
            matches = _factor_names(c, _sizes(exercise, probe))
            said = f" ({'; '.join(matches)})" if matches else ""
            return f"every entry is {c:.4g} times the expected one{said}: a constant factor is off."
    return describe_difference(actual, expected)


def describe_difference(actual: np.ndarray, expected: np.ndarray) -> str:
    if actual.shape != expected.shape:
        if actual.size == expected.size:
            return (f"the result has shape {actual.shape} but should have shape {expected.shape} "
                    "(the right numbers in the wrong arrangement?).")
        return f"the result has shape {actual.shape} but should have shape {expected.shape}."
    if np.issubdtype(actual.dtype, np.floating) and not np.all(np.isfinite(actual)):
        return "the result contains nan or inf although the input is finite."
    difference = np.abs(actual.astype(np.float64) - expected)
    where = np.unravel_index(int(np.argmax(difference)), difference.shape) if difference.ndim else ()
    return (f"the result differs from the expected one (largest difference {difference.max():.3g}"
            f" at index {tuple(int(i) for i in where)}).")
