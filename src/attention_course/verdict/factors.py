"""A wrong result that is a simple function of the expected one, read against the exercise's quantities.

The learner's result may be the expected one times a constant; that constant is compared with what
the exercise is made of: its sizes (1/n and n for the tokens, keys or heads, sqrt(d_k), d_k, d_model,
n/(n-1), a ratio of two widths) and plain constants (-1, ln 2, e, 2). A formula explains the factor
only when it gives it on *every* wrong input (each with its own sizes), and gives 1 where the learner
is right: on other sizes a coincidence falls apart. Without a formula, a factor is still reported for
an array (every entry scaled alike), but never for one number, which is always some multiple of
another. The result may also be another function of the expected one: its absolute value, square,
square root or softmax.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .quantities import LAST_AXIS, axis_word, is_count, result_axes, size_word, sizes_or_last_axis
from .tolerances import close_on

_RTOL = 1e-4  # how close a factor must come to a formula's value


@dataclass
class Seen:
    """One probe's evidence: the learner's result, the expected one, and whether they agree."""

    probe: dict
    actual: np.ndarray | None  # None where the learner's function did not return an array
    expected: np.ndarray  # float64
    dtype: np.dtype
    right: bool


@dataclass(frozen=True)
class Formula:
    key: str  # the same formula on every probe (its value changes with the probe's sizes)
    value: Callable[[dict[str, int]], float | None]
    text: Callable[[dict[str, int]], str]  # "1/the number of tokens = 0.1667"
    meaning: str  # what a learner may have done, as a question


def _count_formulas(name: str) -> list[Formula]:
    word = size_word(name)
    things = "its entries" if name == LAST_AXIS else word.removeprefix("the number of ")

    def size(sizes):
        return sizes.get(name) if sizes.get(name, 0) > 1 else None

    return [
        Formula(f"1/{name}", lambda s: 1 / size(s) if size(s) else None, lambda s: f"1/{word} = 1/{s[name]}",
                f"an average (mean) over {things} where a sum is asked, or a division by {word} too many?"),
        Formula(f"{name}", lambda s: float(size(s)) if size(s) else None, lambda s: f"{word} = {s[name]}",
                f"a sum over {things} where an average (mean) is asked, or a division by {word} missing?"),
        Formula(f"{name}/({name}-1)", lambda s: size(s) / (size(s) - 1) if size(s) else None,
                lambda s: f"{s[name]}/{s[name] - 1}, {word} over {word} - 1",
                f"divided by n - 1 where n ({word}) is asked: a sample variance (ddof=1) where the plain one is asked?"),
        Formula(f"({name}-1)/{name}", lambda s: (size(s) - 1) / size(s) if size(s) else None,
                lambda s: f"{s[name] - 1}/{s[name]}, {word} - 1 over {word}",
                f"divided by n ({word}) where n - 1 is asked, or one of {things} left out?"),
    ]


def _width_formulas(name: str) -> list[Formula]:
    def size(sizes):
        return sizes.get(name) if sizes.get(name, 0) > 1 else None

    return [
        Formula(f"sqrt({name})", lambda s: np.sqrt(size(s)) if size(s) else None,
                lambda s: f"sqrt({name}) = sqrt({s[name]})",
                f"the division by sqrt({name}) missing (no scaling), or a multiplication by it where a division belongs?"),
        Formula(f"1/sqrt({name})", lambda s: 1 / np.sqrt(size(s)) if size(s) else None,
                lambda s: f"1/sqrt({name}) = 1/sqrt({s[name]})",
                f"divided by sqrt({name}) once too often (scaled twice, or scaled where no scaling is asked)?"),
        Formula(f"{name}", lambda s: float(size(s)) if size(s) else None, lambda s: f"{name} = {s[name]}",
                f"a division by {name} missing?"),
        Formula(f"1/{name}", lambda s: 1 / size(s) if size(s) else None, lambda s: f"1/{name} = 1/{s[name]}",
                f"divided by {name} once too often?"),
    ]


def _ratio_formulas(used: str, meant: str) -> list[Formula]:
    """Scaled by ``used`` where ``meant`` belongs: the factor is meant/used (or its square root)."""
    def ratio(sizes):
        if sizes.get(used, 0) > 1 and sizes.get(meant, 0) > 1 and sizes[used] != sizes[meant]:
            return sizes[meant] / sizes[used]
        return None

    said_used, said_meant = size_word(used), size_word(meant)
    return [
        Formula(f"sqrt({meant}/{used})", lambda s: np.sqrt(ratio(s)) if ratio(s) else None,
                lambda s: f"sqrt({s[meant]}/{s[used]}), sqrt({said_meant}) over sqrt({said_used})",
                f"divided by sqrt({said_used}) where sqrt({said_meant}) belongs?"),
        Formula(f"{meant}/{used}", lambda s: ratio(s), lambda s: f"{s[meant]}/{s[used]}, {said_meant} over {said_used}",
                f"divided by {said_used} where {said_meant} belongs?"),
    ]


_CONSTANTS = [
    Formula("-1", lambda s: -1.0, lambda s: "-1",
            "the opposite sign everywhere: a minus sign missing or extra, or a difference taken the other way round?"),
    Formula("1/ln2", lambda s: 1 / np.log(2), lambda s: "1/ln 2 = 1.443",
            "a logarithm in base 2 (log2) where the natural logarithm (ln, np.log) is asked?"),
    Formula("ln2", lambda s: np.log(2), lambda s: "ln 2 = 0.6931",
            "the natural logarithm where a logarithm in base 2 is asked?"),
    Formula("1/ln10", lambda s: 1 / np.log(10), lambda s: "1/ln 10 = 0.4343",
            "a logarithm in base 10 (log10) where the natural logarithm (ln, np.log) is asked?"),
    Formula("e", lambda s: np.e, lambda s: "e = 2.718", "one exp() too many?"),
    Formula("1/e", lambda s: 1 / np.e, lambda s: "1/e = 0.3679", "divided by e: one exp() too many?"),
    Formula("2", lambda s: 2.0, lambda s: "2", "twice the expected: a term counted twice?"),
    Formula("1/2", lambda s: 0.5, lambda s: "1/2", "half the expected: a term counted once where twice is asked, "
                                                   "or a division by 2 too many?"),
]


def formulas(sizes: dict[str, int]) -> list[Formula]:
    """Every factor this exercise's quantities suggest, plain constants last."""
    named = [name for name, size in sizes.items() if size > 1]
    found: list[Formula] = []
    for name in named:
        found += _count_formulas(name) if is_count(name) else _width_formulas(name)
    for used in named:
        for meant in named:
            if used != meant and not is_count(used) and not is_count(meant):
                found += _ratio_formulas(used, meant)
    return found + _CONSTANTS


