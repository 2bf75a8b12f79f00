"""Notebook 10: attention at length: online softmax, blocked attention, grouped-query attention.

The references are the exact answers, computed through the shared steps of
:mod:`autograder.key.reference` (a softmax of the whole row, the matrix form of notebook 05, the
key/value heads repeated for their query heads), so the shared mistakes (no scaling, a softmax that
overflows or runs along the wrong axis, a mask with the wrong sign, ...) reach these exercises
without being listed. The mutants below are what only a computation in blocks, or with shared key
and value heads, gets wrong: each is the blocked algorithm (one composition of its steps,
``_online_softmax_with`` and ``_blocked_with``) with one step replaced by a wrong one.

Causal attention in blocks follows ``is_causal=True`` of PyTorch's
``scaled_dot_product_attention``: query ``i`` may see key ``j`` when ``j <= i`` (the top-left
triangle, notebook 05's causal mask when there are as many queries as keys).
"""

from __future__ import annotations

from functools import partial

import numpy as np

from .. import reference as ref
from . import Exercise

# --- the references --------------------------------------------------------------------------------


def causal_allowed(n_queries: int, n_keys: int, offset: int = 0) -> np.ndarray:
    """(n_queries, n_keys) boolean mask, True where key ``offset + j`` is not after query ``i``."""
    return np.arange(n_queries)[:, None] >= offset + np.arange(n_keys)[None, :]


def online_softmax(scores, block):
    """The exact softmax along the last axis (how it is computed is the learner's part)."""
    return ref.softmax(scores, axis=-1)


def blocked_attention(queries, keys, values, block, causal=False):
    """The matrix form of notebook 05, with the top-left causal mask when ``causal``."""
    mask = causal_allowed(np.shape(queries)[-2], np.shape(keys)[-2]) if causal else None
    return ref.attention(queries, keys, values, mask)


