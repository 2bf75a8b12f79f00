"""A reader of Canvas's gradebook import CSV, written from Canvas's own importer and exporter.

The rules are those of ``app/models/gradebook_importer.rb`` in instructure/canvas-lms (and the
layout its ``lib/gradebook_exporter.rb`` writes), so that a file this reader accepts is one Canvas
accepts, read the way Canvas reads it:

- the delimiter is ``;`` when the first lines split into more, and the same number of, fields by it;
  else ``,``; lines made only of delimiters and spaces are skipped;
- the header: more than 3 columns, the first containing ``Student`` and the second ``ID`` (or
  ``LastName``, ``FirstName``, ``ID``); then optionally ``SIS Login ID``, or ``SIS User ID`` followed
  by ``SIS Login ID`` (and optionally ``Integration ID``, ``Root Account``); the last of these
  student columns must contain ``Section``; every later column is an assignment, except the
  read-only totals (``Current Score``, ``Final Grade``, ...);
- an assignment column's title is ``Title (id)`` when it ends with a space and a number in
  parentheses, the id then naming the Canvas assignment; otherwise it is matched by title;
- a row whose first cell contains ``Points Possible`` gives the assignments' points; a row of
  only ``Muted`` or ``Manual Posting`` cells is skipped; every other row is a student, found by
  ``ID``, else by SIS User ID, else by SIS Login ID, else by name;
- every cell that is a number written with ``,`` or ``.`` (``3,5``, ``1.000,25``) is read with its last
  separator as the decimal point; a grade is the cell stripped; empty (or ``-``) is no grade.

Raises :class:`InvalidImport` where Canvas reports "Invalid header row".
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

NON_ASSIGNMENT = re.compile("Current Score|Current Points|Current Grade|Final Score|Final Points|Final Grade|"
                            "Override Score|Override Grade|Override Status")
TITLE_AND_ID = re.compile(r"\A(.*)\s\((\d+)\)\Z", re.S)


class InvalidImport(ValueError):
    pass


@dataclass
class CanvasAssignment:
    title: str
    canvas_id: str | None
    points_possible: str | None = None


@dataclass
class CanvasStudent:
    name: str
    canvas_id: str
    sis_user_id: str | None
    sis_login_id: str | None
    section: str
    grades: dict[str, str] = field(default_factory=dict)  # assignment title -> the cell, stripped


@dataclass
class CanvasImport:
    assignments: list[CanvasAssignment]
    students: list[CanvasStudent]


def _delimiter(lines: list[str]) -> str:
    counts = {}
    for separator in (";", ","):
        sizes = {len(next(csv.reader([line], delimiter=separator), [])) for line in lines}
        counts[separator] = sizes.pop() if len(sizes) == 1 else 0
    return ";" if counts[";"] > counts[","] else ","


def _decimal_comma_to_period(cell: str) -> str:
    if not re.fullmatch(r"-?[0-9.,]+%?", cell):
        return cell
    *whole, last = re.split(r"[,.]", cell)
    return ".".join(["".join(whole), last]) if whole else last


def parse(text: str) -> CanvasImport:
    lines = text.splitlines()
    delimiter = _delimiter(lines[:3])
    rows = [[_decimal_comma_to_period(cell) for cell in row] for row in csv.reader(io.StringIO(text), delimiter=delimiter)
            if not re.fullmatch(r"[;, ]*", delimiter.join(row))]
    if not rows:
        raise InvalidImport("empty file")
    header, body = rows[0], rows[1:]
    first_last = len(header) > 4 and "LastName" in header[0] and "FirstName" in header[1] and "ID" in header[2]
    if not (first_last or (len(header) > 3 and "Student" in header[0] and "ID" in header[1])):
        raise InvalidHeaderRow(header)
    names = 4 if first_last else 3
    student_columns, sis_user, sis_login = names, None, None
    if re.search(r"SIS\s+Login\s+ID", header[names - 1]):
        sis_login, student_columns = names - 1, names + 1
    elif re.search(r"SIS\s+User\s+ID", header[names - 1]) and re.search(r"SIS\s+Login\s+ID", header[names]):
        sis_user, sis_login = names - 1, names
        student_columns = names + 2
        if len(header) > names + 1 and re.search(r"Integration\s+ID", header[names + 1]):
            student_columns += 1
        if len(header) > student_columns - 1 and re.search(r"Root\s+Account", header[student_columns - 1]):
            student_columns += 1
    if "Section" not in header[student_columns - 1]:
        raise InvalidHeaderRow(header)
    columns = [(index, title) for index, title in enumerate(header) if index >= student_columns
               and not NON_ASSIGNMENT.search(title)]
    assignments = []
    for _, title in columns:
        found = TITLE_AND_ID.match(title)
        assignments.append(CanvasAssignment(found.group(1), found.group(2)) if found else CanvasAssignment(title, None))
    students = []
    for row in body:
        row = row + [""] * (len(header) - len(row))
        if "Points Possible" in row[0]:
            for (index, _), assignment in zip(columns, assignments, strict=True):
                assignment.points_possible = row[index] or None
            continue
        if all(re.fullmatch(r"\s*(Muted|Manual Posting.*)?\s*", cell, re.I) for cell in row):
            continue
        name = f"{row[1]} {row[0]}".strip() if first_last else row[0]
        student = CanvasStudent(name, row[2 if first_last else 1], row[sis_user] if sis_user is not None else None,
                                row[sis_login] if sis_login is not None else None, row[student_columns - 1])
        for (index, _), assignment in zip(columns, assignments, strict=True):
            student.grades[assignment.title] = row[index].strip()
        students.append(student)
    return CanvasImport(assignments, students)


class InvalidHeaderRow(InvalidImport):
    def __init__(self, header: list[str]):
        super().__init__(f"Invalid header row: {header}")
