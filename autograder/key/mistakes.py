"""Catalogued mistakes defined once, as wrong versions of the shared steps of :mod:`.reference`.

A *transformation* replaces one step of the reference module (``softmax``, ``dot_products``,
``key_scale``, ...) by a version with one mistake made. Running an exercise's reference while the
step is replaced gives that mistake's result for the exercise: every exercise whose reference takes
the step picks the mistake up, in every notebook, without listing it (a new notebook's exercises
too, as long as their references call the shared steps through ``reference``). An exercise's own
``mutants`` (in ``exercises/``) add the mistakes that are particular to it.

The replacement is made in the module's namespace, for the duration of one call, under a lock: the
grader computes analyses from several threads.
"""

from __future__ import annotations

import contextlib
import inspect
import itertools
import threading
from collections.abc import Callable

import numpy as np

from attention_course.verdict.slips import SLIPS

from . import reference as ref
from .mutants import (
    combine_heads_without_transpose,
    global_max_softmax,
    naive_softmax,
    softmax_over_all_entries,
    split_heads_tokens_first,
    split_heads_without_transpose,
)

# Held while a step is replaced (see :func:`replaced`) and while any reference computes (see
# :func:`steps_unchanged`): the grader computes mutants in one thread while others answer stand-ins.
_LOCK = threading.RLock()


def steps_unchanged() -> threading.RLock:
    """Hold this while calling a reference: no mistake is swapped into its steps meanwhile."""
    return _LOCK


def _min_shift_softmax(original):
    def softmax(scores, axis=-1):
        scores = ref.as_float(scores)
        exps = np.exp(scores - scores.min(axis=axis, keepdims=True))  # a shift, but the wrong way: overflows
        return exps / exps.sum(axis=axis, keepdims=True)
    return softmax


def _float16_exps_softmax(original):
    def softmax(scores, axis=-1):  # exp() of the shifted scores in float16, cast back
        scores = ref.as_float(scores)
        shifted = scores - scores.max(axis=axis, keepdims=True)
        exps = np.exp(shifted.astype(np.float16)).astype(scores.dtype)
        return exps / exps.sum(axis=axis, keepdims=True)
    return softmax


def _rounded_to_float16(original):
    def dot_products(q, k):  # float16 products cast back: rounded, and inf beyond float16's range
        products = original(q, k)
        with np.errstate(over="ignore"):
            return products.astype(np.float16).astype(products.dtype)
    return dot_products


def _softmax_other_axis(original):
    def softmax(scores, axis=-1):
        scores = ref.as_float(scores)
        if scores.ndim < 2:
            raise np.exceptions.AxisError("axis -2 is out of bounds for array of dimension 1")
        return original(scores, axis=-2 if axis in (-1, scores.ndim - 1) else -1)
    return softmax


def _softmax_heads_axis(original):
    def softmax(scores, axis=-1):  # over the heads of (..., heads, queries, keys), not the keys
        scores = ref.as_float(scores)
        return original(scores, axis=-3) if scores.ndim >= 3 and axis in (-1, scores.ndim - 1) else \
            original(scores, axis=axis)
    return softmax


def _softmax_each_matrix(original):
    def softmax(scores, axis=-1):  # over each (queries, keys) matrix at once: one head's, one sequence's
        scores = ref.as_float(scores)
        if scores.ndim < 3:
            return original(scores, axis=axis)
        flat = scores.reshape(*scores.shape[:-2], -1)
        return original(flat, axis=-1).reshape(scores.shape)
    return softmax


def _softmax_rows_shifted_all_summed(original):
    def softmax(scores, axis=-1):  # each row shifted by its own maximum, then divided by the sum of everything
        scores = ref.as_float(scores)
        exps = np.exp(scores - scores.max(axis=axis, keepdims=True))
        return exps / exps.sum()
    return softmax


def _keys_transpose_all_axes(original):
    def dot_products(queries, keys):
        return ref.as_float(queries) @ ref.as_float(keys).T
    return dot_products


def _transposed_output(original):
    return lambda *args, **kwargs: np.swapaxes(original(*args, **kwargs), -1, -2)


def _scale_twice(original):
    return lambda scores, divisor: original(original(scores, divisor), divisor)


