#!/usr/bin/env python3
"""The course's task runner. Needs only Python >= 3.11; sets up .venv/ itself when it is missing.

    python3 tasks.py lab      set up if needed, open the course in JupyterLab at notebooks/ (as learners see it)
    python3 tasks.py test     set up if needed, run the whole test suite (what CI runs)
    python3 tasks.py test --fast    the maintainer's loop (a few minutes): fast tests, and every
                              notebook's grading of its solutions, untouched copy and one wrong answer
    python3 tasks.py build    regenerate notebooks/, environment.yml and README's table from their sources
    python3 tasks.py grade    grade a class: python3 tasks.py grade SUBMISSIONS [--out DIR] [--db URL]
    python3 tasks.py report   the class report of a graded folder: DIR/report.html (--out DIR [--threshold 0.5])
    python3 tasks.py formgrader --out DIR   nbgrader's formgrader on a graded class (written answers by hand)
    python3 tasks.py grades --out DIR       DIR/grades.csv from the gradebook, manual grades included
                              (--format canvas --roster FILE: DIR/canvas-grades.csv too)
    python3 tasks.py feedback --out DIR     every feedback page again, with the manual grades and comments
    python3 tasks.py fmt      put solutions/ in canonical form (no outputs, no volatile metadata), ruff --fix
    python3 tasks.py lint     ruff on code and notebooks, and the staleness check
    python3 tasks.py bench    time every solution notebook
    python3 tasks.py bench-package   the learner wheel's size and each notebook's first data read
    python3 tasks.py bench-grading --students N   grading a class: this grader vs nbgrader serial vs the floor
    python3 tasks.py accuracy the diagnosis table: mistakes caught and named, variants accepted
    python3 tasks.py setup    only set up .venv/

Arguments after the task go to the tool it runs (pytest, jupyter lab, the grader).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = Path(os.environ.get("ATTENTION_COURSE_VENV", ROOT / ".venv"))
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".attention-course-installed"
# JupyterLab as learners get it: no news pop-up, no nbgrader instructor tools (see its README.md).
LEARNER_JUPYTER_CONFIG = ROOT / "jupyter-config" / "learner"


def _fingerprint() -> str:
    digest = hashlib.sha256()
    for name in ("requirements.txt", "pyproject.toml", "autograder/pyproject.toml"):
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()


def setup() -> None:
    """Create .venv/ and install the pinned requirements and the course package, if not done yet."""
    if sys.version_info < (3, 11):
        sys.exit(f"Python >= 3.11 is needed; this is {sys.version.split()[0]}.")
    if STAMP.is_file() and STAMP.read_text() == _fingerprint() and PYTHON.exists():
        return
    if not PYTHON.exists():
        print(f"creating {VENV} ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("installing the pinned requirements (a few minutes the first time) ...", flush=True)
    # pip compiles each package's modules one file at a time; they are compiled once at the end
    # instead, on every core (about a minute less on two)
    pip = [str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q", "--no-compile"]
    # A line marked `# no-deps` is installed without the dependencies its metadata declares (they
    # are not needed, and what is needed is pinned on lines of its own).
    lines = (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    no_deps = [line.split("#")[0].strip() for line in lines if "# no-deps" in line]
    (VENV / "requirements-with-deps.txt").write_text("".join(line for line in lines if "# no-deps" not in line))
    subprocess.run([*pip, "-r", str(VENV / "requirements-with-deps.txt")], check=True, cwd=ROOT)
    if no_deps:
        subprocess.run([*pip, "--no-deps", "--no-warn-conflicts", *no_deps], check=True, cwd=ROOT)
    # the course's two packages, in development mode: the learner package (src/) and the grader
    # (autograder/), which depends on it
    subprocess.run([*pip, "--no-deps", "-e", str(ROOT), "-e", str(ROOT / "autograder")], check=True, cwd=ROOT)
    site_packages = subprocess.run([str(PYTHON), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                   check=True, capture_output=True, text=True).stdout.strip()
    # check=False: a few packages ship files that are not Python 3 (templates, tests of old syntax)
    subprocess.run([str(PYTHON), "-m", "compileall", "-q", "-j", "0", site_packages], check=False,
                   stdout=subprocess.DEVNULL)
    STAMP.write_text(_fingerprint())


def lab_environment() -> dict[str, str]:
    """What `lab` adds to the environment: the learners' Jupyter configuration searched first."""
    path = os.pathsep.join(filter(None, [str(LEARNER_JUPYTER_CONFIG), os.environ.get("JUPYTER_CONFIG_PATH")]))
    return {"JUPYTER_CONFIG_PATH": path}


def run(*args: str | Path, check: bool = True, extra_env: dict[str, str] | None = None) -> int:
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", **(extra_env or {}))
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    code = subprocess.run([str(a) for a in args], cwd=ROOT, env=env).returncode
    if check and code:
        sys.exit(code)
    return code


def test_workers(args: list[str]) -> list[str]:
    """pytest-xdist's options for the suite: one test process per core (at most 4: each grading test
    starts sandbox workers of its own), tests that share a costly fixture kept together (the groups
    of tests/conftest.py). None when the caller chose (``-n``, ``-p no:xdist``), has one core, or runs
    ``--fast`` (one grading run is most of it: a second process only adds its start-up)."""
    workers = min(4, os.cpu_count() or 1)
    chose = any(arg.startswith(("-n", "--numprocesses")) or arg in ("no:xdist", "--fast") for arg in args)
    return [] if chose or workers < 2 else ["-n", str(workers), "--dist", "loadgroup"]


def main(argv: list[str]) -> int:
    if not argv or argv[0] in {"-h", "--help", "help"}:
        print(__doc__)
        return 0
    task, rest = argv[0], argv[1:]
    setup()
    if task == "setup":
        return 0
    if task == "lab":
        as_root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []  # containers
        return run(PYTHON, "-m", "jupyter", "lab", f"--ServerApp.root_dir={ROOT / 'notebooks'}", *as_root, *rest,
                   extra_env=lab_environment())
    if task == "test":
        return run(PYTHON, "-m", "pytest", *test_workers(rest), *rest, check=False)
    if task == "build":
        return run(PYTHON, "-m", "autograder.build", *rest)
    if task == "grade":
        return run(PYTHON, "-m", "autograder.grade", *rest, check=False)
    if task == "report":
        return run(PYTHON, "-m", "autograder.report", *rest, check=False)
    if task == "formgrader":
        return run(PYTHON, "-m", "autograder.formgrader", *rest, check=False)
    if task == "grades":
        return run(PYTHON, "-m", "autograder.grades", "csv", *rest, check=False)
    if task == "feedback":
        return run(PYTHON, "-m", "autograder.grades", "feedback", *rest, check=False)
    if task == "fmt":
        run(PYTHON, "-m", "autograder.fmt")
        return run(PYTHON, "-m", "ruff", "check", "--fix", "--quiet", ".", check=False)
    if task == "lint":
        code = run(PYTHON, "-m", "ruff", "check", ".", check=False)
        return run(PYTHON, "-m", "autograder.build", "--check", check=False) or code
    if task == "accuracy":
        return run(PYTHON, "-m", "autograder.accuracy", *rest, check=False)
    if task == "bench":
        return run(PYTHON, "scripts/bench_notebooks.py", *rest)
    if task == "bench-package":
        return run(PYTHON, "scripts/bench_learner_package.py", *rest)
    if task == "bench-grading":
        return run(PYTHON, "scripts/bench_grading.py", *rest, check=False)
    print(f"unknown task {task!r}\n{__doc__}")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
