"""Grading a class: intake, sandboxed run, trusted verdict, record.

1. **Intake** (this process): find each student's notebook, refuse broken ones, note tampering,
   restore locked and test cells from the gradebook (nbgrader's own ``OverwriteCells``).
2. **Sandboxed run** (a warm zygote per core, or Dask workers): the learner's cells run in a
   sandbox; at each test cell the learner's functions are called on the test cell's inputs, which
   the grader learnt by running the source notebook with the checks recording (*plans*).
3. **Trusted verdict** (this process): :func:`attention_course.verdict.judge` with the answer key
   (``autograder.key``) decides every check from the returned plain data.
4. **Record**: test cells get the verdict's messages as outputs; nbgrader's ``SaveAutoGrades`` writes
   the scores into the gradebook; the autograded notebook and the feedback (hidden tests removed)
   are written where nbgrader's formgrader finds them; the result is appended to a state file at
   once, so an interrupted run loses nothing and a rerun grades only what changed.
"""

from __future__ import annotations

import contextlib
import copy
import fcntl
import hashlib
import json
import os
import queue
import sys
import tempfile
import threading
import time
import zipfile
from dataclasses import asdict
from pathlib import Path

import nbformat
from tqdm import tqdm

from attention_course.convert import decode, encode
from attention_course.verdict import judge

from . import NOTEBOOKS, REPO, SOLUTIONS
from . import notebooks as nbio
from .course import assignments, make_course, nbgrader
from .intake import (
    Result,
    _safe_extract,
    choose_notebook,
    find_submissions,
    points,
    tampering,
    validate,
    write_csv,
)
from .slicing import needed_cells
from .workers import WorkerDied, Zygote, dask_task, run_job

COURSE_ID = "attention-from-scratch"
KEY_FILES = [*sorted((REPO / "autograder" / "key").rglob("*.py")), REPO / "src" / "attention_course" / "verdict.py",
             REPO / "autograder" / "pipeline.py", REPO / "autograder" / "sandbox" / "runner.py"]


