"""Notebook 05: step by step to the matrix form, with batches and masks (NumPy), after seed 003.

Every mutant below is the reference with one catalogued mistake made (see
:mod:`attention_course.mistakes`). The attention mutants share one parameterised implementation,
``_attention``, so that each differs from the reference in exactly one place.
"""

from functools import partial

import numpy as np

from .. import reference as ref
from ..mutants import masked_after_softmax
from . import BOOLEAN_MASK, Exercise

# --- exercise 1: all rows at once, for any leading batch axes ------------------------------------


def _attention(queries, keys, values, scale=True, mask=None, mistake=None):
    """softmax(mask(Q K^T / s)) V over the last two axes; ``mistake`` makes one known error."""
    queries, keys, values = ref.as_float(queries), ref.as_float(keys), ref.as_float(values)
    if mistake == "keys_without_transpose":
        scores = queries @ keys  # (..., tokens, d_k) @ (..., tokens, d_k): needs d_k == tokens
    elif mistake == "keys_transpose_all_axes":
        scores = queries @ keys.T  # right for 2-d keys, scrambles the batch axes otherwise
    elif mistake == "keys_times_queries":
        scores = keys @ np.swapaxes(queries, -1, -2)  # (..., keys, queries): transposed scores
    else:
        scores = queries @ np.swapaxes(keys, -1, -2)  # (..., queries, keys)
    d_k = keys.shape[-1]
    if scale is True:
        divisor = {
            "no_scaling": 1.0,
            "scale_by_d_k": float(d_k),  # also what dividing by sqrt(d_k) twice gives
            "scale_by_sqrt_tokens": np.sqrt(keys.shape[-2]),
            "scale_by_sqrt_d_v": np.sqrt(values.shape[-1]),
        }.get(mistake, np.sqrt(d_k))
        scores = scores / divisor
    elif scale:  # a number
        scores = scores / scale
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        if mistake == "mask_wrong_sign":
            mask = ~mask
        if mistake == "mask_with_zero":
            scores = np.where(mask, scores, 0.0)
        elif mistake not in ("mask_after_softmax", "mask_after_softmax_renormalised"):
            scores = np.where(mask, scores, -np.inf)
    if mistake == "softmax_no_max_subtraction":
        exps = np.exp(scores)
        weights = exps / exps.sum(axis=-1, keepdims=True)
    elif mistake == "softmax_over_all_entries":  # scipy.special.softmax(scores) without an axis
        exps = np.exp(scores - scores.max())
        weights = exps / exps.sum()
    else:
        weights = ref.softmax(scores, axis=-2 if mistake == "softmax_wrong_axis" else -1)
    if mask is not None and mistake in ("mask_after_softmax", "mask_after_softmax_renormalised"):
        weights = masked_after_softmax(weights, mask, renormalised=mistake == "mask_after_softmax_renormalised")
    if mistake == "returns_weights":
        return weights
    if mistake == "weights_transposed":
        weights = np.swapaxes(weights, -1, -2)
    if mistake == "weights_times_scores":
        return weights @ scores
    context = weights @ values  # (..., queries, keys) @ (..., keys, d_v) -> (..., queries, d_v)
    if mistake == "loop_leftover":  # only the first query's row was computed, as in the seed
        leftover = np.zeros_like(context)
        leftover[..., :1, :] = context[..., :1, :]
        return leftover
    return context


def _batched_attention(queries, keys, values, scale=True, mistake=None):
    return _attention(queries, keys, values, scale=scale, mistake=mistake)


def _masked_attention(queries, keys, values, mask, mistake=None):
    return _attention(queries, keys, values, scale=True, mask=mask, mistake=mistake)



# --- exercises 2 and 4: masks --------------------------------------------------------------------


def _causal_mask(n_tokens, mistake=None):
    k = {"causal_mask_off_by_one": -1}.get(mistake, 0)
    ones = np.ones((n_tokens, n_tokens), dtype=bool)
    if mistake == "causal_mask_upper":
        return np.triu(ones)
    mask = np.tril(ones, k=k)
    return ~mask if mistake == "mask_wrong_sign" else mask


