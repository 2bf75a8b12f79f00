"""Sixth fresh set, notebook 08: a pretrained transformer (BERT layers).

The bert_layer cases are one learner's full answer (_LAYER, written for this set) with one slip each,
made by _slip() (text replacement); _LAYER and _LAYER2 (attention written inline) are the variants.
"""

MISTAKES = {
    "attention_matrices": {
        "weights_not_transposed": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
''',
        "weights_not_transposed:w_out_as_stored": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
''',
        "mixed_up_projections:values_before_keys": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([w.T for w in (query_weight, value_weight, key_weight, output_weight)])
''',
        "lower_precision:float32": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    stacked = np.stack([query_weight, key_weight, value_weight, output_weight]).astype(np.float32)
    return stacked.transpose(0, 2, 1)
''',
        "uncatalogued:concatenated": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.concatenate([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
''',
        "uncatalogued:stacked_on_axis_1": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight.T], axis=1)
''',
        "uncatalogued:inverse_instead_of_transpose": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([np.linalg.inv(w) for w in (query_weight, key_weight, value_weight, output_weight)])
''',
        "matrices_stacked_on_last_axis:whole_stack_transposed": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T
''',
    },
    "bert_embeddings": {
        "position_embeddings_missing": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    x = word_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
''',
        "positions_off_by_one": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[1:n + 1] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
''',
        "token_type_embeddings_missing": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
''',
        "embedding_layer_norm_missing": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    return word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
''',
        "lower_precision:float32": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = (word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]).astype(np.float32)
    return layer_norm(x, embedding_norm[0].astype(np.float32), embedding_norm[1].astype(np.float32))
''',
        "layer_norm_scale_shift_swapped:gamma_beta_swapped": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
    beta, gamma = embedding_norm
    return layer_norm(x, gamma, beta)
''',
        "embedding_lookup_wrong_ids:positions_indexed_by_ids": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    x = word_embeddings[token_ids] + position_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
''',
        "embedding_lookup_wrong_ids:type_row_0_for_every_token": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[0]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
''',
        "uncatalogued:sample_standard_deviation": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, ddof=1, keepdims=True)
    return (x - mean) / std * embedding_norm[0] + embedding_norm[1]
''',
        "layer_norm_wrong_axis:normalised_over_tokens": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
    mean = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
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
        "mask_with_zero:multiplied": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1]) * mask[:, None, None, :]
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
        "mask_finite_value:additive_minus_10000": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = s + (1.0 - mask[:, None, None, :]) * -10000.0
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
        "biases_missing": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query, n_heads)
    k = split_heads(hidden @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = np.where(mask[:, None, None, :] == 1, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
        "biases_missing:query_bias_only": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = np.where(mask[:, None, None, :] == 1, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
        "scale_by_sqrt_d_model": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(hidden.shape[-1])
    s = np.where(mask[:, None, None, :] == 1, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
        "no_scaling": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2)
    s = np.where(mask[:, None, None, :] == 1, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
        "softmax_no_max_subtraction": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = np.where(mask[:, None, None, :] == 1, s, -np.inf)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "heads_reshape_without_transpose": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    b, t, d = hidden.shape
    q = (hidden @ w_query + b_query).reshape(b, n_heads, t, d // n_heads)
    k = (hidden @ w_key + b_key).reshape(b, n_heads, t, d // n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = np.where(mask[:, None, None, :] == 1, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
        "projection_order:weights_transposed": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query.T + b_query, n_heads)
    k = split_heads(hidden @ w_key.T + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    s = np.where(mask[:, None, None, :] == 1, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
    },
}

_LAYER = '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    probs = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    v = split_heads(hidden @ w_v + b_v, n_heads)
    context = combine_heads(probs @ v)
    attn_out = context @ w_o + b_o
    x = layer_norm(hidden + attn_out, norms[0][0], norms[0][1])
    h = x @ ffn_w_in + ffn_b_in
    h = h * 0.5 * (1.0 + erf(h / np.sqrt(2.0)))
    ffn_out = h @ ffn_w_out + ffn_b_out
    return layer_norm(x + ffn_out, norms[1][0], norms[1][1])
'''

_LAYER2 = '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    q, k, v = (split_heads(hidden @ attention_w[i] + attention_b[i], n_heads) for i in range(3))
    scores = np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(q.shape[-1])
    scores = np.where(mask[:, None, None, :].astype(bool), scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    attended = combine_heads(weights @ v) @ attention_w[3] + attention_b[3]
    gamma1, beta1 = norms[0]
    gamma2, beta2 = norms[1]
    x = layer_norm(hidden + attended, gamma1, beta1)
    pre = x @ ffn_w_in + ffn_b_in
    gelu = pre * (1 + erf(pre / np.sqrt(2))) / 2
    return layer_norm(x + (gelu @ ffn_w_out + ffn_b_out), gamma2, beta2)
'''


def _slip(old, new, count=1):
    assert _LAYER.count(old) == count, old
    return _LAYER.replace(old, new)


MISTAKES["bert_layer"] = {
    "residual_missing:attention": _slip("layer_norm(hidden + attn_out,", "layer_norm(attn_out,"),
    "residual_missing:feed_forward": _slip("layer_norm(x + ffn_out,", "layer_norm(ffn_out,"),
    "relu_instead_of_gelu": _slip("h = h * 0.5 * (1.0 + erf(h / np.sqrt(2.0)))", "h = np.maximum(h, 0.0)"),
    "gelu_tanh_approximation": _slip("h = h * 0.5 * (1.0 + erf(h / np.sqrt(2.0)))",
                                     "h = 0.5 * h * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (h + 0.044715 * h ** 3)))"),
    "biases_missing:attention_output": _slip("attn_out = context @ w_o + b_o", "attn_out = context @ w_o"),
    "biases_missing:ffn_in": _slip("h = x @ ffn_w_in + ffn_b_in", "h = x @ ffn_w_in"),
    "missing_output_projection": _slip("attn_out = context @ w_o + b_o", "attn_out = context + b_o"),
    "layer_norm_before_sublayer": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    normed = layer_norm(hidden, norms[0][0], norms[0][1])
    probs = bert_head_weights(normed, w_q, b_q, w_k, b_k, mask, n_heads)
    v = split_heads(normed @ w_v + b_v, n_heads)
    x = hidden + combine_heads(probs @ v) @ w_o + b_o
    normed = layer_norm(x, norms[1][0], norms[1][1])
    h = normed @ ffn_w_in + ffn_b_in
    h = h * 0.5 * (1.0 + erf(h / np.sqrt(2.0)))
    return x + h @ ffn_w_out + ffn_b_out
''',
    "projection_order:values": _slip("hidden @ w_v + b_v", "hidden @ w_v.T + b_v"),
    "mixed_up_projections:values_from_w_k": _slip("hidden @ w_v + b_v", "hidden @ w_k + b_v"),
    "padding_mask_ignored": _slip("    probs = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)\n", '''\
    q = split_heads(hidden @ w_q + b_q, n_heads)
    k = split_heads(hidden @ w_k + b_k, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    probs = np.exp(s - s.max(axis=-1, keepdims=True))
    probs = probs / probs.sum(axis=-1, keepdims=True)
'''),
    "heads_reshape_without_transpose": _slip("context = combine_heads(probs @ v)",
                                             "context = (probs @ v).reshape(hidden.shape)"),
    "weights_transposed": _slip("combine_heads(probs @ v)", "combine_heads(np.swapaxes(probs, -1, -2) @ v)"),
    "layer_norms_mixed_up:layer_norms_exchanged": _slip("norms[0][0], norms[0][1]", "norms[1][0], norms[1][1]")
    .replace("layer_norm(x + ffn_out, norms[1][0], norms[1][1])", "layer_norm(x + ffn_out, norms[0][0], norms[0][1])"),
    "uncatalogued:gamma_beta_swapped": _slip("norms[0][0], norms[0][1]", "norms[0][1], norms[0][0]"),
    "second_residual_from_block_input:ffn_residual_from_layer_input": _slip("layer_norm(x + ffn_out,", "layer_norm(hidden + ffn_out,"),
}

MISTAKES["sentence_embedding"] = {
    "mean_pool_includes_padding": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for i in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i], ffn_b_out[i],
                       norms[i], n_heads)
    return x.mean(axis=1)
''',
    "mean_pool_includes_padding:divided_by_padded_length": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for i in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i], ffn_b_out[i],
                       norms[i], n_heads)
    return (x * mask[:, :, None]).sum(axis=1) / x.shape[1]
''',
    "cls_pooling": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for i in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i], ffn_b_out[i],
                       norms[i], n_heads)
    return x[:, 0, :]
