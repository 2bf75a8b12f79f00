"""The two README commands and what they rely on."""

from __future__ import annotations

import re
import subprocess
import sys

from conftest import REPO


def test_readme_quick_start_has_exactly_the_two_commands():
    readme = (REPO / "README.md").read_text()
    quick_start = readme.split("## Quick start", 1)[1].split("##", 1)[0]
    commands = re.findall(r"^python3 tasks\.py (\w+)", quick_start, re.M)
    assert commands == ["lab", "test"]
    ci = (REPO / ".ci" / "run").read_text()
    assert ci.strip().splitlines()[-1] == "exec python3 tasks.py test"


def test_nbgrader_extensions_are_enabled_for_learners():
    labext = subprocess.run([sys.executable, "-m", "jupyter", "labextension", "list"],
                            capture_output=True, text=True)
    assert re.search(r"@jupyter/nbgrader v0\.9\.6 .*enabled", labext.stdout + labext.stderr)
    server = subprocess.run([sys.executable, "-m", "jupyter", "server", "extension", "list"],
                            capture_output=True, text=True)
    assert re.search(r"nbgrader\.server_extensions\.validate_assignment .*enabled", server.stdout + server.stderr)


def test_lab_opens_the_course_at_notebooks():
    source = (REPO / "tasks.py").read_text()
    assert "--ServerApp.root_dir={ROOT / 'notebooks'}" in source


def test_package_imports_without_any_framework():
    code = ("import sys, attention_course.checks, attention_course.plots, attention_course.data;"
            "assert 'torch' not in sys.modules and 'tensorflow' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
