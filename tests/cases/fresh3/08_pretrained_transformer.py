"""Third fresh set, notebook 08: learners' answers written without the grader's key.

Each source is what a learner would type in the exercise's solution cell; the notebook's earlier
cells have run. Written on 2026-11-23 from the exercise texts and the catalogue's ids and hints only,
checked only against the notebook's own solution (tests/cases/selfcheck.py fresh3), never against the
grader. Rule: never edited after its first measurement (see README.md).

bert_layer: one learner's full answer (_LAYER), and each mistake is that answer with one slip, made
by _slip().
"""

_LAYER = '''
def _gelu(x):
    return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    wq, wk, wv, wo = attention_w
    bq, bk, bv, bo = attention_b
    probs = bert_head_weights(hidden, wq, bq, wk, bk, mask, n_heads)
    v = split_heads(hidden @ wv + bv, n_heads)
    context = combine_heads(probs @ v)
    attn_out = context @ wo + bo
    x = layer_norm(hidden + attn_out, norms[0][0], norms[0][1])
    h = _gelu(x @ ffn_w_in + ffn_b_in)
    ffn_out = h @ ffn_w_out + ffn_b_out
    return layer_norm(x + ffn_out, norms[1][0], norms[1][1])
'''


def _slip(old: str, new: str) -> str:
    """_LAYER with exactly one change."""
    assert _LAYER.count(old) == 1, old
    return _LAYER.replace(old, new)