''',
    "loop_leftover:last_layer_skipped": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for i in range(len(attention_w) - 1):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i], ffn_b_out[i],
                       norms[i], n_heads)
    m = mask[:, :, None]
    return (x * m).sum(axis=1) / m.sum(axis=1)
''',
    "layers_not_chained:layers_not_chained": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    emb = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for i in range(len(attention_w)):
        out = bert_layer(emb, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                         ffn_b_out[i], norms[i], n_heads)
    m = mask[:, :, None]
    return (out * m).sum(axis=1) / m.sum(axis=1)
''',
    "layer_weights_not_indexed:first_layer_repeated": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for _ in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[0], attention_b[0], ffn_w_in[0], ffn_b_in[0], ffn_w_out[0], ffn_b_out[0],
                       norms[0], n_heads)
    m = mask[:, :, None]
    return (x * m).sum(axis=1) / m.sum(axis=1)
''',
    "pooled_sum_not_mean:sum_pooling": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for i in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i], ffn_b_out[i],
                       norms[i], n_heads)
    return (x * mask[:, :, None]).sum(axis=1)
''',
    "uncatalogued:max_pooling": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for i in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i], ffn_b_out[i],
                       norms[i], n_heads)
    return np.where(mask[:, :, None] == 1, x, -np.inf).max(axis=1)
''',
    "uncatalogued:mean_over_features": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for i in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i], ffn_b_out[i],
                       norms[i], n_heads)
    return (x * mask[:, :, None]).sum(axis=-1) / mask.sum(axis=-1, keepdims=True)
