"""Where sandboxed runs happen: warm zygotes on this machine, or on a Dask cluster's workers.

The unit of work is a *job*: one submission's cells and the probes of its test cells, as plain
data. :func:`run_job` runs it on a :class:`Zygote` (retrying around a cell that had to be killed)
and returns plain data: each cell's outputs, each probe's outcomes, how the run ended. The same
function runs in the grader's threads (local) and in Dask tasks (``--scheduler``), so results are
the same either way. Stand-ins for the learner's earlier answers (an exercise's ``uses``) are
computed by :func:`oracle` in this trusted process, on request, never inside the sandbox.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from attention_course import convert
from attention_course.convert import decode, encode

from . import REPO


class WorkerDied(RuntimeError):
    """The zygote process ended (killed, out of memory, machine gone)."""


class Zygote:
    """One warm process (frameworks imported) that forks a sandboxed runner per job."""

    START_TIMEOUT = 180  # seconds to import the frameworks; far more than they take (about 10 s)

    def __init__(self, log: Path | None = None, threads: int = 0):
        """``threads``: the frameworks' threads in each run (0: their default, one per core). With as
        many workers as cores, one each is faster than every run fighting over every core."""
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
        env.update(TF_CPP_MIN_LOG_LEVEL="3", MPLBACKEND="Agg", PYTHONUNBUFFERED="1")
        if threads > 0:
            for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "ATTENTION_GRADE_THREADS"):
                env[name] = str(threads)
        self.stderr = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-m", "autograder.sandbox.zygote"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self.stderr, env=env, cwd="/", start_new_session=True)
        ready, _, _ = select.select([self.process.stdout], [], [], self.START_TIMEOUT)
        if not ready:
            self.close()
            raise WorkerDied(f"the grading worker did not start within {self.START_TIMEOUT} s")
        ready = self._read()
        if ready.get("event") != "ready":
            raise WorkerDied(f"the grading worker did not start: {ready}")
        self.isolation_problem = ready.get("isolation")
        self.blobs_sent: set[str] = set()
        self.startup_seconds = ready.get("seconds")

    def _read(self) -> dict:
        line = self.process.stdout.readline()
        if not line:
            code = self.process.poll()
            raise WorkerDied(f"the grading worker exited (code {code})")
        return json.loads(line)

    def _send(self, message: dict) -> None:
        try:
            self.process.stdin.write((json.dumps(message, allow_nan=True) + "\n").encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise WorkerDied(f"the grading worker is gone ({error})") from None

    def run(self, job: dict, answer) -> dict:
        """Send one job; collect its events until it is done. ``answer(event)`` serves stand-ins.

        The job's ``blob_arrays`` (large inputs its calls name by digest) go to the zygote once: the
        runners it forks find them in :data:`attention_course.convert.BLOBS`, and so does ``answer``.
        """
        for digest, array in (job.get("blob_arrays") or {}).items():
            convert.BLOBS.setdefault(digest, array)  # the stand-ins' arguments may name it
            if digest not in self.blobs_sent:
                self._send({"blob": digest, "value": encode(array)})
                self.blobs_sent.add(digest)
        self._send({k: v for k, v in job.items() if k != "blob_arrays"})
        result = {"cells": {}, "probes": {}, "records": [], "errors": []}
        while True:
            event = self._read()
            kind = event.get("event")
            if kind == "done":
                result.update({k: v for k, v in event.items() if k != "event"})
                return result
            if kind == "cell_end":
                result["cells"][int(event["index"])] = event
            elif kind == "probe":
                result["probes"].setdefault(int(event["index"]), {})[int(event["call"])] = event["outcomes"]
            elif kind == "record":
                result["records"].append(event)
            elif kind == "oracle":
                self._send(answer(event))
            elif kind == "sandbox_error":
                result["errors"].append(event.get("message", ""))

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except OSError:
                pass
        self.process.wait()
        if self.stderr is not subprocess.DEVNULL:
            self.stderr.close()


def oracle(job: dict):
    """The trusted side of the stand-ins: answers only for an exercise's own ``uses``."""
    from .key.exercises import get_exercise, in_framework
    from .key.mistakes import steps_unchanged

    allowed = {(call["exercise"], name) for cell in job["cells"] for call in cell.get("calls", [])
               for name in call["meta"]["uses"]}  # plain strings: no need to decode the arrays

    def answer(event: dict) -> dict:
        pair = (event.get("exercise"), event.get("dependency"))
        if pair not in allowed:
            return {"error": "no stand-in for that name here"}
        try:
            function = in_framework(get_exercise(pair[0]).uses[pair[1]], "numpy")
            args = decode(event.get("args", []), max_bytes=16 << 20)
            kwargs = decode(event.get("kwargs", {}), max_bytes=16 << 20)
            with steps_unchanged():  # another thread may be computing a mistake's result right now
                value = function(*args, **kwargs)
            return {"value": encode(list(value) if isinstance(value, tuple) else value)}
        except Exception as error:
            return {"error": f"{type(error).__name__}: {str(error)[:200]}"}

    return answer


def _missed_a_name(result: dict) -> bool:
    """Whether a run met a NameError, in a cell or in a probe (outcomes are plain dicts)."""
    if any(cell.get("error") == "NameError" for cell in result["cells"].values()):
        return True
    return any(isinstance(outcome, dict) and outcome.get("type") == "NameError"
               for calls in result["probes"].values() for outcomes in calls.values()
               for outcome in (outcomes if isinstance(outcomes, list) else []))


def run_job(zygote: Zygote, job: dict, attempts: int = 3) -> dict:
    """Run a job; when a cell had to be killed (or crashed the process), run again without it.

    A job whose ``unneeded`` cells were passed over and that then met a NameError runs again with
    every cell: a dependency the slicing missed costs time, never points."""
    job = dict(job)
    if zygote.isolation_problem:
        job["isolate"] = False  # the grader has warned loudly (see Grader._zygote)
    skipped: dict[int, str] = {}
    started = time.perf_counter()
    runs = 0
    while runs < attempts:
        runs += 1
        if skipped:
            job["cells"] = [dict(c, kind="skip", reason=skipped[c["index"]]) if c["index"] in skipped else c
                            for c in job["cells"]]
        result = zygote.run(job, oracle(job))
        if job.get("unneeded") and _missed_a_name(result):
            job["unneeded"], skipped, runs = [], {}, 0
            continue
        if result["status"] == "finished" or result.get("cell") is None or result["cell"] in skipped:
            break
        skipped[int(result["cell"])] = result.get("reason", "stopped")
    result["skipped"] = {str(k): v for k, v in skipped.items()}
    result["unneeded"] = list(job.get("unneeded", []))
    result["seconds"] = time.perf_counter() - started
    return result


# --- on a Dask cluster -------------------------------------------------------------------------------

_LOCAL = threading.local()


def dask_task(job: dict) -> dict:
    """A Dask task: run one job on this worker's own zygote (started on first use)."""
    zygote = getattr(_LOCAL, "zygote", None)
    if zygote is None or zygote.process.poll() is not None:
        zygote = _LOCAL.zygote = Zygote()
    try:
        return run_job(zygote, job)
    except WorkerDied:
        zygote.close()
        _LOCAL.zygote = None
        raise