MISTAKES = {
    "attention_matrices": {
        "weights_not_transposed:as_stored": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
''',
        "weights_not_transposed:output_kept": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
''',
        "mixed_up_projections:key_first": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([w.T for w in (key_weight, query_weight, value_weight, output_weight)])
''',
        "changes_inputs_in_place:transpose_into": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    for w in (query_weight, key_weight, value_weight, output_weight):
        w[...] = w.T.copy()
    return np.stack([query_weight, key_weight, value_weight, output_weight])
''',
        "uncatalogued:concatenated": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.concatenate([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
''',
        "matrices_stacked_on_last_axis:stack_then_T": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T
''',
        "uncatalogued:inverse_not_transpose": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([np.linalg.inv(w) for w in (query_weight, key_weight, value_weight, output_weight)])
''',
    },
    "bert_embeddings": {
        "position_embeddings_missing:words_and_types": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    summed = word_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
''',
        "positions_off_by_one:from_one": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    pos = position_embeddings[np.arange(1, n + 1)]
    summed = word_embeddings[token_ids] + pos + type_embeddings[token_types]
    return layer_norm(summed, *embedding_norm)
''',
        "token_type_embeddings_missing:all_zero_types": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    # token types are all 0 for one sentence, so they add nothing
    n = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[:n]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
''',
        "embedding_layer_norm_missing:raw_sum": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[-1]
    return word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
''',
        "embedding_lookup_wrong_ids:type_row_zero_only": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[-1]
    summed = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[0]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
''',
        "layer_norm_scale_shift_swapped:gamma_beta_swapped": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[-1]
    summed = word_embeddings[token_ids] + position_embeddings[np.arange(n)] + type_embeddings[token_types]
    beta, gamma = embedding_norm
    return layer_norm(summed, gamma, beta)
''',
        "embedding_lookup_wrong_ids:positions_indexed_by_ids": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    summed = word_embeddings[token_ids] + position_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
''',
        "layer_norm_wrong_axis:norm_over_tokens": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[-1]
    x = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
    mean = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
''',
    },
    "bert_head_weights": {
        "padding_mask_ignored:no_mask": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = np.exp(s - s.max(axis=-1, keepdims=True))
    return s / s.sum(axis=-1, keepdims=True)
''',
        "biases_missing:query": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = np.where(mask[:, None, None, :] == 1, s, -np.inf)
    s = np.exp(s - s.max(axis=-1, keepdims=True))
    return s / s.sum(axis=-1, keepdims=True)
''',
        "mask_with_zero:where_zero": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = np.where(mask[:, None, None, :] == 1, s, 0.0)
    s = np.exp(s - s.max(axis=-1, keepdims=True))
    return s / s.sum(axis=-1, keepdims=True)
''',
        "padding_mask_on_queries:rows": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = s + (1 - mask[:, None, :, None]) * -1e9
    s = np.exp(s - s.max(axis=-1, keepdims=True))
    return s / s.sum(axis=-1, keepdims=True)
''',
        "mask_wrong_sign:kept_padding": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = s + mask[:, None, None, :] * -1e9
    s = np.exp(s - s.max(axis=-1, keepdims=True))
    return s / s.sum(axis=-1, keepdims=True)
''',
        "scale_by_sqrt_d_model:hidden_width": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(hidden.shape[-1])
    s = np.where(mask[:, None, None, :] != 0, s, -np.inf)
    s = np.exp(s - s.max(axis=-1, keepdims=True))
    return s / s.sum(axis=-1, keepdims=True)
''',
        "softmax_no_max_subtraction:exp": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    e = np.exp(s) * mask[:, None, None, :]
    return e / e.sum(axis=-1, keepdims=True)
''',
        "mask_after_softmax:zeroed": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) * mask[:, None, None, :]
''',
        "uncatalogued:mask_not_expanded": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = s + (1.0 - mask) * -1e9
    s = np.exp(s - s.max(axis=-1, keepdims=True))
    return s / s.sum(axis=-1, keepdims=True)
''',
    },
    "bert_layer": {
        "relu_instead_of_gelu:maximum": _slip(
            "h = _gelu(x @ ffn_w_in + ffn_b_in)", "h = np.maximum(x @ ffn_w_in + ffn_b_in, 0.0)"),
        "gelu_tanh_approximation:gpt2_form": _slip(
            "return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))",
            "return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))"),
        "residual_missing:attention": _slip(
            "x = layer_norm(hidden + attn_out, norms[0][0], norms[0][1])",
            "x = layer_norm(attn_out, norms[0][0], norms[0][1])"),
        "residual_missing:feed_forward": _slip(
            "return layer_norm(x + ffn_out, norms[1][0], norms[1][1])",
            "return layer_norm(ffn_out, norms[1][0], norms[1][1])"),
        "layer_norm_before_sublayer:pre_ln": _slip(
            '''    probs = bert_head_weights(hidden, wq, bq, wk, bk, mask, n_heads)
    v = split_heads(hidden @ wv + bv, n_heads)
    context = combine_heads(probs @ v)
    attn_out = context @ wo + bo
    x = layer_norm(hidden + attn_out, norms[0][0], norms[0][1])
    h = _gelu(x @ ffn_w_in + ffn_b_in)
    ffn_out = h @ ffn_w_out + ffn_b_out
    return layer_norm(x + ffn_out, norms[1][0], norms[1][1])''',
            '''    normed = layer_norm(hidden, norms[0][0], norms[0][1])
    probs = bert_head_weights(normed, wq, bq, wk, bk, mask, n_heads)
    v = split_heads(normed @ wv + bv, n_heads)
    context = combine_heads(probs @ v)
    x = hidden + context @ wo + bo
    h = _gelu(layer_norm(x, norms[1][0], norms[1][1]) @ ffn_w_in + ffn_b_in)
    return x + h @ ffn_w_out + ffn_b_out'''),
        "biases_missing:output": _slip("attn_out = context @ wo + bo", "attn_out = context @ wo"),
        "padding_mask_ignored:ones": _slip(
            "probs = bert_head_weights(hidden, wq, bq, wk, bk, mask, n_heads)",
            "probs = bert_head_weights(hidden, wq, bq, wk, bk, np.ones_like(mask), n_heads)"),
        "mixed_up_projections:values_from_key": _slip(
            "v = split_heads(hidden @ wv + bv, n_heads)", "v = split_heads(hidden @ wk + bk, n_heads)"),
        "heads_reshape_without_transpose:merge": _slip(
            "context = combine_heads(probs @ v)", "context = (probs @ v).reshape(hidden.shape)"),
        "layer_norms_mixed_up:same_norm_twice": _slip(
            "x = layer_norm(hidden + attn_out, norms[0][0], norms[0][1])",
            "x = layer_norm(hidden + attn_out, norms[1][0], norms[1][1])"),
        "uncatalogued:gamma_beta_swapped": _slip(
            "return layer_norm(x + ffn_out, norms[1][0], norms[1][1])",
            "return layer_norm(x + ffn_out, norms[1][1], norms[1][0])"),
        "uncatalogued:w_out_transposed": _slip("attn_out = context @ wo + bo", "attn_out = context @ wo.T + bo"),
    },
    "sentence_embedding": {
        "mean_pool_includes_padding:plain_mean": '''
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
        "cls_pooling:first_token": '''
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
        "padding_mask_ignored:in_layers": '''
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
        "embedding_layer_norm_missing:inline": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    n = token_ids.shape[1]
    h = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
    for i in range(len(attention_w)):
        h = bert_layer(h, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
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
        "layer_weights_not_indexed:same_layer_repeated": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    h = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for _ in range(len(attention_w)):
        h = bert_layer(h, mask, attention_w[0], attention_b[0], ffn_w_in[0], ffn_b_in[0], ffn_w_out[0],
                       ffn_b_out[0], norms[0], n_heads)
    m = mask[:, :, None]
    return (h * m).sum(axis=1) / m.sum(axis=1)
''',
        "uncatalogued:divided_by_all_real_tokens": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    h = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for i in range(len(attention_w)):
        h = bert_layer(h, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    return (h * mask[:, :, None]).sum(axis=1) / mask.sum()
''',
        "uncatalogued:types_ignored": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    h = bert_embeddings(token_ids, np.zeros_like(token_ids), word_embeddings, position_embeddings,
                        type_embeddings, embedding_norm)
    for i in range(len(attention_w)):
        h = bert_layer(h, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    m = mask[:, :, None]
    return (h * m).sum(axis=1) / m.sum(axis=1)
''',
    },
    "head_patterns": {
        "next_token_instead_of_previous:offset_plus_one": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "special_tokens_cls_only:first_key": '''
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
    return np.array([previous, special, itself])
''',
        "uncatalogued:itself_summed": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.trace(weights, axis1=-2, axis2=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "special_tokens_averaged:special_mean_of_both": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = weights[..., :, [0, -1]].mean(axis=(-2, -1))
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
    },
}

VARIANTS = {
    "attention_matrices": {
        "transpose_axes": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).transpose(0, 2, 1)
''',
        "array_of_transposes": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.array([np.transpose(w) for w in (query_weight, key_weight, value_weight, output_weight)])
''',
    },
    "bert_embeddings": {
        "take": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    batch, n = token_ids.shape
    words = np.take(word_embeddings, token_ids, axis=0)
    positions = np.take(position_embeddings, np.arange(n), axis=0)[None, :, :]
    types = np.take(type_embeddings, token_types, axis=0)
    gamma, beta = embedding_norm
    return layer_norm(words + positions + types, gamma, beta)
''',
        "own_layer_norm": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    x = word_embeddings[token_ids] + position_embeddings[: token_ids.shape[1]] + type_embeddings[token_types]
    mu = x.mean(-1, keepdims=True)
    sigma2 = x.var(-1, keepdims=True)
    return embedding_norm[0] * (x - mu) / np.sqrt(sigma2 + 1e-12) + embedding_norm[1]
''',
    },
    "bert_head_weights": {
        "additive_big_negative": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = np.where(mask[:, None, None, :].astype(bool), s, -1e30)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "scipy_softmax": '''
from scipy.special import softmax as _softmax

def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(np.matmul(hidden, w_query) + b_query, n_heads)
    keys = split_heads(np.matmul(hidden, w_key) + b_key, n_heads)
    scores = np.einsum("bhqd,bhkd->bhqk", queries, keys) / np.sqrt(queries.shape[-1])
    keep = (mask == 1)[:, np.newaxis, np.newaxis, :]
    return _softmax(np.where(keep, scores, -np.inf), axis=-1)
''',
    },
    "bert_layer": {
        "own_answer": _LAYER,
        "inline_attention": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    q, k, v = (split_heads(hidden @ attention_w[i] + attention_b[i], n_heads) for i in range(3))
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask[:, None, None, :] > 0, s, -np.inf)
    s = np.exp(s - s.max(-1, keepdims=True))
    a = s / s.sum(-1, keepdims=True)
    x = layer_norm(hidden + combine_heads(a @ v) @ attention_w[3] + attention_b[3], *norms[0])
    inner = x @ ffn_w_in + ffn_b_in
    inner = inner * 0.5 * (1 + erf(inner / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
''',
    },
    "sentence_embedding": {
        "zip_layers": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    hidden = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                             embedding_norm)
    for weights in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        hidden = bert_layer(hidden, mask, *weights, n_heads)
    counts = mask.sum(axis=1, keepdims=True)
    return np.einsum("btd,bt->bd", hidden, mask.astype(hidden.dtype)) / counts
''',
        "masked_average": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    h = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for i in range(attention_w.shape[0]):
        h = bert_layer(h, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    w = mask.astype(h.dtype)
    return np.average(h, axis=1, weights=np.broadcast_to(w[:, :, None], h.shape))
''',
    },
    "head_patterns": {
        "index_arrays": '''
def head_patterns(weights):
    n = weights.shape[-1]
    rows = np.arange(1, n)
    previous = weights[..., rows, rows - 1].mean(axis=-1)
    special = weights[..., :, 0].mean(axis=-1) + weights[..., :, n - 1].mean(axis=-1)
    idx = np.arange(n)
    itself = weights[..., idx, idx].mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "trace_offset": '''
def head_patterns(weights):
    n = weights.shape[-1]
    previous = np.trace(weights, offset=-1, axis1=-2, axis2=-1) / (n - 1)
    special = weights[..., :, [0, n - 1]].sum(axis=-1).mean(axis=-1)
    itself = np.trace(weights, axis1=-2, axis2=-1) / n
    return np.stack([previous, special, itself], axis=-1)
''',
    },
}
