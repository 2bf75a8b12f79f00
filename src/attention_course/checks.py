"""The checks that the notebooks' test cells call.

``check(exercise, function, *inputs)`` runs the learner's function on ``inputs`` (converted to the
exercise's framework), compares the result with the expected one and, when they differ, names the
mistake (see :mod:`attention_course.verdict`). A passing check prints one line to stdout; a failing
one raises :class:`CheckFailed` (an ``AssertionError``). Checks never write to stderr: nbgrader
scores a test cell that does as 0.

This package holds no answer: for the inputs the notebooks' visible checks use, the expected
results and the catalogued mistakes' results were computed by the course's build and ship as data
(``expected/``). Where a grading-side key is installed beside it (the course's own environment,
whose ``attention-autograder`` package registers one under the entry point group
``attention_course.key``), checks on any other input, such as a source notebook's hidden tests, are
computed with it. This package never imports the grader by name.

When a notebook is graded, these functions are not what decides: the grader runs each test cell's
checks itself, calling the learner's functions in a sandbox and judging their results in its own
process (see the README, "For instructors").
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from contextlib import contextmanager
from importlib.metadata import entry_points

import numpy as np

from .convert import to_framework, to_numpy  # noqa: F401 (part of the checks' public API)
from .verdict import TOLERANCES, CheckFailed, Key, StoredKey, close, judge, make_call, run_probe  # noqa: F401
from .verdict import expect_lines as _expect_lines

KEY_GROUP = "attention_course.key"
# A visible check's own time limit, so that a learner's loop that never ends (a ``while`` whose
# condition never changes) gets one line instead of a cell that runs forever. Grading does not rely
# on it: the grader limits every cell from outside the sandbox.
CHECK_SECONDS = 60
_STORED = StoredKey()
_COMPUTED: list = []  # a key registered under KEY_GROUP, when one is installed


def _computed_key() -> Key | None:
    if not _COMPUTED:
        found = sorted(entry_points(group=KEY_GROUP), key=lambda point: point.name)
        _COMPUTED.append(found[0].load()(remember_probes=False) if found else None)  # every check: new probes
    return _COMPUTED[0]


class _ChainKey(Key):
    """The stored answers first; the grading side's key, if importable, for anything else."""

    def __init__(self, exercise: str):
        self.computed = _computed_key()
        self.stored = _STORED if _STORED.knows(exercise) else None

    def meta(self, exercise: str) -> dict:
        if self.stored is not None:
            return self.stored.meta(exercise)
        if self.computed is not None:
            return self.computed.meta(exercise)
        raise CheckFailed(f"✗ {exercise}: this course package has no check for {exercise!r}; "
                          "is the package up to date?")

    def analyse(self, exercise: str, probe: dict) -> dict:
        if self.stored is not None:
            try:
                return self.stored.analyse(exercise, probe)
            except LookupError:
                pass
        if self.computed is not None:
            return self.computed.analyse(exercise, probe)
        raise CheckFailed(f"✗ {exercise}: this check only knows the inputs the notebook's own test cells "
                          "use; run the test cell as it is (restore it from the original notebook if "
                          "it was changed).")

    def standins(self, exercise: str) -> dict:
        return self.computed.standins(exercise) if self.computed is not None else {}


class _OutOfTime(BaseException):
    """Raised inside the learner's function when the check's time is up: not an ``Exception``, so that
    running the probe does not record it as the learner's own error."""


