"""The functions the mistakes are made from agree with the model answers (the stale check).

Each model answer is written once, in ``solutions/``: an exercise's ``reference`` is the solution
notebook's own function (:mod:`autograder.key.answers`). Its ``mistakes_from`` is the NumPy function
built from the shared steps that the shared mistakes and the argument mix-ups are made in; a mistake
is only a mistake if that function, unchanged, is the answer. So on every probe of every stored
grading plan (the notebook's own check inputs and the hidden tests' probes) and every visible input
of the stored expected data, both raise, or both return results equal at the task's tolerance (the
judge's own rule, :func:`attention_course.verdict.tolerances.close_on`); a check that asks for an
error gets one from the solution. A solution edited without its ``mistakes_from``, or the other way
round, fails here.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import ASSIGNMENTS

from attention_course import expected
from attention_course.convert import to_framework, to_numpy
from attention_course.verdict.tolerances import close_on, task_dtype
from autograder import plans
from autograder.key import _call, _copies
from autograder.key.answers import _notebook_names, namespace, notebook_of
from autograder.key.exercises import all_exercises


def _probes(notebook: str, exercises) -> dict[str, list[dict]]:
    """Every probe of ``notebook``'s stored plan (none where the plan is too big to store, as
    notebook 08's) and every visible input of its stored expected data, by exercise."""
    found: dict[str, list[dict]] = {}
    for calls in (plans.stored(notebook) or {}).values():
        for call in calls:
            raises = call.get("kind") == "raises"  # the check asks for an error, not the key's result
            found.setdefault(call["exercise"], []).extend({**probe, "raises": raises} for probe in call["probes"])
    for name in exercises:
        found.setdefault(name, []).extend(case["probe"] for case in (expected.exercise(name) or {}).get("probes", []))
    return found


def _disagreement(steps, solution, probe: dict) -> str | None:
    """None when ``steps`` (an exercise's ``mistakes_from``) and ``solution`` agree on ``probe``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected, expected_error = _call(steps, _copies(probe["inputs"]), dict(probe["kwargs"]))
        actual, actual_error = _call(solution, _copies(probe["inputs"]), dict(probe["kwargs"]))
    if probe.get("raises"):
        return None if actual_error is not None else "the check asks for an error, the solution returned"
    if expected is None or actual is None:
        if (expected is None) == (actual is None):
            return None
        return f"the key {'raised ' + str(expected_error) if expected is None else 'returned'}, " \
               f"the solution {'raised ' + str(actual_error) if actual is None else 'returned'}"
    # the judge's precision (an integer task takes the answer's own), of the coarser of the two: a
    # reference computed in float64 (notebook 03's) and steps that keep float32 agree to float32's
    coarser = min((actual.dtype, expected.dtype), key=lambda d: np.dtype(d).itemsize if d.kind == "f" else 8)
    precision = task_dtype(probe, coarser)
    if close_on(probe, actual, expected, precision):
        return None
    if actual.shape != expected.shape:
        return f"shapes differ: key {expected.shape}, solution {actual.shape}"
    difference = np.nanmax(np.abs(actual.astype(np.float64) - expected.astype(np.float64)))
    return f"results differ by up to {difference:.3g} at {precision}"


@pytest.mark.parametrize("notebook", ASSIGNMENTS)
def test_every_reference_agrees_with_its_solution_notebook(notebook):
    exercises = {name: spec for name, spec in all_exercises().items() if notebook_of(name).stem == notebook}
    assert exercises, f"{notebook} has no graded exercise in the key"
    probes = _probes(notebook, exercises)
    assert set(probes) <= set(exercises), "every probed exercise is in the key"
    assert all(probes.values()), f"an exercise with nothing to compare on: {[n for n, p in probes.items() if not p]}"
    problems = []
    for name, spec in exercises.items():
        assert spec.mistakes_from is not None, f"{name} has no mistakes_from"
        for number, probe in enumerate(probes.get(name, [])):
            problem = _disagreement(spec.mistakes_from, spec.reference, probe)
            if problem:
                problems.append(f"{name}, probe {number}: {problem}")
    assert not problems, f"{len(problems)} probe(s) where key and solution disagree:\n" + "\n".join(problems[:20])


def test_steps_that_differ_from_the_solution_are_caught():
    spec = all_exercises()["softmax_stable"]
    probe = _probes("01_attention_without_weights", ["softmax_stable"])["softmax_stable"][0]
    assert _disagreement(spec.mistakes_from, spec.reference, probe) is None
    assert _disagreement(lambda x: spec.mistakes_from(x) * 1.001, spec.reference, probe) is not None


def test_the_reference_is_the_solution_notebooks_own_function():
    spec = all_exercises()["softmax_stable"]
    probe = _probes("01_attention_without_weights", ["softmax_stable"])["softmax_stable"][0]
    notebook = namespace(notebook_of("softmax_stable"), _notebook_names(notebook_of("softmax_stable")))
    own = notebook["softmax_stable"](*[to_framework(a, "torch") for a in probe["inputs"]])
    assert np.array_equal(spec.reference(*probe["inputs"]), to_numpy(own))


def test_the_function_a_check_calls_is_read_from_the_notebook_as_the_plan_recorded_it():
    """The key reads which function the checks of an exercise call from the test cells' source, so
    that it holds while a changed notebook's plan is learnt again; the stored plans agree with it."""
    from autograder.key.answers import checked_function

    compared = 0
    for name in all_exercises():
        recorded = {call.get("function") for calls in (plans.stored(notebook_of(name).stem) or {}).values()
                    for call in calls if call["exercise"] == name} - {None}
        if recorded:
            assert recorded == {checked_function(name)}, name
            compared += 1
    assert compared > 30
    assert checked_function("generate") == "generate_with_stand_in"
