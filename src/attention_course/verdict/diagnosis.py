"""The failure message of a wrong answer, from the evidence of every probe.

It names the catalogued mistakes that explain the results everywhere (:mod:`.naming`), or else says
where the answer is wrong (which kinds of input) and what the symptom is (:mod:`.symptoms`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..mistakes import CATALOGUE
from .naming import (
    imprecise,
    message_naming,
    mistakes_explaining,
    overflows,
    reproduces,
    title_and_hint,
)
from .symptoms import symptom
from .tolerances import close


def diagnosis(exercise: str, meta: dict, probes: list[dict], outcomes: list[dict], analyses: list[Callable],
              dtypes: list, right: list[bool]) -> str:
    """The failure message of a wrong answer, from the evidence of every probe."""
    usable = [i for i, analysis in enumerate(analyses) if analysis().get("expected") is not None]
    wrong_on = [i for i in usable if not right[i]]
    candidates = mistakes_explaining([outcomes[i] for i in usable], [analyses[i]() for i in usable],
                                     [dtypes[i] for i in usable], [probes[i] for i in usable],
                                     exact_errors=meta.get("framework", "numpy") == "numpy")
    if all(outcomes[i]["status"] == "ok" and imprecise(outcomes[i]["value"], analyses[i]()["expected"], dtypes[i])
           for i in wrong_on):
        # every wrong result is the expected one computed in lower precision and cast back: its dtype
        # gives no other sign of it, so lower precision is one more candidate, named as the others are
        candidates = sorted({*candidates, "lower_precision"})
    if all(probes[i].get("loose") and not overflows(outcomes[i], analyses[i]()["expected"]) for i in wrong_on):
        # wrong only where scores are in the thousands, and finite there: judged loosely, such a
        # result tells mistakes apart too weakly, so only a mistake reproducing it at the task's own
        # tolerance is named (a mask of -10000 instead of -inf, computed the learner's way)
        candidates = [mistake for mistake in candidates if all(
            reproduces(mistake, outcomes[i], analyses[i](), dtypes[i], probes[i]) for i in wrong_on)]
    # a decoy (a mutant of a mistake the catalogue leaves out) that is among the best explanations
    # takes its place among them, but it has no title: only catalogued candidates are named
    candidates = [mistake for mistake in candidates if mistake in CATALOGUE]
    named = message_naming(candidates, [outcomes[i] for i in usable],
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
                return (f"{where}{title_and_hint('lower_precision')} (your result is {actual.dtype}; this task is "
                        f"judged in {dtypes[wrong]}).")
            precision = f" (Your result is {actual.dtype}, computed in lower precision than the task's {dtypes[wrong]}.)"
    if named:
        return named + precision
    if outcome["status"] == "raised":
        return f"{where}your function raised {outcome['type']}: {outcome['message']}"
    expected = np.asarray(analyses[wrong]()["expected"], dtype=np.float64)
    return where + symptom(exercise, outcome["value"], expected, probes[wrong], dtypes[wrong]) + precision
