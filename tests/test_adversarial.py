"""Hostile submissions: none of them changes its own grade unfairly, anyone else's, or an instructor file.

One grading run holds every attack on notebook 01 next to an honest full-marks copy. The attacks
try to fake a score (rebinding the checks, patching NumPy, builtins, the course package or IPython,
lying objects), to escape (network, files outside the submission, the gradebook, the course
directory, the answer key) or to take the grader down (endless loops, a loop that ignores
interrupts, a huge allocation, a fork bomb, ``os._exit``, a segfault, ``sys.exit``, a 50 MB output),
and to damage the notebook (deleted and edited test cells, a renamed or malformed file).
"""

from __future__ import annotations

import socket

import pytest
from conftest import (
    NOTEBOOKS,
    REPO,
    SOLUTIONS,
    grading_cgroup_leftovers,
    read_csv,
    sandbox_leftovers,
    tree_digest,
    write_submission,
)

from autograder import notebooks as nbio
from autograder.grade import grade

pytestmark = pytest.mark.slow
NAME = "01_attention_without_weights"
FIRST = "scores_for_query"  # the first exercise's solution cell

FULL, FIRST_LOST = 10.0, 8.0  # all points; all but the first exercise's 2


def _learner():
    return nbio.read(NOTEBOOKS / f"{NAME}.ipynb")


def _source():
    return nbio.read(SOLUTIONS / f"{NAME}.ipynb")


def _blank_with(code: str):
    """The untouched learner copy with ``code`` in the first exercise's cell."""
    return nbio.fill_solutions(_learner(), _source(), {
        grade_id: code if grade_id == FIRST else "raise NotImplementedError()"
        for grade_id in ("scores_for_query", "softmax_stable", "context_vector", "self_attention_no_weights")})


def _solved_with(code: str):
    """Every answer right, with ``code`` run before the first exercise's function is defined."""
    source = _source()
    answer = next(nbio.solution_code(c) for c in source.cells
                  if c.metadata.get("nbgrader", {}).get("grade_id") == FIRST)
    return nbio.fill_solutions(_learner(), source, {FIRST: code + "\n" + answer})


def _without_tests(nb, edit: bool):
    for cell in list(nb.cells):
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("grade") and not meta.get("solution") and cell.cell_type == "code":
            if edit:
                cell.source = "pass  # trust me"
            else:
                nb.cells.remove(cell)
    return nb


LIAR = """
import numpy as _np
class Liar:
    def __eq__(self, other): return True
    def __array__(self, *a, **k): return _np.zeros(1)
    def __float__(self): return 0.0
def scores_for_query(query, inputs): return Liar()
def softmax_stable(scores): return Liar()
def context_vector(weights, inputs): return Liar()
def self_attention_no_weights(inputs): return Liar()
"""


