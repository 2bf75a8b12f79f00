"""The course directory and the plans, ready before any submission runs (stage 3 of grading).

nbgrader's ``generate_assignment`` makes the release and the gradebook's idea of each assignment (one
process for every changed source); at the same time each present assignment's plan is read from the
run's cache, the key's recorded plans, or learnt by running the source notebook in a sandbox. A plan
that cannot be learnt or trusted fails its assignment alone (:class:`.plans.PlanError`).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from . import SOLUTIONS, plans
from . import notebooks as nbio
from .course import make_course, nbgrader
from .records import Limits
from .state import State

# Learning a plan runs the whole source notebook once; its cells get more time than a learner's.
LEARNING_LIMITS = Limits(cell_timeout=120)


def prepare(out: Path, db_url: str, limits: Limits, state: State, present: list[str],
            executor) -> tuple[dict[str, dict], dict[str, str]]:
    """The course directory (nbgrader's generate_assignment) and every present assignment's plan;
    returns (plans, {assignment: why it cannot be graded})."""
    course = out / "course"
    course.mkdir(parents=True, exist_ok=True)
    make_course(course, db_url, only=present)
    (out / "exchange").mkdir(exist_ok=True)
    with open(course / "nbgrader_config.py", "a", encoding="utf-8") as config:
        config.write(f"c.Execute.timeout = {int(limits.cell_timeout)}\n")
        # the formgrader's exchange, inside the output folder (nbgrader's default is a system folder)
        config.write(f"c.Exchange.root = {str(out / 'exchange')!r}\n")
    problem: list[str] = []
    generating = threading.Thread(target=lambda: problem.extend(generate(course, db_url, state, present)),
                                  daemon=True)
    generating.start()
    found, failed = learn_plans(course / "plans", state, present, executor)
    generating.join()
    if problem:
        raise SystemExit(problem[0])
    return found, failed


def learn_plans(cache: Path, state: State, present: list[str], executor) -> tuple[dict[str, dict], dict[str, str]]:
    """Each assignment's plan: cached, recorded in the key, or learnt in a sandbox; then validated."""
    cache.mkdir(exist_ok=True)
    found, failed, learning = {}, {}, {}
    for name in present:
        source = nbio.read(SOLUTIONS / f"{name}.ipynb")
        path = cache / f"{name}-{state.fingerprint(b'plan', name)[:16]}.json"
        plan = plans.cached(path) or plans.stored(name)
        if plan is None:
            learning[name] = (source, path, executor.submit(plans.record_job(source, LEARNING_LIMITS)))
        else:
            found[name] = plan
    for name, (source, path, future) in learning.items():
        try:
            found[name] = plans.from_records(source, future.result())
            plans.save(found[name], path)
        except plans.PlanError as error:
            failed[name] = f"its tests could not be learnt from solutions/: {error}"[:500]
    for name in list(found):
        try:
            plans.validate(nbio.read(SOLUTIONS / f"{name}.ipynb"), found[name])
        except plans.PlanError as error:
            failed[name] = f"it cannot be graded safely: {error}"[:500]
            del found[name]
    return found, failed


def generate(course: Path, db_url: str, state: State, present: list[str]) -> list[str]:
    """nbgrader's generate_assignment for the assignments whose source changed, in one process;
    returns the problem, if any, as one message."""
    stamps = course / "generated.json"
    generated = json.loads(stamps.read_text()) if stamps.is_file() else {}
    todo = {name: state.fingerprint(db_url.encode(), name) for name in present}
    todo = {name: stamp for name, stamp in todo.items() if generated.get(name) != stamp
            or not (course / "release" / name / f"{name}.ipynb").is_file()}
    if not todo:
        return []
    code, output = nbgrader(course, "generate_assignment", next(iter(todo)) if len(todo) == 1 else "*",
                            "--force", timeout=600)
    if code != 0:
        return [f"could not prepare {', '.join(todo)} from solutions/:\n{output[-2000:]}"]
    stamps.write_text(json.dumps({**generated, **todo}))
    return []
