"""Every source notebook runs top to bottom, and its test cells write nothing to stderr."""

from __future__ import annotations

import time

import nbformat
import pytest
from conftest import ASSIGNMENTS, REPO, SOLUTIONS
from nbclient import NotebookClient

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_solution_notebook_runs_top_to_bottom(name, tmp_path):
    nb = nbformat.read(SOLUTIONS / f"{name}.ipynb", as_version=4)
    started = time.perf_counter()
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    elapsed = time.perf_counter() - started
    errors, stderr = [], []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                errors.append(f"{cell.metadata.get('nbgrader', {}).get('grade_id')}: {output.ename}: {output.evalue}")
            if output.output_type == "stream" and output.name == "stderr":
                stderr.append(f"{cell.metadata.get('nbgrader', {}).get('grade_id')}: {output.text[:200]}")
    assert not errors
    assert not stderr, "nbgrader scores a test cell with stderr output as 0"
    assert elapsed < 120
    assert not list(REPO.glob("*.png")), "a notebook wrote files into the repository"
