"""Grading a class, stage by stage. Each stage is a module of its own:

1. **intake** (:mod:`.intake`): find each student's notebook, refuse broken ones;
2. **sanitise** (:mod:`.sanitise`): note tampering; restore locked and test cells (nbgrader's own
   ``OverwriteCells``);
3. **plan** (:mod:`.prepare`, :mod:`.plans`): the course directory, and each test cell's checks, learnt
   from the source notebook before any submission runs, and refused when a test has no checks;
4. **run** (:mod:`.run`, :mod:`.dispatch`): the submission's cells in a sandbox driven by the grader,
   on this machine's warm workers or a Dask cluster;
5. **verdict** (:mod:`.verdict`): each check judged with the answer key, in this process;
6. **record** and **feedback** (:mod:`.record`, :mod:`.feedback`): the gradebook's rows (nbgrader's
   ``SaveAutoGrades``), the autograded notebook, the learner's page;
7. **state** (:mod:`.state`): what the next run may skip; then ``grades.csv`` for the whole class
   from the gradebook (:mod:`.grades`), and a summary per assignment of what is left to do
   (:mod:`.summary`).
"""

from __future__ import annotations

import json
import queue
import sys
import time
from dataclasses import asdict
from pathlib import Path

import nbformat
from tqdm import tqdm

from . import NOTEBOOKS, checks_csv, checks_db, plans
from . import notebooks as nbio
from .course import assignments, course_id
from .dispatch import open_executor
from .feedback import install_mathjax
from .grades import scored_in_class_order, write_csv
from .intake import (
    Catalogue,
    Found,
    choose,
    find_submissions,
    nothing_found,
    points,
    unpacked,
    validate,
)
from .prepare import prepare
from .record import Destination, record
from .records import Job, Limits, Options, Result, Submission
from .sanitise import restored_or_why, tampering
from .state import State, exclusive
from .summary import print_summary


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


