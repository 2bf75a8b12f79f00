"""Reading, cleaning and writing notebooks: one canonical form for everything committed.

Committed notebooks carry no outputs, no execution counts and no volatile metadata, so that a diff
shows only what an author changed. ``python3 tasks.py fmt`` rewrites ``solutions/`` in this form;
the tests fail when a committed notebook is not in it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import nbformat

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
_KEEP_CELL_METADATA = ("nbgrader", "tags")
_KEEP_NOTEBOOK_METADATA = ("attention_course",)  # a learner copy's source, for maintainers (autograder.build)


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(str(path), as_version=4)


def clean(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Strip outputs and volatile metadata; give every cell a stable id."""
    kept_metadata = {key: nb.metadata[key] for key in _KEEP_NOTEBOOK_METADATA if key in nb.metadata}
    nb.metadata = nbformat.from_dict({"kernelspec": KERNELSPEC, "language_info": {"name": "python"},
                                      **kept_metadata})
    nb.nbformat, nb.nbformat_minor = 4, 5
    seen: set[str] = set()
    for index, cell in enumerate(nb.cells):
        kept = {key: cell.metadata[key] for key in _KEEP_CELL_METADATA if key in cell.metadata}
        cell.metadata = nbformat.from_dict(kept)
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        if "attachments" in cell and not cell.attachments:
            del cell["attachments"]
        cell_id = cell.get("id")
        if not cell_id or cell_id in seen:
            grade_id = kept.get("nbgrader", {}).get("grade_id")
            cell_id = grade_id or hashlib.sha1(f"{index}:{cell.source}".encode()).hexdigest()[:8]
            cell.id = cell_id
        seen.add(cell_id)
    return nb


def dumps(nb: nbformat.NotebookNode) -> str:
    """The canonical text of a notebook: sorted keys, one-space indent, trailing newline."""
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def write(nb: nbformat.NotebookNode, path: Path) -> None:
    nbformat.validate(nb)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(nb), encoding="utf-8")


def grade_ids(nb: nbformat.NotebookNode) -> set[str]:
    """The nbgrader ids of a notebook's graded and locked cells: its fingerprint."""
    return {
        cell.metadata["nbgrader"]["grade_id"]
        for cell in nb.cells
        if "nbgrader" in cell.metadata and "grade_id" in cell.metadata["nbgrader"]
    }


def solution_code(cell) -> str:
    """A source solution cell as a learner would hand it in: the solution markers removed."""
    lines = [line for line in cell.source.splitlines()
             if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION")]
    return "\n".join(lines)


def fill_solutions(learner: nbformat.NotebookNode, source: nbformat.NotebookNode,
                   overrides: dict[str, str] | None = None) -> nbformat.NotebookNode:
    """A copy of the learner notebook with every answer filled in from the source notebook.

    ``overrides`` maps a solution cell's grade_id to the source to put there instead (a wrong
    answer, a different correct one). Returns a new notebook; neither input is changed.
    """
    overrides = overrides or {}
    answers = {cell.metadata["nbgrader"]["grade_id"]: solution_code(cell) for cell in source.cells
               if cell.metadata.get("nbgrader", {}).get("solution")}
    filled = nbformat.from_dict(json.loads(json.dumps(learner)))
    for cell in filled.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution"):
            cell.source = overrides.get(meta["grade_id"], answers.get(meta["grade_id"], cell.source))
    unknown = set(overrides) - set(answers)
    if unknown:
        raise KeyError(f"no solution cell with grade_id {sorted(unknown)}")
    return filled
