"""Reference code for notebook 08: a BERT encoder (all-MiniLM-L6-v2) in NumPy. Grading side only.

Every function takes NumPy arrays (and ints) in the course's conventions: token vectors are rows,
weights multiply on the right (``x @ w``), a padding ``mask`` is ``(batch, tokens)`` with 1 for a
real token and 0 for padding (what a tokenizer returns as ``attention_mask``). Each function has a
``mistake`` knob that makes exactly one catalogued mistake (see :mod:`attention_course.mistakes`);
``mistake=None`` is the reference. Exercises and their mutants are built from these in
``exercises/n08_pretrained_transformer.py``.

Layouts of the stacked weights (what ``attention_matrices`` returns and the notebook stacks over
layers):

- ``attention_w``: ``(..., 4, d_model, d_model)``, W_Q, W_K, W_V, W_O; ``attention_b``: ``(..., 4, d_model)``;
- ``ffn_w_in`` ``(..., d_model, d_ff)``, ``ffn_b_in`` ``(..., d_ff)``, ``ffn_w_out`` ``(..., d_ff, d_model)``,
  ``ffn_b_out`` ``(..., d_model)``;
- ``norms``: ``(..., 2, 2, d_model)``: [[gamma, beta] after attention, [gamma, beta] after the feed-forward block];
- ``embedding_norm``: ``(2, d_model)``, [gamma, beta].
"""

from __future__ import annotations

import numpy as np
from scipy.special import erf

from . import reference as ref
from .mistakes import MASK_FINITE_VALUE
from .mutants import gelu_tanh, masked_after_softmax, relu
from .reference import as_float, combine_heads, split_heads

EPS = 1e-12  # layer_norm_eps of the model's config.json


def layer_norm(x, gamma, beta, eps=EPS):
    """Normalise each vector (last axis) to mean 0 and variance 1, then scale and shift."""
    x = as_float(x)
    mean = x.mean(axis=-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)  # biased, as torch.nn.LayerNorm
    return (x - mean) / np.sqrt(variance + eps) * as_float(gamma) + as_float(beta)


def gelu(x):
    """The exact GELU, x * Phi(x), as torch.nn.GELU() and BERT compute it."""
    x = as_float(x)
    return 0.5 * x * (1 + erf(x / np.sqrt(2, dtype=x.dtype)))


# --- exercise 1: PyTorch's (out, in) weights into x @ w matrices ---------------------------------


def attention_matrices(query_weight, key_weight, value_weight, output_weight, mistake=None):
    """(4, d_model, d_model): each nn.Linear weight (out, in) transposed to (in, out)."""
    weights = [as_float(w) for w in (query_weight, key_weight, value_weight, output_weight)]
    if mistake == "weights_not_transposed":
        return np.stack(weights)
    if mistake == "output_weight_not_transposed":  # catalogued as weights_not_transposed
        return np.stack([w.T for w in weights[:3]] + [weights[3]])
    return np.stack([w.T for w in weights])


# --- exercise 2: the embeddings ------------------------------------------------------------------


def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm, mistake=None):
    """(batch, tokens, d_model): word + position + token type embeddings, layer-normalised."""
    token_ids, token_types = np.asarray(token_ids), np.asarray(token_types)
    n_tokens = token_ids.shape[-1]
    positions = np.arange(n_tokens) + (1 if mistake == "positions_off_by_one" else 0)
    hidden = as_float(word_embeddings)[token_ids]  # (batch, tokens, d_model)
    # catalogued as embedding_lookup_wrong_ids: positions or types looked up by the token ids, types by row 0
    if mistake == "positions_from_token_ids":
        positions = token_ids
    if mistake in ("types_from_token_ids", "types_all_zero"):
        n_types = np.shape(type_embeddings)[0]
        token_types = token_ids % n_types if mistake == "types_from_token_ids" else np.zeros_like(token_types)
    if mistake != "position_embeddings_missing":
        hidden = hidden + as_float(position_embeddings)[positions]  # (tokens, d_model) broadcasts
    if mistake != "token_type_embeddings_missing":
        hidden = hidden + as_float(type_embeddings)[token_types]
    if mistake == "embedding_layer_norm_missing":
        return hidden
    embedding_norm = as_float(embedding_norm)
    if mistake == "layer_norm_scale_shift_swapped":  # row 1 (beta) as gamma, row 0 (gamma) as beta
        return layer_norm(hidden, embedding_norm[1], embedding_norm[0])
    return layer_norm(hidden, embedding_norm[0], embedding_norm[1])


