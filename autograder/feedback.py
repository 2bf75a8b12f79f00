"""The feedback stage: a learner's page, with their marks and the checks' messages, that never shows
hidden tests and cannot run a submission's code.

A page is rendered from the autograded notebook (the one the formgrader shows) and the gradebook as
it stands, so it is the same after grading and after :func:`autograder.grades.regenerate_feedback`
has been run once the written answers are graded by hand. It is nbgrader's feedback page
(``GetGrades`` and nbgrader's ``feedback`` template), through the template
``templates/attention_feedback/feedback_page.html.j2``: at the top the total, the points of the checks of every exercise and
of every written answer (given by the checks, given by hand, or still waiting for a grade by hand)
and the grader's comments; below, the notebook without prompts, each graded cell with its points and
comment. Math is rendered by a copy of MathJax next to the pages (:func:`install_mathjax`), so a page
opened from disk needs no network.

nbgrader's feedback renders the autograded notebook, where the hidden tests were restored from the
gradebook (nbgrader #917). :class:`HideHiddenTests` removes them again (nbgrader's own
``ClearHiddenTests``) and cuts every traceback of a test cell down to its last line, the check's
message, because a traceback quotes the failing source line. The cells the grader added for the
formgrader (each written answer's model answer and rubric) are left out. The page is rendered with
HTML sanitised (``HTMLExporter.sanitize_html``, and ``clean_html`` on every Markdown cell and
comment in the template): scripts, event handlers and ``javascript:`` links in a learner's Markdown
or outputs are removed, so opening a feedback page runs nothing a learner wrote.

:class:`FeedbackExporter` renders what every student shares once per run. It overrides
``HTMLExporter.from_notebook_node``, whose internals change between nbconvert releases:
``tests/test_feedback.py`` pins the version it was checked against and compares its page with
``HTMLExporter``'s.
"""

import copy
import functools
import json
import re
import shutil
from pathlib import Path

import nbformat
import nbgrader
from jinja2 import pass_context
from nbconvert import HTMLExporter
from nbconvert.exporters.templateexporter import TemplateExporter
from nbconvert.filters.highlight import Highlight2HTML
from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter
from nbgrader.preprocessors import ClearHiddenTests, GetGrades
from nbgrader.utils import is_grade

_HIDDEN = "### BEGIN HIDDEN TESTS"
TEMPLATES = Path(__file__).resolve().parent / "templates"
_NBGRADER = Path(nbgrader.__file__).resolve().parent / "server_extensions" / "formgrader"
# Where the grader keeps what it adds to a notebook: in a cell, the written answer whose model answer
# and rubric the cell shows the grader; in the notebook, the notes at the top of the feedback page.
METADATA = "attention_course"
# The elements HTMLExporter makes focusable, as its lab template writes them, and images without alt.
_FOCUSABLE = re.compile(r'(<div class="[^"]*\b(?:jp-Cell-inputWrapper|jp-OutputArea-output)\b[^"]*"[^>]*)>')
_NO_ALT = re.compile(r"<img(?![^>]*\balt=)([^>]*>)")


# What a page may keep of a learner's HTML (Markdown cells, HTML outputs): formatting, tables, images
# and links; no script, style sheet, frame, form, SVG element or event handler, and no URL scheme
# but these. nbconvert's own sanitiser (bleach's defaults) would also escape paragraphs and headings.
SAFE_TAGS = frozenset({
    "a", "abbr", "b", "blockquote", "br", "caption", "code", "col", "colgroup", "dd", "del", "details", "div",
    "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd",
    "li", "mark", "ol", "p", "pre", "q", "s", "samp", "small", "span", "strong", "sub", "summary", "sup",
    "table", "tbody", "td", "tfoot", "th", "thead", "tr", "u", "ul", "var"})
SAFE_ATTRIBUTES = {"*": ["class", "id", "title", "align"], "a": ["href", "title", "class", "id"],
                   "img": ["src", "alt", "title", "width", "height", "class"],
                   "td": ["colspan", "rowspan", "class"], "th": ["colspan", "rowspan", "scope", "class"]}
SAFE_PROTOCOLS = frozenset({"http", "https", "mailto", "data"})


def safe_html(html) -> str:
    """A learner's HTML with everything that could run removed (see :data:`SAFE_TAGS`)."""
    import bleach

    html = html.decode() if isinstance(html, bytes) else str(html)
    return bleach.clean(html, tags=SAFE_TAGS, attributes=SAFE_ATTRIBUTES, protocols=SAFE_PROTOCOLS,
                        strip=True, strip_comments=True)


