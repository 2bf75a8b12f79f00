"""Where jobs run: this machine's warm workers, or a Dask cluster, behind one interface.

Both executors take a :class:`~autograder.records.Job` and return a future of its
:class:`~autograder.records.JobResult`, computed by :func:`autograder.run.run_job` next to a warm
zygote: in one of this process's threads (:class:`LocalExecutor`, a ``ThreadPoolExecutor`` whose
threads each own a zygote) or in a Dask worker process (:class:`DaskExecutor`). A worker that dies
costs only the job it held, which runs once more before it is reported failed.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from .records import Job, JobResult
from .run import run_job
from .sandbox.zygote import START_TIMEOUT, WorkerDied, Zygote


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def open_executor(scheduler: str | None, workers: int, log: Path, on_warning):
    """The Dask cluster's workers when a scheduler is given, this machine's otherwise."""
    if scheduler:
        return DaskExecutor(scheduler)
    return LocalExecutor(workers or default_workers(), log, on_warning)


class LocalExecutor:
    """``workers`` warm zygotes on this machine, started at once in the background."""

    def __init__(self, workers: int, log: Path | None = None, on_warning=None):
        self.workers = max(1, workers)
        self.log = log
        self.on_warning = on_warning or (lambda message: print(message, file=sys.stderr, flush=True))
        self.threads = max(1, default_workers() // self.workers)
        self.pool = ThreadPoolExecutor(self.workers, thread_name_prefix="grading-worker")
        self.warm: queue.Queue[Zygote | None] = queue.Queue()
        self.unclaimed = self.workers  # zygotes started at the beginning that no thread took yet
        self.lock = threading.Lock()
        self.local = threading.local()
        self.all: list[Zygote] = []
        self.starting = [threading.Thread(target=self._start_one, daemon=True) for _ in range(self.workers)]
        for thread in self.starting:
            thread.start()

    def _start_one(self) -> None:
        try:
            self.warm.put(self._zygote())
        except WorkerDied as error:  # the job that waits for it starts its own, and reports
            self.on_warning(f"a grading worker did not start: {error}")
            self.warm.put(None)

    def _zygote(self) -> Zygote:
        zygote = Zygote(self.log, threads=self.threads)
        with self.lock:
            self.all.append(zygote)
        if zygote.isolation_problem:
            self.on_warning(f"WARNING: grading WITHOUT a sandbox: {zygote.isolation_problem}. Submitted code "
                            "can read and write what this user can.")
        if zygote.limits_problem:
            self.on_warning(f"WARNING: {zygote.limits_problem}")
        return zygote

    def _mine(self) -> Zygote:
        """This thread's zygote: its own, else one started at the beginning, else a new one."""
        zygote = getattr(self.local, "zygote", None)
        if zygote is None or not zygote.alive():
            zygote = None
            with self.lock:
                waiting, self.unclaimed = self.unclaimed > 0, max(0, self.unclaimed - 1)
            if waiting:
                try:
                    zygote = self.warm.get(timeout=START_TIMEOUT)
                except queue.Empty:
                    pass
            self.local.zygote = zygote if zygote is not None and zygote.alive() else self._zygote()
        return self.local.zygote

    def _run(self, job: Job) -> JobResult:
        for attempt in range(2):
            try:
                return run_job(job, self._mine())
            except WorkerDied as died:  # a dead worker costs this submission only
                zygote = getattr(self.local, "zygote", None)
                if zygote is not None:
                    zygote.close()
                self.local.zygote = None
                if attempt:
                    return JobResult.failed(f"the grading worker died ({died}); retried once")
        raise AssertionError("unreachable")

    def submit(self, job: Job) -> Future:
        return self.pool.submit(self._run, job)

    def close(self) -> None:
        self.pool.shutdown(wait=True)
        for thread in self.starting:
            thread.join()
        with self.lock:
            for zygote in self.all:
                zygote.close()


_WORKER = threading.local()


def dask_run_job(job: Job, checks: dict) -> JobResult:
    """A Dask task: run one job on this worker process's own zygote (started on first use)."""
    zygote = getattr(_WORKER, "zygote", None)
    if zygote is None or not zygote.alive():
        zygote = _WORKER.zygote = Zygote()
    try:
        return run_job(replace(job, checks=checks), zygote)
    except WorkerDied:
        zygote.close()
        _WORKER.zygote = None
        raise


class DaskExecutor:
    """A Dask cluster: each job a task, retried once on another worker if its worker dies. A plan's
    inputs (notebook 08's pass a model's weights) are sent to the workers once, not with every job."""

    def __init__(self, address: str):
        try:
            from distributed import Client

            self.client = Client(address, timeout="10s")
        except (OSError, TimeoutError, ImportError) as error:
            raise SystemExit(f"cannot reach the Dask scheduler at {address}: {type(error).__name__}: "
                             f"{str(error).splitlines()[0][:200] if str(error) else ''}") from None
        self.scattered: dict[int, tuple[dict, object]] = {}

    def submit(self, job: Job) -> Future:
        key = id(job.checks)
        if key not in self.scattered:
            self.scattered[key] = (job.checks, self.client.scatter(job.checks, broadcast=True, hash=False))
        future = self.client.submit(dask_run_job, replace(job, checks={}), self.scattered[key][1], pure=False,
                                    retries=1)
        local: Future = Future()

        def done(finished):
            try:
                local.set_result(finished.result())
            except Exception as error:  # noqa: BLE001 (a task's failure, whatever it was, fails that job)
                local.set_result(JobResult.failed(f"the worker failed twice: {type(error).__name__}: "
                                                  f"{str(error)[:200]}"))

        future.add_done_callback(done)
        local.dask_future = future  # held until done, so the cluster keeps the task
        return local

    def close(self) -> None:
        self.client.close()
