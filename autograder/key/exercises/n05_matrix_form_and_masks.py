"""Notebook 05: step by step to the matrix form, with batches and masks (NumPy), after seed 003.

Every mutant below is the notebook's answer with one catalogued mistake made (see
:mod:`attention_course.mistakes`). The attention mutants are one composition of the answer's steps
(``_attention_with``) with one step replaced by a wrong one, so that each differs from the answer in
exactly one place; the masks' mutants are small wrong functions of their own.
"""

import numpy as np

from .. import reference as ref
from ..mutants import masked_after_softmax, naive_softmax, softmax_over_all_entries
from . import BOOLEAN_MASK, Exercise

# --- exercise 1 and 3: all rows at once, for any leading batch axes, and with a mask -------------
# The answer's steps, in the answer's own arithmetic (a scale of NumPy's float64, as the notebook
# divides): products of the queries and keys, the divisor, the weights from the scores and the
# mask, and the result from the weights.


def _products(queries, keys):
    return queries @ np.swapaxes(keys, -1, -2)  # (..., queries, keys)


def _sqrt_d_k(keys, values):
    return np.sqrt(keys.shape[-1])


def _masked(scores, mask):
    return scores if mask is None else np.where(mask, scores, -np.inf)


def _weights_by(softmax=ref.softmax, masking=_masked):
    """The weights step: ``softmax`` of the scores masked by ``masking``."""
    return lambda scores, mask: softmax(masking(scores, mask), axis=-1)


def _weighted_values(weights, values, scores):
    return weights @ values  # (..., queries, keys) @ (..., keys, d_v) -> (..., queries, d_v)


_STEPS = {"products": _products, "divisor": _sqrt_d_k, "weights": _weights_by(), "result": _weighted_values}


def _attention_with(**wrong):
    """softmax(mask(Q K^T / s)) V over the last two axes, with the steps named in ``wrong`` replaced."""
    steps = {**_STEPS, **wrong}

    def attention(queries, keys, values, scale=True, mask=None):
        queries, keys, values = ref.as_float(queries), ref.as_float(keys), ref.as_float(values)
        scores = steps["products"](queries, keys)
        if scale is True:
            scores = scores / steps["divisor"](keys, values)
        elif scale:  # a number
            scores = scores / scale
        weights = steps["weights"](scores, None if mask is None else np.asarray(mask, dtype=bool))
        return steps["result"](weights, values, scores)

    return attention


def _first_row_only(weights, values, scores):
    """Only the first query's row computed, as in the seed; the others left zero."""
    context = weights @ values
    leftover = np.zeros_like(context)
    leftover[..., :1, :] = context[..., :1, :]
    return leftover


# one wrong step each, by mistake id (the masks' mistakes only where there is a mask)
_WRONG_STEPS = {
    "no_scaling": {"divisor": lambda keys, values: 1.0},
    "scale_by_d_k": {"divisor": lambda keys, values: float(keys.shape[-1])},  # also sqrt(d_k) twice
    "scale_by_sqrt_tokens": {"divisor": lambda keys, values: np.sqrt(keys.shape[-2])},
    "scale_by_sqrt_d_v": {"divisor": lambda keys, values: np.sqrt(values.shape[-1])},
    "softmax_wrong_axis": {"weights": lambda scores, mask: ref.softmax(_masked(scores, mask), axis=-2)},
    # scipy.special.softmax(scores) without an axis
    "softmax_over_all_entries": {"weights": _weights_by(softmax_over_all_entries)},
    "softmax_no_max_subtraction": {"weights": _weights_by(naive_softmax)},
    "keys_without_transpose": {"products": lambda queries, keys: queries @ keys},  # needs d_k == tokens
    "keys_transpose_all_axes": {"products": lambda queries, keys: queries @ keys.T},  # scrambles batch axes
    "keys_times_queries": {"products": lambda queries, keys: keys @ np.swapaxes(queries, -1, -2)},
    "weights_times_scores": {"result": lambda weights, values, scores: weights @ scores},
    "returns_weights": {"result": lambda weights, values, scores: weights},
    "weights_transposed": {"result": lambda weights, values, scores: np.swapaxes(weights, -1, -2) @ values},
    "loop_leftover": {"result": _first_row_only},
    "mask_wrong_sign": {"weights": _weights_by(masking=lambda scores, mask: _masked(scores, ~mask))},
    "mask_with_zero": {"weights": _weights_by(masking=lambda scores, mask: np.where(mask, scores, 0.0))},
}