def _entries(sizes: dict[str, int]) -> dict[str, int]:
    """The sizes, with the number of entries of a score matrix where the exercise has one."""
    if "n_queries" in sizes and "n_keys" in sizes:
        return {**sizes, "n_entries": sizes["n_queries"] * sizes["n_keys"]}
    return sizes


def factor_of(actual: np.ndarray, expected: np.ndarray) -> float | None:
    """c when ``actual`` is c times ``expected`` everywhere (c != 1), else None."""
    if actual.shape != expected.shape or not actual.size:
        return None
    a, e = actual.astype(np.float64), expected.astype(np.float64)
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(e))):
        return None
    norm = float(np.sum(e * e))
    if norm <= 0:
        return None
    c = float(np.sum(a * e) / norm)
    if abs(c - 1) <= 1e-3 or not np.allclose(a, c * e, 1e-5, 1e-7 * _scale(a, e)):
        return None
    return c


def _scale(*arrays: np.ndarray) -> float:
    """The largest magnitude among the arrays: absolute tolerances are relative to it (a float32
    roundoff is 1e-8, and any absolute tolerance would take every such result for any other)."""
    return max(float(np.abs(a).max()) if a.size else 0.0 for a in arrays) or 1.0


def _refuted_by(formula: Formula, sign: float, exercise: str, seen: Seen) -> bool:
    """The learner is right on this probe, where the formula would have made the result wrong, as
    this probe is judged (a result of zeros is right whatever its factor, and one judged loosely
    may be right with a factor that shows elsewhere)."""
    value = formula.value(_entries(sizes_or_last_axis(exercise, seen.probe)))
    if value is None:
        return False
    return not close_on(seen.probe, sign * value * seen.expected, seen.expected, seen.dtype)


