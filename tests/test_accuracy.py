"""The diagnosis tables: the design, held-out and fresh sets (see autograder/accuracy.py).

The design set (tests/cases/) holds the cases the diagnosis was built on: every bug there is caught
and named, every variant accepted. The held-out set (tests/cases/heldout/) was written before the
diagnosis was tuned (and later informed a change, so its figure is biased): every bug caught, none
misnamed, at least 90 % named, every correct variant accepted. The fresh set (tests/cases/fresh/)
was written without reading the key and never tuned on; the same goals apply to it, but it did not
meet them when first measured, so its tests keep every case at least where it was then (a ratchet)
and print the honest figure.
"""

from __future__ import annotations

import functools
import json

import pytest
from conftest import ASSIGNMENTS, REPO

from attention_course.mistakes import CATALOGUE
from autograder.accuracy import (
    BLIND_SETS,
    MEASURED_SETS,
    SETS,
    UNCATALOGUED,
    case_files,
    evaluate_notebooks,
    is_uncatalogued,
    load_cases,
    measured_file,
    mistake_of,
    named_share,
    says_any,
    standing,
    table,
    titles_in,
)

pytestmark = pytest.mark.slow
WITH_CASES = [name for name in ASSIGNMENTS if (REPO / "tests" / "cases" / f"{name}.py").is_file()]
HELD_OUT = [name for name in ASSIGNMENTS if case_files(name, "heldout")]
FRESH = [name for name in ASSIGNMENTS if case_files(name, "fresh")]
# every set written without the key: [(notebook, set)]
MEASURED_CASES = [(name, case_set) for case_set in MEASURED_SETS for name in ASSIGNMENTS if case_files(name, case_set)]


# The held-out set was written for notebooks 01-06; notebooks 07 and 08 came later and have only
# design cases so far (a held-out set for them must be written before anyone tunes on it).
# Notebook 03's exercises were all replaced in the second edition (issue 12): its cases written
# before their key are in the fresh set, not copied here.
HELD_OUT_REQUIRED = [name for name in ASSIGNMENTS if name[:2] <= "06" and not name.startswith("03")]


# The fresh set was written for the second round of measurement; notebook 03 was being rewritten then.
# The fresh sets were written for notebooks 01-08; notebook 09 came later and has only design cases
# so far (its fresh set must be written, without the key, before anyone tunes on it).
FRESH_REQUIRED = [name for name in ASSIGNMENTS if not name.startswith("03") and name[:2] <= "08"]


@functools.cache
def _every_notebook() -> dict:
    """Every notebook's cases in every set, evaluated once a session (several tests read them): one
    kernel per notebook, the notebooks side by side on the machine's cores."""
    return evaluate_notebooks(ASSIGNMENTS, list(SETS), report=lambda name, outcomes: None)


def _every_set(name: str) -> tuple:
    return tuple(_every_notebook().get(name, ()))


def _evaluate(name: str, case_set: str) -> tuple:
    return tuple(o for o in _every_set(name) if o.case_set == case_set)


