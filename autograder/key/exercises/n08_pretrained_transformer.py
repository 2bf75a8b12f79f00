"""Notebook 08: your attention inside a real pretrained transformer (all-MiniLM-L6-v2, a BERT).

The references live in :mod:`..reference_n08`, each a composition of steps it takes as keyword
arguments; a mutant is a reference with one step replaced by a wrong one (the wrong steps are
below), or a small wrong function of its own. Checks run on small random BERT-like weights (and, in
the visible tests, on some of the real model's weights), so grading stays fast; the notebook
compares the learner's full encoder with transformers' ``BertModel`` outside the graded cells.
"""

from functools import partial

import numpy as np

from .. import reference as ref
from .. import reference_n08 as bert
from .. import reference_n09 as ref9
from ..mistakes import MASK_FINITE_VALUE
from ..mutants import (
    gelu_tanh,
    head_layout_mutants,
    masked_after_softmax,
    relu,
    split_heads_interleaved,
    split_heads_without_transpose,
)
from . import Exercise, merged

# Names a learner's function may call: the notebook's given helpers and earlier exercises. During a
# check they are replaced by these references, so each exercise is graded on its own.
_HELPERS = {"split_heads": ref.split_heads, "combine_heads": ref.combine_heads, "layer_norm": bert.layer_norm}
_USES_LAYER = {**_HELPERS, "bert_head_weights": bert.bert_head_weights}
_USES_ENCODER = {**_USES_LAYER, "bert_embeddings": bert.bert_embeddings, "bert_layer": bert.bert_layer}


# --- exercise 1: the weights as x @ w matrices ---------------------------------------------------


def _stacked_as_given(query_weight, key_weight, value_weight, output_weight):
    """The (out, in) matrices stacked untransposed."""
    return np.stack([ref.as_float(w) for w in (query_weight, key_weight, value_weight, output_weight)])


def _output_weight_as_given(query_weight, key_weight, value_weight, output_weight):
    """W_Q, W_K and W_V transposed, W_O forgotten."""
    weights = [ref.as_float(w) for w in (query_weight, key_weight, value_weight, output_weight)]
    return np.stack([w.T for w in weights[:3]] + [weights[3]])


def _stack_transposed_whole(query_weight, key_weight, value_weight, output_weight):
    """The four (out, in) matrices stacked, then ``.T`` on the stack: every axis reversed,
    (d_model, d_model, 4), where each matrix alone should be transposed."""
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T


# --- exercise 2: the embeddings, one step wrong --------------------------------------------------


def _normalised_over_tokens(hidden, embedding_norm):
    """The layer norm taken over the tokens (axis 1) instead of each vector's features."""
    n_tokens = hidden.shape[1]
    ones = np.ones(n_tokens, dtype=hidden.dtype)
    over_tokens = bert.layer_norm(np.swapaxes(hidden, 1, -1), ones, np.zeros_like(ones))  # (batch, d_model, tokens)
    return np.swapaxes(over_tokens, 1, -1) * embedding_norm[0] + embedding_norm[1]


def _words_normalised_before_the_sum(token_ids, token_types, word_embeddings, position_embeddings,
                                     type_embeddings, embedding_norm):
    """The word embeddings layer-normalised alone, the positions and token types added after."""
    n_tokens = np.shape(token_ids)[1]
    gamma, beta = np.asarray(embedding_norm, dtype=np.float64)
    words = bert.layer_norm(np.asarray(word_embeddings, dtype=np.float64)[token_ids], gamma, beta)
    return (words + np.asarray(position_embeddings, dtype=np.float64)[:n_tokens]
            + np.asarray(type_embeddings, dtype=np.float64)[token_types])  # (batch, tokens, d_model)


