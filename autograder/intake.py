"""The intake stage: finding each student's notebook, accounting for every file, refusing broken ones.

Runs in the grader's own process, before any submitted code runs. Nothing here executes a notebook:
it reads files (zip archives without letting a member escape, notebooks as JSON, size-capped) and
decides, for every student and assignment, which file is graded.

Every notebook file and every student folder ends as a row of ``grades.csv`` or as a line of the
run's output (:attr:`Found.lines`): a notebook in the wrong place is graded where it belongs, with
a note of where it was and where it was expected; a notebook of another assignment is named as
such; a file that is no notebook of the course is reported. Inside a zip, the class is looked for
however many folders deep it sits.
"""

from __future__ import annotations

import json
import re
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from . import SOLUTIONS
from . import notebooks as nbio
from .records import Submission

MAX_NOTEBOOK_BYTES = 50 << 20  # a bigger file is refused unread
MAX_DEPTH = 12  # folders descended into when looking for the class inside a zip or folder

LAYOUT = ("expected <student>/<assignment>/<assignment>.ipynb (the assignment is a notebook's name, such as "
          "01_attention_without_weights), a zip of such folders, or files named <student>_..._<assignment>.ipynb")


# --- unpacking -------------------------------------------------------------------------------------


def _safe_extract(archive: Path, target: Path) -> Path:
    """Unzip without letting a member escape ``target`` (zip slip)."""
    with zipfile.ZipFile(archive) as zipped:
        for member in zipped.infolist():
            destination = (target / member.filename).resolve()
            if not destination.is_relative_to(target.resolve()):
                raise ValueError(f"{archive.name}: member {member.filename!r} points outside the archive")
        zipped.extractall(target)
    return target


@contextmanager
def unpacked(submissions: Path) -> Iterator[Path]:
    """The class as a folder: the folder itself, or a zip extracted to a temporary one."""
    if submissions.is_file() and zipfile.is_zipfile(submissions):
        with tempfile.TemporaryDirectory(prefix="attention-grade-") as tmp:
            yield _safe_extract(submissions, Path(tmp) / "unzipped")
        return
    if not submissions.is_dir():
        raise SystemExit(f"{submissions}: no such folder or zip file")
    yield submissions


# --- which notebook is which -----------------------------------------------------------------------


def _ignored(path: Path) -> bool:
    """Hidden files, ``__MACOSX`` and Jupyter's own checkpoints are never submissions."""
    return path.name.startswith((".", "__"))


def _notebooks_under(folder: Path) -> list[Path]:
    found = []
    for path in sorted(folder.rglob("*.ipynb")):
        relative = path.relative_to(folder).parts
        if path.is_file() and not any(part.startswith((".", "__")) for part in relative):
            found.append(path)
    return found


def _grade_ids_in(path: Path) -> set[str] | None:
    """The nbgrader ids of a notebook file's cells, None if it cannot be read as a notebook."""
    try:
        if path.stat().st_size > MAX_NOTEBOOK_BYTES:
            return None
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        return {cell["metadata"]["nbgrader"]["grade_id"] for cell in cells
                if isinstance(cell, dict) and isinstance(cell.get("metadata"), dict)
                and isinstance(cell["metadata"].get("nbgrader"), dict)
                and isinstance(cell["metadata"]["nbgrader"].get("grade_id"), str)}
    except (OSError, ValueError, AttributeError, TypeError, KeyError, RecursionError):
        return None


class Catalogue:
    """Tells which of the course's notebooks a file is: by the cells only it has (its nbgrader ids
    that no other notebook of the course shares), else by an assignment's name in the file name."""

    def __init__(self, known: list[str], sources: dict[str, set[str]] | None = None):
        self.known = list(known)
        self._sources = sources
        self._distinctive: dict[str, set[str]] | None = None

    def distinctive(self) -> dict[str, set[str]]:
        if self._distinctive is None:
            ids = self._sources or {name: nbio.grade_ids(nbio.read(SOLUTIONS / f"{name}.ipynb")) for name in self.known}
            self._distinctive = {name: own - set().union(*(other for o, other in ids.items() if o != name))
                                 for name, own in ids.items()}
        return self._distinctive

    def by_name(self, file_name: str) -> str | None:
        names = [name for name in self.known if name in file_name]
        return max(names, key=len) if names else None

    def by_cells(self, path: Path) -> str | None:
        ids = _grade_ids_in(path)
        if not ids:
            return None
        overlap = {name: len(ids & own) for name, own in self.distinctive().items()}
        best = max(overlap.values(), default=0)
        winners = [name for name, count in overlap.items() if count == best]
        return winners[0] if best > 0 and len(winners) == 1 else None

    def identify(self, path: Path) -> str | None:
        return self.by_cells(path) or self.by_name(path.name)


