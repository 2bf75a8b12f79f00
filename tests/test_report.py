"""The class report, the check rows in the gradebook and the Canvas export, on a synthetic class.

The class: the sample class (``autograder/samples/submissions``: ada, full marks; ben, nothing
answered; cleo, softmax over the wrong axis; notebook 01 only), and 32 learners who answer
notebooks 01 (PyTorch) and 02 (NumPy) with planted mistakes, taken from the course's own case sets
(``tests/cases/``: realistic wrong answers keyed by catalogue id), each at a planted frequency,
several per exercise, spread so that learners mix them; some are planted as wrong answers the
catalogue does not name (the fresh sets' ``uncatalogued`` cases). Three more learners: one who
answered nothing, one whose notebook 01 is not a notebook and who did not submit 02, and one who
edited a test cell. The real grader grades the class once (73 notebooks, 2 workers).

The tests check that the report ranks every exercise's planted mistakes in the planted order with
the planted counts; that the gradebook's table holds the same rows as ``checks.csv``; that the
page, opened in Chromium with the network cut off, shows the numbers ``checks.csv`` gives
(counted here on their own) with its plots decoded, and keeps a screenshot in
``artifacts/report/``; and that the Canvas export round-trips through a parser of Canvas's
import format, with manual grades counted and roster problems reported line by line.

Without ``/usr/bin/chromium`` the browser test is skipped, unless ``CI`` is set: then it fails.
"""

from __future__ import annotations

import os
import shutil
from collections import defaultdict
from pathlib import Path

import canvas_format
import pytest
from conftest import REPO, read_csv, write_submission

from autograder import NOTEBOOKS, SOLUTIONS, checks_db, lms, report
from autograder import notebooks as nbio
from autograder.accuracy import load_cases, mistake_of
from autograder.course import course_id
from autograder.grade import grade

pytestmark = pytest.mark.slow

COURSE = course_id()
N01, N02 = "01_attention_without_weights", "02_general_attention_numpy"
LEARNERS = [f"learner-{i:02d}" for i in range(1, 33)]
BLANK, BROKEN, TAMPERER = "blank-page", "broken-file", "edits-tests"
SAMPLES = REPO / "autograder" / "samples" / "submissions"
SAMPLE_MISTAKES = {(N01, "softmax_stable", "softmax_wrong_axis"): {"cleo"}}  # the sample class's own
SAMPLE_UNANSWERED = {N01: ["ben"], N02: []}
# (notebook, exercise, planted named mistakes with their learners, planted unnamed (set, case, learners)),
# counts all different within an exercise so that the planted order is unambiguous; a count includes
# the sample class's learners who made that mistake (SAMPLE_MISTAKES)
PLANTED = [
    (N01, "softmax_stable", [("softmax_wrong_axis", 8 + 1), ("softmax_no_max_subtraction", 6), ("normalise_by_sum", 3)],
     ("fresh", "uncatalogued:max_without_keepdim", 2)),
    (N01, "self_attention_no_weights", [("returns_weights", 7), ("weights_times_scores", 4), ("no_softmax", 2)], None),
    (N02, "state_weights", [("no_scaling", 10), ("scale_by_d_k", 5), ("scale_by_sqrt_tokens", 2)], None),
    (N02, "state_attention", [("returns_weights", 8), ("weights_times_keys", 4), ("no_scaling", 1)],
     ("fresh2", "uncatalogued:values_from_state", 3)),
]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking"]
ARTIFACTS = REPO / "artifacts" / "report"


def _design_case(notebook: str, exercise: str, mistake: str) -> str:
    mistakes, _ = load_cases(notebook)
    return next(source for case, source in mistakes[exercise].items() if mistake_of(case) == mistake)


def planted_answers() -> dict[str, dict[str, dict[str, str]]]:
    """{learner: {notebook: {exercise: wrong answer}}}: each exercise's planted answers laid out on the
    learners from an offset of its own, so that one learner's mistakes differ from exercise to exercise."""
    answers: dict[str, dict[str, dict[str, str]]] = {learner: {N01: {}, N02: {}} for learner in LEARNERS}
    for number, (notebook, exercise, named, unnamed) in enumerate(PLANTED):
        wrong = [_design_case(notebook, exercise, mistake) for mistake, count in named
                 for _ in range(count - len(SAMPLE_MISTAKES.get((notebook, exercise, mistake), ())))]
        if unnamed:
            case_set, case, count = unnamed
            wrong += [load_cases(notebook, case_set)[0][exercise][case]] * count
        assert len(wrong) <= len(LEARNERS)
        for index, source in enumerate(wrong):
            answers[LEARNERS[(index + 7 * number) % len(LEARNERS)]][notebook][exercise] = source
    return answers


