"""The run stage: one job in a sandbox, driven from the trusted side.

The grader drives; the sandbox only answers. For each cell to run it sends that cell's code and waits
for its outputs; at a test cell it sends one probe at a time, with only that probe's inputs, and
waits for the learner's function's result. While a probe runs, the sandbox may ask for a *stand-in*
(the reference result of an earlier exercise the probed one may call), and only for a name in that
exercise's ``uses``. Every wait has a deadline; every reply is checked (:mod:`.sandbox.protocol`); a
sandbox that misses a deadline is killed and the job runs again without that cell; one that sends
anything else ends its submission as failed, with one line. The sandbox is killed at the end of
every run, whatever it is doing, so nothing it started outlives its job.

:func:`run_job` runs the same way in the grader's own threads and in Dask workers.
"""

from __future__ import annotations

import signal
import time

import numpy as np

from attention_course.convert import blob_digest

from .records import CellRun, Job, JobResult
from .sandbox import protocol
from .sandbox.channel import Closed, Deadline
from .sandbox.protocol import KEPT, ProtocolError
from .sandbox.zygote import Sandbox, WorkerDied, Zygote

START_SECONDS = 30  # for a forked sandbox to be ready
MAX_STANDINS = 100_000  # stand-in requests in one job
KEEP_BYTES = 1 << 20  # an input this large is sent to a sandbox once and named after that


class _Killed(Exception):
    """The sandbox had to be killed (a deadline, or it ended by itself) during ``cell``."""

    def __init__(self, cell: int | None, reason: str, status: str):
        super().__init__(reason)
        self.cell, self.reason, self.status = cell, reason, status


