"""The sanitise stage: a submission made safe to run and honest to grade, in the grader's process.

nbgrader's own intake preprocessors restore every locked and test cell from the gradebook
(``OverwriteCells``), drop outputs and duplicate ids. Before that, :func:`tampering` notes, in one
short phrase each, what the submission changed of the released notebook's protected cells and which
names the tests use it rebinds or patches: that cannot change a grade (the tests run in the grader's
process), but the instructor is told, and the feedback says what was undone.
"""

from __future__ import annotations

import ast
import copy
import re
from pathlib import Path

import nbformat

MAX_CELL_SOURCE = 1 << 20  # characters of one cell's code that are read for patches

# --- tampering -----------------------------------------------------------------------------------

# Names whose rebinding or patching in submitted code is reported (it cannot change a grade: test
# cells are judged by the grader, not in the learner's process; the report tells the instructor).
GUARDED_NAMES = {"check", "check_rows_sum_to_one", "check_shift_invariance", "check_permutation_equivariance",
                 "check_raises", "expect_close", "close", "judge", "CheckFailed", "AssertionError", "print", "get_ipython", "exit",
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
    if len(source) > MAX_CELL_SOURCE:
        return ["a cell too large to read"]
    try:
        tree = ast.parse(source)
        nodes = list(ast.walk(tree))
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # not Python we can read: no patch found
        return []
    try:
        return sorted(set(_patches_in(nodes)))
    except RecursionError:
        return ["code nested too deep to read"]


def _patches_in(nodes: list[ast.AST]) -> list[str]:
    found = []
    for node in nodes:
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
    return found


def _plain_name(text) -> str:
    """A name from the submission's metadata, reduced to letters, digits, _ and - (it is shown)."""
    return re.sub(r"[^A-Za-z0-9_-]", "", str(text or ""))[:40]


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
                where = _plain_name(meta.get("grade_id")) or "an unlocked cell"
                found.append(f"{patch} in {where}")
    return list(dict.fromkeys(found))


def restored(nb: nbformat.NotebookNode, student: str, assignment: str, db_url: str,
             course_id: str) -> nbformat.NotebookNode:
    """nbgrader's own intake preprocessors: locked and test cells restored from the gradebook."""
    from nbgrader.api import Gradebook
    from nbgrader.preprocessors import (
        CheckCellMetadata,
        ClearOutput,
        DeduplicateIds,
        OverwriteCells,
    )
    from traitlets.config import Config

    with Gradebook(db_url, course_id) as gradebook:
        gradebook.update_or_create_student(student)
        # nbgrader builds the new submission's rows before adding them to the session; a query run
        # meanwhile (a lazy load) would flush them half-made (SQLAlchemy's "not in session" warnings)
        with gradebook.db.no_autoflush:
            gradebook.update_or_create_submission(assignment, student)
    config = Config()
    config.OverwriteCells.add_missing_cells = True
    resources = {"nbgrader": {"notebook": assignment, "assignment": assignment, "student": student,
                              "db_url": db_url}}
    nb = copy.deepcopy(nb)
    for preprocessor in (ClearOutput, DeduplicateIds, OverwriteCells, CheckCellMetadata):
        nb, resources = preprocessor(config=config).preprocess(nb, resources)
    return nb


def restored_or_why(nb: nbformat.NotebookNode, path: Path, student: str, assignment: str, db_url: str,
                    course_id: str, catalogue) -> nbformat.NotebookNode | str:
    """:func:`restored`, or the one line that says why nbgrader could not restore it (a notebook of
    another assignment handed in under this one's name, told by its cells)."""
    try:
        return restored(nb, student, assignment, db_url, course_id)
    except (KeyError, ValueError, TypeError, AttributeError) as error:
        other = catalogue.by_cells(path)
        if other not in (None, assignment):
            return f"{path.name}: this is notebook {other}, not {assignment}"
        return f"{path.name}: nbgrader could not read it ({type(error).__name__}: {error})"[:300]
