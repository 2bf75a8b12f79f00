"""The class report: what an instructor learns from a graded class at a glance.

    python3 tasks.py report --out DIR [--threshold 0.5] [--db URL]

DIR is a folder that ``python3 tasks.py grade ... --out DIR`` wrote. The report is written to
``DIR/report.html``: one self-contained page (CSS inline, plots as embedded PNG images made with
Matplotlib, no script, nothing fetched from the network) that shows

- the mistakes to reteach first: the named mistakes of the whole class, ranked by learners;
- for each assignment, the distribution of its scores and of each exercise's points;
- for each exercise, the catalogued mistakes (:mod:`attention_course.mistakes`) ranked by how many
  learners made them, each with its explanation and the learners who made it; failures that no
  mistake explains (*wrong, no diagnosis*) and exercises left unanswered are counted apart;
- the learners whose share of the points across assignments is below ``--threshold``;
- the submissions that failed, were invalid, ran past a time limit or out of memory, or were
  tampered with;
- the written answers still waiting for a manual grade.

Where each number comes from: the check rows (one per graded check, :class:`~.records.CheckRow`)
from the gradebook's ``attention_check`` table (:mod:`.checks_db`), and ``checks.csv`` for a
submission the table lacks; the scores from nbgrader's gradebook (manual grades included), the
statuses from ``grades.csv``. Every text that comes from a submission (student ids, messages) is
escaped. An older folder without check rows, an empty class, and a class whose every submission
failed each give a page that says so.
"""

from __future__ import annotations

import argparse
import base64
import html
import io
import statistics
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from attention_course.mistakes import CATALOGUE

from . import checks_csv, checks_db
from .course import assignments as course_assignments
from .course import course_id as default_course_id
from .records import CheckRow, Result

# The verdict's words for a function still raising NotImplementedError (attention_course.verdict):
# such a learner has not answered the exercise, which is not a misconception.
NOT_ANSWERED = "not implemented yet"
# Words of a graded submission's message (autograder.record) that say a cell was stopped.
STOPPED = ("ran past", "ran out of memory", "was skipped")
DEFAULT_THRESHOLD = 0.5
COLOURS = {"full": "#2e7d32", "partial": "#f9a825", "zero": "#c62828", "bars": "#1565c0"}


# -- what the report reads ---------------------------------------------------------------------------

@dataclass
class CellScore:
    """One graded cell of one submission, as nbgrader's gradebook holds it."""

    student: str
    assignment: str
    cell: str  # the grade cell's name (a test cell's grade_id, or a written answer's)
    score: float
    max_score: float
    written: bool  # a Markdown answer graded by hand
    needs_manual_grade: bool


@dataclass
class ClassData:
    out: Path
    results: list[Result] = field(default_factory=list)  # grades.csv, scores refreshed from the gradebook
    checks: list[CheckRow] | None = None  # None: no check rows anywhere (a folder graded by an older run)
    cells: list[CellScore] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what could not be read, said at the top of the page
    checks_source: str = ""


def _read_results(path: Path) -> list[Result]:
    rows = checks_csv.read(path)
    results = []
    for row in rows:
        try:
            results.append(Result(row["student"], row["assignment"], row.get("notebook", ""),
                                  float(row.get("score") or 0), float(row.get("max_score") or 0),
                                  float(row.get("auto_score") or 0), float(row.get("auto_max_score") or 0),
                                  row.get("needs_manual_grading", "").strip().lower() == "true",
                                  row.get("status", "graded"), row.get("message", "")))
        except (KeyError, ValueError):
            continue
    return results


def _gradebook_exists(db_url: str) -> bool:
    """A SQLite gradebook exists as a file; nbgrader would create a missing one, so it is not opened."""
    if db_url.startswith("sqlite:///"):
        return Path(db_url[len("sqlite:///"):]).is_file()
    return True


