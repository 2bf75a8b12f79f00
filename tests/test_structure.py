"""Every source notebook has what the course promises: goals, 3-6 exercises, a hand-graded answer
with its rubric, a plot, the errata of its source and a credit."""

from __future__ import annotations

import pytest
from conftest import ASSIGNMENTS, SOLUTIONS, nbio


@pytest.fixture(params=ASSIGNMENTS)
def notebook(request):
    return request.param, nbio.read(SOLUTIONS / f"{request.param}.ipynb")


def _meta(cell):
    return cell.metadata.get("nbgrader", {})


def test_has_learning_goals_and_credit(notebook):
    name, nb = notebook
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "learn" in nb.cells[0].source.lower(), f"{name}: the first cell states the learning goals"
    assert "Credit" in text or "credit" in text
    assert "erratum" in text.lower(), f"{name}: the source's mistakes are gathered in one section"


def test_has_three_to_six_graded_exercises_each_with_a_test(notebook):
    name, nb = notebook
    exercises = [_meta(c)["grade_id"] for c in nb.cells if c.cell_type == "code" and _meta(c).get("solution")]
    tests = {_meta(c)["grade_id"] for c in nb.cells if _meta(c).get("grade") and not _meta(c).get("solution")}
    assert 3 <= len(exercises) <= 6, exercises
    for grade_id in exercises:
        assert f"correct_{grade_id}" in tests, grade_id
    for cell in nb.cells:
        if _meta(cell).get("grade") and not _meta(cell).get("solution"):
            assert "### BEGIN HIDDEN TESTS" in cell.source, f"{_meta(cell)['grade_id']} has hidden tests"
            assert _meta(cell).get("locked")


def test_has_a_written_answer_with_a_rubric(notebook):
    _, nb = notebook
    written = [c for c in nb.cells if c.cell_type == "markdown" and _meta(c).get("solution") and _meta(c).get("grade")]
    assert written and all("Rubric" in c.source for c in written)


def test_has_a_plot(notebook):
    _, nb = notebook
    assert any("plots.heatmap" in c.source or "plt." in c.source for c in nb.cells if c.cell_type == "code")
