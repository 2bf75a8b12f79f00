"""How well the grading diagnoses: mistakes caught and named, correct variants accepted.

    python3 tasks.py accuracy            # every notebook, every set
    python3 tasks.py accuracy 01 05      # notebooks whose names start with 01 or 05
    python3 tasks.py accuracy --set fresh
    python3 tasks.py accuracy --set fresh10 --measured  # and record each case's standing
    python3 tasks.py accuracy --set both # design and held-out only (the two sets of the first stop)

Twelve sets of cases, reported separately:

- the *design* set, ``tests/cases/<notebook>.py``: the cases the diagnosis was designed and tuned on;
- the *held-out* set, ``tests/cases/heldout/<notebook>.py``: realistic learner answers written
  before the diagnosis was tuned, but later used to generalise it (see its README): its figure is
  biased;
- the *fresh* set, ``tests/cases/fresh/<notebook>*.py``: learner answers written by people who had
  not read the key, committed before the diagnosis first ran on them; its first measurement is the
  unbiased one, and later figures are marked as biased when a change followed its failures (see its
  README). Every file whose name starts with the notebook's name is loaded and merged
  (``05_matrix_form_and_masks.py``, ``05_matrix_form_and_masks_new.py``, ...), so that cases for
  new exercises can live in files of their own. It measures how well the diagnosis generalises.
- the *second fresh* set, ``tests/cases/fresh2/<notebook>*.py``: written the same way, after the
  fresh set had been used to tune the diagnosis (so the fresh set's later figures are biased), by
  someone who read neither the key nor the earlier sets' cases; its first measurement is the
  unbiased figure of that round of measurement (see its README);
- the *third fresh* set, ``tests/cases/fresh3/<notebook>*.py``: written the same way, after the
  second had been used to tune the diagnosis, for every graded exercise of the second edition
  (see its README);
- the *fourth fresh* set, ``tests/cases/fresh4/<notebook>*.py``: written the same way, after the
  third had been used to tune the diagnosis, keyed by the rules of ``tests/cases/KEYING.md``.
- the *fifth fresh* set, ``tests/cases/fresh5/<notebook>*.py``: written the same way, after the
  fourth had been used to tune the diagnosis, keyed by KEYING.md as it stood after the fourth;
- the *sixth fresh* set, ``tests/cases/fresh6/<notebook>*.py``: written the same way while the fifth
  was measured and then used to tune the diagnosis;
- the *seventh fresh* set, ``tests/cases/fresh7/<notebook>*.py``: written the same way while the
  sixth was measured and then used to tune the diagnosis;
- the *eighth fresh* set, ``tests/cases/fresh8/<notebook>*.py``: written the same way after the
  seventh had been measured and used to tune the diagnosis;
- the *ninth fresh* set, ``tests/cases/fresh9/<notebook>*.py``: written the same way after the
  eighth had been measured and used to tune the diagnosis;
- the *tenth fresh* set, ``tests/cases/fresh10/<notebook>*.py``: written the same way after the
  ninth had been measured and used to tune the diagnosis.

In each, ``MISTAKES[grade_id][case]`` and ``VARIANTS[grade_id][variant]`` hold the source a learner
might put in that exercise's solution cell: a wrong answer making one catalogued mistake (the case
is the mistake id, optionally followed by ``:tag`` when one exercise has several ways to make it),
or a correct answer written differently. A wrong answer whose mistake is in no catalogue entry is
keyed ``uncatalogued:<tag>``: it must be caught, and the message must name no catalogued mistake
(any title in it counts as *misnamed*); it cannot be *named*, so the named share is computed over
the catalogued bugs only, and the uncatalogued ones are counted on a line of their own.

For each notebook, one kernel runs the source notebook top to bottom (hidden tests included, as
when grading). Then, for each case, the case's source replaces the exercise's solution cell and
every test cell runs again, as nbgrader would score it (a test cell with an error or any stderr
output scores 0). A mistake is *caught* when some of the exercise's own test cells fail and no
other test cell does (an exercise with two test cells, such as a visible one and one against a
library in float32, may lose only one for a mistake the other cannot see), and
*named* when the failure message carries the mistake's title from the catalogue, and *misnamed*
when it names another catalogued mistake and not this one (naming the wrong fix is worse than
naming none). A variant is *accepted* when no test cell fails. The solution cell is restored after
each case.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import sys
from concurrent.futures import as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tqdm import tqdm

from attention_course.convert import pack
from attention_course.mistakes import CATALOGUE

from . import NOTEBOOKS, REPO, SOLUTIONS, plans
from . import notebooks as nbio
from .records import Case, Job, Limits
from .verdict import judge_cell

CASES = REPO / "tests" / "cases"
BLIND = REPO / "tests" / "blind"
# the fresh sets, in the order they were written: a new one is registered here only
FRESH_SETS = ("fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "fresh10")
# the blind sets: written from the learner notebooks alone, each mistake keyed in plain words
BLIND_SETS = ("blind1", "blind2", "blind3", "blind4", "blind5", "blind6", "blind7", "blind8", "blind9",
              "blind10", "blind11", "blind12", "blind13", "blind14", "blind15")
SETS = {"design": CASES, "heldout": CASES / "heldout", **{name: CASES / name for name in FRESH_SETS},
        **{name: BLIND / name for name in BLIND_SETS}}
# sets whose cases for one notebook may be spread over several files, <notebook>*.py, merged
MERGED_SETS = set(FRESH_SETS) | set(BLIND_SETS)
# sets written without the key, measured case by case (their tests keep every case at least there)
MEASURED_SETS = FRESH_SETS + BLIND_SETS
# --set choices beyond a single set
SET_GROUPS = {"both": ["design", "heldout"], "fresh-sets": list(FRESH_SETS), "blind-sets": list(BLIND_SETS),
              "all": list(SETS)}
UNCATALOGUED = "uncatalogued"


@dataclass
class Outcome:
    notebook: str
    exercise: str
    kind: str  # "mistake" or "variant"
    case: str
    failed_tests: list[str] = field(default_factory=list)
    message: str = ""
    ok: bool = False  # mistake: caught and named; variant: accepted
    caught: bool = False
    named: bool = False
    misnamed: bool = False
    case_set: str = "design"
    words: list[str] = field(default_factory=list)  # a blind case's key: plain words a good hint contains


def mistake_of(case: str) -> str:
    """The catalogue id of a mistake case: ``"softmax_wrong_axis:axis_one"`` -> ``"softmax_wrong_axis"``.

    A mistake outside the catalogue, ``"uncatalogued:<tag>"``, gives :data:`UNCATALOGUED`.
    """
    return case.split(":", 1)[0]


def is_uncatalogued(case: str) -> bool:
    return mistake_of(case) == UNCATALOGUED


def plain(text: str) -> str:
    """Text as a keyed word is matched in it: lower case, hyphens as spaces, each run of whitespace one space.

    So "off-by-one" matches "off by one", "Layer  Norm" matches "layer norm", and a word broken
    across lines still matches."""
    return " ".join(text.lower().replace("-", " ").split())


def says_any(message: str, words: list[str]) -> bool:
    """Whether the message contains one of a blind case's keyed words, as :func:`plain` matches them."""
    text = plain(message)
    return any(plain(word) in text for word in words)