def _scale_by_sqrt_keys(original):
    # the number of keys is the scores' last axis
    return lambda scores, divisor: original(scores, np.sqrt(np.shape(scores)[-1]))


def _scale_by_sqrt_queries(original):
    # "the number of tokens" read from the queries: the scores' second-to-last axis
    return lambda scores, divisor: original(scores, np.sqrt(np.shape(scores)[-2]) if np.ndim(scores) > 1
                                            else divisor)


def _floored(original):
    return lambda scores, divisor: np.floor(original(scores, divisor))


def _sum_of_sums(original):
    # q_i + k_j summed over the features, instead of q_i * k_j
    return lambda q, k: (ref.as_float(q)[..., :, None, :] + ref.as_float(k)[..., None, :, :]).sum(-1)


def _elementwise(original):
    return lambda q, k: ref.as_float(q) * ref.as_float(k)


def _products_unsummed(original):
    # every q_i * k_j kept as a vector: (..., queries, keys, d), the dot products' sum never taken
    return lambda q, k: ref.as_float(q)[..., :, None, :] * ref.as_float(k)[..., None, :, :]


def _row_products(original):
    return lambda q, k: (ref.as_float(q) * ref.as_float(k)).sum(-1)


def _permuted(order):
    return lambda original: lambda x, *w: original(x, *(w[i] for i in order))


def _keys_reshaped(original):
    def dot_products(queries, keys):
        keys = ref.as_float(keys)
        if keys.ndim < 2:
            return original(queries, keys)
        return ref.as_float(queries) @ keys.reshape(*keys.shape[:-2], keys.shape[-1], keys.shape[-2])
    return dot_products


def _causal_shifted(diagonal):
    # the diagonal hidden (-1), or one future token visible (+1)
    return lambda original: lambda n: np.tril(np.ones((n, n), dtype=bool), k=diagonal)


def _mask_transposed(keys_only: bool):
    # the given mask with its last two axes swapped: any mask (mask_transposed), or only a
    # (..., 1, keys) padding mask, which then masks queries, not keys (padding_mask_on_queries; for
    # such a mask both mistakes give the same numbers, and both are named)
    def factory(original):
        def apply_mask(scores, mask=None):
            if mask is None or np.ndim(mask) < 2 or (keys_only and np.shape(mask)[-2] != 1):
                return original(scores, mask)
            return original(scores, np.swapaxes(np.asarray(mask), -1, -2))
        return apply_mask
    return factory


# a finite stand-in for -inf, which scores in the thousands outweigh: put in place of the masked
# scores, or added to them (BERT's (1 - mask) * -10000); learners also type -1000 and -100
MASK_FINITE_VALUE = -10000.0


def _mask_finite(additive: bool, value: float = MASK_FINITE_VALUE):
    def factory(original):
        def apply_mask(scores, mask=None):
            if mask is None:
                return original(scores, mask)
            scores, keep = ref.as_float(scores), np.asarray(mask, dtype=bool)
            return np.where(keep, scores, scores + value if additive else value)
        return apply_mask
    return factory


def _values_cut(keep: slice):
    # a weighted sum over the keys whose loop skipped one: the first (range(1, n)) or the last (range(n - 1))
    def factory(original):
        def weighted_values(weights, values):
            weights, values = ref.as_float(weights), ref.as_float(values)
            if np.ndim(values) < 2 or np.shape(values)[-2] < 2:
                return original(weights, values)
            return original(weights[..., keep], values[..., keep, :])
        return weighted_values
    return factory


def _head_left_zero(head: int):
    # a loop over the heads that never wrote one (range(n_heads - 1), range(1, n_heads)): zeros there
    def factory(original):
        def combine_heads(x):
            x = np.array(ref.as_float(x))
            if x.ndim >= 3:  # with one head, the loop over range(0) wrote nothing at all
                x[..., head, :, :] = 0.0
            return original(x)
        return combine_heads
    return factory


def _padding_off_by_one(original):
    return lambda lengths, n_tokens: original(np.asarray(lengths) + 1, n_tokens)


def _padding_off_by_one_short(original):
    return lambda lengths, n_tokens: original(np.asarray(lengths) - 1, n_tokens)