def _digest(*parts: bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()


def key_version() -> str:
    return _digest(*(path.read_bytes() for path in KEY_FILES if path.is_file()))


def masked(url: str) -> str:
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url.split("@")[-1] if "@" in url else url


def open_gradebook(db_url: str) -> None:
    """Fail fast, with the URL (password masked), when the gradebook cannot be opened."""
    from nbgrader.api import Gradebook

    try:
        with Gradebook(db_url, COURSE_ID):
            pass
    except Exception as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise SystemExit(f"cannot open the gradebook {masked(db_url)}: {first[:300]}") from None


# --- plans: each test cell's checks, learnt from the source notebook -------------------------------


def cells_of(nb: nbformat.NotebookNode, plan: dict | None = None) -> list[dict]:
    """The job's cells: code cells to run and test cells (probed when ``plan`` is given).

    ``plan`` is {grade_id: calls}, the calls already encoded (see :meth:`Grader.encoded_plan`).
    """
    cells = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        meta = cell.metadata.get("nbgrader", {})
        is_test = bool(meta.get("grade")) and not meta.get("solution")
        entry = {"index": index, "kind": "test" if is_test else "code", "source": cell.source,
                 "grade_id": meta.get("grade_id"), "solution": bool(meta.get("solution"))}
        if is_test and plan is not None:
            entry["source"] = ""  # the test code never runs where submitted code runs
            entry["calls"] = plan.get(meta["grade_id"], [])
        cells.append(entry)
    return cells


def source_digest(name: str) -> str:
    return hashlib.sha256((SOLUTIONS / f"{name}.ipynb").read_bytes()).hexdigest()


def stored_plan(name: str) -> dict | None:
    """The plan the build stored for a source notebook (autograder/key/plans/), if it is current."""
    path = REPO / "autograder" / "key" / "plans" / f"{name}.json"
    if not path.is_file():
        return None
    stored = json.loads(path.read_text(encoding="utf-8"))
    if stored.get("source") != source_digest(name):
        return None  # solutions/ changed since the build: record it again
    plan = decode(stored["plan"])
    for calls in plan.values():
        _attach_meta(calls)
    return plan


def _attach_meta(calls: list[dict]) -> None:
    """Give each call its exercise's metadata from the key (stored plans leave it out)."""
    from .key import meta

    for call in calls:
        call["meta"] = meta(call["exercise"])


def record_job(source: nbformat.NotebookNode, limits: dict, all_cells: bool = False) -> dict:
    """The job that runs a source notebook to learn its test cells' inputs; the cells neither a test
    cell nor a solution needs (a demonstration's training run) are passed over unless ``all_cells``."""
    cells = cells_of(source)
    needed = None if all_cells else needed_cells(cells, set(), {c["source"] for c in cells}, record=True)
    unneeded = [] if needed is None else [c["index"] for c in cells if c["index"] not in needed]
    return {"mode": "record", "cells": cells, "limits": limits, "isolate": True, "unneeded": unneeded}


def plan_from_records(source: nbformat.NotebookNode, result: dict) -> dict:
    """{grade_id: [calls, each with the exercise's meta]} from a record run of the source notebook."""
    failed = [f"cell {i}: {c['error']}" for i, c in result["cells"].items() if c.get("error")]
    if result.get("status") != "finished" or failed or result.get("errors"):
        raise RuntimeError(f"the source notebook did not run cleanly: {result.get('reason', '')} "
                           f"{'; '.join(failed)} {'; '.join(result.get('errors', []))}")
    grade_ids = {i: c.metadata.get("nbgrader", {}).get("grade_id") for i, c in enumerate(source.cells)}
    plan: dict[str, list] = {}
    for record in result["records"]:
        call = decode(record["call"])
        call["hidden"] = record["hidden"]
        plan.setdefault(grade_ids[int(record["index"])], []).append(call)
    for calls in plan.values():
        _attach_meta(calls)
    return plan


# --- the verdict ---------------------------------------------------------------------------------


def verdict_outputs(calls: list[dict], outcomes: dict, key) -> tuple[list[dict], bool]:
    """The outputs a test cell gets (as if its checks had run) and whether it passed."""
    lines = []
    for number, call in enumerate(calls):
        raw = outcomes.get(number) if outcomes else None
        try:
            results = decode(raw) if raw is not None else None
        except Exception:
            results = None
        if not isinstance(results, list) or not all(isinstance(r, dict) and "status" in r for r in results):
            message = f"✗ {call['exercise']}: the function could not be run on this test's inputs."
        else:
            verdict = judge(call, results, key)
            if verdict.passed:
                lines += verdict.lines
                continue
            message = verdict.message
        outputs = [{"output_type": "stream", "name": "stdout", "text": "\n".join(lines) + "\n"}] if lines else []
        outputs.append({"output_type": "error", "ename": "CheckFailed", "evalue": message, "traceback": [message]})
        return outputs, False
    return ([{"output_type": "stream", "name": "stdout", "text": "\n".join(lines) + "\n"}] if lines else []), True


# --- the run -------------------------------------------------------------------------------------


# --- where jobs run ----------------------------------------------------------------------------------


def _failed(reason: str) -> dict:
    return {"status": "failed", "reason": reason, "cells": {}, "probes": {}, "records": []}


class _Jobs:
    """Jobs submitted while others run; each result is put on ``events`` as ("result", tag, result).

    The grader's own work on a result (verdict, gradebook, feedback) happens in the thread that
    reads ``events``, so a worker starts its next job at once instead of waiting for it.
    """

    def __init__(self, events: queue.Queue, hide: list[str], keep: list[str]):
        self.events, self.hide, self.keep = events, hide, keep

    def submit(self, tag, job: dict) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """No more jobs; the workers stop when the queue is empty."""


class _LocalJobs(_Jobs):
    """This machine's warm workers: one thread per worker, each with its own zygote."""

    def __init__(self, grader: Grader, events: queue.Queue, hide: list[str], keep: list[str]):
        super().__init__(events, hide, keep)
        self.grader, self.queue, self.threads = grader, queue.Queue(), []

    def submit(self, tag, job: dict) -> None:
        self.queue.put((tag, dict(job, hide=self.hide, keep=self.keep)))
        if len(self.threads) < self.grader.workers:
            thread = threading.Thread(target=self._work, daemon=True)
            self.threads.append(thread)
            thread.start()

    def _work(self) -> None:
        zygote = self.grader._take_zygote()
        try:
            while (item := self.queue.get()) is not None:
                tag, job = item
                for attempt in range(2):
                    try:
                        if zygote is None:
                            zygote = self.grader._zygote()
                        result = run_job(zygote, job)
                        break
                    except Exception as died:  # a dead worker costs this submission only
                        if zygote is not None:
                            zygote.close()
                        zygote = None
                        result = _failed(f"the grading worker died ({died}); "
                                         f"{'retried once' if attempt else 'retrying'}")
                self.events.put(("result", tag, result))
        finally:
            if zygote is not None:
                self.grader._pool.put(zygote)  # warm for a later run in this process

    def close(self) -> None:
        for _ in self.threads:
            self.queue.put(None)


class _ClusterJobs(_Jobs):
    """A Dask cluster: each job a task, retried once on another worker if its worker dies."""

    def __init__(self, client, events: queue.Queue, hide: list[str], keep: list[str]):
        super().__init__(events, hide, keep)
        self.client, self.pending = client, set()

    def submit(self, tag, job: dict) -> None:
        future = self.client.submit(dask_task, dict(job, hide=self.hide, keep=self.keep), pure=False, retries=1)
        self.pending.add(future)  # held until done, so the cluster keeps the task (and no result after)

        def done(future, tag=tag):
            try:
                result = future.result()
            except Exception as error:
                result = _failed(f"the worker failed twice: {type(error).__name__}: {str(error)[:200]}")
            self.pending.discard(future)
            self.events.put(("result", tag, result))

        future.add_done_callback(done)


class Grader:
    def __init__(self, out: Path, db_url: str | None, limits: dict, workers: int, scheduler: str | None,
                 progress: bool = True, force: bool = False, all_cells: bool = False):
        self.out = out.resolve()
        self.course = self.out / "course"
        self.db_url = db_url or f"sqlite:///{self.course / 'gradebook.db'}"
        self.limits = limits
        self.workers = max(1, workers)
        self.scheduler = scheduler
        self.progress = progress
        self.force = force
        self.all_cells = all_cells  # run every cell, even those no graded function depends on
        self.state_path = self.out / "grading-state.jsonl"
        self.lock = threading.Lock()
        self.warnings: list[str] = []
        self.key_version = key_version()
        # nbgrader creates a gradebook by running alembic, found on PATH next to this Python
        os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
        from .key import ComputedKey

        self.key = ComputedKey()
        self._exporter = None  # one feedback exporter for the run: shared cells render once
        self._pool: queue.Queue[Zygote] = queue.Queue()  # warm workers between batches of jobs
        self._starting: list[threading.Thread] = []
        self._source_bytes: dict[str, bytes] = {}
        self._encoded: dict[str, tuple[dict, dict]] = {}
        self._given_sources: dict[str, set[str]] = {}

    # -- set-up ------------------------------------------------------------------------------------

    def set_up(self, present: list[str]) -> tuple[dict[str, dict], list, list, dict]:
        """The course directory, and what is known without running anything.

        Returns (plans found: stored by the build or cached by an earlier run, [(assignment, plan
        file)] still to learn, [(assignment, stamp)] still to generate, the generation stamps).
        Nothing waits here: generating and learning run beside the grading (see :meth:`_grade`).
        """
        self.course.mkdir(parents=True, exist_ok=True)
        make_course(self.course, self.db_url, only=present)
        with open(self.course / "nbgrader_config.py", "a", encoding="utf-8") as config:
            config.write(f"c.Execute.timeout = {int(self.limits['cell_timeout'])}\n")
        cache = self.course / "plans"
        cache.mkdir(exist_ok=True)
        stamps = self.course / "generated.json"
        generated = json.loads(stamps.read_text()) if stamps.is_file() else {}
        plans, todo_plans, todo_generate = {}, [], []
        for name in present:
            source_bytes = (SOLUTIONS / f"{name}.ipynb").read_bytes()
            stamp = _digest(source_bytes, self.db_url.encode())
            if generated.get(name) != stamp or not (self.course / "release" / name / f"{name}.ipynb").is_file():
                todo_generate.append((name, stamp))
            plan_file = cache / f"{name}-{_digest(source_bytes, self.key_version.encode())[:16]}.json"
            if plan_file.is_file():
                plans[name] = decode(json.loads(plan_file.read_text()))
            elif (plan := stored_plan(name)) is not None:
                plans[name] = plan
            else:
                todo_plans.append((name, plan_file))
        return plans, todo_plans, todo_generate, generated

    def encoded_plan(self, assignment: str, plan: dict) -> tuple[dict, dict]:
        """A plan's calls as plain data, encoded once a run: ({grade_id: calls}, {digest: large array}).

        Arrays of 256 KiB or more (a model's weights in notebook 08's hidden tests) are named by
        digest and sent to each worker once, not inside every submission's job.
        """
        if assignment not in self._encoded:
            blobs: dict = {}
            calls = {grade_id: encode(entries, blobs) for grade_id, entries in plan.items()}
            self._encoded[assignment] = (calls, blobs)
        return self._encoded[assignment]

    def _given(self, assignment: str, released) -> set[str]:
        """The code cells learners were given: nbgrader's release and notebooks/ (with its Colab cell)."""
        if assignment not in self._given_sources:
            sources = {c.source for c in released.cells if c.cell_type == "code"}
            learner = NOTEBOOKS / f"{assignment}.ipynb"
            if learner.is_file():
                sources |= {c.source for c in nbio.read(learner).cells if c.cell_type == "code"}
            self._given_sources[assignment] = sources
        return self._given_sources[assignment]

    def _unneeded(self, cells: list[dict], plan: dict, assignment: str, released) -> list[int]:
        """The cells grading may skip (see :mod:`autograder.slicing`); none with ``--all-cells``."""
        if self.all_cells:
            return []
        called = {call["function"] for calls in plan.values() for call in calls if call.get("function")}
        called |= {name for calls in plan.values() for call in calls for name in call["meta"]["uses"]}
        needed = needed_cells(cells, called, self._given(assignment, released))
        if needed is None:
            return []
        return [c["index"] for c in cells if c["kind"] != "test" and c["index"] not in needed]

    # -- running jobs --------------------------------------------------------------------------------

    def _hide(self, extra: list[Path]) -> list[str]:
        return [str(p) for p in [REPO, self.out, *extra, Path("/root"), Path("/home"), Path("/srv")]]

    def _keep(self) -> list[str]:
        import attention_course

        keep = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(Path(attention_course.__file__).parent)}
        keep |= {p for p in sys.path if p and "site-packages" in p}
        return sorted(keep)

    def _start_jobs(self, events: queue.Queue) -> _Jobs:
        """Where jobs run: this machine's warm workers, or the Dask cluster. Results arrive on ``events``."""
        hide, keep = self._hide(self.extra_hide), self._keep()
        if self.scheduler:
            return _ClusterJobs(self.client, events, hide, keep)
        return _LocalJobs(self, events, hide, keep)

    def warm_up(self) -> None:
        """Start this machine's warm workers in the background (their imports overlap the set-up)."""
        if self.scheduler or self._starting:
            return
        def start():
            try:
                self._pool.put(self._zygote())
            except WorkerDied as error:  # the jobs that wait for it start their own, and report
                with self.lock:
                    self.warnings.append(f"a grading worker did not start: {error}")

        self._starting = [threading.Thread(target=start, daemon=True) for _ in range(self.workers)]
        for thread in self._starting:
            thread.start()

    def _take_zygote(self) -> Zygote | None:
        """A warm worker from the pool (waiting for one being started), or None to start one."""
        self.warm_up()
        try:
            zygote = self._pool.get(timeout=Zygote.START_TIMEOUT)
        except queue.Empty:
            return None
        return zygote if zygote.process.poll() is None else None

    def close(self) -> None:
        """Stop the warm workers."""
        for thread in self._starting:
            thread.join()
        while True:
            try:
                self._pool.get_nowait().close()
            except queue.Empty:
                break
        self._starting = []

    def _zygote(self) -> Zygote:
        zygote = Zygote(self.out / "workers.log", threads=max(1, default_workers() // self.workers))
        if zygote.isolation_problem:
            message = (f"WARNING: grading WITHOUT a sandbox: {zygote.isolation_problem}. Submitted code can "
                       "read and write what this user can.")
            with self.lock:
                if message not in self.warnings:
                    self.warnings.append(message)
                    print(message, file=sys.stderr, flush=True)
        return zygote

    # -- the class -----------------------------------------------------------------------------------

    def grade(self, submissions: Path, students: set[str] | None = None, only: set[str] | None = None) -> list[Result]:
        known = assignments()
        self.out.mkdir(parents=True, exist_ok=True)
        lock = open(self.out / ".grading.lock", "w")  # noqa: SIM115
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise SystemExit(f"another grading run is writing to {self.out}; wait for it to finish") from None
        try:
            with tempfile.TemporaryDirectory(prefix="attention-grade-") as tmp:
                folder = self._unpack(submissions, Path(tmp), known)
                self.extra_hide = [folder.resolve(), submissions.resolve()]
                return self._grade(folder, known, students, only)
        finally:
            self.close()
            fcntl.flock(lock, fcntl.LOCK_UN)
            lock.close()

    def _unpack(self, submissions: Path, tmp: Path, known: list[str]) -> Path:
        if submissions.is_file() and zipfile.is_zipfile(submissions):
            folder = _safe_extract(submissions, tmp / "unzipped")
            inner = [p for p in folder.iterdir() if not p.name.startswith(("__MACOSX", "."))]
            if len(inner) == 1 and inner[0].is_dir() and inner[0].name not in known \
                    and not find_submissions(folder, known):
                folder = inner[0]
            return folder
        if not submissions.is_dir():
            raise SystemExit(f"{submissions}: no such folder or zip file")
        return submissions

    def _fingerprint(self, data: bytes, assignment: str) -> str:
        """What a result depends on: the submission, the source notebook, the key and the limits."""
        if assignment not in self._source_bytes:  # read once a run, not once a submission
            self._source_bytes[assignment] = (SOLUTIONS / f"{assignment}.ipynb").read_bytes()
        return _digest(data, self._source_bytes[assignment], self.key_version.encode(),
                       json.dumps([self.limits, self.all_cells], sort_keys=True).encode())

    def _unchanged(self, student: str, assignment: str, fingerprint: str, previous: dict) -> bool:
        old = previous.get((student, assignment))
        feedback = self.out / "feedback" / student / f"{assignment}.html"
        return not self.force and bool(old) and old["fingerprint"] == fingerprint and feedback.is_file()

    def _anything_to_run(self, found, students, present, source_ids, previous) -> bool:
        for student in students:
            for assignment in present:
                chosen, _ = choose_notebook(found.get((student, assignment), []), assignment, source_ids[assignment])
                if chosen is not None and not self._unchanged(
                        student, assignment, self._fingerprint(chosen.read_bytes(), assignment), previous):
                    return True
        return False

    def _grade(self, folder: Path, known: list[str], students_wanted, only) -> list[Result]:
        """Grade every submission found, streaming: nbgrader's generate_assignment and the learning of
        missing plans run beside the grading of the assignments that are ready, and a worker never
        waits for the grader's bookkeeping of the previous result."""
        started = time.perf_counter()
        found = find_submissions(folder, known)
        students = sorted({s for s, _ in found if not students_wanted or s in students_wanted})
        present = sorted({a for _, a in found if not only or a in only}, key=known.index)
        self.course.mkdir(parents=True, exist_ok=True)
        open_gradebook(self.db_url)
        if self.scheduler:
            self.client = _connect(self.scheduler)
        previous = self._load_state()
        sources = {name: nbio.read(SOLUTIONS / f"{name}.ipynb") for name in present}
        source_ids = {name: nbio.grade_ids(sources[name]) for name in present}
        if self._anything_to_run(found, students, present, source_ids, previous):
            self.warm_up()  # the workers' imports overlap nbgrader's set-up
            threading.Thread(target=_preload, daemon=True).start()  # and so do ours
        plans, todo_plans, todo_generate, generated = self.set_up(present) if present else ({}, [], [], {})
        events: queue.Queue = queue.Queue()
        jobs = self._start_jobs(events)
        bar = tqdm(total=0, desc="grading", unit="notebook", disable=not self.progress, file=sys.stdout,
                   smoothing=0.1)
        results: dict[tuple[str, str], Result] = {}
        contexts: dict[tuple[str, str], tuple] = {}
        plan_files = dict(todo_plans)
        waiting = list(present)  # assignments whose submissions are not queued yet
        outstanding, ran, reused = 0, 0, 0
        generating = bool(todo_generate)

        if todo_generate:
            # One nbgrader process for several assignments ("*": every one in source/): its start-up
            # (imports, gradebook migration) costs more than generating a notebook.
            which = todo_generate[0][0] if len(todo_generate) == 1 else "*"
            threading.Thread(target=lambda: events.put(("generated", None, nbgrader(
                self.course, "generate_assignment", which, "--force", timeout=600))), daemon=True).start()
            outstanding += 1
        for name, _ in todo_plans:  # learnt first: their assignments' submissions wait for them
            jobs.submit(("plan", name), record_job(sources[name], self.limits, self.all_cells))
            outstanding += 1

        def queue_ready() -> None:
            """Queue the submissions of every assignment whose release and plan are ready."""
            nonlocal outstanding, ran, reused
            if generating:
                return  # the release and the gradebook's cells come from generate_assignment
            for assignment in [name for name in waiting if name in plans]:
                waiting.remove(assignment)
                released = nbio.read(self.course / "release" / assignment / f"{assignment}.ipynb")
                maxima = points(self.course, assignment)
                for student in students:
                    taken = self._intake(student, assignment, found, source_ids[assignment], previous,
                                         plans[assignment], released, maxima)
                    if isinstance(taken, Result):
                        results[(student, assignment)] = taken
                        reused += (student, assignment) in previous and taken.status not in ("missing", "invalid")
                        continue
                    job, contexts[(student, assignment)] = taken
                    jobs.submit(("grade", student, assignment), job)
                    outstanding += 1
                    ran += 1
                    bar.total += 1
                    bar.refresh()

        interrupted = False
        try:
            queue_ready()
            while outstanding:
                try:
                    kind, tag, payload = events.get(timeout=0.2)  # a timeout, so that Ctrl-C is heard
                except queue.Empty:
                    continue
                outstanding -= 1
                if kind == "generated":
                    code, output = payload
                    if code != 0:
                        names = ", ".join(name for name, _ in todo_generate)
                        raise SystemExit(f"could not prepare {names} from solutions/:\n{output[-2000:]}")
                    generated.update(dict(todo_generate))
                    (self.course / "generated.json").write_text(json.dumps(generated))
                    generating = False
                elif tag[0] == "plan":
                    name = tag[1]
                    try:
                        plans[name] = plan_from_records(sources[name], payload)
                    except RuntimeError as error:
                        raise SystemExit(f"could not learn the tests of {name} from solutions/: {error}") from None
                    plan_files[name].write_text(json.dumps(encode(plans[name])))
                else:
                    result, nb, found_tampering, fingerprint = contexts.pop(tag[1:])
                    self._record(result, nb, plans[result.assignment], payload, found_tampering)
                    results[tag[1:]] = result
                    self._save_state(tag[1:], fingerprint, result)
                    bar.update(1)
                queue_ready()
        except KeyboardInterrupt:
            interrupted = True
        finally:
            jobs.close()
            bar.close()
        ordered = sorted(results.values(), key=lambda r: (r.student, known.index(r.assignment)))
        write_csv(ordered, self.out / "grades.csv")
        self._summary(ordered, ran, reused, time.perf_counter() - started)
        for warning in self.warnings:  # again at the end, where it is read
            print(warning, file=sys.stderr, flush=True)
        if interrupted:
            raise KeyboardInterrupt
        return ordered

    def _intake(self, student: str, assignment: str, found, source_ids, previous, plan, released,
                maxima) -> Result | tuple[dict, tuple]:
        """One submission's intake: a final Result (missing, invalid, unchanged since the last run),
        or the job that runs it and what recording its outcome needs."""
        result = Result(student, assignment, f"{assignment}.ipynb", auto_max_score=maxima[0], max_score=maxima[1])
        candidates = found.get((student, assignment), [])
        chosen, note = choose_notebook(candidates, assignment, source_ids)
        if chosen is None:
            result.status = "missing"
            result.message = ("no notebook submitted" if not candidates else
                              f"none of {[p.name for p in candidates]} is {assignment}.ipynb")
            return result
        problem = validate(chosen)
        if problem:
            result.status, result.message = "invalid", f"{chosen.name}: {problem}"
            return result
        data = chosen.read_bytes()
        fingerprint = self._fingerprint(data, assignment)
        if self._unchanged(student, assignment, fingerprint, previous):
            return Result(**previous[(student, assignment)]["result"])
        result.message = note
        submitted = nbformat.reads(data.decode("utf-8"), as_version=4)
        found_tampering = tampering(submitted, released)
        try:
            to_run = self._sanitize(submitted, student, assignment)
        except Exception as error:
            result.status = "invalid"
            result.message = f"{chosen.name}: nbgrader could not read it ({type(error).__name__}: {error})"[:300]
            return result
        calls, blobs = self.encoded_plan(assignment, plan)
        cells = cells_of(to_run, calls)
        job = {"mode": "grade", "cells": cells, "limits": self.limits, "isolate": True,
               "notebook_name": f"{assignment}.ipynb", "notebook_text": nbio.dumps(submitted),
               "blob_arrays": blobs, "unneeded": self._unneeded(cells, plan, assignment, released)}
        return job, (result, to_run, found_tampering, fingerprint)

    def _sanitize(self, nb, student: str, assignment: str):
        """nbgrader's own intake preprocessors: locked and test cells restored from the gradebook."""
        from nbgrader.api import Gradebook
        from nbgrader.preprocessors import (
            CheckCellMetadata,
            ClearOutput,
            DeduplicateIds,
            OverwriteCells,
        )
        from traitlets.config import Config

        with Gradebook(self.db_url, COURSE_ID) as gradebook:
            gradebook.update_or_create_student(student)
            gradebook.update_or_create_submission(assignment, student)
        config = Config()
        config.OverwriteCells.add_missing_cells = True
        resources = {"nbgrader": {"notebook": assignment, "assignment": assignment, "student": student,
                                  "db_url": self.db_url}}
        nb = copy.deepcopy(nb)
        for preprocessor in (ClearOutput, DeduplicateIds, OverwriteCells, CheckCellMetadata):
            nb, resources = preprocessor(config=config).preprocess(nb, resources)
        return nb

    def _record(self, result: Result, nb, plan: dict, outcome: dict, found_tampering: list[str]) -> None:
        nb = copy.deepcopy(nb)
        status = outcome.get("status")
        if status == "failed" or (not outcome.get("cells") and status != "finished"):
            result.status = "failed"
            result.message = "; ".join(filter(None, [result.message, outcome.get("reason", "could not be run")]))
            result.score = result.auto_score = 0.0
            return
        timeouts, memory = [], False
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            ran = outcome["cells"].get(index) or outcome["cells"].get(str(index))
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("grade") and not meta.get("solution"):
                probes = outcome["probes"].get(index) or outcome["probes"].get(str(index)) or {}
                probes = {int(k): v for k, v in probes.items()}
                cell.outputs, _ = verdict_outputs(plan.get(meta["grade_id"], []), probes, self.key)
                if ran is None:
                    cell.outputs = [nbformat.v4.new_output("error", ename="NotRun", evalue="this test did not run: "
                                                           + (outcome.get("reason") or "the notebook stopped"),
                                                           traceback=[])]
            elif ran is not None:
                cell.outputs = [nbformat.from_dict(o) for o in ran.get("outputs", [])]
            if ran is not None:
                if any(o.get("ename") == "CellTimeoutError" for o in ran.get("outputs", [])):
                    timeouts.append(meta.get("grade_id") or f"cell {index}")
                memory = memory or bool(ran.get("memory_error"))
        nb = nbformat.from_dict(json.loads(json.dumps(nb)))
        resources = {"nbgrader": {"notebook": result.assignment, "assignment": result.assignment,
                                  "student": result.student, "db_url": self.db_url}}
        save_auto_grades(nb, resources)
        target = self.course / "autograded" / result.student / result.assignment / result.notebook
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(nbio.dumps(nb), encoding="utf-8")
        scores = _scores(self.db_url, result.assignment, result.student)
        result.score, result.auto_score = float(scores["score"]), float(scores["auto_score"])
        result.needs_manual_grading = scores["needs_manual_grading"]
        notes = []
        if outcome.get("skipped"):
            notes += [f"cell {k} was skipped, the rest graded: {v}" for k, v in outcome["skipped"].items()]
        if timeouts:
            notes.append(f"ran past the {self.limits['cell_timeout']} s limit and stopped: {', '.join(timeouts)}")
        if memory or outcome.get("oom"):
            notes.append(f"ran out of memory (cap {self.limits['memory'] / 2**30:g} GiB)")
        if status == "timeout" and not outcome.get("skipped"):
            notes.append(outcome.get("reason", "ran past the time limit"))
        if outcome.get("errors"):
            notes.append("sandbox: " + "; ".join(outcome["errors"])[:200])
        if found_tampering:
            result.status = "tampered"
            notes.append("tampered: " + "; ".join(found_tampering)[:400])
        result.message = "; ".join(filter(None, [result.message, *notes]))
        self._feedback(nb, result, found_tampering, len(outcome.get("unneeded") or []))

    def _feedback(self, nb, result: Result, found_tampering: list[str], unneeded: int = 0) -> None:
        """Feedback HTML as nbgrader's generate_feedback makes it, without the hidden tests."""
        from nbgrader.preprocessors import GetGrades

        from .feedback import FeedbackExporter, HideHiddenTests

        if self._exporter is None:
            self._exporter = FeedbackExporter()
            self._exporter.exclude_input_prompt = False
        exporter = self._exporter
        nb = copy.deepcopy(nb)
        if found_tampering:
            nb.cells.insert(0, nbformat.v4.new_markdown_cell(
                "**Grader's note: this submission changed protected cells or patched names the tests use.** "
                "Those changes were undone before grading: " + "; ".join(found_tampering)))
        if unneeded:
            nb.cells.insert(0, nbformat.v4.new_markdown_cell(
                f"*Grader's note: {unneeded} cell(s) that no graded function depends on (demonstrations, "
                "plots) were not run again for grading, so they show no output here; your own run shows "
                "them. Your score does not depend on them.*"))
        resources = {"nbgrader": {"notebook": result.assignment, "assignment": result.assignment,
                                  "student": result.student, "db_url": self.db_url}}
        nb, resources = GetGrades().preprocess(nb, resources)
        nb, resources = HideHiddenTests().preprocess(nb, resources)
        html, _ = exporter.from_notebook_node(nb, resources=resources)
        target = self.out / "feedback" / result.student / f"{result.assignment}.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(html, encoding="utf-8")

    # -- state ---------------------------------------------------------------------------------------

    def _load_state(self) -> dict:
        state = {}
        if self.state_path.is_file():
            for line in self.state_path.read_text(encoding="utf-8").splitlines():
                with contextlib.suppress(ValueError, KeyError):
                    entry = json.loads(line)
                    state[(entry["result"]["student"], entry["result"]["assignment"])] = entry
        return state

    def _save_state(self, tag, fingerprint: str, result: Result) -> None:
        line = json.dumps({"fingerprint": fingerprint, "result": asdict(result)}) + "\n"
        with open(self.state_path, "a", encoding="utf-8") as handle:
            handle.write(line)
            handle.flush()
            os.fsync(handle.fileno())

    def _summary(self, results: list[Result], ran: int, reused: int, seconds: float) -> None:
        if not self.progress:
            return
        counts = {}
        for r in results:
            counts[r.status] = counts.get(r.status, 0) + 1
        per = f", {seconds / ran:.2f} s a notebook" if ran else ""
        print(f"graded {ran} notebook(s) in {seconds:.1f} s{per}; {reused} unchanged and not regraded; "
              + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())), flush=True)


