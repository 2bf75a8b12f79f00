"""Grading on a Dask cluster: ``tasks.py grade SUBMISSIONS --scheduler tcp://HOST:PORT``.

A real, local Dask cluster is started once for this module: ``dask scheduler`` on 127.0.0.1 on a
free port and two ``dask worker`` processes (one process, one thread each), all without dashboard,
from this test run's Python (the repository's .venv), with the repository on PYTHONPATH so that
the workers can import ``autograder``. Each runs in its own process group and its own scratch
directory; at the end every one of them, and every process they started, is killed and the test
checks that none is left.

The sample class graded through the cluster must give exactly the rows that a local run gives (all
columns of the contract but ``message``) and the expected grades, with the same feedback files, and
the scheduler must really have run tasks. An unreachable scheduler must stop the grader at once,
with one clear line and no grades.csv.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import REPO, cli_env, failing_fast, grade_cli, read_csv

pytestmark = pytest.mark.slow

SAMPLES = REPO / "autograder" / "samples"
STUDENTS = ("ada", "ben", "cleo")
COMPARED = ["student", "assignment", "notebook", "score", "max_score", "auto_score",
            "auto_max_score", "needs_manual_grading", "status"]  # every contract column but message
FAIL_FAST_S = 60
WORKERS = 2
CLUSTER_START_S = 120


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _tail(path: Path, chars: int = 2000) -> str:
    return path.read_text(errors="replace")[-chars:] if path.is_file() else "(no log)"


def _stop(processes: list[tuple[subprocess.Popen, Path]]) -> list[int]:
    """Kill every process group and every descendant; return the pids still alive afterwards."""
    import psutil  # a dependency of distributed

    family: list[psutil.Process] = []
    for process, _ in processes:
        try:
            parent = psutil.Process(process.pid)
            family += [parent, *parent.children(recursive=True)]
        except psutil.NoSuchProcess:
            pass
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for process, _ in processes:
            try:
                os.killpg(process.pid, sig)  # start_new_session: the group id is the pid
            except ProcessLookupError:
                pass
        for member in family:  # descendants that left the group
            try:
                member.send_signal(sig)
            except psutil.NoSuchProcess:
                pass
        _, alive = psutil.wait_procs(family, timeout=10)
        if not alive:
            break
    for process, _ in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
    return [member.pid for member in family if member.is_running()
            and member.status() != psutil.STATUS_ZOMBIE]


@pytest.fixture(scope="module")
def dask_cluster():
    """(scheduler address, distributed.Client) of a scheduler with two single-threaded workers."""
    from distributed import Client

    workdir = Path(tempfile.mkdtemp(prefix="attention-dask-", dir="/tmp"))
    address = f"tcp://127.0.0.1:{_free_port()}"
    processes: list[tuple[subprocess.Popen, Path]] = []
    client = None

    def start(name: str, *args: str) -> None:
        folder = workdir / name
        folder.mkdir()
        log = folder / "log.txt"
        with open(log, "w", encoding="utf-8") as handle:
            process = subprocess.Popen(
                [sys.executable, "-m", "dask", *args], cwd=folder, env=cli_env(), stdin=subprocess.DEVNULL,
                stdout=handle, stderr=subprocess.STDOUT, start_new_session=True,
            )
        processes.append((process, log))

    def logs() -> str:
        return "\n".join(f"--- {log.parent.name} (exit {process.poll()}):\n{_tail(log)}"
                         for process, log in processes)

    try:
        start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
              "--no-dashboard")
        for index in range(WORKERS):
            start(f"worker-{index}", "worker", address, "--nworkers", "1", "--nthreads", "1",
                  "--no-dashboard", "--local-directory", str(workdir / f"worker-{index}"),
                  "--name", f"worker-{index}")
        try:
            client = Client(address, timeout=CLUSTER_START_S)
            client.wait_for_workers(WORKERS, timeout=CLUSTER_START_S)
        except Exception as error:  # OSError, TimeoutError: report what the processes said
            pytest.fail(f"the Dask cluster did not come up ({type(error).__name__}: {error})\n{logs()}",
                        pytrace=False)
        yield address, client
    finally:
        if client is not None:
            client.close()
        left = _stop(processes)
        log_text = logs()
        shutil.rmtree(workdir, ignore_errors=True)
        assert not left, f"Dask processes left running: {left}\n{log_text}"


def _rows(path: Path) -> list[dict[str, str]]:
    return [{key: row[key] for key in COMPARED} for row in read_csv(path)]


@pytest.fixture(scope="module")
def local_and_distributed(dask_cluster, tmp_path_factory):
    address, client = dask_cluster
    root = tmp_path_factory.mktemp("dask")
    local = grade_cli(str(SAMPLES / "submissions"), "--out", str(root / "A"))
    assert local.returncode == 0, (local.stdout + local.stderr)[-3000:]

    def transitions(dask_scheduler) -> int:
        return dask_scheduler.transition_counter

    before = client.run_on_scheduler(transitions)
    distributed = grade_cli(str(SAMPLES / "submissions"), "--out", str(root / "B"), "--scheduler", address)
    after = client.run_on_scheduler(transitions)
    assert distributed.returncode == 0, (distributed.stdout + distributed.stderr)[-3000:]
    return root / "A", root / "B", after - before


def test_cluster_run_gives_the_local_rows_and_the_expected_grades(local_and_distributed):
    a, b, _ = local_and_distributed
    assert _rows(b / "grades.csv") == _rows(a / "grades.csv")
    assert _rows(a / "grades.csv") == _rows(SAMPLES / "expected_grades.csv")


def test_cluster_run_writes_the_same_feedback_files(local_and_distributed):
    a, b, _ = local_and_distributed
    for out in (a, b):
        for student in STUDENTS:
            page = out / "feedback" / student / "01_attention_without_weights.html"
            assert page.is_file() and page.stat().st_size > 0, page
    assert sorted(p.relative_to(a) for p in (a / "feedback").rglob("*.html")) == \
        sorted(p.relative_to(b) for p in (b / "feedback").rglob("*.html"))


def test_cluster_run_really_uses_the_cluster(local_and_distributed):
    _, _, transitions = local_and_distributed
    assert transitions > 0, "--scheduler graded without sending a single task to the scheduler"


def test_unreachable_scheduler_fails_fast_with_one_clear_line(tmp_path):
    port = _free_port()  # bound, then closed again: nothing listens there
    address = f"tcp://127.0.0.1:{port}"
    out = tmp_path / "graded"
    _, output = failing_fast(str(SAMPLES / "submissions"), "--out", str(out), "--scheduler", address,
                             given=f"an unreachable scheduler {address}", limit=FAIL_FAST_S)
    lines = [line for line in output.splitlines() if line.strip()]
    assert "unrecognized arguments" not in output, output[-2000:]
    assert len(lines) == 1, f"expected one error line, got {len(lines)}:\n{output[-2000:]}"
    assert f"127.0.0.1:{port}" in lines[0] and "Traceback" not in output, lines[0]
    assert not (out / "grades.csv").exists(), "nothing may be graded when the scheduler is unreachable"
