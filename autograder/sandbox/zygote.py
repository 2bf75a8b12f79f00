"""The warm zygote: imports the frameworks once, then forks one sandbox per submission.

    python -m autograder.sandbox.zygote CONTROL_FD UID      (started by :class:`Zygote`)

The zygote runs only the course's own code and holds nothing secret: it never sees a job's cells,
inputs or answers. Over its control socket (``SOCK_SEQPACKET``, one JSON message each way) the
grader asks it to ``spawn`` a sandbox, handing it, as a file descriptor, the sandbox's end of a
socket that the grader alone holds the other end of; the grader then speaks to the sandbox
directly. ``reap`` kills a sandbox and reports how it ended.

A sandbox is made in two forks: the *supervisor* joins the job's cgroups and enters new namespaces;
its child, the *runner*, is PID 1 of the new PID namespace. It closes every descriptor but its
socket, builds its view of the file system (:func:`.isolate.enter_view`), sets its limits, becomes
an unprivileged user with no capability, and serves the grader's requests
(:func:`.runner.serve`). The supervisor exits at once, so the zygote (a subreaper) adopts the
runner; killing the runner ends every process of its namespace.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import time
import traceback
from pathlib import Path

from . import isolate, runner
from .channel import GraderEnd, SandboxEnd

START_TIMEOUT = 180  # seconds to import the frameworks; far more than they take (about 10 s)
UID_BASE = 61000  # each zygote's sandboxes run as a uid of their own, from UID_BASE up


class WorkerDied(RuntimeError):
    """The zygote process ended (killed, out of memory, machine gone)."""


# --- the zygote process -----------------------------------------------------------------------------


def _send(control: socket.socket, message: dict) -> None:
    control.send(json.dumps(message).encode())


def _spawn(shell, request: dict, job_fd: int, cgroups: isolate.Cgroups | None, view: isolate.View) -> int:
    """Fork the sandbox for one job; the runner's pid."""
    limits = request["limits"]
    pid_read, pid_write = os.pipe()
    supervisor = os.fork()
    if supervisor == 0:
        try:
            os.close(pid_read)
            if request["isolate"]:
                cgroups.join(request["name"], int(limits["memory"]), int(limits["max_processes"]))
                isolate.enter_namespaces(view)
            runner_pid = os.fork()
            if runner_pid == 0:
                _runner(shell, request, job_fd, view)
            os.write(pid_write, str(runner_pid).encode())
            os._exit(0)
        except BaseException:  # noqa: BLE001 (the grader is told through the missing pid)
            traceback.print_exc()
            os._exit(3)
    os.close(pid_write)
    os.waitpid(supervisor, 0)
    runner_pid = int(os.read(pid_read, 32) or b"0")
    os.close(pid_read)
    return runner_pid


def _runner(shell, request: dict, job_fd: int, view: isolate.View) -> None:
    """PID 1 of the sandbox: isolate, then serve the grader. Never returns."""
    try:
        os.closerange(3, job_fd)
        os.closerange(job_fd + 1, 1 << 16)
        limits = request["limits"]
        view.tmp_size = limits.get("tmp_size", view.tmp_size)
        if request["isolate"]:
            isolate.enter_view(view)
        home, work = "/tmp/home", "/tmp/work"
        for folder in (home, work):
            os.makedirs(folder, exist_ok=True)
        os.chdir(work)
        if request["isolate"] and isolate.is_root():
            for folder in (home, work):
                os.chown(folder, view.uid, view.gid)
        isolate.set_limits(int(limits["memory"]), int(limits["max_processes"]))
        if request["isolate"]:
            isolate.become_sandbox_user(view)
            isolate.drop_privileges()
        os.environ.clear()
        os.environ.update(isolate.clean_environment(home))
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
        runner.serve(shell, SandboxEnd(job_fd))
    except BaseException:  # noqa: BLE001 (whatever happened, the grader sees the socket close)
        pass
    os._exit(0)


def _reap(pid: int, name: str, cgroups: isolate.Cgroups | None) -> dict:
    """Kill a runner (and with it its PID namespace), then say how it ended."""
    code = None
    if pid > 0:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done == 0:
                os.kill(pid, signal.SIGKILL)
                done, status = os.waitpid(pid, 0)
            code = os.waitstatus_to_exitcode(status)
        except ChildProcessError:
            code = None
    oom = cgroups is not None and cgroups.out_of_memory(name)
    if cgroups is not None:
        cgroups.remove(name)
    while True:  # anything else the zygote adopted
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            break
    return {"code": code, "oom": oom}


