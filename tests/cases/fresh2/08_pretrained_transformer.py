'''Second fresh set, notebook 08: learner submissions written without the key.

Written on 2026-11-23 by a helper session that read only the exercise texts, signatures and solution
cells of solutions/08_pretrained_transformer.ipynb and the ids and titles of the mistake catalogue
(src/attention_course/mistakes.py); not autograder/key/, verdict.py, expected/, accuracy.py, nor any
other case file. Each case was checked only against the notebook's own solution (selfcheck.py), never
against the grader. Rule: this file is never edited after its first measurement.

The bert_layer cases share one learner's layer (_LAYER) and differ from it by one slip each (_slip()).
'''

_LAYER = """
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    weights = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    values = split_heads(hidden @ w_v + b_v, n_heads)
    attended = combine_heads(weights @ values) @ w_o + b_o
    x = layer_norm(hidden + attended, norms[0][0], norms[0][1])
    h = x @ ffn_w_in + ffn_b_in
    h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))
    out = h @ ffn_w_out + ffn_b_out
    return layer_norm(x + out, norms[1][0], norms[1][1])
"""


def _slip(*pairs: tuple[str, str]) -> str:
    source = _LAYER
    for old, new in pairs:
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    return source


MISTAKES = {
    "attention_matrices": {
        "weights_not_transposed": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
''',
        "weights_not_transposed:output_only": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
''',
        "matrices_stacked_on_last_axis:transpose_of_the_stack": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T
''',
        "mixed_up_projections:order": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([key_weight.T, query_weight.T, value_weight.T, output_weight.T])
''',
        "changes_inputs_in_place": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    for w in (query_weight, key_weight, value_weight, output_weight):
        w[:] = w.T.copy()
    return np.stack([query_weight, key_weight, value_weight, output_weight])
''',
        "uncatalogued:inverse_instead_of_transpose": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([np.linalg.inv(w) for w in (query_weight, key_weight, value_weight, output_weight)])
''',
        "uncatalogued:swapped_wrong_axes": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.swapaxes(np.stack([query_weight, key_weight, value_weight, output_weight]), 0, 1)
''',
    },
    "bert_embeddings": {
        "position_embeddings_missing": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    summed = word_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
''',
        "positions_off_by_one": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[1:n + 1] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
''',
        "token_type_embeddings_missing": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[:n]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
''',
        "embedding_layer_norm_missing": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    return word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
''',
        "layer_norm_scale_shift_swapped:gamma_beta_swapped": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
    gamma, beta = embedding_norm
    return layer_norm(summed, beta, gamma)
''',
        "embedding_lookup_wrong_ids:types_ignored_row0": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[0]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
''',
        "embedding_lookup_wrong_ids:positions_indexed_by_ids": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    summed = word_embeddings[token_ids] + position_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
''',
    },
    "bert_head_weights": {
        "padding_mask_ignored": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
        "padding_mask_on_queries": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = np.where(mask[:, None, :, None] == 1, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
        "mask_wrong_sign": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = np.where(mask[:, None, None, :] == 0, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
        "biases_missing:b_query": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = np.where(mask[:, None, None, :] != 0, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
        "mask_with_zero": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = s * mask[:, None, None, :]
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
        "scale_by_sqrt_d_model": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(hidden.shape[-1])
    s = np.where(mask[:, None, None, :] != 0, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
        "softmax_no_max_subtraction": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    e = np.exp(s) * mask[:, None, None, :]
    return e / e.sum(axis=-1, keepdims=True)
''',
        "uncatalogued:finite_additive_mask": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = s + (1.0 - mask[:, None, None, :]) * -10000.0
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
    },
    "bert_layer": {
        "residual_missing:attention": _slip(("layer_norm(hidden + attended,", "layer_norm(attended,")),
        "residual_missing:feed_forward": _slip(("layer_norm(x + out,", "layer_norm(out,")),
        "layer_norm_before_sublayer": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    normed = layer_norm(hidden, norms[0][0], norms[0][1])
    weights = bert_head_weights(normed, w_q, b_q, w_k, b_k, mask, n_heads)
    values = split_heads(normed @ w_v + b_v, n_heads)
    x = hidden + combine_heads(weights @ values) @ w_o + b_o
    normed = layer_norm(x, norms[1][0], norms[1][1])
    h = normed @ ffn_w_in + ffn_b_in
    h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))
    return x + h @ ffn_w_out + ffn_b_out
''',
        "relu_instead_of_gelu": _slip(("h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))", "h = np.maximum(h, 0.0)")),
        "gelu_tanh_approximation": _slip(
            ("h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))",
             "h = 0.5 * h * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (h + 0.044715 * h ** 3)))"),
        ),
        "biases_missing:b_value": _slip(("values = split_heads(hidden @ w_v + b_v, n_heads)",
                                         "values = split_heads(hidden @ w_v, n_heads)")),
        "missing_output_projection": _slip(("attended = combine_heads(weights @ values) @ w_o + b_o",
                                            "attended = combine_heads(weights @ values)")),
        "mixed_up_projections:values_from_w_key": _slip(("values = split_heads(hidden @ w_v + b_v, n_heads)",
                                                         "values = split_heads(hidden @ w_k + b_k, n_heads)")),
        "layer_norms_mixed_up:norms_swapped": _slip(
            ("layer_norm(hidden + attended, norms[0][0], norms[0][1])",
             "layer_norm(hidden + attended, norms[1][0], norms[1][1])"),
            ("layer_norm(x + out, norms[1][0], norms[1][1])", "layer_norm(x + out, norms[0][0], norms[0][1])"),
        ),
    },
    "sentence_embedding": {
        "mean_pool_includes_padding": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    h = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for i in range(len(attention_w)):
        h = bert_layer(h, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    return h.mean(axis=1)
''',
        "cls_pooling": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    h = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for i in range(len(attention_w)):
        h = bert_layer(h, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    return h[:, 0, :]
''',
        "padding_mask_ignored:layers": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    h = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    everything = np.ones_like(mask)
    for i in range(len(attention_w)):
        h = bert_layer(h, everything, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    m = mask[:, :, None]
    return (h * m).sum(axis=1) / m.sum(axis=1)
''',
        "loop_leftover:last_layer_skipped": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    h = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for i in range(len(attention_w) - 1):
        h = bert_layer(h, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    m = mask[:, :, None]
    return (h * m).sum(axis=1) / m.sum(axis=1)
''',
        "layers_not_chained:layers_not_chained": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    embedded = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                               embedding_norm)
    for i in range(len(attention_w)):
        h = bert_layer(embedded, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    m = mask[:, :, None]
    return (h * m).sum(axis=1) / m.sum(axis=1)
''',
        "pooled_sum_not_mean:sum_not_mean": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    h = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for i in range(len(attention_w)):
        h = bert_layer(h, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    return (h * mask[:, :, None]).sum(axis=1)
''',
        "uncatalogued:mean_over_features": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    h = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for i in range(len(attention_w)):
        h = bert_layer(h, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    return (h * mask[:, :, None]).sum(axis=-1) / mask.sum(axis=-1, keepdims=True)
''',
    },
    "head_patterns": {
        "next_token_instead_of_previous": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "special_tokens_cls_only": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = weights[..., :, 0].mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "previous_mean_over_all_queries:previous_divided_by_n": '''
def head_patterns(weights):
    n = weights.shape[-1]
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / n
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "uncatalogued:diagonal_default_axes": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "special_tokens_rows:special_rows_not_columns": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0, :] + weights[..., -1, :]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "uncatalogued:stacked_first": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself])
''',
        "uncatalogued:max_not_mean": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).max(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).max(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).max(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
    },
}

VARIANTS = {
    "attention_matrices": {
        "transpose_last_two": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).transpose(0, 2, 1)
''',
        "array_of_transposes": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.array([np.transpose(w) for w in (query_weight, key_weight, value_weight, output_weight)])
''',
        "einsum": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.einsum("kij->kji", np.stack([query_weight, key_weight, value_weight, output_weight]))
''',
    },
    "bert_embeddings": {
        "take_and_own_norm": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    positions = np.arange(token_ids.shape[-1])[None, :]
    x = np.take(word_embeddings, token_ids, axis=0) + position_embeddings[positions] \\
        + np.take(type_embeddings, token_types, axis=0)
    mu = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return embedding_norm[0] * (x - mu) / np.sqrt(var + 1e-12) + embedding_norm[1]
''',
        "slice_positions": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    gamma, beta = embedding_norm
    n_tokens = token_ids.shape[1]
    summed = word_embeddings[token_ids] + type_embeddings[token_types] + position_embeddings[:n_tokens]
    return layer_norm(summed, gamma, beta)
''',
    },
    "bert_head_weights": {
        "large_negative_fill": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(q.shape[-1])
    s = np.where(mask.astype(bool)[:, None, None, :], s, -1e30)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "scipy_softmax": '''
from scipy.special import softmax


def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    d_head = hidden.shape[-1] // n_heads
    scores = queries @ keys.swapaxes(-1, -2) / np.sqrt(d_head)
    scores = scores + np.where(mask == 0, -np.inf, 0.0)[:, None, None, :]
    return softmax(scores, axis=-1)
''',
    },
    "bert_layer": {
        "as_written": _LAYER,
        "scipy_stats_gelu": '''
from scipy.stats import norm


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    weights = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask,
                                n_heads)
    values = split_heads(np.matmul(hidden, attention_w[2]) + attention_b[2], n_heads)
    attended = np.matmul(combine_heads(np.matmul(weights, values)), attention_w[3]) + attention_b[3]
    x = layer_norm(hidden + attended, *norms[0])
    inner = x @ ffn_w_in + ffn_b_in
    inner = inner * norm.cdf(inner)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
''',
    },
    "sentence_embedding": {
        "average_with_weights": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    hidden = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                             embedding_norm)
    for layer in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        hidden = bert_layer(hidden, mask, *layer, n_heads)
    return np.stack([np.average(hidden[b], axis=0, weights=mask[b]) for b in range(hidden.shape[0])])
''',
        "einsum_pool": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for i in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    m = mask.astype(x.dtype)
    return np.einsum("bt,btd->bd", m, x) / m.sum(axis=1, keepdims=True)
''',
    },
    "head_patterns": {
        "fancy_indexing": '''
def head_patterns(weights):
    n = weights.shape[-1]
    rows = np.arange(n)
    previous = weights[..., rows[1:], rows[:-1]].mean(axis=-1)
    special = weights[..., 0].mean(axis=-1) + weights[..., n - 1].mean(axis=-1)
    itself = weights[..., rows, rows].mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "einsum_trace": '''
def head_patterns(weights):
    n = weights.shape[-1]
    itself = np.einsum("...ii->...", weights) / n
    previous = np.einsum("...ii->...", weights[..., 1:, :-1]) / (n - 1)
    special = weights[..., [0, -1]].sum(axis=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
    },
}