class _Run:
    """One attempt at a job: one sandbox, from its start to its end."""

    def __init__(self, job: Job, sandbox: Sandbox, skip: dict[int, str], standins):
        self.job, self.sandbox, self.skip, self.standins = job, sandbox, skip, standins
        self.channel = sandbox.channel
        self.result = JobResult(status="finished")
        self.notebook_deadline = time.monotonic() + job.limits.notebook_timeout
        self.standin_calls = 0
        self.standin_seconds = 0.0
        self.timed_out: dict | None = None  # a probe of the current test cell that ran past its limit
        self.names: dict[int, tuple] = {}  # id of a large input -> (the input, its name)
        self.kept: set[str] = set()  # names of the large inputs this sandbox holds

    def deadline(self, seconds: float) -> float:
        return min(time.monotonic() + seconds + self.job.limits.grace, self.notebook_deadline)

    def ask(self, request: dict, seconds: float, cell: int) -> dict:
        """Send one request and return the reply, serving stand-in requests meanwhile."""
        deadline = self.deadline(seconds)
        try:
            self.channel.send(request, deadline)
            while True:
                reply = self.channel.receive(deadline)
                if reply["op"] != "standin":
                    return reply
                if request["op"] != "probe":
                    raise ProtocolError("asked for a stand-in outside a probe")
                started = time.monotonic()
                self.channel.send(self.standin(request, reply), deadline)
                deadline += time.monotonic() - started  # the grader's time is not the sandbox's
        except Deadline:
            if time.monotonic() >= self.notebook_deadline:
                raise _Killed(cell, f"the notebook ran past its {self.job.limits.notebook_timeout:g} s limit",
                              "timeout") from None
            raise _Killed(cell, f"ran past the {self.job.limits.cell_timeout:g} s limit and ignored the "
                                "interrupt", "timeout") from None
        except Closed:
            raise _Killed(cell, "the kernel died", "died") from None

    def standin(self, request: dict, asked: dict) -> dict:
        if asked["name"] not in request["uses"]:
            raise ProtocolError(f"asked for a stand-in of {asked['name'][:40]!r}, which this exercise does not use")
        self.standin_calls += 1
        if self.standin_calls > MAX_STANDINS or self.standin_seconds > self.job.limits.standin_seconds:
            raise ProtocolError("asked the grader for more stand-in results than an answer needs")
        started = time.thread_time()
        try:
            return self.standins(request["exercise"], asked["name"], asked["args"], asked["kwargs"])
        finally:
            self.standin_seconds += time.thread_time() - started

    def run(self) -> JobResult:
        deadline = time.monotonic() + START_SECONDS
        self.channel.send({"op": "start", "notebook_name": self.job.notebook_name,
                           "notebook_text": self.job.notebook_text}, deadline)
        if self.channel.receive(deadline)["op"] != "ready":
            raise ProtocolError("did not start as a sandbox does")
        timeout = self.job.limits.cell_timeout
        for cell in self.job.cells:
            if cell.index in self.job.unneeded:
                continue
            if cell.index in self.skip:
                self.result.cells[cell.index] = CellRun(error="CellSkipped", outputs=[_error(
                    "CellSkipped", f"this cell was not run: {self.skip[cell.index]}")])
                continue
            if cell.kind == "test" and self.job.mode == "grade":
                self.timed_out = None
                self.result.outcomes[cell.index] = [self.probe_call(call, cell.index, timeout)
                                                    for call in self.job.checks.get(cell.index, [])]
                self.result.cells[cell.index] = CellRun(timed_out=self.timed_out is not None)
                continue
            if cell.kind == "test":
                from .sandbox.runner import split_test_source

                visible, hidden = split_test_source(cell.source)
                request = {"op": "record", "index": cell.index, "visible": visible, "hidden": hidden,
                           "timeout": timeout}
            else:
                request = {"op": "cell", "index": cell.index, "source": cell.source, "timeout": timeout}
            reply = self.ask(request, timeout, cell.index)
            if reply["op"] != "cell_done" or reply["index"] != cell.index:
                raise ProtocolError("answered a cell with something else")
            self.result.cells[cell.index] = CellRun(outputs=protocol.outputs(reply["outputs"],
                                                                             self.job.limits.max_outputs_bytes),
                                                    error=reply["error"][:100] if reply["error"] else None,
                                                    memory_error=reply["memory_error"],
                                                    timed_out=reply["error"] == "CellTimeoutError")
            for record in reply.get("records", []) if self.job.mode == "record" else []:
                self.result.records.append({"index": cell.index, **record})
        return self.result

    def try_cases(self, cases: list) -> None:
        """Each case in turn: its code in its exercise's answer cell, that exercise's test cells
        probed, the answer put back. A case that has to be killed ends this sandbox (see run_cases)."""
        timeout = self.job.limits.cell_timeout
        for case in cases:
            self.current = case.id
            self.ask({"op": "cell", "index": case.cell, "source": case.source, "timeout": timeout}, timeout,
                     case.cell)
            self.result.cases[case.id] = {}
            for test in case.tests:
                self.timed_out = None
                self.result.cases[case.id][test] = [self.probe_call(call, test, timeout)
                                                    for call in self.job.checks.get(test, [])]
            self.ask({"op": "cell", "index": case.cell, "source": case.answer, "timeout": timeout}, timeout,
                     case.cell)

    def probe_call(self, call: dict, index: int, timeout: float) -> list[dict]:
        """The outcomes of one check's probes. Once a probe ran past the time limit, the test cell's
        other probes are not run: the check fails already, and each would cost the limit again."""
        meta = call["meta"]
        outcomes = []
        for probe in call["probes"]:
            if self.timed_out is not None:
                outcomes.append(self.timed_out)
                continue
            keep: dict = {}
            request = {"op": "probe", "exercise": call["exercise"], "function": call["function"],
                       "framework": meta["framework"], "returns_tuple": meta.get("returns_tuple", False),
                       "uses": list(meta["uses"]), "timeout": timeout,
                       "probe": {"inputs": [self.named(v, keep) for v in probe["inputs"]],
                                 "kwargs": probe["kwargs"]},
                       "keep": keep}
            reply = self.ask(request, timeout, index)
            if reply["op"] != "probe_done":
                raise ProtocolError("answered a probe with something else")
            outcomes.append(protocol.outcome(reply["outcome"]))
            if outcomes[-1].get("type") == "CellTimeoutError":
                self.timed_out = outcomes[-1]
        return outcomes

    def named(self, value, keep: dict):
        """A probe's input as sent: a large array by its name once the sandbox holds it (added to
        ``keep`` the first time). Notebook 08's checks pass the same 46 MB table in every case."""
        if not isinstance(value, np.ndarray) or value.nbytes < KEEP_BYTES:
            return value
        if id(value) not in self.names:
            self.names[id(value)] = (value, blob_digest(value))
        name = self.names[id(value)][1]
        if name not in self.kept:
            keep[name] = value
            self.kept.add(name)
        return {KEPT: name}


def _error(name: str, message: str) -> dict:
    return {"output_type": "error", "ename": name, "evalue": message, "traceback": []}


def _missed_a_name(result: JobResult) -> bool:
    """Whether a run met a NameError, in a cell or in a probe."""
    if any(cell.error == "NameError" for cell in result.cells.values()):
        return True
    return any(outcome.get("type") == "NameError" for calls in result.outcomes.values()
               for outcomes in calls for outcome in outcomes if isinstance(outcome, dict))