def _preload() -> None:
    """Import what recording a result needs (nbgrader's preprocessors, the feedback exporter,
    PyTorch for notebook 07's key) while the workers warm up, not when the first result is waiting."""
    import importlib

    for name in ("nbgrader.preprocessors", "autograder.feedback", "torch"):
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


def save_auto_grades(nb, resources: dict) -> None:
    """nbgrader's ``SaveAutoGrades``, in one transaction: the same rows, but one commit per notebook
    instead of one per cell (each commit waits for the disk), and a notebook's grades are stored
    whole or not at all."""
    from nbgrader.api import Gradebook
    from nbgrader.preprocessors import NbGraderPreprocessor, SaveAutoGrades

    class OneCommit(SaveAutoGrades):
        def preprocess(self, nb, resources):  # SaveAutoGrades.preprocess, with the commits deferred
            info = resources["nbgrader"]
            self.notebook_id, self.assignment_id = info["notebook"], info["assignment"]
            self.student_id, self.db_url = info["student"], info["db_url"]
            self.gradebook = Gradebook(self.db_url)
            with self.gradebook:
                session = self.gradebook.db
                session.commit = session.flush  # the cells' commits only send their rows
                try:
                    nb, resources = NbGraderPreprocessor.preprocess(self, nb, resources)
                finally:
                    del session.commit
                session.commit()
            return nb, resources

    OneCommit().preprocess(nb, resources)


