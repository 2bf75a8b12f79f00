"""Notebook 04: why divide by sqrt(d_k)? (NumPy), after seed 004 ("This is book")."""

from functools import partial

import numpy as np

from .. import reference as ref
from ..mutants import global_max_softmax as _global_max_softmax
from ..mutants import naive_softmax as _naive_softmax
from ..mutants import softmax_over_all_entries as _softmax_all_entries
from . import Exercise


def _first_pairs(queries, keys, combine):
    """Query i combined with key i, for as many pairs as the shorter of the two has rows."""
    n = min(len(queries), len(keys))
    return combine(ref.as_float(queries)[:n], ref.as_float(keys)[:n])


def _log_softmax(scores, axis=-1, shift_axis=-1):
    scores = ref.as_float(scores)
    shifted = scores - scores.max(axis=shift_axis if shift_axis is None else axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def _entropy(scores, axis=-1, shift_axis=-1):
    """Entropy (nats) of the softmax of each row of ``scores``: shape scores.shape[:-1]. With
    ``axis`` another axis (or None, every entry) the log-softmax is taken there, as a slip would;
    with ``shift_axis`` None, one maximum of the whole array is subtracted (rows far below it underflow)."""
    log_p = _log_softmax(scores, axis, shift_axis)
    return -(np.exp(log_p) * log_p).sum(axis=-1)


def _entropy_of(weights, eps=0.0):
    """Entropy the naive way, -sum p log p: nan wherever a weight is exactly 0; or, with ``eps``, the
    slip -sum p log(p + eps)."""
    return -(weights * np.log(weights + weights.dtype.type(eps))).sum(axis=-1)


def _entropy_of_normalised(scores):
    """-sum p log|p| for p the scores divided by their sum (a 0 weight adds nothing)."""
    weights = scores / scores.sum(axis=-1, keepdims=True)
    magnitude = np.abs(weights)
    return -(weights * np.log(np.where(magnitude > 0, magnitude, 1.0))).sum(axis=-1)


def _entropy_with_epsilon(eps):
    """The entropy of the scores' weights with eps added inside the logarithm."""
    return lambda scores: _entropy_of(ref.softmax(scores, axis=-1), eps)


def _weights_norm(scores):
    """The norm of each row's weights p: also the norm of diag(p)."""
    return np.linalg.norm(ref.softmax(scores, axis=-1), axis=-1)


def _jacobian(weights):
    return np.diag(weights) - np.outer(weights, weights)


def _inner_product_jacobian(weights, elementwise=False):
    """diag(p) - p @ p (or - p * p): a dot or elementwise product in place of the outer product."""
    return np.diag(weights) - (weights * weights if elementwise else weights @ weights)


def _jacobian_without_outer(weights, side="rows"):
    """diag(p) - p: the weights themselves subtracted (broadcast along the rows, or down the columns)
    where the outer product p p^T belongs."""
    return np.diag(weights) - (weights[None, :] if side == "rows" else weights[:, None])


def _jacobian_identity(weights):
    """I - p p^T: the identity where diag(p) belongs."""
    return np.eye(weights.shape[-1], dtype=weights.dtype) - np.outer(weights, weights)


def _jacobian_outer_added(weights):
    """diag(p) + p p^T: the outer product added, not subtracted."""
    return np.diag(weights) + np.outer(weights, weights)


_JACOBIAN_SLIPS = {
    "jacobian_outer_product_missing": [_jacobian_without_outer, partial(_jacobian_without_outer, side="columns")],
    "jacobian_identity_for_diagonal": [_jacobian_identity],
    "jacobian_outer_product_added": [_jacobian_outer_added],
}


def _of_weights(jacobian):
    """softmax_jacobian with the Jacobian of the scores' weights made by ``jacobian``."""
    return lambda scores: jacobian(ref.softmax(scores, axis=-1))


def _norms_of(jacobian):
    """gradient_norms with the Jacobian of each row made by ``jacobian`` (one row's weights -> (n, n))."""
    return lambda scores: np.array([np.linalg.norm(jacobian(weights)) for weights in ref.softmax(scores, axis=-1)])


def _sweep_with(columns=lambda w: slice(None, w), divisor=lambda w, queries, keys, power: float(w) ** power):
    """width_sweep with the slice of each vector or the divisor replaced; defaults are the correct ones."""

    def sweep(queries, keys, widths, power):
        queries, keys = ref.as_float(queries), ref.as_float(keys)
        stack = []
        for w in np.asarray(widths).tolist():
            scores = ref.dot_products(queries[:, columns(w)], keys[:, columns(w)])  # (n_q, n_k)
            stack.append(ref.divide_scores(scores, divisor(w, queries, keys, power)))
        return np.stack(stack)  # (n_widths, n_q, n_k)

    return sweep



def _jacobians(scores):
    """The softmax Jacobian of every row of ``scores`` (n_q, n_k): shape (n_q, n_k, n_k)."""
    weights = ref.softmax(scores, axis=-1)  # (n_q, n_k)
    return weights[:, :, None] * np.eye(weights.shape[-1], dtype=weights.dtype) - weights[:, :, None] * weights[:, None, :]


def _gradient_norms(scores):
    return np.sqrt((_jacobians(scores) ** 2).sum(axis=(-2, -1)))  # (n_q,)


EXERCISES = [
    Exercise(
        "score_variance",
        mistakes_from=lambda queries, keys: np.var(ref.dot_products(queries, keys)),
        returns="one number: the variance of all raw dot products",
        mutants={
            "std_instead_of_variance": lambda queries, keys: np.std(queries @ keys.T),
            "scaled_too_early": lambda queries, keys: np.var(queries @ keys.T / np.sqrt(keys.shape[-1])),
            "keys_without_transpose": lambda queries, keys: np.var(queries @ keys),
            "sum_instead_of_dot": [lambda queries, keys: np.var(queries * keys),
                                   lambda queries, keys: np.var(_first_pairs(queries, keys, np.multiply))],
            # query i with key i only: the diagonal of queries @ keys.T
            "matched_pairs_only": lambda queries, keys: np.var(_first_pairs(queries, keys, np.multiply).sum(axis=-1)),
            "returns_scores": lambda queries, keys: ref.dot_products(queries, keys),
            # d_k var(q) var(k): the formula's prediction, not the scores' variance
            "variance_from_formula": [
                lambda queries, keys: np.var(queries) * np.var(keys) * np.shape(keys)[-1],
                lambda queries, keys: np.var(queries, ddof=1) * np.var(keys, ddof=1) * np.shape(keys)[-1],
                lambda queries, keys: float(np.shape(keys)[-1])],
            # the scores in float16: from float16 inputs, or rounded once formed (the variance taken in float16)
            "lower_precision": [
                lambda queries, keys: np.var(np.asarray(queries, np.float16) @ np.asarray(keys, np.float16).T),
                lambda queries, keys: np.var(ref.dot_products(queries, keys).astype(np.float16))],
            # described slips (verdict.slips): the mean square; per row (ddof=1 is a factor, said as one)
            "variance_not_centred": lambda queries, keys: np.mean(ref.dot_products(queries, keys) ** 2),
            "variance_per_row": [lambda queries, keys: np.var(ref.dot_products(queries, keys), axis=-1).mean(),
                                 lambda queries, keys: np.var(ref.dot_products(queries, keys), axis=-1)],
        },
    ),
    Exercise(
        "width_sweep",
        mistakes_from=_sweep_with(),
        returns="a (n_widths, n_queries, n_keys) array: one score matrix per width",
        mutants={
            "width_scale_fixed": _sweep_with(divisor=lambda w, q, k, power: np.sqrt(float(w))),
            "width_scale_full": _sweep_with(divisor=lambda w, q, k, power: float(k.shape[-1]) ** power),
            "width_last_columns": _sweep_with(columns=lambda w: slice(-w, None)),
            "width_slice_off_by_one": [_sweep_with(columns=lambda w: slice(None, w + 1)),
                                       _sweep_with(columns=lambda w: slice(None, max(w - 1, 0)))],
            "integer_arithmetic": _sweep_with(divisor=lambda w, q, k, power: float(int(float(w) ** power))),
            # described slips (verdict.slips)
            "width_power_multiplied": [_sweep_with(divisor=lambda w, q, k, power: float(w) * power if power else 1.0),
                                       _sweep_with(divisor=lambda w, q, k, power: float(power) ** w)],
        },
    ),
    Exercise(
        "attention_entropy",
        mistakes_from=_entropy,
        returns="an array with the shape of scores without its last axis: one entropy per query",
        mutants={
            "softmax_no_max_subtraction": lambda scores: _entropy_of(_naive_softmax(scores)),
            "entropy_nan_for_zero_weights": lambda scores: _entropy_of(ref.softmax(scores, axis=-1)),
            # log(p + eps): every term shifted a little, most where p is small
            "epsilon_in_log": [_entropy_with_epsilon(eps) for eps in (1e-12, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5)],
            # the scores themselves as weights, the naive way: nan wherever a score is negative
            "no_softmax": lambda scores: _entropy_of(ref.as_float(scores)),
            # the weights as the scores divided by their sum (of their absolute values, or with the log of |p|)
            "normalise_by_sum": [lambda scores: _entropy_of_normalised(np.abs(ref.as_float(scores))),
                                 lambda scores: _entropy_of_normalised(ref.as_float(scores))],
            "softmax_wrong_axis": [lambda scores: _entropy(scores.T), lambda scores: _entropy(scores, axis=0)],
            "softmax_over_all_entries": [lambda scores: _entropy_of(_softmax_all_entries(scores)),
                                         lambda scores: _entropy(scores, axis=None)],
            # the weights rounded to float16 (their logarithms kept)
            "lower_precision": lambda scores: -(np.exp(_log_softmax(scores)).astype(np.float16)
                                                * _log_softmax(scores)).sum(axis=-1),
            # a decoy (autograder.key.mistakes.DECOYS): one maximum for every row, left uncatalogued
            "softmax_global_max": [lambda scores: _entropy(scores, shift_axis=None),
                                   lambda scores: _entropy_of(_global_max_softmax(scores))],
            # a described slip (verdict.slips): each row's terms summed down the columns (bits are
            # a factor, 1/ln 2, said as one)
            "entropy_summed_over_queries": lambda scores: -(np.exp(_log_softmax(scores)) * _log_softmax(scores)).sum(axis=0),
        },
    ),
    Exercise(
        "softmax_jacobian",
        mistakes_from=lambda scores: _jacobian(ref.softmax(scores, axis=-1)),
        returns="an (n, n) array: entry (i, j) is the derivative of weight i with respect to score j",
        mutants={
            "jacobian_diagonal_only": [  # diag(p) alone, or only the diagonal entries p_i (1 - p_i)
                lambda scores: np.diag(ref.softmax(scores, axis=-1)),
                lambda scores: np.diag(np.diag(_jacobian(ref.softmax(scores, axis=-1)))),
            ],
            "jacobian_sign_flipped": lambda scores: -_jacobian(ref.softmax(scores, axis=-1)),
            "softmax_no_max_subtraction": lambda scores: _jacobian(_naive_softmax(scores)),
            # diag(p) - p @ p: the dot product, one number, subtracted from every entry
            "jacobian_inner_product": [
                lambda scores: _inner_product_jacobian(ref.softmax(scores, axis=-1)),
                lambda scores: _inner_product_jacobian(ref.softmax(scores, axis=-1), elementwise=True)],
            **{mistake: [_of_weights(slip) for slip in slips] for mistake, slips in _JACOBIAN_SLIPS.items()},
        },
    ),
    Exercise(
        "gradient_norms",
        mistakes_from=_gradient_norms,
        returns="a (n_queries,) array: the Frobenius norm of each row's softmax Jacobian",
        uses={"softmax_jacobian": lambda scores: _jacobian(ref.softmax(scores, axis=-1))},
        mutants={
            # the norm of the Jacobian's diagonal p_i (1 - p_i) alone, or of diag(p) (KEYING.md): the
            # weights' norm on every input, so the verdict names both entries
            "jacobian_diagonal_only": [
                lambda scores: np.linalg.norm(ref.softmax(scores, axis=-1) * (1 - ref.softmax(scores, axis=-1)), axis=-1),
                _weights_norm],  # |diag(p)| = |p|
            "gradient_norm_squared": lambda scores: (_jacobians(scores) ** 2).sum(axis=(-2, -1)),
            "gradient_norm_of_weights": _weights_norm,
            "gradient_norm_whole_stack": lambda scores: np.sqrt((_jacobians(scores) ** 2).sum()),
            "gradient_norm_spectral": lambda scores: np.linalg.norm(_jacobians(scores), ord=2, axis=(-2, -1)),
            "gradient_norm_sum_of_abs": lambda scores: np.abs(_jacobians(scores)).sum(axis=(-2, -1)),
            "jacobian_inner_product": [
                lambda scores: np.array([np.linalg.norm(_inner_product_jacobian(weights))
                                         for weights in ref.softmax(scores, axis=-1)]),
                lambda scores: np.array([np.linalg.norm(_inner_product_jacobian(weights, elementwise=True))
                                         for weights in ref.softmax(scores, axis=-1)])],
            **{mistake: [_norms_of(slip) for slip in slips] for mistake, slips in _JACOBIAN_SLIPS.items()},
            # described slips (verdict.slips): one norm per column; the largest entry
            "norm_per_column": lambda scores: _gradient_norms(np.swapaxes(ref.as_float(scores), -1, -2)),
            # (the sum of absolute values is catalogued: gradient_norm_sum_of_abs)
            "norm_not_frobenius": lambda scores: np.abs(_jacobians(scores)).max(axis=(-2, -1)),
            # not one norm per key (each column's softmax and Jacobian): KEYING.md rules that
            # uncatalogued (three sets of five); the shared step's per-row norms stay softmax_wrong_axis
        },
    ),
]