# --- exercise 3: the attention weights of every head, with biases and the padding mask ----------


# catalogued as projection_order (inputs @ W.T) and mixed_up_projections (another projection's matrix)
PROJECTION_MISTAKES = ("query_weight_transposed", "key_weight_transposed", "query_and_key_weights_transposed",
                       "keys_from_query_weights", "queries_from_key_weights")


def _projection_weights(w_query, w_key, mistake):
    """(W_Q, W_K) as a learner with ``mistake`` uses them: one or both transposed, or one for both."""
    if mistake in ("query_weight_transposed", "query_and_key_weights_transposed"):
        w_query = w_query.T
    if mistake in ("key_weight_transposed", "query_and_key_weights_transposed"):
        w_key = w_key.T
    if mistake == "keys_from_query_weights":
        w_key = w_query
    if mistake == "queries_from_key_weights":
        w_query = w_key
    return w_query, w_key


def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads, mistake=None,
                      split=split_heads):
    """(batch, heads, tokens, tokens): softmax((x W_Q + b_Q)(x W_K + b_K)^T / sqrt(d_head)), masked."""
    hidden = as_float(hidden)
    if mistake == "biases_missing":
        b_query = b_key = 0.0
    w_query, w_key = _projection_weights(as_float(w_query), as_float(w_key), mistake)
    queries = split(hidden @ w_query + as_float(b_query), n_heads)  # (batch, heads, tokens, d_head)
    keys = split(hidden @ w_key + as_float(b_key), n_heads)
    # the products, the scale, the softmax and (in bert_layer) the weighted sum are the shared steps
    # of .reference, so that the shared mistakes (autograder.key.mistakes) apply here too
    if mistake == "keys_times_queries":
        scores = keys @ np.swapaxes(queries, -1, -2)
    else:
        scores = ref.dot_products(queries, keys)  # (batch, heads, tokens, tokens)
    if mistake == "scale_by_sqrt_d_model":
        scores = scores / np.sqrt(hidden.shape[-1], dtype=scores.dtype)
    elif mistake != "no_scaling":
        scores = ref.divide_scores(scores, ref.key_scale(keys.shape[-1], scores.dtype))
    keep = np.asarray(mask) != 0  # (batch, tokens): True for real tokens
    if mistake == "mask_wrong_sign":
        keep = ~keep
    keep = keep[:, None, :, None] if mistake == "padding_mask_on_queries" else keep[:, None, None, :]
    if mistake == "mask_with_zero":
        scores = np.where(keep, scores, 0.0)
    elif mistake in ("mask_finite_value", "mask_finite_value_additive"):  # BERT's own -10000
        finite = MASK_FINITE_VALUE + (scores if mistake == "mask_finite_value_additive" else 0.0)
        scores = np.where(keep, scores, finite)
    elif mistake not in ("padding_mask_ignored", "mask_after_softmax", "mask_after_softmax_renormalised",
                         "exp_times_mask"):
        scores = np.where(keep, scores, -np.inf)
    if mistake in ("softmax_no_max_subtraction", "exp_times_mask"):  # no maximum subtracted: exp of
        exps = np.exp(scores)  # the masked scores, or of all of them then times the mask (inf * 0: nan)
        exps = exps * keep if mistake == "exp_times_mask" else exps
        weights = exps / exps.sum(axis=-1, keepdims=True)
    else:
        weights = ref.softmax(scores, axis=-2 if mistake == "softmax_wrong_axis" else -1)
    if mistake in ("mask_after_softmax", "mask_after_softmax_renormalised"):
        weights = masked_after_softmax(weights, keep, renormalised=mistake == "mask_after_softmax_renormalised")
    return weights  # with padding_mask_on_queries, a padding query's row is all -inf: nan