''',
}

MISTAKES["head_patterns"] = {
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
    "loop_leftover:from_second_query": '''
def head_patterns(weights):
    n = weights.shape[-1]
    previous = sum(weights[..., i, i - 1] for i in range(2, n)) / (n - 1)
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
    "uncatalogued:diagonal_default_axes": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights).mean(axis=-1)
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
    "uncatalogued:diagonal_summed_not_averaged": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.trace(weights, axis1=-2, axis2=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
    "uncatalogued:stacked_first": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself])
''',
}

VARIANTS = {
    "attention_matrices": {
        "transpose_stack": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).transpose(0, 2, 1)
''',
        "array_of_transposes": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.array([np.transpose(w) for w in (query_weight, key_weight, value_weight, output_weight)])
''',
    },
    "bert_embeddings": {
        "take_and_own_norm": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[-1]
    x = np.take(word_embeddings, token_ids, axis=0) + position_embeddings[None, :n] + np.take(type_embeddings, token_types, axis=0)
    mu = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
''',
        "helper_unpacked": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    gamma, beta = embedding_norm
    positions = position_embeddings[np.arange(token_ids.shape[1])]
    return layer_norm(word_embeddings[token_ids] + type_embeddings[token_types] + positions, gamma, beta)
''',
    },
    "bert_head_weights": {
        "log_of_mask": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    with np.errstate(divide="ignore"):
        scores = scores + np.log(mask[:, None, None, :].astype(scores.dtype))
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    return w / w.sum(axis=-1, keepdims=True)
''',
        "scipy_softmax_bool_mask": '''
import scipy.special

def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(np.matmul(hidden, w_query) + b_query, n_heads)
    k = split_heads(np.matmul(hidden, w_key) + b_key, n_heads)
    scores = np.matmul(q, np.swapaxes(k, -1, -2)) / np.sqrt(k.shape[-1])
    keep = mask.astype(bool)[:, None, None, :]
    return scipy.special.softmax(np.where(keep, scores, -np.inf), axis=-1)
''',
    },
    "bert_layer": {
        "full_answer": _LAYER,
        "attention_inline": _LAYER2,
    },
    "sentence_embedding": {
        "np_average": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    h = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        h = bert_layer(h, mask, *layer, n_heads)
    return np.average(h, axis=1, weights=np.broadcast_to(mask[:, :, None], h.shape))
''',
        "per_sentence_loop": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    h = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for i in range(attention_w.shape[0]):
        h = bert_layer(h, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    return np.stack([h[b][mask[b] == 1].mean(axis=0) for b in range(h.shape[0])])
''',
    },
    "head_patterns": {
        "einsum_diagonals": '''
def head_patterns(weights):
    n = weights.shape[-1]
    previous = np.einsum("...ii->...i", weights[..., 1:, :-1]).mean(axis=-1)
    special = weights[..., :, [0, -1]].sum(axis=-1).mean(axis=-1)
    itself = np.einsum("...ii->...i", weights).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "trace_over_n": '''
def head_patterns(weights):
    n = weights.shape[-1]
    previous = np.trace(weights, offset=-1, axis1=-2, axis2=-1) / (n - 1)
    special = weights[..., :, 0].mean(-1) + weights[..., :, -1].mean(-1)
    itself = np.trace(weights, axis1=-2, axis2=-1) / n
    return np.stack((previous, special, itself), axis=-1)
''',
    },
}
