"""The verdict: from a check's call and the learner's results to pass or fail, with the mistake named.

The same code judges everywhere, on plain data only:

- a *call* (:func:`make_call`) is what a test cell asks: which exercise, which learner function (by
  name), the *probes* (inputs on which to run it) and the options (``expect``, ``what``, ...);
- an *outcome* is what running the learner's function on one probe gave: an array, or what went
  wrong (it raised, returned None, is missing, ...), as produced by :func:`run_probe`;
- a *key* answers, for one probe, the expected result and each catalogued mistake's result. The
  learner's package holds a :class:`StoredKey` of the notebooks' own visible inputs, precomputed by
  the build; the grader uses ``autograder.key.ComputedKey``, which runs the references and mutants
  on the grading side, out of the learner's reach.

:func:`judge` never calls learner code: when grading, outcomes come back from the sandbox as plain
data, and the verdict runs in the grader's own process. Tolerances depend on the dtype and are set
in one place, :data:`TOLERANCES`; the task sets the precision (:func:`task_dtype`), not the answer.

A ``check`` runs the learner's function on the check's input and on *evidence probes* derived from
it (:func:`attention_course.contracts.evidence_probes`: other values, other sizes, large values).
When the answer is wrong, a mistake is named only when its result matches the learner's on every
probe (and, if several do, when they are indistinguishable there); otherwise the message describes
the symptom: what is off, by what factor, on which kind of input.
"""

from __future__ import annotations

import contextlib
import re
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import expected
from .contracts import CONTRACTS, evidence_probes, parse_spec
from .convert import as_numpy_input, to_framework, to_numpy
from .mistakes import CATALOGUE

# (rtol, atol) by the precision of the result. float32 carries ~7 significant digits.
TOLERANCES: dict[str, tuple[float, float]] = {
    "float16": (2e-3, 2e-3),
    "float32": (2e-5, 2e-6),
    "float64": (1e-9, 1e-12),
}

KINDS = ("check", "rows_sum_to_one", "shift_invariance", "permutation_equivariance")


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


# --- calls and probes ----------------------------------------------------------------------------


def make_call(kind: str, exercise: str, candidate, inputs: tuple, kwargs: dict | None = None,
              **options) -> dict:
    """The plain-data description of one check: what to run, on what, and how to judge it."""
    if kind not in KINDS:
        raise ValueError(f"unknown check kind {kind!r}")
    kwargs = dict(kwargs or {})
    arrays = tuple(as_numpy_input(v) for v in inputs)
    probes = [{"inputs": list(arrays), "kwargs": kwargs}]
    if options.pop("loose", False):  # inputs in the thousands: judged to 1e-3 of the result's scale
        probes[0]["loose"] = True
    if kind == "check":
        probes += evidence_probes(exercise, list(arrays), kwargs)
    if kind == "shift_invariance":
        shifted = (np.asarray(arrays[0]) + options["shift"], *arrays[1:])
        probes.append({"inputs": list(shifted), "kwargs": kwargs})
    elif kind == "permutation_equivariance":
        token_args = tuple(options.get("token_args", (0,)))
        n_tokens = arrays[token_args[0]].shape[-2]
        order = np.random.default_rng(options.get("seed", 0)).permutation(n_tokens)
        permuted = tuple(v[..., order, :] if i in token_args else v for i, v in enumerate(arrays))
        probes.append({"inputs": list(permuted), "kwargs": kwargs})
        options = {**options, "order": order.tolist(), "token_args": list(token_args)}
    function = getattr(candidate, "__name__", None) if callable(candidate) else None
    return {"kind": kind, "exercise": exercise, "function": function, "probes": probes,
            "options": {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in options.items()}}


@contextlib.contextmanager
def quiet():
    """No warning and nothing on stderr while learner code runs (stderr goes to stdout)."""
    with warnings.catch_warnings(), contextlib.redirect_stderr(sys.stdout):
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            yield


