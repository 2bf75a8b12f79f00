"""Grading benchmark: this course's grader against plain nbgrader on the same class, and the floor.

    python3 tasks.py bench-grading --students 5          # N students x every notebook
    python3 tasks.py bench-grading --students 5 --keep /tmp/bench   # keep the class and both outputs

The class: student i hands in every notebook, full marks (i % 3 == 0), with the last exercise left
unanswered (i % 3 == 1), or untouched (i % 3 == 2). Printed, in one run:

- **project**: ``python -m autograder.grade`` from nothing (a fresh output folder: nbgrader course,
  generate_assignment, grading plans, warm sandboxes, every submission, feedback), on all cores;
- **regrade**: the same command again on the unchanged class (nothing to do but check);
- **every cell**: the same as *project* with ``--all-cells`` (demonstrations that no grade depends on
  run too, as in nbgrader), in its own output folder;
- **nbgrader serial**: plain ``nbgrader autograde`` of every assignment, one after another, on a course
  made the same way (its ``generate_assignment`` is not counted, to its advantage);
- **floor**: the cells' own run time in that nbgrader run (kernel start-up excluded), summed over
  every notebook and divided by the cores: what any grader that runs each notebook's cells once, in a
  fresh kernel per notebook, cannot beat. The project beats it by importing the frameworks once per
  worker and, by default, by running only the cells a grade depends on.

The goals (issue 10): project >= 5x faster than nbgrader serial, and no slower than the floor. Figures,
not a pass/fail test; the exit status says whether both goals were met (by the default run).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench_notebooks import cell_seconds  # noqa: E402  (scripts/ is on sys.path: this file's folder)

from autograder import NOTEBOOKS, SOLUTIONS  # noqa: E402
from autograder import notebooks as nbio  # noqa: E402
from autograder.course import (  # noqa: E402
    assignments,
    course_id,  # noqa: E402
    make_course,
    nbgrader,
)
from autograder.dispatch import default_workers  # noqa: E402

KINDS = ("full", "last-unanswered", "untouched")


def children_cpu() -> float:
    """CPU seconds (user + system) of every finished child process and their own children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def make_class(root: Path, students: int) -> dict[str, str]:
    """Write the submissions; return {student: kind}."""
    kinds = {}
    for i in range(students):
        student, kind = f"student{i:03d}", KINDS[i % 3]
        kinds[student] = kind
        for name in assignments():
            learner, source = nbio.read(NOTEBOOKS / f"{name}.ipynb"), nbio.read(SOLUTIONS / f"{name}.ipynb")
            if kind == "untouched":
                nb = learner
            else:
                exercises = [c.metadata["nbgrader"]["grade_id"] for c in source.cells
                             if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("solution")]
                stub = {exercises[-1]: "raise NotImplementedError()"} if kind == "last-unanswered" else {}
                nb = nbio.fill_solutions(learner, source, stub)
            path = root / student / name / f"{name}.ipynb"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(nbio.dumps(nb), encoding="utf-8")
    return kinds