# mistake id -> [(step of reference, replacement factory: the original step -> the wrong one), ...]
TRANSFORMATIONS: dict[str, list[tuple[str, Callable]]] = {
    "softmax_wrong_axis": [("softmax", _softmax_other_axis), ("softmax", _softmax_heads_axis)],
    "softmax_over_all_entries": [("softmax", lambda original: softmax_over_all_entries), ("softmax", _softmax_each_matrix),
                                 ("softmax", _softmax_rows_shifted_all_summed)],
    "softmax_no_max_subtraction": [("softmax", lambda original: naive_softmax), ("softmax", _min_shift_softmax)],
    # a decoy (DECOYS): a mistake the catalogue leaves out, so that a result it explains better than
    # a catalogued one names nothing
    "softmax_global_max": [("softmax", lambda original: global_max_softmax)],
    "normalise_by_sum": [("softmax", lambda original: lambda s, axis=-1: ref.as_float(s)
                          / ref.as_float(s).sum(axis=axis, keepdims=True))],
    "no_softmax": [("softmax", lambda original: lambda s, axis=-1: ref.as_float(s))],
    "no_scaling": [("divide_scores", lambda original: lambda scores, divisor: ref.as_float(scores))],
    "scale_applied_twice": [("divide_scores", _scale_twice)],
    "scale_by_d_k": [("key_scale", lambda original: lambda d_k, dtype=np.float64: np.asarray(d_k, dtype))],
    "scale_by_sqrt_tokens": [("divide_scores", _scale_by_sqrt_keys), ("divide_scores", _scale_by_sqrt_queries)],
    # the width of the inputs (not the values' width d_v, which KEYING.md rules uncatalogued)
    "scale_by_sqrt_d_model": [("self_attention_scale", lambda original: lambda inputs, keys: key_scale_of(inputs))],
    # the scores floored after the division, the dot products truncated (astype(int)), or the values
    # truncated before the weighted sum
    "integer_arithmetic": [("divide_scores", _floored),
                           ("dot_products", lambda original: lambda q, k: np.trunc(original(q, k))),
                           ("weighted_values", lambda original: lambda w, v: original(w, np.trunc(ref.as_float(v))))],
    "sum_instead_of_dot": [("dot_products", _elementwise), ("dot_products", _row_products),
                           ("dot_products", _sum_of_sums), ("dot_products", _products_unsummed)],
    "keys_without_transpose": [("dot_products", lambda original: lambda q, k: ref.as_float(q)
                                @ ref.as_float(k))],
    "keys_transpose_all_axes": [("dot_products", _keys_transpose_all_axes)],
    # a described slip (DECOYS): the keys reshaped to (..., d_k, n_keys), which keeps their numbers'
    # order, where a transpose belongs
    "keys_reshaped_not_transposed": [("dot_products", _keys_reshaped)],
    "keys_times_queries": [("dot_products", _transposed_output)],
    "weights_transposed": [("weighted_values", lambda original: lambda w, v: original(
        np.swapaxes(ref.as_float(w), -1, -2), v))],
    "returns_weights": [("weighted_values", lambda original: lambda w, v: ref.as_float(w))],
    # the dot products cast to float16 before anything else (or rounded to it and cast back), the
    # softmax's exponentials taken in float16, or the values rounded to float16 before the weighted sum
    "lower_precision": [("dot_products", lambda original: lambda q, k: original(q, k).astype(np.float16)),
                        ("dot_products", _rounded_to_float16),
                        ("softmax", _float16_exps_softmax),
                        ("weighted_values", lambda original: lambda w, v: original(
                            w, ref.as_float(v).astype(np.float16)))],
    "loop_leftover": [("weighted_values", _values_cut(slice(1, None))), ("weighted_values", _values_cut(slice(None, -1))),
                      ("combine_heads", _head_left_zero(0)), ("combine_heads", _head_left_zero(-1))],
    "mask_wrong_sign": [("apply_mask", lambda original: lambda s, mask=None: original(
        s, None if mask is None else ~np.asarray(mask, dtype=bool)))],
    "mask_with_zero": [("apply_mask", lambda original: lambda s, mask=None: ref.as_float(s) if mask is None
                        else np.where(np.asarray(mask, dtype=bool), ref.as_float(s), 0.0))],
    "padding_mask_on_queries": [("apply_mask", _mask_transposed(keys_only=True))],
    "mask_transposed": [("apply_mask", _mask_transposed(keys_only=False))],
    "mask_finite_value": [("apply_mask", _mask_finite(additive=False)), ("apply_mask", _mask_finite(additive=True)),
                          ("apply_mask", _mask_finite(additive=False, value=-1000.0)),
                          ("apply_mask", _mask_finite(additive=False, value=-100.0))],
    "weights_times_keys": [("attention", lambda original: lambda queries, keys, values, mask=None, scale=True:
                            original(queries, keys, keys, mask, scale))],
    "causal_mask_off_by_one": [("causal_mask", _causal_shifted(-1)), ("causal_mask", _causal_shifted(1))],
    # the transpose (triu), or triu(k=1): strictly above the diagonal, the same as the inverted mask
    "causal_mask_upper": [("causal_mask", lambda original: lambda n: original(n).T),
                          ("causal_mask", lambda original: lambda n: ~original(n))],
    "padding_mask_off_by_one": [("padding_mask", _padding_off_by_one),
                                ("padding_mask", _padding_off_by_one_short)],
    # any two of W_Q, W_K, W_V swapped (the keys and values, the queries and keys, ...), or rotated
    "mixed_up_projections": [("project", _permuted(order))
                             for order in ((0, 2, 1), (1, 0, 2), (2, 1, 0), (1, 2, 0), (2, 0, 1))],
    # W x for each token (W @ X^T, transposed back: NumPy raises as for `w @ x` on non-square W),
    # the product's transpose (W^T X^T), W @ X, or W @ X^T left as it is
    "projection_order": [("project", lambda original: lambda x, wq, wk, wv: tuple(
                              np.swapaxes(ref.as_float(w) @ np.swapaxes(ref.as_float(x), -1, -2), -1, -2)
                              for w in (wq, wk, wv))),
                         ("project", lambda original: lambda x, wq, wk, wv: tuple(
                             np.swapaxes(p, -1, -2) for p in original(x, wq, wk, wv))),
                         ("project", lambda original: lambda x, wq, wk, wv: tuple(
                             ref.as_float(w) @ ref.as_float(x) for w in (wq, wk, wv))),
                         # W @ X^T, not transposed back: (d_k, tokens) where (tokens, d_k) is asked
                         ("project", lambda original: lambda x, wq, wk, wv: tuple(
                             ref.as_float(w) @ np.swapaxes(ref.as_float(x), -1, -2) for w in (wq, wk, wv)))],
    "heads_reshape_without_transpose": [
        ("split_heads", lambda original: split_heads_without_transpose),
        ("split_heads", lambda original: split_heads_tokens_first),
        ("combine_heads", lambda original: combine_heads_without_transpose),
    ],
    "missing_output_projection": [],  # per exercise: the projection is not a shared step
}


