"""The class report, the check table and the Canvas export on bad or hand-made input, without grading.

A folder from an older run (grades.csv, no check rows), an empty folder, a class whose every
submission failed, and names and messages holding HTML must each give a page that says so, with
nothing a learner wrote left able to run, and nothing fetched from the network. The check table
stores, replaces and reads back rows in SQLite (and PostgreSQL, with the server of
tests/test_postgres.py). A roster with unknown, duplicate and keyless learners is reported line
by line, and the CSV written keeps Canvas's layout (read back by tests/canvas_format.py).
"""

from __future__ import annotations

import csv
import subprocess
import sys
from dataclasses import asdict, replace
from html.parser import HTMLParser
from pathlib import Path

import canvas_format
import pytest
from conftest import REPO, cli_env
from test_postgres import postgres_url  # noqa: F401 (the throw-away PostgreSQL server, a fixture here too)

from autograder import checks_csv, checks_db, lms, report
from autograder.course import course_id
from autograder.records import CSV_COLUMNS, CheckRow, Result

N01 = "01_attention_without_weights"
COURSE = course_id()


def _grades_csv(out: Path, results: list[Result]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "grades.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        writer.writerows(asdict(r) for r in results)


class _Elements(HTMLParser):
    """Every start tag of a page with its attributes."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _elements(page: str) -> list[tuple[str, dict]]:
    parser = _Elements()
    parser.feed(page)
    return parser.tags


def _assert_self_contained_and_inert(page: str) -> None:
    tags = _elements(page)
    assert not [t for t, _ in tags if t in ("script", "iframe", "object", "embed", "link", "form")]
    assert not [(t, a) for t, a in tags for name in a if name.startswith("on")], "an event handler"
    for tag, attributes in tags:
        for name in ("src", "href"):
            assert not (attributes.get(name) or "").startswith(("http:", "https:", "//", "javascript:")), (tag, name)


def test_an_older_folder_without_check_rows_gives_a_page_that_says_so(tmp_path):
    out = tmp_path / "graded"
    _grades_csv(out, [Result("ada", N01, f"{N01}.ipynb", 10, 12, 10, 10, True, "graded"),
                      Result("ben", N01, f"{N01}.ipynb", 0, 12, 0, 10, False, "graded")])
    page = report.write_report(out).read_text(encoding="utf-8")
    assert "graded before the grader recorded each check" in page and "--force" in page
    assert "no gradebook next to grades.csv" in page
    assert 'data-student="ben"' in page and "What to reteach first" not in page
    _assert_self_contained_and_inert(page)


def test_an_empty_folder_gives_a_page_that_says_so(tmp_path):
    out = tmp_path / "graded"
    out.mkdir()
    page = report.write_report(out).read_text(encoding="utf-8")
    assert "No graded submissions in" in page and "python3 tasks.py grade SUBMISSIONS" in page
    _assert_self_contained_and_inert(page)


def test_a_class_whose_every_submission_failed_gives_a_page_that_says_so(tmp_path):
    out = tmp_path / "graded"
    _grades_csv(out, [Result("ada", N01, f"{N01}.ipynb", 0, 12, 0, 10, False, "failed", "the kernel died"),
                      Result("ben", N01, f"{N01}.ipynb", 0, 12, 0, 10, False, "invalid", "not valid notebook JSON"),
                      Result("cleo", N01, f"{N01}.ipynb", 0, 12, 0, 10, False, "missing", "no notebook submitted")])
    # rows left from an earlier run, when ada's notebook still ran: not this run's, so not shown
    checks_csv.update([CheckRow("ada", N01, "correct_softmax_stable", "softmax_stable", False, False,
                                "softmax_wrong_axis", "✗ softmax_stable: softmax normalises over the wrong axis")],
                      out / "checks.csv")
    page = report.write_report(out).read_text(encoding="utf-8")
    assert "No submission could be graded" in page and "softmax_wrong_axis" not in page
    assert 'id="card-checks"><b>0</b>' in page
    assert page.count('<tr class="trouble"') == 2 and "the kernel died" in page
    _assert_self_contained_and_inert(page)


def test_the_command_refuses_a_folder_that_does_not_exist(tmp_path):
    completed = subprocess.run([sys.executable, "-m", "autograder.report", "--out", str(tmp_path / "nowhere")],
                               cwd=REPO, env=cli_env(), capture_output=True, text=True, timeout=120)
    assert completed.returncode == 2 and "no such folder" in completed.stderr


def test_names_and_messages_from_submissions_are_escaped(tmp_path):
    out = tmp_path / "graded"
    evil = '<script>alert(1)</script>"onmouseover="x'
    _grades_csv(out, [Result(evil, N01, f"{N01}.ipynb", 1, 12, 1, 10, False, "tampered",
                             'tampered: <img src=x onerror="alert(2)">')])
    rows = [CheckRow(evil, N01, "correct_softmax_stable", "softmax_stable", False, False, "",
                     '✗ softmax_stable: your function raised <iframe src="https://example.org">'),
            CheckRow(evil, N01, "correct_context_vector", "context_vector", False, False, '"><b>bold</b>',
                     "✗ context_vector: <a href='javascript:alert(3)'>x</a>")]
    checks_csv.update(rows, out / "checks.csv")
    page = report.write_report(out).read_text(encoding="utf-8")
    _assert_self_contained_and_inert(page)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&lt;img src=x onerror=" in page
    assert "&quot;&gt;&lt;b&gt;bold&lt;/b&gt;" in page and "no longer in the course" in page  # an unknown id


def test_a_stopped_cell_and_the_threshold_leave_out_what_is_waiting(tmp_path):
    results = [Result("ada", N01, "", 8, 12, 8, 10, True, "graded", "ran past the 30 s limit and stopped: x"),
               Result("ada", "02_general_attention_numpy", "", 0, 14, 0, 10, False, "missing")]
    assert [r.status for r in report.troubled(results)] == ["graded"]
    waiting = {("ada", N01): 2.0}  # a written answer of 2 points not graded yet
    assert report.overall_shares(results, waiting) == {"ada": (8.0, 24.0)}
    assert report.below_threshold(results, 0.5, waiting) == [("ada", 8.0, 24.0)]
    assert report.below_threshold(results, 0.3, waiting) == []


@pytest.mark.parametrize("text, value", [("0.5", 0.5), ("50%", 0.5), ("50", 0.5), ("1", 1.0), ("0", 0.0)])
def test_the_threshold_is_read_as_a_share_or_a_percentage(text, value):
    assert report.parse_threshold(text) == value


def test_a_threshold_above_everything_is_refused():
    with pytest.raises(Exception, match="not a share"):
        report.parse_threshold("150%")


def test_a_learner_counts_once_under_the_mistake_every_check_agrees_on():
    def row(student, mistake, passed=False, message="✗ x"):
        return CheckRow(student, N01, "correct_x", "x", False, passed, mistake, message)

    checks = [row("a", "no_scaling,scale_by_sqrt_tokens"), row("a", "no_scaling"),  # a later check tells them apart
              row("b", "no_scaling,scale_by_sqrt_tokens"), row("b", "no_scaling,scale_by_sqrt_tokens"),
              row("c", "no_scaling"), row("c", "", True),
              row("d", ""), row("e", "", message="✗ x: not implemented yet: replace ..."), row("f", "", True)]
    (summary,) = report.exercise_summaries(checks)
    assert [(c.mistakes, c.students) for c in summary.named] == [
        (("no_scaling",), ["a", "c"]), (("no_scaling", "scale_by_sqrt_tokens"), ["b"])]
    assert (summary.unnamed, summary.unanswered, summary.learners, summary.failed) == (["d"], ["e"], 6, 5)


def _rows(student: str, n: int, passed: bool = True) -> list[CheckRow]:
    return [CheckRow(student, N01, "correct_softmax_stable", "softmax_stable", i > 0, passed,
                     "" if passed else "softmax_wrong_axis", f"message {i} of {student}") for i in range(n)]


def _store_and_load(url: str) -> None:
    assert checks_db.load(url, COURSE) is None  # no table yet: an older gradebook
    first = _rows("ada", 3) + _rows("ben", 2, passed=False)
    checks_db.store(first, url, COURSE)
    assert checks_db.load(url, COURSE) == first
    regraded = [replace(r, passed=True, mistake="") for r in _rows("ben", 4)]
    checks_db.store(regraded, url, COURSE)  # replaces ben's rows, keeps ada's
    assert checks_db.load(url, COURSE) == _rows("ada", 3) + regraded
    assert checks_db.load(url, "another-course") == []


def test_the_check_table_stores_replaces_and_loads_rows_in_sqlite(tmp_path):
    _store_and_load(f"sqlite:///{tmp_path / 'gradebook.db'}")


@pytest.mark.slow
def test_the_check_table_stores_replaces_and_loads_rows_in_postgresql(postgres_url):  # noqa: F811
    _store_and_load(postgres_url)


def _roster(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "roster.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


MARKS = lms.Marks({N01: 12.0, "02_general_attention_numpy": 14.0},
                  {("ada", N01): (11.5, False), ("ada", "02_general_attention_numpy"): (7.25, True),
                   ("ben", N01): (0.0, False), ("zoe", N01): (3.0, False)})


def test_the_canvas_layout_and_the_roster_problems_line_by_line(tmp_path):
    roster = lms.read_roster(_roster(tmp_path, [
        "Student,ID,SIS User ID,SIS Login ID,Section,Notes",
        "    Points Possible,,,,,",
        ",,,,,Manual Posting",  # Canvas's manual-posting row
        '"Lovelace, Ada",101,S1,ada,Mon,',
        '"Bennet, Ben",102,S2,ben,Mon,',
        '"Nobody, Ned",103,S3,ned,Tue,',  # line 6: no submission
        '"Again, Ada",104,S4,ada,Tue,',  # line 7: ada twice
        '"Keyless, Kim",105,S5,,Tue,',  # line 8: no key
        '"Clash, Cy",101,S6,cy,Tue,',  # line 9: Canvas ID of line 4
        "",
    ]))
    rows, problems = lms.canvas_rows(MARKS, roster, {N01: "4512"}, {("ben", "02_general_attention_numpy"): "failed"})
    assert problems == [
        "roster line 4: 'ada' 02_general_attention_numpy: a written answer is not graded yet; the mark counts it "
        "as 0 until it is",
        "roster line 5: 'ben' 02_general_attention_numpy could not be graded (failed): empty cell",
        "roster line 6: 'ned' has no graded submission: empty cells",
        "roster line 7: 'ada' is listed twice (first on line 4): this line is left out",
        "roster line 8: 'Keyless, Kim' has no SIS Login ID: left out",
        "roster line 9: Canvas ID 101 of 'Clash, Cy' is also on line 4: this line is left out",
        "graded learner 'zoe' is not in the roster: left out of the file"]
    assert rows[:2] == [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", f"{N01} (4512)",
                         "02_general_attention_numpy"], ["Points Possible", "", "", "", "", "12", "14"]]
    path = tmp_path / "canvas.csv"
    lms.write_csv(rows, path)
    imported = canvas_format.parse(path.read_text(encoding="utf-8"))
    assert [(a.title, a.canvas_id, a.points_possible) for a in imported.assignments] == [
        (N01, "4512", "12"), ("02_general_attention_numpy", None, "14")]
    assert [(s.name, s.canvas_id, s.sis_user_id, s.sis_login_id, s.section, s.grades) for s in imported.students] == [
        ("Lovelace, Ada", "101", "S1", "ada", "Mon", {N01: "11.5", "02_general_attention_numpy": "7.25"}),
        ("Bennet, Ben", "102", "S2", "ben", "Mon", {N01: "0", "02_general_attention_numpy": ""}),
        ("Nobody, Ned", "103", "S3", "ned", "Tue", {N01: "", "02_general_attention_numpy": ""})]


def test_a_roster_keyed_by_another_column_and_a_roster_without_its_key(tmp_path):
    roster = lms.read_roster(_roster(tmp_path, ["Student,SIS User ID", "Ada,ada", "Zoe,zoe"]), key="SIS User ID")
    rows, problems = lms.canvas_rows(MARKS, roster)
    assert [row[:5] for row in rows[2:]] == [["Ada", "", "ada", "", ""], ["Zoe", "", "zoe", "", ""]]
    assert problems == ["roster line 2: 'ada' 02_general_attention_numpy: a written answer is not graded yet; the "
                        "mark counts it as 0 until it is", "graded learner 'ben' is not in the roster: left out "
                        "of the file"]
    with pytest.raises(lms.RosterError, match="no column 'SIS Login ID'"):
        lms.read_roster(_roster(tmp_path, ["Student,Email", "Ada,ada@example.org"]))


def test_the_canvas_reader_refuses_what_canvas_refuses():
    with pytest.raises(canvas_format.InvalidImport):
        canvas_format.parse("Name,Login,Section,A\nAda,ada,Mon,1\n")
    with pytest.raises(canvas_format.InvalidImport):
        canvas_format.parse("Student,ID,SIS Login ID,Group,A\nAda,1,ada,Mon,1\n")  # no Section where it must be
    read = canvas_format.parse("Student;ID;SIS Login ID;Section;A (7);Current Score\nAda;1;ada;Mon;3,5;70\n")
    assert [(a.title, a.canvas_id) for a in read.assignments] == [("A", "7")]
    assert read.students[0].grades == {"A": "3.5"}  # Canvas reads a decimal comma as a point


def test_checks_csv_is_in_class_order_whichever_submission_finished_first(tmp_path):
    path = tmp_path / "checks.csv"
    ada, ben = _rows("ada", 3), _rows("ben", 2)
    checks_csv.update([*ben, *ada], path)  # ben's grading finished first
    assert [row["message"] for row in checks_csv.read(path)] == [r.message for r in [*ada, *ben]]
    checks_csv.update(_rows("ada", 3, passed=False), path)  # ada regraded: her rows stay first
    assert [row["student"] for row in checks_csv.read(path)] == ["ada"] * 3 + ["ben"] * 2
