"""Notebook 08: your attention inside a real pretrained transformer (all-MiniLM-L6-v2, a BERT).

The references and their one-mistake mutants live in :mod:`..reference_n08`; each mutant below is a
reference with its ``mistake`` knob set. Checks run on small random BERT-like weights (and, in the
visible tests, on some of the real model's weights), so grading stays fast; the notebook compares
the learner's full encoder with transformers' ``BertModel`` outside the graded cells.
"""

from functools import partial

import numpy as np

from .. import reference as ref
from .. import reference_n08 as bert
from ..mutants import head_layout_mutants, split_heads_interleaved, split_heads_without_transpose
from . import Exercise, merged


def _with(function, mistake: str, **kwargs):
    return partial(function, mistake=mistake, **kwargs)


# Names a learner's function may call: the notebook's given helpers and earlier exercises. During a
# check they are replaced by these references, so each exercise is graded on its own.
_HELPERS = {"split_heads": ref.split_heads, "combine_heads": ref.combine_heads, "layer_norm": bert.layer_norm}
_USES_LAYER = {**_HELPERS, "bert_head_weights": bert.bert_head_weights}
_USES_ENCODER = {**_USES_LAYER, "bert_embeddings": bert.bert_embeddings, "bert_layer": bert.bert_layer}

_HEAD_WEIGHT_MISTAKES = (
    "padding_mask_ignored", "mask_wrong_sign", "mask_with_zero", "mask_after_softmax",
    "padding_mask_on_queries", "biases_missing", "no_scaling", "scale_by_sqrt_d_model",
    "keys_times_queries", "softmax_wrong_axis",
)

def _projection_mutants(make) -> dict:
    """W_Q or W_K (or both) transposed: projection_order; one of them used for both: mixed_up_projections."""
    return {"projection_order": [make(m) for m in bert.PROJECTION_MISTAKES[:3]],
            "mixed_up_projections": [make(m) for m in bert.PROJECTION_MISTAKES[3:]]}


def _layer_with(head_weights_mistake: str):
    """The layer with its attention written by hand, making one of the head weights' mistakes."""
    return partial(bert.bert_layer, head_weights=_with(bert.bert_head_weights, head_weights_mistake))


def _padding_slip(slip: str):
    """bert_head_weights with the padding mask misused, made from the unmasked weights: the mask
    applied to the queries' rows with a finite fill (``rows_filled``: a padded query's scores all
    equal, so its weights are uniform) or by multiplying the weights (``rows_zeroed``); or the 0/1
    mask added to the scores (``added``: softmax(s + m) is the weights times e^m, renormalised)."""

    def head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
        weights = bert.bert_head_weights(hidden, w_query, b_query, w_key, b_key, np.ones_like(mask), n_heads)
        real = np.asarray(mask, dtype=weights.dtype)  # (batch, tokens): 1 for real tokens
        if slip == "added":
            raised = weights * np.exp(real)[:, None, None, :]
            return raised / raised.sum(axis=-1, keepdims=True)
        rows = real[:, None, :, None]  # (batch, 1, queries, 1)
        if slip == "rows_zeroed":
            return weights * rows
        return np.where(rows > 0, weights, 1.0 / weights.shape[-1])

    return head_weights


def _stack_transposed_whole(query_weight, key_weight, value_weight, output_weight):
    """The four (out, in) matrices stacked, then ``.T`` on the stack: every axis reversed,
    (d_model, d_model, 4), where each matrix alone should be transposed."""
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T


def _embeddings_normalised_over_tokens(token_ids, token_types, word_embeddings, position_embeddings,
                                       type_embeddings, embedding_norm):
    """The three embeddings summed right, then normalised over the tokens (axis 1), not the features."""
    n_tokens = np.shape(token_ids)[1]
    summed = (np.asarray(word_embeddings)[token_ids] + np.asarray(position_embeddings)[:n_tokens]
              + np.asarray(type_embeddings)[token_types])  # (batch, tokens, d_model)
    centred = summed - summed.mean(axis=1, keepdims=True)
    normed = centred / np.sqrt((centred ** 2).mean(axis=1, keepdims=True) + bert.EPS)
    return normed * np.asarray(embedding_norm)[0] + np.asarray(embedding_norm)[1]


