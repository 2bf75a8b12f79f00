"""The instructor's whole loop on the sample class, with the commands of README's "For instructors":
grade, grade cleo's written answer by hand (1 of 2 points, with a comment), export the marks,
regenerate the feedback.

- ``test_readme_loop_commands_are_tasks``: every command of README's loop is one of tasks.py's tasks,
  and runs the module the tests run here.
- ``test_manual_grades_reach_the_marks_and_survive_regrading``: the manual grade is given through
  nbgrader's own API (as the formgrader's handler stores it) in SQLite; it reaches ``grades.csv`` and
  the feedback page, and survives a forced regrade narrowed to cleo and an unchanged run; every run
  writes the whole class. (The same round trip in PostgreSQL is in tests/test_postgres.py.)
- ``test_formgrader_grades_a_written_answer_in_the_browser``: the real ``tasks.py formgrader``
  command, driven in Debian's Chromium through JupyterLab's *Nbgrader → Formgrader* as an instructor
  would; then ``grades`` and ``feedback``, and cleo's page opened from disk with every request off
  the disk refused: its math must render (MathJax from feedback/mathjax/). Screenshots go to
  ``artifacts/instructor/``. Like tests/test_browser.py it is skipped without /usr/bin/chromium
  unless ``CI`` is set.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shlex
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import REPO, cli_env, read_csv
from test_browser import CHROMIUM_ARGS, _http, _log_tail, _stop_tree, chromium, start_jupyter  # noqa: F401 (a fixture)

import tasks
from autograder.course import course_id

pytestmark = pytest.mark.slow
NAME = "01_attention_without_weights"
WRITTEN = "explain_no_trainable_weights"
COURSE_ID = course_id()
COMMENT = "Part (a) is right: $x^{(i)}$'s score grows with its length. Part (b) names no capability of trained projections."
ARTIFACTS = REPO / "artifacts" / "instructor"
STEP_S = 90


def readme_loop() -> list[list[str]]:
    """The commands of README's whole loop (the first bash block of "For instructors"), as argv lists."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### For instructors"):]
    block = re.search(r"```bash\n(.*?)```", section, re.S)[1]
    return [shlex.split(line) for line in block.splitlines() if line.strip() and not line.startswith("#")]


def tasks_command(*argv: str) -> list[str]:
    """The command ``python3 tasks.py ARGV`` runs (taken from tasks.py, set-up skipped)."""
    captured: list[list[str]] = []

    def run(*args, **kwargs) -> int:
        captured.append([str(arg) for arg in args])
        return 0

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tasks, "setup", lambda: None)
        patch.setattr(tasks, "run", run)
        tasks.main(list(argv))
    assert len(captured) == 1, (argv, captured)
    assert captured[0][0] == str(tasks.PYTHON), captured
    return [sys.executable, *captured[0][1:]]