def standins_from_key():
    """The trusted stand-in service: an exercise's ``uses`` computed by the answer key."""
    from .key import standin

    def serve(exercise: str, name: str, args: list, kwargs: dict) -> dict:
        return standin(exercise, name, args, kwargs)

    return serve


def attempt(job: Job, zygote: Zygote, skip: dict[int, str], standins) -> JobResult:
    """One run of ``job`` in a new sandbox; the sandbox is killed when it ends, whatever happened."""
    isolate = job.isolate and zygote.isolation_problem is None
    sandbox = zygote.spawn(job.limits.for_sandbox(), isolate)
    run = _Run(job, sandbox, skip, standins)
    try:
        result = run.run()
    except _Killed as killed:
        result = run.result
        result.status, result.reason = killed.status, killed.reason
        result.skipped = {killed.cell: killed.reason} if killed.cell is not None else {}
    except ProtocolError as error:
        result = JobResult.failed(f"the notebook's process broke the grading protocol: {error}")
    except Deadline:
        result = JobResult.failed("the sandbox did not start in time")
    except Closed:
        result = JobResult(status="died", reason="the kernel died before it started")
    finally:
        ended = sandbox.end()
    result.oom = bool(ended.get("oom"))
    if result.status == "died":
        result.reason = (f"ran out of memory (cap {job.limits.memory / 2**30:g} GiB)" if result.oom
                         else f"the kernel died (the notebook's process {_how(ended.get('code'))})")
        result.skipped = {cell: result.reason for cell in result.skipped}
    return result


def _how(code: int | None) -> str:
    if code is None:
        return "ended"
    if code < 0:
        return f"was killed by signal {signal.Signals(-code).name}"
    return f"exited with code {code}"


def run_job(job: Job, zygote: Zygote, standins=None, attempts: int = 3) -> JobResult:
    """Run a job; when a cell had to be killed (or killed the kernel), run it again without that cell.

    A job whose ``unneeded`` cells were passed over and that then met a NameError runs again with
    every cell: a dependency the slicing missed costs time, never points."""
    if job.mode == "cases":
        return run_cases(job, zygote, standins)
    standins = standins or standins_from_key()
    started = time.perf_counter()
    skipped: dict[int, str] = {}
    runs = 0
    while True:
        runs += 1
        result = attempt(job, zygote, skipped, standins)
        if job.unneeded and _missed_a_name(result):
            job = _with(job, unneeded=frozenset())
            skipped, runs = {}, 0
            continue
        new = {cell: reason for cell, reason in result.skipped.items() if cell not in skipped}
        if result.status in ("finished", "failed") or not new or runs >= attempts \
                or result.reason.startswith("the notebook ran past"):
            break
        skipped.update(new)
    result.skipped = {**skipped, **result.skipped}
    result.unneeded = sorted(job.unneeded)
    result.seconds = time.perf_counter() - started
    return result


def run_cases(job: Job, zygote: Zygote, standins=None) -> JobResult:
    """A "cases" job: the notebook runs once, then every case in turn; a case that has to be killed (a
    loop that never ends) is recorded as such, and a new sandbox runs the notebook again and goes on
    with the next case."""
    standins = standins or standins_from_key()
    started = time.perf_counter()
    result: JobResult | None = None
    left = list(job.cases)
    while result is None or left:
        isolate = job.isolate and zygote.isolation_problem is None
        sandbox = zygote.spawn(job.limits.for_sandbox(), isolate)
        run = _Run(job, sandbox, {}, standins)
        run.notebook_deadline = float("inf")  # every request keeps its own deadline
        run.current = None
        try:
            run.run()
            run.try_cases(left)
            left = []
        except _Killed as killed:
            if run.current is None:
                return JobResult.failed(f"the notebook itself did not run: {killed.reason}")
            run.result.cases[run.current] = killed.reason
            left = left[[case.id for case in left].index(run.current) + 1:]
        except ProtocolError as error:
            return JobResult.failed(f"the notebook's process broke the grading protocol: {error}")
        finally:
            sandbox.end()
        if result is None:
            result = run.result
        else:
            result.cases.update(run.result.cases)
    result.seconds = time.perf_counter() - started
    return result


def _with(job: Job, **changes) -> Job:
    from dataclasses import replace

    return replace(job, **changes)


__all__ = ["WorkerDied", "Zygote", "attempt", "run_job", "standins_from_key"]