# Mistakes left out of the catalogue (tests/cases/KEYING.md keys them uncatalogued) but computed as
# mutants: where one explains a result better than every catalogued mistake does (it alone matches
# an overflow exactly, say), the verdict names nothing instead of the nearest catalogued mistake.
DECOYS = {"softmax_global_max", *SLIPS}  # SLIPS: decoys the verdict describes


# The projection weights an exercise takes, by parameter name: (weight, its bias), in the order
# query, key, value. A learner who mixes them up passes one where another belongs.
_ROLES = (("w_query", "b_query"), ("w_key", "b_key"), ("w_value", "b_value"))
_ROLES_LONG = (("query_weight", None), ("key_weight", None), ("value_weight", None))
_STACKED = ("attention_w", "attention_b")  # (4, ...) stacks: query, key, value, output
_WEIGHTS = ("w_query", "w_key", "w_value")  # (d_model, d_k) projections of the inputs, applied as inputs @ W


def argument_mutants(reference: Callable, returns_tuple: bool = False) -> dict[str, list[Callable]]:
    """Mistakes made around the reference rather than in a step: the query, key and value weights
    mixed up (any of them used in another's place: swapped, rotated or copied), for every exercise
    whose parameters name them, with each bias moving with its weight or staying put; a loop's
    leftovers (see below); and integer truncation of the inputs (all, or one) or of the result."""
    try:
        names = list(inspect.signature(reference).parameters)
    except (TypeError, ValueError):
        return {}
    slots = [(names.index(w), names.index(b) if b in names else None)
             for roles in (_ROLES, _ROLES_LONG) for w, b in roles if w in names]
    mutants: list[Callable] = []
    if len(slots) >= 2:
        for mapping in itertools.product(range(len(slots)), repeat=len(slots)):
            if list(mapping) == list(range(len(slots))):
                continue
            for with_biases in ((True, False) if any(b is not None for _, b in slots) else (True,)):
                mutants.append(_remapped(reference, slots, mapping, with_biases))
    elif _STACKED[0] in names:
        at = (names.index(_STACKED[0]), names.index(_STACKED[1]) if _STACKED[1] in names else None)
        for mapping in itertools.product(range(3), repeat=3):
            if list(mapping) != [0, 1, 2]:
                mutants.append(_restacked(reference, at, mapping))
    found = {"mixed_up_projections": mutants} if mutants else {}
    # a projection with its weight matrix transposed (inputs @ W.T): all of them, or each alone
    weights = [names.index(w) for w in _WEIGHTS if w in names]
    if weights:
        found["projection_order"] = [_transposed_weights(reference, weights),
                                     *(_transposed_weights(reference, [i]) for i in weights if len(weights) > 1)]
    elif _STACKED[0] in names:
        found["projection_order"] = [_transposed_weights(reference, [names.index(_STACKED[0])])]
    # a loop's leftovers: only the first or the last row kept (one row, not the matrix); the first
    # or the last row never written (``range(n - 1)``, ``range(1, n)``), or the first or last
    # matrix of a stack (a head, a sequence of a batch, a width), or the stack one matrix short
    # (``for w in widths[:-1]``); a sum over the tokens that stopped one short,
    # skipped the first token or returned after it (a ``return`` inside the loop)
    found["loop_leftover"] = [_one_row(reference, 0), _one_row(reference, -1), _first_row_kept(reference),
                              _row_left_zero(reference, 0), _row_left_zero(reference, -1),
                              _tokens_cut(reference, slice(None, -1)), _tokens_cut(reference, slice(None, 1)),
                              _tokens_cut(reference, slice(1, None))]
    if not returns_tuple:  # a tuple's parts stacked are no loop's matrices: one missing is a wrong return
        found["loop_leftover"] += [_row_left_zero(reference, 0, axis=-3), _row_left_zero(reference, -1, axis=-3),
                                   _stack_cut(reference)]
    # integers where floats belong: the inputs cast to int (truncated), or the result
    positional = [p for p in inspect.signature(reference).parameters.values() if p.kind != p.KEYWORD_ONLY]
    found["integer_arithmetic"] = [_truncated_inputs(reference),
                                   *(_truncated_inputs(reference, i) for i in range(len(positional))),
                                   lambda *a, **k: np.trunc(np.asarray(reference(*a, **k), dtype=np.float64))]
    return found