def _attacks(paths: dict) -> dict[str, tuple[object, float, str]]:
    """{student: (notebook, expected autograded score, expected status)}."""
    probe = "try:\n    {what}\n    print('LEAK')\nexcept Exception as _e:\n    print('blocked', type(_e).__name__)"
    return {
        "rebinds-check": (_blank_with("check = check_rows_sum_to_one = check_shift_invariance = "
                                      "check_permutation_equivariance = lambda *a, **k: None"), 0, "tampered"),
        "patches-numpy": (_blank_with("np.allclose = np.isclose = lambda *a, **k: True\n"
                                      "np.array_equal = lambda *a, **k: True"), 0, "tampered"),
        "patches-builtins": (_blank_with("import builtins\nbuiltins.AssertionError = type('Quiet', (Exception,), {})\n"
                                         "builtins.print = lambda *a, **k: None"), 0, "tampered"),
        "input-transformer": (_blank_with("get_ipython().input_transformers_post.append(lambda lines: ['pass\\n'])"),
                              0, "tampered"),
        "post-run-hook": (_blank_with("def _hide(result):\n    result.error_in_exec = None\n"
                                      "get_ipython().events.register('post_run_cell', _hide)"), 0, "tampered"),
        "custom-exception-handler": (_blank_with("get_ipython().set_custom_exc((BaseException,), lambda *a, **k: None)"),
                                     0, "tampered"),
        "patches-course-package": (_blank_with("import attention_course.checks as _c, attention_course.verdict as _v\n"
                                               "_c.check = lambda *a, **k: None\n_v.judge = lambda *a, **k: None\n"
                                               "_v.close = lambda *a, **k: True"), 0, "tampered"),
        "lying-objects": (_blank_with(LIAR), 0, "graded"),
        "reads-answer-key": (_blank_with(probe.format(what="import autograder.key")
                                         + "\n" + probe.format(what="from attention_course import reference")),
                             0, "graded"),
        "endless-loop": (_solved_with("while True:\n    pass"), FIRST_LOST, "graded"),
        "ignores-interrupts": (_solved_with("while True:\n    try:\n        while True:\n            pass\n"
                                            "    except BaseException:\n        pass"), FIRST_LOST, "graded"),
        "allocates-20-GB": (_solved_with("_huge = np.ones(20 * 2**30 // 8)"), FIRST_LOST, "graded"),
        "fork-bomb": (_solved_with("import os\nwhile True:\n    try:\n        if os.fork() == 0:\n"
                                   "            while True:\n                pass\n    except OSError:\n        break\n"
                                   "raise RuntimeError('forked as far as allowed')"), FIRST_LOST, "graded"),
        "os-exit": (_solved_with("import os\nos._exit(0)"), FIRST_LOST, "graded"),
        "segfault": (_solved_with("import ctypes\nctypes.string_at(0)"), FIRST_LOST, "graded"),
        "sys-exit": (_solved_with("import sys\nsys.exit(1)"), FIRST_LOST, "graded"),
        "deletes-test-cells": (_without_tests(_solved_with(""), edit=False), FULL, "tampered"),
        "edits-test-cells": (_without_tests(_blank_with("raise NotImplementedError()"), edit=True), 0, "tampered"),
        "prints-50-MB": (_solved_with("print('x' * 50_000_000)"), FULL, "graded"),
        "reads-solutions": (_solved_with(probe.format(what=f"open({paths['solution']!r}).read()")), FULL, "graded"),
        "reads-other-student": (_solved_with(probe.format(what=f"open({paths['other']!r}).read()")), FULL, "graded"),
        "opens-network": (_solved_with(probe.format(
            what=f"__import__('socket').create_connection(('127.0.0.1', {paths['port']}), timeout=2)")),
            FULL, "graded"),
        "writes-gradebook": (_solved_with(probe.format(what=f"open({paths['gradebook']!r}, 'w').write('x')")),
                             FULL, "graded"),
        "deletes-course": (_solved_with(probe.format(what=f"__import__('shutil').rmtree({paths['solutions']!r})")
                                        + "\n" + probe.format(what=f"__import__('shutil').rmtree({paths['course']!r})")),
                           FULL, "graded"),
        "snoops-environment": (_solved_with("import os\nprint(sorted(os.environ))\n"
                                            "assert not any('GRADE' in k.upper() for k in os.environ)"), FULL, "graded"),
        "honest": (_solved_with(""), FULL, "graded"),
    }


