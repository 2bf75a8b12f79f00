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


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(str(path), as_version=4)


def clean(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Strip outputs and volatile metadata; give every cell a stable id."""
    nb.metadata = nbformat.from_dict({"kernelspec": KERNELSPEC, "language_info": {"name": "python"}})
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
