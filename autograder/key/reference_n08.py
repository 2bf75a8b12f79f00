"""Reference code for notebook 08: a BERT encoder (all-MiniLM-L6-v2) in NumPy. Grading side only.

Every function takes NumPy arrays (and ints) in the course's conventions: token vectors are rows,
weights multiply on the right (``x @ w``), a padding ``mask`` is ``(batch, tokens)`` with 1 for a
real token and 0 for padding (what a tokenizer returns as ``attention_mask``). The functions are
right answers only, written as compositions of small steps that each takes as a keyword argument
with the right step as its default; a mistake is one step replaced by a wrong one
(``exercises/n08_pretrained_transformer.py``), and the generated one-edit mutants edit the default
steps too (:mod:`.generated`).

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


def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    """(4, d_model, d_model): each nn.Linear weight (out, in) transposed to (in, out)."""
    return np.stack([as_float(w).T for w in (query_weight, key_weight, value_weight, output_weight)])


# --- exercise 2: the embeddings ------------------------------------------------------------------


def counted_positions(token_ids):
    """The position of each token: 0, 1, ..., tokens - 1."""
    return np.arange(token_ids.shape[-1])  # (tokens,)


def given_types(token_ids, token_types, n_types):
    return token_types


def summed(words, positions, types):
    return words + positions + types  # (tokens, d_model) positions broadcast over the batch


def normalised(embedded, embedding_norm):
    """Each vector layer-normalised with [gamma, beta] = ``embedding_norm``."""
    return layer_norm(embedded, embedding_norm[0], embedding_norm[1])


def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm, *, positions=counted_positions, types=given_types, added=summed,
                    norm=normalised):
    """(batch, tokens, d_model): word + position + token type embeddings, layer-normalised."""
    token_ids, token_types = np.asarray(token_ids), np.asarray(token_types)
    words = as_float(word_embeddings)[token_ids]  # (batch, tokens, d_model)
    where = positions(token_ids)
    kinds = types(token_ids, token_types, np.shape(type_embeddings)[0])
    embedded = added(words, as_float(position_embeddings)[where], as_float(type_embeddings)[kinds])
    return norm(embedded, as_float(embedding_norm))


# --- exercise 3: the attention weights of every head, with biases and the padding mask ----------


def given_projections(w_query, b_query, w_key, b_key):
    return w_query, b_query, w_key, b_key


def scaled_by_sqrt_d_head(scores, inputs, keys):
    return ref.divide_scores(scores, ref.key_scale(keys.shape[-1], scores.dtype))


def real_keys(mask):
    """(batch, 1, 1, keys): True where a key is a real token, for every head and query."""
    return (np.asarray(mask) != 0)[:, None, None, :]


def hidden_keys_at_minus_inf(scores, keep):
    return np.where(keep, scores, -np.inf)


def softmax_over_keys(scores, keep):
    return ref.softmax(scores, axis=-1)


def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads, split=split_heads, *,
                      projections=given_projections, products=ref.dot_products, scaled=scaled_by_sqrt_d_head,
                      keep=real_keys, masked=hidden_keys_at_minus_inf, weights_of=softmax_over_keys):
    """(batch, heads, tokens, tokens): softmax((x W_Q + b_Q)(x W_K + b_K)^T / sqrt(d_head)), masked."""
    hidden = as_float(hidden)
    w_query, b_query, w_key, b_key = projections(as_float(w_query), b_query, as_float(w_key), b_key)
    queries = split(hidden @ w_query + as_float(b_query), n_heads)  # (batch, heads, tokens, d_head)
    keys = split(hidden @ w_key + as_float(b_key), n_heads)
    # the products, the scale, the softmax and (in bert_layer) the weighted sum are the shared steps
    # of .reference, so that the shared mistakes (autograder.key.mistakes) apply here too
    scores = scaled(products(queries, keys), hidden, keys)  # (batch, heads, tokens, tokens)
    kept = keep(mask)
    return weights_of(masked(scores, kept), kept)


# --- exercise 4: one encoder layer ---------------------------------------------------------------


def given_biases(b_value, b_out, ffn_b_in, ffn_b_out):
    return b_value, b_out, ffn_b_in, ffn_b_out


def norms_in_order(norms):
    return norms  # (2, 2, d_model): [gamma, beta] after attention, then after the feed-forward block


def own_value_weight(w_query, w_key, w_value):
    return w_value


def output_projection(context, w_out, b_out):
    return context @ w_out + b_out


def post_ln(layer_input, attention, feed_forward, norm):
    """BERT's order: each sub-layer's output added to its input, then layer-normalised."""
    hidden = norm(layer_input + attention(layer_input), 0)
    return norm(hidden + feed_forward(hidden), 1)


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
               norms, n_heads, head_weights=bert_head_weights, split=split_heads, combine=combine_heads, *,
               biases=given_biases, norms_read=norms_in_order, value_weight=own_value_weight,
               output=output_projection, activation=gelu, arranged=post_ln):
    """(batch, tokens, d_model): post-LN BERT layer: attention, residual, LN, GELU FFN, residual, LN."""
    hidden = as_float(hidden)
    w_query, w_key, w_value, w_out = as_float(attention_w)
    b_query, b_key, b_value, b_out = as_float(attention_b)
    b_value, b_out, ffn_b_in, ffn_b_out = biases(b_value, b_out, as_float(ffn_b_in), as_float(ffn_b_out))
    norms = norms_read(as_float(norms))

    def attention(x):
        weights = head_weights(x, w_query, b_query, w_key, b_key, mask, n_heads,
                               split=split)  # (batch, heads, tokens, tokens)
        values = split(x @ value_weight(w_query, w_key, w_value) + b_value, n_heads)  # (batch, heads, tokens, d_head)
        return output(combine(ref.weighted_values(weights, values)), w_out, b_out)  # (batch, tokens, d_model)

    def feed_forward(x):
        return activation(x @ as_float(ffn_w_in) + ffn_b_in) @ as_float(ffn_w_out) + ffn_b_out

    def norm(x, which):
        return layer_norm(x, *norms[which])

    return arranged(hidden, attention, feed_forward, norm)


# --- exercise 5: the whole encoder and mean pooling ----------------------------------------------


def given_mask(mask):
    return mask


def every_layer_in_turn(embedded, mask, layer_weights, n_heads):
    """Each layer reads the previous one's output; ``layer_weights``: the stacks, layer first."""
    hidden = embedded
    for weights in zip(*layer_weights, strict=True):
        hidden = bert_layer(hidden, mask, *weights, n_heads)
    return hidden


