"""Every graded exercise of the course: its reference, its framework and its known mistakes.

One module per notebook (``n01_...``, ``n02_...``) defines a list ``EXERCISES``; modules are found
automatically, so adding a notebook never touches this file. An exercise's ``reference`` is the
solution notebook's own function (:mod:`autograder.key.answers`: each model answer is written once,
in ``solutions/``), called on NumPy arrays; its ``mistakes_from`` and ``mutants`` are NumPy functions
with the same positional signature as the learner's function.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Exercise:
    name: str
    # The model answer: the solution notebook's function, filled in when the exercise is registered
    # (see all_exercises); it takes and returns NumPy arrays.
    reference: Callable | None = None
    framework: str = "numpy"  # what the learner's function receives: numpy, torch or tensorflow
    returns: str = "one array"
    # mistake id -> the reference with that mistake made (a NumPy function, or a list of several
    # ways to make it)
    mutants: dict[str, Callable | list[Callable]] = field(default_factory=dict)
    uses: dict[str, Callable] = field(default_factory=dict)  # learner's earlier answers -> reference
    integers_ok: bool = False  # may the result be an integer array (exact integer answers)?
    # the result's dtype when the exercise text states one ("return a boolean array", "a float32
    # tensor"): every check of the exercise then asks for it, the hidden ones as the visible ones
    dtype: str | None = None
    dtype_hint: str = ""
    returns_tuple: bool = False
    # The NumPy function, made of the shared steps of autograder.key.reference, that the shared
    # mistakes (autograder.key.mistakes: one shared step made wrong) and the argument mix-ups are
    # derived from. It gives the reference's results (tests/test_answer_key.py checks it on every
    # probe) but is not the model answer, which is written only in solutions/.
    mistakes_from: Callable | None = None
    # The reference is called on float64 copies of the inputs, whatever their dtype: the ground
    # truth of an exercise about precision (notebook 03).
    computed_in_float64: bool = False

    def replacements(self) -> dict[str, Callable]:
        """The ``uses`` references, wrapped to take and return this exercise's framework's type."""
        return {name: in_framework(function, self.framework) for name, function in self.uses.items()}


def in_framework(function: Callable, framework: str) -> Callable:
    """Wrap a NumPy function so that it takes and returns ``framework`` arrays."""
    from attention_course.convert import to_framework, to_numpy

    def wrapped(*args, **kwargs):
        arrays = [to_numpy(a) if hasattr(a, "shape") else a for a in args]
        dtypes = [a.dtype for a in arrays if hasattr(a, "dtype") and np.issubdtype(a.dtype, np.floating)]

        def convert(result):
            result = np.asarray(result)
            return to_framework(result.astype(dtypes[0] if dtypes else result.dtype), framework)

        result = function(*arrays, **kwargs)
        if isinstance(result, tuple):  # several arrays (queries, keys, values): convert each
            return tuple(convert(part) for part in result)
        return convert(result)

    wrapped.__name__ = getattr(function, "__name__", "reference")
    return wrapped


# What an exercise whose text says "return a boolean array" asks of a mask's dtype.
BOOLEAN_MASK = {
    "dtype": "bool",
    "dtype_hint": "A 0/1 integer mask is not a boolean one: `~` of the integer 1 is -2, still true, and "
                  "PyTorch adds a float mask to the scores instead of blocking. Compare (`<`, `<=`) or "
                  "use `np.tril(..., dtype=bool)`.",
}

_REGISTRY: dict[str, Exercise] = {}


def merged(*tables: dict) -> dict:
    """An exercise's own mutants from several tables: a mistake's ways from every table, in one list."""
    result: dict = {}
    for table in tables:
        for mistake, ways in table.items():
            result.setdefault(mistake, []).extend(ways if isinstance(ways, list) else [ways])
    return result


def all_exercises() -> dict[str, Exercise]:
    if not _REGISTRY:
        for module in pkgutil.iter_modules(__path__):
            for exercise in importlib.import_module(f"{__name__}.{module.name}").EXERCISES:
                if exercise.name in _REGISTRY:
                    raise ValueError(f"exercise {exercise.name!r} is defined twice")
                if exercise.reference is None:
                    from ..answers import solution_answer

                    exercise.reference = solution_answer(exercise.name, exercise.framework,
                                                         exercise.computed_in_float64)
                _REGISTRY[exercise.name] = exercise
    return _REGISTRY


def get_exercise(name: str) -> Exercise:
    exercises = all_exercises()
    if name not in exercises:
        raise KeyError(f"unknown exercise {name!r}; known: {', '.join(sorted(exercises))}")
    return exercises[name]
