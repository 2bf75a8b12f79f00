"""Grade a whole class: every notebook of every student, in sandboxes, on every core.

    python3 tasks.py grade SUBMISSIONS [--out DIR] [--db URL] [--workers N] [--scheduler tcp://HOST:8786]
                                       [--student S ...] [--assignment A ...] [--force] [--memory GIB]
                                       [--cell-timeout S] [--notebook-timeout S] [--all-cells]

SUBMISSIONS is a folder in nbgrader's layout ``<student>/<assignment>/<notebook>.ipynb``, or a zip
of one, or an LMS download zip whose files are named ``<student>_..._<assignment>.ipynb``.

Everything is written under ``--out`` (default ``graded/``): ``grades.csv``, ``feedback/<student>/
<assignment>.html``, and ``course/``, the nbgrader course directory with its gradebook (SQLite unless
``--db`` names another database) and the autograded notebooks that formgrader shows. The
submissions and ``solutions/`` are only read. See :mod:`autograder.pipeline` for how it works.

Grading the same class again regrades only the submissions whose content changed (or the ones
named with ``--student``/``--assignment``, with ``--force``); an interrupted run keeps every result
it finished. Bad input never stops the run: one line per submission says what happened, and every
notebook file or student folder that became no row gets a line of its own. A run that finds no
notebook at all stops with a message saying the layout it expects. Every run writes ``grades.csv``
for the whole class from the gradebook (manual grades included) and ends with what is left to do.

Only the cells a grade depends on run: the learner's own cells and the course's cells whose names
their code uses (see :mod:`autograder.slicing`); a demonstration that trains a model for a plot
does not. ``--all-cells`` runs every cell, as ``nbgrader autograde`` does, so that the autograded
notebooks show every output; scores are the same either way.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .dispatch import default_workers
from .pipeline import grade


def main(argv: list[str] | None = None) -> int:
    # nbgrader creates a gradebook by running `alembic`, which it looks for on PATH: the one installed
    # next to this Python, also when the grader is started as .venv/bin/python without activating it.
    os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("submissions", type=Path, help="folder <student>/<assignment>/<notebook>.ipynb, or a zip")
    parser.add_argument("--out", type=Path, default=Path("graded"), help="where to write (default: graded/)")
    parser.add_argument("--db", default=None, help="SQLAlchemy URL of the gradebook (default: SQLite in --out)")
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help=f"sandboxed runs at once on this machine (default: every core, {default_workers()})")
    parser.add_argument("--scheduler", default=None, help="address of a Dask scheduler (tcp://HOST:8786) whose "
                        "workers run the sandboxed notebooks; default: this machine")
    parser.add_argument("--student", action="append", default=None, help="grade only this student (repeatable)")
    parser.add_argument("--assignment", action="append", default=None, help="grade only this assignment (repeatable)")
    parser.add_argument("--force", action="store_true", help="regrade even submissions that did not change")
    parser.add_argument("--memory", type=float, default=4, help="memory cap of one notebook, GiB (default 4)")
    parser.add_argument("--cell-timeout", type=int, default=30, help="seconds one cell may run (default 30)")
    parser.add_argument("--notebook-timeout", type=int, default=600,
                        help="seconds one whole notebook may take (default 600)")
    parser.add_argument("--all-cells", action="store_true", help="run every cell, not only those a grade "
                        "depends on (slower; the autograded notebooks then show every output)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar, no table")
    args = parser.parse_args(argv)
    try:
        grade(args.submissions, args.out, args.db, args.cell_timeout, args.notebook_timeout,
              progress=not args.quiet, workers=args.workers, scheduler=args.scheduler,
              memory_gib=args.memory, force=args.force, all_cells=args.all_cells,
              students=set(args.student) if args.student else None,
              only=set(args.assignment) if args.assignment else None)
    except KeyboardInterrupt:
        print("interrupted: every finished result is kept; run the same command again to go on", file=sys.stderr)
        return 130
    return 0  # the run printed its rows and what is left to do (unless --quiet)


if __name__ == "__main__":
    sys.exit(main())
