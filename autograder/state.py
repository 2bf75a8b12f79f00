"""The state stage: what a run leaves for the next one, and the class's marks.

``grading-state.jsonl`` gets one line per finished submission, at once (an interrupted run loses
nothing): its fingerprint (:func:`fingerprint`: the submission's bytes, its source notebook, every
file of the grader and of the learner package, the limits) and its result. A later run skips a
submission whose fingerprint did not change. ``grades.csv`` is written from the gradebook after
every run, for the whole class (also after a run narrowed to some students, or one that graded
nothing new), so manual grades entered in the formgrader always reach it.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import json
import os
from dataclasses import asdict
from pathlib import Path

import attention_course

from . import SOLUTIONS
from .records import CSV_COLUMNS, Result

GRADER = Path(__file__).resolve().parent
LEARNER = Path(attention_course.__file__).resolve().parent


def _digest(*parts: bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()


def code_version() -> str:
    """One digest of every file of the grader and of the learner package (code, data, the key)."""
    files = sorted(p for folder in (GRADER, LEARNER) for p in folder.rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".ipynb"))
    return _digest(*(str(p).encode() + b"\0" + p.read_bytes() for p in files))


class State:
    def __init__(self, out: Path, settings: bytes):
        self.path = out / "grading-state.jsonl"
        self.feedback = out / "feedback"
        self.version = code_version().encode() + settings
        self.sources: dict[str, bytes] = {}
        self.previous: dict[tuple[str, str], dict] = {}
        if self.path.is_file():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                with contextlib.suppress(ValueError, KeyError, TypeError):
                    entry = json.loads(line)
                    self.previous[(entry["result"]["student"], entry["result"]["assignment"])] = entry

    def fingerprint(self, data: bytes, assignment: str) -> str:
        """What a result depends on: the submission, its source notebook, the code and the limits."""
        if assignment not in self.sources:  # read once a run, not once a submission
            self.sources[assignment] = (SOLUTIONS / f"{assignment}.ipynb").read_bytes()
        return _digest(data, self.sources[assignment], self.version)

    def unchanged(self, student: str, assignment: str, fingerprint: str) -> Result | None:
        old = self.previous.get((student, assignment))
        if old and old["fingerprint"] == fingerprint and (self.feedback / student / f"{assignment}.html").is_file():
            return Result(**old["result"])
        return None

    def save(self, fingerprint: str, result: Result) -> None:
        line = json.dumps({"fingerprint": fingerprint, "result": asdict(result)}) + "\n"
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(line)
            handle.flush()
            os.fsync(handle.fileno())
        self.previous[(result.student, result.assignment)] = {"fingerprint": fingerprint, "result": asdict(result)}

    def results(self) -> list[Result]:
        """The latest result of every (student, assignment) ever graded into this folder."""
        return [Result(**entry["result"]) for entry in self.previous.values()]


def with_gradebook_scores(results: list[Result], db_url: str, course_id: str) -> list[Result]:
    """The results with their scores read from the gradebook (auto and manual grades, as they stand)."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(db_url, course_id) as gradebook:
        for result in results:
            if result.status in ("missing", "invalid", "failed"):
                continue
            try:
                nb = gradebook.find_submission_notebook(result.assignment, result.assignment, result.student)
            except MissingEntry:
                continue
            result.score, result.auto_score = float(nb.score), float(nb.code_score)
            result.needs_manual_grading = bool(nb.needs_manual_grade)
    return results


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
