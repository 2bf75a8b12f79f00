"""Shared fixtures: the course's notebooks and one nbgrader run over a generated class.

The class holds, for every source notebook: the solutions filled into the learner copy (``solved``),
the untouched learner copy (``blank``), and for every exercise a copy with only that exercise wrong
(``wrong-<grade_id>``): the first learner-style mistake of tests/cases/ for it, or, without cases,
the exercise left unanswered. Grading them all once, in one course directory, keeps the suite fast.

``pytest --fast`` (``python3 tasks.py test --fast``) is the maintainer's loop: the tests not marked
slow, and the grading of every notebook's solutions, untouched copy and one wrong exercise (its
first), in a few minutes.
"""

from __future__ import annotations

import csv
import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from autograder import NOTEBOOKS, SOLUTIONS  # noqa: E402
from autograder import notebooks as nbio  # noqa: E402
from autograder.course import assignments  # noqa: E402
from autograder.grade import grade  # noqa: E402

ASSIGNMENTS = assignments()


def pytest_addoption(parser):
    parser.addoption("--fast", action="store_true", help="the maintainer's loop: no slow test but the grading of "
                     "every notebook's solutions, untouched copy and first exercise made wrong")


FAST_GRADING = ("test_solutions_get_full_marks", "test_untouched_learner_copy_gets_zero",
                "test_one_wrong_exercise_loses_exactly_its_points_and_is_named")