def _truncated_inputs(reference, only: int | None = None):
    """The reference on float inputs truncated to integers: all of them, or only the ``only``-th."""
    def mutant(*args, **kwargs):
        return reference(*(a.astype(np.int64) if isinstance(a, np.ndarray) and np.issubdtype(a.dtype, np.floating)
                           and only in (None, i) else a for i, a in enumerate(args)), **kwargs)
    return mutant


def _one_row(reference, row):
    def mutant(*args, **kwargs):
        result = np.asarray(reference(*args, **kwargs))
        # a vector has no rows to leave out, and one row is the whole result (an axis of length 1
        # dropped is a shape slip, not a loop's leftover): the reference's own result, dropped
        return result if result.ndim < 2 or result.shape[-2] == 1 else result[..., row, :]
    return mutant


def _first_row_kept(reference):
    """A ``return`` inside the loop over the rows: the first row only, its axis kept ((1, d), not (d,))."""
    def mutant(*args, **kwargs):
        result = np.asarray(reference(*args, **kwargs))
        return result[..., :1, :] if result.ndim >= 2 and result.shape[-2] >= 2 else result
    return mutant


def _row_left_zero(reference, row, axis=None):
    """The reference's result with one row zero: of its rows (axis -2, or the entries of a vector),
    or with ``axis=-3`` one matrix of a stack (results of three axes or more)."""
    def mutant(*args, **kwargs):
        result = np.array(reference(*args, **kwargs), dtype=np.float64)
        if axis == -3:
            if result.ndim >= 3 and result.shape[-3] >= 2:
                result[..., row, :, :] = 0.0
            return result
        if result.ndim == 0 or result.shape[-2 if result.ndim >= 2 else -1] < 2:
            return result
        if result.ndim >= 2:
            result[..., row, :] = 0.0
        else:
            result[row] = 0.0
        return result
    return mutant


