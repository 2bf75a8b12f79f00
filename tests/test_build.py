"""Generated files are up to date, committed notebooks are clean, and the pins agree."""

from __future__ import annotations

import re

import pytest
import yaml
from conftest import REPO

from autograder import NOTEBOOKS, SOLUTIONS
from autograder import notebooks as nbio
from autograder.build import GENERATED_TAG, expected_files, stale


@pytest.fixture(scope="module")
def generated():
    return expected_files()


@pytest.mark.slow
def test_generated_files_are_not_stale(generated):
    problems = stale(generated)
    assert not problems, f"stale generated files, run `python3 tasks.py build`: {problems}"


def test_every_source_notebook_has_a_learner_copy():
    assert sorted(p.name for p in SOLUTIONS.glob("*.ipynb")) == sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))


@pytest.mark.parametrize("path", sorted(SOLUTIONS.glob("*.ipynb")) + sorted(NOTEBOOKS.glob("*.ipynb")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_committed_notebooks_are_canonical(path):
    text = path.read_text(encoding="utf-8")
    assert text == nbio.dumps(nbio.clean(nbio.read(path))), f"run `python3 tasks.py fmt` ({path.name})"


# What a maintainer must be told and a learner must not: the learner copy is the file to edit.
MAINTAINER_NOTE = re.compile(r"generated from|edit that source|not this copy|tasks\.py build", re.I)


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.name)
def test_learner_copies_start_with_the_title_then_the_install_cell(path):
    nb = nbio.read(path)
    title, install = nb.cells[0], nb.cells[1]
    assert title.cell_type == "markdown" and title.source.startswith(f"# {path.name[:2]} ·"), title.source[:80]
    assert "colab.research.google.com" in title.source, "the Colab badge sits under the title"
    assert install.cell_type == "code" and GENERATED_TAG in install.metadata.get("tags", [])
    assert install.source.startswith("# Run this cell first."), install.source[:80]
    assert len(install.source.splitlines()) <= 12, "the install cell stays short"


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.name)
def test_learner_copies_keep_the_maintainers_note_in_metadata_only(path):
    nb = nbio.read(path)
    assert nb.metadata["attention_course"]["generated_from"] == f"solutions/{path.name}"
    told = [cell.source[:80] for cell in nb.cells if MAINTAINER_NOTE.search(cell.source)]
    assert not told, f"a cell speaks to maintainers: {told}"


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.name)
def test_learner_copies_hold_no_solution(path):
    text = path.read_text(encoding="utf-8")
    assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text
    assert "Rubric" not in text


def _pins_from_requirements() -> dict[str, str]:
    pins = {}
    for line in (REPO / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = line.split("==")
            pins[name.lower()] = version
    return pins


def test_every_requirement_is_pinned_exactly():
    for line in (REPO / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            assert re.fullmatch(r"[A-Za-z0-9_.\-\[\]]+==[0-9][A-Za-z0-9.+]*", line), line


def test_environment_yml_carries_the_same_pins():
    env = yaml.safe_load((REPO / "environment.yml").read_text())
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    pins = {}
    for entry in pip_section:
        if "==" in entry:
            name, version = entry.split("==")
            pins[name.lower()] = version
    assert pins == _pins_from_requirements()


def test_required_stack_is_pinned():
    pins = _pins_from_requirements()
    for package in ("numpy", "scipy", "torch", "tensorflow-cpu", "jupyterlab", "nbgrader", "matplotlib"):
        assert package in pins, package
    assert pins["torch"] == "2.13.0"


def test_images_are_regenerated_by_their_script():
    import subprocess
    import sys

    completed = subprocess.run([sys.executable, "scripts/make_images.py", "--check"], cwd=REPO,
                               capture_output=True, text=True)
    assert completed.returncode == 0, completed.stdout + completed.stderr
