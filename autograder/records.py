"""The typed records that grading passes from stage to stage.

intake -> :class:`Submission`; sanitise and plan -> :class:`Job`; run -> :class:`JobResult` (its cells
as :class:`CellRun`); verdict -> :class:`CellVerdict` with one :class:`CheckRow` per check; record and
state -> :class:`Result` (a row of ``grades.csv``).

A plan's *calls* stay the plain dicts of :func:`attention_course.verdict.make_call` (exercise,
function, probes, options): they are the judge's own format, shared with the learner's checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path


@dataclass(frozen=True)
class Limits:
    """What one sandboxed run may take. Enforced from outside the sandbox (the grader's deadlines,
    the zygote's cgroups); the sandbox's own alarms only make a stop polite."""

    cell_timeout: float = 30.0
    notebook_timeout: float = 600.0
    memory: int = 4 << 30
    max_processes: int = 256
    tmp_size: str = "512m"
    grace: float = 10.0  # seconds past a cell's limit before a sandbox that ignores its alarm is killed
    standin_seconds: float = 60.0  # the grader's own CPU time for one job's stand-ins
    max_outputs_bytes: int = 4 << 20  # bytes of outputs kept per cell (text and images)

    def for_sandbox(self) -> dict:
        return {"memory": self.memory, "max_processes": self.max_processes, "tmp_size": self.tmp_size}


@dataclass
class Options:
    """A grading run's settings (what ``python3 tasks.py grade`` was asked)."""

    out: Path
    db_url: str | None = None
    limits: Limits = field(default_factory=Limits)
    workers: int = 0  # 0: one per core
    scheduler: str | None = None
    progress: bool = True
    force: bool = False
    all_cells: bool = False  # run every cell, even those no graded function depends on
    students: frozenset[str] = frozenset()  # only these (all when empty)
    assignments: frozenset[str] = frozenset()


@dataclass
class Cell:
    index: int  # its position among the notebook's cells
    kind: str  # "code" (runs) or "test" (probed when grading, recorded when learning a plan)
    source: str = ""  # empty for a test cell when grading: its code never runs where submitted code runs
    grade_id: str | None = None
    solution: bool = False  # an answer cell: always the learner's own code


@dataclass
class Job:
    """One notebook to run in a sandbox."""

    mode: str  # "grade": probe the test cells with ``checks``; "record": learn a plan from a source notebook
    cells: list[Cell]
    limits: Limits
    checks: dict[int, list[dict]] = field(default_factory=dict)  # test cell index -> the plan's calls
    unneeded: frozenset[int] = frozenset()  # cells no graded function depends on (not run)
    notebook_name: str = ""
    notebook_text: str = ""
    isolate: bool = True
    # "cases" mode (measuring the diagnosis): after the notebook ran, each case's code replaces its
    # exercise's answer cell, the exercise's test cells are probed, and the answer is put back
    cases: list[Case] = field(default_factory=list)


@dataclass
class Case:
    """A learner-style answer to try in a notebook that runs in "cases" mode."""

    id: str
    cell: int  # the index of the exercise's answer cell
    source: str  # the answer to try
    answer: str  # the cell's own answer, put back after
    tests: list[int] = field(default_factory=list)  # the exercise's test cells


@dataclass
class CellRun:
    outputs: list[dict] = field(default_factory=list)
    error: str | None = None  # the exception's type name
    memory_error: bool = False
    timed_out: bool = False


@dataclass
class JobResult:
    status: str  # finished | failed | timeout | died
    reason: str = ""
    cells: dict[int, CellRun] = field(default_factory=dict)
    outcomes: dict[int, list[list[dict]]] = field(default_factory=dict)  # test cell -> call -> probe outcome
    records: list[dict] = field(default_factory=list)  # record mode: {"index", "hidden", "call"}
    skipped: dict[int, str] = field(default_factory=dict)  # cells left out of the last run, and why
    unneeded: list[int] = field(default_factory=list)
    oom: bool = False
    seconds: float = 0.0
    # "cases" mode: case id -> {test cell index: outcomes per call and probe}, or why it could not run
    cases: dict[str, dict[int, list[list[dict]]] | str] = field(default_factory=dict)

    @classmethod
    def failed(cls, reason: str) -> JobResult:
        return cls(status="failed", reason=reason)


@dataclass
class CheckRow:
    """One graded check's verdict (``checks.csv``, the class report)."""

    student: str
    assignment: str
    test: str  # the test cell's grade_id
    exercise: str
    hidden: bool
    passed: bool
    mistake: str = ""  # the catalogued mistake it was named as, if one
    message: str = ""


@dataclass
class CellVerdict:
    outputs: list[dict]
    passed: bool
    rows: list[CheckRow] = field(default_factory=list)


@dataclass
class Submission:
    """A student's file for an assignment, as intake found it."""

    student: str
    assignment: str
    path: Path | None = None
    note: str = ""  # how it was found (a renamed file, a misplaced one)
    rank: int = 0  # how sure intake is that it is this assignment's notebook: the lower, the surer


@dataclass
class Result:
    """A row of ``grades.csv``."""

    student: str
    assignment: str
    notebook: str
    score: float = 0.0
    max_score: float = 0.0
    auto_score: float = 0.0
    auto_max_score: float = 0.0
    needs_manual_grading: bool = False
    status: str = "graded"  # graded | tampered | missing | invalid | failed
    message: str = ""
    # last, so that a Result built from positional fields keeps its meaning
    manual_score: float = 0.0  # the written answers' points, as graded by hand in the formgrader
    manual_max_score: float = 0.0


def _csv_columns() -> list[str]:
    """grades.csv's columns: Result's fields, the written answers' points right after the checks'."""
    names = [f.name for f in fields(Result)]
    manual = ["manual_score", "manual_max_score"]
    rest = [name for name in names if name not in manual]
    at = rest.index("auto_max_score") + 1
    return rest[:at] + manual + rest[at:]


CSV_COLUMNS = _csv_columns()
