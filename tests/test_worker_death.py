"""A grading worker that dies costs only the submission it held: retried once, then `failed`."""

from __future__ import annotations

import shutil

import pytest
from conftest import REPO

from autograder import pipeline
from autograder.grade import grade

pytestmark = pytest.mark.slow
SAMPLES = REPO / "autograder" / "samples" / "submissions"


def test_dead_worker_is_retried_once_then_reported(tmp_path, monkeypatch):
    submissions = tmp_path / "submissions"
    shutil.copytree(SAMPLES, submissions)
    real_run_job, attempts = pipeline.run_job, {}
    notebook = "01_attention_without_weights/01_attention_without_weights.ipynb"
    SENT = {(SAMPLES / who / notebook).read_text(encoding="utf-8"): who for who in ("ada", "ben", "cleo")}

    def dying_run_job(zygote, job):
        who = SENT[job["notebook_text"]]
        attempts[who] = attempts.get(who, 0) + 1
        if who == "ada" and attempts[who] == 1 or who == "cleo":  # ada's worker dies once, cleo's always
            zygote.process.kill()
        return real_run_job(zygote, job)

    monkeypatch.setattr(pipeline, "run_job", dying_run_job)
    results = {r.student: r for r in grade(submissions, tmp_path / "out", progress=False, workers=2)}
    assert (results["ada"].status, results["ada"].auto_score) == ("graded", 10)
    assert (results["ben"].status, results["ben"].auto_score) == ("graded", 0)
    assert results["cleo"].status == "failed" and results["cleo"].score == 0
    assert "worker died" in results["cleo"].message and "retried once" in results["cleo"].message
    assert attempts == {"ada": 2, "ben": 1, "cleo": 2}