def titles_in(message: str) -> set[str]:
    """The catalogued mistakes whose title a failure message carries."""
    return {mistake.id for mistake in CATALOGUE.values() if mistake.title in message}


def case_files(name: str, case_set: str = "design") -> list[Path]:
    """The files holding a notebook's cases in a set: ``<name>.py``, and in a merged set
    (:data:`MERGED_SETS`) every ``<name>*.py`` too, in name order."""
    folder = SETS[case_set]
    if case_set in MERGED_SETS:
        return sorted(p for p in folder.glob(f"{name}*.py") if p.is_file())
    path = folder / f"{name}.py"
    return [path] if path.is_file() else []


def load_cases(name: str, case_set: str = "design") -> tuple[dict, dict]:
    """``(MISTAKES, VARIANTS)`` of a notebook in a set, merged over its files; a case defined twice
    for one exercise is an error."""
    mistakes: dict[str, dict[str, str]] = {}
    variants: dict[str, dict[str, str]] = {}
    for path in case_files(name, case_set):
        spec = importlib.util.spec_from_file_location(f"cases_{case_set}_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for merged, table in ((mistakes, getattr(module, "MISTAKES", {})),
                              (variants, getattr(module, "VARIANTS", {}))):
            for grade_id, cases in table.items():
                into = merged.setdefault(grade_id, {})
                twice = set(into) & set(cases)
                if twice:
                    raise KeyError(f"{path.name}: {grade_id} cases defined twice: {sorted(twice)}")
                into.update(cases)
    return mistakes, variants