def _close(c: float, value: float | None) -> bool:
    return value is not None and abs(c - value) <= _RTOL * abs(value)


# A factor that depends on the expected values themselves: the result normalised by one of these.
_NORMALISED = {
    "the sum of the expected entries": "divided by its sum (normalised) where the raw values are asked, or a "
                                       "division by the sum in place of a softmax?",
    "the largest expected entry": "divided by its maximum (normalised) where the raw values are asked?",
    "the expected result's norm": "divided by its length (normalised to a unit vector) where the raw values "
                                  "are asked?",
}


def _normalised_by(finite: list[Seen], factors: list[float]) -> str | None:
    """Which statistic of the expected result the factor is one over, on every wrong input, if any."""
    statistics = {"the sum of the expected entries": lambda e: float(e.sum()),
                  "the largest expected entry": lambda e: float(e.max()),
                  "the expected result's norm": lambda e: float(np.linalg.norm(e))}
    for name, statistic in statistics.items():
        if all(statistic(seen.expected) and _close(f, 1 / statistic(seen.expected))
               for seen, f in zip(finite, factors, strict=True)):
            return name
    return None


def explain_factor(exercise: str, wrong: list[Seen], right: list[Seen], formula_only: bool = False,
                   said: tuple[str, str] | None = None) -> str | None:
    """The constant factor between the learner's results and the expected ones, said in the
    exercise's terms (see the module's docstring); None when there is no constant factor, or, with
    ``formula_only``, when no quantity of the exercise gives it. ``said``: what is scaled and what it is
    compared with, where that is not the result itself."""
    shown = wrong[0]
    finite = [seen for seen in wrong if seen.actual is not None and np.all(np.isfinite(seen.actual))]
    if not finite or finite[0] is not shown:
        return None
    # where a result overflows, its factor cannot be read: the finite ones must all agree
    factors = [factor_of(seen.actual, seen.expected) for seen in finite]
    if any(f is None for f in factors):
        return None
    sizes = [_entries(sizes_or_last_axis(exercise, seen.probe)) for seen in finite]
    matching: list[tuple[Formula, float]] = []  # a formula, and the sign it is off by
    for formula in formulas(sizes[0]):
        values = [formula.value(s) for s in sizes]
        if any(v is None or not _close(abs(f), abs(v)) for f, v in zip(factors, values, strict=True)):
            continue
        signs = {float(np.sign(f) * np.sign(v)) for f, v in zip(factors, values, strict=True)}
        if len(signs) != 1:
            continue
        sign = signs.pop()
        if not any(_refuted_by(formula, sign, exercise, seen) for seen in right):
            matching.append((formula, sign))
    c = factors[0]
    scalar = shown.expected.ndim == 0 or shown.expected.size == 1
    what, of = said or ("your result is" if scalar else "every entry is", "the expected one")
    if not matching and formula_only:
        return None
    if not matching:
        normalised = None if scalar or said else _normalised_by(finite, factors)
        if normalised:
            return f"{what} {c:.4g} times {of}, which is 1/{normalised}: {_NORMALISED[normalised]}"
        constant = len(factors) > 1 and all(abs(f - c) <= _RTOL * abs(c) for f in factors)
        if scalar and not constant:
            return None  # one number is always some multiple of another: no evidence of a factor
        return f"{what} {c:.4g} times {of}: a constant factor is off."
    sayings, meanings = [], []
    for formula, sign in matching[:2]:
        minus = "-" if sign < 0 and formula.key != "-1" else ""
        sayings.append(f"{minus}{formula.text(sizes[0])}")
        meanings.append(("the opposite sign, and " if minus else "") + formula.meaning)
    return f"{what} {c:.4g} times {of} ({'; or '.join(sayings)}): {' Or '.join(meanings)}"


