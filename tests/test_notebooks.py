"""Every source notebook runs top to bottom, and its test cells write nothing to stderr."""

from __future__ import annotations

import time

import nbformat
import pytest
from conftest import ASSIGNMENTS, REPO, SOLUTIONS
from nbclient import NotebookClient

pytestmark = pytest.mark.slow

# Numbers each source printed, as they appear in the notebook's source or outputs: a notebook that
# rebuilds a source prints every number of its walkthrough again (issue 27).
SOURCE_NUMBERS = {
    "01_attention_without_weights": ["0.9544", "1.4950", "0.1455", "0.1385", "0.2379", "0.4419",
                                     "0.6515", "0.5683", "0.4421", "0.2098", "0.9995"],
    "02_general_attention_numpy": ["0.16199", "0.51402", "1.67601", "0.64798", "1.84696", "0.30608",
                                   "0.98522", "1.74174", "0.75652"],
    "03_attention_tensorflow": ["55", "35", "54", "85", "3.0590218e-07", "1.3887937e-11",
                                "1.8553905e-07", "5.0000005", "6.999999", "4.9999995", "5.0002036",
                                "[29 18 28 45]", "[41 26 40 63]", "[53 31 50 85]", "[5 7 5 5]",
                                "9.9946004e-01"],
    "04_why_scale_by_sqrt_dk": ["This", "is", "book"],
    "05_matrix_form_and_masks": ["1.93662106", "6.68310531", "1.59506841", "0.06337894",
                                 "0.46831053", "1.8638742"],
    "06_multi_head_attention": ["512", "64"],
    "07_trainable_attention": ["-0.4519", "0.2216", "-0.5874", "0.0058"],
    "08_pretrained_transformer": ["He took the hat and examined it carefully"],
    "09_gpt_from_scratch": ["answered by trainable weights"],
}


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
    text = "\n".join(cell.source + "".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", ""))
                                          for o in cell.get("outputs", [])) for cell in nb.cells)
    missing = [number for number in SOURCE_NUMBERS[name] if number not in text]
    assert not missing, f"numbers the source printed, not in the executed notebook: {missing}"
    assert not stderr, "nbgrader scores a test cell with stderr output as 0"
    assert elapsed < 120
    assert not list(REPO.glob("*.png")), "a notebook wrote files into the repository"