_EMBEDDING_STEPS = {
    "position_embeddings_missing": {"added": lambda words, positions, types: words + types},
    "positions_off_by_one": {"positions": lambda token_ids: np.arange(token_ids.shape[-1]) + 1},
    "token_type_embeddings_missing": {"added": lambda words, positions, types: words + positions},
    "embedding_layer_norm_missing": {"norm": lambda hidden, embedding_norm: hidden},
    "layer_norm_scale_shift_swapped": {"norm": lambda hidden, embedding_norm: bert.layer_norm(
        hidden, embedding_norm[1], embedding_norm[0])},  # row 1 (beta) as gamma, row 0 (gamma) as beta
}
# positions or types looked up by the token ids, or every type row 0
_WRONG_IDS = [{"positions": lambda token_ids: token_ids},
              {"types": lambda token_ids, token_types, n_types: token_ids % n_types},
              {"types": lambda token_ids, token_types, n_types: np.zeros_like(token_types)}]


# --- exercise 3: the head weights, one step wrong ------------------------------------------------


def _projections_wrong(transposed=(), shared=None):
    """W_Q and W_K as a learner misuses them: ``transposed`` ("query", "key"), or one for both
    (``shared``: the one used, "query" or "key")."""

    def projections(w_query, b_query, w_key, b_key):
        w = {"query": w_query, "key": w_key}
        w = {name: m.T if name in transposed else m for name, m in w.items()}
        if shared:
            w = {name: w[shared] for name in w}
        return w["query"], b_query, w["key"], b_key

    return projections


# catalogued as projection_order (inputs @ W.T) and mixed_up_projections (another projection's matrix)
_PROJECTION_STEPS = {
    "projection_order": [_projections_wrong(transposed=which) for which in (("query",), ("key",), ("query", "key"))],
    "mixed_up_projections": [_projections_wrong(shared="query"), _projections_wrong(shared="key")],
}


def _exps_over_their_sum(scores, keep):
    exps = np.exp(scores)  # no maximum subtracted: inf, then nan, on large scores
    return exps / exps.sum(axis=-1, keepdims=True)


def _exps_times_mask(scores, keep):
    exps = np.exp(scores) * keep  # every score exponentiated, then masked: inf * 0 is nan
    return exps / exps.sum(axis=-1, keepdims=True)


def _masked_after_the_softmax(renormalised: bool):
    return lambda scores, keep: masked_after_softmax(ref.softmax(scores, axis=-1), keep, renormalised=renormalised)


_UNMASKED = {"masked": lambda scores, keep: scores}
_HEAD_WEIGHT_STEPS = {
    "padding_mask_ignored": _UNMASKED,
    "mask_wrong_sign": {"keep": lambda mask: ~(np.asarray(mask) != 0)[:, None, None, :]},
    "mask_with_zero": {"masked": lambda scores, keep: np.where(keep, scores, 0.0)},
    "mask_after_softmax": {**_UNMASKED, "weights_of": _masked_after_the_softmax(False)},
    # (batch, 1, queries, 1): a padding query's row is all -inf, so nan
    "padding_mask_on_queries": {"keep": lambda mask: (np.asarray(mask) != 0)[:, None, :, None]},
    "biases_missing": {"projections": lambda w_query, b_query, w_key, b_key: (w_query, 0.0, w_key, 0.0)},
    "no_scaling": {"scaled": lambda scores, hidden, keys: scores},
    "scale_by_sqrt_d_model": {"scaled": lambda scores, hidden, keys: scores / np.sqrt(hidden.shape[-1],
                                                                                      dtype=scores.dtype)},
    "keys_times_queries": {"products": lambda queries, keys: keys @ np.swapaxes(queries, -1, -2)},
    "softmax_wrong_axis": {"weights_of": lambda scores, keep: ref.softmax(scores, axis=-2)},
}
# the wrong steps a mistake has several ways of making
_HEAD_WEIGHT_WAYS = {
    # catalogued as softmax_no_max_subtraction: exp of the masked scores, or of every score then times the mask
    "softmax_no_max_subtraction": [{"weights_of": _exps_over_their_sum}, {**_UNMASKED, "weights_of": _exps_times_mask}],
    # BERT's own -10000 in place of the hidden scores, or added to them
    "mask_finite_value": [{"masked": lambda scores, keep: np.where(keep, scores, MASK_FINITE_VALUE)},
                          {"masked": lambda scores, keep: np.where(keep, scores, MASK_FINITE_VALUE + scores)}],
    # masked after the softmax, renormalised or not (the first is right until weights underflow)
    "mask_after_softmax": [_HEAD_WEIGHT_STEPS["mask_after_softmax"],
                           {**_UNMASKED, "weights_of": _masked_after_the_softmax(True)}],
    **{mistake: [{"projections": wrong} for wrong in ways] for mistake, ways in _PROJECTION_STEPS.items()},
}


