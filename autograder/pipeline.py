"""Grading a class, stage by stage. Each stage is a module of its own:

1. **intake** (:mod:`.intake`): find each student's notebook, refuse broken ones;
2. **sanitise** (:mod:`.sanitise`): note tampering; restore locked and test cells (nbgrader's own
   ``OverwriteCells``);
3. **plan** (:mod:`.plans`): each test cell's checks, learnt from the source notebook before any
   submission runs, and refused when a test has no checks;
4. **run** (:mod:`.run`, :mod:`.dispatch`): the submission's cells in a sandbox driven by the grader,
   on this machine's warm workers or a Dask cluster;
5. **verdict** (:mod:`.verdict`): each check judged with the answer key, in this process;
6. **record** and **feedback** (:mod:`.record`, :mod:`.feedback`): the gradebook's rows (nbgrader's
   ``SaveAutoGrades``), the autograded notebook, the learner's page;
7. **state** (:mod:`.state`): what the next run may skip, and ``grades.csv`` from the gradebook.
"""

from __future__ import annotations

import fcntl
import json
import queue
import sys
import tempfile
import threading
import time
import zipfile
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

import nbformat
from tqdm import tqdm

from . import NOTEBOOKS, SOLUTIONS, checks_csv, checks_db, plans
from . import notebooks as nbio
from .course import assignments, course_id, make_course, nbgrader
from .dispatch import DaskExecutor, LocalExecutor, default_workers
from .intake import _safe_extract, choose_notebook, find_submissions, points, validate
from .record import Destination, record
from .records import Job, Limits, Options, Result
from .sanitise import restored, tampering
from .state import State, with_gradebook_scores, write_csv


def open_gradebook(db_url: str, course: str) -> None:
    """Fail fast, with the URL (password masked), when the gradebook cannot be opened."""
    from nbgrader.api import Gradebook
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    try:
        with Gradebook(db_url, course):
            pass
    except (SQLAlchemyError, OSError, ValueError) as error:
        shown = make_url(db_url).render_as_string(hide_password=True) if "://" in db_url else db_url
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise SystemExit(f"cannot open the gradebook {shown}: {first[:300]}") from None


