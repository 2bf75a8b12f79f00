"""The feedback page: what a learner reads (the total, the points of every part, the grader's comments,
the checks' messages, math from a local MathJax, no prompts), sanitised, written by a fast exporter.

FeedbackExporter overrides HTMLExporter internals that change between nbconvert releases: the first
test fails on any other release than the one it was checked against, so that a pin bump is checked
again here; the second compares its pages with HTMLExporter's own, set up the same way. The page's
content is checked on a notebook whose grades are set as ``GradesFromGradebook`` sets them from the
gradebook (the round trip through a real gradebook is tests/test_instructor_loop.py)."""

from __future__ import annotations

import base64
import copy
import re

import nbformat
from bs4 import BeautifulSoup
from nbconvert import HTMLExporter

from autograder.feedback import (
    CHECKED_NBCONVERT,
    FeedbackExporter,
    install_mathjax,
    page_settings,
    safe_html,
)

PNG = base64.b64encode(bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082")).decode()


def _graded(cell, grade_id: str, **nbgrader):
    cell.metadata["nbgrader"] = {"grade_id": grade_id, "schema_version": 3, **nbgrader}
    return cell


def _notebook(answer: str, comment: str = "Good start. <script>alert(2)</script>") -> nbformat.NotebookNode:
    """A graded notebook as GradesFromGradebook leaves it: scores, points and comments in its cells."""
    v4 = nbformat.v4
    code = v4.new_code_cell("print('hi')\nx = 1", execution_count=3, outputs=[
        v4.new_output("stream", name="stdout", text="hi\n"),
        v4.new_output("display_data", data={"image/png": PNG, "text/plain": "<Figure>"}),
        v4.new_output("execute_result", data={"text/html": "<b>bold</b><script>alert(1)</script>",
                                              "text/plain": "x"}, execution_count=3),
    ])
    solution = _graded(v4.new_code_cell("def softmax(x):\n    return x"), "softmax", solution=True, grade=False,
                       comment=None)
    error = _graded(v4.new_code_cell("check()", outputs=[v4.new_output(
        "error", ename="CheckFailed", evalue="✗ softmax: wrong axis", traceback=["CheckFailed: ✗ softmax"])]),
        "correct_softmax", grade=True, solution=False, points=3, score=1.0, graded_by_hand=False,
        needs_manual_grade=False)
    written = _graded(v4.new_markdown_cell(answer), "explain", grade=True, solution=True, points=2, score=1.0,
                      graded_by_hand=True, needs_manual_grade=False, comment=comment)
    nb = v4.new_notebook(cells=[v4.new_markdown_cell("# Title\n\nSome *text* with $x^2$ and `code`."),
                                code, solution, error, written])
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def _resources(**changes) -> dict:
    grades = {"notebook": "01_attention_without_weights", "student": "cleo", "score": 2.0, "max_score": 5.0,
              "auto_score": 1.0, "auto_max_score": 3.0, "manual_score": 1.0, "manual_max_score": 2.0,
              "pending": 0.0, "late_penalty": 0}
    return {"nbgrader": {**grades, **changes}}


def _normalised(html: str) -> str:
    return str(BeautifulSoup(html, features="html.parser"))


def test_the_nbconvert_release_is_the_one_the_exporter_was_checked_against():
    import nbconvert

    assert nbconvert.__version__ == CHECKED_NBCONVERT, (
        "FeedbackExporter overrides HTMLExporter.from_notebook_node: check it against this nbconvert release "
        "(the next test), then update CHECKED_NBCONVERT")


def test_feedback_page_is_the_html_exporters_page():
    fast = FeedbackExporter()
    for answer in ["My answer: <img src='x.png'> and **more**", "Another answer", "My answer: <img src='x.png'>"]:
        nb = _notebook(answer)
        plain = HTMLExporter(**page_settings())
        plain.register_filter("clean_html", safe_html)
        expected, _ = plain.from_notebook_node(copy.deepcopy(nb), resources=_resources())
        got, _ = fast.from_notebook_node(copy.deepcopy(nb), resources=_resources())  # one exporter, every page
        assert _normalised(got) == _normalised(expected)
        assert "No description has been provided for this image" in got
        assert "<script>alert(1)" not in got and "<b>bold</b>" in got


def _page(nb=None, **changes) -> tuple[str, BeautifulSoup]:
    html, _ = FeedbackExporter().from_notebook_node(nb or _notebook("My answer: $a < b$ <script>alert(3)</script>"),
                                                    resources=_resources(**changes))
    return html, BeautifulSoup(html, features="html.parser")


def test_page_shows_the_total_and_the_points_of_every_part_and_the_graders_comment():
    html, soup = _page()
    summary = soup.select_one("#summary").get_text(" ", strip=True)
    assert "2 / 5 points" in summary
    assert "1 / 3 from the checks, 1 / 2 graded by hand" in summary
    assert re.search(r"Checks of softmax\s+1 / 3", summary), summary
    assert re.search(r"Written answer explain\s+1 / 2 graded by hand\s+Grader's comment: Good start\.", summary)
    assert "CheckFailed: ✗ softmax" in html  # the check's message


def test_page_says_what_still_waits_for_a_grade_by_hand():
    nb = _notebook("An answer")
    nb.cells[-1].metadata.nbgrader.update(graded_by_hand=False, needs_manual_grade=True, score=0.0, comment=None)
    _, soup = _page(nb, score=1.0, manual_score=0.0, pending=2.0)
    summary = soup.select_one("#summary").get_text(" ", strip=True)
    assert "2 points still wait for a grade by hand" in summary
    assert "Written answer explain waiting for a grade by hand (2 points)" in summary


def test_page_runs_nothing_a_learner_or_grader_wrote():
    html, soup = _page()
    assert not [s for s in soup.find_all("script") if "alert" in (s.string or "")], "a script survived"
    assert "<script>alert" not in html  # what is left of one is text


def test_page_has_no_prompts_and_loads_nothing_from_the_network(tmp_path):
    html, soup = _page()
    assert "In&nbsp;[" not in html and "Out[" not in html and not soup.select(".prompt")
    sources = [tag.get("src") for tag in soup.find_all(["script", "img", "link"]) if tag.get("src")]
    assert sources and all(not re.match(r"\w+://", src) for src in sources if not src.startswith("data:")), sources
    assert "../mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe" in sources
    installed = install_mathjax(tmp_path / "feedback")
    for needed in ("MathJax.js", "config/TeX-AMS-MML_HTMLorMML-full.js", "config/Safe.js", "extensions/Safe.js",
                   "jax/output/HTML-CSS/fonts/STIX-Web/fontdata.js"):
        assert (installed / needed).is_file(), needed
