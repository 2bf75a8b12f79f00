"""A grading worker that dies costs only the submission it held: retried once, then `failed`."""

from __future__ import annotations

import shutil

import pytest
from conftest import REPO

from autograder import dispatch
from autograder.grade import grade

pytestmark = pytest.mark.slow
SAMPLES = REPO / "autograder" / "samples" / "submissions"


def test_dead_worker_is_retried_once_then_reported(tmp_path, monkeypatch):
    submissions = tmp_path / "submissions"
    shutil.copytree(SAMPLES, submissions)
    real_run_job, attempts = dispatch.run_job, {}
    notebook = "01_attention_without_weights/01_attention_without_weights.ipynb"
    SENT = {(SAMPLES / who / notebook).read_text(encoding="utf-8"): who for who in ("ada", "ben", "cleo")}

    def dying_run_job(job, zygote):
        who = SENT[job.notebook_text]
        attempts[who] = attempts.get(who, 0) + 1
        if who == "ada" and attempts[who] == 1 or who == "cleo":  # ada's worker dies once, cleo's always
            zygote.process.kill()
        return real_run_job(job, zygote)

    monkeypatch.setattr(dispatch, "run_job", dying_run_job)
    results = {r.student: r for r in grade(submissions, tmp_path / "out", progress=False, workers=2)}
    assert (results["ada"].status, results["ada"].auto_score) == ("graded", 10)
    assert (results["ben"].status, results["ben"].auto_score) == ("graded", 0)
    assert results["cleo"].status == "failed" and results["cleo"].score == 0
    assert "worker died" in results["cleo"].message and "retried once" in results["cleo"].message
    assert attempts == {"ada": 2, "ben": 1, "cleo": 2}


def test_stand_ins_are_never_computed_with_a_mistake_swapped_in():
    """The grader computes mistakes' results (a step of the reference replaced for a moment) in one
    thread while worker threads answer stand-ins from the same reference: they must not mix (a wrong
    earlier answer would otherwise cost a later exercise its points, now and then)."""
    import threading

    import numpy as np

    from autograder.key import mutant_outputs, standin
    from autograder.key.exercises import get_exercise

    rng = np.random.default_rng(0)
    args = [rng.normal(size=3), rng.normal(size=(5, 4)), rng.normal(size=(3, 6)), rng.normal(size=(4, 6))]
    right = get_exercise("state_weights").reference(*args)
    probe = {"inputs": args, "kwargs": {}}
    stop, wrong = threading.Event(), []

    def mistakes():
        while not stop.is_set():
            mutant_outputs("state_weights", probe)

    thread = threading.Thread(target=mistakes)
    thread.start()
    try:
        for _ in range(300):
            value = standin("state_attention", "state_weights", [a.copy() for a in args], {})["value"]
            if not np.allclose(value, right):
                wrong.append(value)
    finally:
        stop.set()
        thread.join()
    assert not wrong, f"{len(wrong)} of 300 stand-ins were computed with a mistake swapped in"