def _head_weights(**wrong):
    return partial(bert.bert_head_weights, **wrong)


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


# --- exercise 4: the layer, one step wrong -------------------------------------------------------


def _layer(**wrong):
    return partial(bert.bert_layer, **wrong)


def _layer_with_head_weights(**wrong):
    """The layer with its attention written by hand, making one of the head weights' mistakes."""
    return _layer(head_weights=_head_weights(**wrong))


def _biases_left_out(*missing: str):
    """The value, output and feed-forward biases with those named in ``missing`` left out."""

    def biases(b_value, b_out, ffn_b_in, ffn_b_out):
        given = {"value": b_value, "out": b_out, "ffn_in": ffn_b_in, "ffn_out": ffn_b_out}
        return tuple(0.0 if name in missing else bias for name, bias in given.items())

    return biases


def _residuals_kept(attention_kept: bool, feed_forward_kept: bool):
    def arranged(hidden, attention, feed_forward, norm):
        hidden = norm(hidden * attention_kept + attention(hidden), 0)
        return norm(hidden * feed_forward_kept + feed_forward(hidden), 1)

    return arranged


def _second_residual_from_layer_input(hidden, attention, feed_forward, norm):
    attended = norm(hidden + attention(hidden), 0)
    return norm(hidden + feed_forward(attended), 1)


def _norms_read(order):
    return lambda norms: norms[list(order)]  # catalogued as layer_norms_mixed_up


# --- exercise 5: the encoder, one step wrong -----------------------------------------------------


def _layers_stopping_short(embedded, mask, layer_weights, n_heads):
    """A loop over the layers that stops one short (every layer when there is only one)."""
    stacks = [stack[:-1] if np.shape(stack)[0] > 1 else stack for stack in layer_weights]
    return bert.every_layer_in_turn(embedded, mask, stacks, n_heads)


def _layers_not_chained(embedded, mask, layer_weights, n_heads):
    """Every layer reads the embeddings, so only the last one counts."""
    hidden = embedded
    for weights in zip(*layer_weights, strict=True):
        hidden = bert.bert_layer(embedded, mask, *weights, n_heads)
    return hidden


def _first_layer_every_time(embedded, mask, layer_weights, n_heads):
    """The loop runs once per layer but always with the first layer's weights."""
    n_layers = np.shape(layer_weights[0])[0]
    return bert.every_layer_in_turn(embedded, mask, [[stack[0]] * n_layers for stack in layer_weights], n_heads)


def _real_tokens_over(divided_by: str):
    """The real tokens' vectors summed, divided by every token's count or never divided."""

    def pooled(hidden, mask):
        real = (np.asarray(mask) != 0).astype(hidden.dtype)[..., None]  # (batch, tokens, 1)
        total = (hidden * real).sum(axis=-2)
        return total / hidden.shape[-2] if divided_by == "tokens" else total

    return pooled


def _encoder(**wrong):
    return partial(bert.sentence_embedding, **wrong)


# --- exercise 6: the head patterns, one step wrong -----------------------------------------------