def own_tests(grade_id: str, tests: list[str]) -> set[str]:
    return {t for t in tests if t == f"correct_{grade_id}" or t.startswith(f"correct_{grade_id}_")}


def cases_job(name: str, case_sets: list[str], plan: dict) -> tuple[Job, dict[str, tuple]]:
    """One "cases" job for a notebook: its learner copy with every answer filled in, and every case of
    the given sets; and {case id: (set, exercise, kind, case, own test grade_ids, keyed words, the id
    of the case whose run it shares)}. A source written again for the same exercise (by another set,
    or as a mistake and a variant) runs once: a third of all cases are such repeats."""
    source = nbio.read(SOLUTIONS / f"{name}.ipynb")
    learner = nbio.read(NOTEBOOKS / f"{name}.ipynb")
    solved = nbio.fill_solutions(learner, source)
    cells = plans.cells_of(solved, grading=True)
    by_id = {cell.grade_id: cell for cell in cells if cell.grade_id}
    tests = [cell.grade_id for cell in cells if cell.kind == "test"]
    given = {c.source for c in learner.cells if c.cell_type == "code"}
    cases, about = [], {}
    runs: dict[tuple[str, str], str] = {}  # (exercise, source) -> the case id that runs it
    for case_set in case_sets:
        mistakes, variants = load_cases(name, case_set)
        for kind, table in (("mistake", mistakes), ("variant", variants)):
            for grade_id, entries in table.items():
                if grade_id not in by_id:
                    raise KeyError(f"{name}: no solution cell {grade_id!r} ({case_set} set)")
                own = sorted(own_tests(grade_id, tests))
                for case, entry in entries.items():
                    code = entry[1] if isinstance(entry, tuple) else entry
                    case_id = f"{case_set}|{kind}|{grade_id}|{case}"
                    if (grade_id, code) not in runs:
                        runs[grade_id, code] = case_id
                        cases.append(Case(case_id, by_id[grade_id].index, code, by_id[grade_id].source,
                                          [by_id[t].index for t in own]))
                    about[case_id] = (case_set, grade_id, kind, case, own,
                                      entry[0] if isinstance(entry, tuple) else [], runs[grade_id, code])
    checks = {cell.index: plan.get(cell.grade_id, []) for cell in cells if cell.kind == "test"}
    job = Job("cases", cells, Limits(cell_timeout=60, notebook_timeout=3600), checks,
              plans.skippable(cells, plan, given), f"{name}.ipynb", nbio.dumps(solved), cases=cases)
    return job, about


_KEY: list = []  # one answer key per judging process, its analyses shared by every notebook it judges


def judge_notebook(name: str, job: Job, result, about: dict) -> list[Outcome]:
    """:func:`outcomes_of` with this process's key (run in a pool of judging processes)."""
    if not _KEY:
        from .key import ComputedKey

        _KEY.append(ComputedKey())
    return outcomes_of(name, job, result, about, _KEY[0])


