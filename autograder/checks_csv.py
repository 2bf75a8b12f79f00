"""``checks.csv``: one row per graded check of every submission (see :class:`~.records.CheckRow`)."""

from __future__ import annotations

import csv
from dataclasses import asdict, fields
from pathlib import Path

from .records import CheckRow

COLUMNS = [f.name for f in fields(CheckRow)]


def read(path: Path) -> list[dict[str, str]]:
    if not path.is_file():
        return []
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def update(rows: list[CheckRow], path: Path, regraded: set[tuple[str, str]] | None = None) -> None:
    """Replace the rows of the submissions graded now ((student, assignment); by default those in
    ``rows``: a submission regraded into a failure has none); keep every other submission's rows.
    Rows are written by student, then notebook, each submission's in its own order, so the file
    does not depend on which submission's grading finished first."""
    regraded = regraded if regraded is not None else {(row.student, row.assignment) for row in rows}
    kept = [row for row in read(path) if (row["student"], row["assignment"]) not in regraded]
    every = sorted([*kept, *(asdict(row) for row in rows)], key=lambda row: (row["student"], row["assignment"]))
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(every)
