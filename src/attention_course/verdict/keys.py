"""Keys: per probe, the expected result and each catalogued mistake's result.

The learner's package holds a :class:`StoredKey` of the notebooks' own visible inputs, precomputed
by the build; the grader uses ``autograder.key.ComputedKey``, which runs the references and mutants
on the grading side, out of the learner's reach.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from .. import expected


class Key:
    """What the verdict needs to know about exercises: their description, and per probe the answer.

    ``analyse`` returns ``{"expected": array | None, "expected_error": str | None, "mutants":
    [{"mistake": id, "value": array | None, "error": str | None}, ...]}`` for one probe.
    """

    def meta(self, exercise: str) -> dict:
        raise NotImplementedError

    def analyse(self, exercise: str, probe: dict) -> dict:
        raise NotImplementedError

    def standins(self, exercise: str) -> dict[str, Callable]:
        """Replacements for the learner's earlier answers this exercise may call (none here)."""
        return {}


def same_probe(a: dict, b: dict) -> bool:
    """True when two probes have equal kwargs and inputs of equal shape and (nearly) equal values."""
    if a["kwargs"] != b["kwargs"] or len(a["inputs"]) != len(b["inputs"]):
        return False
    for x, y in zip(a["inputs"], b["inputs"], strict=True):
        if isinstance(x, np.ndarray) != isinstance(y, np.ndarray):
            return False
        if isinstance(x, np.ndarray):
            if x.shape != y.shape or x.dtype != y.dtype:
                return False
            if not np.allclose(x.astype(np.float64), y.astype(np.float64), rtol=1e-5, atol=1e-6, equal_nan=True):
                return False
        elif x != y:
            return False
    return True


class StoredKey(Key):
    """The answers for the notebooks' own visible inputs, precomputed by the build (``expected/``).

    It holds no reference code: only, for each input a visible check uses, the expected result and
    each catalogued mistake's result (see :mod:`attention_course.expected`).
    """

    def __init__(self, folder: Path | None = None):
        self.folder = folder or expected.FOLDER

    def _exercise(self, exercise: str) -> dict | None:
        return expected.exercise(exercise, self.folder)

    def knows(self, exercise: str) -> bool:
        return self._exercise(exercise) is not None

    def meta(self, exercise: str) -> dict:
        stored = self._exercise(exercise)
        if stored is None:
            raise KeyError(f"no stored data for exercise {exercise!r}")
        return stored["meta"]

    def analyse(self, exercise: str, probe: dict) -> dict:
        for case in (self._exercise(exercise) or {}).get("probes", []):
            if same_probe(case["probe"], probe):
                return case["analysis"]
        raise LookupError(exercise)