def _previous_loop_short(skipped: str, divided: str):
    """The previous-token loop one query short, skipping the first or the last, its sum divided by
    all n - 1 or averaged over what it saw (the n - 1 of them when there are fewer than two)."""

    def previous(weights):
        diagonal = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1)  # (..., n - 1)
        if diagonal.shape[-1] < 2:
            return diagonal.mean(axis=-1)
        seen = diagonal[..., 1:] if skipped == "first" else diagonal[..., :-1]
        return seen.mean(axis=-1) if divided == "mean" else seen.sum(axis=-1) / diagonal.shape[-1]

    return previous


def _patterns_of_transposed(weights):
    return bert.head_patterns(np.swapaxes(ref.as_float(weights), -1, -2))


_PATTERN_STEPS = {
    "next_token_instead_of_previous": {
        "previous": lambda weights: np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)},
    "special_tokens_cls_only": {"special": lambda weights: weights[..., :, 0]},
    "special_tokens_rows": {"special": lambda weights: weights[..., 0, :] + weights[..., -1, :]},
    "special_tokens_averaged": {"special": lambda weights: (weights[..., :, 0] + weights[..., :, -1]) / 2},
    # n - 1 weights divided by n
    "previous_mean_over_all_queries": {"previous": lambda weights: np.diagonal(
        weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / weights.shape[-1]},
}