def outcomes_of(name: str, job: Job, result, about: dict, key) -> list[Outcome]:
    """Each case's outcome, judged as the grader judges: the messages a learner's feedback shows.

    Many cases of different sets give the very same results (the same slip, written again): each
    distinct set of results of a test cell is judged once."""
    if result.status == "failed":
        raise RuntimeError(f"{name}: {result.reason}")
    broken = [cell for cell, calls in result.outcomes.items()
              if not judge_cell(job.checks.get(cell, []), calls, key).passed]
    if broken:
        raise RuntimeError(f"{name}: the solution itself fails test cells {broken}")
    index_of = {cell.index: cell.grade_id for cell in job.cells}
    judged: dict[bytes, str | None] = {}

    def failure(test: int, calls) -> str | None:
        digest = hashlib.sha256(pack([test, calls])).digest()
        if digest not in judged:
            verdict = judge_cell(job.checks.get(test, []), calls, key)
            judged[digest] = None if verdict.passed else verdict.outputs[-1]["evalue"]
        return judged[digest]

    outcomes = []
    for case_set, grade_id, kind, name_of_case, own, words, ran_as in about.values():
        outcome = Outcome(name, grade_id, kind, name_of_case, case_set=case_set, words=list(words))
        ran = result.cases.get(ran_as)
        failures = {}
        if isinstance(ran, str) or ran is None:
            failures = {test: f"CellTimeoutError: {ran or 'not run'}" for test in own}
        else:
            for test, calls in ran.items():
                if (message := failure(test, calls)) is not None:
                    failures[index_of[test]] = message
        outcome.failed_tests = sorted(failures)
        outcome.message = " | ".join(failures[t] for t in sorted(failures))
        if kind == "mistake":
            outcome.caught = bool(failures)
            if outcome.words:  # a blind case: named when the message says one of its words
                outcome.named = outcome.caught and says_any(outcome.message, outcome.words)
                outcome.misnamed = not outcome.named and bool(titles_in(outcome.message))
                outcome.ok = outcome.named
            else:
                named = titles_in(outcome.message)
                outcome.named = outcome.caught and mistake_of(name_of_case) in named
                outcome.misnamed = bool(named) and mistake_of(name_of_case) not in named
                # an uncatalogued mistake cannot be named: the best is caught, naming nothing
                outcome.ok = outcome.caught and (not outcome.misnamed if is_uncatalogued(name_of_case)
                                                 else outcome.named)
        else:
            outcome.ok = not failures
        outcomes.append(outcome)
    return outcomes


def evaluate_notebooks(names: list[str], case_sets: list[str], workers: int | None = None,
                       report=None) -> dict[str, list[Outcome]]:
    """Every notebook's outcomes in the given sets, through the grading path: per notebook one
    sandboxed run of its answered learner copy in which every case is tried in turn and probed on the
    plan's inputs (:func:`autograder.run.run_cases`), then judged with the answer key, as the grader
    judges, in a pool of judging processes (judging is most of the work). ``report(name, outcomes)``
    is called as each notebook finishes."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from .dispatch import LocalExecutor, default_workers

    work = {name: [s for s in case_sets if case_files(name, s)] for name in names}
    work = {name: sets for name, sets in work.items() if sets}
    workers = workers or min(2, default_workers())
    executor = LocalExecutor(workers)
    judges = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    results: dict[str, list[Outcome]] = {}
    try:
        learnt = {}
        for name in work:
            plan = plans.stored(name)
            if plan is None:
                source = nbio.read(SOLUTIONS / f"{name}.ipynb")
                learnt[name] = (source, executor.submit(plans.record_job(source, Limits(cell_timeout=120))))
            else:
                learnt[name] = plan
        runs = {}
        for name, sets in sorted(work.items(), key=lambda item: -_cost(*item)):
            plan = learnt[name]
            if isinstance(plan, tuple):
                plan = plans.from_records(plan[0], plan[1].result())
            job, about = cases_job(name, sets, plan)
            runs[executor.submit(job)] = (name, job, about)
        judging = {}
        for future in as_completed(runs):
            name, job, about = runs[future]
            judging[judges.submit(judge_notebook, name, job, future.result(), about)] = name
        for future in as_completed(judging):
            name = judging[future]
            results[name] = future.result()
            if report:
                report(name, results[name])
    finally:
        executor.close()
        judges.shutdown(cancel_futures=True)
    return {name: results[name] for name in work}


def _cost(name: str, case_sets: list[str]) -> int:
    return sum(len(table) for case_set in case_sets for tables in load_cases(name, case_set)
               for table in tables.values())


def measured_file(case_set: str) -> Path:
    """Where a set's case-by-case standing is recorded (``--measured``)."""
    return SETS[case_set] / "measured.json"


def standing(outcome: Outcome) -> str:
    """One word for how a case did: named, caught, misnamed or missed; accepted or rejected."""
    if outcome.kind == "variant":
        return "accepted" if outcome.ok else "rejected"
    if not outcome.caught:
        return "missed"
    if outcome.misnamed:
        return "misnamed"
    return "named" if outcome.named else "caught"


def named_share(outcomes: list[Outcome]) -> tuple[int, int]:
    """(named, catalogued bugs): the named share is over the bugs whose mistake is catalogued."""
    catalogued = [o for o in outcomes if o.kind == "mistake" and not is_uncatalogued(o.case)]
    return sum(o.named for o in catalogued), len(catalogued)