def _mask_after_softmax(renormalised: bool):
    return {"weights": lambda scores, mask: masked_after_softmax(ref.softmax(scores, axis=-1), mask, renormalised)}


def _batched(**wrong):
    attention = _attention_with(**wrong)
    return lambda queries, keys, values, scale=True: attention(queries, keys, values, scale=scale)


def _with_mask(**wrong):
    attention = _attention_with(**wrong)
    return lambda queries, keys, values, mask: attention(queries, keys, values, True, mask)


# --- exercises 2 and 4: masks --------------------------------------------------------------------


def _ones(n_tokens):
    return np.ones((n_tokens, n_tokens), dtype=bool)


def _keep(lengths, n_tokens, keep):
    """``keep(positions (1, n_keys), lengths (batch, 1))``: which keys each sequence keeps."""
    return keep(np.arange(n_tokens)[None, :], np.asarray(lengths)[:, None])


_CAUSAL_MUTANTS = {
    "causal_mask_off_by_one": lambda n_tokens: np.tril(_ones(n_tokens), k=-1),
    "causal_mask_upper": lambda n_tokens: np.triu(_ones(n_tokens)),
    "mask_wrong_sign": lambda n_tokens: ~np.tril(_ones(n_tokens), k=0),
}

_PADDING_MUTANTS = {
    "padding_mask_off_by_one": lambda lengths, n_tokens: _keep(lengths, n_tokens, np.less_equal)[:, None, :],
    "mask_wrong_sign": lambda lengths, n_tokens: _keep(lengths, n_tokens, np.greater_equal)[:, None, :],
    # (batch, n_queries, 1): the padding masks queries, not keys
    "padding_mask_on_queries": lambda lengths, n_tokens: _keep(lengths, n_tokens, np.less)[:, :, None],
    # (n_tokens, batch) compared, then reshaped to (batch, 1, n_tokens): the entries scrambled
    "mask_reshaped_not_transposed": lambda lengths, n_tokens: _keep(lengths, n_tokens, np.less).T.reshape(
        len(lengths), 1, n_tokens),
}


EXERCISES = [
    Exercise(
        "batched_attention",
        mistakes_from=lambda queries, keys, values, scale=True: ref.attention(queries, keys, values,
                                                                          scale=scale),
        returns="an array of shape (..., tokens, d_v)",
        mutants={**{mistake: _batched(**_WRONG_STEPS[mistake]) for mistake in (
            # scale_applied_twice is left out: dividing by sqrt(d_k) twice *is* dividing by d_k
            "no_scaling", "scale_by_d_k", "scale_by_sqrt_tokens", "scale_by_sqrt_d_v", "softmax_wrong_axis",
            "softmax_over_all_entries", "softmax_no_max_subtraction", "keys_without_transpose",
            "keys_transpose_all_axes", "keys_times_queries", "weights_times_scores",
            "returns_weights", "weights_transposed", "loop_leftover",
        )},  # described slips (verdict.slips)
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
        mutants=_CAUSAL_MUTANTS,
    ),
    Exercise(
        "masked_attention",
        mistakes_from=lambda queries, keys, values, mask: ref.attention(queries, keys, values, mask),
        returns="an array of shape (..., tokens, d_v)",
        mutants={**{mistake: _with_mask(**_WRONG_STEPS[mistake]) for mistake in (
            "mask_wrong_sign", "mask_with_zero", "no_scaling",
            "scale_by_d_k", "scale_by_sqrt_d_v", "softmax_wrong_axis", "softmax_over_all_entries", "softmax_no_max_subtraction",
            "keys_transpose_all_axes", "returns_weights", "weights_transposed",
        )}, "mask_after_softmax": [_with_mask(**_mask_after_softmax(False)), _with_mask(**_mask_after_softmax(True))],
                 "mask_ignored": lambda queries, keys, values, mask: ref.attention(queries, keys, values)},
    ),
    Exercise(
        "padding_mask",
        mistakes_from=lambda lengths, n_tokens: ref.padding_mask(lengths, n_tokens),
        returns="a boolean array of shape (batch, 1, n_tokens)",
        integers_ok=True,
        **BOOLEAN_MASK,
        mutants=_PADDING_MUTANTS,
    ),
]