# --- finding the submissions ---------------------------------------------------------------------


_LMS_NAME = re.compile(r"^(?P<student>[A-Za-z0-9.\-]+?)_(?:late_)?(?:\d+_)*(?P<file>.+?)(?:-\d+)?\.ipynb$")

# How sure intake is that a file is the student's notebook of an assignment: the lower, the better.
IN_PLACE, RENAMED, UNREADABLE_IN_PLACE, MISPLACED = range(4)


@dataclass
class Found:
    """What a class folder holds: every student's candidate files, and what became of the rest."""

    root: Path  # where the class sits (inside a zip: however deep)
    submissions: dict[tuple[str, str], list[Submission]] = field(default_factory=dict)  # best first
    students: set[str] = field(default_factory=set)  # every student folder, and every LMS file's student
    lines: list[str] = field(default_factory=list)  # one per file or folder that became no submission
    about: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # what a missing row should say

    def add(self, submission: Submission, rank: int) -> None:
        submission.rank = rank
        found = self.submissions.setdefault((submission.student, submission.assignment), [])
        found.append(submission)
        found.sort(key=lambda s: s.rank)

    def assignments(self) -> set[str]:
        return {assignment for _, assignment in self.submissions}


def _shown(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def _looks_like_a_class(folder: Path, known: set[str]) -> bool:
    """A folder whose sub-folders hold assignment folders or assignment notebooks, or that holds LMS files."""
    for entry in folder.iterdir():
        if _ignored(entry):
            continue
        if entry.is_file() and (match := _LMS_NAME.match(entry.name)) and any(name in match["file"] for name in known):
            return True
        if entry.is_dir():
            for inner in entry.iterdir():
                if (inner.name in known and inner.is_dir()) or (inner.suffix == ".ipynb" and inner.stem in known):
                    return True
    return False


def _holds_course_notebooks(folder: Path, catalogue: Catalogue) -> bool:
    """A folder whose sub-folders hold, one or two levels down, a notebook the catalogue recognises."""
    for student in (p for p in folder.iterdir() if p.is_dir() and not _ignored(p)):
        for path in _notebooks_under(student):
            if len(path.relative_to(student).parts) <= 2 and catalogue.identify(path):
                return True
    return False


def class_root(folder: Path, catalogue: Catalogue) -> Path:
    """Where the class sits: ``folder``, or the first folder down a chain of single folders (a zip's
    wrappers) that looks like a class; failing that, one that holds course notebooks one or two
    levels down; failing that, the last folder of the chain that holds folders (whose folders are
    then taken for students, so that the message of a run that finds nothing names them)."""
    chain, current = [], folder
    while len(chain) < MAX_DEPTH:
        chain.append(current)
        folders = [p for p in current.iterdir() if p.is_dir() and not _ignored(p)]
        notebooks = [p for p in current.iterdir() if p.suffix == ".ipynb" and p.is_file()]
        if len(folders) != 1 or notebooks:
            break
        current = folders[0]
    known = set(catalogue.known)
    for test in (lambda f: _looks_like_a_class(f, known), lambda f: _holds_course_notebooks(f, catalogue)):
        for candidate in chain:
            if test(candidate):
                return candidate
    return chain[-1] if len(chain) == 1 or any(p.is_dir() for p in chain[-1].iterdir()) else chain[-2]


def _student_folder(found: Found, folder: Path, catalogue: Catalogue) -> None:
    """Every notebook under one student's folder, placed or reported."""
    student, known = folder.name, set(catalogue.known)
    found.students.add(student)
    for inner in sorted(p for p in folder.iterdir() if p.is_dir() and p.name in known):
        found.submissions.setdefault((student, inner.name), [])  # a folder without a notebook: "missing"
    for path in _notebooks_under(folder):
        relative = path.relative_to(folder)
        shown = f"{student}/{relative.as_posix()}"
        in_folder = relative.parts[0] if len(relative.parts) > 1 and relative.parts[0] in known else None
        if in_folder and path.name == f"{in_folder}.ipynb":
            found.add(Submission(student, in_folder, path), IN_PLACE)
            continue
        by_cells = catalogue.by_cells(path)
        what = by_cells or catalogue.by_name(path.name)
        if in_folder and what == in_folder:
            how = "its cells" if by_cells else "its name"
            found.add(Submission(student, in_folder, path, f"renamed notebook {path.name!r} matched by {how}"),
                      RENAMED)
        elif in_folder and what is None:
            found.add(Submission(student, in_folder, path, f"renamed notebook {path.name!r} taken as the only one"),
                      UNREADABLE_IN_PLACE)
        elif what:
            expected = f"{student}/{what}/{what}.ipynb"
            found.add(Submission(student, what, path, f"found at {shown}, expected at {expected}"), MISPLACED)
            if in_folder:
                found.about.setdefault((student, in_folder), []).append(
                    f"{shown} is notebook {what}, taken for that assignment")
        else:
            line = f"{shown}: not a notebook of this course ({LAYOUT})"
            found.lines.append(line)
            for name in [in_folder] if in_folder else catalogue.known:
                found.about.setdefault((student, name), []).append(f"{shown} is not a notebook of this course")


def find_submissions(folder: Path, known: list[str], catalogue: Catalogue | None = None) -> Found:
    """Every student's candidate notebooks for every assignment, from either supported layout, and one
    line for each notebook file that is none of them (see the module's doc)."""
    catalogue = catalogue or Catalogue(known)
    root = class_root(folder, catalogue)
    found = Found(root)
    for entry in sorted(root.iterdir()):
        if _ignored(entry):
            continue
        if entry.is_dir():
            _student_folder(found, entry, catalogue)
        elif entry.suffix == ".ipynb" and entry.is_file():  # flat LMS download: student_..._assignment.ipynb
            match = _LMS_NAME.match(entry.name)
            what = catalogue.by_name(entry.name[len(match["student"]) + 1:]) if match else None
            what = what or (catalogue.by_cells(entry) if match else None)
            if what:
                found.students.add(match["student"])
                found.add(Submission(match["student"], what, entry), IN_PLACE)
            else:
                found.lines.append(f"{_shown(root, entry)}: a notebook whose name says no student and assignment "
                                   f"({LAYOUT})")
    return found


def choose(candidates: list[Submission], assignment: str) -> tuple[Submission | None, str]:
    """The file graded for an assignment (the best placed), and a note of any other not graded."""
    if not candidates:
        return None, ""
    best = candidates[0]
    if best.rank == UNREADABLE_IN_PLACE and sum(c.rank == UNREADABLE_IN_PLACE for c in candidates) > 1:
        return None, f"none of {[c.path.name for c in candidates]} is {assignment}.ipynb"
    others = [c.path.name for c in candidates[1:]]
    note = f"also handed in, not graded: {', '.join(others)}" if others else ""
    return best, "; ".join(filter(None, [best.note, note]))


def nothing_found(submissions: Path, found: Found) -> str:
    """The message of a run that found no notebook to grade (with each file and student folder it saw)."""
    lines = [*found.lines, *(f"{student}/: no notebook in this student's folder" for student in sorted(found.students))]
    more = f"\n  ... and {len(lines) - 20} more" if len(lines) > 20 else ""
    return f"found no notebook to grade in {submissions}: {LAYOUT}" + "".join(f"\n  {line}" for line in lines[:20]) + more


# --- refusing broken notebooks ---------------------------------------------------------------------


def validate(path: Path) -> str | None:
    """None if ``path`` is a notebook nbgrader can read, else a one-line reason."""
    size = path.stat().st_size
    if size > MAX_NOTEBOOK_BYTES:
        return f"a file of {size / 2**20:.0f} MB, over the {MAX_NOTEBOOK_BYTES >> 20} MB a notebook may have"
    try:
        json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        return "not valid notebook JSON (not UTF-8 text)"
    except json.JSONDecodeError as error:
        # json's own wording ends some messages with "at" ("Unterminated string starting at")
        return f"not valid notebook JSON ({error.msg.removesuffix(' at')} at line {error.lineno}, column {error.colno})"
    except RecursionError:
        return "not a notebook (JSON nested too deep)"
    try:
        nb = nbformat.read(str(path), as_version=4)
        nbformat.validate(nb)
    except (nbformat.ValidationError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
        first = str(error).splitlines()[0][:160] if str(error) else ""
        return f"not a valid notebook ({type(error).__name__}: {first})"
    return None


def points(root: Path, assignment: str) -> tuple[float, float]:
    """(points of autograded test cells, all points) of an assignment, from its source notebook."""
    nb = nbio.read(root / "source" / assignment / f"{assignment}.ipynb")
    auto = total = 0.0
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("grade"):
            total += float(meta.get("points", 0))
            if not meta.get("solution") and cell.cell_type == "code":
                auto += float(meta.get("points", 0))
    return auto, total
