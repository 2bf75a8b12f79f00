"""The record stage: a graded submission's outputs, grades and files, written where nbgrader keeps them.

The sanitised notebook gets each cell's outputs from the sandboxed run and each test cell the
verdict's outputs; nbgrader's own ``SaveAutoGrades`` stores the scores in the gradebook (through
its public preprocessor). What the formgrader needs goes where nbgrader keeps it: the submitted
notebook and its time in ``course/submitted/`` (and the same time in the gradebook: the formgrader
counts a submission as autograded when the two agree), the autograded notebook in
``course/autograded/``, with the model answer and rubric of each written answer in a cell after it,
for the grader. The feedback page goes to ``feedback/``.

A grade given by hand survives a regrade of the same answer: nbgrader's ``SaveAutoGrades`` keeps a
manual score but flags it for review again; where the written answer is the one that was graded
(its text in the previous autograded notebook), the flag is put back as it was, so a forced regrade
of an unchanged submission keeps its manual grade, its comment and its "graded" state.
"""

from __future__ import annotations

import datetime
import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from . import notebooks as nbio
from .feedback import METADATA, FeedbackExporter, page_of
from .plans import is_test
from .records import CheckRow, JobResult, Limits, Result
from .verdict import judge_cell


@dataclass
class Recorded:
    notebook: nbformat.NotebookNode
    notes: list[str] = field(default_factory=list)
    rows: list[CheckRow] = field(default_factory=list)


def fill_outputs(nb, plan: dict, outcome: JobResult, key, result: Result, limits: Limits) -> Recorded:
    """The notebook with every cell's outputs: the run's, and the verdict's for test cells."""
    nb = nbformat.from_dict(json.loads(json.dumps(nb)))
    for index, cell in enumerate(nb.cells):  # a cell nbgrader put back (deleted by the learner) has no id
        if not cell.get("id"):
            name = re.sub(r"[^A-Za-z0-9_-]", "-", str(cell.metadata.get("nbgrader", {}).get("grade_id") or index))
            cell.id = f"restored-{name}"[:64]
    recorded = Recorded(nb)
    timeouts, memory = [], False
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        ran = outcome.cells.get(index)
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if is_test(cell):
            verdict = judge_cell(plan.get(grade_id, []), outcome.outcomes.get(index), key, result.student,
                                 result.assignment, grade_id)
            cell.outputs = [nbformat.from_dict(o) for o in verdict.outputs]
            recorded.rows += verdict.rows
            if ran is None:
                cell.outputs = [nbformat.v4.new_output("error", ename="NotRun", evalue="this test did not run: "
                                                       + (outcome.reason or "the notebook stopped"), traceback=[])]
        elif ran is not None:
            cell.outputs = [nbformat.from_dict(o) for o in ran.outputs]
        if ran is not None:
            if ran.timed_out:
                timeouts.append(grade_id or f"cell {index}")
            memory = memory or ran.memory_error
    if outcome.skipped:
        recorded.notes += [f"cell {k} was skipped, the rest graded: {v}" for k, v in outcome.skipped.items()]
    if timeouts:
        recorded.notes.append(f"ran past the {limits.cell_timeout:g} s limit and stopped: {', '.join(timeouts)}")
    if memory or outcome.oom:
        recorded.notes.append(f"ran out of memory (cap {limits.memory / 2**30:g} GiB)")
    if outcome.status == "timeout" and not outcome.skipped:
        recorded.notes.append(outcome.reason or "ran past the time limit")
    return recorded


def save_grades(nb, resources: dict) -> None:
    """nbgrader's ``SaveAutoGrades``: the scores of the test cells and the written answers' state."""
    from nbgrader.preprocessors import SaveAutoGrades

    SaveAutoGrades().preprocess(nb, resources)


def _answers(nb) -> dict[str, str]:
    """{grade_id: source} of a notebook's graded answer cells (written answers, graded code)."""
    return {cell.metadata["nbgrader"]["grade_id"]: cell.source for cell in nb.cells
            if cell.metadata.get("nbgrader", {}).get("solution") and cell.metadata["nbgrader"].get("grade")}


def graded_by_hand(db_url: str, course_id: str, student: str, assignment: str) -> dict[str, bool]:
    """{grade_id: its review flag} of every grade given by hand in a submission (none if new)."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(db_url, course_id) as gradebook:
        try:
            nb = gradebook.find_submission_notebook(assignment, assignment, student)
        except MissingEntry:
            return {}
        return {grade.name: bool(grade.needs_manual_grade) for grade in nb.grades if grade.manual_score is not None}


def submitted_time(path: Path) -> str:
    """A submitted file's time (when it was last written) as nbgrader writes ``timestamp.txt``."""
    moment = datetime.datetime.fromtimestamp(path.stat().st_mtime, tz=datetime.timezone.utc)
    return moment.strftime("%Y-%m-%d %H:%M:%S.%f %Z")


def keep_submitted(course: Path, result: Result, submitted: Path) -> str:
    """The submitted notebook and its time in ``course/submitted/``, where the formgrader looks for them
    (nbgrader's ``get_submitted_students``, ``get_autograded_students``); returns the time."""
    folder = course / "submitted" / result.student / result.assignment
    folder.mkdir(parents=True, exist_ok=True)
    (folder / result.notebook).write_bytes(submitted.read_bytes())
    when = submitted_time(submitted)
    (folder / "timestamp.txt").write_text(when, encoding="utf-8")
    return when