# --- exercise 4: one encoder layer ---------------------------------------------------------------


# catalogued as layer_norms_mixed_up: the two layer norms swapped, or one used for both
_NORM_ORDERS = {"norms_swapped": (1, 0), "first_norm_twice": (0, 0), "second_norm_twice": (1, 1)}


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
               norms, n_heads, mistake=None, head_weights=bert_head_weights, split=split_heads,
               combine=combine_heads):
    """(batch, tokens, d_model): post-LN BERT layer: attention, residual, LN, GELU FFN, residual, LN."""
    hidden = as_float(hidden)
    w_query, w_key, w_value, w_out = as_float(attention_w)
    b_query, b_key, b_value, b_out = as_float(attention_b)
    ffn_b_in, ffn_b_out = as_float(ffn_b_in), as_float(ffn_b_out)
    # catalogued as biases_missing: the value and output biases, or the feed-forward ones, or one of them
    missing = {"value_and_output_biases_missing": ("value", "out"), "ffn_biases_missing": ("ffn_in", "ffn_out"),
               "value_bias_missing": ("value",), "output_bias_missing": ("out",),
               "ffn_in_bias_missing": ("ffn_in",), "ffn_out_bias_missing": ("ffn_out",)}.get(mistake, ())
    b_value = 0.0 if "value" in missing else b_value
    b_out = 0.0 if "out" in missing else b_out
    ffn_b_in = 0.0 if "ffn_in" in missing else ffn_b_in
    ffn_b_out = 0.0 if "ffn_out" in missing else ffn_b_out
    norms = as_float(norms)[list(_NORM_ORDERS.get(mistake, (0, 1)))]  # mixed up: swapped, or one twice

    def attention(x):
        weights = head_weights(x, w_query, b_query, w_key, b_key, mask, n_heads,
                               split=split)  # (batch, heads, tokens, tokens)
        w_values = {"value_weight_transposed": w_value.T, "values_from_key_weights": w_key,
                    "values_from_query_weights": w_query}.get(mistake, w_value)
        values = split(x @ w_values + b_value, n_heads)  # (batch, heads, tokens, d_head)
        context = combine(ref.weighted_values(weights, values))  # (batch, tokens, d_model)
        if mistake == "missing_output_projection":
            return context
        if mistake == "output_projection_missing_bias_kept":  # W_O left out, its bias still added
            return context + b_out
        return context @ w_out + b_out

    def feed_forward(x):
        activation = {"relu_instead_of_gelu": relu, "gelu_tanh_approximation": gelu_tanh}.get(mistake, gelu)
        return activation(x @ as_float(ffn_w_in) + ffn_b_in) @ as_float(ffn_w_out) + ffn_b_out

    if mistake == "layer_norm_before_sublayer":
        hidden = hidden + attention(layer_norm(hidden, *norms[0]))
        return hidden + feed_forward(layer_norm(hidden, *norms[1]))
    keep_attention = mistake not in ("attention_residual_missing", "both_residuals_missing")
    keep_ffn = mistake not in ("ffn_residual_missing", "both_residuals_missing")
    layer_input = hidden
    hidden = layer_norm(hidden * keep_attention + attention(hidden), *norms[0])
    added = layer_input if mistake == "second_residual_from_block_input" else hidden  # the ffn's residual
    return layer_norm(added * keep_ffn + feed_forward(hidden), *norms[1])


