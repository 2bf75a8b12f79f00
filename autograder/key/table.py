"""The one mutant table: every mistake of an exercise, from wherever it is defined (grading side).

A mistake is defined in one of four ways, and this table is the only place that gathers them:

- ``own``: the exercise's ``mutants`` (``exercises/nNN_<name>.py``), mistakes particular to it;
- ``shared``: a wrong version of one shared step (:data:`.mistakes.TRANSFORMATIONS`) run through the
  exercise's ``mistakes_from``, then the mistakes made around it (:func:`.mistakes.argument_mutants`:
  projections mixed up, a loop's leftovers, integer truncation), a mistake's ways of both in one list;
- ``generated``: one edit of the code of ``mistakes_from`` (:mod:`.generated`).

Their order is their precedence: the verdict reads the rows in this order, a shared row that gives
the expected result is stored as such, and a generated row is kept only where no row before it
gives the same result (:func:`autograder.key.mutant_outputs`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from .exercises import Exercise, get_exercise
from .generated import generated_mutants
from .mistakes import argument_mutants, shared_mutants

Source = Literal["own", "shared", "generated"]


@dataclass(frozen=True)
class Mutant:
    """One way to make one mistake: ``function`` takes the learner function's positional arguments."""

    mistake: str  # the catalogue's id, a decoy's, or a generated one's description
    source: Source
    way: str  # the source and the place among that mistake's ways: "own0", "shared2", "generated1"
    function: Callable


def _rows(source: Source, table: dict[str, Callable | list[Callable] | tuple]) -> list[Mutant]:
    return [Mutant(mistake, source, f"{source}{way}", function)
            for mistake, ways in table.items()
            for way, function in enumerate(ways if isinstance(ways, (list, tuple)) else (ways,))]


def own_and_shared(spec: Exercise) -> list[Mutant]:
    """The exercise's own mutants, then the shared step replacements and argument mix-ups."""
    base = spec.mistakes_from or spec.reference
    shared = shared_mutants(base)
    for mistake_id, mutants in argument_mutants(base, spec.returns_tuple).items():
        shared[mistake_id] = [*shared.get(mistake_id, []), *mutants]
    return [*_rows("own", spec.mutants), *_rows("shared", shared)]


def generated(spec: Exercise) -> list[Mutant]:
    """The generated edits of the exercise's ``mistakes_from``, tried after every other row."""
    return _rows("generated", generated_mutants(spec.mistakes_from or spec.reference))


_TABLES: dict[str, tuple[Exercise, tuple[Mutant, ...]]] = {}


def all_mutants(exercise: str) -> tuple[Mutant, ...]:
    """Every mutant of ``exercise``, in the verdict's order: own, shared, generated (made once per
    registered exercise: a test may register another under the same name)."""
    spec = get_exercise(exercise)
    known = _TABLES.get(exercise)
    if known is None or known[0] is not spec:
        known = _TABLES[exercise] = (spec, (*own_and_shared(spec), *generated(spec)))
    return known[1]