def table(outcomes: list[Outcome]) -> str:
    """One row per exercise and a total. *named correctly* is out of the catalogued bugs; *bugs
    caught* and *misnamed* out of all bugs, the uncatalogued ones included."""
    rows = {}
    for o in outcomes:
        row = rows.setdefault((o.notebook, o.exercise), [0, 0, 0, 0, 0, 0, 0])
        if o.kind == "mistake":
            row[0] += 1
            row[1] += o.caught
            row[2] += o.named
            row[3] += o.misnamed
            row[6] += not is_uncatalogued(o.case)
        else:
            row[4] += 1
            row[5] += o.ok
    header = (f"{'notebook':<32} {'exercise':<28} {'bugs caught':>12} {'named correctly':>16} "
              f"{'misnamed':>9} {'variants accepted':>18}")
    lines = [header]
    totals = [0] * 7

    def line(notebook, exercise, n, caught, named, misnamed, nv, accepted, n_catalogued):
        return (f"{notebook:<32} {exercise:<28} {f'{caught}/{n}':>12} {f'{named}/{n_catalogued}':>16} "
                f"{f'{misnamed}/{n}':>9} {f'{accepted}/{nv}':>18}")

    for (notebook, exercise), row in rows.items():
        lines.append(line(notebook, exercise, *row))
        totals = [a + b for a, b in zip(totals, row, strict=True)]
    lines.append(line("TOTAL", "", *totals))
    named, n_catalogued = named_share(outcomes)
    if n_catalogued:
        lines.append(f"named: {100 * named / n_catalogued:.1f} % of {n_catalogued} catalogued bugs")
    uncatalogued = [o for o in outcomes if o.kind == "mistake" and is_uncatalogued(o.case)]
    if uncatalogued:
        lines.append(f"uncatalogued bugs: {len(uncatalogued)}, caught {sum(o.caught for o in uncatalogued)}, "
                     f"named as a catalogued mistake {sum(o.misnamed for o in uncatalogued)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("prefixes", nargs="*", help="notebook name prefixes (default: all)")
    parser.add_argument("--json", type=Path, help="also write every outcome to this JSON file")
    parser.add_argument("--measured", action="store_true", help="record the standing of each fresh set run, case "
                        "by case, in its measured.json (its tests keep every case at least there)")
    parser.add_argument("--set", choices=[*SETS, *SET_GROUPS], default="all", dest="case_set",
                        help="which cases: one set; both (design and held-out); fresh-sets (every set written without the key); all (default)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="notebooks evaluated side by side (default: the cores, at most 2)")
    args = parser.parse_args(argv)
    names = [p.stem for p in sorted(SOLUTIONS.glob("*.ipynb"))
             if not args.prefixes or p.name.startswith(tuple(args.prefixes))]
    sets = SET_GROUPS.get(args.case_set, [args.case_set])
    done = tqdm(total=len(names), desc="notebooks", unit="notebook", file=sys.stdout)

    def report(name: str, outcomes: list[Outcome]) -> None:
        done.update(1)
        done.write(f"{name}: {len(outcomes)} cases evaluated")

    by_notebook = evaluate_notebooks(names, sets, args.jobs, report)
    done.close()
    outcomes = [o for name in names for o in by_notebook.get(name, [])]
    for case_set in sets:
        print(f"\n== {case_set} set ({SETS[case_set].relative_to(REPO)}) ==")
        print(table([o for o in outcomes if o.case_set == case_set]))
    for o in outcomes:
        if not o.ok:
            print(f"NOT OK  [{o.case_set}] {o.notebook} {o.exercise} {o.kind} {o.case}: failed "
                  f"{o.failed_tests} {o.message[:300]}")
    if args.json:
        args.json.write_text(json.dumps([asdict(o) for o in outcomes], indent=1), encoding="utf-8")
    for case_set in (s for s in MEASURED_SETS if s in sets and args.measured):
        path = measured_file(case_set)
        measured = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        for name in names:
            measured[name] = {f"{o.exercise} {o.case}": standing(o) for o in outcomes
                              if o.case_set == case_set and o.notebook == name}
        path.write_text(json.dumps(measured, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0 if all(o.ok for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