def run_task(*argv: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """``python3 tasks.py ARGV`` as README has it, with this test run's Python."""
    completed = subprocess.run(tasks_command(*argv), cwd=REPO, env=cli_env(), capture_output=True, text=True,
                               stdin=subprocess.DEVNULL, timeout=timeout)
    assert completed.returncode == 0, f"tasks.py {' '.join(argv)}:\n{(completed.stdout + completed.stderr)[-3000:]}"
    return completed


def loop_step(step: int, out: Path) -> list[str]:
    """Step ``step`` of README's loop with ``--out`` pointing at ``out``."""
    argv = readme_loop()[step][2:]  # after "python3 tasks.py"
    return [str(out) if arg == "graded" else arg for arg in argv]


def give_manual_grade(db_url: str, student: str, points: float, comment: str) -> None:
    """A grade by hand, stored as nbgrader's formgrader stores it (its Grade and Comment API handlers)."""
    from nbgrader.api import Gradebook

    with Gradebook(db_url, COURSE_ID) as gradebook:
        grade = gradebook.find_grade(WRITTEN, NAME, NAME, student)
        grade.manual_score = points
        grade.needs_manual_grade = False
        gradebook.find_comment(WRITTEN, NAME, NAME, student).manual_comment = comment
        gradebook.db.commit()


def rows_by_student(out: Path) -> dict[str, dict[str, str]]:
    rows = read_csv(out / "grades.csv")
    assert len(rows) == len({row["student"] for row in rows}), rows
    return {row["student"]: row for row in rows}


def assert_cleo_graded_by_hand(out: Path) -> None:
    rows = rows_by_student(out)
    assert set(rows) == {"ada", "ben", "cleo"}, "grades.csv must hold the whole class"
    cleo = rows["cleo"]
    assert (cleo["score"], cleo["auto_score"], cleo["manual_score"], cleo["needs_manual_grading"]) == \
        ("8", "7", "1", "False"), cleo
    assert (rows["ada"]["score"], rows["ada"]["needs_manual_grading"]) == ("10", "True")
    page = (out / "feedback" / "cleo" / f"{NAME}.html").read_text(encoding="utf-8")
    assert re.search(r'<span class="total">8 / 12</span>', page), "the page's total"
    assert "1 / 2</span> <span class=\"how\">graded by hand" in page
    assert "names no capability of trained projections" in page, "the grader's comment"
    assert "For the grader" not in page and "**Rubric" not in page, "the rubric is for the grader only"


def test_readme_loop_commands_are_tasks():
    commands = readme_loop()
    assert [c[:3] for c in commands] == [["python3", "tasks.py", "grade"], ["python3", "tasks.py", "formgrader"],
                                         ["python3", "tasks.py", "grades"], ["python3", "tasks.py", "feedback"]]
    modules = [tasks_command(*command[2:])[1:4] for command in commands]
    assert modules == [["-m", "autograder.grade", "autograder/samples/submissions"],
                       ["-m", "autograder.formgrader", "--out"], ["-m", "autograder.grades", "csv"],
                       ["-m", "autograder.grades", "feedback"]]
    # the marks for Canvas are the same command, with the Canvas export of autograder/lms.py
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    canvas = re.search(r"^python3 tasks.py grades .*--format canvas.*?(?=\s+#|$)", readme, re.M)
    assert canvas, "README's instructor section gives the Canvas export as a grades command"
    assert tasks_command(*shlex.split(canvas[0])[2:])[1:4] == ["-m", "autograder.grades", "csv"]


def test_canvas_marks_need_a_roster(tmp_path, capsys):
    from autograder import grades

    with pytest.raises(SystemExit) as stopped:
        grades.main(["csv", "--out", str(tmp_path), "--format", "canvas"])
    assert stopped.value.code == 2
    assert "--format canvas needs --roster" in capsys.readouterr().err
    assert not (tmp_path / "grades.csv").exists()


@pytest.fixture
def graded_samples(tmp_path):
    out = tmp_path / "graded"
    completed = run_task(*loop_step(0, out))
    return out, completed.stdout + completed.stderr


def test_manual_grades_reach_the_marks_and_survive_regrading(graded_samples):
    out, output = graded_samples
    assert "Warning" not in output and "SAWarning" not in output, output[-3000:]
    assert re.search(rf"{NAME}: 3 student\(s\): 3 graded, 0 tampered, 0 failed; 2 written answer\(s\) wait for a "
                     rf"manual grade: python3 tasks.py formgrader --out {re.escape(str(out))}", output), output[-2000:]
    assert re.search(r"graded 3 notebook\(s\) in [\d.]+ s; [\d.]+ s a notebook", output), output[-2000:]
    db_url = f"sqlite:///{out / 'course' / 'gradebook.db'}"
    give_manual_grade(db_url, "cleo", 1, COMMENT)

    run_task(*loop_step(2, out))
    run_task(*loop_step(3, out))
    assert_cleo_graded_by_hand(out)

    # a forced regrade narrowed to cleo: the whole class stays in grades.csv, her grade by hand stays
    forced = run_task("grade", "autograder/samples/submissions", "--out", str(out), "--student", "cleo", "--force")
    assert "graded 1 notebook(s)" in forced.stdout, forced.stdout[-2000:]
    assert_cleo_graded_by_hand(out)
    from nbgrader.api import Gradebook

    with Gradebook(db_url, COURSE_ID) as gradebook:
        comment = gradebook.find_comment(WRITTEN, NAME, NAME, "cleo")
        assert comment.manual_comment == COMMENT
    # an unchanged run regrades nothing and still writes the marks as they stand
    again = run_task(*loop_step(0, out))
    assert "graded 0 notebook(s)" in again.stdout and "3 unchanged since the last run" in again.stdout, again.stdout
    assert_cleo_graded_by_hand(out)


# --- the browser --------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def formgrader(graded_samples, tmp_path, request):
    """``python3 tasks.py formgrader --out OUT`` on the graded sample class; yields (url, token, out)."""
    out, _ = graded_samples
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    port, token = _free_port(), secrets.token_hex(24)
    home = tmp_path / "jupyter"
    env = {key: value for key, value in cli_env().items() if not key.startswith(("JUPYTER", "JPY_"))}
    env.update(JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_RUNTIME_DIR=str(home / "runtime"),
               JUPYTERLAB_SETTINGS_DIR=str(home / "settings"), JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
               PYTHONUNBUFFERED="1")
    notification = home / "settings" / "@jupyterlab" / "apputils-extension"
    notification.mkdir(parents=True)
    (notification / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}), encoding="utf-8")
    command = tasks_command(*loop_step(1, out), "--no-browser", "--ServerApp.ip=127.0.0.1",
                            f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
                            f"--IdentityProvider.token={token}",
                            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate")
    log_path = ARTIFACTS / "formgrader.log"
    process, base = start_jupyter(command, env, log_path, port, token, request, "the formgrader")
    yield base, token, out, process, log_path


def _saved(db_url: str) -> bool:
    from nbgrader.api import Gradebook

    with Gradebook(db_url, COURSE_ID) as gradebook:
        grade = gradebook.find_grade(WRITTEN, NAME, NAME, "cleo")
        comment = gradebook.find_comment(WRITTEN, NAME, NAME, "cleo")
        return grade.manual_score == 1 and comment.manual_comment == COMMENT


def _wait(predicate, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds:.0f} s waiting for {what}")
        time.sleep(0.5)


def _formgrader_api(base: str, token: str, path: str):
    request = urllib.request.Request(f"{base}/formgrader/api/{path}", headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


@pytest.mark.browser
def test_formgrader_grades_a_written_answer_in_the_browser(chromium, formgrader):  # noqa: F811
    from playwright.sync_api import expect, sync_playwright

    base, token, out, process, log_path = formgrader
    db_url = f"sqlite:///{out / 'course' / 'gradebook.db'}"
    # what the formgrader lists: the assignment released (into the exchange inside --out), three
    # submissions, each autograded
    (assignment,) = _formgrader_api(base, token, "assignments")
    assert (assignment["name"], assignment["status"], assignment["num_submissions"]) == (NAME, "released", 3)
    submissions = _formgrader_api(base, token, f"submissions/{NAME}")
    assert sorted((s["student"], s["autograded"]) for s in submissions) == \
        [("ada", True), ("ben", True), ("cleo", True)]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 1100})
            page.set_default_timeout(STEP_S * 1000)
            try:
                _grade_cleo(page, base, token, expect)
                _wait(lambda: _saved(db_url), STEP_S, "the formgrader to store cleo's grade and comment")
                page.screenshot(path=str(ARTIFACTS / "formgrader-cleo-graded.png"))
            except BaseException:
                page.screenshot(path=str(ARTIFACTS / "failure.png"))
                raise
            log = _log_tail(log_path, 200_000)
            assert not re.search(r"(?i)unwritable directory|exchange directory|cannot be created|running as root",
                                 log), log[-3000:]
            _stop_tree(process, base, token)

            run_task(*loop_step(2, out))
            run_task(*loop_step(3, out))
            assert_cleo_graded_by_hand(out)
            _math_renders_offline(browser.new_page(viewport={"width": 1200, "height": 1000}), out, expect)
        finally:
            browser.close()


