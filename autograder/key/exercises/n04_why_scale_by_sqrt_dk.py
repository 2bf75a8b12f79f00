"""Notebook 04: why divide by sqrt(d_k)? (NumPy), after seed 004 ("This is book")."""

import numpy as np

from .. import reference as ref
from ..mutants import naive_softmax as _naive_softmax
from ..mutants import softmax_over_all_entries as _softmax_all_entries
from . import Exercise


def _log_softmax(scores):
    scores = ref.as_float(scores)
    shifted = scores - scores.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def _entropy(scores):
    """Entropy (nats) of the softmax of each row of ``scores``: shape scores.shape[:-1]."""
    log_p = _log_softmax(scores)
    return -(np.exp(log_p) * log_p).sum(axis=-1)


def _entropy_of(weights):
    """Entropy the naive way, -sum p log p: nan wherever a weight is exactly 0."""
    return -(weights * np.log(weights)).sum(axis=-1)


def _jacobian(weights):
    return np.diag(weights) - np.outer(weights, weights)


def _scores_with(scale_of, transpose_keys=True, keys_first=False):
    """Scaled scores with the scale computed by ``scale_of(queries, keys)``."""

    def scores(queries, keys):
        queries, keys = ref.as_float(queries), ref.as_float(keys)
        if keys_first:
            raw = keys @ queries.T  # (n_k, n_q): transposed
        else:
            raw = queries @ (keys.T if transpose_keys else keys)
        return raw / scale_of(queries, keys)

    return scores


def _sqrt_d_k(queries, keys):
    return np.sqrt(keys.shape[-1])


def _attention_with(scores_of=None, weights_of=None, combine=None, projections=(0, 1, 2)):
    """Self-attention with one step replaced; defaults are the correct steps."""
    scores_of = scores_of or _scores_with(_sqrt_d_k)
    weights_of = weights_of or (lambda s: ref.softmax(s, axis=-1))
    combine = combine or (lambda weights, scores, values: weights @ values)

    def attention(inputs, w_query, w_key, w_value):
        inputs = ref.as_float(inputs)
        projected = [inputs @ ref.as_float(w) for w in (w_query, w_key, w_value)]
        queries, keys, values = (projected[i] for i in projections)
        scores = scores_of(queries, keys)  # (tokens, tokens)
        return combine(weights_of(scores), scores, values)

    return attention


def _seed_scale(inputs, w_query, w_key, w_value):
    """The seed's own version: divide by sqrt(d_model) (its `dimension=5`) instead of sqrt(d_k)."""
    d_model = np.shape(inputs)[-1]
    return _attention_with(_scores_with(lambda q, k: np.sqrt(d_model)))(inputs, w_query, w_key, w_value)


EXERCISES = [
    Exercise(
        "scaled_scores",
        reference=lambda queries, keys: ref.attention_scores(queries, keys),
        returns="a (n_queries, n_keys) array of scaled scores",
        mutants={
            "no_scaling": _scores_with(lambda q, k: 1.0),
            "scale_by_d_k": _scores_with(lambda q, k: k.shape[-1]),
            "scale_by_sqrt_tokens": _scores_with(lambda q, k: np.sqrt(k.shape[0])),
            "keys_without_transpose": _scores_with(_sqrt_d_k, transpose_keys=False),
            "keys_times_queries": _scores_with(_sqrt_d_k, keys_first=True),
        },
    ),
    Exercise(
        "scaled_self_attention",
        reference=lambda inputs, w_query, w_key, w_value: ref.self_attention(inputs, w_query, w_key, w_value),
        returns="a (tokens, d_v) array of context vectors",
        uses={"scaled_scores": lambda queries, keys: ref.attention_scores(queries, keys)},
        mutants={
            "scale_by_sqrt_d_model": _seed_scale,
            "no_scaling": _attention_with(_scores_with(lambda q, k: 1.0)),
            "scale_applied_twice": _attention_with(_scores_with(lambda q, k: k.shape[-1])),
            "scale_by_sqrt_tokens": _attention_with(_scores_with(lambda q, k: np.sqrt(k.shape[0]))),
            "keys_without_transpose": _attention_with(_scores_with(_sqrt_d_k, transpose_keys=False)),
            "keys_times_queries": _attention_with(_scores_with(_sqrt_d_k, keys_first=True)),
            "softmax_wrong_axis": _attention_with(weights_of=lambda s: ref.softmax(s, axis=0)),
            "softmax_over_all_entries": _attention_with(weights_of=_softmax_all_entries),
            "softmax_no_max_subtraction": _attention_with(weights_of=_naive_softmax),
            "normalise_by_sum": _attention_with(weights_of=lambda s: s / s.sum(axis=-1, keepdims=True)),
            "weights_times_scores": _attention_with(combine=lambda weights, scores, values: weights @ scores),
            "returns_weights": _attention_with(combine=lambda weights, scores, values: weights),
            "mixed_up_projections": _attention_with(projections=(0, 2, 1)),  # keys from W_V, values from W_K
        },
    ),
    Exercise(
        "score_variance",
        reference=lambda queries, keys: np.var(ref.as_float(queries) @ ref.as_float(keys).T),
        returns="one number: the variance of all raw dot products",
        mutants={
            "std_instead_of_variance": lambda queries, keys: np.std(queries @ keys.T),
            "scaled_too_early": lambda queries, keys: np.var(queries @ keys.T / np.sqrt(keys.shape[-1])),
            "keys_without_transpose": lambda queries, keys: np.var(queries @ keys),
            "sum_instead_of_dot": lambda queries, keys: np.var(queries * keys),
        },
    ),
    Exercise(
        "attention_entropy",
        reference=_entropy,
        returns="an array with the shape of scores without its last axis: one entropy per query",
        mutants={
            "softmax_no_max_subtraction": lambda scores: _entropy_of(_naive_softmax(scores)),
            "entropy_nan_for_zero_weights": lambda scores: _entropy_of(ref.softmax(scores, axis=-1)),
            "softmax_wrong_axis": lambda scores: -(np.exp(_log_softmax(scores.T)) * _log_softmax(scores.T)).sum(-1),
            "softmax_over_all_entries": lambda scores: _entropy_of(_softmax_all_entries(scores)),
        },
    ),
    Exercise(
        "softmax_jacobian",
        reference=lambda scores: _jacobian(ref.softmax(scores, axis=-1)),
        returns="an (n, n) array: entry (i, j) is the derivative of weight i with respect to score j",
        mutants={
            "jacobian_diagonal_only": [  # diag(p) alone, or only the diagonal entries p_i (1 - p_i)
                lambda scores: np.diag(ref.softmax(scores, axis=-1)),
                lambda scores: np.diag(np.diag(_jacobian(ref.softmax(scores, axis=-1)))),
            ],
            "jacobian_sign_flipped": lambda scores: -_jacobian(ref.softmax(scores, axis=-1)),
            "softmax_no_max_subtraction": lambda scores: _jacobian(_naive_softmax(scores)),
        },
    ),
]
