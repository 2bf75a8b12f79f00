"""The state stage: what a run leaves for the next one.

``grading-state.jsonl`` gets one line per finished submission, at once (an interrupted run loses
nothing): its fingerprint (:func:`fingerprint`: the submission's bytes, its source notebook, every
file of the grader and of the learner package, the limits) and its result. A later run skips a
submission whose fingerprint did not change. The file also names every (student, assignment) ever
graded into the output folder, so that ``grades.csv`` can be written for the whole class from the
gradebook after any run (:mod:`.grades`), however narrowed.

:func:`exclusive` keeps two runs (grading, exporting marks, regenerating feedback) from writing to
one output folder at the same time.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
from dataclasses import asdict
from pathlib import Path

import attention_course

from . import SOLUTIONS
from .records import Result

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


@contextlib.contextmanager
def exclusive(out: Path):
    """Only one run writes to an output folder at a time."""
    out.mkdir(parents=True, exist_ok=True)
    with open(out / ".grading.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise SystemExit(f"another grading run is writing to {out}; wait for it to finish") from None
        yield


def recorded(out: Path) -> dict[tuple[str, str], dict]:
    """{(student, assignment): its latest line of ``grading-state.jsonl``}; a damaged line is passed over."""
    path = out / "grading-state.jsonl"
    entries: dict[tuple[str, str], dict] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(ValueError, KeyError, TypeError):
                entry = json.loads(line)
                Result(**entry["result"])  # a line this version cannot read is passed over
                entries[(entry["result"]["student"], entry["result"]["assignment"])] = entry
    return entries


def recorded_results(out: Path) -> list[Result]:
    """The latest result of every (student, assignment) ever graded into ``out``."""
    return [Result(**entry["result"]) for entry in recorded(out).values()]


class State:
    def __init__(self, out: Path, settings: bytes):
        self.path = out / "grading-state.jsonl"
        self.feedback = out / "feedback"
        self.version = code_version().encode() + settings
        self.sources: dict[str, bytes] = {}
        self.previous: dict[tuple[str, str], dict] = recorded(out)

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

    def save_changed(self, results: list[Result]) -> None:
        """Keep rows that ran nothing (missing, invalid, unchanged) where they differ from the last run's."""
        for result in results:
            if self.previous.get((result.student, result.assignment), {}).get("result") != asdict(result):
                self.save("", result)

    def results(self) -> list[Result]:
        """The latest result of every (student, assignment) ever graded into this folder."""
        return [Result(**entry["result"]) for entry in self.previous.values()]
