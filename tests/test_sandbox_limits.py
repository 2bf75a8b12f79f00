"""The sandbox's limits and view, and the grader's own budget, checked piece by piece (no grading run).

The grading runs of tests/test_trusted_grading.py show the same from the outside; these pin the parts
a run on this machine cannot reach: cgroup v2 (this machine has v1), a limit that cannot be set,
the grader's budget for stand-ins, and a test cell without checks.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from autograder.records import Cell, Job, Limits
from autograder.sandbox import isolate
from autograder.sandbox.protocol import ProtocolError
from autograder.verdict import NO_CHECKS, judge_cell


def _fake_v2(root: Path, controllers: str = "cpu memory pids") -> Path:
    """A directory shaped like a cgroup v2 hierarchy (the files the code reads and writes)."""
    own = root / "grading"
    own.mkdir(parents=True)
    (root / "cgroup.controllers").write_text(controllers)
    (own / "cgroup.controllers").write_text(controllers)
    (own / "cgroup.subtree_control").write_text("")
    return root


@pytest.mark.skipif(os.geteuid() != 0, reason="the cgroup caps are set up as root only; rlimits otherwise")
def test_cgroup_v2_caps_memory_and_processes_of_each_sandbox(tmp_path, monkeypatch):
    root = _fake_v2(tmp_path)
    groups = isolate.Cgroups(root, own="/grading")
    assert groups.version == 2 and groups.problem is None
    base = root / "grading" / "attention-grade"
    assert (base / f"zygote-{os.getpid()}" / "cgroup.procs").read_text() == str(os.getpid())
    assert (base / "cgroup.subtree_control").read_text() == "+memory +pids"
    groups.join("job-1", 4 << 30, 256)
    job = base / "job-1"
    assert (job / "memory.max").read_text() == str(4 << 30) and (job / "pids.max").read_text() == "256"
    (job / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n")
    assert groups.out_of_memory("job-1")
    (job / "memory.events").write_text("low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n")
    assert not groups.out_of_memory("job-1")


@pytest.mark.skipif(os.geteuid() != 0, reason="as root only")
def test_a_cgroup_v2_without_the_controllers_is_a_stated_problem(tmp_path):
    groups = isolate.Cgroups(_fake_v2(tmp_path, controllers="cpu io"), own="/grading")
    assert groups.problem and "rlimits only" in groups.problem and "memory and pids" in groups.problem
    groups.join("job-1", 1 << 30, 64)  # joins nothing, raises nothing: the rlimits still apply
    assert not (tmp_path / "grading" / "attention-grade" / "job-1").exists()


def test_a_limit_that_cannot_be_set_is_said_at_the_start_and_the_end(tmp_path, monkeypatch):
    """The executor prints each sandbox problem as a WARNING line (the pipeline repeats them at the end)."""
    from autograder import dispatch

    class Zygote:
        isolation_problem, limits_problem = None, "no cgroup v1 memory and pids hierarchies: rlimits only"

        def __init__(self, *args, **kwargs):
            pass

        def close(self):
            pass

    said = []
    monkeypatch.setattr(dispatch, "Zygote", Zygote)
    executor = dispatch.LocalExecutor(1, on_warning=said.append)
    executor.close()
    assert said == [f"WARNING: {Zygote.limits_problem}"]


def test_the_view_is_computed_where_the_sandbox_runs_and_holds_no_checkout():
    import attention_course
    from autograder import REPO

    package = os.path.dirname(attention_course.__file__)
    view = isolate.View.here([package], uid=61001)
    allowed = (*isolate.SYSTEM, sys.base_prefix, sys.prefix, package)
    assert all(any(p == a or p.startswith(a.rstrip("/") + "/") for a in allowed) for p in view.read_only), view.read_only
    assert not any(p in (str(REPO), str(REPO / "autograder"), str(REPO / "solutions")) for p in view.read_only)
    assert "/sys" not in view.read_only and "/run" not in view.read_only and "/home" not in view.read_only
    assert view.uid != 0


def test_a_test_cell_without_checks_fails():
    verdict = judge_cell([], None, key=None)
    assert not verdict.passed and verdict.outputs[-1]["evalue"] == NO_CHECKS


def test_a_plan_with_a_test_cell_without_checks_is_refused():
    import nbformat

    from autograder import plans

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("check('x', x, 1)", metadata={
        "nbgrader": {"grade": True, "solution": False, "grade_id": "correct_x", "points": 1}})])
    with pytest.raises(plans.PlanError, match="make no check"):
        plans.validate(nb, {"correct_x": []})


def test_the_grader_spends_a_bounded_time_on_a_jobs_stand_ins():
    """A function that asks for stand-ins over and over costs the grader its budget, then fails."""
    from autograder import run

    job = Job("grade", [Cell(0, "test")], Limits(standin_seconds=0.2))
    def burn(*args):  # the reference computing on large inputs: the grader's CPU time
        started = time.thread_time()
        while time.thread_time() - started < 0.05:
            pass
        return {"op": "standin_result", "value": np.zeros(1)}

    attempt = run._Run.__new__(run._Run)
    attempt.job, attempt.standins, attempt.standin_calls, attempt.standin_seconds = job, burn, 0, 0.0
    request = {"op": "probe", "exercise": "x", "uses": ["softmax_stable"]}
    asked = {"op": "standin", "name": "softmax_stable", "args": [], "kwargs": {}}
    with pytest.raises(ProtocolError, match="more stand-in results"):
        for _ in range(1000):
            attempt.standin(request, asked)
    with pytest.raises(ProtocolError, match="does not use"):
        attempt.standin(request, dict(asked, name="context_vector"))


def test_a_checkout_under_tmp_is_seen_in_the_view_and_the_rest_of_tmp_is_not(tmp_path):
    """A clone or a virtual environment under /tmp (where CI may put it) stays importable in the sandbox,
    whose own /tmp is otherwise empty."""
    if isolate.available() is not None:
        pytest.fail(isolate.available())
    allowed, hidden = Path("/tmp") / f"view-test-{os.getpid()}", Path("/tmp") / f"view-hidden-{os.getpid()}"
    for folder in (allowed, hidden):
        folder.mkdir()
        (folder / "seen.txt").write_text("here")
    try:
        view = isolate.View.here([str(allowed)], uid=61002)
        # only what the view holds under /tmp: this folder, and the Python running the test if it is there
        in_view_under_tmp = {path.split("/")[2] for path in view.read_only if path.startswith("/tmp/")}
        pid = os.fork()
        if pid == 0:
            try:
                isolate.enter_namespaces(view)
                inner = os.fork()  # PID 1 of the new namespaces, as the zygote's sandboxes are
                if inner == 0:
                    isolate.enter_view(view)
                    ok = ((allowed / "seen.txt").read_text() == "here" and not hidden.exists()
                          and set(os.listdir("/tmp")) == in_view_under_tmp)
                    os._exit(0 if ok else 3)
                os._exit(os.waitstatus_to_exitcode(os.waitpid(inner, 0)[1]))
            except BaseException:  # noqa: BLE001 (the child's failure is its exit status)
                os._exit(4)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        for folder in (allowed, hidden):
            (folder / "seen.txt").unlink()
            folder.rmdir()
