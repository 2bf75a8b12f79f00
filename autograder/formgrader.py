"""nbgrader's formgrader on a graded class, for grading the written answers by hand.

    python3 tasks.py formgrader --out DIR [JupyterLab options]

Opens JupyterLab, with nbgrader's server extension, on ``DIR/course`` (the course directory a grading
run wrote), from that directory, so that nbgrader reads its ``nbgrader_config.py``: the gradebook
(SQLite in DIR, or the ``--db`` the run was given) and the exchange, a folder inside DIR (nbgrader's
default is a system folder that a course in a container cannot create). As root (a container) it
passes ``--allow-root``. Before it starts, every graded assignment is released into that exchange
with nbgrader's own ``release_assignment``, so the formgrader lists it as *released* rather than
*draft*; the submissions it counts are those the grading run left in ``DIR/course/submitted/``.

In JupyterLab: *Nbgrader → Formgrader → Manual Grading*. The model answer and rubric of each written
answer stand in a cell right after the learner's answer. Then ``python3 tasks.py grades --out DIR``
writes the final marks and ``python3 tasks.py feedback --out DIR`` the feedback pages with the
grades and comments given by hand.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from .course import course_id

EXCHANGE = "exchange"


def exchange_configured(course: Path, exchange: Path) -> None:
    """The course's ``nbgrader_config.py`` names ``exchange`` as the exchange (a course graded before
    this setting existed gets it now), and the folder exists."""
    exchange.mkdir(parents=True, exist_ok=True)
    config = course / "nbgrader_config.py"
    line = f"c.Exchange.root = {str(exchange)!r}\n"
    if line not in config.read_text(encoding="utf-8"):
        with open(config, "a", encoding="utf-8") as handle:
            handle.write(line)


def graded_assignments(course: Path) -> list[str]:
    """The assignments that have submissions in the course directory."""
    submitted = course / "submitted"
    return sorted({p.name for student in submitted.iterdir() if student.is_dir() for p in student.iterdir()
                   if p.is_dir()}) if submitted.is_dir() else []


def release(course: Path, assignments: list[str]) -> list[str]:
    """Release each assignment into the course's exchange with nbgrader's API (what the formgrader's
    *Release* button does); returns one line per assignment that could not be released."""
    from nbgrader.apps.api import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader

    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    api = NbGraderAPI(CourseDirectory(config=config), config=config)
    released = api.get_released_assignments()
    problems = []
    for assignment in assignments:
        if assignment in released or not (course / "release" / assignment).is_dir():
            continue
        outcome = api.release_assignment(assignment)
        if not outcome or not outcome.get("success"):
            log = (outcome or {}).get("log", "") or (outcome or {}).get("error", "")
            problems.append(f"{assignment}: not released into the exchange ({log.strip().splitlines()[-1:]})")
    return problems


def lab_command(course: Path, extra: list[str]) -> list[str]:
    """The JupyterLab command, run from ``course``."""
    as_root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    return [sys.executable, "-m", "jupyter", "lab", f"--ServerApp.root_dir={course}", *as_root, *extra]


def prepare(out: Path) -> Path:
    """The course directory of ``out``, ready for the formgrader; stops with a message if there is none."""
    course = out.resolve() / "course"
    if not (course / "nbgrader_config.py").is_file() or not (course / "autograded").is_dir():
        raise SystemExit(f"{out} holds no graded course: grade first, python3 tasks.py grade SUBMISSIONS --out {out}")
    exchange_configured(course, out.resolve() / EXCHANGE)
    for problem in release(course, graded_assignments(course)):
        print(problem, file=sys.stderr)
    return course


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("graded"), help="the graded folder (default: graded/)")
    args, extra = parser.parse_known_args(argv)
    course = prepare(args.out)
    print(f"formgrader of course {course_id()!r} in {course}: in JupyterLab, Nbgrader -> Formgrader -> "
          f"Manual Grading; afterwards python3 tasks.py grades --out {args.out} and python3 tasks.py feedback "
          f"--out {args.out}", flush=True)
    # nbgrader's server extension reads nbgrader_config.py from the directory JupyterLab starts in
    return subprocess.run(lab_command(course, extra), cwd=course).returncode


if __name__ == "__main__":
    sys.exit(main())
