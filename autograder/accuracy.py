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
  unbiased figure of issue 11 (see its README);
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
import importlib.util
import json
import multiprocessing
import os
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from tqdm import tqdm

from attention_course.mistakes import CATALOGUE

from . import REPO, SOLUTIONS
from . import notebooks as nbio

CASES = REPO / "tests" / "cases"
# the fresh sets, in the order they were written: a new one is registered here only
FRESH_SETS = ("fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "fresh10")
SETS = {"design": CASES, "heldout": CASES / "heldout", **{name: CASES / name for name in FRESH_SETS}}
# sets whose cases for one notebook may be spread over several files, <notebook>*.py, merged
MERGED_SETS = set(FRESH_SETS)
# sets written without the key, measured case by case (their tests keep every case at least there)
MEASURED_SETS = FRESH_SETS
# --set choices beyond a single set
SET_GROUPS = {"both": ["design", "heldout"], "fresh-sets": list(MEASURED_SETS), "all": list(SETS)}
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


def mistake_of(case: str) -> str:
    """The catalogue id of a mistake case: ``"softmax_wrong_axis:axis_one"`` -> ``"softmax_wrong_axis"``.

    A mistake outside the catalogue, ``"uncatalogued:<tag>"``, gives :data:`UNCATALOGUED`.
    """
    return case.split(":", 1)[0]


def is_uncatalogued(case: str) -> bool:
    return mistake_of(case) == UNCATALOGUED


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


def _own_tests(grade_id: str, tests: list[str]) -> set[str]:
    return {t for t in tests if t == f"correct_{grade_id}" or t.startswith(f"correct_{grade_id}_")}


def _failure(cell) -> str | None:
    for output in cell.get("outputs", []):
        if output.output_type == "error":
            return f"{output.ename}: {output.evalue}"
        if output.output_type == "stream" and output.name == "stderr":
            return f"stderr: {output.text.strip()[:300]}"
    return None


def evaluate_notebooks(names: list[str], case_sets: list[str], jobs: int | None = None,
                       report=None) -> dict[str, list[Outcome]]:
    """Every notebook's outcomes in the given sets (each in the sets it has cases in), with the
    notebooks evaluated side by side: ``jobs`` processes, each driving one kernel at a time (default:
    as many as there are cores, at most two), the costliest notebook first. ``report(name, outcomes)``
    is called as each notebook finishes."""
    work = {name: [s for s in case_sets if case_files(name, s)] for name in names}
    work = {name: sets for name, sets in work.items() if sets}
    jobs = jobs or max(1, min(2, os.cpu_count() or 1))
    results: dict[str, list[Outcome]] = {}
    if jobs == 1 or len(work) <= 1:
        for name, sets in work.items():
            results[name] = evaluate_sets(name, sets, progress=report is None)
            if report:
                report(name, results[name])
    else:
        # each case re-runs every test cell: cases times test cells measures a notebook's cost
        order = sorted(work, key=lambda name: -_cost(name, work[name]))
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
            futures = {pool.submit(evaluate_sets, name, work[name], False): name for name in order}
            for future in as_completed(futures):
                results[futures[future]] = future.result()
                if report:
                    report(futures[future], results[futures[future]])
    return {name: results[name] for name in work}


def _cost(name: str, case_sets: list[str]) -> int:
    cases = sum(len(table) for case_set in case_sets for tables in load_cases(name, case_set)
                for table in tables.values())
    nb = nbio.read(SOLUTIONS / f"{name}.ipynb")
    tests = sum(1 for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")
                and not c.metadata["nbgrader"].get("solution"))
    return cases * max(tests, 1)


def evaluate(name: str, progress: bool = True, case_set: str = "design") -> list[Outcome]:
    return evaluate_sets(name, [case_set], progress)


def evaluate_sets(name: str, case_sets: list[str], progress: bool = True) -> list[Outcome]:
    """The outcomes of a notebook's cases in several sets, in one kernel: the source notebook runs
    once (notebook 07 trains, 08 loads a model), then every case of every set in turn."""
    cases = []
    for case_set in case_sets:
        mistakes, variants = load_cases(name, case_set)
        cases += [(case_set, gid, "mistake", case, src) for gid, table in mistakes.items()
                  for case, src in table.items()]
        cases += [(case_set, gid, "variant", case, src) for gid, table in variants.items()
                  for case, src in table.items()]
    nb = nbio.read(SOLUTIONS / f"{name}.ipynb")
    cells = {c.metadata["nbgrader"]["grade_id"]: i for i, c in enumerate(nb.cells)
             if "grade_id" in c.metadata.get("nbgrader", {})}
    tests = [g for g, i in cells.items() if nb.cells[i].metadata["nbgrader"].get("grade")
             and not nb.cells[i].metadata["nbgrader"].get("solution")]
    outcomes: list[Outcome] = []
    if not cases:
        return outcomes
    with tempfile.TemporaryDirectory() as tmp:
        # a cell's limit: notebook 09's training run takes about 40 s on an idle machine, more on a busy one
        client = NotebookClient(nb, timeout=180, kernel_name="python3", allow_errors=True,
                                resources={"metadata": {"path": tmp}})
        with client.setup_kernel():
            for index, cell in enumerate(nb.cells):
                if cell.cell_type == "code":
                    client.execute_cell(cell, index)
            # nbclient writes each executed cell back into nb.cells[index]: keep the sources apart
            sources = {grade_id: nb.cells[index].source for grade_id, index in cells.items()}
            broken = [g for g in tests if _failure(nb.cells[cells[g]])]
            if broken:
                raise RuntimeError(f"{name}: the solution itself fails {broken}")
            bar = tqdm(cases, desc=name, unit="case", disable=not progress, file=sys.stdout)
            for case_set, grade_id, kind, case, source in bar:
                if grade_id not in cells:
                    raise KeyError(f"{name}: no solution cell {grade_id!r} (case {case})")
                outcome = Outcome(name, grade_id, kind, case, case_set=case_set)
                trial = nbformat.v4.new_code_cell(source)
                client.execute_cell(trial, cells[grade_id])
                failures = {}
                for test in tests:
                    test_cell = nbformat.v4.new_code_cell(sources[test])
                    client.execute_cell(test_cell, cells[test])
                    failure = _failure(test_cell)
                    if failure:
                        failures[test] = failure
                restore = nbformat.v4.new_code_cell(sources[grade_id])
                client.execute_cell(restore, cells[grade_id])
                outcome.failed_tests = sorted(failures)
                own = _own_tests(grade_id, tests)
                outcome.message = " | ".join(failures[t] for t in sorted(failures) if t in own)
                if kind == "mistake":
                    # docked on this exercise only: an exercise with two test cells may lose one
                    outcome.caught = bool(failures) and set(failures) <= own
                    named = titles_in(outcome.message)
                    outcome.named = outcome.caught and mistake_of(case) in named
                    outcome.misnamed = bool(named) and mistake_of(case) not in named
                    # an uncatalogued mistake cannot be named: the best is caught, naming nothing
                    outcome.ok = outcome.caught and (not outcome.misnamed if is_uncatalogued(case)
                                                     else outcome.named)
                else:
                    outcome.ok = not failures
                outcomes.append(outcome)
    return outcomes


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