def sandbox_memory() -> int:
    """Bytes used by the grading processes (warm zygotes and their forks), shared pages counted once (PSS)."""
    total = 0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if b"autograder.sandbox" not in (proc / "cmdline").read_bytes():
                continue
            for line in (proc / "smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total


def time_project(submissions: Path, out: Path, workers: int, *extra: str) -> tuple[float, str, int, float]:
    """(wall seconds, the grader's summary line, peak memory of its sandboxes in bytes, CPU seconds)."""
    env = dict(os.environ, PYTHONPATH=str(REPO), TF_CPP_MIN_LOG_LEVEL="3")
    peak, done = [0], threading.Event()

    def sample():
        while not done.wait(0.25):
            peak[0] = max(peak[0], sandbox_memory())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    cpu = children_cpu()
    started = time.perf_counter()
    completed = subprocess.run([sys.executable, "-m", "autograder.grade", str(submissions), "--out", str(out),
                                "--workers", str(workers), *extra], cwd=REPO, env=env,
                               capture_output=True, text=True)
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    if completed.returncode:
        sys.exit(f"the course's grader failed:\n{completed.stdout}\n{completed.stderr}")
    summary = [line for line in completed.stdout.splitlines() if line.startswith("graded")]
    return seconds, (summary[-1] if summary else ""), peak[0], children_cpu() - cpu


def time_nbgrader(submissions: Path, course: Path) -> tuple[float, float, dict, float]:
    """`nbgrader autograde`, serial: (wall s, summed cell s, scores by (student, assignment), CPU s)."""
    make_course(course)
    with open(course / "nbgrader_config.py", "a", encoding="utf-8") as config:
        config.write("c.Execute.record_timing = True\n")
    for name in assignments():
        code, output = nbgrader(course, "generate_assignment", name, "--force")
        if code:
            sys.exit(f"nbgrader generate_assignment {name} failed:\n{output}")
    shutil.copytree(submissions, course / "submitted")
    cpu = children_cpu()
    started = time.perf_counter()
    for name in assignments():
        code, output = nbgrader(course, "autograde", name, "--force")
        if code:
            sys.exit(f"nbgrader autograde {name} failed:\n{output[-3000:]}")
    wall = time.perf_counter() - started
    cpu = children_cpu() - cpu
    cells = 0.0
    for path in (course / "autograded").rglob("*.ipynb"):
        nb = nbformat.read(path, as_version=4)
        cells += sum(cell_seconds(c) for c in nb.cells if c.cell_type == "code")
    from nbgrader.api import Gradebook

    scores = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", course_id()) as gradebook:
        for name in assignments():
            for submission in gradebook.assignment_submissions(name):
                scores[(submission.student.id, name)] = submission.score
    return wall, cells, scores, cpu


def project_scores(out: Path) -> dict[tuple[str, str], float]:
    import csv

    with open(out / "grades.csv", newline="", encoding="utf-8") as handle:
        return {(row["student"], row["assignment"]): float(row["score"]) for row in csv.DictReader(handle)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=5)
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--keep", type=Path, default=None, help="work in this folder and keep it")
    args = parser.parse_args(argv)
    root = args.keep or Path(tempfile.mkdtemp(prefix="bench-grading-"))
    if root.exists() and any(root.iterdir()):
        shutil.rmtree(root)
    root.mkdir(parents=True, exist_ok=True)
    try:
        submissions = root / "submissions"
        make_class(submissions, args.students)
        notebooks = args.students * len(assignments())
        cores = default_workers()
        print(f"class: {args.students} students x {len(assignments())} notebooks = {notebooks} notebooks "
              f"({', '.join(KINDS)} in turn); {cores} cores, {args.workers} workers", flush=True)

        load = os.getloadavg()[0]
        project, summary, memory, project_cpu = time_project(submissions, root / "project", args.workers)
        print(f"project, from nothing:      {project:7.1f} s  ({project / notebooks:.2f} s a notebook; "
              f"CPU {project_cpu:.1f} s)", flush=True)
        print(f"  the grader's summary: {summary}")
        print(f"  peak memory of the sandboxes: {memory / 2**30:.2f} GiB for {args.workers} workers "
              f"({memory / 2**30 / args.workers:.2f} GiB a worker)", flush=True)
        regrade, *_ = time_project(submissions, root / "project", args.workers)
        print(f"project, unchanged regrade: {regrade:7.1f} s", flush=True)
        every, _, _, every_cpu = time_project(submissions, root / "project-all-cells", args.workers, "--all-cells")
        print(f"project, every cell run (--all-cells), from nothing: {every:7.1f} s  ({every / notebooks:.2f} s a "
              f"notebook; CPU {every_cpu:.1f} s)", flush=True)
        serial, cells, theirs, serial_cpu = time_nbgrader(submissions, root / "nbgrader")
        floor = cells / cores
        print(f"nbgrader autograde, serial: {serial:7.1f} s  ({serial / notebooks:.2f} s a notebook; "
              f"CPU {serial_cpu:.1f} s)", flush=True)
        print(f"floor (cells {cells:.1f} s / {cores} cores): {floor:7.1f} s", flush=True)
        ours, ours_every = project_scores(root / "project"), project_scores(root / "project-all-cells")
        differ = sorted(k for k in theirs if abs(theirs[k] - ours.get(k, -1)) > 1e-9
                        or abs(theirs[k] - ours_every.get(k, -1)) > 1e-9)
        print(f"same scores as nbgrader: {'yes' if not differ else 'NO: ' + ', '.join(map(str, differ[:5]))}")
        speedup, to_floor = serial / project, floor / project
        print(f"speed-up over nbgrader serial: {speedup:.1f}x (goal >= 5x: {'met' if speedup >= 5 else 'NOT met'})")
        print(f"floor / project: {to_floor:.2f} (goal >= 1, no slower than the floor: "
              f"{'met' if to_floor >= 1 else 'NOT met'})")
        print(f"with every cell run (--all-cells): {serial / every:.1f}x nbgrader serial, floor / project "
              f"{floor / every:.2f}")
        print(f"CPU: nbgrader / project = {serial_cpu / project_cpu:.1f}x; load average when starting: {load:.2f} "
              f"(other work on the machine slows both, and the ratios are only fair on an idle machine)")
        return 0 if speedup >= 5 and to_floor >= 1 and not differ else 1
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
