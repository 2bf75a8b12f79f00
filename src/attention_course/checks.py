"""The checks that the notebooks' test cells call, visible and hidden alike.

``check(exercise, candidate, *inputs)`` calls the learner's function on ``inputs`` (converted to
the exercise's framework), compares the result with the NumPy reference and, when they differ,
names the mistake: it runs every mutant the exercise lists (see :mod:`attention_course.mistakes`)
and reports the one that reproduces the learner's output, with a hint. A passing check prints one
line to stdout; a failing one raises :class:`CheckFailed` (an ``AssertionError``). Checks never
write to stderr: nbgrader scores a test cell that does as 0.

Tolerances depend on the dtype and are set in one place, :data:`TOLERANCES`.
"""

from __future__ import annotations

import contextlib
import io
import sys
import warnings
from collections.abc import Callable

import numpy as np

from .exercises import Exercise, get_exercise
from .mistakes import CATALOGUE

# (rtol, atol) by the precision of the learner's result. float32 carries ~7 significant digits.
TOLERANCES: dict[str, tuple[float, float]] = {
    "float16": (2e-3, 2e-3),
    "float32": (2e-5, 2e-6),
    "float64": (1e-9, 1e-12),
}

# Captured at import, before any learner code runs: a notebook that monkeypatches NumPy cannot
# change what the checks compare with, and is told so.
_ISCLOSE = np.isclose
_ALLCLOSE = np.allclose
_GUARDED = {"allclose": np.allclose, "isclose": np.isclose, "array_equal": np.array_equal}


class CheckFailed(AssertionError):
    """A check found a wrong answer; the message says what and, if it can, why."""


def _fail(exercise: str, message: str) -> None:
    raise CheckFailed(f"✗ {exercise}: {message}")


def _tolerance(dtype) -> tuple[float, float]:
    dtype = np.dtype(dtype)
    if np.issubdtype(dtype, np.floating):
        return TOLERANCES.get(dtype.name, TOLERANCES["float32"])
    return TOLERANCES["float64"]  # integers are exact


def close(actual, expected, dtype=None) -> bool:
    """True when the arrays have the same shape and agree within the tolerance of ``dtype``."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        return False
    rtol, atol = _tolerance(dtype if dtype is not None else actual.dtype)
    if not (np.issubdtype(actual.dtype, np.number) or actual.dtype == bool):
        return False
    return bool(_ALLCLOSE(actual.astype(np.float64), expected.astype(np.float64), rtol, atol, True))


# --- moving data between frameworks --------------------------------------------------------------


def to_numpy(value):
    """NumPy view of a learner's result: accepts arrays, tensors of any framework, lists, numbers."""
    if hasattr(value, "detach"):  # torch
        return value.detach().cpu().numpy()
    if hasattr(value, "numpy") and not isinstance(value, np.ndarray):  # tensorflow
        return np.asarray(value.numpy())
    return np.asarray(value)


def to_framework(value, framework: str):
    """A fresh copy of ``value`` in the framework the exercise is written for."""
    if not hasattr(value, "shape") and not isinstance(value, (list, tuple)):
        return value  # ints, floats, bools, strings pass through
    array = np.array(to_numpy(value), copy=True)
    if framework == "torch":
        import torch

        return torch.from_numpy(array)
    if framework == "tensorflow":
        import tensorflow as tf

        return tf.constant(array)
    return array


# --- running the learner's code ------------------------------------------------------------------


@contextlib.contextmanager
def _quiet():
    """No warning and nothing on stderr while the learner's code runs (stderr goes to stdout)."""
    with warnings.catch_warnings(), contextlib.redirect_stderr(sys.stdout):
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            yield


@contextlib.contextmanager
def _dependencies_replaced(candidate: Callable, replacements: dict[str, Callable]):
    """Swap names the learner's function calls (their own earlier answers) for references.

    Each exercise is graded on its own: a wrong ``softmax`` loses the softmax exercise's points
    only, not those of every later function that calls it.
    """
    namespace = getattr(candidate, "__globals__", None)
    saved = {}
    if namespace is not None:
        for name, function in replacements.items():
            if name in namespace:
                saved[name] = namespace[name]
                namespace[name] = function
    try:
        yield
    finally:
        if namespace is not None:
            namespace.update(saved)


def _integrity(exercise: str) -> None:
    for name, original in _GUARDED.items():
        if getattr(np, name) is not original:
            _fail(exercise, f"numpy.{name} was replaced in this notebook; restart the kernel.")


