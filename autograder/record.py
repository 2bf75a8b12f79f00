"""The record stage: a graded submission's outputs, grades and files, written where nbgrader keeps them.

The sanitised notebook gets each cell's outputs from the sandboxed run and each test cell the
verdict's outputs; nbgrader's own ``SaveAutoGrades`` stores the scores in the gradebook (through
its public preprocessor); the autograded notebook goes to ``course/autograded/`` for the
formgrader, and the feedback page to ``feedback/``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from . import notebooks as nbio
from .feedback import FeedbackExporter, note_cells, write_page
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


def scores(db_url: str, course_id: str, assignment: str, student: str) -> dict:
    from nbgrader.api import Gradebook

    with Gradebook(db_url, course_id) as gradebook:
        nb = gradebook.find_submission_notebook(assignment, assignment, student)
        return {"score": float(nb.score), "auto_score": float(nb.code_score),
                "needs_manual_grading": bool(nb.needs_manual_grade)}


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
           where: Destination) -> list[CheckRow]:
    """Everything a finished run leaves: gradebook rows, the autograded notebook, the feedback page."""
    if outcome.status == "failed" or (not outcome.cells and outcome.status != "finished"):
        result.status = "failed"
        result.message = "; ".join(filter(None, [result.message, outcome.reason or "could not be run"]))
        result.score = result.auto_score = 0.0
        return []
    recorded = fill_outputs(nb, plan, outcome, where.key, result, where.limits)
    resources = {"nbgrader": {"notebook": result.assignment, "assignment": result.assignment,
                              "student": result.student, "db_url": where.db_url}}
    save_grades(recorded.notebook, resources)
    target = where.course / "autograded" / result.student / result.assignment / result.notebook
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(nbio.dumps(recorded.notebook), encoding="utf-8")
    result.__dict__.update(scores(where.db_url, where.course_id, result.assignment, result.student))
    notes = list(recorded.notes)
    if tampering:
        result.status = "tampered"
        notes.append("tampered: " + "; ".join(tampering)[:400])
    result.message = "; ".join(filter(None, [result.message, *notes]))
    write_page(where.exporter, recorded.notebook, resources, note_cells(tampering, len(outcome.unneeded)),
               where.feedback / result.student / f"{result.assignment}.html")
    return recorded.rows
