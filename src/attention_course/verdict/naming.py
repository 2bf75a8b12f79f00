"""Naming mistakes: which catalogued mistakes explain the learner's results on every probe.

A mistake is named only when its result matches the learner's wherever the learner is wrong and
does not differ where the learner is right (:func:`mistakes_explaining`); two that the evidence
cannot tell apart are named together (:func:`message_naming`). Titles and hints come from the
catalogue (:mod:`attention_course.mistakes`).
"""

from __future__ import annotations

import numpy as np

from ..mistakes import CATALOGUE
from .errors import error_kind, error_signature, names_no_size
from .slips import GENERATED
from .tolerances import close_on


def title_and_hint(mistake_id: str) -> str:
    mistake = CATALOGUE[mistake_id]
    return f"{mistake.title}. Hint: {mistake.hint}"


def message_naming(candidates: list[str], outcomes: list[dict], exact_errors: bool = False) -> str | None:
    """The message naming the candidates: one, or two that the evidence cannot tell apart (the same
    numbers, or, in NumPy code that raised on every input, NumPy's very error: ``q @ k`` and
    ``q @ k.T`` on a stack of heads mismatch the same two sizes). Not in other frameworks: there the
    same mismatch on every probe was also raised by uncatalogued slips (``x.T @ x``, values
    transposed) in the fresh sets' notebook 01."""
    if len(candidates) == 1:
        return title_and_hint(candidates[0])
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


def mistake_that_raises(analysis: dict, error: str) -> str | None:
    """When the learner's code raised: the catalogued mistake whose mutant raises too, if unique.

    The same message first; else the same known kind of error (a dtype error is no shape mistake)."""
    if analysis.get("expected_error") or names_no_size(error):
        return None  # the input itself is unusual, or an error that names no size: no basis for a guess
    raising = [m for m in analysis["mutants"] if m["error"] is not None and not m.get("weak")]
    same = sorted({m["mistake"] for m in raising if m["error"] == error})
    # the same kind of error, worded otherwise by another library; an error of no known kind is no
    # evidence (torch.multinomial's nan and a stand-in model's missing cache are both "other")
    alike = sorted({m["mistake"] for m in raising
                    if error_kind(error) != "other" and error_kind(m["error"]) == error_kind(error)})
    candidates = same or alike
    return title_and_hint(candidates[0]) if len(candidates) == 1 else None


def matches(outcome: dict, rows: list[dict], dtype, probe: dict, expected=None, exact_errors=False) -> bool:
    if outcome["status"] == "raised":
        mine = error_signature(outcome.get("message", ""))
        # NumPy code, or a product's mismatch in any framework: the mistake must raise the very error
        if exact_errors or isinstance(mine, tuple):
            return any(row["error"] is not None and error_signature(row["error"]) == mine for row in rows)
        kind = error_kind(outcome.get("message", ""))
        if kind == "other":  # no known kind: only the very error is evidence
            return any(row["error"] is not None and error_signature(row["error"]) == mine for row in rows)
        return any(row["error"] is not None and error_kind(row["error"]) == kind for row in rows)
    if outcome["status"] != "ok":
        return False
    value = outcome["value"]
    if expected is not None and any(row.get("as_expected") for row in rows) and close_on(probe, value, expected, dtype):
        return True
    return any(row["value"] is not None and close_on(probe, value, row["value"], dtype)
               or row.get("sample") is not None and _matches_sample(value, row, dtype, probe) for row in rows)


def _matches_sample(value: np.ndarray, row: dict, dtype, probe: dict) -> bool:
    """A stored generated mistake keeps only the entries of its result that differ most from the
    expected one (``at``, flat indices, and their values, ``sample``): the learner's result must have
    its shape and match it there."""
    return tuple(value.shape) == tuple(row["shape"]) and close_on(
        probe, np.asarray(value).reshape(-1)[np.asarray(row["at"], dtype=np.int64)], row["sample"], dtype)


def reproduces(mistake: str, outcome: dict, analysis: dict, dtype, probe: dict) -> bool:
    """One way of making ``mistake`` gives the learner's result within the tolerance of ``dtype``,
    even on a probe otherwise judged loosely."""
    ways: dict[str, list[dict]] = {}
    for row in analysis["mutants"]:
        if row["mistake"] == mistake:
            ways.setdefault(row.get("way", ""), []).append(row)
    strict = {**probe, "loose": False}
    return any(matches(outcome, rows, dtype, strict) for rows in ways.values())


def overflows(outcome: dict, expected) -> bool:
    """The learner's result has nan or inf where the expected one is finite."""
    if outcome["status"] != "ok" or not np.issubdtype(outcome["value"].dtype, np.floating):
        return False
    value = outcome["value"]
    return value.shape == np.shape(expected) and not np.all(np.isfinite(value)) and np.all(np.isfinite(expected))


def mistakes_explaining(outcomes: list[dict], analyses: list[dict], dtypes: list, probes: list[dict] | None = None,
                        exact_errors: bool = False, generated: bool = False) -> list[str]:
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
    learner's numbers on some input. The generated mistakes (:data:`.slips.GENERATED`) are weighed
    only where ``generated`` asks for them (the failure message, which says them in words).
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
            if not generated and row["mistake"].startswith(GENERATED):
                continue
            rows.setdefault((row["mistake"], row.get("way", "")), []).append(row)
            if row.get("weak"):
                weak.add((row["mistake"], row.get("way", "")))
        if outcome["status"] == "ok" and close_on(probe, outcome["value"], expected, dtype):
            agree.append((outcome, rows, dtype, probe, expected))
        elif overflows(outcome, expected):
            exact = {m for m, mine in rows.items() if matches(outcome, mine, dtype, probe)}
            exact_overflows.append(exact)
            broken = ~np.isfinite(outcome["value"])  # where the learner's result overflowed
            overflowing.append(exact | {m for m, mine in rows.items() if any(
                r["value"] is not None and np.shape(r["value"]) == broken.shape
                and np.all(~np.isfinite(r["value"])[broken]) for r in mine)})
        else:
            wrong.append({m for m, mine in rows.items() if matches(outcome, mine, dtype, probe,
                                                                    exact_errors=exact_errors)})
            if outcome["status"] == "ok":
                numbers |= wrong[-1]
            elif names_no_size(outcome.get("message", "")):
                weak |= wrong[-1]
    if wrong:
        ways = set.intersection(*wrong) - (weak - numbers)
    elif overflowing:
        ways = set.intersection(*exact_overflows) or set.intersection(*overflowing)
    else:
        return []
    for outcome, rows, dtype, probe, expected in agree:
        ways = {w for w in ways if w not in rows or matches(outcome, rows[w], dtype, probe, expected)}
    return sorted({mistake for mistake, _ in ways})


# the precisions coarser than a task's: where a slip in precision leaves an answer
_COARSER = {"float64": ("float32", "float16"), "float32": ("float16",)}


_ULPS = 8  # how many rounding steps of the coarser precision a result may be off


def imprecise(value: np.ndarray, expected: np.ndarray, dtype) -> bool:
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


def diagnose(actual: np.ndarray, analysis: dict) -> str | None:
    """The message naming the mistake whose result reproduces ``actual`` on one input, if one does."""
    dtype = max(np.dtype(actual.dtype) if np.issubdtype(actual.dtype, np.floating) else np.dtype(np.float64),
                np.dtype(np.float32), key=lambda d: d.itemsize)
    return message_naming(mistakes_explaining([{"status": "ok", "value": actual}], [analysis], [dtype]),
                          [{"status": "ok", "value": actual}])