def main(argv: list[str]) -> int:
    control = socket.socket(fileno=int(argv[0]))
    uid = int(argv[1])
    started = time.perf_counter()
    runner.warm_imports(int(os.environ.get("ATTENTION_GRADE_THREADS", "0")))
    shell = runner.make_shell()
    isolate.set_subreaper()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the grader, which stops us itself
    problem = isolate.available()
    cgroups = isolate.Cgroups() if problem is None else None
    import attention_course

    view = isolate.View.here([os.path.dirname(attention_course.__file__)], uid)
    _send(control, {"ready": True, "seconds": time.perf_counter() - started, "isolation": problem,
                    "limits_problem": None if cgroups is None else cgroups.problem})
    while True:
        data, fds, _, _ = socket.recv_fds(control, 1 << 20, 1)
        if not data:
            return 0  # the grader went away
        request = json.loads(data)
        if request["op"] == "spawn":
            request["isolate"] = request["isolate"] and cgroups is not None
            pid = _spawn(shell, request, fds[0], cgroups, view)
            os.close(fds[0])
            _send(control, {"pid": pid})
        elif request["op"] == "reap":
            _send(control, _reap(int(request["pid"]), request["name"], cgroups))


# --- the grader's side ------------------------------------------------------------------------------


class Sandbox:
    """One job's sandbox, as the grader holds it: its socket and the runner's pid."""

    def __init__(self, zygote: Zygote, channel: GraderEnd, pid: int, name: str):
        self.zygote, self.channel, self.pid, self.name = zygote, channel, pid, name
        self.ended: dict | None = None

    def end(self) -> dict:
        """Kill the sandbox (whatever it is doing) and say how it ended: {"code", "oom"}."""
        if self.ended is None:
            self.channel.close()
            self.ended = self.zygote.reap(self.pid, self.name)
        return self.ended


class Zygote:
    """The grader's handle on one warm zygote process."""

    def __init__(self, log: Path | None = None, threads: int = 0):
        """``threads``: the frameworks' threads in each run (0: their default, one per core). With as
        many workers as cores, one each is faster than every run fighting over every core."""
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", TF_ENABLE_ONEDNN_OPTS="0", MPLBACKEND="Agg",
                   PYTHONUNBUFFERED="1")
        if threads > 0:
            for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "ATTENTION_GRADE_THREADS"):
                env[name] = str(threads)
        self.control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.stderr = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115
        uid = UID_BASE + (os.getpid() * 8 + next(_NUMBERS)) % 4000
        self.process = subprocess.Popen(
            [sys.executable, "-m", "autograder.sandbox.zygote", str(theirs.fileno()), str(uid)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.stderr, env=env, cwd="/",
            start_new_session=True, pass_fds=[theirs.fileno()])
        theirs.close()
        self.count = 0
        self.control.settimeout(START_TIMEOUT)
        ready = self._receive("start")
        self.isolation_problem = ready.get("isolation")
        self.limits_problem = ready.get("limits_problem")
        self.control.settimeout(60)

    def _receive(self, what: str) -> dict:
        try:
            data = self.control.recv(1 << 16)
        except (TimeoutError, OSError) as error:
            self.close()
            raise WorkerDied(f"the grading worker did not {what} ({type(error).__name__})") from None
        if not data:
            code = self.process.poll()
            raise WorkerDied(f"the grading worker exited (code {code})")
        return json.loads(data)

    def spawn(self, limits: dict, isolate_it: bool, max_header: int | None = None,
              max_payload: int | None = None) -> Sandbox:
        """A new sandbox for one job, and the grader's end of its socket."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self.count += 1
        name = f"job-{self.process.pid}-{self.count}"
        request = {"op": "spawn", "name": name, "limits": limits, "isolate": isolate_it}
        try:
            socket.send_fds(self.control, [json.dumps(request).encode()], [theirs.fileno()])
        except OSError as error:
            ours.close()
            raise WorkerDied(f"the grading worker is gone ({error})") from None
        finally:
            theirs.close()
        pid = int(self._receive("start a sandbox")["pid"])
        channel = GraderEnd(ours, **{k: v for k, v in (("max_header", max_header), ("max_payload", max_payload))
                                     if v is not None})
        return Sandbox(self, channel, pid, name)

    def reap(self, pid: int, name: str) -> dict:
        try:
            self.control.send(json.dumps({"op": "reap", "pid": pid, "name": name}).encode())
        except OSError as error:
            raise WorkerDied(f"the grading worker is gone ({error})") from None
        return self._receive("end a sandbox")

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except OSError:
                pass
        self.process.wait()
        self.control.close()
        if self.stderr is not subprocess.DEVNULL:
            self.stderr.close()


_NUMBERS = itertools.count()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