def _run(spec: Exercise, candidate: Callable, inputs: tuple, kwargs: dict):
    """Call the learner's function; return its result as NumPy, or fail with a clear message."""
    if not callable(candidate):
        _fail(spec.name, f"expected a function, got {type(candidate).__name__}.")
    framework_inputs = [to_framework(value, spec.framework) for value in inputs]
    before = [np.array(to_numpy(value), copy=True) for value in framework_inputs]
    try:
        with _quiet(), _dependencies_replaced(candidate, spec.replacements()):
            result = candidate(*framework_inputs, **kwargs)
    except NotImplementedError:
        _fail(spec.name, "not implemented yet: replace `raise NotImplementedError()` with your code.")
    except Exception as error:  # the learner's code raised: say what, in one line
        message = f"your function raised {type(error).__name__}: {str(error).splitlines()[0][:200]}"
        suspect = _mistake_that_raises(spec, inputs, kwargs, str(error))
        _fail(spec.name, f"{message}. Likely mistake: {suspect}" if suspect else message)
    for value, copy in zip(framework_inputs, before, strict=True):
        if hasattr(value, "shape") and not np.array_equal(to_numpy(value), copy, equal_nan=True):
            mistake = CATALOGUE["changes_inputs_in_place"]
            _fail(spec.name, f"{mistake.title}. Hint: {mistake.hint}")
    if result is None:
        _fail(spec.name, "your function returned None: did you forget `return`?")
    if isinstance(result, tuple) and not spec.returns_tuple:
        _fail(spec.name, f"your function returned a tuple of {len(result)}; expected {spec.returns}.")
    try:
        return to_numpy(result)
    except Exception:
        _fail(spec.name, f"could not read the result as an array (got {type(result).__name__}).")


def _mistake_that_raises(spec: Exercise, inputs: tuple, kwargs: dict, error: str) -> str | None:
    """When the learner's code raised: the catalogued mistake whose mutant raises too, if unique.

    A matrix product with mismatched shapes, for one, is what a missing transpose produces on
    non-square inputs, while the reference runs fine. Among several raising mutants, the one
    raising the very same message (NumPy learners) is taken.
    """
    with _quiet():
        try:
            spec.reference(*_numpy_inputs(inputs), **kwargs)
        except Exception:
            return None  # the input itself is unusual: no basis for a guess
        raising, same = [], []
        for mistake_id, mutants in spec.mutants.items():
            for mutant in mutants if isinstance(mutants, (list, tuple)) else (mutants,):
                try:
                    mutant(*_numpy_inputs(inputs), **kwargs)
                except Exception as mutant_error:
                    raising.append(mistake_id)
                    if str(mutant_error) == error:
                        same.append(mistake_id)
                    break
    candidates = sorted(set(same)) if same else sorted(set(raising))
    if len(candidates) != 1:
        return None
    mistake = CATALOGUE[candidates[0]]
    return f"{mistake.title}. Hint: {mistake.hint}"


def _numpy_inputs(inputs: tuple) -> tuple:
    return tuple(np.array(to_numpy(v), copy=True) if hasattr(v, "shape") or isinstance(v, list) else v
                 for v in inputs)


def diagnose(spec: Exercise, actual: np.ndarray, inputs: tuple, kwargs: dict) -> str | None:
    """The message naming the mistake that reproduces ``actual``, or None if none does."""
    float32 = np.issubdtype(actual.dtype, np.floating) and actual.dtype.itemsize <= 4
    for mistake_id, mutants in spec.mutants.items():
        for mutant in mutants if isinstance(mutants, (list, tuple)) else (mutants,):
            for precision in ((np.float32, np.float64) if float32 else (np.float64,)):
                args = tuple(v.astype(precision) if isinstance(v, np.ndarray) and
                             np.issubdtype(v.dtype, np.floating) else v for v in inputs)
                try:
                    with _quiet():
                        expected = np.asarray(mutant(*args, **kwargs))
                except Exception:
                    continue
                if close(actual, expected, actual.dtype if float32 else np.float64):
                    mistake = CATALOGUE[mistake_id]
                    return f"{mistake.title}. Hint: {mistake.hint}"
    return None


def _describe_difference(spec: Exercise, actual: np.ndarray, expected: np.ndarray) -> str:
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