# Under pytest-xdist (``--dist loadgroup``), tests that share these session fixtures run on one
# worker, so that each is made once; every other module is a group of its own (its module fixtures).
SHARED_FIXTURES = ("warm_workers", "graded_class")


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups (--dist loadgroup)
def pytest_collection_modifyitems(config, items):
    for item in items:
        shared = any(name in getattr(item, "fixturenames", ()) for name in SHARED_FIXTURES)
        item.add_marker(pytest.mark.xdist_group("warm-workers" if shared else item.module.__name__))
    if not config.getoption("--fast"):
        return
    firsts = {solution_cells(name)[0] for name in ASSIGNMENTS}
    kept, dropped = [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        grading = item.originalname in FAST_GRADING and params.get("grade_id", next(iter(firsts))) in firsts
        slow = item.get_closest_marker("slow") or item.get_closest_marker("browser")
        (kept if grading or not slow else dropped).append(item)
    items[:] = kept
    config.hook.pytest_deselected(items=dropped)


def solution_cells(name: str) -> list[str]:
    """grade_ids of the code solution cells (the exercises) of a source notebook."""
    nb = nbio.read(SOLUTIONS / f"{name}.ipynb")
    return [c.metadata["nbgrader"]["grade_id"] for c in nb.cells
            if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("solution")]


def points_of_tests(name: str) -> dict[str, float]:
    """{grade_id: points} of the autograded test cells, in notebook order."""
    nb = nbio.read(SOLUTIONS / f"{name}.ipynb")
    return {c.metadata["nbgrader"]["grade_id"]: float(c.metadata["nbgrader"]["points"])
            for c in nb.cells if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("grade")
            and not c.metadata["nbgrader"].get("solution")}


STUB = "raise NotImplementedError()"


def wrong_answer(name: str, grade_id: str) -> tuple[str | None, str | None]:
    """(mistake id, learner source) of the first catalogued mistake for an exercise, if any (a case
    key may carry a tag, ``lower_precision:float32_cast``: the id is the part before it)."""
    from autograder.accuracy import load_cases, mistake_of

    mistakes, _ = load_cases(name)
    for case, source in mistakes.get(grade_id, {}).items():
        return mistake_of(case), source
    return None, None


def write_submission(root: Path, student: str, name: str, nb) -> Path:
    path = root / student / name / f"{name}.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(nbio.dumps(nb), encoding="utf-8")
    return path


def tree_digest(folder: Path) -> str:
    """One hash of every file's path and bytes under ``folder``: equal digests, untouched tree."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(folder)).encode() + path.read_bytes())
    return digest.hexdigest()


def cli_env() -> dict[str, str]:
    """The repository importable and this venv's programs first on PATH (as tasks.py sets them)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    return env


def grade_cli(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """``python -m autograder.grade ARGS`` as an instructor runs it."""
    return subprocess.run([sys.executable, "-m", "autograder.grade", *args], cwd=REPO, env=cli_env(),
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=timeout)


def failing_fast(*args: str, given: str, limit: float = 60) -> tuple[subprocess.CompletedProcess, str]:
    """Run the grader, which must stop with an error within ``limit`` s; (process, its output)."""
    import pytest

    begin = time.monotonic()
    try:
        completed = grade_cli(*args, timeout=limit * 2)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the grader was still running {limit * 2} s after being given {given}")
    elapsed = time.monotonic() - begin
    output = completed.stdout + completed.stderr
    assert completed.returncode != 0, output[-2000:]
    assert elapsed < limit, f"took {elapsed:.0f} s to report {given}"
    return completed, output


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="session")
def warm_workers():
    """One set of warm grading workers for the session's grading runs (each run would start its own)."""
    from autograder.dispatch import LocalExecutor, default_workers

    executor = LocalExecutor(default_workers())
    yield executor
    executor.close()


@pytest.fixture(scope="session")
def graded_class(tmp_path_factory, pytestconfig, warm_workers):
    """Grade solved, blank and one-exercise-wrong copies of every notebook; return the rows."""
    root = tmp_path_factory.mktemp("class")
    submissions = root / "submissions"
    for name in ASSIGNMENTS:
        learner = nbio.read(NOTEBOOKS / f"{name}.ipynb")
        source = nbio.read(SOLUTIONS / f"{name}.ipynb")
        write_submission(submissions, "solved", name, nbio.fill_solutions(learner, source))
        write_submission(submissions, "blank", name, learner)
        exercises = solution_cells(name)
        for grade_id in exercises[:1] if pytestconfig.getoption("--fast") else exercises:
            _, answer = wrong_answer(name, grade_id)
            wrong = nbio.fill_solutions(learner, source, {grade_id: answer or _stubbed(source, grade_id)})
            write_submission(submissions, f"wrong-{grade_id}", name, wrong)
    results = grade(submissions, root / "out", progress=False, executor=warm_workers)
    return {(r.student, r.assignment): r for r in results}, root / "out"


def _stubbed(source, grade_id: str) -> str:
    """The solution cell with its solution region replaced by the stub, keeping the def line(s)."""
    cell = next(c for c in source.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)
    kept, inside = [], False
    for line in cell.source.splitlines():
        if line.strip() == "### BEGIN SOLUTION":
            inside = True
            kept.append(line[: len(line) - len(line.lstrip())] + STUB)
        elif line.strip() == "### END SOLUTION":
            inside = False
        elif not inside:
            kept.append(line)
    return "\n".join(kept)


def own_zygotes() -> list:
    """The warm zygotes this test process started (a parallel test process, or another session on
    the machine, has zygotes of its own that are busy with their jobs)."""
    import psutil  # a dependency of distributed

    zygotes = []
    for process in psutil.Process().children(recursive=True):
        try:
            if "autograder.sandbox.zygote" in " ".join(process.cmdline()):
                zygotes.append(process)
        except psutil.Error:  # gone since it was listed
            pass
    return zygotes


def sandbox_leftovers() -> list[str]:
    """Processes a sandbox left behind: children of this process's warm zygotes (which have none
    between jobs)."""
    import psutil

    left = []
    for zygote in own_zygotes():
        try:
            left += [f"{child.pid} {child.name()}" for child in zygote.children()]
        except psutil.Error:
            pass
    return left


def grading_cgroup_leftovers() -> list[Path]:
    """Grading cgroups (cgroup v1, as root) of this process's zygotes that still hold a process."""
    prefixes = tuple(f"job-{zygote.pid}-" for zygote in own_zygotes())
    return [path for path in Path("/sys/fs/cgroup/pids").glob("attention-grade/*/tasks")
            if path.parent.name.startswith(prefixes) and path.read_text().strip()]
