"""An exercise's own quantities, read off a probe: its sizes by name, and words for them.

The symptoms and error explanations speak in these terms ("1/the number of tokens", "4 (d_model)",
"axis 0, the tokens"), never in the probe's bare numbers alone. The names come from the exercise's
contract (:data:`attention_course.contracts.CONTRACTS`) and from the shape its text gives the result
(the exercise's ``returns``, e.g. "an array of shape (..., heads, tokens, d_head)").
"""

from __future__ import annotations

import re

import numpy as np

from ..contracts import CONTRACTS, parse_spec

# how a size is said in a sentence; a name not listed is said as it is written in the exercise
SIZE_WORDS = {"tokens": "the tokens", "n_tokens": "the tokens", "n_keys": "the keys", "n_queries": "the queries",
              "n_states": "the states", "n_new": "the new tokens", "n_cached": "the cached tokens",
              "batch": "the batch", "heads": "the heads", "n_widths": "the widths", "n": "the entries",
              "n_positions": "the positions", "n_entries": "the entries"}


# one of a count's things, for "one value per query"
_ONE = {"tokens": "token", "n_tokens": "token", "n_keys": "key", "n_queries": "query", "n_states": "state",
        "n_new": "new token", "n_cached": "cached token", "batch": "sequence of the batch", "heads": "head",
        "n_widths": "width", "n": "entry", "n_positions": "position", "n_entries": "entry"}


def one_of(name: str) -> str:
    """``query`` for n_queries, ``feature of d_v`` for a width: one of what a size counts."""
    return _ONE.get(name, f"feature of {name}" if not is_count(name) else name)


# the size an exercise without a contract is read against: its first input's last axis
LAST_AXIS = "n_last"


def size_word(name: str) -> str:
    """``the number of tokens`` for a count, ``d_k`` for a width."""
    if name == LAST_AXIS:
        return "n, the length of the input's last axis"
    word = SIZE_WORDS.get(name)
    return f"the number of {word[4:]}" if word else name


def sizes_or_last_axis(exercise: str, probe: dict) -> dict[str, int]:
    """:func:`sizes_of`, or for an exercise without a contract the length of its first array input's
    last axis (the tokens of a weight matrix, say), which is all its shapes tell for sure."""
    sizes = sizes_of(exercise, probe)
    if sizes or exercise in CONTRACTS:
        return sizes
    arrays = [v for v in probe["inputs"] if isinstance(v, np.ndarray) and v.ndim]
    return {LAST_AXIS: int(arrays[0].shape[-1])} if arrays else {}


def is_count(name: str) -> bool:
    """A count of things (tokens, keys, heads, a batch), not a width of vectors (d_k, d_model)."""
    return not name.startswith("d")


def sizes_of(exercise: str, probe: dict) -> dict[str, int]:
    """Every named size of a probe's inputs, by the exercise's contract (a number of heads included)."""
    sizes: dict[str, int] = {}
    for spec, value in zip(CONTRACTS.get(exercise, ()), probe["inputs"], strict=False):
        if spec.startswith("=") and not np.shape(value):
            sizes.setdefault(spec[1:], int(value))
        elif spec == "int" and not np.shape(value):
            sizes.setdefault("d_k", int(value))  # scale_scores_tf(scores, d_k) and the like
        elif spec == "heads" and not np.shape(value):
            sizes.setdefault("heads", int(value))
        elif spec != "float" and "<=" not in spec:
            broadcastable, _, names = parse_spec(spec)
            shape = np.shape(value)[len(np.shape(value)) - len(names):] if len(np.shape(value)) >= len(names) else ()
            for name, size in zip(names, shape, strict=False):
                if not broadcastable:
                    sizes.setdefault(name, int(size))
    projected = next((n for n in ("d_k", "d_model") if n in sizes), None)  # what heads split
    if "heads" in sizes and projected and "d_head" not in sizes and sizes[projected] % max(1, sizes["heads"]) == 0:
        sizes["d_head"] = sizes[projected] // max(1, sizes["heads"])
    return sizes


def names_of(number: int, sizes: dict[str, int]) -> list[str]:
    """The sizes equal to ``number`` (a number can be several: 3 tokens and d_k = 3)."""
    return [name for name, size in sizes.items() if size == number]


def said(number: int, sizes: dict[str, int]) -> str:
    """``4 (d_model)``, ``3 (the number of tokens or d_k)``, or ``5`` when no size is 5."""
    names = names_of(number, sizes)
    return f"{number} ({' or '.join(size_word(n) for n in names)})" if names else str(number)


def result_axes(returns: str, ndim: int) -> list[str] | None:
    """The names of the result's axes, from the shape the exercise text gives it, aligned from the
    end (``(..., heads, tokens, d_head)`` names the last three axes); None where it gives none."""
    shapes = re.findall(r"\(([^()]*)\)", returns or "")
    for inside in reversed(shapes):
        parts = [p.strip() for p in inside.split(",") if p.strip()]
        if not parts or not all(re.fullmatch(r"\.\.\.|\w+( \* \w+)?", p) for p in parts):
            continue
        batched = parts[0] == "..."
        names = parts[1:] if batched else parts
        if len(names) > ndim or (not batched and len(names) != ndim):
            continue
        return ["a batch axis"] * (ndim - len(names)) + names
    return None


def axis_word(framework: str) -> str:
    """``dim`` in PyTorch, ``axis`` elsewhere."""
    return "dim" if framework == "torch" else "axis"