# --- exercise 5: the whole encoder and mean pooling ----------------------------------------------


# the embeddings' own mistakes, which a sentence embedding computing its embeddings inline can make
EMBEDDING_MISTAKES = ("embedding_layer_norm_missing", "token_type_embeddings_missing", "position_embeddings_missing",
                      "positions_off_by_one", "layer_norm_scale_shift_swapped")


def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings,
                       type_embeddings, embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in,
                       ffn_w_out, ffn_b_out, norms, n_heads, mistake=None):
    """(batch, d_model): embeddings, every layer in turn, then the mean over the real tokens."""
    hidden = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                             embedding_norm, mistake=mistake if mistake in EMBEDDING_MISTAKES else None)
    # padding_mask_ignored: the layers attend to every token (the pooling still uses the mask)
    attended = np.ones_like(np.asarray(mask)) if mistake == "padding_mask_ignored" else mask
    n_layers = np.shape(attention_w)[0]
    embedded = hidden
    for layer in range(n_layers - 1 if mistake == "last_layer_skipped" and n_layers > 1 else n_layers):
        read = embedded if mistake == "layers_not_chained" else hidden  # not chained: each reads the embeddings
        w = 0 if mistake == "layer_weights_not_indexed" else layer  # not indexed: the first layer's weights each time
        hidden = bert_layer(read, attended, attention_w[w], attention_b[w], ffn_w_in[w], ffn_b_in[w], ffn_w_out[w],
                            ffn_b_out[w], norms[w], n_heads)
    if mistake == "cls_pooling":
        return hidden[:, 0]
    if mistake == "mean_pool_includes_padding":
        return hidden.mean(axis=-2)
    weights = (np.asarray(mask) != 0).astype(hidden.dtype)[..., None]  # (batch, tokens, 1)
    if mistake == "mean_pool_padded_length":  # the real tokens summed, divided by every token's count
        return (hidden * weights).sum(axis=-2) / hidden.shape[-2]
    if mistake == "pooled_sum_not_mean":  # the real tokens summed, never divided
        return (hidden * weights).sum(axis=-2)
    return (hidden * weights).sum(axis=-2) / np.maximum(weights.sum(axis=-2), 1e-9)


# --- exercise 6: what each head attends to -------------------------------------------------------


def head_patterns(weights, mistake=None, short=None):
    """(..., 3): mean weight on the previous token, on [CLS] + [SEP], on the token itself.

    ``short`` (``"first"`` or ``"last"``, ``"sum"`` or ``"mean"``): the previous-token loop one query
    short, skipping the first or the last, its sum divided by all n - 1 or averaged over what it saw."""
    weights = as_float(weights)
    if mistake == "weights_transposed":
        weights = np.swapaxes(weights, -1, -2)
    offset = 1 if mistake == "next_token_instead_of_previous" else -1
    diagonal = np.diagonal(weights, offset=offset, axis1=-2, axis2=-1)  # (..., n - 1)
    previous = diagonal.mean(axis=-1)
    if mistake == "previous_mean_over_all_queries":  # n - 1 weights divided by n
        previous = diagonal.sum(axis=-1) / weights.shape[-1]
    if short is not None and diagonal.shape[-1] >= 2:
        skipped, divided = short
        seen = diagonal[..., 1:] if skipped == "first" else diagonal[..., :-1]
        previous = seen.mean(axis=-1) if divided == "mean" else seen.sum(axis=-1) / diagonal.shape[-1]
    special = weights[..., :, 0] if mistake == "special_tokens_cls_only" else (
        weights[..., 0, :] + weights[..., -1, :] if mistake == "special_tokens_rows" else
        (weights[..., :, 0] + weights[..., :, -1]) / 2 if mistake == "special_tokens_averaged" else
        weights[..., :, 0] + weights[..., :, -1])
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special.mean(axis=-1), itself], axis=-1)