@pytest.fixture(scope="module")
def hostile_class(tmp_path_factory, warm_workers):
    root = tmp_path_factory.mktemp("hostile")
    submissions, out = root / "submissions", root / "out"
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(5)
    listener.setblocking(False)
    paths = {"solution": str(SOLUTIONS / f"{NAME}.ipynb"), "solutions": str(SOLUTIONS),
             "other": str(submissions / "honest" / NAME / f"{NAME}.ipynb"), "port": listener.getsockname()[1],
             "gradebook": str(out / "course" / "gradebook.db"), "course": str(out / "course")}
    attacks = _attacks(paths)
    for student, (nb, _, _) in attacks.items():
        write_submission(submissions, student, NAME, nb)
    renamed = submissions / "renamed" / NAME / "my_attention_work.ipynb"
    write_submission(submissions, "renamed", NAME, _solved_with("")).rename(renamed)
    malformed = submissions / "malformed" / NAME / f"{NAME}.ipynb"
    malformed.parent.mkdir(parents=True)
    malformed.write_text('{"cells": [', encoding="utf-8")
    before = {"solutions": tree_digest(SOLUTIONS), "submissions": tree_digest(submissions),
              "package": tree_digest(REPO / "src")}
    results = grade(submissions, out, cell_timeout=5, progress=False, executor=warm_workers)
    try:
        listener.accept()
        connected = True
    except BlockingIOError:
        connected = False
    listener.close()
    after = {"solutions": tree_digest(SOLUTIONS), "submissions": tree_digest(submissions),
             "package": tree_digest(REPO / "src")}
    return {r.student: r for r in results}, attacks, out, before, after, connected


def test_every_attack_gets_a_truthful_score(hostile_class):
    rows, attacks, *_ = hostile_class
    wrong = {student: (rows[student].auto_score, rows[student].status, rows[student].message)
             for student, (_, score, status) in attacks.items()
             if rows[student].auto_score != score or rows[student].status != status}
    assert not wrong, wrong
    assert len(attacks) >= 25


def test_renamed_and_malformed_notebooks_get_one_clear_line(hostile_class):
    rows, *_ = hostile_class
    assert rows["renamed"].auto_score == FULL and "renamed" in rows["renamed"].message
    assert rows["malformed"].status == "invalid" and rows["malformed"].auto_score == 0
    assert "not valid notebook JSON" in rows["malformed"].message


def test_tampering_is_named_in_the_csv_and_the_feedback(hostile_class):
    rows, _, out, *_ = hostile_class
    assert "rebinds check" in rows["rebinds-check"].message
    assert "deleted test cell" in rows["deletes-test-cells"].message
    feedback = (out / "feedback" / "deletes-test-cells" / f"{NAME}.html").read_text(encoding="utf-8")
    assert "changed protected cells" in feedback
    csv_rows = {row["student"]: row for row in read_csv(out / "grades.csv")}
    assert csv_rows["edits-test-cells"]["status"] == "tampered"


def test_limits_are_reported(hostile_class):
    rows, *_ = hostile_class
    assert "ran out of memory" in rows["allocates-20-GB"].message
    assert "ignored the interrupt" in rows["ignores-interrupts"].message
    assert "ran past" in rows["endless-loop"].message
    assert "exited" in rows["os-exit"].message
    assert "SIGSEGV" in rows["segfault"].message


def test_no_escape_leaves_a_trace(hostile_class):
    rows, _, out, before, after, connected = hostile_class
    assert before == after, "a submission changed solutions/, the submissions or the package"
    assert not connected, "a submission reached a server on the grader's loopback"
    for student in ("reads-solutions", "reads-other-student", "opens-network", "writes-gradebook",
                    "deletes-course", "reads-answer-key"):
        text = (out / "course" / "autograded" / student / NAME / f"{NAME}.ipynb").read_text(encoding="utf-8")
        assert "LEAK" not in text.replace("'LEAK'", ""), student
        assert "blocked" in text, student
    assert (out / "course" / "gradebook.db").stat().st_size > 0
    assert rows["honest"].auto_score == FULL


def test_no_process_is_left_behind(hostile_class):
    # Every sandboxed process is a fork of a warm zygote (the fork bomb's too): none is left.
    assert sandbox_leftovers() == []
    # Nothing is left in the grading cgroups either (where they exist: as root, with cgroup v1).
    assert grading_cgroup_leftovers() == []