CHECKED_NBCONVERT = "7.17.2"  # the release whose HTMLExporter internals FeedbackExporter was checked against


def page_settings() -> dict:
    """The exporter's settings for a feedback page: the template, sanitised HTML, no prompts."""
    # the page's template extends the next index.html.j2 on the search path: nbgrader's feedback page
    return {"sanitize_html": True, "template_name": "attention_feedback", "template_file": "feedback_page.html.j2",
            "extra_template_basedirs": [str(TEMPLATES), str(_NBGRADER / "templates")],
            "extra_template_paths": [str(_NBGRADER / "static" / "node_modules" / "bootstrap" / "dist" / "css")],
            "exclude_input_prompt": True, "exclude_output_prompt": True}


class HideHiddenTests(ClearHiddenTests):
    enforce_metadata = False

    def preprocess_cell(self, cell, resources, cell_index):
        if cell.cell_type != "code" or not is_grade(cell) or cell.metadata.nbgrader.get("solution"):
            return cell, resources
        if _HIDDEN in cell.source:
            cell, resources = super().preprocess_cell(cell, resources, cell_index)
            cell.source = cell.source.rstrip() + "\n# (hidden tests ran here; their code is not shown)"
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                output.traceback = [f"{output.ename}: {output.evalue}"]
        return cell, resources


class _RememberedHighlight:
    """Pygments' highlighting of a cell's source, done once per source (the code of the course's
    cells is the same for every student; highlighting is a pure function of the source)."""

    def __init__(self, highlight: Highlight2HTML):
        self.highlight, self.done = highlight, {}

    def __call__(self, source, language=None, metadata=None):
        key = (source, language, (metadata or {}).get("magics_language"))
        if key not in self.done:
            self.done[key] = self.highlight(source, language=language, metadata=metadata)
        return self.done[key]


class FeedbackExporter(HTMLExporter):
    """nbconvert's HTML exporter, made fast for a class: what every student shares renders once.

    Most of a feedback page is cells every student has alike (the notebook's text, locked cells), and
    rendering them (Markdown, then bleach's sanitiser, and Pygments for the code) is most of the
    exporter's time. All are pure functions of their input, so their results are remembered for the
    exporter's lifetime; the page is the same as :class:`HTMLExporter` makes.
    """

    def __init__(self, **kwargs):
        super().__init__(**{**page_settings(), **kwargs})
        self._markdown: dict[tuple, str] = {}
        self._highlight = None

    @pass_context
    def markdown2html(self, context, source):
        cell = context.get("cell", {})
        path = context.get("resources", {}).get("metadata", {}).get("path", "")
        key = (source, json.dumps(cell.get("attachments", {}), sort_keys=True), path)
        if key not in self._markdown:
            self._markdown[key] = super().markdown2html(context, source)
        return self._markdown[key]

    def default_filters(self):
        for name, function in super().default_filters():
            yield name, (functools.lru_cache(maxsize=16384)(safe_html) if name == "clean_html" else function)

    def from_notebook_node(self, nb, resources=None, **kw):
        """HTMLExporter's page, without re-parsing it with BeautifulSoup (most of the time left).

        HTMLExporter registers two filters, renders the template, then parses the page to give
        images without alt text a placeholder and make cells focusable (tabindex). The same is done
        here on the rendered text: the template's markup for those elements is fixed.
        """
        language = nb.metadata.get("language_info", {})
        lexer = language.get("pygments_lexer", language.get("name", None))
        if self._highlight is None or self._highlight[0] != lexer:
            self._highlight = (lexer, _RememberedHighlight(Highlight2HTML(pygments_lexer=lexer, parent=self)))
        resources = self._init_resources(resources)
        self.register_filter("highlight_code", self._highlight[1])
        self.register_filter("filter_data_type", WidgetsDataTypeFilter(
            notebook_metadata=self._nb_metadata, parent=self, resources=resources))
        html, resources = TemplateExporter.from_notebook_node(self, nb, resources, **kw)
        html = _FOCUSABLE.sub(r'\1 tabindex="0">', html)
        html = _NO_ALT.sub(r'<img alt="No description has been provided for this image"\1', html)
        return html, resources