def repeat_kv_heads(x, n_heads: int) -> np.ndarray:
    """(..., n_kv_heads, tokens, d) -> (..., n_heads, tokens, d): each key/value head repeated for
    its group of consecutive query heads (query head h reads key/value head h // group)."""
    x = ref.as_float(x)
    n_kv_heads = x.shape[-3]
    if n_heads % n_kv_heads:
        raise ValueError(f"n_heads={n_heads} is not a multiple of n_kv_heads={n_kv_heads}")
    return np.repeat(x, n_heads // n_kv_heads, axis=-3)


def grouped_query_attention(queries, keys, values):
    """Attention per query head, with the key/value heads shared by groups of query heads."""
    n_heads = np.shape(queries)[-3]
    return ref.attention(queries, repeat_kv_heads(keys, n_heads), repeat_kv_heads(values, n_heads))


# --- online softmax and blocked attention: the blocked algorithm's steps, and one made wrong -------
# Both run over blocks of keys with a running maximum and sum (and output). Their steps, right:
# which blocks are visited (``spans``), where the running maximum starts (``max_start``), how it
# grows (``new_max``), and, below, each one's update and finish. A mutant is the algorithm with the
# steps named in its ``wrong`` replaced.


def _key_blocks(n: int, block: int) -> list[tuple[int, int]]:
    """(start, stop) of each block of ``n`` positions."""
    return [(start, min(start + block, n)) for start in range(0, n, block)]


def _full_blocks_only(n: int, block: int) -> list[tuple[int, int]]:
    """range(n // block) blocks: the shorter last block is never visited."""
    return [(i * block, (i + 1) * block) for i in range(n // block)]


_BLOCK_STEPS = {
    "spans": _key_blocks,
    "max_start": -np.inf,
    "new_max": lambda running_max, block_max, index: np.maximum(running_max, block_max),
}

# the maximum's wrong steps, the same in both
_FIRST_MAX_ONLY = {"new_max": lambda running_max, block_max, index: running_max if index else
                   np.maximum(running_max, block_max)}
_BLOCK_MAX_ONLY = {"new_max": lambda running_max, block_max, index: block_max}


def _online_sum(running_sum, running_max, new_max, part, part_max):
    """The running sum rescaled to the new maximum, plus the block's terms."""
    kept = running_sum * np.exp(running_max - new_max)
    return kept + np.exp(part - new_max).sum(axis=-1, keepdims=True)


def _flipped_guarded(running_max, new_max):
    """exp(m_new - m), the correction's sign flipped, with 1 while m is still -inf (no inf * 0)."""
    return np.exp(np.where(np.isfinite(running_max), new_max - running_max, 0.0))


def _online_softmax_with(**wrong):
    """One pass over the blocks of the last axis gathers the maximum and the sum, then one sweep
    divides (``finish``), with the steps named in ``wrong`` replaced."""
    steps = {**_BLOCK_STEPS, "update": _online_sum, "finish": lambda exps, running_sum, spans: exps / running_sum,
             **wrong}

    def online_softmax(scores, block):
        scores = ref.as_float(scores)
        running_max = np.full(scores.shape[:-1] + (1,), steps["max_start"], dtype=scores.dtype)
        running_sum = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
        spans = steps["spans"](scores.shape[-1], block)
        for index, (start, stop) in enumerate(spans):
            part = scores[..., start:stop]  # (..., block)
            part_max = part.max(axis=-1, keepdims=True)
            new_max = steps["new_max"](running_max, part_max, index)
            running_sum = steps["update"](running_sum, running_max, new_max, part, part_max)
            running_max = new_max
        exps = np.exp(scores - running_max)  # (..., n): the last sweep, against the final maximum
        return steps["finish"](exps, running_sum, spans)

    return online_softmax


def _remainder_zero(exps, running_sum, spans):
    """The positions after the last visited block left out everywhere: their weights stay 0."""
    exps[..., (spans[-1][1] if spans else 0):] = 0.0
    return exps / running_sum


_ONLINE_UPDATES_NOT_RESCALED = [
    # the old sum not rescaled when the maximum grows
    lambda running_sum, running_max, new_max, part, part_max: running_sum + np.exp(part - new_max).sum(
        axis=-1, keepdims=True),
    # each block's terms taken against that block's own maximum, never rescaled
    lambda running_sum, running_max, new_max, part, part_max: running_sum + np.exp(part - part_max).sum(
        axis=-1, keepdims=True),
    # exp(m_new - m): the correction's sign flipped
    lambda running_sum, running_max, new_max, part, part_max: running_sum * np.exp(new_max - running_max)
    + np.exp(part - new_max).sum(axis=-1, keepdims=True),
    # the same, with the first block guarded (1 while the running maximum is -inf)
    lambda running_sum, running_max, new_max, part, part_max: running_sum * _flipped_guarded(running_max, new_max)
    + np.exp(part - new_max).sum(axis=-1, keepdims=True),
]


def _block_mask(n_queries, n_keys, start, stop, index):
    """Where the queries may see the keys start..stop-1."""
    return causal_allowed(n_queries, stop - start, start)


# the block's causal mask wrong: its offset, or the comparison itself (in every block alike)
_WRONG_BLOCK_MASKS = {
    # the block's own positions 0..block-1: every block masked like the first
    "local": lambda n_queries, n_keys, start, stop, index: causal_allowed(n_queries, stop - start),
    # shifted by the block's number instead of its first position
    "index": lambda n_queries, n_keys, start, stop, index: causal_allowed(n_queries, stop - start, index),
    # tril(..., k=start): the offset added on the wrong side
    "sign": lambda n_queries, n_keys, start, stop, index: causal_allowed(n_queries, stop - start, -start),
    # i > j: a query may not see itself
    "diagonal_hidden": lambda n_queries, n_keys, start, stop, index: np.arange(n_queries)[:, None] > np.arange(start, stop)[None, :],
    # i + 1 >= j: one future key visible
    "one_ahead": lambda n_queries, n_keys, start, stop, index: np.arange(n_queries)[:, None] + 1 >= np.arange(start, stop)[None, :],
    # i <= j: the future and the query itself, not the past
    "upper": lambda n_queries, n_keys, start, stop, index: np.arange(n_queries)[:, None] <= np.arange(start, stop)[None, :],
    # j <= i + n_keys - n_queries: aligned to the lower-right corner, the last query sees every key
    "lower_right": lambda n_queries, n_keys, start, stop, index: (
        np.arange(n_queries)[:, None] + n_keys - n_queries >= np.arange(start, stop)[None, :]),
}


def _rescaled(scores, running_max, new_max, block_max):
    """The block's exponentials, and the factors that rescale the running sum and output to the new maximum."""
    correction = np.exp(running_max - new_max)
    return np.exp(scores - new_max), correction, correction


def _sum_not_rescaled(scores, running_max, new_max, block_max):
    exps, _, correction = _rescaled(scores, running_max, new_max, block_max)
    return exps, 1.0, correction


def _output_not_rescaled(scores, running_max, new_max, block_max):
    exps, correction, _ = _rescaled(scores, running_max, new_max, block_max)
    return exps, correction, 1.0


def _neither_rescaled(scores, running_max, new_max, block_max):
    return _rescaled(scores, running_max, new_max, block_max)[0], 1.0, 1.0


_BLOCKED_RESCALES_WRONG = [
    _sum_not_rescaled,
    _output_not_rescaled,
    _neither_rescaled,
    # each block against its own maximum, never rescaled
    lambda scores, running_max, new_max, block_max: (np.exp(scores - block_max), 1.0, 1.0),
    # exp(m_new - m): the correction's sign flipped
    lambda scores, running_max, new_max, block_max: (np.exp(scores - new_max), np.exp(new_max - running_max),
                                                     np.exp(new_max - running_max)),
    # the same, with the first block guarded
    lambda scores, running_max, new_max, block_max: (np.exp(scores - new_max), _flipped_guarded(running_max, new_max),
                                                     _flipped_guarded(running_max, new_max)),
]


def _blocked_with(**wrong):
    """Attention over blocks of keys with a running maximum, sum and output, with the steps named in
    ``wrong`` replaced (``mask``: each block's causal mask; ``fill``: what a hidden score becomes, a
    finite -1e30 making a row with every key hidden uniform instead of nan; ``rescale``: the block's
    exponentials and the running sum's and output's corrections; ``finish``: the division by the sum)."""
    steps = {**_BLOCK_STEPS, "mask": _block_mask, "fill": -np.inf, "rescale": _rescaled,
             "finish": lambda context, running_sum: context / running_sum, **wrong}

    def blocked_attention(queries, keys, values, block, causal=False):
        queries, keys, values = ref.as_float(queries), ref.as_float(keys), ref.as_float(values)
        n_queries, n_keys = queries.shape[-2], keys.shape[-2]
        dtype = np.result_type(queries, keys, values)
        lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2], values.shape[:-2])
        running_max = np.full(lead + (n_queries, 1), steps["max_start"], dtype=dtype)
        running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
        context = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)  # (..., n_queries, d_v)
        scale = ref.key_scale(keys.shape[-1], dtype)
        for index, (start, stop) in enumerate(steps["spans"](n_keys, block)):
            scores = queries @ np.swapaxes(keys[..., start:stop, :], -1, -2) / scale  # (..., n_queries, block)
            if causal:
                scores = np.where(steps["mask"](n_queries, n_keys, start, stop, index), scores, steps["fill"])
            block_max = scores.max(axis=-1, keepdims=True)
            new_max = steps["new_max"](running_max, block_max, index)
            exps, sum_correction, output_correction = steps["rescale"](scores, running_max, new_max, block_max)
            running_sum = running_sum * sum_correction + exps.sum(axis=-1, keepdims=True)
            context = context * output_correction + exps @ values[..., start:stop, :]  # (..., n_queries, d_v)
            running_max = new_max
        return steps["finish"](context, running_sum)

    return blocked_attention


