"""The diagnosis table: every catalogued mistake is caught and named, every variant accepted.

The same run as ``python3 tasks.py accuracy``; see autograder/accuracy.py for the method and
tests/cases/ for the learner-style answers.
"""

from __future__ import annotations

import pytest
from conftest import ASSIGNMENTS, REPO

from attention_course.mistakes import CATALOGUE
from autograder.accuracy import evaluate, load_cases, table

pytestmark = pytest.mark.slow
WITH_CASES = [name for name in ASSIGNMENTS if (REPO / "tests" / "cases" / f"{name}.py").is_file()]


def test_every_notebook_has_cases():
    assert WITH_CASES == ASSIGNMENTS


@pytest.mark.parametrize("name", WITH_CASES)
def test_cases_name_catalogued_mistakes_of_existing_exercises(name):
    mistakes, variants = load_cases(name)
    assert mistakes and variants
    for exercise, cases in mistakes.items():
        assert set(cases) <= set(CATALOGUE), f"{exercise}: {set(cases) - set(CATALOGUE)}"


@pytest.mark.parametrize("name", WITH_CASES)
def test_mistakes_are_caught_and_named_and_variants_accepted(name):
    outcomes = evaluate(name, progress=False)
    print("\n" + table(outcomes))
    wrong = [f"{o.exercise} {o.kind} {o.case}: failed {o.failed_tests} {o.message[:200]}"
             for o in outcomes if not o.ok]
    assert not wrong, "\n".join(wrong)