def _grade_cleo(page, base: str, token: str, expect) -> None:
    """JupyterLab → Nbgrader → Formgrader → Manual Grading → the assignment → cleo: 1 point and a comment."""
    page.goto(f"{base}/lab?token={token}")
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Nbgrader$")).click()
    page.get_by_role("menuitem", name=re.compile("Formgrader")).click()
    frame = page.frame_locator(".jp-MainAreaWidget iframe").first
    crumbs = frame.locator(".breadcrumb li")
    # each click loads a page of the formgrader: wait for its breadcrumb before the next click
    frame.get_by_role("link", name="Manual Grading").first.click()
    expect(crumbs).to_have_text(["Manual Grading"])
    frame.locator("table").get_by_role("link", name=NAME).click()
    expect(crumbs).to_have_text(["Manual Grading", NAME])
    frame.locator("table").get_by_role("link", name=NAME).click()
    expect(crumbs).to_have_text(["Manual Grading", NAME, NAME])
    frame.get_by_role("button", name="Show All Names").click()
    frame.locator("tr", has_text="cleo").get_by_role("link").first.click()
    score = frame.locator(f"input.score#{WRITTEN}")
    expect(score).to_be_visible()
    # the formgrader binds its inputs to the gradebook's grades once it has loaded them: typed earlier,
    # a grade is overwritten by the loaded (empty) one and never saved
    grading = next(f for f in page.frames if "/formgrader/submissions/" in f.url)
    grading.wait_for_function("() => window.formgrader && formgrader.grades && formgrader.grades.loaded "
                              "&& formgrader.comments && formgrader.comments.loaded")
    # the rubric is in front of the grader, right after the answer
    expect(frame.locator("blockquote", has_text="Rubric (2 points)").first).to_be_attached()
    score.fill("1")
    score.press("Tab")
    comment = frame.locator(f"textarea#{WRITTEN}-comment")
    comment.fill(COMMENT)
    comment.press("Tab")
    score.scroll_into_view_if_needed()


def _math_renders_offline(page, out: Path, expect) -> None:
    """cleo's page from disk, every request off the disk refused: MathJax typesets its math."""
    refused: list[str] = []

    def only_the_disk(route) -> None:
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    page.route("**/*", only_the_disk)
    page.goto((out / "feedback" / "cleo" / f"{NAME}.html").as_uri())
    page.wait_for_function("() => window.MathJax && MathJax.Hub && MathJax.Hub.queue.pending === 0 "
                           "&& document.querySelectorAll('.MathJax').length > 0", timeout=STEP_S * 1000)
    summary = page.locator("#summary")
    expect(summary).to_contain_text("8 / 12")
    expect(summary).to_contain_text("graded by hand")
    expect(summary).to_contain_text("names no capability of trained projections")
    text = page.locator("body").inner_text()
    assert "\\lVert" not in text and "$x" not in text, "raw TeX left on the page"
    assert not [url for url in refused if "mathjax" in url.lower()], refused
    page.screenshot(path=str(ARTIFACTS / "cleo-feedback.png"))
    page.locator(f"a[name={WRITTEN}]").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "cleo-feedback-written-answer.png"))
    assert os.path.getsize(ARTIFACTS / "cleo-feedback.png") > 10_000