def _blocks_normalised_separately(combined: str, fill: float | None = None):
    """Each block's own softmax applied to its values, the blocks' results averaged (``mean``) or
    added (``sum``): right only when there is one block. A block whose keys are all hidden adds
    nothing; with a finite ``fill`` for the hidden scores, it adds its values' plain mean."""

    def attend(queries, keys, values, block, causal=False):
        n_queries, n_keys = np.shape(queries)[-2], np.shape(keys)[-2]
        parts = []
        for start, stop in _key_blocks(n_keys, block):
            allowed = causal_allowed(n_queries, stop - start, start) if causal else None
            if fill is not None and allowed is not None:
                scores = ref.attention_scores(queries, keys[..., start:stop, :])  # (..., n_queries, block)
                weights = ref.softmax(np.where(allowed, scores, fill), axis=-1)
                parts.append(weights @ ref.as_float(values)[..., start:stop, :])
                continue
            part = ref.attention(queries, keys[..., start:stop, :], values[..., start:stop, :], allowed)
            parts.append(np.nan_to_num(part))
        total = np.sum(parts, axis=0)
        return total / len(parts) if combined == "mean" else total

    return attend


def _causal_forced(causal_instead):
    """The right blocked attention with the ``causal`` argument ignored: never, or always, causal."""
    def mutant(queries, keys, values, block, causal=False):
        return _blocked_with()(queries, keys, values, block, causal=causal_instead)
    return mutant


