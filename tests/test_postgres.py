"""The gradebook in PostgreSQL: ``tasks.py grade SUBMISSIONS --db postgresql://...``.

A throw-away PostgreSQL cluster is started once for this module from Debian's server binaries
(``/usr/lib/postgresql/<version>/bin``): ``initdb -A trust -U grader`` in a temporary directory
under /tmp, a server listening only on 127.0.0.1 on a free port (its Unix socket in that same
directory), one empty database ``gradebook``. PostgreSQL refuses to run as root, so when the tests
run as root (CI does, in a container) the directory is handed to the ``postgres`` system user and
every server program runs as that user. The server is stopped (``pg_ctl stop -m immediate``) and
the directory deleted at the end of the module.

The sample class is graded into that database through the grader's command line, and every
student's score is read back through nbgrader's own Gradebook API; a grade given by hand through
that API reaches grades.csv, the Canvas import and the feedback page. A wrong URL must make the
grader fail fast, naming the URL with its password masked.

Without PostgreSQL the tests are skipped, unless the environment variable ``CI`` is set: then they
fail, so that CI really runs them (``.ci/run`` installs Debian's ``postgresql`` when it can).
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import REPO, cli_env, failing_fast, grade_cli, read_csv

from autograder.course import course_id

pytestmark = pytest.mark.slow

SAMPLES = REPO / "autograder" / "samples"
COURSE_ID = course_id()
COMPARED = ["student", "assignment", "notebook", "score", "max_score", "auto_score",
            "auto_max_score", "needs_manual_grading", "status"]  # every contract column but message
FAIL_FAST_S = 60
SERVER_START_S = 60


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _unavailable(reason: str):
    if _in_ci():
        pytest.fail(f"{reason}; CI is set, so the PostgreSQL tests must run "
                    "(.ci/run installs Debian's postgresql package)", pytrace=False)
    pytest.skip(reason)


def _server_bin() -> Path | None:
    """The newest /usr/lib/postgresql/<version>/bin holding initdb, pg_ctl and createdb."""
    found = [path.parent for path in Path("/usr/lib/postgresql").glob("*/bin/initdb")
             if all((path.parent / tool).is_file() for tool in ("pg_ctl", "createdb"))]
    found.sort(key=lambda path: [int(part) if part.isdigit() else 0 for part in path.parent.name.split(".")])
    return found[-1] if found else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _run(command: list[str], prefix: list[str], cwd: Path, timeout: float = SERVER_START_S) -> str:
    completed = subprocess.run([*prefix, *command], cwd=cwd, capture_output=True, text=True,
                               stdin=subprocess.DEVNULL, timeout=timeout)
    if completed.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited with {completed.returncode}:\n"
                           f"{completed.stdout}{completed.stderr}")
    return completed.stdout


@pytest.fixture(scope="module")
def postgres_url():
    """URL of an empty database ``gradebook`` on a throw-away server, as user ``grader``."""
    bindir = _server_bin()
    if bindir is None:
        _unavailable("PostgreSQL's server programs (/usr/lib/postgresql/*/bin/initdb) are not installed")
    prefix: list[str] = []
    owner = None
    if os.geteuid() == 0:  # the server refuses to run as root: run it as the postgres system user
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            _unavailable("running as root and there is no 'postgres' system user to run the server as")
        if shutil.which("setpriv"):
            prefix = ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"]
        elif shutil.which("runuser"):
            prefix = ["runuser", "-u", "postgres", "--"]
        else:
            _unavailable("running as root and neither setpriv nor runuser is there to drop to 'postgres'")

    workdir = Path(tempfile.mkdtemp(prefix="attention-pg-", dir="/tmp"))
    data, log = workdir / "data", workdir / "server.log"
    pg_ctl = str(bindir / "pg_ctl")
    started = False
    try:
        if owner is not None:
            os.chown(workdir, owner.pw_uid, owner.pw_gid)
        _run([str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "grader", "-E", "UTF8",
              "--no-sync"], prefix, workdir)
        port = _free_port()
        with open(data / "postgresql.conf", "a", encoding="utf-8") as conf:
            conf.write(f"\nlisten_addresses = '127.0.0.1'\nport = {port}\n"
                       f"unix_socket_directories = '{workdir}'\n"
                       "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n")
        try:
            started = True  # from here on, stop it whatever happens
            _run([pg_ctl, "-D", str(data), "-l", str(log), "-w", "-t", str(SERVER_START_S), "start"],
                 prefix, workdir, timeout=SERVER_START_S + 30)
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            server_log = log.read_text(errors="replace")[-3000:] if log.is_file() else "(no log)"
            pytest.fail(f"the PostgreSQL server did not start: {error}\n{server_log}", pytrace=False)
        _run([str(bindir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "grader", "gradebook"],
             prefix, workdir)
        yield f"postgresql://grader@127.0.0.1:{port}/gradebook"
    finally:
        if started:
            subprocess.run([*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "-t", "30", "stop"],
                           cwd=workdir, capture_output=True, stdin=subprocess.DEVNULL, timeout=60)
            _kill_leftover_postmaster(data)
        shutil.rmtree(workdir, ignore_errors=True)


def _kill_leftover_postmaster(data: Path) -> None:
    """If ``pg_ctl stop`` did not stop it, kill the server by the pid in its postmaster.pid."""
    pidfile = data / "postmaster.pid"
    if not pidfile.is_file():
        return
    try:
        pid = int(pidfile.read_text().split()[0])
        os.kill(pid, 9)
    except (ValueError, IndexError, ProcessLookupError, PermissionError):
        pass


def test_plain_postgresql_url_has_an_installed_driver():
    """``postgresql://`` (the contract's URL, and nbgrader's db_url) must load without a driver suffix."""
    import sqlalchemy
    from sqlalchemy.engine import make_url

    dialect = make_url("postgresql://grader@127.0.0.1/gradebook").get_dialect()
    try:
        dialect.import_dbapi()
    except ImportError as error:
        pytest.fail(f"SQLAlchemy {sqlalchemy.__version__} reads postgresql:// as "
                    f"postgresql+{dialect.driver}://, but that driver is not installed ({error}): "
                    "requirements.txt must pin it", pytrace=False)