@contextlib.contextmanager
def dependencies_replaced(candidate: Callable, replacements: dict[str, Callable]):
    """Swap names the learner's function calls (their own earlier answers) for stand-ins.

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


def _unchanged(now: np.ndarray, before: np.ndarray) -> bool:
    """Equal, nan for nan: one comparison pass where there is no nan (notebook 08 passes a model's
    weights, whose three-pass ``array_equal(equal_nan=True)`` was a third of its checks' time)."""
    if np.shape(now) != before.shape:
        return False
    with np.errstate(invalid="ignore"):
        if bool(np.all(now == before)):
            return True
    return np.array_equal(now, before, equal_nan=True)


def run_probe(candidate, probe: dict, framework: str, replacements: dict | None = None,
              tuple_ok: bool = False) -> dict:
    """Run the learner's function on one probe; the outcome as plain data (never raises)."""
    if candidate is None:
        return {"status": "missing"}
    if not callable(candidate):
        return {"status": "not_callable", "type": type(candidate).__name__}
    try:
        inputs = [to_framework(value, framework) for value in probe["inputs"]]
        before = [np.array(to_numpy(v), copy=True) if hasattr(v, "shape") else None for v in inputs]
        with quiet(), dependencies_replaced(candidate, replacements or {}):
            result = candidate(*inputs, **probe["kwargs"])
    except NotImplementedError:
        return {"status": "not_implemented"}
    except Exception as error:  # the learner's code raised: keep what and why, in one line
        lines = str(error).splitlines()
        return {"status": "raised", "type": type(error).__name__, "message": (lines[0] if lines else "")[:300]}
    try:
        changed = any(copy is not None and not _unchanged(to_numpy(v), copy)
                      for v, copy in zip(inputs, before, strict=True))
    except Exception:
        changed = False
    if result is None:
        return {"status": "none"}
    if isinstance(result, tuple) and not tuple_ok:
        return {"status": "tuple", "length": len(result)}
    if isinstance(result, list) and not tuple_ok:  # right numbers, maybe, but no array: the next step breaks
        return {"status": "list", "length": len(result)}
    try:
        with quiet():
            value = np.array(to_numpy(result), copy=True)
        if value.dtype.kind not in "biuf":
            raise TypeError(value.dtype)
    except Exception:
        return {"status": "unreadable", "type": type(result).__name__}
    return {"status": "ok", "value": value, "changed_inputs": bool(changed)}


# --- keys ----------------------------------------------------------------------------------------


class Key:
    """What the verdict needs to know about exercises: their description, and per probe the answer.

    ``analyse`` returns ``{"expected": array | None, "expected_error": str | None, "mutants":
    [{"mistake": id, "value": array | None, "error": str | None}, ...]}`` for one probe.
    """

    def meta(self, exercise: str) -> dict:
        raise NotImplementedError

    def analyse(self, exercise: str, probe: dict) -> dict:
        raise NotImplementedError

    def standins(self, exercise: str) -> dict[str, Callable]:
        """Replacements for the learner's earlier answers this exercise may call (none here)."""
        return {}


def same_probe(a: dict, b: dict) -> bool:
    """True when two probes have equal kwargs and inputs of equal shape and (nearly) equal values."""
    if a["kwargs"] != b["kwargs"] or len(a["inputs"]) != len(b["inputs"]):
        return False
    for x, y in zip(a["inputs"], b["inputs"], strict=True):
        if isinstance(x, np.ndarray) != isinstance(y, np.ndarray):
            return False
        if isinstance(x, np.ndarray):
            if x.shape != y.shape or x.dtype != y.dtype:
                return False
            if not np.allclose(x.astype(np.float64), y.astype(np.float64), rtol=1e-5, atol=1e-6, equal_nan=True):
                return False
        elif x != y:
            return False
    return True


class StoredKey(Key):
    """The answers for the notebooks' own visible inputs, precomputed by the build (``expected/``).

    It holds no reference code: only, for each input a visible check uses, the expected result and
    each catalogued mistake's result (see :mod:`attention_course.expected`).
    """

    def __init__(self, folder: Path | None = None):
        self.folder = folder or expected.FOLDER

    def _exercise(self, exercise: str) -> dict | None:
        return expected.exercise(exercise, self.folder)

    def knows(self, exercise: str) -> bool:
        return self._exercise(exercise) is not None

    def meta(self, exercise: str) -> dict:
        stored = self._exercise(exercise)
        if stored is None:
            raise KeyError(f"no stored data for exercise {exercise!r}")
        return stored["meta"]

    def analyse(self, exercise: str, probe: dict) -> dict:
        for case in (self._exercise(exercise) or {}).get("probes", []):
            if same_probe(case["probe"], probe):
                return case["analysis"]
        raise LookupError(exercise)


# --- the verdict ---------------------------------------------------------------------------------


class CheckFailed(AssertionError):
    """A check found a wrong answer; the message says what and, if it can, why."""

    def _render_traceback_(self) -> list[str]:
        # IPython shows this instead of a traceback: the learner sees the one ✗ line (with its hint),
        # in the notebook and in nbgrader's Validate dialog. Grading never relies on the display.
        return [str(self)]


@dataclass
class Verdict:
    passed: bool
    lines: list[str] = field(default_factory=list)  # what a passing check prints
    message: str = ""  # why it failed, one line: "✗ exercise: ..."


def _name(mistake_id: str) -> str:
    mistake = CATALOGUE[mistake_id]
    return f"{mistake.title}. Hint: {mistake.hint}"


def diagnose(actual: np.ndarray, analysis: dict) -> str | None:
    """The message naming the mistake whose result reproduces ``actual`` on one input, if one does."""
    dtype = max(np.dtype(actual.dtype) if np.issubdtype(actual.dtype, np.floating) else np.dtype(np.float64),
                np.dtype(np.float32), key=lambda d: d.itemsize)
    return _naming(_candidates([{"status": "ok", "value": actual}], [analysis], [dtype]),
                   [{"status": "ok", "value": actual}])


def error_kind(message: str) -> str:
    """What kind of error a message reports, the same in NumPy, PyTorch and TensorFlow wording:
    ``layout`` (a view of a non-contiguous tensor), ``dtype``, ``shape``, or ``other``."""
    text = message.lower()
    if "contiguous" in text or "stride" in text:
        return "layout"
    if any(word in text for word in ("dtype", "scalar type", "same type", "type (", "tensor but is a",
                                     "double !=", "float !=", "half !=")):
        return "dtype"
    if any(word in text for word in ("shape", "size", "dimension", "mismatch", "broadcast", "aligned",
                                     "cannot be multiplied", "incompatible", "rank")):
        return "shape"
    return "other"


def _names_no_size(message: str) -> bool:
    """An error message without a single number (``np.stack``'s "all input arrays must have the same
    shape"): any slip in a loop's shapes raises it, so it is no evidence of one mistake."""
    return not re.search(r"\d", message)


def _mistake_that_raises(analysis: dict, error: str) -> str | None:
    """When the learner's code raised: the catalogued mistake whose mutant raises too, if unique.

    The same message first; else the same kind of error (a dtype error is no shape mistake)."""
    if analysis.get("expected_error") or _names_no_size(error):
        return None  # the input itself is unusual, or an error that names no size: no basis for a guess
    raising = [m for m in analysis["mutants"] if m["error"] is not None and not m.get("weak")]
    same = sorted({m["mistake"] for m in raising if m["error"] == error})
    alike = sorted({m["mistake"] for m in raising if error_kind(m["error"]) == error_kind(error)})
    candidates = same or alike
    return _name(candidates[0]) if len(candidates) == 1 else None


def _describe_difference(actual: np.ndarray, expected: np.ndarray) -> str:
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


class _Fail(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _problem(meta: dict, outcome: dict, analysis_of: Callable[[], dict]) -> str | None:
    """What is wrong with an outcome that is not an array, in one line (None if it is one)."""
    status = outcome["status"]
    if status == "ok":
        return None
    if status == "missing":
        return "no function of that name is defined: did its cell run without an error?"
    if status == "not_callable":
        return f"expected a function, got {outcome['type']}."
    if status == "not_implemented":
        return "not implemented yet: replace `raise NotImplementedError()` with your code."
    if status == "raised":
        message = f"your function raised {outcome['type']}: {outcome['message']}"
        suspect = _mistake_that_raises(analysis_of(), outcome["message"])
        return f"{message}. Likely mistake: {suspect}" if suspect else message
    if status == "none":
        return "your function returned None: did you forget `return`?"
    if status == "tuple":
        return f"your function returned a tuple of {outcome['length']}; expected {meta['returns']}."
    if status == "list":
        array = {"torch": "tensor (torch.stack or torch.tensor)", "tensorflow": "tensor (tf.stack)"}.get(
            meta.get("framework", "numpy"), "array (np.array)")
        return (f"your function returned a Python list of {outcome['length']}; expected {meta['returns']}: "
                f"make it one {array}.")
    if status == "unreadable":
        return f"could not read the result as an array (got {outcome['type']})."
    return f"the function could not be run ({status})."


def _value(meta: dict, outcome: dict, analysis_of: Callable[[], dict]) -> np.ndarray:
    problem = _problem(meta, outcome, analysis_of)
    if problem:
        raise _Fail(problem)
    if outcome.get("changed_inputs"):
        mistake = CATALOGUE["changes_inputs_in_place"]
        raise _Fail(f"{mistake.title}. Hint: {mistake.hint}")
    return outcome["value"]


def _describe_inputs(probe: dict) -> str:
    return ", ".join(str(np.shape(v)) if isinstance(v, np.ndarray) else repr(v) for v in probe["inputs"])


def expect_lines(actual, expected, decimals: int = 4, what: str = "the result") -> str:
    """Compare with expected numbers (those a seed printed) to ``decimals`` places; the ✓ line."""
    actual = to_numpy(actual).astype(np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    if actual.shape != expected.shape:
        raise _FailWhat(what, f"shape {actual.shape}, expected {expected.shape}")
    if not bool(np.allclose(actual, expected, 0.0, 0.6 * 10.0**-decimals)):
        raise _FailWhat(what, f"got {np.round(actual, decimals).tolist()}, expected {expected.tolist()}")
    return f"✓ {what} as expected: {np.round(expected, decimals).tolist()}"


class _FailWhat(Exception):  # a failure that names what was compared, not the exercise
    def __init__(self, what: str, message: str):
        super().__init__(message)
        self.message = f"✗ {what}: {message}"


def _failing_problem(meta: dict, outcome: dict, analysis_of: Callable[[], dict]) -> str | None:
    """A message for outcomes no diagnosis can explain (no function, None, a tuple, changed inputs)."""
    if outcome["status"] in ("ok", "raised"):
        if outcome.get("changed_inputs"):
            mistake = CATALOGUE["changes_inputs_in_place"]
            return f"{mistake.title}. Hint: {mistake.hint}"
        return None
    return _problem(meta, outcome, analysis_of)


_MISMATCH = (re.compile(r"size (\d+) is different from (\d+)"),  # matmul, @
             re.compile(r"(\d+) \(dim \d+\) != (\d+) \(dim \d+\)"),  # np.dot
             re.compile(r"mat1 and mat2 shapes cannot be multiplied \(\d+x(\d+) and (\d+)x\d+\)"))  # torch @


def error_signature(message: str):
    """What an error says went wrong, whichever function raised it: the two sizes that did not match
    in a product (``@``, ``np.matmul``, ``np.dot`` and PyTorch's ``@`` on matrices word the same
    mismatch differently), or else the message itself."""
    for pattern in _MISMATCH:
        found = pattern.search(message)
        if found:
            return ("mismatch", frozenset(found.groups()))
    return message


def _matches(outcome: dict, rows: list[dict], dtype, probe: dict, expected=None, exact_errors=False) -> bool:
    if outcome["status"] == "raised":
        mine = error_signature(outcome.get("message", ""))
        # NumPy code, or a product's mismatch in any framework: the mistake must raise the very error
        if exact_errors or isinstance(mine, tuple):
            return any(row["error"] is not None and error_signature(row["error"]) == mine for row in rows)
        kind = error_kind(outcome.get("message", ""))
        return any(row["error"] is not None and error_kind(row["error"]) == kind for row in rows)
    if outcome["status"] != "ok":
        return False
    value = outcome["value"]
    if expected is not None and any(row.get("as_expected") for row in rows) and close_on(probe, value, expected, dtype):
        return True
    return any(row["value"] is not None and close_on(probe, value, row["value"], dtype) for row in rows)


def _reproduces(mistake: str, outcome: dict, analysis: dict, dtype, probe: dict) -> bool:
    """One way of making ``mistake`` gives the learner's result within the tolerance of ``dtype``,
    even on a probe otherwise judged loosely."""
    ways: dict[str, list[dict]] = {}
    for row in analysis["mutants"]:
        if row["mistake"] == mistake:
            ways.setdefault(row.get("way", ""), []).append(row)
    strict = {**probe, "loose": False}
    return any(_matches(outcome, rows, dtype, strict) for rows in ways.values())


def _overflows(outcome: dict, expected) -> bool:
    """The learner's result has nan or inf where the expected one is finite."""
    if outcome["status"] != "ok" or not np.issubdtype(outcome["value"].dtype, np.floating):
        return False
    value = outcome["value"]
    return value.shape == np.shape(expected) and not np.all(np.isfinite(value)) and np.all(np.isfinite(expected))


def _candidates(outcomes: list[dict], analyses: list[dict], dtypes: list, probes: list[dict] | None = None,
                exact_errors: bool = False) -> list[str]:
    """The catalogued mistakes that explain the learner's results on every probe.

    Where the learner is wrong, the mistake's result must match theirs; where they are right, it
    must not differ from theirs. A result with nan or inf where the expected one is finite is weak
    evidence (where exactly a sum overflows depends on the order of the arithmetic): such a probe
    counts only when no other probe shows the answer wrong, and then asks that the mistake match
    it, or at least overflow wherever the learner's result does (subtracting the minimum, or one
    maximum for the whole matrix, overflows elsewhere than no subtraction at all). Where the
    learner's code raised, the mistake must raise the same error (``exact_errors``: NumPy code,
    which the mistakes are written in, or a product's mismatch, which :func:`error_signature` reads
    in PyTorch's wording too) or the same kind of error (:func:`error_kind`; PyTorch and TensorFlow
    word theirs otherwise): a dtype error is no evidence of a shape mistake. Weak evidence (an
    error that names no size, such as ``np.stack``'s "all input arrays must have the same shape",
    which any slip in a loop's shapes raises; or a row marked ``weak``: a weight transposed that
    does not fit, which many slips mismatch alike) counts only for a mistake that also matches the
    learner's numbers on some input.
    """
    probes = probes or [{}] * len(outcomes)
    wrong: list[set[str]] = []
    overflowing: list[set[str]] = []
    exact_overflows: list[set[str]] = []
    agree: list[tuple[dict, dict, object, dict, object]] = []  # probes where the learner is right
    weak: set[tuple[str, str]] = set()  # ways whose errors alone are no evidence
    numbers: set[tuple[str, str]] = set()  # ways that match the learner's wrong numbers somewhere
    for outcome, analysis, dtype, probe in zip(outcomes, analyses, dtypes, probes, strict=True):
        expected = analysis.get("expected")
        if expected is None:
            continue  # the input itself is unusual: no evidence either way
        rows: dict[tuple[str, str], list[dict]] = {}  # one way to make a mistake: its rows (precisions)
        for row in analysis["mutants"]:
            rows.setdefault((row["mistake"], row.get("way", "")), []).append(row)
            if row.get("weak"):
                weak.add((row["mistake"], row.get("way", "")))
        if outcome["status"] == "ok" and close_on(probe, outcome["value"], expected, dtype):
            agree.append((outcome, rows, dtype, probe, expected))
        elif _overflows(outcome, expected):
            exact = {m for m, mine in rows.items() if _matches(outcome, mine, dtype, probe)}
            exact_overflows.append(exact)
            broken = ~np.isfinite(outcome["value"])  # where the learner's result overflowed
            overflowing.append(exact | {m for m, mine in rows.items() if any(
                r["value"] is not None and np.shape(r["value"]) == broken.shape
                and np.all(~np.isfinite(r["value"])[broken]) for r in mine)})
        else:
            wrong.append({m for m, mine in rows.items() if _matches(outcome, mine, dtype, probe,
                                                                    exact_errors=exact_errors)})
            if outcome["status"] == "ok":
                numbers |= wrong[-1]
            elif _names_no_size(outcome.get("message", "")):
                weak |= wrong[-1]
    if wrong:
        ways = set.intersection(*wrong) - (weak - numbers)
    elif overflowing:
        ways = set.intersection(*exact_overflows) or set.intersection(*overflowing)
    else:
        return []
    for outcome, rows, dtype, probe, expected in agree:
        ways = {w for w in ways if w not in rows or _matches(outcome, rows[w], dtype, probe, expected)}
    return sorted({mistake for mistake, _ in ways})


# the precisions coarser than a task's: where a slip in precision leaves an answer
_COARSER = {"float64": ("float32", "float16"), "float32": ("float16",)}
_ULPS = 8  # how many rounding steps of the coarser precision a result may be off


def _imprecise(value: np.ndarray, expected: np.ndarray, dtype) -> bool:
    """``value`` is ``expected`` computed in a coarser precision and cast back: within a few rounding
    steps of that precision (of the result's scale), with every entry on its grid (float16 numbers
    cast to float32), or, for float32 steps in a float64 task, off the grid (a float32 angle
    whose cosine is taken in float64). A float16 step is never assumed off its grid: its rounding
    is too coarse to tell from a small slip."""
    if value.shape != np.shape(expected) or not np.issubdtype(value.dtype, np.floating):
        return False
    a, e = value.astype(np.float64), np.asarray(expected, dtype=np.float64)
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(e))):
        return False
    scale = float(np.abs(e).max()) if e.size else 0.0
    for coarser in _COARSER.get(np.dtype(dtype).name, ()):
        with np.errstate(over="ignore"):  # a value beyond the coarser range is simply not on its grid
            on_grid = bool(np.all(value.astype(coarser).astype(value.dtype) == value))
        bound = _ULPS * float(np.finfo(coarser).eps) * (np.abs(e) + scale)
        if (on_grid or coarser == "float32") and bool(np.all(np.abs(a - e) <= bound)):
            return True
    return False


def _naming(candidates: list[str], outcomes: list[dict], exact_errors: bool = False) -> str | None:
    """The message naming the candidates: one, or two that the evidence cannot tell apart (the same
    numbers, or, in NumPy code that raised on every input, NumPy's very error: ``q @ k`` and
    ``q @ k.T`` on a stack of heads mismatch the same two sizes). Not in other frameworks: there the
    same mismatch on every probe was also raised by uncatalogued slips (``x.T @ x``, values
    transposed) in the fresh sets' notebook 01."""
    if len(candidates) == 1:
        return _name(candidates[0])
    if len(candidates) != 2:
        return None
    first, second = (CATALOGUE[c] for c in candidates)
    if any(o["status"] == "ok" for o in outcomes):
        same = "give the same numbers as yours"
    elif exact_errors and all(o["status"] == "raised" for o in outcomes):
        same = "raise the very error yours raises"
    else:
        return None
    return (f"{first.title}, or equally {second.title}: on every input tried these two {same}. "
            f"Hint: {first.hint} {second.hint}")


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


def _symptom(exercise: str, actual: np.ndarray, expected: np.ndarray, probe: dict, dtype) -> str:
    """What is wrong with ``actual``, precisely, when no catalogued mistake explains it."""
    if actual.shape != expected.shape:
        if actual.ndim >= 2 and actual.shape == expected.shape[:-2] + expected.shape[-1:] + expected.shape[-2:-1]:
            if close(np.swapaxes(actual, -1, -2), expected, dtype):
                return f"the result is the transpose of the expected one (shape {actual.shape}, not {expected.shape})."
        return _describe_difference(actual, expected)
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
    return _describe_difference(actual, expected)


def _diagnosis(exercise: str, meta: dict, probes: list[dict], outcomes: list[dict], analyses: list[Callable],
               dtypes: list, right: list[bool]) -> str:
    """The failure message of a wrong answer, from the evidence of every probe."""
    usable = [i for i, analysis in enumerate(analyses) if analysis().get("expected") is not None]
    wrong_on = [i for i in usable if not right[i]]
    candidates = _candidates([outcomes[i] for i in usable], [analyses[i]() for i in usable],
                             [dtypes[i] for i in usable], [probes[i] for i in usable],
                             exact_errors=meta.get("framework", "numpy") == "numpy")
    if all(outcomes[i]["status"] == "ok" and _imprecise(outcomes[i]["value"], analyses[i]()["expected"], dtypes[i])
           for i in wrong_on):
        # every wrong result is the expected one computed in lower precision and cast back: its dtype
        # gives no other sign of it, so lower precision is one more candidate, named as the others are
        candidates = sorted({*candidates, "lower_precision"})
    if all(probes[i].get("loose") and not _overflows(outcomes[i], analyses[i]()["expected"]) for i in wrong_on):
        # wrong only where scores are in the thousands, and finite there: judged loosely, such a
        # result tells mistakes apart too weakly, so only a mistake reproducing it at the task's own
        # tolerance is named (a mask of -10000 instead of -inf, computed the learner's way)
        candidates = [mistake for mistake in candidates if all(
            _reproduces(mistake, outcomes[i], analyses[i](), dtypes[i], probes[i]) for i in wrong_on)]
    # a decoy (a mutant of a mistake the catalogue leaves out) that is among the best explanations
    # takes its place among them, but it has no title: only catalogued candidates are named
    candidates = [mistake for mistake in candidates if mistake in CATALOGUE]
    named = _naming(candidates, [outcomes[i] for i in usable],
                    exact_errors=meta.get("framework", "numpy") == "numpy")
    wrong = next(i for i in usable if not right[i])
    outcome = outcomes[wrong]
    label = probes[wrong].get("label")
    where = ""
    if label:
        good = [probes[i].get("label") or "the check's own input" for i in usable if right[i]]
        where = (f"right on {', '.join(good)}, but wrong on {label}: " if good
                 else f"on {label}: ")
    precision = ""
    if outcome["status"] == "ok" and np.issubdtype(outcome["value"].dtype, np.floating):
        actual = outcome["value"]
        if actual.dtype.itemsize < dtypes[wrong].itemsize:
            expected = np.asarray(analyses[wrong]()["expected"])
            if close(actual, expected, actual.dtype):
                return (f"{where}{_name('lower_precision')} (your result is {actual.dtype}; this task is "
                        f"judged in {dtypes[wrong]}).")
            precision = f" (Your result is {actual.dtype}, computed in lower precision than the task's {dtypes[wrong]}.)"
    if named:
        return named + precision
    if outcome["status"] == "raised":
        return f"{where}your function raised {outcome['type']}: {outcome['message']}"
    expected = np.asarray(analyses[wrong]()["expected"], dtype=np.float64)
    return where + _symptom(exercise, outcome["value"], expected, probes[wrong], dtypes[wrong]) + precision


def _judge_check(call: dict, meta: dict, outcomes: list[dict], key: Key) -> list[str]:
    exercise, probes, options = call["exercise"], call["probes"], call["options"]
    analyses = [_lazy(key, exercise, probe) for probe in probes]
    for outcome, analysis in zip(outcomes, analyses, strict=True):
        problem = _failing_problem(meta, outcome, analysis)
        if problem:
            raise _Fail(problem)
    expected_error = analyses[0]()["expected_error"]
    if expected_error:
        raise _Fail(f"the check's own input is invalid ({expected_error}); please report this.")
    right, dtypes = [], []
    for index, (outcome, analysis, probe) in enumerate(zip(outcomes, analyses, probes, strict=True)):
        value = outcome.get("value")
        dtypes.append(task_dtype(probe, value.dtype if value is not None else None))
        if index and analysis()["expected"] is None:
            right.append(True)  # the reference itself cannot take this probe: it proves nothing
            continue
        expected = np.asarray(analysis()["expected"], dtype=np.float64)
        right.append(outcome["status"] == "ok" and close_on(probe, value, expected, dtypes[-1]))
    main = outcomes[0]
    if main["status"] == "ok":
        actual = main["value"]
        if np.issubdtype(actual.dtype, np.integer) and not meta.get("integers_ok") and not right[0]:
            raise _Fail(_naming(_candidates([main], [analyses[0]()], [dtypes[0]]), [main])
                        or _name("integer_arithmetic"))
        if not (np.issubdtype(actual.dtype, np.number) or actual.dtype == bool):
            raise _Fail(f"expected {meta['returns']}, got an array of {actual.dtype}.")
        wanted = options.get("dtype") or meta.get("dtype")
        if wanted and actual.dtype != np.dtype(wanted):
            lower = (np.issubdtype(actual.dtype, np.floating) and actual.dtype.itemsize
                     < np.dtype(wanted).itemsize)
            expected = np.asarray(analyses[0]()["expected"], dtype=np.float64)
            hint = options.get("dtype_hint") or meta.get("dtype_hint", "")
            raise _Fail(_name("lower_precision") if lower and close(actual, expected, actual.dtype) else
                        (_naming(_candidates([main], [analyses[0]()], [dtypes[0]]), [main])
                         or f"expected a result of dtype {np.dtype(wanted)}, got {actual.dtype}. "
                         f"{hint}".rstrip()))
    if not all(right):
        raise _Fail(_diagnosis(exercise, meta, probes, outcomes, analyses, dtypes, right))
    actual = main["value"]
    more = [probe["label"] for probe in probes[1:] if probe.get("label")]
    also = f" (and on {len(more)} more: {', '.join(more)})" if more else ""
    lines = [] if options.get("quiet") else [f"✓ {exercise}: correct for input {_describe_inputs(probes[0])}{also}"]
    if options.get("expect") is not None:
        lines.append(expect_lines(actual, options["expect"], options.get("decimals", 4),
                                  options.get("what") or f"{exercise}'s result"))
    return lines


def _judge_rows(call: dict, meta: dict, outcomes: list[dict], key: Key) -> list[str]:
    exercise, probe, axis = call["exercise"], call["probes"][0], call["options"].get("axis", -1)
    analysis = _lazy(key, exercise, probe)
    result = _value(meta, outcomes[0], analysis)
    actual = result.astype(np.float64)
    sums = actual.sum(axis=axis)
    if not (bool(np.allclose(sums, 1.0, 1e-4, 1e-5)) and np.all(actual >= -1e-7)):
        raise _Fail(diagnose(result, analysis()) or "the weights of each query should be non-negative and "
                    f"sum to 1 (row sums here range from {np.nanmin(sums):.4g} to {np.nanmax(sums):.4g}).")
    return [f"✓ {exercise}: every row sums to 1"]


def _judge_shift(call: dict, meta: dict, outcomes: list[dict], key: Key) -> list[str]:
    exercise, shift = call["exercise"], call["options"]["shift"]
    plain = _value(meta, outcomes[0], _lazy(key, exercise, call["probes"][0]))
    shifted_analysis = _lazy(key, exercise, call["probes"][1])
    shifted = _value(meta, outcomes[1], shifted_analysis)
    if not close(shifted, plain, np.float32):
        raise _Fail(diagnose(shifted, shifted_analysis()) or f"adding {shift} to every score changed the "
                    "weights; a softmax ignores such a shift.")
    return [f"✓ {exercise}: adding {shift:g} to every score changes nothing"]


def _judge_permutation(call: dict, meta: dict, outcomes: list[dict], key: Key) -> list[str]:
    exercise, order = call["exercise"], np.asarray(call["options"]["order"])
    analysis = _lazy(key, exercise, call["probes"][0])
    plain = _value(meta, outcomes[0], analysis)
    reordered = _value(meta, outcomes[1], _lazy(key, exercise, call["probes"][1]))
    if plain.ndim < 2 or plain.shape[-2] != order.size or not close(reordered, plain[..., order, :], np.float32):
        raise _Fail(diagnose(plain, analysis()) or "reordering the tokens should reorder the outputs in "
                    "the same way and change nothing else.")
    return [f"✓ {exercise}: reordering the tokens reorders the outputs"]


_JUDGES = {"check": _judge_check, "rows_sum_to_one": _judge_rows, "shift_invariance": _judge_shift,
           "permutation_equivariance": _judge_permutation}


def _lazy(key: Key, exercise: str, probe: dict) -> Callable[[], dict]:
    cache: list[dict] = []

    def analysis() -> dict:
        if not cache:
            cache.append(key.analyse(exercise, probe))
        return cache[0]

    return analysis


def judge(call: dict, outcomes: list[dict], key: Key) -> Verdict:
    """Decide one check from the learner's outcomes (one per probe). Runs no learner code."""
    exercise = call["exercise"]
    try:
        meta = key.meta(exercise)
        if len(outcomes) != len(call["probes"]):
            raise _Fail("the function was not run on every input of this check.")
        return Verdict(True, _JUDGES[call["kind"]](call, meta, outcomes, key))
    except _Fail as failure:
        return Verdict(False, message=f"✗ {exercise}: {failure.message}")
    except _FailWhat as failure:
        return Verdict(False, message=failure.message)