def test_every_notebook_has_cases_in_every_set():
    assert WITH_CASES == ASSIGNMENTS
    assert set(HELD_OUT_REQUIRED) <= set(HELD_OUT)
    assert set(FRESH_REQUIRED) <= set(FRESH)
    # the third to tenth fresh sets were written for the second edition: every notebook
    for case_set in ("fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "fresh10"):
        assert [name for name in ASSIGNMENTS if case_files(name, case_set)] == [
            name for name in ASSIGNMENTS if name[:2] <= "08"], case_set


@pytest.mark.parametrize(("name", "case_set"), [(name, "design") for name in WITH_CASES]
                         + [(name, "heldout") for name in HELD_OUT]
                         + [(name, s) for name, s in MEASURED_CASES if s not in BLIND_SETS])
def test_cases_name_catalogued_mistakes_of_existing_exercises(name, case_set):
    mistakes, variants = load_cases(name, case_set)
    assert mistakes and variants
    allowed = set(CATALOGUE) | ({UNCATALOGUED} if case_set in MEASURED_SETS else set())
    for exercise, cases in mistakes.items():
        unknown = {mistake_of(case) for case in cases} - allowed
        assert not unknown, f"{exercise}: {unknown}"
        assert all(case.split(":", 1)[1] for case in cases if is_uncatalogued(case)), "uncatalogued needs a tag"


@pytest.mark.parametrize(("name", "case_set"), [(name, s) for name, s in MEASURED_CASES if s in BLIND_SETS])
def test_blind_cases_are_keyed_in_plain_words(name, case_set):
    """A blind case is keyed by two to five words a good hint would contain, never by catalogue ids."""
    mistakes, variants = load_cases(name, case_set)
    assert mistakes and variants
    for exercise, cases in mistakes.items():
        for case, entry in cases.items():
            assert isinstance(entry, tuple) and len(entry) == 2, f"{exercise} {case}: (words, source)"
            words, source = entry
            assert 2 <= len(words) <= 5 and all(isinstance(w, str) and w.strip() for w in words), (exercise, case)
            assert "def " in source or "class " in source, (exercise, case)


def test_titles_are_read_from_messages():
    title = CATALOGUE["weights_transposed"].title
    assert titles_in(f"✗ x: {title}. Hint: ...") == {"weights_transposed"}
    assert titles_in("✗ x: the result differs") == set()
    assert mistake_of("softmax_wrong_axis:axis_one") == "softmax_wrong_axis"
    assert is_uncatalogued("uncatalogued:float_cast") and not is_uncatalogued("no_scaling")


def test_keyed_words_match_ignoring_case_hyphens_and_runs_of_whitespace():
    """A blind case's word is found in the message whatever its case, hyphens or line breaks."""
    assert says_any("The mask is Off By One: ...", ["off-by-one"])
    assert says_any("an off-by-one in the mask", ["off by one"])
    assert says_any("apply the layer\n   norm before", ["Layer Norm"])
    assert says_any("pre-LN block", ["pre LN"])
    assert not says_any("the offset is by one", ["off by one"])
    assert not says_any("layernorm", ["layer norm"])


def test_fresh_cases_of_one_notebook_are_merged_over_its_files(tmp_path, monkeypatch):
    from autograder import accuracy

    (tmp_path / "01_x.py").write_text('MISTAKES = {"a": {"no_scaling": "1"}}\nVARIANTS = {"a": {"v": "2"}}\n')
    (tmp_path / "01_x_new.py").write_text('MISTAKES = {"b": {"uncatalogued:t": "3"}}\nVARIANTS = {}\n')
    (tmp_path / "01_y.py").write_text('MISTAKES = {"c": {"no_scaling": "4"}}\n')
    monkeypatch.setitem(accuracy.SETS, "fresh", tmp_path)
    assert load_cases("01_x", "fresh") == ({"a": {"no_scaling": "1"}, "b": {"uncatalogued:t": "3"}},
                                           {"a": {"v": "2"}})
    (tmp_path / "01_x_more.py").write_text('MISTAKES = {"a": {"no_scaling": "5"}}\n')
    with pytest.raises(KeyError, match="defined twice"):
        load_cases("01_x", "fresh")


@pytest.mark.parametrize("name", WITH_CASES)
def test_design_mistakes_are_caught_and_named_and_variants_accepted(name):
    outcomes = _evaluate(name, "design")
    print("\n" + table(outcomes))
    wrong = [f"{o.exercise} {o.kind} {o.case}: failed {o.failed_tests} {o.message[:200]}"
             for o in outcomes if not o.ok]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("name", HELD_OUT)
def test_held_out_bugs_are_caught_never_misnamed_and_variants_accepted(name):
    outcomes = _evaluate(name, "heldout")
    print("\n" + table(outcomes))
    bad = [f"{o.exercise} {o.kind} {o.case}: failed {o.failed_tests} {o.message[:200]}" for o in outcomes
           if (o.kind == "mistake" and (not o.caught or o.misnamed)) or (o.kind == "variant" and not o.ok)]
    assert not bad, "\n".join(bad)


def test_held_out_bugs_are_named_at_least_nine_times_in_ten():
    outcomes = [o for name in HELD_OUT for o in _evaluate(name, "heldout")]
    named, bugs = named_share(outcomes)
    print("\n" + table(outcomes))
    assert bugs and named >= 0.9 * bugs, f"named {named} of {bugs}"


# The fresh set's first measurement did not reach the goals (see its README: 78.5 % named,
# some bugs misnamed). Its tests are a ratchet, not the goal: no case may do worse than it did when
# measured (tests/cases/fresh/measured.json, written by `python3 tasks.py accuracy --set fresh
# --measured`), and a case added since must meet the goal. Issue 11 stays open until the goal holds.
RANK = {"missed": 0, "misnamed": 1, "caught": 2, "named": 3, "rejected": 0, "accepted": 3}


@pytest.mark.parametrize(("name", "case_set"), MEASURED_CASES)
def test_no_fresh_case_does_worse_than_when_it_was_measured(name, case_set):
    """Uncatalogued bugs (``uncatalogued:<tag>``) count as misnamed when any catalogued title is given."""
    outcomes = _evaluate(name, case_set)
    print("\n" + table(outcomes))
    path = measured_file(case_set)
    measured = json.loads(path.read_text(encoding="utf-8")).get(name, {}) if path.is_file() else {}
    worse = []
    for o in outcomes:
        now, then = standing(o), measured.get(f"{o.exercise} {o.case}")
        goal = "accepted" if o.kind == "variant" else ("caught" if is_uncatalogued(o.case) else "named")
        if RANK[now] < RANK[then or goal]:
            worse.append(f"{o.exercise} {o.kind} {o.case}: {now} (was {then or 'not measured; the goal is ' + goal})"
                         f": failed {o.failed_tests} {o.message[:200]}")
    assert not worse, "\n".join(worse)


@pytest.mark.parametrize("case_set", MEASURED_SETS)
def test_fresh_named_share_is_reported(case_set):
    """The honest figure over a fresh set's catalogued bugs, printed (the goal, 90 %, is issue 11's)."""
    outcomes = [o for name, in_set in MEASURED_CASES if in_set == case_set for o in _evaluate(name, case_set)]
    named, bugs = named_share(outcomes)
    print("\n" + table(outcomes) + f"\nnamed {named} of {bugs} catalogued {case_set} bugs")
    measured = json.loads(measured_file(case_set).read_text(encoding="utf-8"))
    assert named >= sum(v == "named" for cases in measured.values() for v in cases.values())


def test_a_source_written_again_for_the_same_exercise_runs_once(monkeypatch):
    """Cases of one exercise with the very same source (in two sets, or a mistake and a variant) share
    one run in the sandbox, and each keeps its own outcome."""
    from autograder import accuracy, plans

    source = "def scores_for_query(query, inputs):\n    return inputs @ query\n"
    tables = {"a": ({"scores_for_query": {"same": (["x"], source)}}, {}),
              "b": ({}, {"scores_for_query": {"again": source, "other": source + "# another line\n"}})}
    monkeypatch.setattr(accuracy, "load_cases", lambda notebook, case_set: tables[case_set])
    name = "01_attention_without_weights"
    job, about = accuracy.cases_job(name, ["a", "b"], plans.stored(name))
    assert [case.id for case in job.cases] == ["a|mistake|scores_for_query|same", "b|variant|scores_for_query|other"]
    assert about["b|variant|scores_for_query|again"][-1] == "a|mistake|scores_for_query|same"
    assert [info[3] for info in about.values()] == ["same", "again", "other"]