@contextmanager
def _time_limit(seconds: float):
    """SIGALRM after ``seconds``, where a timer is free: in the main thread, with no timer already set
    (another's, such as a grading runner's, is left alone)."""
    free = (hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
            and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0))
    if not free:
        yield
        return

    def ring(signum, frame):
        raise _OutOfTime

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _run(kind: str, exercise: str, candidate, inputs: tuple, kwargs: dict, **options) -> None:
    call = make_call(kind, exercise, candidate, inputs, kwargs, **options)
    key = _ChainKey(exercise)
    meta = key.meta(exercise)
    replacements = key.standins(exercise)
    # The framework's first import (seconds) is the check's own work, done before the learner's time
    # starts: an import cut short by the timer leaves a half-imported module behind.
    to_framework(np.zeros(1), meta["framework"])
    try:
        with _time_limit(CHECK_SECONDS):
            outcomes = [run_probe(candidate, probe, meta["framework"], replacements,
                                  meta.get("returns_tuple", False)) for probe in call["probes"]]
    except _OutOfTime:
        raise CheckFailed(f"✗ {exercise}: still running after {CHECK_SECONDS} s on the check's input: does a loop "
                          "in it never end (a while whose condition never changes, a counter never "
                          "increased)?") from None
    verdict = judge(call, outcomes, key)
    if not verdict.passed:
        uses = [name for name in meta.get("uses", []) if not replacements]
        note = (f" (it may call your {', '.join(uses)}, checked separately: fix that first if its check "
                "fails; when graded, a correct version is used in its place)") if uses else ""
        raise CheckFailed(verdict.message + note)
    for line in verdict.lines:
        print(line)


def check(exercise: str, candidate: Callable, *inputs, quiet: bool = False, expect=None,
          decimals: int = 4, what: str | None = None, dtype: str | None = None,
          dtype_hint: str = "", loose: bool = False, **kwargs) -> None:
    """Check ``candidate(*inputs, **kwargs)``; name the mistake if it is wrong.

    ``expect``, if given, are the numbers a seed printed (to ``decimals`` places); the result must
    also match them. ``dtype``, if given, is the dtype the result must have (``dtype_hint`` says
    why). ``loose``: the inputs are large on purpose (a softmax that must not overflow), so that two
    correct computations differ by more than rounding: the result is judged to 1e-3 of its scale.
    The learner's function runs once per input.
    """
    _run("check", exercise, candidate, inputs, kwargs, quiet=quiet, expect=expect, decimals=decimals,
         what=what, dtype=dtype, dtype_hint=dtype_hint, loose=loose)


def check_rows_sum_to_one(exercise: str, candidate: Callable, *inputs, axis: int = -1, **kwargs) -> None:
    """Every row of the result (along ``axis``) sums to 1 and no weight is negative."""
    _run("rows_sum_to_one", exercise, candidate, inputs, kwargs, axis=axis)


def check_shift_invariance(exercise: str, candidate: Callable, scores, *rest, shift=100.0) -> None:
    """Adding the same constant to every score changes no weight."""
    _run("shift_invariance", exercise, candidate, (scores, *rest), {}, shift=float(shift))


def check_permutation_equivariance(exercise: str, candidate: Callable, *inputs, token_args=(0,),
                                   seed: int = 0, **kwargs) -> None:
    """Reordering the tokens reorders the outputs the same way, and changes nothing else.

    ``token_args`` are the positions of the inputs whose second-to-last axis is the token axis.
    """
    _run("permutation_equivariance", exercise, candidate, inputs, kwargs, token_args=tuple(token_args),
         seed=seed)


def check_raises(exercise: str, candidate: Callable, *inputs, error: str = "ValueError", when: str = "",
                 **kwargs) -> None:
    """``candidate(*inputs, **kwargs)`` must raise ``error`` (an exception's class name): the exercise
    text asks for it ``when`` the inputs are such (said in the message if it does not)."""
    _run("raises", exercise, candidate, inputs, kwargs, error=error, when=when)


def expect_close(actual, expected, decimals: int = 4, what: str = "the result") -> None:
    """Compare numbers computed in a notebook with expected ones (those a seed printed).

    For demonstrations, not for grading: a test cell checks a learner's function through
    ``check(..., expect=...)``, which the grader runs out of the learner's reach.
    """
    try:
        print(_expect_lines(actual, expected, decimals, what))
    except Exception as failure:
        raise CheckFailed(getattr(failure, "message", str(failure))) from None
