"""README's instructor command on the sample class gives the expected grades CSV."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import REPO, read_csv, tree_digest

pytestmark = pytest.mark.slow
SAMPLES = REPO / "autograder" / "samples"



@pytest.fixture(scope="module")
def sample_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("samples") / "graded"
    before = {folder: tree_digest(folder) for folder in (SAMPLES, REPO / "solutions")}
    readme = (REPO / "README.md").read_text()
    command = re.search(r"python3 tasks.py grade (\S+) --out graded", readme)
    assert command, "README shows the grading command on the samples"
    completed = subprocess.run(
        [sys.executable, "-m", "autograder.grade", command[1], "--out", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=900,
    )
    after = {folder: tree_digest(folder) for folder in before}
    return completed, out, before, after


def test_samples_grade_to_the_expected_csv(sample_run):
    completed, out, _, _ = sample_run
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert read_csv(out / "grades.csv") == read_csv(SAMPLES / "expected_grades.csv")


def test_sample_grading_writes_feedback_for_every_graded_student(sample_run):
    _, out, _, _ = sample_run
    for student in ("ada", "ben", "cleo"):
        assert (out / "feedback" / student / "01_attention_without_weights.html").is_file()


def test_partly_wrong_sample_is_told_its_mistake(sample_run):
    _, out, _, _ = sample_run
    page = (out / "feedback" / "cleo" / "01_attention_without_weights.html").read_text(encoding="utf-8")
    assert "softmax normalises over the wrong axis" in page


def test_grading_touches_neither_solutions_nor_submissions(sample_run):
    _, _, before, after = sample_run
    assert before == after
