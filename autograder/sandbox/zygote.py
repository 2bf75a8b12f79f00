"""The warm zygote: imports the frameworks once, then forks one sandboxed process per submission.

    python -m autograder.sandbox.zygote      (started by autograder.workers; JSON lines on stdin/stdout)

For each job (a notebook's cells, with the probes of its test cells), the zygote forks a
*supervisor*, which enters new namespaces and forks the *runner*: PID 1 of its own PID namespace,
with no network, a read-only view of the file system that hides the course's sources, gradebook and
other submissions, a fresh ``/tmp``, memory, process and file-size limits and no privileges (see
:mod:`autograder.sandbox.isolate`). The supervisor exits at once; the zygote, a subreaper, adopts
the runner, relays its messages to the grader and the grader's stand-in answers back, and stops it
when a cell runs too long. When the runner ends, the kernel ends every process it left behind.

Nothing the runner can reach holds an answer: the zygote imports only the learner's package and
this sandbox code, and the grader's replies carry only the results of stand-ins for earlier
exercises, while the exercise that uses them is being probed.
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import time
import traceback

from attention_course import convert

from . import isolate, runner
from .runner import Lines

GRACE = 10.0  # seconds past a cell's limit before a runner that ignores interrupts is killed
MAX_LINE = 64 << 20


class LineReader:
    """Lines from a file descriptor, without the hidden buffering that would fool ``select``."""

    def __init__(self, fd: int):
        self.fd, self.lines = fd, Lines()

    def has_line(self) -> bool:
        return self.lines.has_line()

    def readline(self) -> bytes:
        while (line := self.lines.pop()) is None:
            chunk = os.read(self.fd, 1 << 20)
            if not chunk:
                return self.lines.rest()
            self.lines.feed(chunk)
        return line


STDIN = LineReader(0)


def _write(fd: int, message: dict) -> None:
    data = (json.dumps(message, allow_nan=True) + "\n").encode()
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _child(job: dict, shell, down_read: int, up_write: int, number: int) -> None:
    """The runner: isolate, then run the cells. Never returns."""
    try:
        limits = job["limits"]
        if job.get("isolate", True):
            isolate.restrict_filesystem(job.get("hide", []), job.get("keep", []), limits.get("tmp_size", "512m"))
        os.makedirs("/tmp/home", exist_ok=True)
        os.makedirs("/tmp/work", exist_ok=True)
        os.chdir("/tmp/work")
        if job.get("notebook_name") and job.get("notebook_text"):
            with open(os.path.basename(job["notebook_name"]), "w", encoding="utf-8") as handle:
                handle.write(job["notebook_text"])
        isolate.set_limits(int(limits["memory"]), int(limits["max_processes"]))
        if job.get("isolate", True):
            isolate.drop_privileges()
        os.environ.clear()
        os.environ.update(isolate.clean_environment("/tmp/home"))
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
        channel = runner.Channel(down_read, up_write)
        channel.send({"event": "started"})
        runner.run_cells(shell, channel, job["cells"], job.get("mode", "grade"), float(limits["cell_timeout"]),
                         frozenset(int(i) for i in job.get("unneeded", [])))
        channel.send({"event": "finished"})
        os._exit(0)
    except BaseException as error:  # a failure of the sandbox itself, not of the submission
        try:
            _write(up_write, {"event": "sandbox_error", "message": f"{type(error).__name__}: {error}",
                              "traceback": traceback.format_exc()[-2000:]})
        finally:
            os._exit(3)


def run_job(job: dict, shell, number: int) -> None:
    """Fork the runner for one job; relay until it ends; report how it ended."""
    up_read, up_write = os.pipe()
    down_read, down_write = os.pipe()
    pid_read, pid_write = os.pipe()
    limits = job["limits"]
    name = f"{os.getpid()}-{number}"
    supervisor = os.fork()
    if supervisor == 0:
        try:
            os.close(up_read)
            os.close(down_write)
            os.close(pid_read)
            if job.get("isolate", True):
                isolate.join_cgroups(name, int(limits["memory"]), int(limits["max_processes"]))
                isolate.enter_namespaces()
            runner_pid = os.fork()
            if runner_pid == 0:
                for fd in range(3, 1024):  # nothing of the zygote's stays open but the two pipe ends
                    if fd not in (down_read, up_write):
                        try:
                            os.close(fd)
                        except OSError:
                            pass
                _child(job, shell, down_read, up_write, number)
            os.write(pid_write, str(runner_pid).encode())
            os._exit(0)
        except BaseException as error:
            _write(up_write, {"event": "sandbox_error", "message": f"{type(error).__name__}: {error}"})
            os._exit(3)
    for fd in (up_write, down_read, pid_write):
        os.close(fd)
    os.waitpid(supervisor, 0)
    runner_pid = int(os.read(pid_read, 32) or b"0")
    os.close(pid_read)
    status = _relay(job, runner_pid, up_read, down_write)
    os.close(up_read)
    os.close(down_write)
    groups = {c: isolate.CGROUP / c / "attention-grade" / name for c in ("memory", "pids")}
    status["oom"] = status.get("oom") or isolate.cgroup_oom(groups["memory"] if groups["memory"].exists() else None)
    for group in groups.values():
        if group.exists():
            isolate.remove_cgroup(group)
    _write(1, {"event": "done", **status})


def _relay(job: dict, runner_pid: int, up_read: int, down_write: int) -> dict:
    limits = job["limits"]
    cell_limit = float(limits["cell_timeout"]) + GRACE
    deadline = time.monotonic() + float(limits["notebook_timeout"])
    last = time.monotonic()
    buffer, cell, finished, killed = Lines(), None, False, None
    while True:
        now = time.monotonic()
        wait = min(last + cell_limit, deadline) - now
        if wait <= 0 and runner_pid:
            killed = "cell" if now < deadline else "notebook"
            _kill(runner_pid)
            runner_pid = 0
        ready, _, _ = select.select([up_read, 0], [], [], 0 if STDIN.has_line() else
                                    (max(wait, 0.05) if runner_pid else 1.0))
        if 0 in ready or STDIN.has_line():
            line = STDIN.readline()
            if not line:
                _kill(runner_pid)
                os._exit(0)  # the grader went away
            try:
                os.write(down_write, line)
            except OSError:
                pass
        if up_read in ready:
            chunk = os.read(up_read, 1 << 20)
            if not chunk:
                break
            buffer.feed(chunk)
            while (line := buffer.pop()) is not None:
                last = time.monotonic()
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if not isinstance(message, dict):
                    continue
                event = message.get("event")
                if event == "cell_start":
                    cell = message.get("index")
                elif event == "finished":
                    finished = True
                    continue
                sys.stdout.buffer.write(line)
                sys.stdout.buffer.flush()
            if len(buffer) > MAX_LINE:
                killed = "output"
                _kill(runner_pid)
                runner_pid = 0
                buffer = Lines()
    code = None
    if runner_pid:
        _, wait_status = os.waitpid(runner_pid, 0)
        code = os.waitstatus_to_exitcode(wait_status)
    if finished and code == 0:
        return {"status": "finished", "cell": None}
    if killed == "cell":
        return {"status": "timeout", "cell": cell,
                "reason": f"cell ran past the {limits['cell_timeout']} s limit and ignored the interrupt"}
    if killed == "notebook":
        return {"status": "timeout", "cell": cell,
                "reason": f"the notebook ran past its {limits['notebook_timeout']} s limit"}
    if killed == "output":
        return {"status": "died", "cell": cell, "reason": "a message from the notebook was too large"}
    how = (f"killed by signal {signal.Signals(-code).name}" if code is not None and code < 0
           else f"exited with code {code}")
    return {"status": "died", "cell": cell, "reason": f"the kernel died (the notebook's process {how})"}


def _kill(pid: int) -> None:
    if pid:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            os.waitpid(pid, 0)
        except OSError:
            pass


def main() -> int:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
    os.environ["MPLBACKEND"] = "Agg"
    started = time.perf_counter()
    runner.warm_imports(int(os.environ.get("ATTENTION_GRADE_THREADS", "0")))
    shell = runner.make_shell()
    isolate.set_subreaper()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the grader, which stops us itself
    problem = isolate.available()
    _write(1, {"event": "ready", "pid": os.getpid(), "seconds": time.perf_counter() - started,
               "isolation": problem})
    number = 0
    while line := STDIN.readline():
        job = json.loads(line)
        if "blob" in job:  # a large input that jobs name by digest (see attention_course.convert.BLOBS)
            convert.BLOBS[str(job["blob"])] = convert.decode(job["value"], max_bytes=1 << 31)
            continue
        number += 1
        run_job(job, shell, number)
    return 0


if __name__ == "__main__":
    sys.exit(main())