def _scores(db_url: str, assignment: str, student: str) -> dict:
    from nbgrader.api import Gradebook

    with Gradebook(db_url, COURSE_ID) as gradebook:
        nb = gradebook.find_submission_notebook(assignment, assignment, student)
        return {"score": nb.score, "auto_score": nb.code_score, "needs_manual_grading": bool(nb.needs_manual_grade)}


def _connect(address: str):
    try:
        from distributed import Client

        return Client(address, timeout="10s")
    except Exception as error:
        raise SystemExit(f"cannot reach the Dask scheduler at {address}: {type(error).__name__}: "
                         f"{str(error).splitlines()[0][:200] if str(error) else ''}") from None


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def limits(cell_timeout: float = 30, notebook_timeout: float = 600, memory_gib: float = 4,
           max_processes: int = 256) -> dict:
    return {"cell_timeout": cell_timeout, "notebook_timeout": notebook_timeout,
            "memory": int(memory_gib * 2**30), "max_processes": max_processes, "tmp_size": "512m"}


def grade(submissions: Path, out: Path, db_url: str | None = None, cell_timeout: int = 30,
          notebook_timeout: int = 600, progress: bool = True, workers: int | None = None,
          scheduler: str | None = None, memory_gib: float = 4, force: bool = False,
          students: set[str] | None = None, only: set[str] | None = None, all_cells: bool = False) -> list[Result]:
    grader = Grader(Path(out), db_url, limits(cell_timeout, notebook_timeout, memory_gib),
                    workers or default_workers(), scheduler, progress, force, all_cells)
    return grader.grade(Path(submissions), students, only)

