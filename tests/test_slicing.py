"""Grading runs only the cells a grade depends on (autograder/slicing.py), and loses nothing by it."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import REPO

from autograder import NOTEBOOKS, SOLUTIONS, plans
from autograder import notebooks as nbio
from autograder.course import assignments
from autograder.records import Cell, Job, Limits
from autograder.slicing import names, needed_cells


def cell(index: int, source: str, kind: str = "code", solution: bool = False, grade_id: str | None = None) -> Cell:
    return Cell(index, kind, source, grade_id, solution)


SETUP = cell(0, "import numpy as np\nimport torch", grade_id="setup")
SOLUTION = cell(3, "def attend(queries):\n    return np.tanh(queries) * SCALE + helper(queries)", solution=True,
                grade_id="attend")
COURSE = [
    cell(1, "SCALE = 2.0"),
    cell(2, "def helper(x):\n    return x * 0"),
    cell(4, "model = torch.nn.Linear(3, 3)\nfor step in range(1000):\n    model(torch.ones(3)).sum().backward()"),
    cell(5, "import matplotlib.pyplot as plt\nplt.plot(np.arange(3))"),
    cell(6, "", kind="test", grade_id="correct_attend"),
]


def given(cells: list[Cell]) -> set[str]:
    return {c.source for c in cells}


def test_a_demonstration_nothing_graded_uses_is_passed_over():
    cells = [SETUP, *COURSE, SOLUTION]
    needed = needed_cells(cells, {"attend"}, given(cells))
    assert needed == {0, 1, 2, 3}, "the set-up, the constant and the helper run; the training and the plot do not"


def test_a_name_the_learners_function_reads_is_kept_wherever_it_is_bound():
    later = cell(7, "SCALE = 3.0")  # bound after the solution, before the test calls it: it counts
    in_place = cell(8, "weights = np.ones(3)\nweights[0] = 5.0")
    solution = replace(SOLUTION, source=SOLUTION.source + " + weights")
    cells = [SETUP, *COURSE, solution, later, in_place]
    needed = needed_cells(cells, {"attend"}, given(cells))
    assert {1, 7, 8} <= needed and 4 not in needed


def test_a_local_name_inside_the_learners_function_does_not_pull_a_global_in():
    solution = replace(SOLUTION, source="def attend(queries):\n    model = queries * 2\n    return np.tanh(model)")
    cells = [SETUP, *COURSE, solution]
    assert 4 not in needed_cells(cells, {"attend"}, given(cells))


def test_cells_the_learner_wrote_or_changed_always_run():
    added = cell(9, "print('my own check')")
    changed = replace(COURSE[2], source=COURSE[2].source + "\nprint('edited')")
    released = given([SETUP, *COURSE, SOLUTION])
    cells = [SETUP, *COURSE, SOLUTION, added]
    cells[3] = changed
    needed = needed_cells(cells, {"attend"}, released)
    assert {9, 4} <= needed


@pytest.mark.parametrize("dynamic", ["globals()['SCALE']", "eval('SCALE')", "sys.modules['__main__'].SCALE",
                                     "get_ipython().user_ns['SCALE']", "vars()['SCALE']"])
def test_learner_code_that_reaches_names_dynamically_runs_every_cell(dynamic):
    solution = replace(SOLUTION, source=f"import sys\ndef attend(queries):\n    return queries * {dynamic}")
    cells = [SETUP, *COURSE, solution]
    assert needed_cells(cells, {"attend"}, given(cells)) is None


def test_a_method_named_like_a_builtin_is_not_dynamic():
    solution = replace(SOLUTION, source="def attend(queries):\n    model = torch.nn.Linear(3, 3).eval()\n"
                                     "    return model(queries)")
    cells = [SETUP, *COURSE, solution]
    assert needed_cells(cells, {"attend"}, given(cells)) is not None


def test_in_record_mode_the_test_cells_and_what_they_use_run():
    test = cell(6, "check('attend', attend, inputs)", kind="test", grade_id="correct_attend")
    inputs = cell(5, "inputs = np.ones((2, 3))")
    cells = [SETUP, *COURSE[:3], inputs, SOLUTION, test]
    needed = needed_cells(cells, set(), given(cells), record=True)
    assert {5, 6} <= needed and 4 not in needed


@pytest.mark.parametrize("name", assignments())
def test_the_course_cells_can_be_read_and_need_no_dynamic_lookup(name):
    """The slicing trusts the course's own cells to bind names plainly; the Colab cell is the exception
    (it reads sys.modules to detect Colab, and binds nothing a solution uses)."""
    for nb_cell in nbio.read(NOTEBOOKS / f"{name}.ipynb").cells:
        if nb_cell.cell_type != "code":
            continue
        found = names(nb_cell.source)
        assert found is not None, f"{name}: a cell Python cannot read: {nb_cell.source[:80]}"
        if found.dynamic:
            assert "generated-header" in nb_cell.metadata.get("tags", []), f"{name}: {nb_cell.source[:80]}"


@pytest.mark.parametrize("name", assignments())
def test_the_record_run_skips_only_cells_whose_names_no_test_uses(name):
    """The record job of each source notebook passes something over, and never a cell whose names a
    test cell or a solution reads (checked by the stored plans being current: tests/test_build.py)."""
    source = nbio.read(SOLUTIONS / f"{name}.ipynb")
    job = plans.record_job(source, Limits())
    assert job.unneeded, f"{name}: every cell is needed to record the tests?"
    kinds = {c.index: c for c in job.cells}
    assert not any(kinds[i].kind == "test" or kinds[i].solution for i in job.unneeded)


@pytest.mark.slow
def test_a_missed_dependency_costs_a_rerun_not_points(tmp_path):
    """A run that passed over a cell and then met a NameError is run again with every cell."""
    from autograder.run import run_job
    from autograder.sandbox.zygote import Zygote

    zygote = Zygote(tmp_path / "workers.log")
    try:
        job = Job("record", [cell(0, "hidden_dependency = 41"), cell(1, "answer = hidden_dependency + 1\nprint(answer)")],
                  Limits(cell_timeout=20), unneeded=frozenset({0}))
        result = run_job(job, zygote)
    finally:
        zygote.close()
    assert result.unneeded == [] and result.status == "finished"
    assert result.cells[1].error is None and "42" in result.cells[1].outputs[0]["text"]


def test_the_slicing_is_documented_for_instructors():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "--all-cells" in readme
