"""Notebook 01: attention without trainable weights (PyTorch), after seed 002."""


import numpy as np

from .. import reference as ref
from ..mutants import naive_softmax as _naive_softmax
from . import Exercise


def _self_attention_with(weights_of):
    """Context vectors of plain self-attention, with the weights computed by ``weights_of``."""
    return lambda inputs: weights_of(inputs @ inputs.T) @ inputs


def _scaled_self_attention(power):
    """Self-attention with the scores divided by d ** power, d the width of the inputs."""
    def attend(inputs):
        inputs = ref.as_float(inputs)
        return ref.softmax(inputs @ inputs.T / inputs.shape[-1] ** power, axis=-1) @ inputs
    return attend


EXERCISES = [
    Exercise(
        "scores_for_query",
        mistakes_from=lambda query, inputs: ref.dot_scores(query, inputs),
        framework="torch",
        returns="a 1-d tensor of scores, one per token",
        mutants={
            "sum_instead_of_dot": [
                lambda query, inputs: inputs * query,
                lambda query, inputs: (inputs + query).sum(axis=-1),
                lambda query, inputs: inputs.sum(axis=-1) * query.sum(),
            ],
            "wrong_query": [lambda query, inputs: inputs @ inputs[1],
                            lambda query, inputs: inputs @ inputs[0]],
            # the division by sqrt(d) of the notebooks to come, made here where the scores are raw
            "scaled_too_early": lambda query, inputs: ref.dot_scores(query, inputs) / np.sqrt(np.shape(inputs)[-1]),
            # described slips (verdict.slips): every token's scores, or cosine similarities
            "scores_of_every_query": [lambda query, inputs: ref.as_float(inputs) @ ref.as_float(inputs).T,
                                      lambda query, inputs: ref.as_float(inputs) @ ref.as_float(inputs)],
            "cosine_similarity": lambda query, inputs: ref.dot_scores(query, inputs) / (
                np.linalg.norm(ref.as_float(inputs), axis=-1) * np.linalg.norm(ref.as_float(query))),
        },
    ),
    Exercise(
        "softmax_stable",
        mistakes_from=lambda scores: ref.softmax(scores, axis=-1),
        framework="torch",
        returns="a tensor of weights with the shape of the scores",
        mutants={
            "softmax_no_max_subtraction": _naive_softmax,
            "softmax_wrong_axis": lambda scores: ref.softmax(scores, axis=0),
            "normalise_by_sum": lambda scores: scores / scores.sum(axis=-1, keepdims=True),
            "no_softmax": lambda scores: scores,
        },
    ),
    Exercise(
        "context_vector",
        mistakes_from=lambda weights, inputs: ref.weighted_sum(weights, inputs),
        framework="torch",
        returns="one context vector, a 1-d tensor of length d",
        mutants={
            "returns_weights": lambda weights, inputs: weights,
            # the scores of every query, or of the text's query (token 1), weighted (and summed)
            "weights_times_scores": [lambda weights, inputs: weights @ (inputs @ inputs.T),
                                     lambda weights, inputs: weights * (inputs @ inputs[1]),
                                     lambda weights, inputs: weights @ (inputs @ inputs[1])],
            # the inputs added up or averaged, the weights left out
            "context_without_weights": [lambda weights, inputs: np.sum(inputs, axis=0),
                                        lambda weights, inputs: np.mean(inputs, axis=0)],
            "weights_softmaxed_again": lambda weights, inputs: ref.softmax(ref.as_float(weights), axis=-1) @ ref.as_float(inputs),
        },
    ),
    Exercise(
        "self_attention_no_weights",
        mistakes_from=lambda inputs: ref.attention(inputs, inputs, inputs, scale=False),
        framework="torch",
        returns="a (tokens, d) tensor of context vectors",
        uses={"softmax_stable": lambda s: ref.softmax(s, axis=-1)},
        mutants={
            "softmax_wrong_axis": _self_attention_with(lambda s: ref.softmax(s, axis=0)),
            "normalise_by_sum": _self_attention_with(lambda s: s / s.sum(-1, keepdims=True)),
            "no_softmax": _self_attention_with(lambda s: s),
            "returns_weights": lambda inputs: ref.softmax(inputs @ inputs.T, axis=-1),
            "returns_scores": lambda inputs: inputs @ inputs.T,
            "weights_transposed": lambda inputs: ref.softmax(inputs @ inputs.T, axis=-1).T @ inputs,
            "weights_times_scores": lambda inputs: ref.softmax(inputs @ inputs.T, -1) @ (inputs @ inputs.T),
            "unscaled_attention_scaled": lambda inputs: ref.attention(inputs, inputs, inputs, scale=True),
            "context_without_weights": [lambda inputs: np.broadcast_to(np.sum(inputs, axis=0), np.shape(inputs)),
                                        lambda inputs: np.broadcast_to(np.mean(inputs, axis=0), np.shape(inputs))],
            # the scores divided by sqrt(d) or by d, as the later notebooks do
            # divided by d (by sqrt(d) is catalogued: unscaled_attention_scaled)
            "scaled_where_no_scaling_is_asked": _scaled_self_attention(1.0),
            "weights_softmaxed_again": _self_attention_with(lambda s: ref.softmax(ref.softmax(s, axis=-1), axis=-1)),
            # inputs.T @ inputs: (d, d) features against features, then inputs @ those weights
            "scores_features_by_features": lambda inputs: ref.as_float(inputs) @ ref.softmax(
                ref.as_float(inputs).T @ ref.as_float(inputs), axis=-1),
        },
    ),
]
