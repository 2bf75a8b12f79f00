"""Notebook 10: attention at length: online softmax, blocked attention, grouped-query attention.

The references are the exact answers, computed through the shared steps of
:mod:`autograder.key.reference` (a softmax of the whole row, the matrix form of notebook 05, the
key/value heads repeated for their query heads), so the shared mistakes (no scaling, a softmax that
overflows or runs along the wrong axis, a mask with the wrong sign, ...) reach these exercises
without being listed. The mutants below are what only a computation in blocks, or with shared key
and value heads, gets wrong: each is the blocked algorithm (one implementation, ``_blocked``) with
one catalogued mistake made.

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


# --- online softmax, with one knob per mistake -----------------------------------------------------


def _key_blocks(n: int, block: int, blocks: str) -> list[tuple[int, int]]:
    """(start, stop) of each block of ``n`` positions: all of them, or only the full ones."""
    if blocks == "full_only":  # range(n // block) blocks: the shorter last block is never visited
        return [(i * block, (i + 1) * block) for i in range(n // block)]
    return [(start, min(start + block, n)) for start in range(0, n, block)]


def _online_softmax(scores, block, rescale="both", blocks="all", max_start=-np.inf, first_max_only=False,
                    divide=True, block_max_only=False):
    """One pass over the blocks of the last axis gathers the maximum and the sum, then one sweep divides.

    ``rescale``: "both" (right), "never" (the old sum is not rescaled when the maximum grows),
    "own_max" (each block's terms taken against that block's own maximum, never rescaled).
    ``blocks``: "all" (right), "full_only" (the shorter last block left out of the statistics),
    "zeros" (left out everywhere: its weights stay 0). (``np.split``, which needs equal parts, raises
    NumPy's own error, which names no size: the verdict names no mistake for it, so it has no mutant.)
    """
    scores = ref.as_float(scores)
    n = scores.shape[-1]
    running_max = np.full(scores.shape[:-1] + (1,), max_start, dtype=scores.dtype)
    running_sum = np.zeros(scores.shape[:-1] + (1,), dtype=scores.dtype)
    spans = _key_blocks(n, block, "full_only" if blocks in ("full_only", "zeros") else "all")
    for index, (start, stop) in enumerate(spans):
        part = scores[..., start:stop]  # (..., block)
        part_max = part.max(axis=-1, keepdims=True)
        new_max = running_max if first_max_only and index else np.maximum(running_max, part_max)
        new_max = part_max if block_max_only else new_max
        if rescale == "own_max":
            running_sum = running_sum + np.exp(part - part_max).sum(axis=-1, keepdims=True)
        else:
            correction = _correction(running_max, new_max, rescale)
            kept = running_sum * correction if rescale in ("both", "inverted", "inverted_guarded") else running_sum
            running_sum = kept + np.exp(part - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    exps = np.exp(scores - running_max)  # (..., n): the last sweep, against the final maximum
    if blocks == "zeros":
        covered = spans[-1][1] if spans else 0
        exps[..., covered:] = 0.0
    return exps / running_sum if divide else exps


def _correction(running_max, new_max, rescale):
    """The factor that brings the running sum from the old maximum to the new one: exp(m - m_new);
    with its sign flipped (``inverted``: exp(m_new - m), inf then nan from the first block, where m
    is -inf), or flipped with that first block guarded (``inverted_guarded``: 1 while m is -inf)."""
    if rescale == "inverted":
        return np.exp(new_max - running_max)
    if rescale == "inverted_guarded":
        return np.exp(np.where(np.isfinite(running_max), new_max - running_max, 0.0))
    return np.exp(running_max - new_max)


# --- blocked attention, with one knob per mistake --------------------------------------------------


def _block_mask(n_queries, n_keys, start, stop, index, offset):
    """Where the queries may see the keys start..stop-1: right, with the block's offset wrong, or with
    the comparison itself wrong (in every block alike)."""
    if offset == "local":  # the block's own positions 0..block-1: every block masked like the first
        return causal_allowed(n_queries, stop - start)
    if offset == "index":  # shifted by the block's number instead of its first position
        return causal_allowed(n_queries, stop - start, index)
    if offset == "sign":  # tril(..., k=start): the offset added on the wrong side
        return causal_allowed(n_queries, stop - start, -start)
    positions, rows = np.arange(start, stop)[None, :], np.arange(n_queries)[:, None]
    if offset == "diagonal_hidden":  # i > j: a query may not see itself
        return rows > positions
    if offset == "one_ahead":  # i + 1 >= j: one future key visible
        return rows + 1 >= positions
    if offset == "upper":  # i <= j: the future and the query itself, not the past
        return rows <= positions
    if offset == "lower_right":  # j <= i + n_keys - n_queries: the last query sees every key
        return rows + n_keys - n_queries >= positions
    return causal_allowed(n_queries, stop - start, start)


def _blocked(queries, keys, values, block, causal=False, rescale="both", offset="right", blocks="all",
             max_start=-np.inf, first_max_only=False, divide=True, block_max_only=False, fill=-np.inf):
    """Attention over blocks of keys with a running maximum, sum and output.

    ``rescale``: "both" (right), "sum" (the running sum not rescaled), "output" (the running output
    not rescaled), "never" (neither), "own_max" (each block against its own maximum, never rescaled).
    ``offset``: the causal mask of each block (see :func:`_block_mask`). ``blocks``: "all" (right),
    "full_only" (the shorter last block never visited). ``fill``: what a hidden score becomes (a
    finite -1e30 instead of -inf makes a row with every key hidden uniform instead of nan).
    """
    queries, keys, values = ref.as_float(queries), ref.as_float(keys), ref.as_float(values)
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    dtype = np.result_type(queries, keys, values)
    lead = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2], values.shape[:-2])
    running_max = np.full(lead + (n_queries, 1), max_start, dtype=dtype)
    running_sum = np.zeros(lead + (n_queries, 1), dtype=dtype)
    context = np.zeros(lead + (n_queries, values.shape[-1]), dtype=dtype)  # (..., n_queries, d_v)
    scale = ref.key_scale(keys.shape[-1], dtype)
    for index, (start, stop) in enumerate(_key_blocks(n_keys, block, blocks)):
        scores = queries @ np.swapaxes(keys[..., start:stop, :], -1, -2) / scale  # (..., n_queries, block)
        if causal:
            scores = np.where(_block_mask(n_queries, n_keys, start, stop, index, offset), scores, fill)
        block_max = scores.max(axis=-1, keepdims=True)
        new_max = running_max if first_max_only and index else np.maximum(running_max, block_max)
        new_max = block_max if block_max_only else new_max
        if rescale == "own_max":
            exps, correction = np.exp(scores - block_max), 1.0
        else:
            exps, correction = np.exp(scores - new_max), np.exp(running_max - new_max)
        if rescale in ("inverted", "inverted_guarded"):
            correction = _correction(running_max, new_max, rescale)
        flipped = ("inverted", "inverted_guarded")
        sum_correction = correction if rescale in ("both", "output", *flipped) else 1.0
        output_correction = correction if rescale in ("both", "sum", *flipped) else 1.0
        running_sum = running_sum * sum_correction + exps.sum(axis=-1, keepdims=True)
        context = context * output_correction + exps @ values[..., start:stop, :]  # (..., n_queries, d_v)
        running_max = new_max
    return context / running_sum if divide else context


def _blocks_normalised_separately(combined: str):
    """Each block's own softmax applied to its values, the blocks' results averaged (``mean``) or
    added (``sum``): right only when there is one block."""

    def attend(queries, keys, values, block, causal=False):
        n_queries, n_keys = np.shape(queries)[-2], np.shape(keys)[-2]
        parts = []
        for start, stop in _key_blocks(n_keys, block, "all"):
            allowed = causal_allowed(n_queries, stop - start, start) if causal else None
            part = ref.attention(queries, keys[..., start:stop, :], values[..., start:stop, :], allowed)
            parts.append(np.nan_to_num(part))  # a block whose keys are all hidden adds nothing
        total = np.sum(parts, axis=0)
        return total / len(parts) if combined == "mean" else total

    return attend


def _causal_forced(causal_instead):
    """The right blocked attention with the ``causal`` argument ignored: never, or always, causal."""
    def mutant(queries, keys, values, block, causal=False):
        return _blocked(queries, keys, values, block, causal=causal_instead)
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
    for start, stop in _key_blocks(scores.shape[-1], block, "all"):
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
            "online_sum_not_rescaled": [partial(_online_softmax, rescale="never"),
                                        partial(_online_softmax, rescale="own_max"),
                                        partial(_online_softmax, rescale="inverted"),
                                        partial(_online_softmax, rescale="inverted_guarded")],
            "online_sum_not_divided": partial(_online_softmax, divide=False),
            "running_max_started_at_zero": partial(_online_softmax, max_start=0.0),
            "block_remainder_dropped": [partial(_online_softmax, blocks="full_only"),
                                        partial(_online_softmax, blocks="zeros")],
            # the first block's maximum kept for every block: exact until a later block is far larger
            "softmax_no_max_subtraction": partial(_online_softmax, first_max_only=True),
            # each block's own maximum in place of the running one: exact until an earlier block is far larger
            "running_max_not_kept": partial(_online_softmax, block_max_only=True),
            "online_final_with_last_block_max": _online_softmax_final_with_last_block_max,
        },
    ),
    Exercise(
        "blocked_attention",
        mistakes_from=blocked_attention,
        returns="an array of shape (..., n_queries, d_v)",
        mutants={
            "online_sum_not_rescaled": [partial(_blocked, rescale="sum"), partial(_blocked, rescale="output"),
                                        partial(_blocked, rescale="never"), partial(_blocked, rescale="own_max"),
                                        partial(_blocked, rescale="inverted"),
                                        partial(_blocked, rescale="inverted_guarded")],
            "online_sum_not_divided": partial(_blocked, divide=False),
            "running_max_started_at_zero": partial(_blocked, max_start=0.0),
            "block_causal_offset": [partial(_blocked, offset="local"), partial(_blocked, offset="index"),
                                    partial(_blocked, offset="sign")],
            "causal_flag_ignored": [_causal_forced(False), _causal_forced(True)],
            "causal_mask_off_by_one": [partial(_blocked, offset="diagonal_hidden"), partial(_blocked, offset="one_ahead"),
                                       partial(_blocked, offset="diagonal_hidden", fill=-1e30)],
            "blocks_normalised_separately": [_blocks_normalised_separately(combined) for combined in ("mean", "sum")],
            "causal_mask_upper": partial(_blocked, offset="upper"),
            "causal_mask_lower_right": partial(_blocked, offset="lower_right"),
            "block_remainder_dropped": partial(_blocked, blocks="full_only"),
            "softmax_no_max_subtraction": partial(_blocked, first_max_only=True),
            "running_max_not_kept": partial(_blocked, block_max_only=True),
        },
    ),
    Exercise(
        "grouped_query_attention",
        mistakes_from=grouped_query_attention,
        returns="an array of shape (..., n_heads, n_queries, d_v)",
        mutants={"kv_heads_grouped_wrong": [_grouped_tiled, _grouped_keys_only_tiled, _grouped_values_only_tiled],
                 "kv_heads_not_repeated": [_grouped_not_repeated("values"), _grouped_not_repeated("keys")],
                 "causal_mask_not_asked": [partial(_grouped_causal, aligned=aligned) for aligned in ("first", "last")],
                 "scale_by_sqrt_d_v": _grouped_scaled("d_v"),
                 "scale_by_number_of_heads": [_grouped_scaled("heads"), _grouped_scaled("heads_times_d_k")]},
    ),
]
