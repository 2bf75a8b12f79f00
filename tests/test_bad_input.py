"""Bad submissions get one clear line and 0, and never stop the rest of the class being graded."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import nbformat
import pytest
from conftest import (
    NOTEBOOKS,
    SOLUTIONS,
    failing_fast,
    nbio,
    read_csv,
    tree_digest,
    write_submission,
)

from autograder.course import assignments, course_id
from autograder.grade import grade
from autograder.intake import find_submissions, unpacked, validate

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


# --- layouts: every notebook file and every student folder ends as a row or a line ----------------

OTHER = "02_general_attention_numpy"


def _misplaced_layout(root: Path) -> Path:
    """A class in which every kind of misplaced file occurs once, next to one student in place."""
    subs = root / "submissions"
    write_submission(subs, "ada", NAME, _solved())
    (subs / "dan").mkdir(parents=True)  # the notebook directly under the student's folder
    (subs / "dan" / f"{NAME}.ipynb").write_text(nbio.dumps(_solved()), encoding="utf-8")
    typo = subs / "eve" / "01_attention_without_weight"  # a misspelt assignment folder
    typo.mkdir(parents=True)
    (typo / f"{NAME}.ipynb").write_text(nbio.dumps(_solved()), encoding="utf-8")
    (subs / "fay" / NAME).mkdir(parents=True)  # notebook 02 handed in under 01's folder
    (subs / "fay" / NAME / f"{OTHER}.ipynb").write_text(nbio.dumps(nbio.read(NOTEBOOKS / f"{OTHER}.ipynb")),
                                                        encoding="utf-8")
    (subs / "gus").mkdir()  # a student folder without any notebook
    (subs / "hal").mkdir()  # a notebook that is none of the course's
    (subs / "hal" / "notes.ipynb").write_text(nbio.dumps(nbformat.v4.new_notebook()), encoding="utf-8")
    return subs


def test_every_notebook_file_and_student_folder_is_placed_or_reported(tmp_path):
    found = find_submissions(_misplaced_layout(tmp_path), assignments())
    assert found.students == {"ada", "dan", "eve", "fay", "gus", "hal"}
    assert [s.note for s in found.submissions[("ada", NAME)]] == [""]
    assert [s.note for s in found.submissions[("dan", NAME)]] == [
        f"found at dan/{NAME}.ipynb, expected at dan/{NAME}/{NAME}.ipynb"]
    assert [s.note for s in found.submissions[("eve", NAME)]] == [
        f"found at eve/01_attention_without_weight/{NAME}.ipynb, expected at eve/{NAME}/{NAME}.ipynb"]
    assert found.submissions[("fay", NAME)] == []
    assert found.about[("fay", NAME)] == [f"fay/{NAME}/{OTHER}.ipynb is notebook {OTHER}, taken for that assignment"]
    assert [s.path.name for s in found.submissions[("fay", OTHER)]] == [f"{OTHER}.ipynb"]
    assert [line.split(":")[0] for line in found.lines] == ["hal/notes.ipynb"]
    assert "not a notebook of this course (expected <student>/<assignment>/<assignment>.ipynb" in found.lines[0]


def test_a_zip_is_searched_however_deep_the_class_sits(tmp_path):
    archive = tmp_path / "download.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr(f"export/term-1/class/ada/{NAME}/{NAME}.ipynb", nbio.dumps(_solved()))
        zipped.writestr(f"export/term-1/class/ben/{NAME}/{NAME}.ipynb", nbio.dumps(_solved()))
        zipped.writestr("__MACOSX/export/._class", "")
    with unpacked(archive) as folder:
        found = find_submissions(folder, assignments())
        assert found.root.name == "class"
        assert sorted(found.submissions) == [("ada", NAME), ("ben", NAME)]


@pytest.mark.parametrize("given", ["a folder", "a zip"])
def test_a_run_that_finds_nothing_stops_with_the_layout_it_expects(tmp_path, given):
    (tmp_path / "class" / "sam").mkdir(parents=True)
    (tmp_path / "class" / "sam" / "answers.txt").write_text("my answers", encoding="utf-8")
    submissions = tmp_path / "class"
    if given == "a zip":
        submissions = tmp_path / "class.zip"
        with zipfile.ZipFile(submissions, "w") as zipped:
            zipped.writestr("wrapper/sam/answers.txt", "my answers")
    _, output = failing_fast(str(submissions), "--out", str(tmp_path / "out"), given="no notebook at all")
    assert f"found no notebook to grade in {submissions}: expected <student>/<assignment>/<assignment>.ipynb" \
        in output, output[-2000:]
    assert "sam/: no notebook in this student's folder" in output, output[-2000:]


def test_broken_json_is_told_in_plain_words(tmp_path):
    path = tmp_path / "broken.ipynb"
    path.write_text('{"cells": [{"source": "unterminated', encoding="utf-8")
    assert validate(path) == "not valid notebook JSON (Unterminated string starting at line 1, column 23)"


@pytest.fixture(scope="module")
def misplaced_class(tmp_path_factory):
    root = tmp_path_factory.mktemp("misplaced")
    results = grade(_misplaced_layout(root), root / "out", progress=False)
    return {(r.student, r.assignment): r for r in results}


def test_misplaced_notebooks_are_graded_and_say_where_they_were(misplaced_class):
    for student, where in (("dan", f"dan/{NAME}.ipynb"), ("eve", f"eve/01_attention_without_weight/{NAME}.ipynb")):
        result = misplaced_class[(student, NAME)]
        assert (result.status, result.auto_score) == ("graded", 10), result
        assert f"found at {where}, expected at {student}/{NAME}/{NAME}.ipynb" in result.message


def test_a_notebook_of_another_assignment_is_named_as_such(misplaced_class):
    here, there = misplaced_class[("fay", NAME)], misplaced_class[("fay", OTHER)]
    assert here.status == "missing" and f"fay/{NAME}/{OTHER}.ipynb is notebook {OTHER}" in here.message
    assert there.status == "graded" and f"found at fay/{NAME}/{OTHER}.ipynb" in there.message


def test_every_student_folder_gets_its_rows(misplaced_class):
    students = {student for student, _ in misplaced_class}
    assert students == {"ada", "dan", "eve", "fay", "gus", "hal"}
    assert misplaced_class[("gus", NAME)].status == "missing"
    assert "hal/notes.ipynb is not a notebook of this course" in misplaced_class[("hal", NAME)].message
