"""A result of the wrong shape, explained with the exercise's axes.

The learner's result is compared with the expected one as an arrangement of the same numbers (the
axes in another order, flattened, an axis of length 1 missing or added, arrays joined along an
existing axis instead of a new one) and, where the numbers differ too, as a reduction over the wrong
axis, a reduction missing or one too many. Axes are named by the shape the exercise's text gives the
result, or else by the sizes of the exercise they equal.
"""

from __future__ import annotations

import itertools

import numpy as np

from ..contracts import CONTRACTS, parse_spec
from .quantities import axis_word, is_count, names_of, one_of, result_axes, size_word, sizes_of
from .tolerances import close

_MOST_AXES = 5  # permutations of up to this many axes are tried (120)


def _axis_names(shape: tuple, sizes: dict[str, int], named: list[str] | None) -> list[str]:
    """A name for each axis of ``shape``: the exercise's own, or the sizes it equals."""
    if named is not None and len(named) == len(shape):
        return named
    names = []
    for size in shape:
        found = names_of(size, sizes)
        names.append(" or ".join(found) if found else str(size))
    return names


def _said_shape(names: list[str]) -> str:
    return f"({', '.join(names)}{',' if len(names) == 1 else ''})"


def _permutation(actual: np.ndarray, expected: np.ndarray, dtype) -> tuple[int, ...] | None:
    """The order of axes that turns ``expected`` into ``actual``, if one does (not the identity)."""
    if actual.ndim != expected.ndim or actual.ndim > _MOST_AXES or sorted(actual.shape) != sorted(expected.shape):
        return None
    for order in itertools.permutations(range(actual.ndim)):
        if order == tuple(range(actual.ndim)) or tuple(expected.shape[i] for i in order) != actual.shape:
            continue
        if close(actual, np.transpose(expected, order), dtype):
            return order
    return None


def _code(axis: int, ndim: int) -> str:
    """An axis as code would write it: the last one as -1."""
    return "-1" if axis == ndim - 1 and ndim > 1 else str(axis)


def _move(order: tuple[int, ...]) -> tuple[int, int] | None:
    """(from, to) when ``order`` moves one axis and keeps the others in order (np.moveaxis)."""
    ndim = len(order)
    for source in range(ndim):
        rest = [i for i in range(ndim) if i != source]
        for target in range(ndim):
            if target != source and tuple(rest[:target] + [source] + rest[target:]) == order:
                return source, target
    return None


def _describe_permutation(order: tuple[int, ...], names: list[str], framework: str) -> str:
    ndim = len(order)
    moved = [i for i in range(ndim) if order[i] != i]
    mine = [names[i] for i in order]
    word = axis_word(framework)
    move = _move(order) if len(moved) > 2 else None
    if move:
        source, target = move
        how = (f"the axis of {names[source]} is at {word} {target} where {word} {source} is asked: stacked (or "
               f"moved) along {word}={_code(target, ndim)} where {word}={_code(source, ndim)} belongs, or the wrong axes "
               f"swapped (which axes does a transpose or swapaxes move)?")
    elif order == tuple(reversed(range(ndim))) and ndim > 2:
        how = ("every axis reversed, as .T (or a transpose without axes) does on more than two axes: swap only "
               "the axes that need it (swapaxes)")
    elif len(moved) == 2:
        i, j = moved
        how = (f"axes {i} and {j} ({names[i]} and {names[j]}) swapped: were they transposed, or stacked along "
               f"the wrong {axis_word(framework)}?")
    else:
        how = (f"the axes in another order: is an axis moved, or the right numbers stacked along another "
               f"{axis_word(framework)}?")
    if any(name == "a batch axis" for name in names) and 0 in moved:
        how += (" The leading (batch) axes must stay in front: count the axes you move from the end (negative "
                "axes such as -1, -2, -3), so that any number of leading axes works")
    return f"the right numbers, but with {_said_shape(mine)} where {_said_shape(names)} is asked: {how.rstrip('.')}" + (
        "" if how.endswith("?") else ".")