def _padding_mask(lengths, n_tokens, mistake=None):
    positions = np.arange(n_tokens)[None, :]  # (1, n_keys)
    lengths = np.asarray(lengths)[:, None]  # (batch, 1)
    if mistake == "padding_mask_off_by_one":
        keep = positions <= lengths
    elif mistake == "mask_wrong_sign":
        keep = positions >= lengths
    else:
        keep = positions < lengths  # (batch, n_keys)
    if mistake == "padding_mask_on_queries":
        return keep[:, :, None]  # (batch, n_queries, 1)
    return keep[:, None, :]  # (batch, 1, n_keys)


def _mutants(function, mistakes):
    return {mistake: partial(function, mistake=mistake) for mistake in mistakes}


EXERCISES = [
    Exercise(
        "batched_attention",
        mistakes_from=lambda queries, keys, values, scale=True: ref.attention(queries, keys, values,
                                                                          scale=scale),
        returns="an array of shape (..., tokens, d_v)",
        mutants={**_mutants(_batched_attention, [
            # scale_applied_twice is left out: dividing by sqrt(d_k) twice *is* dividing by d_k
            "no_scaling", "scale_by_d_k", "scale_by_sqrt_tokens", "scale_by_sqrt_d_v", "softmax_wrong_axis",
            "softmax_over_all_entries", "softmax_no_max_subtraction", "keys_without_transpose",
            "keys_transpose_all_axes", "keys_times_queries", "weights_times_scores",
            "returns_weights", "weights_transposed", "loop_leftover",
        ]),  # described slips (verdict.slips)
            "scale_flag_ignored": [lambda queries, keys, values, scale=True: ref.attention(queries, keys, values),
                                   lambda queries, keys, values, scale=True: ref.attention(
                                       queries, keys, values, scale=not scale)]},
    ),
    Exercise(
        "causal_mask",
        mistakes_from=lambda n_tokens: ref.causal_mask(n_tokens),
        returns="a boolean array of shape (n_tokens, n_tokens)",
        integers_ok=True,  # a 0/1 integer mask's mistakes are named; its dtype is then told
        **BOOLEAN_MASK,
        mutants=_mutants(_causal_mask, ["causal_mask_off_by_one", "causal_mask_upper",
                                        "mask_wrong_sign"]),
    ),
    Exercise(
        "masked_attention",
        mistakes_from=lambda queries, keys, values, mask: ref.attention(queries, keys, values, mask),
        returns="an array of shape (..., tokens, d_v)",
        mutants={**_mutants(_masked_attention, [
            "mask_wrong_sign", "mask_with_zero", "no_scaling",
            "scale_by_d_k", "scale_by_sqrt_d_v", "softmax_wrong_axis", "softmax_over_all_entries", "softmax_no_max_subtraction",
            "keys_transpose_all_axes", "returns_weights", "weights_transposed",
        ]), "mask_after_softmax": [partial(_masked_attention, mistake="mask_after_softmax"),
                                   partial(_masked_attention, mistake="mask_after_softmax_renormalised")],
                 "mask_ignored": lambda queries, keys, values, mask: ref.attention(queries, keys, values)},
    ),
    Exercise(
        "padding_mask",
        mistakes_from=lambda lengths, n_tokens: ref.padding_mask(lengths, n_tokens),
        returns="a boolean array of shape (batch, 1, n_tokens)",
        integers_ok=True,
        **BOOLEAN_MASK,
        mutants={**_mutants(_padding_mask, ["padding_mask_off_by_one", "mask_wrong_sign", "padding_mask_on_queries"]),
                 # (n_tokens, batch) compared, then reshaped to (batch, 1, n_tokens): the entries scrambled
                 "mask_reshaped_not_transposed": lambda lengths, n_tokens: (
                     np.arange(n_tokens)[:, None] < np.asarray(lengths)[None, :]).reshape(len(lengths), 1, n_tokens)},
    ),
]
