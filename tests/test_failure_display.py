"""A failed visible check shows a learner its one ✗ line (with the hint), not a traceback.

A learner copy of notebook 01 with one wrong answer (the sample class's cleo: a softmax that sums
down the columns) runs through nbclient, as JupyterLab runs it, and through nbgrader's Validator, as
the Validate button does. In both, the failing test cell's error output is exactly the check's
message, one line. Grading that copy still records the failure: the exercise's points are lost and
the feedback names the mistake.
"""

from __future__ import annotations

import html

import pytest
from conftest import ASSIGNMENTS, NOTEBOOKS, SOLUTIONS, nbio, points_of_tests, write_submission

from attention_course.mistakes import CATALOGUE
from autograder.build import CLEO_SOFTMAX

pytestmark = pytest.mark.slow

NAME = "01_attention_without_weights"
WRONG = "softmax_stable"  # the exercise answered wrongly
MISTAKE = "softmax_wrong_axis"  # what cleo's softmax does on a matrix of scores


def _wrong_copy():
    learner = nbio.read(NOTEBOOKS / f"{NAME}.ipynb")
    return nbio.fill_solutions(learner, nbio.read(SOLUTIONS / f"{NAME}.ipynb"), {WRONG: CLEO_SOFTMAX})


def _test_cell(nb):
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == f"correct_{WRONG}")


def _assert_one_line(error: str) -> None:
    assert error.startswith(f"✗ {WRONG}:"), error[:300]
    assert "\n" not in error.strip(), f"more than one line:\n{error[:2000]}"
    assert "Hint:" in error and "Traceback" not in error and "File " not in error, error


def test_the_case_is_the_mistake_it_claims():
    assert NAME in ASSIGNMENTS and MISTAKE in CATALOGUE


def test_a_failed_check_shows_one_line_in_the_notebook(tmp_path):
    from nbclient import NotebookClient

    nb = _wrong_copy()
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = _test_cell(nb).outputs
    errors = [o for o in outputs if o.output_type == "error"]
    assert len(errors) == 1, outputs
    assert errors[0].ename == "CheckFailed"
    assert len(errors[0].traceback) == 1, errors[0].traceback
    _assert_one_line(errors[0].traceback[0])
    assert CATALOGUE[MISTAKE].title in errors[0].traceback[0]
    assert not [o for o in outputs if o.output_type == "stream" and o.name == "stderr"]
    # every other test cell passed: only the wrong exercise's cell shows an error
    failing = [c.metadata.get("nbgrader", {}).get("grade_id") for c in nb.cells if c.cell_type == "code"
               and any(o.output_type == "error" for o in c.outputs)]
    assert failing == [f"correct_{WRONG}"], failing


def test_nbgrader_validate_shows_the_same_line(tmp_path):
    from nbgrader.validator import Validator

    path = tmp_path / f"{NAME}.ipynb"
    path.write_text(nbio.dumps(_wrong_copy()), encoding="utf-8")
    results = Validator().validate(str(path))
    assert set(results) == {"failed"}, results
    failed = [r for r in results["failed"] if f'check("{WRONG}"' in r["source"]]
    assert len(failed) == 1, [r["source"][:80] for r in results["failed"]]
    _assert_one_line(failed[0]["raw_error"])


def test_grading_still_records_the_failure(tmp_path):
    from autograder.grade import grade

    write_submission(tmp_path / "submissions", "wrong", NAME, _wrong_copy())
    [result] = grade(tmp_path / "submissions", tmp_path / "out", progress=False)
    assert result.status == "graded", result.message
    assert result.auto_max_score - result.auto_score == points_of_tests(NAME)[f"correct_{WRONG}"]
    feedback = (tmp_path / "out" / "feedback" / "wrong" / f"{NAME}.html").read_text(encoding="utf-8")
    assert CATALOGUE[MISTAKE].title in html.unescape(feedback)