def mean_over_real_tokens(hidden, mask):
    weights = (np.asarray(mask) != 0).astype(hidden.dtype)[..., None]  # (batch, tokens, 1)
    return (hidden * weights).sum(axis=-2) / np.maximum(weights.sum(axis=-2), 1e-9)


def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings,
                       type_embeddings, embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in,
                       ffn_w_out, ffn_b_out, norms, n_heads, *, embed=bert_embeddings, attended=given_mask,
                       layers=every_layer_in_turn, pooled=mean_over_real_tokens):
    """(batch, d_model): embeddings, every layer in turn, then the mean over the real tokens."""
    embedded = embed(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                     embedding_norm)
    stacks = (attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms)
    encoded = layers(embedded, attended(mask), stacks, n_heads)  # (batch, tokens, d_model)
    return pooled(encoded, mask)


# --- exercise 6: what each head attends to -------------------------------------------------------


def previous_token(weights):
    """Each query's weight on the token before it, averaged over the n - 1 queries that have one."""
    return np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)


def cls_and_sep(weights):
    return weights[..., :, 0] + weights[..., :, -1]  # (..., queries)


def head_patterns(weights, *, previous=previous_token, special=cls_and_sep):
    """(..., 3): mean weight on the previous token, on [CLS] + [SEP], on the token itself."""
    weights = as_float(weights)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous(weights), special(weights).mean(axis=-1), itself], axis=-1)