def settle(db_url: str, course_id: str, result: Result, kept: dict[str, bool], when: str | None) -> dict:
    """After ``SaveAutoGrades``, in one gradebook session: each grade given by hand to an answer that did
    not change gets its review flag back (``kept``: SaveAutoGrades sets it on every manual grade); the
    submission gets the time of ``course/submitted/`` (the formgrader shows a submission autograded when
    the two agree). Returns nbgrader's dict of the notebook's scores (``SubmittedNotebook.to_dict``)."""
    from nbgrader.api import Gradebook

    student, assignment = result.student, result.assignment
    with Gradebook(db_url, course_id) as gradebook:
        for grade_id, flag in kept.items():
            gradebook.find_grade(grade_id, assignment, assignment, student).needs_manual_grade = flag
        gradebook.db.commit()
        if when is not None:
            gradebook.update_or_create_submission(assignment, student, timestamp=when)
        return gradebook.find_submission_notebook(assignment, assignment, student).to_dict()


@functools.lru_cache(maxsize=64)
def _model_answers(source: Path, modified: int) -> dict[str, str]:
    """{grade_id: source} of the written answers of a source notebook: each model answer and rubric."""
    nb = nbio.read(source)
    return {cell.metadata["nbgrader"]["grade_id"]: cell.source for cell in nb.cells
            if cell.cell_type == "markdown" and cell.metadata.get("nbgrader", {}).get("solution")
            and cell.metadata["nbgrader"].get("grade")}


def with_rubrics(nb, source: Path):
    """The notebook with, after each written answer, a cell for the grader holding its model answer and
    rubric from the source notebook (the formgrader shows it beside the answer; feedback leaves it out)."""
    answers = _model_answers(source, source.stat().st_mtime_ns)
    cells = []
    for cell in nb.cells:
        cells.append(cell)
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell.cell_type == "markdown" and grade_id in answers:
            quoted = "\n".join(f"> {line}" if line else ">" for line in answers[grade_id].splitlines())
            text = (f"**For the grader: the model answer and rubric of `{grade_id}`** (from the source "
                    f"notebook; the learner's feedback leaves this cell out)\n\n{quoted}")
            rubric = nbformat.v4.new_markdown_cell(text, id=f"for-the-grader-{grade_id}"[:64])
            rubric.metadata[METADATA] = {"for_the_grader": grade_id}
            cells.append(rubric)
    nb.cells = cells
    return nb


@dataclass
class Destination:
    """Where a run's grades and files go."""

    course: Path  # the nbgrader course directory
    feedback: Path
    db_url: str
    course_id: str
    limits: Limits
    key: object  # the answer key (autograder.key.ComputedKey)
    exporter: FeedbackExporter = field(default_factory=FeedbackExporter)


def record(nb, plan: dict, outcome: JobResult, result: Result, tampering: list[str],
           where: Destination, submitted: Path | None = None) -> list[CheckRow]:
    """Everything a finished run leaves: gradebook rows, the submitted and autograded notebooks, the
    feedback page. ``submitted`` is the file the learner handed in."""
    from .grades import scores_of

    if outcome.status == "failed" or (not outcome.cells and outcome.status != "finished"):
        result.status = "failed"
        result.message = "; ".join(filter(None, [result.message, outcome.reason or "could not be run"]))
        result.score = result.auto_score = result.manual_score = 0.0
        return []
    recorded = fill_outputs(nb, plan, outcome, where.key, result, where.limits)
    resources = {"nbgrader": {"notebook": result.assignment, "assignment": result.assignment,
                              "student": result.student, "db_url": where.db_url}}
    target = where.course / "autograded" / result.student / result.assignment / result.notebook
    before = graded_by_hand(where.db_url, where.course_id, result.student, result.assignment)
    previous = _answers(nbio.read(target)) if before and target.is_file() else {}
    save_grades(recorded.notebook, resources)
    unchanged = {k for k, v in _answers(recorded.notebook).items() if previous.get(k) == v}
    when = keep_submitted(where.course, result, submitted) if submitted is not None else None
    scores = settle(where.db_url, where.course_id, result,
                    {grade_id: flag for grade_id, flag in before.items() if grade_id in unchanged}, when)
    notes = list(recorded.notes)
    if tampering:
        result.status = "tampered"
        notes.append("tampered: " + "; ".join(tampering)[:400])
    result.message = "; ".join(filter(None, [result.message, *notes]))
    autograded = with_rubrics(recorded.notebook, where.course / "source" / result.assignment / result.notebook)
    autograded.metadata[METADATA] = {"feedback_notes": {"tampering": tampering,
                                                        "unneeded": len(outcome.unneeded)}}
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(nbio.dumps(autograded), encoding="utf-8")
    page_of(where.exporter, autograded, result.student, result.assignment, where.db_url,
            where.feedback / result.student / f"{result.assignment}.html")
    result.__dict__.update(scores_of(scores))
    return recorded.rows