def _stack_cut(reference):
    """A stack of matrices (three axes or more) without its last one: a loop that stopped early."""
    def mutant(*args, **kwargs):
        result = np.asarray(reference(*args, **kwargs))
        return result[..., :-1, :, :] if result.ndim >= 3 and result.shape[-3] >= 2 else result
    return mutant


def _tokens_cut(reference, keep: slice):
    """A sum over the tokens on the first tokens only: for a vector result (a context vector), the
    arguments sharing a leading length (weights (n,) and inputs (n, d)) cut to ``keep``. Where that
    does not apply, or cannot be computed, the reference's own result (so it never raises)."""
    def mutant(*args, **kwargs):
        right = reference(*args, **kwargs)
        lengths = [np.shape(a)[0] for a in args if isinstance(a, np.ndarray) and np.ndim(a) >= 1]
        shared = [n for n in set(lengths) if lengths.count(n) >= 2 and n >= 2]
        if len(shared) != 1 or np.ndim(right) != 1:
            return right
        try:
            return reference(*(a[keep] if isinstance(a, np.ndarray) and np.ndim(a) >= 1 and np.shape(a)[0] == shared[0]
                               else a for a in args), **kwargs)
        except Exception:
            return right
    return mutant


def _transposed_weights(reference, at):
    # A non-square weight transposed raises a shape error, in the reference as in the learner's code.
    # That mismatch is weak evidence (values left unprojected raise the same one): it counts only
    # beside numbers that match on square weights (``weak_errors``, read by the verdict).
    def mutant(*args, **kwargs):
        args = list(args)
        for index in at:
            weight = np.asarray(args[index])
            if weight.ndim >= 2:
                args[index] = np.swapaxes(weight, -1, -2)
        return reference(*args, **kwargs)
    mutant.weak_errors = True
    return mutant


def _remapped(reference, slots, mapping, with_biases):
    def mutant(*args, **kwargs):
        args = list(args)
        given = [(args[w], None if b is None else args[b]) for w, b in slots]
        for (w, b), source in zip(slots, mapping, strict=True):
            args[w] = given[source][0]
            if with_biases and b is not None and given[source][1] is not None:
                args[b] = given[source][1]
        return reference(*args, **kwargs)
    return mutant


def _restacked(reference, at, mapping):
    def mutant(*args, **kwargs):
        args = list(args)
        for index, axis in zip(at, (-3, -2), strict=True):  # (..., 4, d, d) weights, (..., 4, d) biases
            if index is not None:
                stack = np.moveaxis(np.asarray(args[index]), axis, 0)
                args[index] = np.moveaxis(np.concatenate([stack[list(mapping)], stack[3:]]), 0, axis)
        return reference(*args, **kwargs)
    return mutant


def key_scale_of(inputs):
    inputs = ref.as_float(inputs)
    return ref.key_scale(inputs.shape[-1], inputs.dtype)


@contextlib.contextmanager
def replaced(step: str, factory: Callable):
    """``reference.<step>`` replaced by ``factory(original)`` while the block runs."""
    with _LOCK:
        original = getattr(ref, step)
        setattr(ref, step, factory(original))
        try:
            yield
        finally:
            setattr(ref, step, original)


def transformed(function: Callable, step: str, factory: Callable) -> Callable:
    """``function`` (an exercise's reference) computed with one step of the reference replaced."""

    def mutant(*args, **kwargs):
        with replaced(step, factory):
            return function(*args, **kwargs)

    return mutant


def shared_mutants(reference: Callable) -> dict[str, list[Callable]]:
    """Every catalogued transformation applied to ``reference``: mistake id -> its mutants.

    A transformation of a step the reference does not take gives the reference's own result; the
    caller drops mutants whose results equal the expected one.
    """
    return {mistake: [transformed(reference, step, factory) for step, factory in ways]
            for mistake, ways in TRANSFORMATIONS.items() if ways}