def _centred_logs(weights: np.ndarray) -> np.ndarray:
    """The scores behind softmax weights, up to each row's constant: log p minus its row's mean."""
    logs = np.log(weights.astype(np.float64))
    return logs - logs.mean(axis=-1, keepdims=True)


def _all_weights(values: np.ndarray) -> bool:
    return bool(values.ndim and values.shape[-1] > 1 and np.all(values > 0)
                and np.allclose(values.sum(axis=-1), 1.0, 1e-4, 1e-5))


def explain_temperature(exercise: str, wrong: list[Seen], right: list[Seen]) -> str | None:
    """Weights that are the softmax of the expected scores times a constant: the scores behind both
    (log p, up to each row's constant) compared as :func:`explain_factor` compares results, so that
    a scaling missing, doubled or by another size shows in weights too."""
    def behind(seen: Seen) -> Seen | None:
        if seen.actual is None or seen.actual.shape != seen.expected.shape or not (
                _all_weights(seen.actual) and _all_weights(seen.expected)):
            return None
        return Seen(seen.probe, _centred_logs(seen.actual), _centred_logs(seen.expected), seen.dtype, seen.right)

    scores = [behind(seen) for seen in wrong]
    if not scores or any(s is None for s in scores):
        return None
    known = [s for s in (behind(seen) for seen in right) if s is not None]
    return explain_factor(exercise, scores, known, formula_only=True,
                          said=("your weights are the softmax of scores", "the expected scores"))


# other functions of the expected result a slip gives, and what they say (written inline: a module-level
# softmax would be a function of the learner's package that answers a graded exercise)
_FUNCTIONS: list[tuple[Callable[[np.ndarray], np.ndarray], str]] = [
    (np.abs, "your result is the absolute value of the expected one: right in size, but the sign is lost where "
             "the expected one is negative (an abs() too many, or a signed difference taken as a distance?)."),
    (np.square, "your result is the square of the expected one (a variance where a standard deviation is "
                "asked, or a squared norm where the norm is asked?)."),
    (lambda e: np.sqrt(np.abs(e)), "your result is the square root of the expected one (a standard deviation "
                                    "where a variance is asked, or a norm where its square is asked?)."),
    (lambda e: np.exp(e - e.max(axis=-1, keepdims=True)) / np.exp(e - e.max(axis=-1, keepdims=True)).sum(
        axis=-1, keepdims=True),
     "your result is the softmax of the expected one, over the last axis: weights where scores are asked (a "
     "softmax too many)?"),
    (lambda e: e / e.sum(axis=-1, keepdims=True),
     "your result is the expected one with each row divided by its sum (normalised): a division by the sum "
     "where the raw values are asked, or in place of a softmax?"),
]


def explain_function(wrong: list[Seen]) -> str | None:
    """The learner's results as one function of the expected ones on every wrong input, if any."""
    seen = [s for s in wrong if s.actual is not None and s.actual.shape == s.expected.shape and s.actual.size > 1
            and np.all(np.isfinite(s.actual)) and np.all(np.isfinite(s.expected))]
    if not seen or len(seen) < len([s for s in wrong if s.actual is not None]):
        return None
    for function, text in _FUNCTIONS:
        with np.errstate(all="ignore"):
            if all(np.allclose(s.actual.astype(np.float64), function(s.expected), 1e-4,
                               1e-7 * _scale(s.actual, s.expected)) for s in seen):
                return text
    return None


def explain_offset(wrong: list[Seen]) -> str | None:
    """Every entry off by one amount, or each row by its own: a shift the expected result does not have."""
    seen = [s for s in wrong if s.actual is not None]
    if not seen or any(s.actual.shape != s.expected.shape or s.actual.size < 2 or not np.all(np.isfinite(s.actual))
                       for s in seen):
        return None
    differences = [s.actual.astype(np.float64) - s.expected for s in seen]
    scale = max(_scale(s.expected) for s in seen)
    if all(np.allclose(d, d.flat[0], 0, 1e-6 * scale) for d in differences):
        return (f"every entry is off by the same amount ({differences[0].flat[0]:+.4g}): a constant added or "
                "subtracted that does not belong?")
    if seen[0].actual.ndim >= 2 and seen[0].actual.shape[-1] > 1 and all(
            np.allclose(d, d[..., :1], 0, 1e-6 * scale) for d in differences):
        return ("each row is off by an amount of its own, the same across the row: a shift per row (its maximum, "
                "mean or log-sum) added or subtracted where none belongs?")
    return None


