"""Trusted grading: nothing a sandbox sends is believed, no submission touches another's grade or stops
the class, and a sandbox sees nothing but Python, the learner package and its own files.

Every attack here was written against the grader's public code, as a learner could: they find the
sandbox's socket in /proc/self/fd and write to it, ask for stand-ins they should not get, forge
replies, flood the channel, leave threads behind, plant scripts for the feedback page, look for the
grader's files and sockets. They are graded in one run with honest students between them, one
worker (so every job follows another's on the same warm zygote), and each test asserts what the
attacker got, that every honest student kept exactly their grade, that grades.csv has every row,
and that no file of the instructor's changed.
"""

from __future__ import annotations

import json
import socket
import time

import nbformat
import pytest
from conftest import (
    NOTEBOOKS,
    REPO,
    SOLUTIONS,
    read_csv,
    sandbox_leftovers,
    tree_digest,
    write_submission,
)

from autograder import notebooks as nbio
from autograder import plans
from autograder.grade import grade

pytestmark = pytest.mark.slow
NAME = "01_attention_without_weights"
OTHER = "02_general_attention_numpy"
POINTS = {"scores_for_query": 2, "softmax_stable": 3, "context_vector": 2, "self_attention_no_weights": 3}
FULL = sum(POINTS.values())

# Code that finds the sandbox's socket and writes frames to it, as the grader's protocol has them.
CHANNEL = '''
import json as _json, os as _os, struct as _struct
def _sockets():
    found = []
    for _fd in _os.listdir("/proc/self/fd"):
        try:
            if _os.readlink(f"/proc/self/fd/{_fd}").startswith("socket:"):
                found.append(int(_fd))
        except OSError:
            pass
    return found
def _frame(message, payload=b""):
    data = _json.dumps(message).encode()
    return _struct.pack("!II", len(data), len(payload)) + data + payload
def _write_all(data):
    for _fd in _sockets():
        try:
            _os.write(_fd, data)
        except OSError:
            pass
'''


def _learner():
    return nbio.read(NOTEBOOKS / f"{NAME}.ipynb")


def _source():
    return nbio.read(SOLUTIONS / f"{NAME}.ipynb")


