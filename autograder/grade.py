"""Grade a whole class with nbgrader: every notebook of every student, feedback HTML and a CSV.

    python3 tasks.py grade SUBMISSIONS [--out DIR] [--db SQLALCHEMY_URL] [--cell-timeout S]

SUBMISSIONS is a folder in nbgrader's layout ``<student>/<assignment>/<notebook>.ipynb``, or a zip
of one, or an LMS download zip whose files are named ``<student>_..._<assignment>.ipynb``.

Everything is written under ``--out`` (default ``graded/``): ``grades.csv``, ``feedback/<student>/
<assignment>.html``, and ``course/``, the nbgrader course directory with its gradebook (SQLite unless
``--db`` names another database). The submissions and ``solutions/`` are only read.

Bad input never stops the run: a notebook that is not valid JSON, a missing notebook, a notebook
whose kernel dies or that runs past ``--notebook-timeout`` scores 0 with one line saying why, and
every other submission is still graded. A renamed notebook is matched by its graded cells.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import shutil
import sys
import tempfile
import zipfile
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import nbformat
from tqdm import tqdm

from . import SOLUTIONS
from . import notebooks as nbio
from .course import assignments, make_course, nbgrader


@dataclass
class Result:
    student: str
    assignment: str
    notebook: str
    score: float = 0.0
    max_score: float = 0.0
    auto_score: float = 0.0
    auto_max_score: float = 0.0
    needs_manual_grading: bool = False
    status: str = "graded"  # graded | missing | invalid | failed
    message: str = ""


CSV_COLUMNS = [field.name for field in fields(Result)]


# --- finding the submissions ---------------------------------------------------------------------


def _safe_extract(archive: Path, target: Path) -> Path:
    """Unzip without letting a member escape ``target`` (zip slip)."""
    with zipfile.ZipFile(archive) as zipped:
        for member in zipped.infolist():
            destination = (target / member.filename).resolve()
            if not destination.is_relative_to(target.resolve()):
                raise ValueError(f"{archive.name}: member {member.filename!r} points outside the archive")
        zipped.extractall(target)
    return target


_LMS_NAME = re.compile(r"^(?P<student>[A-Za-z0-9.\-]+?)_(?:late_)?(?:\d+_)*(?P<file>.+?)(?:-\d+)?\.ipynb$")


def find_submissions(folder: Path, known: list[str]) -> dict[tuple[str, str], list[Path]]:
    """{(student, assignment): candidate notebook files}, from either supported layout."""
    found: dict[tuple[str, str], list[Path]] = {}
    for student_dir in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith((".", "__"))):
        for assignment_dir in sorted(p for p in student_dir.iterdir() if p.is_dir()):
            if assignment_dir.name in known:
                notebooks = sorted(p for p in assignment_dir.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
                found[(student_dir.name, assignment_dir.name)] = notebooks
    for path in sorted(folder.rglob("*.ipynb")):  # flat LMS download: student_..._assignment.ipynb
        match = _LMS_NAME.match(path.name)
        if path.parent != folder or not match:
            continue
        rest = path.name[len(match["student"]) + 1:]  # ids, "late_", the original file name
        names = [name for name in known if name in rest]
        if names:
            found.setdefault((match["student"], max(names, key=len)), []).append(path)
    return found


def choose_notebook(candidates: list[Path], assignment: str, source_ids: set[str]) -> tuple[Path | None, str]:
    """The submitted file for ``assignment``: the expected name, else the one sharing its graded cells."""
    for path in candidates:
        if path.name == f"{assignment}.ipynb":
            return path, ""
    best, best_overlap = None, 0
    for path in candidates:
        try:
            overlap = len(nbio.grade_ids(nbio.read(path)) & source_ids)
        except Exception:
            overlap = 0
        if overlap > best_overlap:
            best, best_overlap = path, overlap
    if best is not None:
        return best, f"renamed notebook {best.name!r} matched by its cells"
    if len(candidates) == 1:
        return candidates[0], f"renamed notebook {candidates[0].name!r} taken as the only one"
    return None, ""


def validate(path: Path) -> str | None:
    """None if ``path`` is a notebook nbgrader can read, else a one-line reason."""
    try:
        json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        return "not valid notebook JSON (not UTF-8 text)"
    except json.JSONDecodeError as error:
        return f"not valid notebook JSON ({error.msg} at line {error.lineno}, column {error.colno})"
    try:
        nb = nbformat.read(str(path), as_version=4)
        nbformat.validate(nb)
    except Exception as error:
        return f"not a valid notebook ({type(error).__name__}: {str(error).splitlines()[0][:160]})"
    return None


# --- running nbgrader ----------------------------------------------------------------------------

_FAILURE_REASONS = [
    (re.compile(r"DeadKernelError|Kernel died|kernel.*died", re.I), "the kernel died while running it (crash or out of memory)"),
    (re.compile(r"CellTimeoutError|TimeoutError|timed out", re.I), "a cell ran past the time limit and the kernel did not stop"),
    (re.compile(r"Notebook JSON is invalid|NotJSONError|JSONDecodeError", re.I), "not a valid notebook"),
    (re.compile(r"MissingEntry|does not exist", re.I), "the gradebook has no such assignment or student"),
]


def _failure_reason(log: str) -> str:
    for pattern, reason in _FAILURE_REASONS:
        if pattern.search(log):
            return reason
    lines = [line.strip() for line in log.splitlines() if "ERROR" in line or "Error" in line]
    return lines[-1][:200] if lines else "nbgrader could not grade it"


def _scores(db_url: str, course_id: str, assignment: str, student: str) -> dict | None:
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(db_url, course_id) as gradebook:
        try:
            nb = gradebook.find_submission_notebook(assignment, assignment, student)
        except MissingEntry:
            return None
        # Written answers in this course are markdown cells, so code_score is the autograded part.
        return {"score": nb.score, "auto_score": nb.code_score,
                "needs_manual_grading": bool(nb.needs_manual_grade)}


def _auto_max(root: Path, assignment: str) -> tuple[float, float]:
    """(points of autograded test cells, all points) of an assignment, from its source notebook."""
    nb = nbio.read(root / "source" / assignment / f"{assignment}.ipynb")
    auto = total = 0.0
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("grade"):
            total += float(meta.get("points", 0))
            if not meta.get("solution") and cell.cell_type == "code":
                auto += float(meta.get("points", 0))
    return auto, total


# --- the whole run -------------------------------------------------------------------------------


def grade(submissions: Path, out: Path, db_url: str | None = None, cell_timeout: int = 30,
          notebook_timeout: int = 600, progress: bool = True) -> list[Result]:
    out = out.resolve()
    course_root = out / "course"
    if course_root.exists():
        shutil.rmtree(course_root)
    root = make_course(course_root, db_url)
    db_url = db_url or f"sqlite:///{root / 'gradebook.db'}"
    with open(root / "nbgrader_config.py", "a", encoding="utf-8") as config:
        config.write(f"c.Execute.timeout = {int(cell_timeout)}\n")
    known = assignments()
    maxima = {name: _auto_max(root, name) for name in known}
    results: list[Result] = []

    with tempfile.TemporaryDirectory(prefix="attention-grade-") as tmp:
        folder = submissions
        if submissions.is_file() and zipfile.is_zipfile(submissions):
            folder = _safe_extract(submissions, Path(tmp) / "unzipped")
            inner = [p for p in folder.iterdir() if not p.name.startswith(("__MACOSX", "."))]
            if len(inner) == 1 and inner[0].is_dir() and not any(inner[0].name == a for a in known) \
                    and not find_submissions(folder, known):
                folder = inner[0]  # a zip of the whole submissions folder
        elif not submissions.is_dir():
            raise SystemExit(f"{submissions}: no such folder or zip file")
        found = find_submissions(folder, known)
        students = sorted({student for student, _ in found})
        present = sorted({assignment for _, assignment in found}, key=known.index)

        for assignment in present:
            generated = nbgrader(root, "generate_assignment", assignment, "--force", timeout=notebook_timeout)
            if generated[0] != 0:
                raise SystemExit(f"could not prepare {assignment} from solutions/:\n{generated[1]}")
        source_ids = {name: nbio.grade_ids(nbio.read(SOLUTIONS / f"{name}.ipynb")) for name in present}
        jobs = []
        for student in students:
            for assignment in present:
                result = Result(student, assignment, f"{assignment}.ipynb",
                                auto_max_score=maxima[assignment][0], max_score=maxima[assignment][1])
                candidates = found.get((student, assignment), [])
                chosen, note = choose_notebook(candidates, assignment, source_ids[assignment])
                if chosen is None:
                    result.status = "missing"
                    result.message = ("no notebook submitted" if not candidates else
                                      f"none of {[p.name for p in candidates]} is {assignment}.ipynb")
                    results.append(result)
                    continue
                problem = validate(chosen)
                if problem:
                    result.status, result.message = "invalid", f"{chosen.name}: {problem}"
                    results.append(result)
                    continue
                target = root / "submitted" / student / assignment
                target.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(chosen, target / f"{assignment}.ipynb")
                result.message = note
                jobs.append(result)

        bar = tqdm(jobs, desc="autograding", unit="notebook", disable=not progress, file=sys.stdout)
        for result in bar:
            bar.set_postfix_str(f"{result.student}/{result.assignment}")
            code, log = nbgrader(root, "autograde", result.assignment, "--student", result.student,
                                 "--force", timeout=notebook_timeout)
            autograded = root / "autograded" / result.student / result.assignment / result.notebook
            failed = code is None or code != 0 or not autograded.is_file()
            if not failed:
                scores = _scores(db_url, "attention-from-scratch", result.assignment, result.student)
                failed = scores is None
            if failed:
                reason = (f"ran past the {notebook_timeout} s limit for one notebook"
                          if code is None else _failure_reason(log))
                result.status = "failed"
                result.message = "; ".join(filter(None, [result.message, reason]))
                result.score = result.auto_score = 0.0
                results.append(result)
                continue
            result.score = float(scores["score"])
            result.auto_score = float(scores["auto_score"])
            result.needs_manual_grading = scores["needs_manual_grading"]
            timed_out = _count_timeouts(autograded)
            if timed_out:
                result.message = "; ".join(filter(None, [result.message, f"{timed_out} cell(s) ran past "
                                                         f"the {cell_timeout} s limit and were stopped"]))
            results.append(result)

        for assignment in present:
            graded = [r for r in results if r.assignment == assignment and r.status == "graded"]
            if graded:
                nbgrader(root, "generate_feedback", assignment, "--force", timeout=notebook_timeout)
            for r in graded:
                html = root / "feedback" / r.student / assignment / f"{assignment}.html"
                if html.is_file():
                    (out / "feedback" / r.student).mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(html, out / "feedback" / r.student / f"{assignment}.html")

    results.sort(key=lambda r: (r.student, known.index(r.assignment)))
    write_csv(results, out / "grades.csv")
    return results


def _count_timeouts(path: Path) -> int:
    nb = nbio.read(path)
    return sum(1 for cell in nb.cells for output in cell.get("outputs", [])
               if output.get("output_type") == "error" and output.get("ename") == "CellTimeoutError")


def write_csv(results: list[Result], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        for result in results:
            row = asdict(result)
            for key in ("score", "max_score", "auto_score", "auto_max_score"):
                row[key] = f"{row[key]:g}"
            writer.writerow(row)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("submissions", type=Path, help="folder <student>/<assignment>/<notebook>.ipynb, or a zip")
    parser.add_argument("--out", type=Path, default=Path("graded"), help="where to write (default: graded/)")
    parser.add_argument("--db", default=None, help="SQLAlchemy URL of the gradebook (default: SQLite in --out)")
    parser.add_argument("--cell-timeout", type=int, default=30, help="seconds one cell may run (default 30)")
    parser.add_argument("--notebook-timeout", type=int, default=600,
                        help="seconds one whole notebook may take before it scores 0 (default 600)")
    args = parser.parse_args(argv)
    results = grade(args.submissions, args.out, args.db, args.cell_timeout, args.notebook_timeout)
    width = max([len(r.student) for r in results] + [7])
    for r in results:
        print(f"{r.student:<{width}}  {r.assignment:<34} {r.auto_score:>5g}/{r.auto_max_score:<5g} "
              f"{r.status:<8} {r.message}")
    print(f"wrote {args.out / 'grades.csv'} ({len(results)} rows) and feedback in {args.out / 'feedback'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
