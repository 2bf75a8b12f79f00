"""The intake stage: finding each student's notebook and refusing broken ones.

Runs in the grader's own process, before any submitted code runs. Nothing here executes a notebook:
it reads files (zip archives without letting a member escape, notebooks as JSON, size-capped) and
picks the submitted file for each assignment.
"""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import nbformat

from . import notebooks as nbio

MAX_NOTEBOOK_BYTES = 50 << 20  # a bigger file is refused unread


# --- finding the submissions ---------------------------------------------------------------------


def _safe_extract(archive: Path, target: Path) -> Path:
    """Unzip without letting a member escape ``target`` (zip slip)."""
    with zipfile.ZipFile(archive) as zipped:
        for member in zipped.infolist():
            destination = (target / member.filename).resolve()
            if not destination.is_relative_to(target.resolve()):
                raise ValueError(f"{archive.name}: member {member.filename!r} points outside the archive")
        zipped.extractall(target)
    return target


_LMS_NAME = re.compile(r"^(?P<student>[A-Za-z0-9.\-]+?)_(?:late_)?(?:\d+_)*(?P<file>.+?)(?:-\d+)?\.ipynb$")


def find_submissions(folder: Path, known: list[str]) -> dict[tuple[str, str], list[Path]]:
    """{(student, assignment): candidate notebook files}, from either supported layout."""
    found: dict[tuple[str, str], list[Path]] = {}
    for student_dir in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith((".", "__"))):
        for assignment_dir in sorted(p for p in student_dir.iterdir() if p.is_dir()):
            if assignment_dir.name in known:
                notebooks = sorted(p for p in assignment_dir.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
                found[(student_dir.name, assignment_dir.name)] = notebooks
    for path in sorted(folder.rglob("*.ipynb")):  # flat LMS download: student_..._assignment.ipynb
        match = _LMS_NAME.match(path.name)
        if path.parent != folder or not match:
            continue
        rest = path.name[len(match["student"]) + 1:]  # ids, "late_", the original file name
        names = [name for name in known if name in rest]
        if names:
            found.setdefault((match["student"], max(names, key=len)), []).append(path)
    return found


def choose_notebook(candidates: list[Path], assignment: str, source_ids: set[str]) -> tuple[Path | None, str]:
    """The submitted file for ``assignment``: the expected name, else the one sharing its graded cells."""
    for path in candidates:
        if path.name == f"{assignment}.ipynb":
            return path, ""
    best, best_overlap = None, 0
    for path in candidates:
        try:
            overlap = len(nbio.grade_ids(nbio.read(path)) & source_ids)
        except (OSError, ValueError, KeyError, TypeError, RecursionError):  # not a notebook: shares nothing
            overlap = 0
        if overlap > best_overlap:
            best, best_overlap = path, overlap
    if best is not None:
        return best, f"renamed notebook {best.name!r} matched by its cells"
    if len(candidates) == 1:
        return candidates[0], f"renamed notebook {candidates[0].name!r} taken as the only one"
    return None, ""


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
        return f"not valid notebook JSON ({error.msg} at line {error.lineno}, column {error.colno})"
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