def _rearranged(actual: np.ndarray, expected: np.ndarray, names: list[str], framework: str, dtype) -> str | None:
    """The same numbers in the same order with another shape: flattened, an axis of 1 missing or extra,
    or two axes merged (joined along an existing axis where a new one is asked)."""
    if actual.size != expected.size or not close(actual.reshape(expected.shape), expected, dtype):
        return None
    ones_expected = tuple(s for s in expected.shape if s != 1)
    ones_actual = tuple(s for s in actual.shape if s != 1)
    shape = f"shape {actual.shape} where {expected.shape} {_said_shape(names)} is asked"
    if ones_actual == ones_expected and actual.ndim < expected.ndim:
        missing = [names[i] for i, s in enumerate(expected.shape) if s == 1]
        return (f"the right numbers, but {shape}: the axis of length 1 ({', '.join(missing)}) is missing; add it "
                "(np.newaxis, None in the index, or keepdims=True) so that the result broadcasts as the text asks.")
    if ones_actual == ones_expected and expected.ndim == 0:
        return (f"the right number, but {shape}: an array of one entry where a scalar, one plain number, is "
                "asked (take it out with float(...) or .item(), or reduce without keepdims=True).")
    if ones_actual == ones_expected:
        return (f"the right numbers, but {shape}: an extra axis of length 1 (keepdims=True, or an index that "
                "keeps an axis, where none is asked?).")
    if actual.ndim == 1:
        return (f"the right numbers in the right order, but flattened into one axis ({shape}): keep the axes (a "
                f"repeat, concatenate or ravel without an {axis_word(framework)} flattens).")
    if actual.ndim < expected.ndim:
        return (f"the right numbers in the right order, but {shape}: arrays joined along an existing "
                f"{axis_word(framework)} where a new one is asked (stack, not concatenate)?")
    return f"the right numbers in the right order, but {shape}: a reshape where the text asks for another shape?"


def _reduced(actual: np.ndarray, expected: np.ndarray, sizes: dict[str, int], names: list[str],
             framework: str, inputs: list) -> str | None:
    """A reduction missing, one too many, or over the wrong axis (the result keeps another axis)."""
    word = axis_word(framework)
    a_shape, e_shape = actual.shape, expected.shape
    shapes = f"the result has shape {a_shape} but should have shape {e_shape}"
    if actual.ndim == expected.ndim + 1:
        for i in range(actual.ndim):
            if a_shape[:i] + a_shape[i + 1:] == e_shape:
                kept = " or ".join(_things(n) for n in names_of(a_shape[i], sizes)) or f"an axis of {a_shape[i]}"
                return (f"{shapes}: it still has an axis of {a_shape[i]}, {kept} ({word}={_code(i, actual.ndim)}): "
                        f"is the sum over {kept} ({word}={_code(i, actual.ndim)}) missing?")
    if actual.ndim + 1 == expected.ndim:
        for i in range(expected.ndim):
            if e_shape[:i] + e_shape[i + 1:] == a_shape:
                lost = _one(names[i], e_shape[i], sizes)
                row = " (one per row of the input)" if _rows_of(e_shape[i], [v for v, _ in inputs]) and is_count(
                    names[i]) else ""
                if actual.ndim == 0:
                    shapes += f", one number (a scalar) where a vector of {e_shape[0]} values is asked"
                return (f"{shapes}: one value per {lost}{row} is asked, and yours has no such axis: computed over "
                        f"everything at once, where each {lost} needs its own (a reduction over {word} {i} too "
                        f"many, or a loop that ran once)?")
    if actual.ndim == expected.ndim:
        for value, axes in inputs:
            if value.ndim != actual.ndim + 1:
                continue
            dropped = [i for i in range(value.ndim) if value.shape[:i] + value.shape[i + 1:] == a_shape]
            meant = [j for j in range(value.ndim) if value.shape[:j] + value.shape[j + 1:] == e_shape]
            if dropped and meant and not set(dropped) & set(meant):
                i, j = dropped[0], meant[0]
                said_j = f"{word}={j}" + (f" ({word}=-1)" if j == value.ndim - 1 and j else "")
                return (f"{shapes}: a sum (or other reduction) over {word}={i}{_axis_of(axes, i)} where one over "
                        f"{said_j}{_axis_of(axes, j)} is asked?")
        differ = [i for i in range(actual.ndim) if a_shape[i] != e_shape[i]]
        if len(differ) == 1:
            i = differ[0]
            mine = " or ".join(names_of(a_shape[i], sizes))
            if mine:
                return (f"{shapes}: {word} {i} has {a_shape[i]} entries ({mine}) where {e_shape[i]} "
                        f"({names[i]}) are asked: was a sum (or a product) taken over the wrong {word}, keeping "
                        f"{mine} instead of {names[i]}?")
    return None


