"""Intake: finding each student's notebook, refusing broken ones, and noticing tampering.

Runs in the grader's own process, before any submitted code runs. Nothing here executes a
notebook: it reads files (zip archives without letting a member escape, notebooks as JSON), picks
the submitted file for each assignment, and compares its locked and test cells with the released
ones, so that the grader can restore them and say what was changed.
"""

from __future__ import annotations

import ast
import csv
import json
import re
import zipfile
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import nbformat

from . import notebooks as nbio


@dataclass
class Result:
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


CSV_COLUMNS = [field.name for field in fields(Result)]


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
        except Exception:
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
    try:
        json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        return "not valid notebook JSON (not UTF-8 text)"
    except json.JSONDecodeError as error:
        return f"not valid notebook JSON ({error.msg} at line {error.lineno}, column {error.colno})"
    try:
        nb = nbformat.read(str(path), as_version=4)
        nbformat.validate(nb)
    except Exception as error:
        return f"not a valid notebook ({type(error).__name__}: {str(error).splitlines()[0][:160]})"
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


def write_csv(results: list[Result], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        for result in results:
            row = asdict(result)
            for key in ("score", "max_score", "auto_score", "auto_max_score"):
                row[key] = f"{row[key]:g}"
            writer.writerow(row)




# --- tampering -----------------------------------------------------------------------------------

# Names whose rebinding or patching in submitted code is reported (it cannot change a grade: test
# cells are judged by the grader, not in the learner's process; the report tells the instructor).
GUARDED_NAMES = {"check", "check_rows_sum_to_one", "check_shift_invariance", "check_permutation_equivariance",
                 "expect_close", "close", "judge", "CheckFailed", "AssertionError", "print", "get_ipython", "exit",
                 "__builtins__", "__import__"}
GUARDED_MODULES = {"np", "numpy", "torch", "tf", "tensorflow", "keras", "scipy", "attention_course", "checks",
                   "builtins", "sys", "IPython", "os", "nbgrader"}
_HOOKS = {"input_transformers_cleanup", "input_transformers_post", "ast_transformers", "set_custom_exc",
          "register_post_execute", "register", "register_magic_function", "showtraceback", "events",
          "custom_exceptions"}


def _root_name(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _attributes(node: ast.AST) -> list[str]:
    names = []
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        if isinstance(node, ast.Attribute):
            names.append(node.attr)
        node = node.func if isinstance(node, ast.Call) else node.value
    return names


def patches(source: str) -> list[str]:
    """What a cell's code rebinds or patches among the guarded names, hooks and modules."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in GUARDED_NAMES:
            found.append(f"redefines {node.name}")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if (alias.asname or alias.name) in GUARDED_NAMES and alias.name not in GUARDED_NAMES:
                    found.append(f"rebinds {alias.asname or alias.name} by import")
        elif isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in {"setattr", "delattr"} and node.args and _root_name(node.args[0]) in GUARDED_MODULES:
                found.append(f"{name} on {_root_name(node.args[0])}")
            elif isinstance(node.func, ast.Attribute) and (hooks := _HOOKS & set(_attributes(node.func))):
                found.append(f"installs an IPython hook ({sorted(hooks)[0]})")
            elif name in {"patch", "patch.object", "patch.dict"}:
                found.append("uses mock.patch")
        for target in targets:
            for leaf in ast.walk(target):
                if isinstance(leaf, ast.Name) and leaf.id in GUARDED_NAMES and leaf is target:
                    found.append(f"rebinds {leaf.id}")
            if isinstance(target, (ast.Attribute, ast.Subscript)) and (
                    _root_name(target) in GUARDED_MODULES
                    or (isinstance(target, ast.Attribute) and target.attr in GUARDED_NAMES)):
                found.append(f"patches {ast.unparse(target)[:60]}")
            if isinstance(target, (ast.Tuple, ast.List)):
                found += [f"rebinds {e.id}" for e in target.elts if isinstance(e, ast.Name) and e.id in GUARDED_NAMES]
    return sorted(set(found))


def tampering(submitted: nbformat.NotebookNode, released: nbformat.NotebookNode) -> list[str]:
    """One short phrase per change to a locked or test cell, and per patch of a guarded name."""
    found = []
    cells = {}
    for cell in submitted.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id:
            cells.setdefault(grade_id, cell)
    for cell in released.cells:
        meta = cell.metadata.get("nbgrader", {})
        if not meta.get("grade_id") or meta.get("solution") or not (meta.get("locked") or meta.get("grade")):
            continue
        mine = cells.get(meta["grade_id"])
        kind = "test cell" if meta.get("grade") else "locked cell"
        if mine is None:
            found.append(f"deleted {kind} {meta['grade_id']}")
        elif mine.cell_type != cell.cell_type or mine.source.strip() != cell.source.strip():
            found.append(f"edited {kind} {meta['grade_id']}")
    for cell in submitted.cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and not meta.get("locked") and not meta.get("grade"):
            for patch in patches(cell.source):
                where = meta.get("grade_id") or "an unlocked cell"
                found.append(f"{patch} in {where}")
    return list(dict.fromkeys(found))
