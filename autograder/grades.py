"""The class's final marks and feedback, from the gradebook, without grading anything.

    python3 tasks.py grades --out DIR [--db URL]     write DIR/grades.csv for the whole class
    python3 tasks.py grades --out DIR --format canvas --roster ROSTER.csv [--key COLUMN]
                            [--assignment-id NAME=CANVAS_ID ...]
                                                     the same, and DIR/canvas-grades.csv for Canvas
    python3 tasks.py feedback --out DIR [--db URL]   write every feedback page again

Written answers are graded by hand in nbgrader's formgrader (``python3 tasks.py formgrader --out
DIR``), which stores the points and comments in the gradebook only. These two commands bring them
to what the class sees: ``grades.csv`` (auto, manual and total points, and whether a manual grade
is still pending) and the feedback pages (:mod:`.feedback`: the total, the points of every test and
written answer, the grader's comments). A grading run writes both as well, for the whole class.

The class is every (student, assignment) ever graded into DIR (``grading-state.jsonl``, see
:mod:`.state`); the scores are the gradebook's, as they stand. The gradebook's URL is the one the
grading run stored in DIR/course/nbgrader_config.py, unless ``--db`` names another.
``--format canvas`` writes Canvas's gradebook import from the same gradebook with :mod:`.lms` (the
roster, the layout and the problems it reports are described there).
"""

from __future__ import annotations

import argparse
import csv
import sys
from dataclasses import asdict
from pathlib import Path

from .course import assignments, course_id
from .records import CSV_COLUMNS, Result
from .state import exclusive, recorded_results

NOT_IN_GRADEBOOK = ("missing", "invalid", "failed")
FORMGRADER_COMMAND = "python3 tasks.py formgrader --out {out}"


def course_db_url(out: Path, db_url: str | None = None) -> str:
    """The gradebook of the course graded into ``out``: ``db_url``, else the one its grading run used."""
    course = out / "course"
    if not (course / "nbgrader_config.py").is_file():
        raise SystemExit(f"{out} holds no graded course ({course / 'nbgrader_config.py'} is missing): "
                         f"grade first, python3 tasks.py grade SUBMISSIONS --out {out}")
    if db_url:
        return db_url
    from traitlets.config.loader import PyFileConfigLoader

    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    return config.CourseDirectory.db_url or f"sqlite:///{course / 'gradebook.db'}"


def with_gradebook_scores(results: list[Result], db_url: str, course: str) -> list[Result]:
    """The results with their scores read from the gradebook (auto and manual grades, as they stand):
    one query per assignment (nbgrader's ``notebook_submission_dicts``)."""
    from nbgrader.api import Gradebook

    wanted = {r.assignment for r in results if r.status not in NOT_IN_GRADEBOOK}
    with Gradebook(db_url, course) as gradebook:
        stored = {(row["student"], name): row for name in wanted
                  for row in gradebook.notebook_submission_dicts(name, name)}
    for result in results:
        row = stored.get((result.student, result.assignment))
        if row is not None and result.status not in NOT_IN_GRADEBOOK:
            result.__dict__.update(scores_of(row))
    return results


def scores_of(row: dict) -> dict:
    """A submitted notebook's points as ``grades.csv`` has them, from nbgrader's dict of its scores."""
    return {"score": float(row["score"]), "max_score": float(row["max_score"]),
            "auto_score": float(row["code_score"]), "auto_max_score": float(row["max_code_score"]),
            "manual_score": float(row["written_score"]) + float(row["task_score"]),
            "manual_max_score": float(row["max_written_score"]) + float(row["max_task_score"]),
            "needs_manual_grading": bool(row["needs_manual_grade"])}


def class_results(out: Path, db_url: str, course: str | None = None) -> list[Result]:
    """Every (student, assignment) ever graded into ``out``, with the gradebook's scores, in order."""
    return scored_in_class_order(recorded_results(out), db_url, course or course_id())


def scored_in_class_order(results: list[Result], db_url: str, course: str) -> list[Result]:
    """``results`` with the gradebook's scores, by student and then in the course's order."""
    known = assignments()
    results = with_gradebook_scores(results, db_url, course)
    return sorted(results, key=lambda r: (r.student, known.index(r.assignment) if r.assignment in known else 0))