EXERCISES = [
    Exercise(
        "attention_matrices",
        mistakes_from=bert.attention_matrices,
        returns="an array of shape (4, d_model, d_model): W_Q, W_K, W_V, W_O, each as (in, out)",
        mutants={
            "weights_not_transposed": [_stacked_as_given, _output_weight_as_given],
            "matrices_stacked_on_last_axis": _stack_transposed_whole,
        },
    ),
    Exercise(
        "bert_embeddings",
        mistakes_from=bert.bert_embeddings,
        returns="an array of shape (batch, tokens, d_model)",
        uses=_HELPERS,
        mutants={**{mistake: partial(bert.bert_embeddings, **wrong) for mistake, wrong in _EMBEDDING_STEPS.items()},
                 "embedding_lookup_wrong_ids": [partial(bert.bert_embeddings, **wrong) for wrong in _WRONG_IDS],
                 "layer_norm_wrong_axis": partial(bert.bert_embeddings, norm=_normalised_over_tokens),
                 "layer_norm_before_the_sum": _words_normalised_before_the_sum},
    ),
    Exercise(
        "bert_head_weights",
        mistakes_from=bert.bert_head_weights,
        returns="an array of weights of shape (batch, heads, tokens, tokens)",
        uses=_HELPERS,
        mutants={
            **{mistake: _head_weights(**wrong) for mistake, wrong in _HEAD_WEIGHT_STEPS.items()},
            "heads_reshape_without_transpose": _head_weights(split=split_heads_without_transpose),
            "heads_interleaved": _head_weights(split=split_heads_interleaved),
            **{mistake: [_head_weights(**wrong) for wrong in ways] for mistake, ways in _HEAD_WEIGHT_WAYS.items()},
            "padding_mask_on_queries": [_head_weights(**_HEAD_WEIGHT_STEPS["padding_mask_on_queries"]),
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
            "residual_missing": [_layer(arranged=_residuals_kept(*kept)) for kept in (
                (False, True), (True, False), (False, False))],
            "layer_norm_before_sublayer": _layer(arranged=ref9.pre_ln),  # GPT's wiring, notebook 09's answer
            "second_residual_from_block_input": _layer(arranged=_second_residual_from_layer_input),
            "layer_norms_mixed_up": [_layer(norms_read=_norms_read(order)) for order in ((1, 0), (0, 0), (1, 1))],
            "relu_instead_of_gelu": _layer(activation=relu),
            "gelu_tanh_approximation": _layer(activation=gelu_tanh),
            "missing_output_projection": [_layer(output=lambda context, w_out, b_out: context),
                                          # W_O left out, its bias still added
                                          _layer(output=lambda context, w_out, b_out: context + b_out)],
            "biases_missing": [*(_layer(biases=_biases_left_out(*missing)) for missing in (
                ("value", "out"), ("ffn_in", "ffn_out"), ("value",), ("out",), ("ffn_in",), ("ffn_out",))),
                _layer_with_head_weights(**_HEAD_WEIGHT_STEPS["biases_missing"])],
            # the attention inside the layer written by hand, with one of the head weights' mistakes
            **merged(
                {mistake: _layer_with_head_weights(**wrong) for mistake, wrong in _HEAD_WEIGHT_STEPS.items()
                 if mistake != "biases_missing"},
                {"softmax_no_max_subtraction": [_layer_with_head_weights(**wrong)
                                                for wrong in _HEAD_WEIGHT_WAYS["softmax_no_max_subtraction"]],
                 "mask_finite_value": [_layer_with_head_weights(**wrong) for wrong in _HEAD_WEIGHT_WAYS["mask_finite_value"]],
                 "mask_after_softmax": _layer_with_head_weights(**_HEAD_WEIGHT_WAYS["mask_after_softmax"][1])},
                {mistake: [_layer_with_head_weights(**wrong) for wrong in ways]
                 for mistake, ways in _HEAD_WEIGHT_WAYS.items() if mistake in _PROJECTION_STEPS},
                # the values' projection: transposed, or another projection's matrix
                {"projection_order": _layer(value_weight=lambda w_query, w_key, w_value: w_value.T),
                 "mixed_up_projections": [_layer(value_weight=lambda w_query, w_key, w_value: w_key),
                                          _layer(value_weight=lambda w_query, w_key, w_value: w_query)]},
            ),
            **head_layout_mutants(_layer),
        },
    ),
    Exercise(
        "sentence_embedding",
        mistakes_from=bert.sentence_embedding,
        returns="an array of shape (batch, d_model)",
        uses=_USES_ENCODER,
        mutants={
            "cls_pooling": _encoder(pooled=lambda hidden, mask: hidden[:, 0]),
            # the layers attend to every token (the pooling still uses the mask)
            "padding_mask_ignored": _encoder(attended=np.ones_like),
            "layers_not_chained": _encoder(layers=_layers_not_chained),
            "layer_weights_not_indexed": _encoder(layers=_first_layer_every_time),
            "pooled_sum_not_mean": _encoder(pooled=_real_tokens_over("nothing")),
            # the embeddings' own mistakes, made by an encoder computing its embeddings inline
            **{mistake: _encoder(embed=partial(bert.bert_embeddings, **_EMBEDDING_STEPS[mistake])) for mistake in (
                "embedding_layer_norm_missing", "token_type_embeddings_missing", "position_embeddings_missing",
                "positions_off_by_one", "layer_norm_scale_shift_swapped")},
            # the padding averaged in, or the real tokens' sum divided by the padded length
            "mean_pool_includes_padding": [_encoder(pooled=lambda hidden, mask: hidden.mean(axis=-2)),
                                           _encoder(pooled=_real_tokens_over("tokens"))],
            # a loop over the layers that stops one short (KEYING.md: a loop that stops early)
            "loop_leftover": _encoder(layers=_layers_stopping_short)},
    ),
    Exercise(
        "head_patterns",
        mistakes_from=bert.head_patterns,
        returns="an array of shape (..., 3): previous token, [CLS] + [SEP], the token itself",
        mutants={**{mistake: partial(bert.head_patterns, **_PATTERN_STEPS[mistake])
                    for mistake in ("next_token_instead_of_previous", "special_tokens_cls_only")},
                 "weights_transposed": _patterns_of_transposed,
                 **{mistake: partial(bert.head_patterns, **_PATTERN_STEPS[mistake]) for mistake in (
                     "special_tokens_rows", "special_tokens_averaged", "previous_mean_over_all_queries")},
                 "loop_leftover": [partial(bert.head_patterns, previous=_previous_loop_short(skipped, divided))
                                   for skipped in ("first", "last") for divided in ("sum", "mean")]},
    ),
]