def _read_cells(db_url: str, course: str) -> list[CellScore]:
    """Every graded cell of every submission in the gradebook, in one query on nbgrader's models
    (walking the objects costs a query per cell: minutes for a large class)."""
    from nbgrader import api

    grade, submitted, cell = api.Grade, api.SubmittedAssignment, api.BaseCell
    with api.Gradebook(db_url, course) as gradebook:
        rows = (gradebook.db.query(submitted.student_id, api.Assignment.name, cell.name, grade.score,
                                   grade.max_score, grade.cell_type, grade.needs_manual_grade)
                .select_from(grade)
                .join(api.SubmittedNotebook, grade.notebook_id == api.SubmittedNotebook.id)
                .join(submitted, api.SubmittedNotebook.assignment_id == submitted.id)
                .join(api.Assignment, submitted.assignment_id == api.Assignment.id)
                .join(cell, grade.cell_id == cell.id)
                .order_by(api.Assignment.name, submitted.student_id, cell.name).all())
    return [CellScore(student, assignment, cell, float(score or 0), float(maximum or 0), kind == "markdown",
                      bool(waiting)) for student, assignment, cell, score, maximum, kind, waiting in rows]


def check_rows_from_csv(path: Path) -> list[CheckRow]:
    """The rows of a ``checks.csv`` (none when it is missing)."""
    return [CheckRow(row["student"], row["assignment"], row.get("test") or "", row.get("exercise") or "",
                     row.get("hidden") == "True", row.get("passed") == "True", row.get("mistake") or "",
                     row.get("message") or "")
            for row in checks_csv.read(path) if row.get("student") and row.get("assignment") and row.get("exercise")]


def _read_checks(data: ClassData, db_url: str, course: str, gradebook: bool) -> None:
    """The check rows: the gradebook's table first, ``checks.csv`` for the submissions it lacks."""
    stored = None
    if gradebook:
        try:
            stored = checks_db.load(db_url, course)
        except Exception as error:  # noqa: BLE001 (a broken database: say so on the page, use checks.csv)
            data.notes.append(f"the gradebook's check table could not be read ({type(error).__name__}); "
                              "checks.csv was used")
    path = data.out / "checks.csv"
    from_csv = check_rows_from_csv(path)
    if stored is None and not path.is_file():
        return
    stored = stored or []
    in_table = {(row.student, row.assignment) for row in stored}
    extra = [row for row in from_csv if (row.student, row.assignment) not in in_table]
    rows = stored + extra
    if data.results:  # a submission regraded into a failure keeps its earlier rows in both stores: not shown
        ran = {(r.student, r.assignment) for r in data.results if r.status in ("graded", "tampered")}
        rows = [row for row in rows if (row.student, row.assignment) in ran]
    data.checks = rows
    data.checks_source = " and ".join(([f"the gradebook's {checks_db.TABLE.name} table"] if stored else [])
                                      + (["checks.csv"] if extra else []))


def gather(out: Path, db_url: str | None = None, course: str | None = None) -> ClassData:
    """Everything the report shows, read from a graded folder and its gradebook."""
    out = Path(out)
    course = course or default_course_id()
    db_url = db_url or f"sqlite:///{(out / 'course' / 'gradebook.db').resolve()}"
    data = ClassData(out, _read_results(out / "grades.csv"))
    gradebook = _gradebook_exists(db_url)
    if gradebook:
        from .grades import with_gradebook_scores

        try:
            data.results = with_gradebook_scores(data.results, db_url, course)
            data.cells = _read_cells(db_url, course)
        except Exception as error:  # noqa: BLE001 (an unreadable gradebook: report what grades.csv holds)
            data.notes.append(f"the gradebook could not be read ({type(error).__name__}: {str(error)[:200]}); "
                              "scores are those of grades.csv")
            gradebook = False
    elif data.results:
        data.notes.append("no gradebook next to grades.csv: scores are those of grades.csv")
    _read_checks(data, db_url, course, gradebook)
    return data


# -- what the report computes ------------------------------------------------------------------------

@dataclass
class MistakeCount:
    mistakes: tuple[str, ...]  # one catalogue id, or those the grader could not tell apart, in catalogue order
    students: list[str]


@dataclass
class ExerciseSummary:
    assignment: str
    exercise: str
    test: str
    named: list[MistakeCount]  # ranked: most learners first
    unnamed: list[str]  # failed, and no failed check named a mistake
    unanswered: list[str]  # still raising NotImplementedError
    examples: list[tuple[str, int]]  # the unnamed failures' commonest messages, with their counts
    learners: int  # learners with a check of this exercise
    failed: int  # learners with a failed check of this exercise


_CATALOGUE_ORDER = {mistake_id: index for index, mistake_id in enumerate(CATALOGUE)}