# --- grouped-query attention, grouped wrongly ------------------------------------------------------


def _tiled_kv_heads(x, n_heads):
    """Query head h given key/value head h % n_kv_heads (np.tile, or a reshape with the group axis
    and the key/value heads axis in the wrong order)."""
    x = ref.as_float(x)
    return np.tile(x, (1,) * (x.ndim - 3) + (n_heads // x.shape[-3], 1, 1))


def _grouped_tiled(queries, keys, values):
    n_heads = np.shape(queries)[-3]
    return ref.attention(queries, _tiled_kv_heads(keys, n_heads), _tiled_kv_heads(values, n_heads))


def _grouped_causal(queries, keys, values, aligned="first"):
    """A causal mask where none is asked: query i sees keys up to i (``aligned`` "first"), or up to
    i + n_keys - n_queries (the last query sees every key: "last")."""
    n_heads, n_queries, n_keys = np.shape(queries)[-3], np.shape(queries)[-2], np.shape(keys)[-2]
    allowed = causal_allowed(n_queries, n_keys, 0 if aligned == "first" else n_queries - n_keys)
    return ref.attention(queries, repeat_kv_heads(keys, n_heads), repeat_kv_heads(values, n_heads), allowed)


def _grouped_keys_only_tiled(queries, keys, values):
    """The keys tiled, the values repeated: the two grouped differently."""
    n_heads = np.shape(queries)[-3]
    return ref.attention(queries, _tiled_kv_heads(keys, n_heads), repeat_kv_heads(values, n_heads))


def _grouped_values_only_tiled(queries, keys, values):
    n_heads = np.shape(queries)[-3]
    return ref.attention(queries, repeat_kv_heads(keys, n_heads), _tiled_kv_heads(values, n_heads))


def _grouped_not_repeated(which):
    """Only one of keys and values repeated for the groups of query heads: the other (``which``) is
    used with its own n_kv_heads heads, which broadcasts only where there is one of them."""

    def attend(queries, keys, values):
        n_heads = np.shape(queries)[-3]
        keys = keys if which == "keys" else repeat_kv_heads(keys, n_heads)
        values = values if which == "values" else repeat_kv_heads(values, n_heads)
        return ref.attention(queries, keys, values)

    return attend


def _grouped_repeated_by_their_count(queries, keys, values):
    """Each key/value head repeated n_kv_heads times (its own count), not n_heads // n_kv_heads: right
    only where n_heads = n_kv_heads ** 2, a broadcasting error elsewhere."""
    n_kv = np.shape(keys)[-3]
    keys, values = (np.repeat(ref.as_float(a), n_kv, axis=-3) for a in (keys, values))
    return ref.attention(queries, keys, values)  # (..., n_heads, n_queries, d_v)


def _grouped_scaled(by: str):
    """Grouped-query attention with the scores divided by the square root of another size: the
    values' width d_v, the number of query heads, or the heads times d_k."""

    def attend(queries, keys, values):
        queries = ref.as_float(queries)
        n_heads, d_k = queries.shape[-3], queries.shape[-1]
        size = {"d_v": np.shape(values)[-1], "heads": n_heads, "heads_times_d_k": n_heads * d_k}[by]
        rescaled = queries * np.sqrt(d_k / size)  # the matrix form divides by sqrt(d_k): now by sqrt(size)
        return ref.attention(rescaled, repeat_kv_heads(keys, n_heads), repeat_kv_heads(values, n_heads))

    return attend


def _online_softmax_final_with_last_block_max(scores, block):
    """The statistics gathered right, but the last sweep takes the exponentials against the last
    block's own maximum (the loop's leftover variable) instead of the running maximum."""
    scores = ref.as_float(scores)
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf, dtype=scores.dtype)
    running_sum = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    part_max = running_max
    for start, stop in _key_blocks(scores.shape[-1], block):
        part_max = scores[..., start:stop].max(axis=-1, keepdims=True)
        new_max = np.maximum(running_max, part_max)
        running_sum = running_sum * np.exp(running_max - new_max) + np.exp(
            scores[..., start:stop] - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    return np.exp(scores - part_max) / running_sum


EXERCISES = [
    Exercise(
        "online_softmax",
        mistakes_from=online_softmax,
        returns="an array of the scores' shape",
        mutants={
            "online_sum_not_rescaled": [_online_softmax_with(update=update) for update in _ONLINE_UPDATES_NOT_RESCALED],
            "online_sum_not_divided": _online_softmax_with(finish=lambda exps, running_sum, spans: exps),
            "running_max_started_at_zero": _online_softmax_with(max_start=0.0),
            # the shorter last block left out of the statistics, or left out everywhere (its weights 0).
            # (np.split, which needs equal parts, raises NumPy's own error, which names no size: the
            # verdict names no mistake for it, so it has no mutant.)
            "block_remainder_dropped": [_online_softmax_with(spans=_full_blocks_only),
                                        _online_softmax_with(spans=_full_blocks_only, finish=_remainder_zero)],
            # the first block's maximum kept for every block: exact until a later block is far larger
            "softmax_no_max_subtraction": _online_softmax_with(**_FIRST_MAX_ONLY),
            # each block's own maximum in place of the running one: exact until an earlier block is far larger
            "running_max_not_kept": _online_softmax_with(**_BLOCK_MAX_ONLY),
            "online_final_with_last_block_max": _online_softmax_final_with_last_block_max,
        },
    ),
    Exercise(
        "blocked_attention",
        mistakes_from=blocked_attention,
        returns="an array of shape (..., n_queries, d_v)",
        mutants={
            "online_sum_not_rescaled": [_blocked_with(rescale=rescale) for rescale in _BLOCKED_RESCALES_WRONG],
            "online_sum_not_divided": _blocked_with(finish=lambda context, running_sum: context),
            "running_max_started_at_zero": _blocked_with(max_start=0.0),
            "block_causal_offset": [_blocked_with(mask=_WRONG_BLOCK_MASKS[wrong]) for wrong in ("local", "index", "sign")],
            "causal_flag_ignored": [_causal_forced(False), _causal_forced(True)],
            "causal_mask_off_by_one": [*(_blocked_with(mask=_WRONG_BLOCK_MASKS[wrong])
                                         for wrong in ("diagonal_hidden", "one_ahead")),
                                       _blocked_with(mask=_WRONG_BLOCK_MASKS["diagonal_hidden"], fill=-1e30)],
            "blocks_normalised_separately": [_blocks_normalised_separately(combined, fill)
                                             for combined in ("mean", "sum") for fill in (None, -1e30)],
            "causal_mask_upper": _blocked_with(mask=_WRONG_BLOCK_MASKS["upper"]),
            "causal_mask_lower_right": _blocked_with(mask=_WRONG_BLOCK_MASKS["lower_right"]),
            "block_remainder_dropped": _blocked_with(spans=_full_blocks_only),
            "softmax_no_max_subtraction": _blocked_with(**_FIRST_MAX_ONLY),
            "running_max_not_kept": _blocked_with(**_BLOCK_MAX_ONLY),
        },
    ),
    Exercise(
        "grouped_query_attention",
        mistakes_from=grouped_query_attention,
        returns="an array of shape (..., n_heads, n_queries, d_v)",
        mutants={"kv_heads_grouped_wrong": [_grouped_tiled, _grouped_keys_only_tiled, _grouped_values_only_tiled],
                 "kv_heads_not_repeated": [_grouped_not_repeated("values"), _grouped_not_repeated("keys")],
                 "causal_mask_not_asked": [partial(_grouped_causal, aligned=aligned) for aligned in ("first", "last")],
                 "kv_heads_repeated_by_their_count": _grouped_repeated_by_their_count,
                 "scale_by_sqrt_d_v": _grouped_scaled("d_v"),
                 "scale_by_number_of_heads": [_grouped_scaled("heads"), _grouped_scaled("heads_times_d_k")]},
    ),
]
