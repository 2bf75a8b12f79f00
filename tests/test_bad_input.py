"""Bad submissions get one clear line and 0, and never stop the rest of the class being graded."""

from __future__ import annotations

import json
import zipfile

import nbformat
import pytest
from conftest import NOTEBOOKS, SOLUTIONS, nbio, read_csv, tree_digest, write_submission

from autograder.course import course_id
from autograder.grade import grade

pytestmark = pytest.mark.slow
NAME = "01_attention_without_weights"


def _solved():
    return nbio.fill_solutions(nbio.read(NOTEBOOKS / f"{NAME}.ipynb"), nbio.read(SOLUTIONS / f"{NAME}.ipynb"))


def _with_cell(nb, source: str, after: int = 3):
    nb = nbformat.from_dict(json.loads(json.dumps(nb)))
    nb.cells.insert(after, nbformat.v4.new_code_cell(source))
    return nb



@pytest.fixture(scope="module")
def bad_class(tmp_path_factory, warm_workers):
    root = tmp_path_factory.mktemp("bad")
    subs = root / "submissions"
    write_submission(subs, "good", NAME, _solved())
    broken = subs / "broken" / NAME / f"{NAME}.ipynb"
    broken.parent.mkdir(parents=True)
    broken.write_text('{"cells": [ this is not json', encoding="utf-8")
    (subs / "empty" / NAME).mkdir(parents=True)  # the folder, but no notebook in it
    renamed = write_submission(subs, "renamed", NAME, _solved())
    renamed.rename(renamed.with_name("attention (1).ipynb"))
    write_submission(subs, "crash", NAME, _with_cell(_solved(), "import os\nos._exit(1)"))
    looping = nbio.fill_solutions(
        nbio.read(NOTEBOOKS / f"{NAME}.ipynb"), nbio.read(SOLUTIONS / f"{NAME}.ipynb"),
        {"scores_for_query": "def scores_for_query(query, inputs):\n    while True:\n        pass"})
    write_submission(subs, "loop", NAME, looping)
    stubborn = ("import signal, time\nfor number in (signal.SIGINT, signal.SIGALRM):\n"
                "    signal.signal(number, signal.SIG_IGN)\nwhile True:\n    time.sleep(0.1)")
    write_submission(subs, "stubborn", NAME, _with_cell(_solved(), stubborn))
    cheat = nbio.read(NOTEBOOKS / f"{NAME}.ipynb")
    for cell in cheat.cells:  # edit every locked test cell to pass, and delete one of them
        if cell.metadata.get("nbgrader", {}).get("grade") and not cell.metadata["nbgrader"].get("solution"):
            cell.source = "pass"
    cheat.cells = [c for c in cheat.cells
                   if c.metadata.get("nbgrader", {}).get("grade_id") != "correct_context_vector"]
    write_submission(subs, "tamper", NAME, cheat)
    patched = _with_cell(nbio.read(NOTEBOOKS / f"{NAME}.ipynb"),
                         "import numpy as np\nnp.allclose = lambda *a, **k: True\nnp.isclose = np.allclose",
                         after=4)
    write_submission(subs, "monkeypatch", NAME, patched)
    before = tree_digest(SOLUTIONS)
    results = grade(subs, root / "out", cell_timeout=5, notebook_timeout=90, progress=False,
                    executor=warm_workers)
    return {r.student: r for r in results}, root / "out", before


def test_good_submission_still_gets_full_marks(bad_class):
    results, _, _ = bad_class
    assert results["good"].status == "graded"
    assert results["good"].auto_score == results["good"].auto_max_score == 10


def test_invalid_json_is_reported_and_scores_zero(bad_class):
    result = bad_class[0]["broken"]
    assert (result.status, result.score) == ("invalid", 0)
    assert "not valid notebook JSON" in result.message


def test_missing_notebook_is_reported(bad_class):
    result = bad_class[0]["empty"]
    assert (result.status, result.score) == ("missing", 0)
    assert "no notebook" in result.message


def test_renamed_notebook_is_matched_and_graded(bad_class):
    result = bad_class[0]["renamed"]
    assert result.status == "graded" and result.auto_score == 10
    assert "renamed" in result.message and "attention (1).ipynb" in result.message


def test_kernel_death_costs_only_the_cell_that_killed_it(bad_class):
    result = bad_class[0]["crash"]
    assert (result.status, result.auto_score) == ("graded", 10)
    assert "cell 3 was skipped" in result.message and "kernel died" in result.message


def test_endless_loop_in_an_exercise_costs_only_that_exercise(bad_class):
    result = bad_class[0]["loop"]
    assert result.status == "graded"
    assert result.auto_score == 10 - 2  # scores_for_query is worth 2
    assert "ran past the 5 s limit" in result.message


def test_loop_that_ignores_interrupts_is_killed_and_skipped(bad_class):
    result = bad_class[0]["stubborn"]
    assert (result.status, result.auto_score) == ("graded", 10)
    assert "cell 3 was skipped" in result.message and "ignored the interrupt" in result.message


def test_edited_and_deleted_test_cells_are_restored_and_reported(bad_class):
    result = bad_class[0]["tamper"]
    assert (result.status, result.auto_score) == ("tampered", 0)
    assert "deleted test cell correct_context_vector" in result.message
    assert "edited test cell correct_softmax_stable" in result.message


def test_monkeypatched_numpy_earns_nothing_and_is_reported(bad_class):
    result = bad_class[0]["monkeypatch"]
    assert (result.status, result.auto_score) == ("tampered", 0)
    assert "patches np.allclose" in result.message


def test_bad_input_leaves_solutions_and_gradebook_intact(bad_class):
    results, out, before = bad_class
    assert tree_digest(SOLUTIONS) == before
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{out / 'course' / 'gradebook.db'}", course_id()) as gradebook:
        graded = {s.student.id for s in gradebook.assignment_submissions(NAME)}
    assert {"good", "renamed", "loop", "tamper"} <= graded
    rows = read_csv(out / "grades.csv")
    assert {row["student"] for row in rows} == set(results)


def test_lms_zip_download_is_graded(tmp_path):
    archive = tmp_path / "download.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr(f"zoe_12345_67890_{NAME}.ipynb", nbio.dumps(_solved()))
        zipped.writestr(f"yan_late_2222_3333_{NAME}-1.ipynb", nbio.dumps(nbio.read(NOTEBOOKS / f"{NAME}.ipynb")))
    results = {r.student: r for r in grade(archive, tmp_path / "out", progress=False)}
    assert results["zoe"].auto_score == 10 and results["yan"].auto_score == 0


def test_zip_with_a_path_outside_the_archive_is_refused(tmp_path):
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("../../escaped.ipynb", "{}")
    with pytest.raises(ValueError, match="outside the archive"):
        grade(archive, tmp_path / "out", progress=False)
    assert not (tmp_path.parent / "escaped.ipynb").exists()
