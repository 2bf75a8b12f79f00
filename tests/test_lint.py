"""ruff on code and notebooks; solutions/ in canonical form."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO


def test_ruff_finds_nothing():
    completed = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=REPO,
                               capture_output=True, text=True)
    assert completed.returncode == 0, completed.stdout[-3000:]


def test_source_notebooks_are_formatted():
    completed = subprocess.run([sys.executable, "-m", "autograder.fmt", "--check"], cwd=REPO,
                               capture_output=True, text=True)
    assert completed.returncode == 0, completed.stdout