def _things(name: str) -> str:
    """``the tokens`` for a count, ``d_k`` for a width."""
    word = size_word(name)
    return f"the {word[len('the number of '):]}" if word.startswith("the number of ") else word


def _axis_of(axes: list[str] | None, axis: int) -> str:
    """`` (the tokens)``: what an input's axis holds, where the exercise names it."""
    return f" ({_things(axes[axis])})" if axes and axes[axis] != "..." else ""


def _input_axes(exercise: str, probe: dict) -> list[tuple[np.ndarray, list[str] | None]]:
    """Each array input, with the names of all its axes where its contract gives them."""
    found = []
    specs = list(CONTRACTS.get(exercise, ()))
    for position, value in enumerate(probe["inputs"]):
        if not (isinstance(value, np.ndarray) and value.ndim):
            continue
        spec = specs[position] if position < len(specs) else ""
        names = None
        if spec and spec not in ("int", "float", "heads") and "<=" not in spec and not spec.startswith("="):
            _, batched, named = parse_spec(spec)
            lead = value.ndim - len(named)
            if lead >= 0 and (batched or lead == 0):
                names = ["..."] * lead + named
        found.append((value, names))
    return found


def _one(name: str, size: int, sizes: dict[str, int]) -> str:
    """One of what an axis counts (``query``), by its name or else by the sizes it equals."""
    if name in sizes or name in ("tokens", "heads", "batch"):
        return one_of(name)
    found = names_of(size, sizes)
    return one_of(found[0]) if len(found) == 1 else name


def _rows_of(size: int, inputs: list) -> bool:
    """Some input has rows of that number (its second-to-last axis)."""
    return any(isinstance(v, np.ndarray) and v.ndim >= 2 and v.shape[-2] == size for v in inputs)


def explain_shape(exercise: str, meta: dict, actual: np.ndarray, expected: np.ndarray, probe: dict, dtype) -> str:
    """Why ``actual`` has another shape than ``expected``, as precisely as the numbers allow."""
    framework = meta.get("framework", "numpy")
    sizes = sizes_of(exercise, probe)
    names = _axis_names(expected.shape, sizes, result_axes(meta.get("returns", ""), expected.ndim))
    if actual.ndim >= 2 and actual.shape == expected.shape[:-2] + expected.shape[-1:] + expected.shape[-2:-1]:
        if close(np.swapaxes(actual, -1, -2), expected, dtype):
            return f"the result is the transpose of the expected one (shape {actual.shape}, not {expected.shape})."
    order = _permutation(actual, expected, dtype)
    if order is not None:
        return _describe_permutation(order, names, framework)
    told = _rearranged(actual, expected, names, framework, dtype) or _reduced(
        actual, expected, sizes, names, framework, _input_axes(exercise, probe))
    if told:
        return told
    if actual.size == expected.size and actual.ndim == 1 and expected.ndim > 1:
        return (f"the result is 1-d ({actual.size} entries) but should have shape {expected.shape} "
                f"{_said_shape(names)}: flattened (np.repeat, np.concatenate or a reshape without an "
                f"{axis_word(framework)} flattens its input)?")
    if actual.size == expected.size and np.array_equal(np.sort(actual, axis=None), np.sort(expected, axis=None)):
        return (f"the result has shape {actual.shape} but should have shape {expected.shape} "
                f"{_said_shape(names)}: the right values, arranged otherwise (repeated, stacked or joined along "
                f"another {axis_word(framework)}?).")
    if actual.size == expected.size:
        return (f"the result has shape {actual.shape} but should have shape {expected.shape} "
                f"{_said_shape(names)}, with other numbers too.")
    return f"the result has shape {actual.shape} but should have shape {expected.shape} {_said_shape(names)}."


def explain_same_shape_permutation(meta: dict, actual: np.ndarray, expected: np.ndarray, exercise: str, probe: dict,
                                   dtype) -> str | None:
    """The right numbers with two axes of equal size exchanged (the shape alone cannot show it)."""
    order = _permutation(actual, expected, dtype)
    if order is None:
        return None
    names = _axis_names(expected.shape, sizes_of(exercise, probe), result_axes(meta.get("returns", ""),
                                                                                expected.ndim))
    return _describe_permutation(order, names, meta.get("framework", "numpy"))