def _slice_factors(actual: np.ndarray, expected: np.ndarray, axis: int) -> np.ndarray | None:
    """Each slice's own factor along ``axis`` when every slice is a multiple of the expected slice."""
    a, e = np.moveaxis(actual.astype(np.float64), axis, 0), np.moveaxis(expected, axis, 0)
    factors = []
    for mine, theirs in zip(a, e, strict=True):
        norm = float(np.sum(theirs * theirs))
        if norm <= 0:
            return None
        c = float(np.sum(mine * theirs) / norm)
        if not np.allclose(mine, c * theirs, 1e-5, 1e-7 * _scale(mine, theirs)):
            return None
        factors.append(c)
    return np.array(factors)


def explain_slice_factors(exercise: str, meta: dict, shown: Seen) -> str | None:
    """Each slice along one axis off by a factor of its own, compared with the entries of an input
    of that length raised to a power (the widths of a sweep, to the power the exercise is given)."""
    actual, expected = shown.actual, shown.expected
    if actual is None or actual.shape != expected.shape or actual.ndim < 2 or not np.all(np.isfinite(actual)):
        return None
    numbers = [float(v) for v in shown.probe["inputs"] if not np.shape(v) and isinstance(v, (int, float, np.number))
               and not isinstance(v, bool)]
    powers = sorted({1.0, -1.0, 2.0, -2.0, 0.5, -0.5, *(k * p for p in numbers if p for k in (1, -1, 2, -2))})
    names = result_axes(meta.get("returns", ""), actual.ndim)
    for axis in range(actual.ndim):
        factors = _slice_factors(actual, expected, axis) if actual.shape[axis] > 1 else None
        if factors is None or np.allclose(factors, factors[0], 1e-4):
            continue
        name = f" ({names[axis]})" if names and not names[axis].isdigit() else ""
        word = axis_word(meta.get("framework", "numpy"))
        off = ~np.isclose(factors, 1.0, 1e-4)
        if not off.all() and np.allclose(factors[off], factors[off][0], 1e-4):
            told = _one_slice_off(exercise, shown, factors[off][0], [int(i) for i in np.flatnonzero(off)],
                                  f"{word} {axis}{name}")
            if told:
                return told
        said = ", ".join(f"{c:.4g}" for c in factors)
        told = f"each slice along {word} {axis}{name} is its own multiple of the expected one ({said})"
        for value in shown.probe["inputs"]:
            if not (isinstance(value, np.ndarray) and value.shape == (actual.shape[axis],) and np.all(value > 0)):
                continue
            for k in powers:
                if np.allclose(factors, value.astype(np.float64) ** k, 1e-4):
                    doubled = any(abs(k) == abs(2 * p) for p in numbers if p)
                    why = (" a multiplication where a division is asked (or the other way round)?" if doubled else
                           " a division by it missing, or one too many?")
                    return f"{told}: the entries of the input {value.tolist()} to the power {k:g}:{why}"
        return told + "."
    return None


def _one_slice_off(exercise: str, shown: Seen, c: float, indices: list[int], along: str) -> str | None:
    """Some slices right and the others off by one factor that a quantity of the exercise gives."""
    sizes = _entries(sizes_or_last_axis(exercise, shown.probe))
    for formula in formulas(sizes):
        value = formula.value(sizes)
        if value is not None and _close(c, value):
            which = f"index {indices[0]}" if len(indices) == 1 else f"indices {', '.join(map(str, indices))}"
            return (f"along {along}, {which} is {c:.4g} times the expected one ({formula.text(sizes)}) and the rest "
                    f"is right: {formula.meaning}")
    return None
