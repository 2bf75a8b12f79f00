"""A throw-away nbgrader course directory wired to the course's configuration.

The build and the grader never run nbgrader inside the repository: they copy ``solutions/`` into
a course directory of their own (``source/<assignment>/<assignment>.ipynb``), so nothing an
instructor keeps in the repository can be touched by a run.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import tomllib

from . import CONFIG, REPO, SOLUTIONS


def settings() -> dict:
    with open(REPO / "course.toml", "rb") as handle:
        return tomllib.load(handle)


def course_id() -> str:
    """The course's id in nbgrader's gradebook (``course.toml``, ``[course] id``)."""
    return settings()["course"]["id"]


def assignments() -> list[str]:
    """Assignment ids: one per source notebook, named after it (``01_attention_without_weights``)."""
    return sorted(path.stem for path in SOLUTIONS.glob("*.ipynb"))


def make_course(root: Path, db_url: str | None = None, only: list[str] | None = None) -> Path:
    """Create ``root`` as an nbgrader course holding the source notebooks; return ``root``."""
    root = Path(root).resolve()
    root.mkdir(parents=True, exist_ok=True)
    db_url = db_url or f"sqlite:///{root / 'gradebook.db'}"
    (root / "nbgrader_config.py").write_text(
        "c = get_config()  # noqa: F821\n"
        f"load_subconfig({str(CONFIG)!r})  # noqa: F821\n"
        f"c.CourseDirectory.root = {str(root)!r}\n"
        f"c.CourseDirectory.db_url = {db_url!r}\n"
        f"c.CourseDirectory.course_id = {course_id()!r}\n",
        encoding="utf-8",
    )
    for name in only or assignments():
        target = root / "source" / name
        target.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SOLUTIONS / f"{name}.ipynb", target / f"{name}.ipynb")
    return root


def nbgrader(root: Path, *args: str, timeout: float | None = None) -> tuple[int | None, str]:
    """Run one nbgrader command in course ``root``: (exit code, output), the code None on timeout.

    nbgrader runs in its own process group, so a timeout kills it together with its kernel. Never
    raises on nbgrader's own failure.
    """
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])  # alembic
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    process = subprocess.Popen(
        [sys.executable, "-m", "nbgrader", *args], cwd=root, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=timeout)
        return process.returncode, output
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        return None, output