def diagnosis(wrong: list[CheckRow]) -> tuple[str, ...]:
    """The mistake one learner made in one exercise, from the failed checks' named mistakes.

    A check names one mistake, or several when they give the same numbers on every input it tried.
    The mistake is the one every naming check agrees on (a later check may tell two apart); when they
    agree on none, all that were named. Empty when no check named one."""
    named = [frozenset(m for m in row.mistake.split(",") if m) for row in wrong]
    named = [found for found in named if found]
    if not named:
        return ()
    agreed = frozenset.intersection(*named) or frozenset.union(*named)
    return tuple(sorted(agreed, key=lambda m: (_CATALOGUE_ORDER.get(m, len(_CATALOGUE_ORDER)), m)))


def exercise_summaries(checks: list[CheckRow]) -> list[ExerciseSummary]:
    """Per exercise, in the order grading met them: the named mistakes ranked by the learners who
    made them (each learner counts once, under the mistake of :func:`diagnosis`), then the learners
    whose failures named none, and those who did not answer."""
    order: dict[tuple[str, str], str] = {}
    by_learner: dict[tuple[str, str], dict[str, list[CheckRow]]] = defaultdict(lambda: defaultdict(list))
    for row in checks:
        order.setdefault((row.assignment, row.exercise), row.test)
        by_learner[(row.assignment, row.exercise)][row.student].append(row)
    known = course_assignments()
    keys = sorted(order, key=lambda k: (known.index(k[0]) if k[0] in known else len(known), k[0]))
    return [_summary(key, order[key], by_learner[key]) for key in keys]


def _summary(key: tuple[str, str], test: str, learners: dict[str, list[CheckRow]]) -> ExerciseSummary:
    named: dict[tuple[str, ...], list[str]] = defaultdict(list)
    unnamed, unanswered, examples = [], [], defaultdict(int)
    failed = 0
    for student in sorted(learners):
        wrong = [row for row in learners[student] if not row.passed]
        if not wrong:
            continue
        failed += 1
        mistakes = diagnosis(wrong)
        if mistakes:
            named[mistakes].append(student)
        elif any(NOT_ANSWERED in row.message for row in wrong):
            unanswered.append(student)
        else:
            unnamed.append(student)
            examples[wrong[0].message] += 1
    ranked = sorted((MistakeCount(m, s) for m, s in named.items()), key=lambda c: (-len(c.students), c.mistakes))
    return ExerciseSummary(key[0], key[1], test, ranked, unnamed, unanswered,
                           sorted(examples.items(), key=lambda e: (-e[1], e[0]))[:3], len(learners), failed)


def class_ranking(summaries: list[ExerciseSummary], top: int = 5) -> list[tuple[ExerciseSummary, MistakeCount]]:
    """The class's most common named mistakes, all exercises together: what to reteach first."""
    pairs = [(s, c) for s in summaries for c in s.named]
    return sorted(pairs, key=lambda p: (-len(p[1].students), p[0].assignment, p[0].exercise, p[1].mistakes))[:top]


def submitted(result: Result) -> bool:
    return result.status not in ("missing",)


def waiting_points(cells: list[CellScore]) -> dict[tuple[str, str], float]:
    """{(learner, assignment): points of the written answers still waiting for a manual grade}."""
    waiting: dict[tuple[str, str], float] = defaultdict(float)
    for cell in cells:
        if cell.needs_manual_grade:
            waiting[(cell.student, cell.assignment)] += cell.max_score
    return waiting


def overall_shares(results: list[Result], waiting: dict[tuple[str, str], float] | None = None
                   ) -> dict[str, tuple[float, float]]:
    """Each learner's points and points possible over every assignment of the class, leaving out the
    points of written answers not graded yet (``waiting``); an assignment a learner did not submit,
    or that could not be graded, counts its points possible with none earned."""
    waiting = waiting or {}
    maxima: dict[str, float] = {}
    for r in results:
        maxima[r.assignment] = max(maxima.get(r.assignment, 0.0), r.max_score)
    earned: dict[str, float] = defaultdict(float)
    possible: dict[str, float] = defaultdict(float)
    for r in results:
        earned[r.student] += r.score if submitted(r) else 0.0
        possible[r.student] += maxima[r.assignment] - waiting.get((r.student, r.assignment), 0.0)
    return {student: (earned[student], possible[student]) for student in sorted(possible)}


