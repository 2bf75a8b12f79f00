"""Grading the course's own notebooks: full marks, zero, and exactly one exercise's points lost."""

from __future__ import annotations

import html
import itertools
import re

import pytest
from conftest import ASSIGNMENTS, SOLUTIONS, nbio, points_of_tests, solution_cells, wrong_answer

from attention_course.mistakes import CATALOGUE

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_solutions_get_full_marks(graded_class, name):
    results, _ = graded_class
    result = results[("solved", name)]
    assert result.status == "graded", result.message
    assert result.auto_max_score == sum(points_of_tests(name).values()) > 0
    assert result.auto_score == result.auto_max_score


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_untouched_learner_copy_gets_zero(graded_class, name):
    results, _ = graded_class
    result = results[("blank", name)]
    assert result.status == "graded", result.message
    assert result.auto_score == 0
    assert result.score == 0  # unanswered written answers score 0 automatically


@pytest.mark.parametrize(
    "name, grade_id", [(name, grade_id) for name in ASSIGNMENTS for grade_id in solution_cells(name)]
)
def test_one_wrong_exercise_loses_exactly_its_points_and_is_named(graded_class, name, grade_id):
    results, out = graded_class
    result = results[(f"wrong-{grade_id}", name)]
    own = {test: points for test, points in points_of_tests(name).items()
           if test == f"correct_{grade_id}" or test.startswith(f"correct_{grade_id}_")}
    assert own, f"no test cell named correct_{grade_id} in {name}"
    assert result.status == "graded", result.message
    # an exercise asking for two functions has a test cell for each: a wrong one loses its cell's points
    lost = result.auto_max_score - result.auto_score
    possible = {sum(subset) for size in range(1, len(own) + 1)
                for subset in itertools.combinations(own.values(), size)}
    assert lost in possible, f"lost {lost}, its test cells are worth {own}"
    mistake_id, _ = wrong_answer(name, grade_id)
    if mistake_id:
        feedback = page_text(out / "feedback" / f"wrong-{grade_id}" / f"{name}.html")
        assert CATALOGUE[mistake_id].title in feedback


def hidden_lines(name: str) -> list[str]:
    """The distinctive lines of a source notebook's hidden test regions: long, and found nowhere else."""
    hidden, visible, inside = [], set(), False
    for cell in nbio.read(SOLUTIONS / f"{name}.ipynb").cells:
        for line in cell.source.splitlines():
            if line.strip() == "### BEGIN HIDDEN TESTS":
                inside = True
            elif line.strip() == "### END HIDDEN TESTS":
                inside = False
            elif inside and len(line.strip()) > 25:
                hidden.append(line.strip())
            else:
                visible.add(line.strip())
    return [line for line in hidden if not any(line in shown for shown in visible)]


def page_text(path) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_feedback_never_shows_hidden_tests(graded_class, name):
    _, out = graded_class
    pages = sorted((out / "feedback").glob(f"*/{name}.html"))
    secret = hidden_lines(name)
    assert len(pages) >= 2 and secret  # solved and blank at least; the notebook has hidden tests
    for page in pages:
        text = page_text(page)
        assert "BEGIN HIDDEN TESTS" not in text
        leaked = [line for line in secret if line in text]
        assert not leaked, f"{page.name}: hidden test code in the feedback: {leaked[:2]}"
        assert "hidden tests ran here" in text


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_feedback_pages_fetch_nothing_from_the_network(graded_class, name):
    """A page opened from disk, offline, is whole: the notebook's Colab badge is left out, MathJax is local."""
    _, out = graded_class
    for page in sorted((out / "feedback").glob(f"*/{name}.html")):
        remote = re.findall(r'<(?:img|script|link)[^>]*\bsrc="(\w+://[^"]*)"', page.read_text(encoding="utf-8"))
        assert not remote, f"{page.parent.name}/{page.name} fetches {remote}"
