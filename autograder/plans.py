"""Plans: each test cell's checks, learnt from the source notebook. Shared by the build and the grader.

A plan is ``{test cell grade_id: [call, ...]}``, the calls that cell's ``check(...)`` lines make, as
:func:`attention_course.verdict.make_call` describes them, each with its exercise's ``meta`` from the
key. It is learnt by running the source notebook in a sandbox with the checks recording instead of
judging (:func:`record_job`, :func:`from_records`); the build stores it in ``autograder/key/plans/``
(a large one is left out and learnt by the grader, then cached in the course directory).

Plans fail closed (:func:`validate`): every test cell of the source must have checks, or the
assignment cannot be graded; and no exercise may be checked after an exercise that may call it,
since a stand-in there would answer it on inputs of the learner's choosing.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import nbformat

from attention_course.convert import decode, encode

from . import REPO, SOLUTIONS
from . import notebooks as nbio
from .records import Cell, Job, JobResult, Limits
from .slicing import needed_cells

STORED = REPO / "autograder" / "key" / "plans"
STORED_LIMIT = 4 << 20  # a bigger plan is not stored: the grader learns it itself (once, then cached)


class PlanError(RuntimeError):
    """A source notebook whose plan cannot be learnt, or is not safe to grade with."""


def is_test(cell) -> bool:
    meta = cell.metadata.get("nbgrader", {})
    return cell.cell_type == "code" and bool(meta.get("grade")) and not meta.get("solution")


def cells_of(nb: nbformat.NotebookNode, grading: bool = False) -> list[Cell]:
    """A notebook's code cells as a job runs them; when ``grading``, test cells carry no code (their
    code never runs where submitted code runs: the grader probes instead)."""
    cells = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        meta = cell.metadata.get("nbgrader", {})
        test = is_test(cell)
        cells.append(Cell(index, "test" if test else "code", "" if test and grading else cell.source,
                          meta.get("grade_id"), bool(meta.get("solution"))))
    return cells


def source_digest(name: str) -> str:
    return hashlib.sha256((SOLUTIONS / f"{name}.ipynb").read_bytes()).hexdigest()


def attach_meta(plan: dict) -> dict:
    """Give each call its exercise's metadata from the key (stored plans leave it out)."""
    from .key import meta

    for calls in plan.values():
        for call in calls:
            call["meta"] = meta(call["exercise"])
    return plan


def stored(name: str) -> dict | None:
    """The plan the build stored for a source notebook, if it is current."""
    path = STORED / f"{name}.json"
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("source") != source_digest(name):
        return None  # solutions/ changed since the build: learn it again
    return attach_meta(decode(data["plan"]))


def stored_text(name: str, plan: dict) -> str | None:
    """What the build stores for a plan: its calls, without the exercises' metadata."""
    bare = {grade_id: [{k: v for k, v in call.items() if k != "meta"} for call in calls]
            for grade_id, calls in plan.items()}
    text = json.dumps({"generated": f"by `python3 tasks.py build` from solutions/{name}.ipynb: edit that",
                       "source": source_digest(name), "plan": encode(bare)}, sort_keys=True, indent=0)
    return text + "\n" if len(text) <= STORED_LIMIT else None


def cached(path: Path) -> dict | None:
    return attach_meta(decode(json.loads(path.read_text()))) if path.is_file() else None


def save(plan: dict, path: Path) -> None:
    bare = {grade_id: [{k: v for k, v in call.items() if k != "meta"} for call in calls]
            for grade_id, calls in plan.items()}
    path.write_text(json.dumps(encode(bare)))


def record_job(source: nbformat.NotebookNode, limits: Limits, all_cells: bool = False) -> Job:
    """The job that runs a source notebook to learn its test cells' checks; the cells neither a test
    cell nor a solution needs (a demonstration's training run) are passed over unless ``all_cells``."""
    cells = cells_of(source)
    needed = None if all_cells else needed_cells(cells, set(), {c.source for c in cells}, record=True)
    unneeded = frozenset() if needed is None else frozenset(c.index for c in cells if c.index not in needed)
    return Job(mode="record", cells=cells, limits=limits, unneeded=unneeded, isolate=False)


def from_records(source: nbformat.NotebookNode, result: JobResult) -> dict:
    """The plan of a source notebook from its record run; :class:`PlanError` if it did not run cleanly."""
    failed = [f"cell {i}: {c.error}" for i, c in result.cells.items() if c.error]
    if result.status != "finished" or failed:
        raise PlanError(f"the source notebook did not run cleanly: {result.reason} {'; '.join(failed)}".strip())
    grade_ids = {i: c.metadata.get("nbgrader", {}).get("grade_id") for i, c in enumerate(source.cells)}
    plan: dict[str, list] = {}
    for record in result.records:
        call = dict(record["call"])
        call["hidden"] = bool(record["hidden"])
        plan.setdefault(grade_ids[int(record["index"])], []).append(call)
    return attach_meta(plan)


def validate(source: nbformat.NotebookNode, plan: dict) -> None:
    """Fail closed: :class:`PlanError` when a test cell has no checks, or when an exercise is checked
    after one that may call it (a stand-in would answer it there)."""
    tests = [c.metadata["nbgrader"]["grade_id"] for c in source.cells if is_test(c)]
    empty = [grade_id for grade_id in tests if not plan.get(grade_id)]
    if empty:
        raise PlanError(f"test cell(s) {', '.join(empty)} make no check: a test with no checks cannot be graded")
    checked_after: set[str] = set()  # exercises whose callers were checked already
    for grade_id in tests:
        for call in plan[grade_id]:
            if call["exercise"] in checked_after:
                raise PlanError(f"{call['exercise']} is checked in {grade_id}, after an exercise that may call "
                                "it: its stand-in would answer it")
            checked_after |= set(call["meta"]["uses"])


def skippable_in(cells: list[Cell], plan: dict, released, learner_copy: Path) -> frozenset[int]:
    """:func:`skippable`, given what learners got: the release's code cells and the learner copy's (it
    adds the Colab cell)."""
    given = {c.source for c in released.cells if c.cell_type == "code"}
    if learner_copy.is_file():
        given |= {c.source for c in nbio.read(learner_copy).cells if c.cell_type == "code"}
    return skippable(cells, plan, given)


def skippable(cells: list[Cell], plan: dict, given: set[str]) -> frozenset[int]:
    """The cells a graded run may pass over (see :mod:`.slicing`): none no test needs. ``given``: the
    sources of the code cells learners were given."""
    called = {call["function"] for calls in plan.values() for call in calls if call.get("function")}
    called |= {name for calls in plan.values() for call in calls for name in call["meta"]["uses"]}
    needed = needed_cells(cells, called, given)
    if needed is None:
        return frozenset()
    return frozenset(c.index for c in cells if c.kind != "test" and c.index not in needed)