def below_threshold(results: list[Result], threshold: float, waiting: dict[tuple[str, str], float] | None = None
                    ) -> list[tuple[str, float, float]]:
    """(learner, points, points possible) of the learners under ``threshold`` of the points graded so far."""
    rows = [(s, got, total) for s, (got, total) in overall_shares(results, waiting).items()
            if total and got / total < threshold]
    return sorted(rows, key=lambda r: (r[1] / r[2], r[0]))


def troubled(results: list[Result]) -> list[Result]:
    """Submissions that failed, were invalid or tampered with, or had a cell stopped."""
    return [r for r in results if r.status in ("failed", "invalid", "tampered")
            or (r.status == "graded" and any(word in r.message for word in STOPPED))]


def exercise_points(data: ClassData) -> dict[tuple[str, str], dict[str, tuple[float, float]]]:
    """{(assignment, test cell): {learner: (score, max)}} of the autograded cells, from the gradebook."""
    points: dict[tuple[str, str], dict[str, tuple[float, float]]] = defaultdict(dict)
    for cell in data.cells:
        if not cell.written:
            points[(cell.assignment, cell.cell)][cell.student] = (cell.score, cell.max_score)
    return points


# -- plots -------------------------------------------------------------------------------------------

def _png(figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def score_histogram(scores: list[float], maximum: float, title: str) -> str:
    """A histogram of an assignment's scores, as base64 PNG."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(4.6, 2.6))
    axes = figure.subplots()
    bins = [maximum * i / 10 for i in range(11)] if maximum > 0 else 10
    axes.hist(scores, bins=bins, color=COLOURS["bars"], edgecolor="white")
    axes.set_xlabel(f"score (out of {maximum:g})")
    axes.set_ylabel("learners")
    axes.set_title(title, fontsize=10)
    axes.yaxis.get_major_locator().set_params(integer=True)
    axes.spines[["top", "right"]].set_visible(False)
    return _png(figure)


def exercise_bars(rows: list[tuple[str, int, int, int]], title: str) -> str:
    """Per exercise, learners with full, partial and no points, as stacked horizontal bars (PNG)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(5.4, 0.5 + 0.42 * max(len(rows), 1)))
    axes = figure.subplots()
    names = [row[0] for row in rows][::-1]
    left = [0] * len(rows)
    for index, (label, colour) in enumerate((("full marks", "full"), ("partly", "partial"), ("no points", "zero"))):
        values = [row[1 + index] for row in rows][::-1]
        axes.barh(names, values, left=left, color=COLOURS[colour], label=label)
        left = [a + b for a, b in zip(left, values, strict=True)]
    axes.set_xlabel("learners")
    axes.set_title(title, fontsize=10)
    axes.xaxis.get_major_locator().set_params(integer=True)
    axes.legend(fontsize=8, loc="lower right", frameon=False, ncols=3, bbox_to_anchor=(1, 1.08))
    axes.spines[["top", "right"]].set_visible(False)
    return _png(figure)


# -- the page ----------------------------------------------------------------------------------------