def write_csv(results: list[Result], path: Path) -> None:
    """``grades.csv``: one row per result, the columns of :class:`~.records.Result`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        for result in results:
            row = asdict(result)
            for key in ("score", "max_score", "auto_score", "auto_max_score", "manual_score", "manual_max_score"):
                row[key] = f"{row[key]:g}"
            writer.writerow(row)


def waiting_for_manual_grades(db_url: str, course: str) -> dict[str, int]:
    """{assignment: how many answers in the gradebook wait for a grade by hand}, in one query."""
    from nbgrader.api import Assignment, Grade, Gradebook, SubmittedAssignment, SubmittedNotebook
    from sqlalchemy import func

    with Gradebook(db_url, course) as gradebook:
        rows = (gradebook.db.query(Assignment.name, func.count(Grade.id))
                .join(SubmittedAssignment, SubmittedAssignment.assignment_id == Assignment.id)
                .join(SubmittedNotebook, SubmittedNotebook.assignment_id == SubmittedAssignment.id)
                .join(Grade, Grade.notebook_id == SubmittedNotebook.id)
                .filter(Grade.needs_manual_grade.is_(True), Assignment.course_id == course)
                .group_by(Assignment.name).all())
    return {name: int(count) for name, count in rows}


def regenerate_feedback(out: Path, db_url: str, course: str | None = None) -> tuple[int, list[str]]:
    """Every graded submission's feedback page again, from its autograded notebook and the gradebook
    as it stands; returns (pages written, one line per page that could not be)."""
    from .feedback import FeedbackExporter, install_mathjax, page_of

    exporter, written, problems = FeedbackExporter(), 0, []
    course = course or course_id()
    install_mathjax(out / "feedback")
    for result in recorded_results(out):
        if result.status in NOT_IN_GRADEBOOK:
            continue
        autograded = out / "course" / "autograded" / result.student / result.assignment / result.notebook
        if not autograded.is_file():
            problems.append(f"{result.student} {result.assignment}: no autograded notebook at {autograded}; "
                            "grade again")
            continue
        page_of(exporter, autograded, result.student, result.assignment, db_url,
                out / "feedback" / result.student / f"{result.assignment}.html")
        written += 1
    return written, problems


def export_marks(out: Path, shown: Path, db_url: str, args: argparse.Namespace) -> int:
    """``grades.csv`` for the whole class, then with ``--format canvas`` :mod:`.lms`'s Canvas import
    from the same gradebook (it reads which submissions failed from the fresh ``grades.csv``)."""
    from . import lms

    results = class_results(out, db_url)
    write_csv(results, out / "grades.csv")
    pending = sum(r.needs_manual_grading for r in results)
    print(f"wrote {shown / 'grades.csv'} ({len(results)} rows, from the gradebook)"
          + (f"; {pending} submission(s) still wait for a manual grade: "
             + FORMGRADER_COMMAND.format(out=shown) if pending else ""))
    if args.format != "canvas":
        return 0
    return lms.print_canvas_export(out, args.roster, db_url, args.key, dict(args.assignment_id))


def arguments(argv: list[str] | None) -> argparse.Namespace:
    from .lms import DEFAULT_KEY, parse_assignment_id

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["csv", "feedback"], help="csv: write grades.csv; feedback: the pages")
    parser.add_argument("--out", type=Path, default=Path("graded"), help="the graded folder (default: graded/)")
    parser.add_argument("--db", default=None, help="SQLAlchemy URL of the gradebook (default: the one the "
                        "grading run used)")
    parser.add_argument("--format", choices=["csv", "canvas"], default="csv",
                        help="csv: grades.csv only (default); canvas: also DIR/canvas-grades.csv (needs --roster)")
    parser.add_argument("--roster", type=Path, help="the class's roster for --format canvas (CSV, e.g. "
                        "Canvas's own gradebook export)")
    parser.add_argument("--key", default=DEFAULT_KEY, help=f"the roster column holding the grader's student ids "
                        f"(default {DEFAULT_KEY!r})")
    parser.add_argument("--assignment-id", type=parse_assignment_id, action="append", default=[],
                        help="an assignment's id in Canvas, NAME=ID (repeatable)")
    args = parser.parse_args(argv)
    if args.format == "canvas" and args.roster is None:
        parser.error("--format canvas needs --roster ROSTER.csv (the class's roster, e.g. Canvas's export)")
    if args.what == "feedback" and (args.format != "csv" or args.roster is not None):
        parser.error("--format and --roster are options of the marks (python3 tasks.py grades), not of feedback")
    return args


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    out = args.out.resolve()
    db_url = course_db_url(out, args.db)
    with exclusive(out):
        if args.what == "csv":
            return export_marks(out, args.out, db_url, args)
        written, problems = regenerate_feedback(out, db_url)
    for line in problems:
        print(line, file=sys.stderr)
    print(f"wrote {written} feedback page(s) in {args.out / 'feedback'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