def _answer(grade_id: str) -> str:
    return next(nbio.solution_code(c) for c in _source().cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def _solved(**overrides: str):
    """Every answer right, except ``overrides`` ({grade_id: source}); ``before_<grade_id>`` runs first."""
    answers = {gid: overrides.get(gid, overrides.get(f"before_{gid}", "") + "\n" + _answer(gid)) for gid in POINTS}
    return nbio.fill_solutions(_learner(), _source(), answers)


def _blank(**overrides: str):
    return nbio.fill_solutions(_learner(), _source(), {gid: overrides.get(gid, "raise NotImplementedError()")
                                                       for gid in POINTS})


def _with_cells(nb, *cells):
    nb.cells.extend(cells)
    return nb


LOOKS = '''
import os, socket
_report = []
def _blocked(what, action):
    try:
        action()
        _report.append("REACHED " + what)
    except Exception:
        _report.append("blocked " + what)
_blocked("the checkout", lambda: os.listdir({repo!r}) and open({solution!r}).read())
_blocked("the answer key", lambda: __import__("autograder.key"))
_blocked("/etc/shadow", lambda: open("/etc/shadow").read())
_blocked("/sys", lambda: os.listdir("/sys/fs/cgroup") or os.listdir("/sys/class"))
_blocked("/run", lambda: os.listdir("/run/postgresql"))
_blocked("a unix socket", lambda: socket.socket(socket.AF_UNIX).connect({unix!r}))
_blocked("an abstract socket", lambda: socket.socket(socket.AF_UNIX).connect({abstract!r}))
_blocked("the network", lambda: socket.create_connection(("127.0.0.1", {port}), timeout=2))
_blocked("the instructor's output", lambda: os.listdir({out!r}))
_report.append("uid " + ("root" if os.getuid() == 0 else "unprivileged"))
_report.append("graded? " + ("yes" if any("GRAD" in k.upper() for k in os.environ) else "no"))
_report.append("notebook here " + str(os.path.exists({notebook!r})))
print("\\n".join(_report))
'''

SCRIPTS = ('<script>document.title="PWNED"</script><img src="x" onerror="document.title=\'PWNED\'">'
           '<a href="javascript:document.title=\'PWNED\'">link</a><b onmouseover="alert(1)">b</b>')


def _attacks(paths: dict) -> dict[str, tuple[object, float, str]]:
    """{student: (notebook, expected autograded score, expected status)}."""
    without_first = FULL - POINTS["scores_for_query"]
    cache_attack = '''
_answers = {}
def softmax_stable(scores):
    key = scores.numpy().tobytes()
    return _answers[key] if key in _answers else torch.zeros_like(scores)
'''
    cache_user = '''
def self_attention_no_weights(inputs):
    scores = inputs @ inputs.T
    weights = softmax_stable(scores)  # while graded: the grader's stand-in
    _answers[scores.numpy().tobytes()] = weights
    return weights @ inputs
'''
    return {
        # answers on request
        "asks-standin-outside-a-probe": (_blank(scores_for_query=CHANNEL + (
            '_write_all(_frame({"op": "standin", "name": "softmax_stable", "args": [], "kwargs": {}}))\n'
            'import time; time.sleep(3)')), 0, "failed"),
        "asks-standin-not-in-uses": (_blank(self_attention_no_weights=CHANNEL + '''
def self_attention_no_weights(inputs):
    _write_all(_frame({"op": "standin", "name": "context_vector", "args": [], "kwargs": {}}))
    import time; time.sleep(3)
    return inputs
'''), 0, "failed"),
        "caches-stand-in-answers": (_blank(softmax_stable=cache_attack, self_attention_no_weights=cache_user),
                                    POINTS["self_attention_no_weights"], "graded"),
        # one submission grades another / stops the class
        "forges-a-reply": (_solved(before_scores_for_query=CHANNEL + (
            '_write_all(_frame({"op": "cell_done", "index": 0, "outputs": [], "error": None, "memory_error": False}))')),
            0, "failed"),
        "leaves-a-writing-thread": (_solved(before_scores_for_query=CHANNEL + '''
import threading as _threading, time as _time
def _haunt():
    while True:
        _time.sleep(0.05)
        _write_all(b"garbage" * 100)
_threading.Thread(target=_haunt, daemon=True).start()
'''), 0, "failed"),
        "floods-the-channel": (_solved(before_scores_for_query=CHANNEL + "_write_all(b'\\0' * (200 << 20))"),
                               0, "failed"),
        "claims-a-huge-message": (_solved(before_scores_for_query=CHANNEL + (
            "import struct as _s\n_write_all(_s.pack('!II', 0xFFFFFFFF, 0xFFFFFFFF))\nimport time; time.sleep(3)")),
            0, "failed"),
        "sends-malformed-outputs": (_solved(before_scores_for_query=CHANNEL + (
            '_write_all(_frame({"op": "cell_done", "index": 3, "outputs": [{"output_type": "stream", '
            '"name": "stdout", "text": 5}], "error": None, "memory_error": False}))\nimport time; time.sleep(3)')),
            0, "failed"),
        "sends-a-malformed-outcome": (_solved(softmax_stable=CHANNEL + '''
def softmax_stable(scores):
    _write_all(_frame({"op": "probe_done", "outcome": {"status": "ok", "value": "not an array"}}))
    import time; time.sleep(3)
    return scores
'''), 0, "failed"),
        "nests-an-expression-deeply": (_solved(before_scores_for_query="_deep = " + "(" * 100_000 + "1"
                                               + ")" * 100_000), without_first, "graded"),
        "blocks-on-the-channel": (_solved(before_scores_for_query=CHANNEL + "_os.read(_sockets()[0], 1)"),
                                  without_first, "graded"),
        "unbounded-output": (_solved(before_scores_for_query=(
            "import sys\nsys.modules['autograder.sandbox.runner'].MAX_TEXT = 1 << 40\n"
            "print('x' * (60 << 20))")), 0, "failed"),
        # feedback that would run the submission's code
        "plants-scripts": (_with_cells(_solved(before_scores_for_query=(
            f"from IPython.display import HTML, Javascript, display\ndisplay(HTML({SCRIPTS!r}))\n"
            "display(Javascript('document.title=\"PWNED\"'))")),
            nbformat.v4.new_markdown_cell(SCRIPTS)), FULL, "graded"),
        # what the sandbox can see
        "looks-around": (_solved(before_scores_for_query=LOOKS.format(**paths)), FULL, "graded"),
        "honest": (_solved(), FULL, "graded"),
    }


@pytest.fixture(scope="module")
def trusted_class(tmp_path_factory):
    root = tmp_path_factory.mktemp("trusted")
    submissions, out = root / "submissions", root / "out"
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(5)
    unix_path = str(root / "grader.sock")
    unix = socket.socket(socket.AF_UNIX)
    unix.bind(unix_path)
    unix.listen(5)
    abstract_name = f"\0attention-test-{time.time_ns()}"
    abstract = socket.socket(socket.AF_UNIX)
    abstract.bind(abstract_name)
    abstract.listen(5)
    for server in (listener, unix, abstract):
        server.setblocking(False)
    paths = {"repo": str(REPO), "solution": str(SOLUTIONS / f"{NAME}.ipynb"), "port": listener.getsockname()[1],
             "unix": unix_path, "abstract": abstract_name, "out": str(out), "notebook": f"{NAME}.ipynb"}
    attacks = _attacks(paths)
    honest = {f"honest-{i}": _solved() for i in range(3)}  # graded between the attacks, on the same zygote
    order = list(attacks)
    for index, student in enumerate(order):
        write_submission(submissions, f"{index:02d}-{student}", NAME, attacks[student][0])
        if index % 5 == 4:
            write_submission(submissions, f"{index:02d}-z-honest", NAME, _solved())
    for student, nb in honest.items():
        write_submission(submissions, student, NAME, nb)
    deep = submissions / "deep-json" / NAME / f"{NAME}.ipynb"
    deep.parent.mkdir(parents=True)
    deep.write_text('{"cells": ' + "[" * 50_000 + "]" * 50_000 + "}", encoding="utf-8")
    # A second assignment whose plan lost a test cell's checks: it must fail alone, not the run.
    other = nbio.fill_solutions(nbio.read(NOTEBOOKS / f"{OTHER}.ipynb"), nbio.read(SOLUTIONS / f"{OTHER}.ipynb"))
    write_submission(submissions, "honest-0", OTHER, other)
    before = {"solutions": tree_digest(SOLUTIONS), "submissions": tree_digest(submissions),
              "package": tree_digest(REPO / "src"), "key": tree_digest(REPO / "autograder" / "key")}
    real_stored = plans.stored

    def stored(name):
        plan = real_stored(name)
        if name == OTHER:
            plan = {**plan, next(iter(plan)): []}
        return plan

    plans.stored = stored
    try:
        started = time.monotonic()
        results = grade(submissions, out, cell_timeout=5, progress=False, workers=1)
        seconds = time.monotonic() - started
    finally:
        plans.stored = real_stored
    reached = []
    for server in (listener, unix, abstract):
        try:
            server.accept()
            reached.append(server)
        except BlockingIOError:
            pass
        server.close()
    after = {"solutions": tree_digest(SOLUTIONS), "submissions": tree_digest(submissions),
             "package": tree_digest(REPO / "src"), "key": tree_digest(REPO / "autograder" / "key")}
    rows = {r.student.split("-", 1)[1] if r.student[:2].isdigit() else r.student: r for r in results
            if r.assignment == NAME}
    return {"rows": rows, "all": results, "attacks": attacks, "out": out, "before": before, "after": after,
            "reached": reached, "seconds": seconds, "submissions": submissions}


def _autograded(out, student_dir: str) -> str:
    return (out / "course" / "autograded" / student_dir / NAME / f"{NAME}.ipynb").read_text(encoding="utf-8")


def _printed(out, student_dir: str) -> str:
    """Everything the autograded notebook's cells printed (not their source)."""
    cells = json.loads(_autograded(out, student_dir))["cells"]
    return "\n".join(output.get("text", "") for cell in cells for output in cell.get("outputs", []))


def test_every_attack_gets_exactly_what_it_earned(trusted_class):
    rows, attacks = trusted_class["rows"], trusted_class["attacks"]
    wrong = {student: (rows[student].auto_score, rows[student].status, rows[student].message[:200])
             for student, (_, score, status) in attacks.items()
             if rows[student].auto_score != score or rows[student].status != status}
    assert not wrong, wrong


def test_every_honest_student_keeps_exactly_their_grade(trusted_class):
    honest = [r for r in trusted_class["all"] if "honest" in r.student and r.assignment == NAME]
    assert len(honest) >= 5
    assert all((r.auto_score, r.status) == (FULL, "graded") for r in honest), [
        (r.student, r.auto_score, r.status, r.message) for r in honest]


def test_a_broken_reply_fails_its_submission_with_one_line(trusted_class):
    rows = trusted_class["rows"]
    for student in ("asks-standin-outside-a-probe", "asks-standin-not-in-uses", "forges-a-reply",
                    "floods-the-channel", "claims-a-huge-message", "sends-malformed-outputs",
                    "sends-a-malformed-outcome", "leaves-a-writing-thread", "unbounded-output"):
        message = rows[student].message
        assert "grading protocol" in message and "\n" not in message, (student, message)


def test_the_class_finishes_and_grades_csv_has_every_row(trusted_class):
    csv_rows = read_csv(trusted_class["out"] / "grades.csv")
    students = {p.name for p in trusted_class["submissions"].iterdir()}
    assert {row["student"] for row in csv_rows if row["assignment"] == NAME} == students
    assert trusted_class["seconds"] < 600


def test_an_assignment_whose_plan_cannot_be_trusted_fails_alone(trusted_class):
    other = [r for r in trusted_class["all"] if r.assignment == OTHER and r.student == "honest-0"]
    assert other and other[0].status == "failed" and "no check" in other[0].message
    assert trusted_class["rows"]["honest"].auto_score == FULL


def test_a_notebook_nested_too_deep_is_refused_unread(trusted_class):
    row = next(r for r in trusted_class["all"] if r.student == "deep-json")
    assert row.status == "invalid" and "deep" in row.message


def test_no_file_of_the_instructor_changed(trusted_class):
    assert trusted_class["before"] == trusted_class["after"]


def test_the_sandbox_sees_nothing_of_the_grader(trusted_class):
    assert trusted_class["reached"] == [], "a submission reached a socket of the grading machine"
    student = next(p.name for p in trusted_class["submissions"].iterdir() if p.name.endswith("looks-around"))
    text = _printed(trusted_class["out"], student)
    assert "REACHED" not in text, text
    for what in ("the checkout", "the answer key", "/etc/shadow", "/sys", "/run", "a unix socket",
                 "an abstract socket", "the network", "the instructor's output"):
        assert f"blocked {what}" in text, what
    assert "uid unprivileged" in text and "graded? no" in text and "notebook here True" in text


def test_feedback_pages_run_nothing_a_learner_wrote(trusted_class):
    student = next(p.name for p in trusted_class["submissions"].iterdir() if p.name.endswith("plants-scripts"))
    page = (trusted_class["out"] / "feedback" / student / f"{NAME}.html").read_text(encoding="utf-8")
    for needle in ('<script>document.title="PWNED"', '<img src="x" onerror', '<a href="javascript:',
                   "<b onmouseover", "<script>\ndocument.title"):
        assert needle not in page, needle
    assert "&lt;script&gt;document.title" in page  # the learner's code itself is shown, as text
    notebook = json.loads(_autograded(trusted_class["out"], student))
    mimes = {mime for cell in notebook["cells"] for output in cell.get("outputs", [])
             for mime in output.get("data", {})}
    assert "application/javascript" not in mimes


def test_what_a_sandbox_leaves_ends_with_its_job(trusted_class):
    """The writing thread of one submission could have disturbed the next one on the same zygote:
    the submission graded right after it kept its grade (asserted above), and no process is left."""
    assert sandbox_leftovers() == []