CSS = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1b1b;
       max-width: 1100px; margin: 1.5em auto; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: .2em; } h2 { margin-top: 1.8em; border-bottom: 2px solid #ddd; }
h3 { margin-bottom: .3em; } .muted { color: #5f5f5f; } .small { font-size: .88em; }
table { border-collapse: collapse; margin: .4em 0 1em; width: 100%; }
th, td { text-align: left; padding: .3em .6em; border-bottom: 1px solid #e3e3e3; vertical-align: top; }
th { background: #f4f4f4; } td.count, th.count { text-align: right; width: 5em; font-variant-numeric: tabular-nums; }
.cards { display: flex; flex-wrap: wrap; gap: .8em; margin: .8em 0; }
.card { border: 1px solid #ddd; border-radius: 6px; padding: .5em .9em; min-width: 8em; }
.card b { display: block; font-size: 1.5em; }
.banner { background: #fff3e0; border-left: 5px solid #ef6c00; padding: .6em 1em; margin: 1em 0; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
.plots img { max-width: 100%; border: 1px solid #eee; }
.hint { color: #3d3d3d; font-size: .92em; } .who { font-size: .9em; color: #333; }
code { background: #f4f4f4; padding: 0 .25em; border-radius: 3px; }
tr.unnamed td, tr.unanswered td { color: #5f5f5f; font-style: italic; }
table.exercise td:nth-child(3), table.exercise th:nth-child(3) { width: 32%; }
.or { font-size: .85em; color: #5f5f5f; margin: .15em 0; }
"""


def esc(value) -> str:
    return html.escape(str(value), quote=True)


def _learners(students: list[str]) -> str:
    shown = ", ".join(esc(s) for s in students[:40])
    more = f" and {len(students) - 40} more" if len(students) > 40 else ""
    return f'<span class="who">{shown}{more}</span>'


def _mistake_text(mistakes: tuple[str, ...]) -> str:
    """The mistake's title, id and hint; for mistakes the grader could not tell apart, each of them."""
    parts = []
    for mistake_id in mistakes:
        mistake = CATALOGUE.get(mistake_id)
        if mistake is None:
            parts.append(f"<b>{esc(mistake_id)}</b> <span class=\"hint\">(no longer in the course's catalogue)</span>")
        else:
            parts.append(f"<b>{esc(mistake.title)}</b> <code>{esc(mistake.id)}</code>"
                         f"<div class=\"hint\">{esc(mistake.hint)}</div>")
    if len(parts) == 1:
        return parts[0]
    return ("<div class=\"small muted\">one of these, which give the same numbers on every input the checks "
            "tried:</div>" + "<div class=\"or\">or</div>".join(parts))


def _percent(got: float, total: float) -> str:
    return f"{100 * got / total:.0f} %" if total else "-"


def _summary_cards(data: ClassData) -> str:
    learners = sorted({r.student for r in data.results} | {c.student for c in data.checks or []})
    assignments = sorted({r.assignment for r in data.results} | {c.assignment for c in data.checks or []})
    graded = [r for r in data.results if r.status in ("graded", "tampered")]
    failed_checks = sum(1 for c in data.checks or [] if not c.passed)
    cards = [("learners", len(learners)), ("assignments", len(assignments)), ("submissions graded", len(graded)),
             ("checks", len(data.checks or [])), ("checks failed", failed_checks)]
    return '<div class="cards">' + "".join(
        f'<div class="card" id="card-{esc(label.replace(" ", "-"))}"><b>{value}</b>{esc(label)}</div>'
        for label, value in cards) + "</div>"


def _reteach(summaries: list[ExerciseSummary]) -> str:
    top = class_ranking(summaries)
    if not top:
        return "<p>No check named a catalogued mistake.</p>"
    rows = "".join(
        f'<tr class="top-mistake" data-assignment="{esc(s.assignment)}" data-exercise="{esc(s.exercise)}" '
        f'data-mistake="{esc(" ".join(c.mistakes))}"><td class="count">{len(c.students)}</td>'
        f"<td>{_mistake_text(c.mistakes)}</td>"
        f"<td><code>{esc(s.exercise)}</code><div class=\"small muted\">{esc(s.assignment)}</div></td></tr>"
        for s, c in top)
    return ('<table id="reteach"><thead><tr><th class="count">learners</th><th>mistake, and the hint learners see'
            f"</th><th>exercise</th></tr></thead><tbody>{rows}</tbody></table>")


def _exercise_table(summary: ExerciseSummary) -> str:
    attributes = f'data-assignment="{esc(summary.assignment)}" data-exercise="{esc(summary.exercise)}"'
    rows = []
    for rank, count in enumerate(summary.named, 1):
        rows.append(f'<tr class="mistake" {attributes} data-mistake="{esc(" ".join(count.mistakes))}" '
                    f'data-rank="{rank}"><td class="count">{len(count.students)}</td>'
                    f"<td>{_mistake_text(count.mistakes)}</td>"
                    f"<td>{_learners(count.students)}</td></tr>")
    if summary.unnamed:
        examples = "".join(f"<li>{esc(message)} <span class=\"muted\">({n})</span></li>"
                           for message, n in summary.examples)
        rows.append(f'<tr class="unnamed" {attributes}><td class="count">{len(summary.unnamed)}</td>'
                    f"<td>wrong, no diagnosis<ul class=\"small\">{examples}</ul></td>"
                    f"<td>{_learners(summary.unnamed)}</td></tr>")
    if summary.unanswered:
        rows.append(f'<tr class="unanswered" {attributes}><td class="count">{len(summary.unanswered)}</td>'
                    f"<td>not answered</td><td>{_learners(summary.unanswered)}</td></tr>")
    heading = (f'<h3 id="exercise-{esc(summary.assignment)}-{esc(summary.exercise)}"><code>{esc(summary.exercise)}'
               f'</code> <span class="muted small">{summary.failed} of {summary.learners} learners failed a check'
               "</span></h3>")
    if not rows:
        return heading + "<p class=\"small\">Every learner passed every check.</p>"
    return (heading + f'<table class="exercise" {attributes}><thead><tr><th class="count">learners</th>'
            "<th>mistake</th><th>who</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


def _assignment_section(name: str, data: ClassData, summaries: list[ExerciseSummary]) -> str:
    results = [r for r in data.results if r.assignment == name]
    present = [r for r in results if submitted(r)]
    scores = [r.score for r in present]
    maximum = max((r.max_score for r in results), default=0.0)
    parts = [f'<h2 id="assignment-{esc(name)}">{esc(name)}</h2>']
    if results:
        written = max((r.max_score - r.auto_max_score for r in results), default=0.0)
        checked = sum(1 for r in present if r.auto_score >= r.auto_max_score > 0)
        stats = (f"{len(present)} submitted, {len(results) - len(present)} missing"
                 + (f"; median {statistics.median(scores):g} of {maximum:g} points"
                    + (f" ({written:g} of them for written answers graded by hand)" if written > 0 else "")
                    + f", mean {statistics.mean(scores):.1f}; {checked} passed every check" if scores else ""))
        parts.append(f'<p class="stats" data-assignment="{esc(name)}">{esc(stats)}</p>')
    plots = []
    if scores:
        plots.append(f'<img alt="histogram of the scores of {esc(name)}" '
                     f'src="data:image/png;base64,{score_histogram(scores, maximum, "scores")}">')
    mine = [s for s in summaries if s.assignment == name]
    points = exercise_points(data)
    bars = []
    for summary in mine:
        learners = points.get((name, summary.test), {})
        full = sum(1 for got, top in learners.values() if top and got >= top)
        zero = sum(1 for got, _ in learners.values() if got <= 0)
        bars.append((summary.exercise, full, len(learners) - full - zero, zero))
    if any(sum(b[1:]) for b in bars):
        plots.append(f'<img alt="learners with full, partial and no points per exercise of {esc(name)}" '
                     f'src="data:image/png;base64,{exercise_bars(bars, "points per exercise")}">')
    if plots:
        parts.append('<div class="plots">' + "".join(plots) + "</div>")
    if data.checks is not None:
        parts += [_exercise_table(summary) for summary in mine]
    return "\n".join(parts)


def _below_section(data: ClassData, threshold: float) -> str:
    rows = below_threshold(data.results, threshold, waiting_points(data.cells))
    head = (f"<h2 id=\"below\">Learners below {threshold * 100:g} % of the points</h2><p class=\"small\">Over "
            "every assignment of the class (one not submitted, or that could not be graded, earns none of its "
            "points); written answers still waiting for a manual grade are left out until they are graded.</p>")
    if not rows:
        return head + "<p>None.</p>"
    by_student = defaultdict(dict)
    for r in data.results:
        by_student[r.student][r.assignment] = r
    body = "".join(
        f'<tr class="below" data-student="{esc(s)}"><td>{esc(s)}</td><td class="count">{got:g} / {total:g}</td>'
        f'<td class="count">{_percent(got, total)}</td><td class="small">'
        + "; ".join(f"{esc(a)}: {esc(f'{r.score:g}' if submitted(r) else 'missing')}"
                    for a, r in sorted(by_student[s].items())) + "</td></tr>"
        for s, got, total in rows)
    return (head + '<table id="below-table"><thead><tr><th>learner</th><th class="count">points</th>'
            f'<th class="count">share</th><th>per assignment</th></tr></thead><tbody>{body}</tbody></table>')


def _trouble_section(data: ClassData) -> str:
    rows = troubled(data.results)
    head = "<h2 id=\"trouble\">Submissions that failed, timed out or were tampered with</h2>"
    if not rows:
        return head + "<p>None.</p>"
    body = "".join(f'<tr class="trouble" data-status="{esc(r.status)}"><td>{esc(r.student)}</td><td>{esc(r.assignment)}'
                   f"</td><td>{esc(r.status)}</td><td class=\"small\">{esc(r.message)}</td></tr>" for r in rows)
    return (head + '<table id="trouble-table"><thead><tr><th>learner</th><th>assignment</th><th>status</th>'
            f"<th>what happened</th></tr></thead><tbody>{body}</tbody></table>")


def _manual_section(data: ClassData) -> str:
    waiting = [c for c in data.cells if c.needs_manual_grade]
    head = "<h2 id=\"manual\">Written answers waiting for a manual grade</h2>"
    if not waiting:
        return head + "<p>None.</p>"
    by_cell: dict[tuple[str, str], list[str]] = defaultdict(list)
    for cell in waiting:
        by_cell[(cell.assignment, cell.cell)].append(cell.student)
    body = "".join(f'<tr class="manual"><td>{esc(a)}</td><td><code>{esc(c)}</code></td>'
                   f'<td class="count">{len(students)}</td><td>{_learners(sorted(students))}</td></tr>'
                   for (a, c), students in sorted(by_cell.items()))
    return (head + "<p class=\"small\">Grade them in nbgrader's formgrader; the marks and this page take them from "
            "the gradebook.</p><table id=\"manual-table\"><thead><tr><th>assignment</th><th>answer</th>"
            f'<th class="count">waiting</th><th>learners</th></tr></thead><tbody>{body}</tbody></table>')


def _banners(data: ClassData) -> list[str]:
    banners = []
    if not data.results and not data.checks:
        banners.append(f"No graded submissions in {esc(data.out)}: grade a class first "
                       f"(<code>python3 tasks.py grade SUBMISSIONS --out {esc(data.out)}</code>).")
        return banners
    ran = [r for r in data.results if r.status in ("graded", "tampered")]
    if data.results and not ran:
        banners.append("No submission could be graded: every one failed, was invalid or is missing. "
                       "The list below says why.")
    if data.checks is None and ran:
        banners.append("This folder was graded before the grader recorded each check's result, so the class's "
                       "mistakes cannot be shown. Grade it again with <code>--force</code> to see them.")
    banners += [esc(note) for note in data.notes]
    return banners


def render(data: ClassData, threshold: float = DEFAULT_THRESHOLD) -> str:
    """The report as one HTML page."""
    summaries = exercise_summaries(data.checks or [])
    known = course_assignments()
    names = sorted({r.assignment for r in data.results} | {s.assignment for s in summaries},
                   key=lambda a: (known.index(a) if a in known else len(known), a))
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    body = [f"<h1>Class report</h1><p class=\"muted small\">{esc(data.out)}, {when}"
            + (f"; check results from {esc(data.checks_source)}" if data.checks_source else "") + "</p>"]
    body += [f'<div class="banner">{banner}</div>' for banner in _banners(data)]
    body.append(_summary_cards(data))
    if data.checks:
        body.append("<h2 id=\"reteach-heading\">What to reteach first</h2><p class=\"small\">The mistakes the grader "
                    "named most often, all exercises together, by learners who made them.</p>" + _reteach(summaries))
    body += [_assignment_section(name, data, summaries) for name in names]
    if data.results:
        body += [_below_section(data, threshold), _trouble_section(data)]
    if data.cells:
        body.append(_manual_section(data))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>Class report</title><style>{CSS}</style></head><body>\n" + "\n".join(body)
            + "\n</body></html>\n")


def write_report(out: Path, threshold: float = DEFAULT_THRESHOLD, db_url: str | None = None) -> Path:
    """Gather, render and write ``out/report.html``; returns its path."""
    data = gather(out, db_url)
    target = Path(out) / "report.html"
    target.write_text(render(data, threshold), encoding="utf-8")
    return target


def parse_threshold(text: str) -> float:
    """A share of the points: ``0.5``, ``50%`` or ``50`` (a number above 1 is read as a percentage)."""
    value = float(text.strip().rstrip("%"))
    value = value / 100 if text.strip().endswith("%") or value > 1 else value
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a share of the points between 0 and 1 (or 0 % and 100 %)")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("graded"), help="the graded folder (default: graded/)")
    parser.add_argument("--threshold", type=parse_threshold, default=DEFAULT_THRESHOLD,
                        help="list learners below this share of the points (default 0.5, or 50%%)")
    parser.add_argument("--db", default=None, help="SQLAlchemy URL of the gradebook, if it is not DIR/course/gradebook.db")
    args = parser.parse_args(argv)
    if not args.out.is_dir():
        print(f"{args.out}: no such folder; grade a class into it first", file=sys.stderr)
        return 2
    print(f"wrote {write_report(args.out, args.threshold, args.db)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
