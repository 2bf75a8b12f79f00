"""Notebook 02: general attention with queries, keys and values (NumPy/SciPy), after seed 001."""

import numpy as np

from .. import reference as ref
from . import Exercise

# --- exercise 1: project_qkv --------------------------------------------------------------------------


def _project(inputs, w_query, w_key, w_value):
    """The reference: queries, keys and values stacked into one (3, tokens, d_k) array."""
    return np.stack(ref.project(inputs, w_query, w_key, w_value))


def _project_columns(inputs, w_query, w_key, w_value):
    """Each word treated as a column vector: W @ x, which is x @ W.T for a row x."""
    inputs = ref.as_float(inputs)
    return np.stack([inputs @ ref.as_float(w).T for w in (w_query, w_key, w_value)])


def _project_mixed(inputs, w_query, w_key, w_value):
    return ref.project(inputs, w_query, w_value, w_key)  # keys and values swapped


# --- exercises 2 and 3: state_weights, state_attention ---------------------------------------------


def _query_keys_values(state, states, w_query, w_key, w_value):
    """The query projected from ``state`` (1, d_k); keys (n_states, d_k) and values (n_states, d_v) from
    ``states``. Through the shared ``project`` step (each call given only matrices that fit its
    input, since ``d_state`` and ``d_model`` may differ), so that its mistakes apply here too."""
    query = ref.project(ref.as_float(state)[None, :], w_query, w_query, w_query)[0]  # (1, d_k)
    _, keys, values = ref.project(states, w_key, w_key, w_value)  # (n_states, d_k), (n_states, d_v)
    return query, keys, values


def _state_weights(state, states, w_query, w_key):
    query, keys, _ = _query_keys_values(state, states, w_query, w_key, w_key)
    return ref.attention_weights(query, keys)[0]  # (n_states,)


def _state_attention(state, states, w_query, w_key, w_value):
    query, keys, values = _query_keys_values(state, states, w_query, w_key, w_value)
    return ref.attention(query, keys, values)[0]  # (d_v,)


def _by_width_of(which):
    """The scores divided by sqrt of the width of ``states`` (which=1) or of ``state`` (which=0)."""

    def divisor(state, states, w_query, w_key):
        return np.sqrt(np.shape((state, states)[which])[-1])

    return divisor


def _weights_with(divisor):
    def weights(state, states, w_query, w_key):
        query = ref.as_float(state) @ ref.as_float(w_query)  # (d_k,)
        keys = ref.as_float(states) @ ref.as_float(w_key)  # (n_states, d_k)
        return ref.softmax(keys @ query / divisor(state, states, w_query, w_key))

    return weights


def _attention_with(divisor=lambda *a: np.sqrt(np.shape(a[3])[-1]), output=None):
    def attend(state, states, w_query, w_key, w_value):
        weights = _weights_with(divisor)(state, states, w_query, w_key)  # (n_states,)
        matrix = {"keys": w_key, "queries": w_query}.get(output, w_value)
        projected = ref.as_float(states) @ ref.as_float(matrix)  # (n_states, d_v), or the wrong matrix's
        return weights @ projected  # (d_v,)

    return attend


def _floor_divided_by_whole_root(state, states, w_query, w_key):
    """state_weights with the scores floor-divided (//) by int(sqrt(d_k)).

    Where int(sqrt(d_k)) is 1 (d_k < 4) and the scores are whole numbers (integer inputs), ``// 1``
    changes nothing: the answer is then the unscaled one, which ``no_scaling`` names, and nothing
    tells the two apart; there the mutant divides by sqrt(d_k) itself, so as not to name a third
    mistake beside the two that already give those numbers."""
    query = ref.as_float(state) @ ref.as_float(w_query)  # (d_k,)
    keys = ref.as_float(states) @ ref.as_float(w_key)  # (n_states, d_k)
    scores, root = keys @ query, np.sqrt(keys.shape[-1])
    unchanged = int(root) == 1 and np.array_equal(scores, np.round(scores))
    return ref.softmax(scores // (root if unchanged else int(root)))


def _scaled_by_values_width(state, states, w_query, w_key, w_value):
    """state_attention with the scores divided by sqrt(d_v), the values' width, instead of sqrt(d_k)."""
    return _attention_with(lambda *a: np.sqrt(np.shape(w_value)[-1]))(state, states, w_query, w_key, w_value)


EXERCISES = [
    Exercise(
        "project_qkv",
        mistakes_from=_project,
        returns="the tuple (queries, keys, values), each of shape (tokens, d_k)",
        returns_tuple=True,
        integers_ok=True,
        mutants={
            "projection_order": _project_columns,
            "mixed_up_projections": lambda x, wq, wk, wv: np.stack(_project_mixed(x, wq, wk, wv)),
        },
    ),
    Exercise(
        "state_weights",
        mistakes_from=_state_weights,
        returns="a 1-d array of weights, one per state",
        mutants={
            "scale_by_sqrt_d_model": [_weights_with(_by_width_of(1)), _weights_with(_by_width_of(0))],
            "integer_arithmetic": _floor_divided_by_whole_root,  # (// sqrt(d_k) itself is a shared step)
            "mixed_up_projections": lambda state, states, w_query, w_key: _state_weights(
                state, states, w_key, w_query),  # the query through W_K, the keys through W_Q
            "returns_scores": lambda state, states, w_query, w_key: (
                ref.as_float(states) @ ref.as_float(w_key)) @ (ref.as_float(state) @ ref.as_float(w_query)),
            # the first or the last of the states projected as the query, not the decoder's state
            "wrong_query": [lambda state, states, w_query, w_key: _state_weights(states[0], states, w_query, w_key),
                            lambda state, states, w_query, w_key: _state_weights(states[-1], states, w_query, w_key)],
        },
    ),
    Exercise(
        "state_attention",
        mistakes_from=_state_attention,
        returns="one attention vector, a 1-d array of length d_v",
        uses={"state_weights": _state_weights},
        mutants={
            "scale_by_sqrt_d_model": [_attention_with(_by_width_of(1)), _attention_with(_by_width_of(0))],
            "weights_times_keys": _attention_with(output="keys"),
            "mixed_up_projections": _attention_with(output="queries"),  # the values projected with W_Q
            "scale_by_sqrt_d_v": _scaled_by_values_width,
            # the weights applied to the states themselves, W_V left out
            "values_not_projected": lambda state, states, w_query, w_key, w_value: _state_weights(
                state, states, w_query, w_key) @ ref.as_float(states),
            # the weights applied to the scores: one number, not a vector
            "weights_times_scores": lambda state, states, w_query, w_key, w_value: _state_weights(
                state, states, w_query, w_key) @ ((ref.as_float(states) @ ref.as_float(w_key))
                                                  @ (ref.as_float(state) @ ref.as_float(w_query))),
        },
    ),
]
