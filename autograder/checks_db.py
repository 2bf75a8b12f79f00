"""Every graded check's verdict, in the gradebook's own database, beside nbgrader's tables.

nbgrader's tables hold what a test cell scored (``grade``: the autograder's points, a grader's
manual override, extra credit) but nothing about *why* a check failed. The table
``attention_check`` holds one row per graded check (:class:`~autograder.records.CheckRow`): the
exercise, whether it passed, the catalogued mistakes its message named and the message itself.
It lives in the same database as the gradebook (SQLite or PostgreSQL, any SQLAlchemy URL) and is
keyed like nbgrader's rows (course, assignment, student, test cell), so a query can join the two;
the points stay in nbgrader's ``grade`` table, where the formgrader's overrides land.

Grading writes the rows of the submissions it graded (:func:`store`), replacing those
submissions' earlier rows, the same rows it writes to ``checks.csv``. The class report reads them
back with :func:`load`.
"""

from __future__ import annotations

import sqlalchemy as sa

from .records import CheckRow

METADATA = sa.MetaData()
TABLE = sa.Table(
    "attention_check", METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("course", sa.String(128), nullable=False),  # nbgrader's course id
    sa.Column("student", sa.String(128), nullable=False),  # nbgrader's student id
    sa.Column("assignment", sa.String(128), nullable=False),  # nbgrader's assignment name
    sa.Column("test", sa.String(128), nullable=False),  # the test cell's grade_id (nbgrader's grade cell name)
    sa.Column("position", sa.Integer, nullable=False),  # the check's place in the submission's run
    sa.Column("exercise", sa.String(128), nullable=False),
    sa.Column("hidden", sa.Boolean, nullable=False),
    sa.Column("passed", sa.Boolean, nullable=False),
    sa.Column("mistake", sa.String(1024), nullable=False),  # catalogue ids named, comma-separated; "" when none
    sa.Column("message", sa.Text, nullable=False),
    sa.Index("ix_attention_check_submission", "course", "assignment", "student"),
)
_FIELDS = ("student", "assignment", "test", "exercise", "hidden", "passed", "mistake", "message")


def store(rows: list[CheckRow], db_url: str, course: str, regraded: set[tuple[str, str]] | None = None) -> None:
    """Replace the stored rows of the ``regraded`` submissions ((student, assignment); by default those
    in ``rows``) with ``rows``, in one transaction: a submission regraded into a failure has none."""
    submissions = sorted({(assignment, student) for student, assignment in regraded} if regraded is not None
                         else {(row.assignment, row.student) for row in rows})
    if not submissions:
        return
    engine = sa.create_engine(db_url)
    try:
        METADATA.create_all(engine, checkfirst=True)
        with engine.begin() as connection:
            for start in range(0, len(submissions), 200):  # stays under every database's bound-parameter limit
                chunk = submissions[start:start + 200]
                connection.execute(sa.delete(TABLE).where(
                    TABLE.c.course == course, sa.tuple_(TABLE.c.assignment, TABLE.c.student).in_(chunk)))
            if rows:
                connection.execute(TABLE.insert(), [
                    {"course": course, "position": position, **{name: getattr(row, name) for name in _FIELDS}}
                    for position, row in enumerate(rows)])
    finally:
        engine.dispose()


def load(db_url: str, course: str) -> list[CheckRow] | None:
    """Every stored row of the course, in grading order; None when the database has no such table
    (a gradebook graded before the table existed). A database that cannot be read raises
    SQLAlchemy's error."""
    engine = sa.create_engine(db_url)
    try:
        if not sa.inspect(engine).has_table(TABLE.name):
            return None
        query = sa.select(*(TABLE.c[name] for name in _FIELDS)).where(TABLE.c.course == course).order_by(
            TABLE.c.assignment, TABLE.c.student, TABLE.c.position)
        with engine.connect() as connection:
            return [CheckRow(**row._mapping) for row in connection.execute(query)]
    finally:
        engine.dispose()