@contextmanager
def exclusive(out: Path):
    """Only one run writes to an output folder at a time."""
    out.mkdir(parents=True, exist_ok=True)
    with open(out / ".grading.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise SystemExit(f"another grading run is writing to {out}; wait for it to finish") from None
        yield


@contextmanager
def unpacked(submissions: Path, known: list[str]):
    """The class as a folder: the folder itself, or a zip extracted to a temporary one."""
    if submissions.is_file() and zipfile.is_zipfile(submissions):
        with tempfile.TemporaryDirectory(prefix="attention-grade-") as tmp:
            folder = _safe_extract(submissions, Path(tmp) / "unzipped")
            inner = [p for p in folder.iterdir() if not p.name.startswith(("__MACOSX", "."))]
            if len(inner) == 1 and inner[0].is_dir() and inner[0].name not in known \
                    and not find_submissions(folder, known):
                folder = inner[0]
            yield folder
        return
    if not submissions.is_dir():
        raise SystemExit(f"{submissions}: no such folder or zip file")
    yield submissions


class Grader:
    """One grading run's context: the options, the course directory, the key, the workers."""

    def __init__(self, options: Options, executor=None):
        """``executor``: warm workers to run the jobs on, kept open after the run (a test session's); by
        default the run starts its own (this machine's, or the Dask cluster's) and closes them."""
        from .key import ComputedKey

        self.options = options
        self.shared_executor = executor
        self.out = options.out.resolve()
        self.course = self.out / "course"
        self.db_url = options.db_url or f"sqlite:///{self.course / 'gradebook.db'}"
        self.course_id = course_id()
        self.limits = options.limits
        self.warnings: list[str] = []
        self.where = Destination(self.course, self.out / "feedback", self.db_url, self.course_id, self.limits,
                                 ComputedKey())
        self.state = State(self.out, json.dumps([asdict(self.limits), options.all_cells]).encode())

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)
            print(message, file=sys.stderr, flush=True)

    # -- stage 3: the course and its plans, before any submission runs -------------------------------

    def prepare(self, present: list[str], executor) -> tuple[dict[str, dict], dict[str, str]]:
        """The course directory (nbgrader's generate_assignment) and every present assignment's plan;
        returns (plans, {assignment: why it cannot be graded})."""
        self.course.mkdir(parents=True, exist_ok=True)
        make_course(self.course, self.db_url, only=present)
        with open(self.course / "nbgrader_config.py", "a", encoding="utf-8") as config:
            config.write(f"c.Execute.timeout = {int(self.limits.cell_timeout)}\n")
        generating = threading.Thread(target=self._generate, args=(present,), daemon=True)
        generating.start()
        cache = self.course / "plans"
        cache.mkdir(exist_ok=True)
        found, failed, learning = {}, {}, {}
        for name in present:
            source = nbio.read(SOLUTIONS / f"{name}.ipynb")
            path = cache / f"{name}-{self.state.fingerprint(b'plan', name)[:16]}.json"
            plan = plans.cached(path) or plans.stored(name)
            if plan is None:
                learning[name] = (source, path, executor.submit(plans.record_job(source, Limits(cell_timeout=120))))
            else:
                found[name] = plan
        for name, (source, path, future) in learning.items():
            try:
                found[name] = plans.from_records(source, future.result())
                plans.save(found[name], path)
            except plans.PlanError as error:
                failed[name] = f"its tests could not be learnt from solutions/: {error}"[:500]
        for name in list(found):
            try:
                plans.validate(nbio.read(SOLUTIONS / f"{name}.ipynb"), found[name])
            except plans.PlanError as error:
                failed[name] = f"it cannot be graded safely: {error}"[:500]
                del found[name]
        generating.join()
        if self.generation_error:
            raise SystemExit(self.generation_error)
        return found, failed

    def _generate(self, present: list[str]) -> None:
        """nbgrader's generate_assignment for the assignments whose source changed (one process)."""
        self.generation_error = None
        stamps = self.course / "generated.json"
        generated = json.loads(stamps.read_text()) if stamps.is_file() else {}
        todo = {name: self.state.fingerprint(self.db_url.encode(), name) for name in present}
        todo = {name: stamp for name, stamp in todo.items() if generated.get(name) != stamp
                or not (self.course / "release" / name / f"{name}.ipynb").is_file()}
        if not todo:
            return
        code, output = nbgrader(self.course, "generate_assignment", next(iter(todo)) if len(todo) == 1 else "*",
                                "--force", timeout=600)
        if code != 0:
            self.generation_error = f"could not prepare {', '.join(todo)} from solutions/:\n{output[-2000:]}"
            return
        stamps.write_text(json.dumps({**generated, **todo}))

    # -- stages 1 and 2: one submission's intake ------------------------------------------------------

    def intake(self, student: str, assignment: str, candidates: list[Path], plan: dict,
               released: nbformat.NotebookNode, maxima: tuple[float, float]) -> Result | tuple[Job, dict]:
        """A final Result (missing, invalid, unchanged since the last run), or the job that runs the
        submission and what recording its outcome needs."""
        result = Result(student, assignment, f"{assignment}.ipynb", auto_max_score=maxima[0], max_score=maxima[1])
        chosen, note = choose_notebook(candidates, assignment, nbio.grade_ids(released))
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
        fingerprint = self.state.fingerprint(data, assignment)
        if not self.options.force and (previous := self.state.unchanged(student, assignment, fingerprint)):
            return previous
        result.message = note
        submitted = nbformat.reads(data.decode("utf-8"), as_version=4)
        found_tampering = tampering(submitted, released)
        try:
            to_run = restored(submitted, student, assignment, self.db_url, self.course_id)
        except (KeyError, ValueError, TypeError, AttributeError) as error:
            result.status = "invalid"
            result.message = f"{chosen.name}: nbgrader could not read it ({type(error).__name__}: {error})"[:300]
            return result
        cells = plans.cells_of(to_run, grading=True)
        checks = {cell.index: plan.get(cell.grade_id, []) for cell in cells if cell.kind == "test"}
        job = Job("grade", cells, self.limits, checks, self._unneeded(cells, plan, assignment, released),
                  f"{assignment}.ipynb", nbio.dumps(submitted))
        return job, {"result": result, "notebook": to_run, "tampering": found_tampering,
                     "fingerprint": fingerprint}

    def _unneeded(self, cells, plan: dict, assignment: str, released) -> frozenset[int]:
        """The cells grading may skip; none with ``--all-cells``."""
        if self.options.all_cells:
            return frozenset()
        given = {c.source for c in released.cells if c.cell_type == "code"}
        learner = NOTEBOOKS / f"{assignment}.ipynb"
        if learner.is_file():  # the learner copy adds the Colab cell
            given |= {c.source for c in nbio.read(learner).cells if c.cell_type == "code"}
        return plans.skippable(cells, plan, given)

    # -- the class ---------------------------------------------------------------------------------

    def grade(self, submissions: Path) -> list[Result]:
        known = assignments()
        with exclusive(self.out), unpacked(Path(submissions), known) as folder:
            found = find_submissions(folder, known)
            students = sorted({s for s, _ in found if not self.options.students or s in self.options.students})
            present = sorted({a for _, a in found if not self.options.assignments or a in self.options.assignments},
                             key=known.index)
            self.course.mkdir(parents=True, exist_ok=True)
            open_gradebook(self.db_url, self.course_id)
            executor = self.shared_executor or self._executor()
            try:
                results = self._grade(found, students, present, executor)
            finally:
                if executor is not self.shared_executor:
                    executor.close()
        everyone = sorted(with_gradebook_scores(self.state.results(), self.db_url, self.course_id),
                          key=lambda r: (r.student, known.index(r.assignment) if r.assignment in known else 0))
        write_csv(everyone, self.out / "grades.csv")
        for warning in self.warnings:  # again at the end, where it is read
            print(warning, file=sys.stderr, flush=True)
        return results

    def _executor(self):
        if self.options.scheduler:
            return DaskExecutor(self.options.scheduler)
        return LocalExecutor(self.options.workers or default_workers(), self.out / "workers.log", self.warn)

    def _grade(self, found: dict, students: list[str], present: list[str], executor) -> list[Result]:
        started = time.perf_counter()
        known = assignments()
        plans_found, unplanned = self.prepare(present, executor) if present else ({}, {})
        results: dict[tuple[str, str], Result] = {}
        done: queue.Queue = queue.Queue()
        pending: dict[tuple[str, str], dict] = {}
        for assignment in present:
            released = nbio.read(self.course / "release" / assignment / f"{assignment}.ipynb")
            maxima = points(self.course, assignment)
            for student in students:
                if assignment in unplanned:
                    submitted = bool(found.get((student, assignment)))
                    results[(student, assignment)] = Result(
                        student, assignment, f"{assignment}.ipynb", 0, maxima[1], 0, maxima[0], False,
                        "failed" if submitted else "missing",
                        unplanned[assignment] if submitted else "no notebook submitted")
                    continue
                taken = self.intake(student, assignment, found.get((student, assignment), []),
                                    plans_found[assignment], released, maxima)
                if isinstance(taken, Result):
                    results[(student, assignment)] = taken
                    continue
                job, pending[(student, assignment)] = taken
                executor.submit(job).add_done_callback(lambda f, tag=(student, assignment): done.put((tag, f)))
        bar = tqdm(total=len(pending), desc="grading", unit="notebook", disable=not self.options.progress,
                   file=sys.stdout, smoothing=0.1)
        for tag, result in results.items():  # not run: missing, invalid, or unchanged since the last run
            if self.state.previous.get(tag, {}).get("result") != asdict(result):
                self.state.save("", result)
        rows, recorded = [], set()
        grading_started = time.perf_counter()
        try:
            for _ in range(len(pending)):
                tag, future = done.get()
                recorded.add(tag)
                context = pending.pop(tag)
                result = context["result"]
                rows += record(context["notebook"], plans_found[tag[1]], future.result(), result,
                               context["tampering"], self.where)
                self.state.save(context["fingerprint"], result)
                results[tag] = result
                bar.update(1)
        finally:
            bar.close()
            # the check rows of every submission graded now, or with nothing to grade, are replaced
            regraded = recorded | {tag for tag, r in results.items() if r.status in ("missing", "invalid", "failed")}
            checks_csv.update(rows, self.out / "checks.csv", regraded)
            checks_db.store(rows, self.db_url, self.course_id, regraded)
        ordered = sorted(results.values(), key=lambda r: (r.student, known.index(r.assignment)))
        self._summary(ordered, bar.n, time.perf_counter() - grading_started, time.perf_counter() - started)
        return ordered

    def _summary(self, results: list[Result], ran: int, grading: float, total: float) -> None:
        if not self.options.progress:
            return
        counts: dict[str, int] = {}
        for r in results:
            counts[r.status] = counts.get(r.status, 0) + 1
        per = f", {grading / ran:.2f} s a notebook" if ran else ""
        print(f"graded {ran} notebook(s) in {total:.1f} s{per}; {len(results) - ran} not regraded; "
              + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())), flush=True)


def grade(submissions: Path, out: Path, db_url: str | None = None, cell_timeout: int = 30,
          notebook_timeout: int = 600, progress: bool = True, workers: int | None = None,
          scheduler: str | None = None, memory_gib: float = 4, force: bool = False,
          students: set[str] | None = None, only: set[str] | None = None, all_cells: bool = False,
          executor=None) -> list[Result]:
    limits = Limits(cell_timeout=float(cell_timeout), notebook_timeout=float(notebook_timeout),
                    memory=int(memory_gib * 2**30))
    options = Options(Path(out), db_url, limits, workers or 0, scheduler, progress, force, all_cells,
                      frozenset(students or ()), frozenset(only or ()))
    return Grader(options, executor).grade(Path(submissions))
