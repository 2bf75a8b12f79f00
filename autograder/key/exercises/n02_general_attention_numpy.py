"""Notebook 02: general attention with queries, keys and values (NumPy/SciPy), after seed 001."""

import numpy as np

from .. import reference as ref
from ..mutants import naive_softmax as _naive_softmax
from ..mutants import softmax_over_all_entries as _softmax_all
from . import Exercise

# --- exercise 1: project_qkv --------------------------------------------------------------------------


def _project(inputs, w_query, w_key, w_value):
    """The reference: queries, keys and values stacked into one (3, tokens, d_k) array."""
    return np.stack(ref.project(inputs, w_query, w_key, w_value))


def _project_columns(inputs, w_query, w_key, w_value):
    """Each word treated as a column vector: W @ x, which is x @ W.T for a row x."""
    inputs = ref.as_float(inputs)
    return np.stack([inputs @ ref.as_float(w).T for w in (w_query, w_key, w_value)])


# --- exercise 3: scaled_softmax -------------------------------------------------------------------






def _scaled_softmax_with(scale_of, normalise=lambda s: ref.softmax(s, axis=-1)):
    """scaled_softmax(scores, d_k) with the scale given by ``scale_of(scores, d_k)``."""
    return lambda scores, d_k: normalise(ref.as_float(scores) / scale_of(scores, d_k))


def _sqrt_d_k(scores, d_k):
    return np.sqrt(d_k)


# --- exercise 4: attention_for_query --------------------------------------------------------------


def _for_query(scale_of=lambda keys: np.sqrt(keys.shape[-1]), normalise=lambda s: ref.softmax(s, -1),
               output=lambda weights, query, keys, values: weights @ values):
    """attention_for_query with one step replaceable, to build the mutants."""

    def attend(query, keys, values):
        query, keys, values = ref.as_float(query), ref.as_float(keys), ref.as_float(values)
        weights = normalise(keys @ query / scale_of(keys))  # (tokens,)
        return output(weights, query, keys, values)

    return attend


# --- exercise 5: general_attention -----------------------------------------------------------------


def _matrix(project=ref.project, scores_of=lambda q, k: q @ k.T, scale_of=lambda x, k: np.sqrt(k.shape[-1]),
            normalise=lambda s: ref.softmax(s, axis=-1), output=lambda w, q, k, v, s: w @ v):
    """general_attention with one step replaceable, to build the mutants."""

    def attend(inputs, w_query, w_key, w_value):
        queries, keys, values = project(inputs, w_query, w_key, w_value)  # (tokens, d_k) each
        scores = scores_of(queries, keys)  # (queries, keys)
        weights = normalise(scores / scale_of(inputs, keys))  # rows sum to 1
        return output(weights, queries, keys, values, scores)  # (queries, d_v)

    return attend


def _project_mixed(inputs, w_query, w_key, w_value):
    return ref.project(inputs, w_query, w_value, w_key)  # keys and values swapped


