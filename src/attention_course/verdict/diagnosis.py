"""The failure message of a wrong answer, from the evidence of every probe.

It names the catalogued mistakes that explain the results everywhere (:mod:`.naming`), or else says
where the answer is wrong (which kinds of input) and what the symptom is (:mod:`.symptoms`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..mistakes import CATALOGUE
from .errors import explain_error
from .factors import Seen
from .inputs import what_they_share
from .naming import (
    imprecise,
    message_naming,
    mistakes_explaining,
    overflows,
    reproduces,
    title_and_hint,
)
from .quantities import is_count, sizes_of
from .slips import GENERATED, SLIPS, described, generated_slips
from .symptoms import symptom
from .tolerances import close


def diagnosis(exercise: str, meta: dict, probes: list[dict], outcomes: list[dict], analyses: list[Callable],
              dtypes: list, right: list[bool]) -> str:
    """The failure message of a wrong answer, from the evidence of every probe."""
    changed = _change_between_calls(probes, outcomes)
    if changed is not None:
        return (f"on the same input a second time the result changed (by up to {changed:.3g}): something in it "
                "is random. Is the layer in training mode, with its dropout active? A new nn.Module is: "
                "call layer.eval() (model.eval()) before using it for results. Or are some of its "
                "parameters left at their random initial values (a bias the exercise does not ask for, "
                "a weight never copied)?")
    usable = [i for i, analysis in enumerate(analyses) if analysis().get("expected") is not None]
    wrong_on = [i for i in usable if not right[i]]
    candidates = mistakes_explaining([outcomes[i] for i in usable], [analyses[i]() for i in usable],
                                     [dtypes[i] for i in usable], [probes[i] for i in usable],
                                     exact_errors=meta.get("framework", "numpy") == "numpy", generated=True)
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
    # takes its place among them, but it has no title: only catalogued candidates are named; a
    # described slip is said instead when no catalogued candidate is left
    slips = [mistake for mistake in candidates if mistake in SLIPS]
    generated = [mistake for mistake in candidates if mistake.startswith(GENERATED)]
    candidates = [mistake for mistake in candidates if mistake in CATALOGUE
                  and _size_told_apart(mistake, exercise, [probes[i] for i in wrong_on])]
    named = message_naming(candidates, [outcomes[i] for i in usable],
                           exact_errors=meta.get("framework", "numpy") == "numpy")
    wrong = next(i for i in usable if not right[i])
    outcome = outcomes[wrong]
    where = _where(exercise, probes, usable, right, wrong)
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
    if slips and not candidates and outcome["status"] == "ok":
        return where + described(slips) + precision
    if outcome["status"] == "raised":
        raised = f"{where}your function raised {outcome['type']}: {outcome['message']}"
        slip = explain_error(outcome["message"], exercise, probes[wrong], meta.get("framework", "numpy"))
        return f"{raised.rstrip()} — {slip}" if slip else raised
    seen = [Seen(probes[i], outcomes[i].get("value") if outcomes[i]["status"] == "ok" else None,
                 np.asarray(analyses[i]()["expected"], dtype=np.float64), dtypes[i], right[i]) for i in usable]
    wrong_seen = [s for i, s in zip(usable, seen, strict=True) if i == wrong] + [
        s for i, s in zip(usable, seen, strict=True) if not s.right and i != wrong]
    said = symptom(exercise, meta, wrong_seen, [s for s in seen if s.right])
    # a generated mistake (one edit of the expected computation) that explains every result is said
    # after the symptom, which it does not replace: the symptom says what is off, the slip where
    one_edit = generated_slips(generated) if not candidates and not slips and outcome["status"] == "ok" else None
    return where + said + precision + (f" {one_edit}" if one_edit else "")


def _change_between_calls(probes: list[dict], outcomes: list[dict]) -> float | None:
    """The largest difference between two results of the function on the very same input (a probe
    marked ``repeat`` runs the check's own input again), or None where they agree: a function whose
    result is not a function of its input draws random numbers, as dropout in training mode does."""
    first = outcomes[0]
    for probe, outcome in zip(probes[1:], outcomes[1:], strict=True):
        if not probe.get("repeat") or first["status"] != "ok" or outcome["status"] != "ok":
            continue
        again, before = np.asarray(outcome["value"], np.float64), np.asarray(first["value"], np.float64)
        if again.shape == before.shape and not close(again, before, first["value"].dtype):
            return float(np.nanmax(np.abs(again - before)))
    return None


# Mistakes whose title says which size was used; the counts they may have used for it
_SIZE_NAMED = {"scale_by_sqrt_tokens": ("tokens", "n_tokens", "n_keys", "n_queries", "n_states", "n_new", "n_cached")}


def _size_told_apart(mistake: str, exercise: str, wrong: list[dict]) -> bool:
    """False when a mistake that names a size (the number of tokens) is named only because that size
    equals a width (d_k) on every input the learner is wrong on: the same numbers then come from
    scaling by that width, which the title would misname."""
    counts = _SIZE_NAMED.get(mistake)
    if not counts:
        return True
    for probe in wrong:
        sizes = sizes_of(exercise, probe)
        used = {sizes[name] for name in counts if name in sizes}
        widths = {size for name, size in sizes.items() if not is_count(name) and name != "d_head"}
        if not used or not used <= widths:
            return True
    return False


def _where(exercise: str, probes: list[dict], usable: list[int], right: list[bool], wrong: int) -> str:
    """Which inputs the answer is right and wrong on, and what those it is right on have in common
    (square, one head, no padding, ...); the options the check called it with (``scale=False``)."""
    called = ", ".join(f"{name}={value!r}" for name, value in probes[wrong]["kwargs"].items())
    called = f"called with {called}: " if called else ""
    label = probes[wrong].get("label")
    if not label:
        return called
    good = [i for i in usable if right[i]]
    if not good:
        return f"{called}on {label}: "
    shared = what_they_share(exercise, [probes[i] for i in good], [probes[i] for i in usable if not right[i]])
    common = f" (where {' and '.join(shared)})" if shared else ""
    said = ", ".join(probes[i].get("label") or "the check's own input" for i in good)
    return f"{called}right on {said}{common}, but wrong on {label}: "