def expected_learners(notebook: str, exercise: str) -> dict[str, set[str]]:
    """{mistake id, or "unnamed": the learners it was planted on} for one exercise."""
    answers = planted_answers()
    planted = next(p for p in PLANTED if p[:2] == (notebook, exercise))
    sources = {mistake: _design_case(notebook, exercise, mistake) for mistake, _ in planted[2]}
    if planted[3]:
        sources["unnamed"] = load_cases(notebook, planted[3][0])[0][exercise][planted[3][1]]
    return {key: {learner for learner in LEARNERS if answers[learner][notebook].get(exercise) == source}
            | SAMPLE_MISTAKES.get((notebook, exercise, key), set()) for key, source in sources.items()}


def _with_edited_test(nb):
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "correct_scores_for_query":
            cell.source += "\nassert True  # edited"
    return nb


@pytest.fixture(scope="module")
def graded(tmp_path_factory, warm_workers) -> Path:
    """The synthetic class, graded by the real grader; returns the out folder."""
    root = tmp_path_factory.mktemp("synthetic")
    submissions = root / "submissions"
    shutil.copytree(SAMPLES, submissions)
    learner = {name: nbio.read(NOTEBOOKS / f"{name}.ipynb") for name in (N01, N02)}
    source = {name: nbio.read(SOLUTIONS / f"{name}.ipynb") for name in (N01, N02)}
    for student, notebooks in planted_answers().items():
        for name, overrides in notebooks.items():
            write_submission(submissions, student, name, nbio.fill_solutions(learner[name], source[name], overrides))
    for name in (N01, N02):
        write_submission(submissions, BLANK, name, learner[name])
        write_submission(submissions, TAMPERER, name,
                         _with_edited_test(nbio.fill_solutions(learner[name], source[name])))
    broken = submissions / BROKEN / N01 / f"{N01}.ipynb"
    broken.parent.mkdir(parents=True)
    broken.write_text('{"cells": [', encoding="utf-8")
    (submissions / BROKEN / N02).mkdir()  # nothing submitted for 02
    out = root / "out"
    grade(submissions, out, progress=False, executor=warm_workers)
    return out


@pytest.fixture(scope="module")
def page(graded) -> str:
    return report.write_report(graded).read_text(encoding="utf-8")


def _entries(summary) -> list[tuple[tuple[str, ...], set[str]]]:
    return [(count.mistakes, set(count.students)) for count in summary.named]


def test_the_report_ranks_each_exercises_planted_mistakes_in_the_planted_order(graded):
    summaries = {(s.assignment, s.exercise): s for s in report.exercise_summaries(report.gather(graded).checks)}
    for notebook, exercise, named, _ in PLANTED:
        summary = summaries[(notebook, exercise)]
        planted = expected_learners(notebook, exercise)
        entries = _entries(summary)
        # one entry per planted mistake, in the planted order: the entry names the planted mistake (with
        # any the checks cannot tell apart from it) and holds exactly the learners it was planted on
        assert len(entries) == len(named), (exercise, [(m, len(s)) for m, s in entries])
        for (mistake, count), (mistakes, learners) in zip(named, entries, strict=True):
            assert mistake in mistakes, (exercise, mistake, mistakes)
            assert learners == planted[mistake] and len(learners) == count, (exercise, mistake, sorted(learners))
        assert set(summary.unnamed) == planted.get("unnamed", set()), (exercise, summary.unnamed)
        assert summary.unanswered == sorted([BLANK, *SAMPLE_UNANSWERED[notebook]]), (exercise, summary.unanswered)


def test_the_class_ranking_starts_with_the_commonest_mistakes_of_all_exercises(graded):
    top = report.class_ranking(report.exercise_summaries(report.gather(graded).checks))
    planted = sorted(((count, exercise, mistake) for _, exercise, named, _ in PLANTED for mistake, count in named),
                     reverse=True)[:5]
    assert [(len(c.students), s.exercise) for s, c in top] == [(count, exercise) for count, exercise, _ in planted]
    assert all(mistake in c.mistakes for (s, c), (_, _, mistake) in zip(top, planted, strict=True))


