"""The fast feedback exporter writes the page nbconvert's HTMLExporter writes, sanitised.

FeedbackExporter overrides HTMLExporter internals that change between nbconvert releases: the first
test fails on any other release than the one it was checked against, so that a pin bump is checked
again here; the second compares its pages with HTMLExporter's own, set up the same way."""

from __future__ import annotations

import base64
import copy

import nbformat
from bs4 import BeautifulSoup
from nbconvert import HTMLExporter

from autograder.feedback import CHECKED_NBCONVERT, FeedbackExporter, safe_html

PNG = base64.b64encode(bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082")).decode()


def _notebook(answer: str) -> nbformat.NotebookNode:
    v4 = nbformat.v4
    code = v4.new_code_cell("print('hi')\nx = 1", outputs=[
        v4.new_output("stream", name="stdout", text="hi\n"),
        v4.new_output("display_data", data={"image/png": PNG, "text/plain": "<Figure>"}),
        v4.new_output("execute_result", data={"text/html": "<b>bold</b><script>alert(1)</script>",
                                              "text/plain": "x"}, execution_count=1),
    ])
    error = v4.new_code_cell("check()", outputs=[v4.new_output(
        "error", ename="CheckFailed", evalue="✗ softmax: wrong axis", traceback=["CheckFailed: ✗ softmax"])])
    nb = v4.new_notebook(cells=[v4.new_markdown_cell("# Title\n\nSome *text* with $x^2$ and `code`."),
                                code, error, v4.new_markdown_cell(answer)])
    nb.metadata["language_info"] = {"name": "python"}
    return nb


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
        plain = HTMLExporter(sanitize_html=True)
        plain.register_filter("clean_html", safe_html)
        expected, _ = plain.from_notebook_node(copy.deepcopy(nb))
        got, _ = fast.from_notebook_node(copy.deepcopy(nb))  # one exporter for every page, as in grading
        assert _normalised(got) == _normalised(expected)
        assert 'tabindex="0"' in got and "No description has been provided for this image" in got
        assert "<script>alert(1)" not in got and "<b>bold</b>" in got