def _words_normalised_before_the_sum(token_ids, token_types, word_embeddings, position_embeddings,
                                     type_embeddings, embedding_norm):
    """The word embeddings layer-normalised alone, the positions and token types added after."""
    n_tokens = np.shape(token_ids)[1]
    gamma, beta = np.asarray(embedding_norm, dtype=np.float64)
    words = bert.layer_norm(np.asarray(word_embeddings, dtype=np.float64)[token_ids], gamma, beta)
    return (words + np.asarray(position_embeddings, dtype=np.float64)[:n_tokens]
            + np.asarray(type_embeddings, dtype=np.float64)[token_types])  # (batch, tokens, d_model)


EXERCISES = [
    Exercise(
        "attention_matrices",
        mistakes_from=bert.attention_matrices,
        returns="an array of shape (4, d_model, d_model): W_Q, W_K, W_V, W_O, each as (in, out)",
        mutants={
            "weights_not_transposed": [
                _with(bert.attention_matrices, "weights_not_transposed"),
                _with(bert.attention_matrices, "output_weight_not_transposed"),
            ],
            "matrices_stacked_on_last_axis": _stack_transposed_whole,
        },
    ),
    Exercise(
        "bert_embeddings",
        mistakes_from=bert.bert_embeddings,
        returns="an array of shape (batch, tokens, d_model)",
        uses=_HELPERS,
        mutants={**{mistake: _with(bert.bert_embeddings, mistake) for mistake in (
            "position_embeddings_missing", "positions_off_by_one", "token_type_embeddings_missing",
            "embedding_layer_norm_missing", "layer_norm_scale_shift_swapped")},
            "embedding_lookup_wrong_ids": [_with(bert.bert_embeddings, wrong) for wrong in (
                "positions_from_token_ids", "types_from_token_ids", "types_all_zero")],
            "layer_norm_wrong_axis": _embeddings_normalised_over_tokens,
            "layer_norm_before_the_sum": _words_normalised_before_the_sum},
    ),
    Exercise(
        "bert_head_weights",
        mistakes_from=bert.bert_head_weights,
        returns="an array of weights of shape (batch, heads, tokens, tokens)",
        uses=_HELPERS,
        mutants={
            **{mistake: _with(bert.bert_head_weights, mistake) for mistake in _HEAD_WEIGHT_MISTAKES},
            "heads_reshape_without_transpose": partial(bert.bert_head_weights,
                                                       split=split_heads_without_transpose),
            "heads_interleaved": partial(bert.bert_head_weights, split=split_heads_interleaved),
            # catalogued as softmax_no_max_subtraction: exp of every score, then times the mask
            "softmax_no_max_subtraction": [_with(bert.bert_head_weights, "softmax_no_max_subtraction"),
                                           _with(bert.bert_head_weights, "exp_times_mask")],
            "mask_finite_value": [_with(bert.bert_head_weights, "mask_finite_value"),
                                  _with(bert.bert_head_weights, "mask_finite_value_additive")],
            # masked after the softmax, renormalised or not (the first is right until weights underflow)
            "mask_after_softmax": [_with(bert.bert_head_weights, "mask_after_softmax"),
                                   _with(bert.bert_head_weights, "mask_after_softmax_renormalised")],
            **_projection_mutants(lambda mistake: _with(bert.bert_head_weights, mistake)),
            "padding_mask_on_queries": [_with(bert.bert_head_weights, "padding_mask_on_queries"),
                                        _padding_slip("rows_filled"), _padding_slip("rows_zeroed")],
            "mask_added_to_scores": _padding_slip("added"),
        },
    ),
    Exercise(
        "bert_layer",
        mistakes_from=bert.bert_layer,
        returns="an array of shape (batch, tokens, d_model)",
        uses=_USES_LAYER,
        mutants={
            "residual_missing": [_with(bert.bert_layer, missing) for missing in (
                "attention_residual_missing", "ffn_residual_missing", "both_residuals_missing")],
            "layer_norm_before_sublayer": _with(bert.bert_layer, "layer_norm_before_sublayer"),
            "second_residual_from_block_input": _with(bert.bert_layer, "second_residual_from_block_input"),
            "layer_norms_mixed_up": [_with(bert.bert_layer, mixed) for mixed in (
                "norms_swapped", "first_norm_twice", "second_norm_twice")],
            "relu_instead_of_gelu": _with(bert.bert_layer, "relu_instead_of_gelu"),
            "gelu_tanh_approximation": _with(bert.bert_layer, "gelu_tanh_approximation"),
            "missing_output_projection": [_with(bert.bert_layer, "missing_output_projection"),
                                          _with(bert.bert_layer, "output_projection_missing_bias_kept")],
            "biases_missing": [*(_with(bert.bert_layer, missing) for missing in (
                "value_and_output_biases_missing", "ffn_biases_missing", "value_bias_missing",
                "output_bias_missing", "ffn_in_bias_missing", "ffn_out_bias_missing")),
                _layer_with("biases_missing")],
            # the attention inside the layer written by hand, with one of the head weights' mistakes
            **merged(
                {mistake: _layer_with(mistake) for mistake in _HEAD_WEIGHT_MISTAKES if mistake != "biases_missing"},
                {"softmax_no_max_subtraction": [_layer_with("softmax_no_max_subtraction"), _layer_with("exp_times_mask")],
                 "mask_finite_value": [_layer_with("mask_finite_value"), _layer_with("mask_finite_value_additive")],
                 "mask_after_softmax": _layer_with("mask_after_softmax_renormalised")},
                _projection_mutants(_layer_with),
                # the values' projection: transposed, or another projection's matrix
                {"projection_order": _with(bert.bert_layer, "value_weight_transposed"),
                 "mixed_up_projections": [_with(bert.bert_layer, "values_from_key_weights"),
                                          _with(bert.bert_layer, "values_from_query_weights")]},
            ),
            **head_layout_mutants(lambda **layout: partial(bert.bert_layer, **layout)),
        },
    ),
    Exercise(
        "sentence_embedding",
        mistakes_from=bert.sentence_embedding,
        returns="an array of shape (batch, d_model)",
        uses=_USES_ENCODER,
        mutants={**{mistake: _with(bert.sentence_embedding, mistake) for mistake in (
            "cls_pooling", "padding_mask_ignored", "layers_not_chained", "layer_weights_not_indexed",
            "pooled_sum_not_mean",
            *bert.EMBEDDING_MISTAKES)},
            # the padding averaged in, or the real tokens' sum divided by the padded length
            "mean_pool_includes_padding": [_with(bert.sentence_embedding, "mean_pool_includes_padding"),
                                           _with(bert.sentence_embedding, "mean_pool_padded_length")],
            # a loop over the layers that stops one short (KEYING.md: a loop that stops early)
            "loop_leftover": _with(bert.sentence_embedding, "last_layer_skipped")},
    ),
    Exercise(
        "head_patterns",
        mistakes_from=bert.head_patterns,
        returns="an array of shape (..., 3): previous token, [CLS] + [SEP], the token itself",
        mutants={**{mistake: _with(bert.head_patterns, mistake) for mistake in (
            "next_token_instead_of_previous", "special_tokens_cls_only", "weights_transposed",
            "special_tokens_rows", "special_tokens_averaged", "previous_mean_over_all_queries")},
            "loop_leftover": [_with(bert.head_patterns, None, short=(skipped, divided))
                              for skipped in ("first", "last") for divided in ("sum", "mean")]},
    ),
]