@pytest.fixture(scope="module")
def graded_into_postgres(postgres_url, tmp_path_factory):
    out = tmp_path_factory.mktemp("postgres") / "graded"
    completed = grade_cli(str(SAMPLES / "submissions"), "--out", str(out), "--db", postgres_url)
    assert completed.returncode == 0, (completed.stdout + completed.stderr)[-3000:]
    return postgres_url, out


def test_sample_class_grades_into_postgres_and_reads_back(graded_into_postgres):
    from nbgrader.api import Gradebook, MissingEntry

    url, out = graded_into_postgres
    expected = read_csv(SAMPLES / "expected_grades.csv")
    written = read_csv(out / "grades.csv")
    assert [{k: row[k] for k in COMPARED} for row in written] == \
        [{k: row[k] for k in COMPARED} for row in expected]
    by_student = {(row["student"], row["assignment"]): row for row in written}

    with Gradebook(url, COURSE_ID) as gradebook:
        for row in expected:
            try:
                nb = gradebook.find_submission_notebook(row["assignment"], row["assignment"], row["student"])
            except MissingEntry:
                pytest.fail(f"{row['student']}/{row['assignment']} is not in the PostgreSQL gradebook")
            key = (row["student"], row["assignment"])
            got = (float(nb.score), float(nb.code_score))
            assert got == (float(row["score"]), float(row["auto_score"])), key
            assert got == (float(by_student[key]["score"]), float(by_student[key]["auto_score"])), key


def test_postgres_run_keeps_no_sqlite_gradebook(graded_into_postgres):
    _, out = graded_into_postgres
    assert not list(out.rglob("gradebook.db")), "with --db the gradebook must live only in PostgreSQL"


@pytest.mark.parametrize("where", ["closed port", "missing database"])
def test_wrong_db_url_fails_fast_with_the_password_masked(where, request, tmp_path):
    if where == "closed port":  # nothing listens on port 1
        url = "postgresql://grader:secret@127.0.0.1:1/nope"
    else:  # a live server that has no such database
        port = re.search(r":(\d+)/", request.getfixturevalue("postgres_url"))[1]
        url = f"postgresql://grader:secret@127.0.0.1:{port}/nope"
    masked = url.replace(":secret@", ":***@")
    out = tmp_path / "graded"
    _, output = failing_fast(str(SAMPLES / "submissions"), "--out", str(out), "--db", url,
                             given=f"a wrong --db URL {masked}", limit=FAIL_FAST_S)
    assert masked in output, output[-2000:]
    assert "secret" not in output, "the password was printed"
    assert not (out / "grades.csv").exists(), "nothing may be graded when the gradebook is unreachable"


def test_manual_grade_round_trip_in_postgres(graded_into_postgres):
    """A grade by hand, stored through nbgrader's API as the formgrader stores it, reaches grades.csv
    and the Canvas import (``python -m autograder.grades csv --format canvas``, the gradebook found
    from the course's configuration) and cleo's regenerated feedback page."""
    from nbgrader.api import Gradebook

    url, out = graded_into_postgres
    name, written = "01_attention_without_weights", "explain_no_trainable_weights"
    with Gradebook(url, COURSE_ID) as gradebook:
        grade = gradebook.find_grade(written, name, name, "cleo")
        grade.manual_score, grade.needs_manual_grade = 1, False
        gradebook.find_comment(written, name, name, "cleo").manual_comment = "Part (b) names no capability."
        gradebook.db.commit()
    roster = out.parent / "roster.csv"
    roster.write_text("Student,ID,SIS Login ID\nAda,1,ada\nBen,2,ben\nCleo,3,cleo\n", encoding="utf-8")
    for argv in (["csv", "--format", "canvas", "--roster", str(roster)], ["feedback"]):
        completed = subprocess.run([sys.executable, "-m", "autograder.grades", *argv, "--out", str(out)], cwd=REPO,
                                   env=cli_env(), capture_output=True, text=True, timeout=300)
        assert completed.returncode == 0, (completed.stdout + completed.stderr)[-3000:]
    rows = {row["student"]: row for row in read_csv(out / "grades.csv")}
    assert set(rows) == {"ada", "ben", "cleo"}
    assert (rows["cleo"]["score"], rows["cleo"]["manual_score"], rows["cleo"]["needs_manual_grading"]) == \
        ("8", "1", "False")
    page = (out / "feedback" / "cleo" / f"{name}.html").read_text(encoding="utf-8")
    assert '<span class="total">8 / 12</span>' in page and "Part (b) names no capability." in page
    canvas = {row["Student"]: row for row in read_csv(out / "canvas-grades.csv")}
    assert (canvas["Cleo"][name], canvas["Ada"][name], canvas["Points Possible"][name]) == ("8", "10", "12"), canvas