def test_broken_tampered_missing_and_unanswered_submissions_are_shown(graded, page):
    data = report.gather(graded)
    troubled = {(r.student, r.assignment): r.status for r in report.troubled(data.results)}
    assert troubled == {(BROKEN, N01): "invalid", (TAMPERER, N01): "tampered"}, troubled
    assert "not valid notebook JSON" in page and "edited test cell correct_scores_for_query" in page
    assert f'data-student="{BROKEN}"' in page and f'data-student="{BLANK}"' in page  # below the threshold
    waiting = {(c.student, c.assignment) for c in data.cells if c.needs_manual_grade}
    assert (LEARNERS[0], N01) in waiting and (BLANK, N01) not in waiting  # a blank answer needs no grading
    assert 'id="manual-table"' in page


def test_the_gradebook_table_holds_the_rows_of_checks_csv(graded):
    stored = checks_db.load(f"sqlite:///{graded / 'course' / 'gradebook.db'}", COURSE)
    in_csv = [row for row in report.check_rows_from_csv(graded / "checks.csv")]
    assert len(stored) == len(in_csv) > 1000
    key = lambda r: (r.assignment, r.student)  # noqa: E731
    assert sorted(stored, key=key) == sorted(in_csv, key=key)  # sorted() is stable: each submission's order kept


def _counted_from_checks_csv(path: Path) -> dict[tuple[str, str, str, str], int]:
    """{(assignment, exercise, kind, mistakes): learners} counted here from checks.csv alone."""
    failed: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for row in read_csv(path):
        if row["passed"] == "False":
            failed[(row["assignment"], row["exercise"], row["student"])].append(row)
    counts: dict[tuple[str, str, str, str], int] = defaultdict(int)
    for (assignment, exercise, _), rows in failed.items():
        named = [set(filter(None, row["mistake"].split(","))) for row in rows]
        named = [n for n in named if n]
        if named:
            mistakes = set.intersection(*named) or set.union(*named)
            counts[(assignment, exercise, "mistake", " ".join(sorted(mistakes)))] += 1
        elif any("not implemented yet" in row["message"] for row in rows):
            counts[(assignment, exercise, "unanswered", "")] += 1
        else:
            counts[(assignment, exercise, "unnamed", "")] += 1
    return dict(counts)


@pytest.fixture
def chromium() -> Path:
    if CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    reason = f"{CHROMIUM} is missing: install Debian's Chromium (apt-get install -y chromium)"
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
        pytest.fail(f"{reason}; CI is set, so the browser test must run", pytrace=False)
    pytest.skip(reason)


@pytest.mark.browser
def test_the_report_opens_offline_in_chromium_with_the_numbers_of_checks_csv(graded, page, chromium):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for stale in ARTIFACTS.glob("*.png"):
        stale.unlink()
    target = graded / "report.html"
    requested: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), headless=True, args=CHROMIUM_ARGS)
        try:
            tab = browser.new_page(viewport={"width": 1280, "height": 1500})
            tab.route("**/*", lambda route: (requested.append(route.request.url),
                                             route.continue_() if route.request.url.startswith("file:")
                                             else route.abort()))
            tab.goto(target.as_uri())
            tab.wait_for_load_state("load")
            try:
                _check_the_page(tab, graded)
            finally:
                tab.screenshot(path=str(ARTIFACTS / "report.png"))
                tab.screenshot(path=str(ARTIFACTS / "report-full.png"), full_page=True)
        finally:
            browser.close()
    assert requested == [target.as_uri()], f"the page asked for more than itself: {requested}"


def _check_the_page(tab, graded: Path) -> None:
    checks = read_csv(graded / "checks.csv")
    cards = {card.get_attribute("id"): card.locator("b").inner_text() for card in tab.locator(".card").all()}
    assert cards["card-checks"] == str(len(checks))
    assert cards["card-checks-failed"] == str(sum(row["passed"] == "False" for row in checks))
    assert cards["card-learners"] == str(len(LEARNERS) + 6)
    shown = {}
    for row in tab.locator("table.exercise tr.mistake, table.exercise tr.unnamed, table.exercise tr.unanswered").all():
        kind = row.get_attribute("class")
        mistakes = " ".join(sorted((row.get_attribute("data-mistake") or "").split()))
        key = (row.get_attribute("data-assignment"), row.get_attribute("data-exercise"), kind, mistakes)
        assert key not in shown, key
        shown[key] = int(row.locator("td.count").inner_text())
        assert row.is_visible()
    assert shown == _counted_from_checks_csv(graded / "checks.csv")
    # each exercise's rows are ranked: most learners first
    for table in tab.locator("table.exercise").all():
        counts = [int(text) for text in table.locator("tr.mistake td.count").all_inner_texts()]
        assert counts == sorted(counts, reverse=True), counts
    images = tab.locator("img")
    assert images.count() == 4  # two assignments: a histogram and the exercises' bars each
    for image in images.all():
        assert image.get_attribute("src").startswith("data:image/png;base64,")
        assert image.evaluate("img => img.complete && img.naturalWidth") > 200
    assert tab.locator("#reteach tr.top-mistake").count() == 5
    assert tab.locator("#trouble-table tr.trouble").count() == 2


