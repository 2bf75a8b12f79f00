"""Marks for an LMS: a CSV that Canvas's gradebook import accepts, from the gradebook and a roster.

    python3 tasks.py grades --out DIR --format canvas --roster ROSTER.csv [--db URL]
                            [--key "SIS Login ID"] [--assignment-id NAME=CANVAS_ID ...]

(``python -m autograder.lms`` with the same options writes the Canvas file alone.)

DIR is a folder that ``python3 tasks.py grade ... --out DIR`` wrote; the marks are read from its
gradebook (``DIR/course/gradebook.db``, or ``--db``): nbgrader's scores, so a written answer graded
by hand in the formgrader counts, and ``checks.csv`` is never used for marks. The file is written
to ``DIR/canvas-grades.csv``.

**The roster** is a CSV with a header row naming at least ``Student`` and the key column. Canvas's
own gradebook export (*Grades → Export*) is one as it is: its columns ``Student``, ``ID``,
``SIS User ID``, ``SIS Login ID`` and ``Section`` are copied, its *Points Possible* row and every
other column are ignored. The key column (``--key``, default ``SIS Login ID``) holds each learner's
id in the grader, the name of their folder of submissions.

**The layout** is the one Canvas exports and imports (Canvas's ``GradebookExporter`` and
``GradebookImporter``): a header ``Student, ID, SIS User ID, SIS Login ID, Section``, then one column
per assignment; a second row whose first cell is ``Points Possible`` with each assignment's points;
then one row per learner of the roster. Canvas finds the learner by ``ID`` (its user id), else by
the SIS ids, else by name, and the assignment by ``Title (id)`` (``--assignment-id NAME=ID`` writes
that form for an assignment that exists in Canvas), else by title, else it creates one. A learner
of the roster with no graded submission for an assignment gets an empty cell (Canvas leaves the
grade as it is).

**Problems are reported line by line** (roster line numbers count the header as line 1): a line
without a key, a learner listed twice (by key or by Canvas ID: the later line is left out), a
learner of the roster with no graded submission, a submission whose learner is not in the roster
(left out of the file), a submission that failed to grade (empty cell), and marks still waiting for
a written answer's manual grade.
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

STUDENT_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
POINTS_POSSIBLE = "Points Possible"
DEFAULT_KEY = "SIS Login ID"


class RosterError(ValueError):
    """A roster that cannot be used at all (no header, no key column)."""


@dataclass
class RosterEntry:
    line: int
    key: str
    fields: dict[str, str]  # the five student columns, blank when the roster lacks one


@dataclass
class Roster:
    entries: list[RosterEntry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def read_roster(path: Path, key: str = DEFAULT_KEY) -> Roster:
    """The roster's learners, in its order, and what is wrong with its lines."""
    text = Path(path).read_text(encoding="utf-8-sig")
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if not header:
        raise RosterError(f"{path}: empty; expected a header row with the columns Student and {key}")
    header = [name.strip() for name in header]
    missing = [name for name in ("Student", key) if name not in header]
    if missing:
        raise RosterError(f"{path}: no column {' or '.join(repr(m) for m in missing)} in its header {header}")
    roster, keys, ids = Roster(), {}, {}
    for line, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue
        values = {name: (row[i].strip() if i < len(row) else "") for i, name in enumerate(header)}
        if POINTS_POSSIBLE in values["Student"] or (not values[key] and _is_posting_row(row)):
            continue  # Canvas's own export: the points possible row, the muted/manual-posting row
        who = values["Student"] or values[key]
        if not values[key]:
            roster.problems.append(f"roster line {line}: {who!r} has no {key}: left out")
            continue
        if values[key] in keys:
            roster.problems.append(f"roster line {line}: {values[key]!r} is listed twice (first on line "
                                   f"{keys[values[key]]}): this line is left out")
            continue
        canvas_id = values.get("ID", "")
        if canvas_id and canvas_id in ids:
            roster.problems.append(f"roster line {line}: Canvas ID {canvas_id} of {who!r} is also on line "
                                   f"{ids[canvas_id]}: this line is left out")
            continue
        keys[values[key]] = line
        if canvas_id:
            ids[canvas_id] = line
        roster.entries.append(RosterEntry(line, values[key], {name: values.get(name, "") for name in STUDENT_COLUMNS}))
    return roster


def _is_posting_row(row: list[str]) -> bool:
    return all(re.fullmatch(r"\s*(Muted|Manual Posting.*)?\s*", cell or "", re.IGNORECASE) for cell in row)


@dataclass
class Marks:
    """The gradebook's marks: {assignment: points possible}, {(student, assignment): (score, waiting)}."""

    possible: dict[str, float]
    scores: dict[tuple[str, str], tuple[float, bool]]


def read_marks(db_url: str, course: str) -> Marks:
    """Every assignment's points possible and every submission's score, from nbgrader's gradebook
    (auto and manual grades as they stand; ``waiting``: a written answer not graded yet)."""
    from nbgrader.api import Gradebook

    from .course import assignments as course_assignments

    known = course_assignments()
    possible, scores = {}, {}
    with Gradebook(db_url, course) as gradebook:
        for assignment in sorted(gradebook.assignments,
                                 key=lambda a: (known.index(a.name) if a.name in known else len(known), a.name)):
            possible[assignment.name] = float(assignment.max_score or 0)
            for submission in assignment.submissions:
                scores[(submission.student.id, assignment.name)] = (float(submission.score or 0),
                                                                    bool(submission.needs_manual_grade))
    return Marks(possible, scores)