class GradesFromGradebook(GetGrades):
    """nbgrader's ``GetGrades`` (each graded cell's score, points and comment; the notebook's total),
    and what the page says besides: for each graded cell, whether it was graded by hand or still waits
    for it, and the notebook's points from the checks (code cells, as nbgrader's ``code_score``), by
    hand (written answers and tasks) and still waiting."""

    def preprocess(self, nb, resources):
        self.parts = {"auto_score": 0.0, "auto_max_score": 0.0, "manual_score": 0.0, "manual_max_score": 0.0,
                      "pending": 0.0}
        nb, resources = super().preprocess(nb, resources)
        resources["nbgrader"].update(self.parts)
        return nb, resources

    def _get_score(self, cell, resources) -> None:
        super()._get_score(cell, resources)
        grade = self.gradebook.find_grade(cell.metadata.nbgrader["grade_id"], self.notebook_id,
                                          self.assignment_id, self.student_id)
        cell.metadata.nbgrader["graded_by_hand"] = grade.manual_score is not None
        cell.metadata.nbgrader["needs_manual_grade"] = bool(grade.needs_manual_grade)
        kind = "auto" if cell.cell_type == "code" and not cell.metadata.nbgrader.get("task") else "manual"
        self.parts[f"{kind}_score"] += float(grade.score or 0)
        self.parts[f"{kind}_max_score"] += float(grade.max_score or 0)
        if grade.needs_manual_grade:
            self.parts["pending"] += float(grade.max_score or 0)


def note_cells(tampering: list[str] | tuple = (), unneeded: int = 0) -> list:
    """The grader's notes at the top of a feedback page."""
    cells = []
    if unneeded:
        cells.append(nbformat.v4.new_markdown_cell(id="grader-note-unneeded", source=
            f"*Grader's note: {unneeded} cell(s) that no graded function depends on (demonstrations, plots) "
            "were not run again for grading, so they show no output here; your own run shows them. Your "
            "score does not depend on them.*"))
    if tampering:
        cells.append(nbformat.v4.new_markdown_cell(id="grader-note-tampering", source=
            "**Grader's note: this submission changed protected cells or patched names the tests use.** "
            "Those changes were undone before grading: " + "; ".join(tampering)))
    return cells


def for_the_grader(cell) -> bool:
    """A cell the grader added to the autograded notebook for the formgrader (a model answer and rubric)."""
    return bool(cell.get("metadata", {}).get(METADATA, {}).get("for_the_grader"))


# The "Open in Colab" badge under each notebook's title (autograder.build.badge): a feedback page
# is read, not run, and the badge is the one image it would fetch from the network.
_COLAB_BADGE = re.compile(r"\n?\[!\[Open In Colab\]\(https://colab\.research\.google\.com/assets/colab-badge\.svg\)\]"
                          r"\([^)\s]*\)\n?")


def without_colab_badge(cell):
    if cell.cell_type == "markdown":
        cell.source = _COLAB_BADGE.sub("\n", cell.source)
    return cell


def page_of(exporter: FeedbackExporter, autograded, student: str, assignment: str, db_url: str,
            target: Path) -> None:
    """The feedback page of one autograded notebook (a path or the notebook), with the gradebook's grades."""
    nb = nbformat.read(str(autograded), as_version=4) if isinstance(autograded, Path) else copy.deepcopy(autograded)
    notes = nb.metadata.get(METADATA, {}).get("feedback_notes", {})
    nb.cells = note_cells(notes.get("tampering", []), notes.get("unneeded", 0)) + \
        [without_colab_badge(cell) for cell in nb.cells if not for_the_grader(cell)]
    resources = {"nbgrader": {"notebook": assignment, "assignment": assignment, "student": student,
                              "db_url": db_url}}
    nb, resources = GradesFromGradebook().preprocess(nb, resources)
    nb, resources = HideHiddenTests().preprocess(nb, resources)
    html, _ = exporter.from_notebook_node(nb, resources=resources)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(html, encoding="utf-8")


MATHJAX = "mathjax"  # feedback/mathjax/: the pages load ../mathjax/MathJax.js (templates/attention_feedback)


def install_mathjax(feedback: Path) -> Path:
    """MathJax 2.7, from the pinned ``jupyter-server-mathjax`` package, copied to ``feedback/mathjax``
    once (again when the package's copy changes): the HTML-CSS output with its STIX web fonts, which
    is what the pages' configuration uses; not the SVG output's fonts."""
    import jupyter_server_mathjax

    source = Path(jupyter_server_mathjax.__file__).resolve().parent / "static"
    target = feedback / MATHJAX
    stamp = target / ".copied-from"
    version = f"{source} {(source / 'MathJax.js').stat().st_mtime_ns}"
    if stamp.is_file() and stamp.read_text(encoding="utf-8") == version:
        return target
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("SVG"))
    stamp.write_text(version, encoding="utf-8")
    return target