def test_the_canvas_export_round_trips_with_manual_grades_and_roster_problems(graded, tmp_path, capsys):
    from nbgrader.api import Gradebook

    database = tmp_path / "gradebook.db"
    shutil.copyfile(graded / "course" / "gradebook.db", database)
    url = f"sqlite:///{database}"
    with Gradebook(url, COURSE) as gradebook:
        before = float(gradebook.find_submission(N01, LEARNERS[0]).score)
    with Gradebook(url, COURSE) as gradebook:  # a grader marks two written answers in the formgrader
        for student, mark in ((LEARNERS[0], 1.5), (LEARNERS[1], 2.0)):
            written = gradebook.find_grade("explain_no_trainable_weights", N01, N01, student)
            written.manual_score = mark
        gradebook.db.commit()
        expected = {(s.student.id, a.name): float(s.score) for a in gradebook.assignments for s in a.submissions}
        possible = {a.name: float(a.max_score) for a in gradebook.assignments}
    assert expected[(LEARNERS[0], N01)] == before + 1.5
    roster = tmp_path / "roster.csv"
    lines = ["Student,ID,SIS User ID,SIS Login ID,Section,Current Score",
             "    Points Possible,,,,,(read only)"]
    on_roster = [name for name in LEARNERS if name != LEARNERS[-1]] + [BLANK, BROKEN, TAMPERER, "ada", "ben", "cleo"]
    lines += [f'"Learner, {name}",{1000 + i},S{i},{name},Tuesday,' for i, name in enumerate(on_roster)]
    extra = len(lines) + 1  # the line number of the first of these
    lines += ['"Late, Comer",2001,S2001,late-comer,Tuesday,',  # on the roster, submitted nothing
              f'"Twice, Listed",2002,S2002,{LEARNERS[2]},Tuesday,',  # listed twice
              '"No, Login",2003,S2003,,Tuesday,',  # no key
              '"Same, Canvas Id",1000,S2004,someone-else,Tuesday,']  # the Canvas ID of line 3
    roster.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = lms.main(["--out", str(graded), "--roster", str(roster), "--format", "canvas", "--db", url,
                     "--assignment-id", f"{N01}=4512"])
    printed = capsys.readouterr().out
    assert code == 0, printed
    imported = canvas_format.parse((graded / "canvas-grades.csv").read_text(encoding="utf-8"))
    assert [(a.title, a.canvas_id, a.points_possible) for a in imported.assignments] == [
        (N01, "4512", f"{possible[N01]:g}"), (N02, None, f"{possible[N02]:g}")]
    by_login = {s.sis_login_id: s for s in imported.students}
    assert list(by_login) == [*on_roster, "late-comer"]
    for login, student in by_login.items():
        for assignment in (N01, N02):
            mark = expected.get((login, assignment))
            cell = student.grades[assignment]
            assert (cell == "") if mark is None else (float(cell) == mark), (login, assignment, cell, mark)
    assert by_login[LEARNERS[0]].grades[N01] == f"{before + 1.5:g}" and by_login[BROKEN].grades[N01] == ""
    assert by_login["late-comer"].name == "Late, Comer" and by_login[LEARNERS[0]].canvas_id == "1000"
    for expected_line in (f"roster line {extra}: 'late-comer' has no graded submission: empty cells",
                          f"roster line {extra + 1}: '{LEARNERS[2]}' is listed twice (first on line 5): "
                          "this line is left out",
                          f"roster line {extra + 2}: 'No, Login' has no SIS Login ID: left out",
                          f"roster line {extra + 3}: Canvas ID 1000 of 'Same, Canvas Id' is also on line 3",
                          f"roster line {3 + on_roster.index(BROKEN)}: '{BROKEN}' {N01} could not be graded (invalid)",
                          f"graded learner '{LEARNERS[-1]}' is not in the roster: left out of the file"):
        assert expected_line in printed, printed
