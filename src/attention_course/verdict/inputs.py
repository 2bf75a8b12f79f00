"""What the inputs a wrong answer is right on have in common, in words.

A function right on some probes and wrong on others often works only for a special kind of input:
square (two sizes equal), one head, no batch axis, no padding, nothing masked, positions counted from
0, a symmetric matrix, no negative values. Each such property is checked on every probe; those that
hold on every input the learner is right on and on none they are wrong on are said.
"""

from __future__ import annotations

import itertools

import numpy as np

from ..contracts import CONTRACTS, parse_spec
from .quantities import sizes_of


def _said_equal(first: str, second: str) -> str:
    return f"{first} = {second}"


def properties(exercise: str, probe: dict) -> dict[str, bool]:
    """Each property a learner's code may silently rely on, and whether ``probe`` has it."""
    sizes = sizes_of(exercise, probe)
    found: dict[str, bool] = {}
    for first, second in itertools.combinations(sizes, 2):
        if {first, second} != {"d_head", "heads"}:
            found[_said_equal(first, second)] = sizes[first] == sizes[second]
    if "heads" in sizes:
        found["one head"] = sizes["heads"] == 1
    leading: list[tuple[int, ...]] = []
    for spec, value in zip(CONTRACTS.get(exercise, ()), probe["inputs"], strict=False):
        if not isinstance(value, np.ndarray) or not value.ndim:
            continue
        _, batched, names = parse_spec(spec) if spec not in ("int", "float", "heads") and "<=" not in spec \
            else (False, False, [])
        if batched and not spec.startswith("~"):
            leading.append(value.shape[:value.ndim - len(names)])
        if spec.startswith("%"):
            found["no padding"] = bool(np.all(value == 1))
        elif spec.startswith("~") and value.dtype == bool:
            found["nothing masked"] = bool(np.all(value))
        elif spec.startswith("#"):
            found["positions 0, 1, 2, ... in order"] = bool(np.array_equal(value, np.arange(value.shape[-1])))
        elif np.issubdtype(value.dtype, np.floating):
            if value.ndim >= 2 and value.shape[-1] == value.shape[-2]:
                found["a symmetric input"] = found.get("a symmetric input", True) and bool(
                    np.allclose(value, np.swapaxes(value, -1, -2)))
            found["no negative values"] = found.get("no negative values", True) and bool(np.all(value >= 0))
    if leading:
        found["no batch axis"] = all(not shape for shape in leading)
        found["a batch of one"] = all(int(np.prod(shape)) == 1 for shape in leading) and any(leading)
    return found


def what_they_share(exercise: str, right: list[dict], wrong: list[dict]) -> list[str]:
    """The properties every probe in ``right`` has and no probe in ``wrong`` has."""
    if not right or not wrong:
        return []
    held = [properties(exercise, probe) for probe in right]
    lacked = [properties(exercise, probe) for probe in wrong]
    return [name for name in held[0]
            if all(p.get(name) for p in held) and not any(p.get(name, True) for p in lacked)]
