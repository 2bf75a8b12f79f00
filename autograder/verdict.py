"""The verdict stage: a test cell's outputs and score from the learner's results, in the grader's process.

:func:`attention_course.verdict.judge` (the same judge the learner's visible checks use) decides each
of the cell's checks with the answer key; the cell gets the outputs its checks would have printed (the
✓ lines, or the first failure's message; the checks after it are not judged) and passes only when
every check passed. A test cell with no check fails: a plan never has one (:func:`autograder.plans.validate`), and one that did would pass
with nothing checked. Each check also becomes a :class:`~autograder.records.CheckRow`.

A hidden check's message never quotes the learner's numbers (a function could raise an error
holding the hidden inputs it was called with): its decimals are cut.
"""

from __future__ import annotations

import re
import sys

from attention_course.mistakes import CATALOGUE
from attention_course.verdict import judge

from .records import CellVerdict, CheckRow

_DECIMALS = re.compile(r"(?<![\w.])-?\d+\.\d+(?:e[-+]?\d+)?|(?<![\w.])-?\d+e[-+]?\d+|\b\d{5,}\b")
NO_CHECKS = "✗ this test has no checks to run, so it cannot be passed (please report this to your instructor)."


def _without_numbers(message: str) -> str:
    return _DECIMALS.sub("…", message)


def named_mistakes(message: str) -> list[str]:
    """The catalogued mistakes a message names (by their titles)."""
    return [mistake_id for mistake_id, mistake in CATALOGUE.items() if mistake.title in message]


def judge_cell(calls: list[dict], outcomes: list[list[dict]] | None, key, student: str = "",
               assignment: str = "", test: str = "") -> CellVerdict:
    """The outputs a test cell gets (as if its checks had run), whether it passed, and a row per check."""
    lines: list[str] = []
    rows: list[CheckRow] = []
    failure = NO_CHECKS if not calls else None
    for number, call in enumerate(calls):
        if failure is not None:
            break  # the cell fails already: the checks after the first failure are not judged
        results = outcomes[number] if outcomes is not None and number < len(outcomes) else None
        if results is None:
            verdict_passed, message, printed = False, f"✗ {call['exercise']}: the function could not be run on " \
                                                      "this test's inputs.", []
        else:
            try:
                verdict = judge(call, results, key)
                verdict_passed, message, printed = verdict.passed, verdict.message, verdict.lines
            except Exception as error:  # noqa: BLE001 (a bug of the judge: fail this check loudly, not the class)
                verdict_passed, printed = False, []
                message = (f"✗ {call['exercise']}: the grader could not judge this result ({type(error).__name__}: "
                           f"{str(error)[:120]}); please report this to your instructor.")
                print(f"GRADER BUG judging {call['exercise']} for {student or 'a case'}: "
                      f"{type(error).__name__}: {error}", file=sys.stderr, flush=True)
        if call.get("hidden"):
            message = _without_numbers(message)
        rows.append(CheckRow(student, assignment, test, call["exercise"], bool(call.get("hidden")), verdict_passed,
                             ",".join(named_mistakes(message)), message))
        if verdict_passed:
            lines += printed
        else:
            failure = message
    outputs = [{"output_type": "stream", "name": "stdout", "text": "\n".join(lines) + "\n"}] if lines else []
    if failure is not None:
        outputs.append({"output_type": "error", "ename": "CheckFailed", "evalue": failure, "traceback": [failure]})
    return CellVerdict(outputs, failure is None, rows)
