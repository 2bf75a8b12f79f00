"""The judge: from a check's call and the learner's outcomes to a :class:`Verdict`.

:func:`judge` never calls learner code: when grading, outcomes come back from the sandbox as plain
data, and the verdict runs in the grader's own process. The learner's visible checks call the same
function, so both say the same thing for the same result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..convert import to_numpy
from ..mistakes import CATALOGUE
from .diagnosis import diagnosis
from .keys import Key
from .naming import (
    diagnose,
    message_naming,
    mistake_that_raises,
    mistakes_explaining,
    title_and_hint,
)
from .tolerances import close, close_on, task_dtype


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


class _Fail(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class _FailWhat(Exception):  # a failure that names what was compared, not the exercise
    def __init__(self, what: str, message: str):
        super().__init__(message)
        self.message = f"✗ {what}: {message}"


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
        suspect = mistake_that_raises(analysis_of(), outcome["message"])
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


def _failing_problem(meta: dict, outcome: dict, analysis_of: Callable[[], dict]) -> str | None:
    """A message for outcomes no diagnosis can explain (no function, None, a tuple, changed inputs)."""
    if outcome["status"] in ("ok", "raised"):
        if outcome.get("changed_inputs"):
            mistake = CATALOGUE["changes_inputs_in_place"]
            return f"{mistake.title}. Hint: {mistake.hint}"
        return None
    return _problem(meta, outcome, analysis_of)


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


def _named_on_every_probe(outcomes: list[dict], analyses: list[Callable], dtypes: list, probes: list[dict]) -> str | None:
    """The catalogued mistake (or two) explaining the results of every probe, when the check's own
    result is of the wrong dtype: one probe alone is too little evidence (an argmax's integer result
    on integer inputs is also what dividing them by their sum gives there)."""
    return message_naming(mistakes_explaining(outcomes, [analysis() for analysis in analyses], dtypes, probes),
                          outcomes)


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
            named = _named_on_every_probe(outcomes, analyses, dtypes, probes)
            if named or all(right[1:]):  # wrong on the integer input alone: its arithmetic is the slip
                raise _Fail(named or title_and_hint("integer_arithmetic"))
        if not (np.issubdtype(actual.dtype, np.number) or actual.dtype == bool):
            raise _Fail(f"expected {meta['returns']}, got an array of {actual.dtype}.")
        wanted = options.get("dtype") or meta.get("dtype")
        if wanted and actual.dtype != np.dtype(wanted):
            lower = (np.issubdtype(actual.dtype, np.floating) and actual.dtype.itemsize
                     < np.dtype(wanted).itemsize)
            expected = np.asarray(analyses[0]()["expected"], dtype=np.float64)
            hint = options.get("dtype_hint") or meta.get("dtype_hint", "")
            raise _Fail(title_and_hint("lower_precision") if lower and close(actual, expected, actual.dtype) else
                        (_named_on_every_probe(outcomes, analyses, dtypes, probes)
                         or f"expected a result of dtype {np.dtype(wanted)}, got {actual.dtype}. "
                         f"{hint}".rstrip()))
    if not all(right):
        raise _Fail(diagnosis(exercise, meta, probes, outcomes, analyses, dtypes, right))
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


def _judge_raises(call: dict, meta: dict, outcomes: list[dict], key: Key) -> list[str]:
    """The exercise text asks for an error on this input (a check it must make): the function must
    raise that error, not return a result nor fail later with another one."""
    exercise, options, outcome = call["exercise"], call["options"], outcomes[0]
    wanted, when = options.get("error", "ValueError"), options.get("when", "")
    asked = f"should raise {wanted}" + (f" when {when}" if when else " on this input")
    if outcome["status"] == "raised" and outcome["type"] == wanted:
        return [f"✓ {exercise}: raises {wanted}" + (f" when {when}" if when else "")]
    if outcome["status"] == "raised":
        raise _Fail(f"{asked}, but it raised {outcome['type']}: {outcome['message']}: check the input yourself, "
                    f"before anything is computed, and raise {wanted} as the exercise asks.")
    if outcome["status"] in ("missing", "not_callable", "not_implemented"):
        raise _Fail(_problem(meta, outcome, _lazy(key, exercise, call["probes"][0])))
    raise _Fail(f"{asked}, but it returned a result: the check the exercise asks for is missing "
                f"(`if ...: raise {wanted}(...)` before anything is computed).")


_JUDGES = {"check": _judge_check, "rows_sum_to_one": _judge_rows, "shift_invariance": _judge_shift,
           "permutation_equivariance": _judge_permutation, "raises": _judge_raises}


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