def check(exercise: str, candidate: Callable, *inputs, quiet: bool = False, expect=None,
          decimals: int = 4, what: str | None = None, **kwargs) -> None:
    """Check ``candidate(*inputs, **kwargs)`` against the reference; name the mistake if it is wrong.

    ``expect``, if given, are the numbers a seed printed (to ``decimals`` places); the result must
    also match them. The learner's function runs once, with its dependencies replaced (see
    ``Exercise.uses``), so the comparison with the seed is graded on this exercise alone too.
    """
    spec = get_exercise(exercise)
    _integrity(spec.name)
    actual = _run(spec, candidate, inputs, kwargs)
    numpy_inputs = _numpy_inputs(inputs)
    with _quiet():
        expected = np.asarray(spec.reference(*numpy_inputs, **kwargs), dtype=np.float64)
    if np.issubdtype(actual.dtype, np.integer) and not spec.integers_ok and not close(actual, expected):
        # Integers where the answer has fractions: name a mutant if one matches, else truncation.
        mistake = CATALOGUE["integer_arithmetic"]
        _fail(spec.name, diagnose(spec, actual, numpy_inputs, kwargs) or f"{mistake.title}. Hint: {mistake.hint}")
    if not (np.issubdtype(actual.dtype, np.number) or actual.dtype == bool):
        _fail(spec.name, f"expected {spec.returns}, got an array of {actual.dtype}.")
    # Judge at the precision of the learner's result or of the inputs, whichever is coarser.
    dtypes = [actual.dtype] + [v.dtype for v in numpy_inputs if isinstance(v, np.ndarray)]
    floats = [d for d in dtypes if np.issubdtype(d, np.floating)]
    coarsest = min(floats, key=lambda d: d.itemsize) if floats else np.dtype(np.float64)
    if close(actual, expected, coarsest):
        if not quiet:
            described = ", ".join(str(np.shape(v)) if hasattr(v, "shape") else repr(v) for v in numpy_inputs)
            print(f"✓ {spec.name}: correct for input {described}")
        if expect is not None:
            expect_close(actual, expect, decimals, what or f"{spec.name}'s result")
        return
    named = diagnose(spec, actual, numpy_inputs, kwargs)
    _fail(spec.name, named or _describe_difference(spec, actual, expected))


# --- properties that hold for any correct answer -------------------------------------------------


def check_rows_sum_to_one(exercise: str, candidate: Callable, *inputs, axis: int = -1, **kwargs) -> None:
    """Every row of the result (along ``axis``) sums to 1 and no weight is negative."""
    spec = get_exercise(exercise)
    result = _run(spec, candidate, inputs, kwargs)
    actual = result.astype(np.float64)
    sums = actual.sum(axis=axis)
    if not (bool(_ALLCLOSE(sums, 1.0, 1e-4, 1e-5)) and np.all(actual >= -1e-7)):
        named = diagnose(spec, result, _numpy_inputs(inputs), kwargs)
        _fail(spec.name, named or "the weights of each query should be non-negative and sum to 1 "
              f"(row sums here range from {np.nanmin(sums):.4g} to {np.nanmax(sums):.4g}).")
    print(f"✓ {spec.name}: every row sums to 1")


def check_shift_invariance(exercise: str, candidate: Callable, scores, *rest, shift=100.0) -> None:
    """Adding the same constant to every score changes no weight."""
    spec = get_exercise(exercise)
    plain = _run(spec, candidate, (scores, *rest), {})
    shifted = _run(spec, candidate, (to_numpy(scores) + shift, *rest), {})
    if not close(shifted, plain, np.float32):
        named = diagnose(spec, shifted, _numpy_inputs((to_numpy(scores) + shift, *rest)), {})
        _fail(spec.name, named or f"adding {shift} to every score changed the weights; a softmax "
              "ignores such a shift.")
    print(f"✓ {spec.name}: adding {shift:g} to every score changes nothing")


def check_permutation_equivariance(
    exercise: str, candidate: Callable, *inputs, token_args=(0,), seed: int = 0, **kwargs
) -> None:
    """Reordering the tokens reorders the outputs the same way, and changes nothing else.

    ``token_args`` are the positions of the inputs whose second-to-last axis is the token axis.
    """
    spec = get_exercise(exercise)
    numpy_inputs = _numpy_inputs(inputs)
    n_tokens = numpy_inputs[token_args[0]].shape[-2]
    order = np.random.default_rng(seed).permutation(n_tokens)
    permuted = tuple(v[..., order, :] if i in token_args else v for i, v in enumerate(numpy_inputs))
    plain = _run(spec, candidate, numpy_inputs, kwargs)
    reordered = _run(spec, candidate, permuted, kwargs)
    if plain.ndim < 2 or not close(reordered, plain[..., order, :], np.float32):
        named = diagnose(spec, plain, numpy_inputs, kwargs)
        _fail(spec.name, named or "reordering the tokens should reorder the outputs in the same "
              "way and change nothing else.")
    print(f"✓ {spec.name}: reordering the tokens reorders the outputs")


def expect_close(actual, expected, decimals: int = 4, what: str = "the result") -> None:
    """Compare with expected numbers (those a seed printed) to ``decimals`` places."""
    actual = to_numpy(actual).astype(np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    if actual.shape != expected.shape:
        raise CheckFailed(f"✗ {what}: shape {actual.shape}, expected {expected.shape}")
    if not bool(_ALLCLOSE(actual, expected, 0.0, 0.6 * 10.0**-decimals)):
        raise CheckFailed(f"✗ {what}: got {np.round(actual, decimals).tolist()}, "
                          f"expected {expected.tolist()}")
    print(f"✓ {what} as expected: {np.round(expected, decimals).tolist()}")


def run_quietly(function: Callable, *args, **kwargs):
    """Call ``function`` with warnings and stderr silenced; return (result, captured stdout)."""
    buffer = io.StringIO()
    with _quiet(), contextlib.redirect_stdout(buffer):
        result = function(*args, **kwargs)
    return result, buffer.getvalue()