def _number(value: float) -> str:
    """As Canvas writes points: at most two decimals, no trailing zeros."""
    return f"{round(value, 2):g}"


def canvas_rows(marks: Marks, roster: Roster, assignment_ids: dict[str, str] | None = None,
                failed: dict[tuple[str, str], str] | None = None) -> tuple[list[list[str]], list[str]]:
    """The CSV's rows (header, points possible, one per learner of the roster) and the problems."""
    assignment_ids, failed = assignment_ids or {}, failed or {}
    names = list(marks.possible)
    header = STUDENT_COLUMNS + [f"{name} ({assignment_ids[name]})" if name in assignment_ids else name
                                for name in names]
    rows = [header, [POINTS_POSSIBLE, "", "", "", ""] + [_number(marks.possible[name]) for name in names]]
    problems = list(roster.problems)
    graded = {student for student, _ in marks.scores}
    for entry in roster.entries:
        cells, waiting = [], []
        for name in names:
            mark = marks.scores.get((entry.key, name))
            cells.append("" if mark is None else _number(mark[0]))
            if mark is not None and mark[1]:
                waiting.append(name)
            if mark is None and (entry.key, name) in failed:
                problems.append(f"roster line {entry.line}: {entry.key!r} {name} could not be graded "
                                f"({failed[(entry.key, name)]}): empty cell")
        if entry.key not in graded:
            problems.append(f"roster line {entry.line}: {entry.key!r} has no graded submission: empty cells")
        if waiting:
            problems.append(f"roster line {entry.line}: {entry.key!r} {', '.join(waiting)}: a written answer is "
                            "not graded yet; the mark counts it as 0 until it is")
        rows.append([entry.fields[name] for name in STUDENT_COLUMNS] + cells)
    in_roster = {entry.key for entry in roster.entries}
    problems += [f"graded learner {student!r} is not in the roster: left out of the file"
                 for student in sorted(graded - in_roster)]
    return rows, sorted(problems, key=_roster_line)


def _roster_line(problem: str) -> float:
    """A problem's roster line, for sorting (problems about no line of the roster come last)."""
    found = re.match(r"roster line (\d+):", problem)
    return int(found.group(1)) if found else float("inf")


def write_csv(rows: list[list[str]], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)


def _failed_submissions(out: Path) -> dict[tuple[str, str], str]:
    """{(student, assignment): status} of the submissions grades.csv says could not be graded."""
    from .checks_csv import read

    return {(row["student"], row["assignment"]): row.get("status", "") for row in read(out / "grades.csv")
            if row.get("status") in ("failed", "invalid")}


def export_canvas(out: Path, roster_path: Path, db_url: str | None = None, key: str = DEFAULT_KEY,
                  assignment_ids: dict[str, str] | None = None) -> tuple[Path, list[str]]:
    """Write ``out/canvas-grades.csv``; returns its path and the problems found."""
    from .course import course_id

    out = Path(out)
    db_url = db_url or f"sqlite:///{(out / 'course' / 'gradebook.db').resolve()}"
    if db_url.startswith("sqlite:///") and not Path(db_url[len("sqlite:///"):]).is_file():
        raise FileNotFoundError(f"no gradebook at {db_url[len('sqlite:///'):]}: grade a class into {out} first")
    roster = read_roster(roster_path, key)
    rows, problems = canvas_rows(read_marks(db_url, course_id()), roster, assignment_ids, _failed_submissions(out))
    target = out / "canvas-grades.csv"
    write_csv(rows, target)
    return target, problems


def print_canvas_export(out: Path, roster: Path, db_url: str | None, key: str, assignment_ids: dict) -> int:
    """:func:`export_canvas`, its roster problems printed line by line; the command's exit status."""
    try:
        target, problems = export_canvas(out, roster, db_url, key, assignment_ids)
    except (RosterError, FileNotFoundError, UnicodeDecodeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for problem in problems:
        print(problem)
    print(f"wrote {target} ({len(problems)} problem(s) above)" if problems else f"wrote {target}")
    return 0


def parse_assignment_id(text: str) -> tuple[str, str]:
    name, _, number = text.partition("=")
    if not name or not number.strip().isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME=CANVAS_ID, e.g. 01_attention_without_weights=4512")
    return name.strip(), number.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("graded"), help="the graded folder (default: graded/)")
    parser.add_argument("--roster", type=Path, required=True, help="the class's roster (CSV, e.g. Canvas's export)")
    parser.add_argument("--format", choices=["canvas"], default="canvas", help="the LMS's import format")
    parser.add_argument("--db", default=None, help="SQLAlchemy URL of the gradebook, if not DIR/course/gradebook.db")
    parser.add_argument("--key", default=DEFAULT_KEY, help=f"the roster column holding the grader's student ids "
                        f"(default {DEFAULT_KEY!r})")
    parser.add_argument("--assignment-id", type=parse_assignment_id, action="append", default=[],
                        help="an assignment's id in Canvas, NAME=ID (repeatable)")
    args = parser.parse_args(argv)
    return print_canvas_export(args.out, args.roster, args.db, args.key, dict(args.assignment_id))


if __name__ == "__main__":
    sys.exit(main())
