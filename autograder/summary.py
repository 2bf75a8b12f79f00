"""What a grading run prints at its end: this run's rows, its timing, and per assignment what the
class's marks stand at and what is left to do (written answers to grade by hand)."""

from __future__ import annotations

from pathlib import Path

from .grades import FORMGRADER_COMMAND, waiting_for_manual_grades
from .records import Result


def print_summary(results: list[Result], everyone: list[Result], present: list[str], timing: dict,
                  lines: list[str], db_url: str, course: str, out: Path) -> None:
    """``results``: this run's rows; ``everyone``: the class's, from the gradebook; ``lines``: every
    file or folder of the submissions that became no row."""
    width = max([len(r.student) for r in results] + [7])
    for r in results:
        message = "; ".join(filter(None, ["manual grade pending" if r.needs_manual_grading else "", r.message]))
        print(f"{r.student:<{width}}  {r.assignment:<34} {r.score:>5g}/{r.max_score:<5g} {r.status:<8} "
              f"{message}".rstrip())
    ran, total = timing.get("ran", 0), timing.get("total", 0.0)
    per = (f"; {timing['notebooks'] / ran:.2f} s a notebook (its sandboxed run and recording, "
           f"set-up of {timing['set-up']:.1f} s not counted)") if ran else ""
    unchanged = timing["unchanged"]
    print(f"graded {ran} notebook(s) in {total:.1f} s{per}"
          + (f"; {unchanged} unchanged since the last run, not regraded" if unchanged else ""), flush=True)
    waiting = waiting_for_manual_grades(db_url, course)
    for assignment in sorted({r.assignment for r in everyone}, key=lambda a: (a not in present, a)):
        print(summary_line(assignment, [r for r in everyone if r.assignment == assignment],
                           waiting.get(assignment, 0), out), flush=True)
    for line in lines:
        print(line, flush=True)
    print(f"wrote {out / 'grades.csv'} ({len(everyone)} rows: the whole class, from the gradebook) "
          f"and feedback in {out / 'feedback'}", flush=True)


def summary_line(assignment: str, rows: list[Result], waiting: int, out: Path) -> str:
    """One assignment's line: how many rows of each status, and the written answers left to grade."""
    counts = {status: sum(r.status == status for r in rows)
              for status in ("graded", "tampered", "failed", "missing", "invalid")}
    line = f"{assignment}: {len(rows)} student(s): " + ", ".join(
        f"{n} {s}" for s, n in counts.items() if n or s in ("graded", "tampered", "failed"))
    if waiting:
        line += (f"; {waiting} written answer(s) wait for a manual grade: "
                 f"{FORMGRADER_COMMAND.format(out=out)}, then python3 tasks.py grades --out {out}")
    else:
        line += "; no written answer waits for a manual grade"
    return line