def _result(student: str, assignment: str, maxima: tuple[float, float], **fields) -> Result:
    """A submission's row before grading: its maxima (auto-graded, in all) and ``fields``."""
    return Result(student, assignment, f"{assignment}.ipynb", auto_max_score=maxima[0], max_score=maxima[1],
                  manual_max_score=maxima[1] - maxima[0], **fields)


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
        self.catalogue = Catalogue(assignments())
        self.lines: list[str] = []  # files and folders of the submissions that became no row
        self.timing = {"set-up": 0.0, "notebooks": 0.0, "unchanged": 0}

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)
            print(message, file=sys.stderr, flush=True)

    # -- stages 1 and 2: one submission's intake ------------------------------------------------------

    def intake(self, student: str, assignment: str, candidates: list[Submission], about: list[str],
               plan: dict, released: nbformat.NotebookNode,
               maxima: tuple[float, float]) -> Result | tuple[Job, dict]:
        """A final Result (missing, invalid, unchanged since the last run), or the job that runs the
        submission and what recording its outcome needs."""
        result = _result(student, assignment, maxima)
        chosen, note = choose(candidates, assignment)
        if chosen is None:
            result.status = "missing"
            result.message = "; ".join([note or "no notebook submitted", *about])
            return result
        problem = validate(chosen.path)
        if problem:
            result.status, result.message = "invalid", "; ".join(filter(None, [f"{chosen.path.name}: {problem}", note]))
            return result
        data = chosen.path.read_bytes()
        fingerprint = self.state.fingerprint(data, assignment)
        if not self.options.force and (previous := self.state.unchanged(student, assignment, fingerprint)):
            self.timing["unchanged"] += 1
            return previous
        result.message = note
        submitted = nbformat.reads(data.decode("utf-8"), as_version=4)
        found_tampering = tampering(submitted, released)
        to_run = restored_or_why(submitted, chosen.path, student, assignment, self.db_url, self.course_id,
                                 self.catalogue)
        if isinstance(to_run, str):
            result.status, result.message = "invalid", to_run
            return result
        cells = plans.cells_of(to_run, grading=True)
        checks = {cell.index: plan.get(cell.grade_id, []) for cell in cells if cell.kind == "test"}
        job = Job("grade", cells, self.limits, checks, frozenset() if self.options.all_cells else
                  plans.skippable_in(cells, plan, released, NOTEBOOKS / f"{assignment}.ipynb"),
                  f"{assignment}.ipynb", nbio.dumps(submitted))
        return job, {"result": result, "notebook": to_run, "tampering": found_tampering,
                     "fingerprint": fingerprint, "submitted": chosen.path}

    # -- the class ---------------------------------------------------------------------------------

    def grade(self, submissions: Path) -> list[Result]:
        known = assignments()
        with exclusive(self.out), unpacked(Path(submissions)) as folder:
            found = find_submissions(folder, known, self.catalogue)
            self.lines = list(found.lines)
            if not found.submissions:
                raise SystemExit(nothing_found(submissions, found))
            students = sorted(s for s in found.students if not self.options.students or s in self.options.students)
            present = sorted((a for a in found.assignments()
                              if not self.options.assignments or a in self.options.assignments), key=known.index)
            self.course.mkdir(parents=True, exist_ok=True)
            open_gradebook(self.db_url, self.course_id)
            install_mathjax(self.out / "feedback")
            executor = self.shared_executor or open_executor(self.options.scheduler, self.options.workers,
                                                             self.out / "workers.log", self.warn)
            try:
                results = self._grade(found, students, present, executor)
            finally:
                if executor is not self.shared_executor:
                    executor.close()
            everyone = scored_in_class_order(self.state.results(), self.db_url, self.course_id)
            write_csv(everyone, self.out / "grades.csv")
        scored = {(r.student, r.assignment): r for r in everyone}  # this run's rows are among the class's
        results = [scored[(r.student, r.assignment)] for r in results]
        if self.options.progress:
            print_summary(results, everyone, present, self.timing, self.lines, self.db_url, self.course_id,
                          self.options.out)
        for warning in self.warnings:  # again at the end, where it is read
            print(warning, file=sys.stderr, flush=True)
        return results

    def _grade(self, found: Found, students: list[str], present: list[str], executor) -> list[Result]:
        started = time.perf_counter()
        known = assignments()
        plans_found, unplanned = (prepare(self.out, self.db_url, self.limits, self.state, present, executor)
                                  if present else ({}, {}))
        self.timing["set-up"] = time.perf_counter() - started
        results: dict[tuple[str, str], Result] = {}
        done: queue.Queue = queue.Queue()
        pending: dict[tuple[str, str], dict] = {}
        for assignment in present:
            released = nbio.read(self.course / "release" / assignment / f"{assignment}.ipynb")
            maxima = points(self.course, assignment)
            for student in students:
                candidates = found.submissions.get((student, assignment), [])
                if assignment in unplanned:
                    results[(student, assignment)] = _result(
                        student, assignment, maxima, status="failed" if candidates else "missing",
                        message=unplanned[assignment] if candidates else "no notebook submitted")
                    continue
                taken = self.intake(student, assignment, candidates, found.about.get((student, assignment), []),
                                    plans_found[assignment], released, maxima)
                if isinstance(taken, Result):
                    results[(student, assignment)] = taken
                    continue
                job, pending[(student, assignment)] = taken
                executor.submit(job).add_done_callback(lambda f, tag=(student, assignment): done.put((tag, f)))
        bar = tqdm(total=len(pending), desc="grading", unit="notebook", disable=not self.options.progress,
                   file=sys.stdout, smoothing=0.1)
        self.state.save_changed(list(results.values()))  # not run: missing, invalid, unchanged
        rows, recorded = [], set()
        try:
            for _ in range(len(pending)):
                tag, future = done.get()
                recorded.add(tag)
                context = pending.pop(tag)
                result, outcome = context["result"], future.result()
                recording = time.perf_counter()
                rows += record(context["notebook"], plans_found[tag[1]], outcome, result,
                               context["tampering"], self.where, context["submitted"])
                self.state.save(context["fingerprint"], result)
                self.timing["notebooks"] += outcome.seconds + time.perf_counter() - recording
                results[tag] = result
                bar.update(1)
        finally:
            bar.close()
            # the check rows of every submission graded now, or with nothing to grade, are replaced
            regraded = recorded | {tag for tag, r in results.items() if r.status in ("missing", "invalid", "failed")}
            checks_csv.update(rows, self.out / "checks.csv", regraded)
            checks_db.store(rows, self.db_url, self.course_id, regraded)
        self.timing.update(ran=bar.n, total=time.perf_counter() - started)
        return sorted(results.values(), key=lambda r: (r.student, known.index(r.assignment)))


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