EXERCISES = [
    Exercise(
        "project_qkv",
        reference=_project,
        returns="the tuple (queries, keys, values), each of shape (tokens, d_k)",
        returns_tuple=True,
        integers_ok=True,
        mutants={
            "projection_order": _project_columns,
            "mixed_up_projections": lambda x, wq, wk, wv: np.stack(_project_mixed(x, wq, wk, wv)),
        },
    ),
    Exercise(
        "key_scores",
        reference=lambda query, keys: ref.dot_scores(query, keys),
        returns="a 1-d array of scores, one per key",
        integers_ok=True,
        mutants={
            "sum_instead_of_dot": lambda query, keys: ref.as_float(keys) * ref.as_float(query),
            "scaled_too_early": lambda query, keys: ref.dot_scores(query, keys) / np.sqrt(np.shape(keys)[-1]),
        },
    ),
    Exercise(
        "scaled_softmax",
        reference=lambda scores, d_k: ref.scaled_softmax(scores, d_k),
        returns="an array of weights with the shape of the scores",
        mutants={
            "no_scaling": _scaled_softmax_with(lambda s, d_k: 1.0),
            "scale_by_d_k": _scaled_softmax_with(lambda s, d_k: d_k),
            "scale_by_sqrt_tokens": _scaled_softmax_with(lambda s, d_k: np.sqrt(np.shape(s)[-1])),
            "softmax_over_all_entries": _scaled_softmax_with(_sqrt_d_k, _softmax_all),
            "softmax_wrong_axis": _scaled_softmax_with(_sqrt_d_k, lambda s: ref.softmax(s, axis=0)),
            "softmax_no_max_subtraction": _scaled_softmax_with(_sqrt_d_k, _naive_softmax),
            "normalise_by_sum": _scaled_softmax_with(_sqrt_d_k, lambda s: s / s.sum(-1, keepdims=True)),
            "no_softmax": _scaled_softmax_with(_sqrt_d_k, lambda s: s),
        },
    ),
    Exercise(
        "attention_for_query",
        reference=lambda query, keys, values: ref.attention(ref.as_float(query)[None, :], keys, values)[0],
        returns="one attention vector, a 1-d array of length d_v",
        uses={
            "key_scores": lambda query, keys: ref.dot_scores(query, keys),
            "scaled_softmax": _scaled_softmax_with(_sqrt_d_k),
        },
        mutants={
            "no_scaling": _for_query(scale_of=lambda k: 1.0),
            "scale_by_d_k": _for_query(scale_of=lambda k: k.shape[-1]),
            "scale_by_sqrt_tokens": _for_query(scale_of=lambda k: np.sqrt(k.shape[0])),
            "normalise_by_sum": _for_query(normalise=lambda s: s / s.sum()),
            "no_softmax": _for_query(normalise=lambda s: s),
            "returns_weights": _for_query(output=lambda w, q, k, v: w),
            "weights_times_keys": _for_query(output=lambda w, q, k, v: w @ k),
            "returns_scores": lambda query, keys, values: ref.dot_scores(query, keys),
            "softmax_no_max_subtraction": _for_query(normalise=_naive_softmax),
            "weights_times_scores": [  # weights @ scores (one number), or weights * scores
                _for_query(output=lambda w, q, k, v: w @ (k @ q)),
                _for_query(output=lambda w, q, k, v: w * (k @ q)),
            ],
        },
    ),
    Exercise(
        "general_attention",
        reference=lambda inputs, w_query, w_key, w_value: ref.self_attention(inputs, w_query, w_key, w_value),
        returns="a (tokens, d_v) array: one attention vector per word",
        uses={
            "project_qkv": _project,
            "key_scores": lambda query, keys: ref.dot_scores(query, keys),
            "scaled_softmax": _scaled_softmax_with(_sqrt_d_k),
            "attention_for_query": _for_query(),
        },
        mutants={
            "no_scaling": _matrix(scale_of=lambda x, k: 1.0),
            "scale_by_d_k": _matrix(scale_of=lambda x, k: k.shape[-1]),
            "scale_by_sqrt_tokens": _matrix(scale_of=lambda x, k: np.sqrt(k.shape[0])),
            "scale_by_sqrt_d_model": _matrix(scale_of=lambda x, k: np.sqrt(np.shape(x)[-1])),
            "softmax_over_all_entries": _matrix(normalise=_softmax_all),
            "softmax_wrong_axis": _matrix(normalise=lambda s: ref.softmax(s, axis=0)),
            "normalise_by_sum": _matrix(normalise=lambda s: s / s.sum(-1, keepdims=True)),
            "no_softmax": _matrix(normalise=lambda s: s),
            "keys_without_transpose": _matrix(scores_of=lambda q, k: q @ k),
            "keys_times_queries": _matrix(scores_of=lambda q, k: k @ q.T),
            "weights_transposed": _matrix(output=lambda w, q, k, v, s: w.T @ v),
            "weights_times_scores": _matrix(output=lambda w, q, k, v, s: w @ s),
            "weights_times_keys": _matrix(output=lambda w, q, k, v, s: w @ k),
            "weights_times_queries": _matrix(output=lambda w, q, k, v, s: w @ q),
            "returns_weights": _matrix(output=lambda w, q, k, v, s: w),
            "returns_scores": _matrix(output=lambda w, q, k, v, s: s),
            "mixed_up_projections": _matrix(project=_project_mixed),
            "projection_order": _matrix(project=lambda *a: tuple(_project_columns(*a))),
            "softmax_no_max_subtraction": _matrix(normalise=_naive_softmax),
            "loop_leftover": [  # `return` inside the loop over the queries: only the first row
                _matrix(output=lambda w, q, k, v, s: (w @ v)[0]),
                _matrix(output=lambda w, q, k, v, s: (w @ v)[:1]),
            ],
        },
    ),
]
