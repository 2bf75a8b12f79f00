"""Ninth fresh set, notebook 08: your attention inside a pretrained transformer (NumPy)."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}


def _slip(source, *pairs):
    """source with each (old, new) replaced; old must occur exactly once."""
    for old, new in pairs:
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    return source


# --------------------------------------------------------------------------- attention_matrices
MISTAKES["attention_matrices"] = {
    "weights_not_transposed": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
''',
    "weights_not_transposed:output_forgotten": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
''',
    "mixed_up_projections:query_and_key_swapped": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([key_weight.T, query_weight.T, value_weight.T, output_weight.T])
''',
    "mixed_up_projections:key_copied": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, key_weight.T, output_weight.T])
''',
    "changes_inputs_in_place": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    for w in (query_weight, key_weight, value_weight, output_weight):
        w[...] = w.T.copy()
    return np.stack([query_weight, key_weight, value_weight, output_weight])
''',
    "lower_precision:float32": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    ws = [w.T.astype(np.float32) for w in (query_weight, key_weight, value_weight, output_weight)]
    return np.stack(ws)
''',
    "matrices_stacked_on_last_axis:stacked_on_last_axis": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight.T], axis=-1)
''',
    "matrices_stacked_on_last_axis:whole_stack_transposed": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T
''',
    "uncatalogued:concatenated": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.concatenate([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
''',
    "uncatalogued:layer_axis_swapped": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).swapaxes(0, 1)
''',
}
VARIANTS["attention_matrices"] = {
    "transpose_axes": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).transpose(0, 2, 1)
''',
    "swapaxes_last_two": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.swapaxes(np.array([query_weight, key_weight, value_weight, output_weight]), -1, -2)
''',
    "comprehension_copy": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.array([np.transpose(w).copy() for w in (query_weight, key_weight, value_weight, output_weight)])
''',
}

# --------------------------------------------------------------------------- bert_embeddings
_EMB = '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    words = word_embeddings[token_ids]
    positions = position_embeddings[np.arange(n_tokens)][None, :, :]
    types = type_embeddings[token_types]
    x = words + positions + types
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''

MISTAKES["bert_embeddings"] = {
    "position_embeddings_missing": _slip(_EMB, ("x = words + positions + types", "x = words + types")),
    "positions_off_by_one": _slip(_EMB, ("np.arange(n_tokens)", "np.arange(1, n_tokens + 1)")),
    "token_type_embeddings_missing": _slip(_EMB, ("x = words + positions + types", "x = words + positions")),
    "embedding_layer_norm_missing": _slip(_EMB, ("return layer_norm(x, embedding_norm[0], embedding_norm[1])",
                                                 "return x")),
    "embedding_lookup_wrong_ids:type_row_zero_always": _slip(_EMB, ("types = type_embeddings[token_types]",
                                                      "types = type_embeddings[0]")),
    "layer_norm_scale_shift_swapped:gamma_and_beta_swapped": _slip(_EMB, ("embedding_norm[0], embedding_norm[1]",
                                                        "embedding_norm[1], embedding_norm[0]")),
    "embedding_lookup_wrong_ids:positions_indexed_by_ids": _slip(_EMB, ("position_embeddings[np.arange(n_tokens)][None, :, :]",
                                                          "position_embeddings[token_ids]")),
    "uncatalogued:positions_from_batch_axis": _slip(_EMB, ("n_tokens = token_ids.shape[1]",
                                                           "n_tokens = token_ids.shape[0]")),
    "layer_norm_before_the_sum:norm_on_words_only": _slip(_EMB, ("    x = words + positions + types\n"
                                                    "    return layer_norm(x, embedding_norm[0], embedding_norm[1])\n",
                                                    "    words = layer_norm(words, embedding_norm[0], embedding_norm[1])\n"
                                                    "    return words + positions + types\n")),
    "layer_norm_wrong_axis:own_norm_over_tokens": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    x = word_embeddings[token_ids] + position_embeddings[: token_ids.shape[1]] + type_embeddings[token_types]
    mean = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
''',
}
VARIANTS["bert_embeddings"] = {
    "take": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    summed = (np.take(word_embeddings, token_ids, axis=0)
              + position_embeddings[: token_ids.shape[-1]]
              + np.take(type_embeddings, token_types, axis=0))
    gamma, beta = embedding_norm
    return layer_norm(summed, gamma, beta)
''',
    "own_layer_norm": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    positions = np.broadcast_to(np.arange(token_ids.shape[1]), token_ids.shape)
    x = word_embeddings[token_ids] + position_embeddings[positions] + type_embeddings[token_types]
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
''',
    "loop_over_batch": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    rows = []
    for ids, types in zip(token_ids, token_types):
        rows.append(word_embeddings[ids] + position_embeddings[: len(ids)] + type_embeddings[types])
    return layer_norm(np.stack(rows), embedding_norm[0], embedding_norm[1])
''',
}

# --------------------------------------------------------------------------- bert_head_weights
_BHW = '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    keep = mask[:, None, None, :].astype(bool)
    scores = np.where(keep, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)
'''

MISTAKES["bert_head_weights"] = {
    "padding_mask_ignored": _slip(_BHW, ("    scores = np.where(keep, scores, -np.inf)\n", "")),
    "mask_with_zero": _slip(_BHW, ("np.where(keep, scores, -np.inf)", "np.where(keep, scores, 0.0)")),
    "mask_finite_value": _slip(_BHW, ("np.where(keep, scores, -np.inf)", "scores + (1.0 - keep) * -10000.0")),
    "mask_wrong_sign": _slip(_BHW, ("np.where(keep, scores, -np.inf)", "np.where(keep, -np.inf, scores)")),
    "padding_mask_on_queries": _slip(_BHW, ("mask[:, None, None, :]", "mask[:, None, :, None]")),
    "mask_after_softmax": _slip(_BHW, ("    scores = np.where(keep, scores, -np.inf)\n", ""),
                                ("    return weights / weights.sum(axis=-1, keepdims=True)\n",
                                 "    weights = weights / weights.sum(axis=-1, keepdims=True) * keep\n"
                                 "    return weights / weights.sum(axis=-1, keepdims=True)\n")),
    "biases_missing": _slip(_BHW, ("hidden @ w_query + b_query", "hidden @ w_query"),
                            ("hidden @ w_key + b_key", "hidden @ w_key")),
    "biases_missing:query_bias": _slip(_BHW, ("hidden @ w_query + b_query", "hidden @ w_query")),
    "no_scaling": _slip(_BHW, (" / np.sqrt(q.shape[-1])", "")),
    "scale_by_sqrt_d_model": _slip(_BHW, ("np.sqrt(q.shape[-1])", "np.sqrt(hidden.shape[-1])")),
    "heads_reshape_without_transpose": _slip(_BHW, (
        "    q = split_heads(hidden @ w_query + b_query, n_heads)\n"
        "    k = split_heads(hidden @ w_key + b_key, n_heads)\n",
        "    batch, tokens, d_model = hidden.shape\n"
        "    q = (hidden @ w_query + b_query).reshape(batch, n_heads, tokens, d_model // n_heads)\n"
        "    k = (hidden @ w_key + b_key).reshape(batch, n_heads, tokens, d_model // n_heads)\n")),
    "softmax_no_max_subtraction": _slip(_BHW, ("    scores = scores - scores.max(axis=-1, keepdims=True)\n", "")),
    "projection_order": _slip(_BHW, ("hidden @ w_query + b_query", "hidden @ w_query.T + b_query"),
                              ("hidden @ w_key + b_key", "hidden @ w_key.T + b_key")),
    "keys_times_queries": _slip(_BHW, ("q @ np.swapaxes(k, -1, -2)", "k @ np.swapaxes(q, -1, -2)")),
    "softmax_wrong_axis": _slip(_BHW, ("scores.max(axis=-1, keepdims=True)", "scores.max(axis=1, keepdims=True)"),
                                ("weights.sum(axis=-1, keepdims=True)", "weights.sum(axis=1, keepdims=True)")),
    "uncatalogued:mask_not_expanded": _slip(_BHW, ("keep = mask[:, None, None, :].astype(bool)",
                                                   "keep = mask.astype(bool)")),
}
VARIANTS["bert_head_weights"] = {
    "additive_log_mask_scipy": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    from scipy.special import softmax
    queries = split_heads(np.matmul(hidden, w_query) + b_query, n_heads)
    keys = split_heads(np.matmul(hidden, w_key) + b_key, n_heads)
    scores = np.matmul(queries, keys.swapaxes(-1, -2)) / np.sqrt(keys.shape[-1])
    scores = scores + np.where(mask == 1, 0.0, -np.inf)[:, None, None, :]
    return softmax(scores, axis=-1)
''',
    "minus_1e9_on_masked_only": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    d_head = k.shape[-1]
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d_head)
    padding = (mask == 0)[:, np.newaxis, np.newaxis, :]
    scores = np.where(padding, scores - 1e9, scores)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
    "loop_over_heads": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = hidden @ w_query + b_query
    keys = hidden @ w_key + b_key
    d_head = queries.shape[-1] // n_heads
    blocked = mask[:, None, :] == 0
    heads = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        s = queries[..., cols] @ np.swapaxes(keys[..., cols], -1, -2) / np.sqrt(d_head)
        s = np.where(blocked, -np.inf, s)
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        heads.append(e / e.sum(axis=-1, keepdims=True))
    return np.stack(heads, axis=1)
''',
}

# --------------------------------------------------------------------------- bert_layer
# One learner's full answer; each mistake is this answer with one slip.
_LAYER = '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
               n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    attn = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    v = split_heads(hidden @ w_v + b_v, n_heads)
    context = combine_heads(attn @ v)
    attn_out = context @ w_o + b_o
    x = layer_norm(hidden + attn_out, norms[0][0], norms[0][1])
    h = x @ ffn_w_in + ffn_b_in
    h = h * 0.5 * (1.0 + erf(h / np.sqrt(2.0)))
    ffn_out = h @ ffn_w_out + ffn_b_out
    return layer_norm(x + ffn_out, norms[1][0], norms[1][1])
'''

MISTAKES["bert_layer"] = {
    "residual_missing:attention": _slip(_LAYER, ("layer_norm(hidden + attn_out,", "layer_norm(attn_out,")),
    "residual_missing:feed_forward": _slip(_LAYER, ("layer_norm(x + ffn_out,", "layer_norm(ffn_out,")),
    "layer_norm_before_sublayer": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
               n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    normed = layer_norm(hidden, norms[0][0], norms[0][1])
    attn = bert_head_weights(normed, w_q, b_q, w_k, b_k, mask, n_heads)
    v = split_heads(normed @ w_v + b_v, n_heads)
    x = hidden + combine_heads(attn @ v) @ w_o + b_o
    normed = layer_norm(x, norms[1][0], norms[1][1])
    h = normed @ ffn_w_in + ffn_b_in
    h = h * 0.5 * (1.0 + erf(h / np.sqrt(2.0)))
    return x + h @ ffn_w_out + ffn_b_out
''',
    "relu_instead_of_gelu": _slip(_LAYER, ("h = h * 0.5 * (1.0 + erf(h / np.sqrt(2.0)))", "h = np.maximum(h, 0.0)")),
    "gelu_tanh_approximation": _slip(_LAYER, ("h = h * 0.5 * (1.0 + erf(h / np.sqrt(2.0)))",
                                              "h = 0.5 * h * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (h + 0.044715 * h ** 3)))")),
    "biases_missing:value": _slip(_LAYER, ("hidden @ w_v + b_v", "hidden @ w_v")),
    "biases_missing:output": _slip(_LAYER, ("context @ w_o + b_o", "context @ w_o")),
    "biases_missing:feed_forward_in": _slip(_LAYER, ("h = x @ ffn_w_in + ffn_b_in", "h = x @ ffn_w_in")),
    "missing_output_projection": _slip(_LAYER, ("context @ w_o + b_o", "context + b_o")),
    "mixed_up_projections": _slip(_LAYER, ("hidden @ w_v + b_v", "hidden @ w_k + b_k")),
    "padding_mask_ignored": _slip(_LAYER, ("b_k, mask, n_heads)", "b_k, np.ones_like(mask), n_heads)")),
    "weights_transposed": _slip(_LAYER, ("combine_heads(attn @ v)", "combine_heads(np.swapaxes(attn, -1, -2) @ v)")),
    "heads_reshape_without_transpose": _slip(_LAYER, ("combine_heads(attn @ v)",
                                                      "(attn @ v).reshape(hidden.shape)")),
    "uncatalogued:output_projection_transposed": _slip(_LAYER, ("context @ w_o + b_o", "context @ w_o.T + b_o")),
    "uncatalogued:gelu_half_missing": _slip(_LAYER, ("h = h * 0.5 * (1.0 + erf(h / np.sqrt(2.0)))",
                                                     "h = h * (1.0 + erf(h / np.sqrt(2.0)))")),
    "layer_norms_mixed_up:norms_in_wrong_order": _slip(_LAYER, ("norms[0][0], norms[0][1]", "norms[1][0], norms[1][1]"),
                                               ("return layer_norm(x + ffn_out, norms[1][0], norms[1][1])",
                                                "return layer_norm(x + ffn_out, norms[0][0], norms[0][1])")),
    "uncatalogued:feed_forward_on_layer_input": _slip(_LAYER, ("h = x @ ffn_w_in", "h = hidden @ ffn_w_in")),
    "second_residual_from_block_input:second_residual_from_layer_input": _slip(_LAYER, ("layer_norm(x + ffn_out,",
                                                                    "layer_norm(hidden + ffn_out,")),
}
VARIANTS["bert_layer"] = {
    "ndtr_einsum": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
               n_heads):
    from scipy.special import ndtr
    weights = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask,
                                n_heads)
    values = split_heads(hidden @ attention_w[2] + attention_b[2], n_heads)
    context = combine_heads(np.einsum("bhqk,bhkd->bhqd", weights, values))
    x = layer_norm(hidden + context @ attention_w[3] + attention_b[3], *norms[0])
    inner = x @ ffn_w_in + ffn_b_in
    inner = inner * ndtr(inner)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
''',
    "helper_functions": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
               n_heads):
    def gelu(z):
        return 0.5 * z * (1.0 + erf(z / np.sqrt(2.0)))

    def linear(z, w, b):
        return np.matmul(z, w) + b

    (w_q, w_k, w_v, w_o), (b_q, b_k, b_v, b_o) = attention_w, attention_b
    a = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    ctx = np.moveaxis(a @ split_heads(linear(hidden, w_v, b_v), n_heads), 1, 2)
    ctx = ctx.reshape(hidden.shape[0], hidden.shape[1], -1)
    out1 = layer_norm(hidden + linear(ctx, w_o, b_o), norms[0, 0], norms[0, 1])
    out2 = linear(gelu(linear(out1, ffn_w_in, ffn_b_in)), ffn_w_out, ffn_b_out)
    return layer_norm(out1 + out2, norms[1, 0], norms[1, 1])
''',
    "scipy_stats_cdf": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
               n_heads):
    from scipy.stats import norm
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    weights = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    attended = combine_heads(weights @ split_heads(hidden @ w_v + b_v, n_heads)) @ w_o + b_o
    hidden = layer_norm(hidden + attended, norms[0][0], norms[0][1])
    inner = hidden @ ffn_w_in + ffn_b_in
    return layer_norm(hidden + (inner * norm.cdf(inner)) @ ffn_w_out + ffn_b_out, norms[1][0], norms[1][1])
''',
}

# --------------------------------------------------------------------------- sentence_embedding
_SENT = '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    n_layers = attention_w.shape[0]
    for i in range(n_layers):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    m = mask[:, :, None]
    summed = (x * m).sum(axis=1)
    counts = m.sum(axis=1)
    return summed / counts
'''

MISTAKES["sentence_embedding"] = {
    "mean_pool_includes_padding": _slip(_SENT, ("    m = mask[:, :, None]\n    summed = (x * m).sum(axis=1)\n"
                                                "    counts = m.sum(axis=1)\n    return summed / counts\n",
                                                "    return x.mean(axis=1)\n")),
    "mean_pool_includes_padding:divided_by_padded_length": _slip(_SENT, ("counts = m.sum(axis=1)",
                                                                         "counts = x.shape[1]")),
    "cls_pooling": _slip(_SENT, ("    m = mask[:, :, None]\n    summed = (x * m).sum(axis=1)\n"
                                 "    counts = m.sum(axis=1)\n    return summed / counts\n",
                                 "    return x[:, 0, :]\n")),
    "loop_leftover": _slip(_SENT, ("for i in range(n_layers):", "for i in range(n_layers - 1):")),
    "padding_mask_ignored": _slip(_SENT, ("x = bert_layer(x, mask,", "x = bert_layer(x, np.ones_like(mask),")),
    "layer_weights_not_indexed:first_layer_weights_reused": _slip(_SENT, (
        "attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],\n                       ffn_b_out[i], norms[i]",
        "attention_w[0], attention_b[0], ffn_w_in[0], ffn_b_in[0], ffn_w_out[0],\n                       ffn_b_out[0], norms[0]")),
    "layers_not_chained:layers_not_chained": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    embedded = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                               embedding_norm)
    for i in range(len(attention_w)):
        x = bert_layer(embedded, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    m = mask[:, :, None]
    return (x * m).sum(axis=1) / m.sum(axis=1)
''',
    "uncatalogued:token_types_zeroed": _slip(_SENT, ("bert_embeddings(token_ids, token_types,",
                                                     "bert_embeddings(token_ids, np.zeros_like(token_types),")),
    "uncatalogued:pooled_over_features": _slip(_SENT, ("summed = (x * m).sum(axis=1)", "summed = (x * m).sum(axis=-1)"),
                                               ("counts = m.sum(axis=1)", "counts = m.sum(axis=-1)")),
    "uncatalogued:max_pooling": _slip(_SENT, ("    summed = (x * m).sum(axis=1)\n    counts = m.sum(axis=1)\n"
                                              "    return summed / counts\n",
                                              "    return np.where(m == 1, x, -np.inf).max(axis=1)\n")),
    "uncatalogued:normalised_to_unit_length": _slip(_SENT, ("    return summed / counts\n",
                                                            "    pooled = summed / counts\n"
                                                            "    return pooled / np.linalg.norm(pooled, axis=-1, keepdims=True)\n")),
}
VARIANTS["sentence_embedding"] = {
    "np_average": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    hidden = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                             embedding_norm)
    for layer in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        hidden = bert_layer(hidden, mask, *layer, n_heads)
    weights = np.broadcast_to(mask[..., None], hidden.shape).astype(hidden.dtype)
    return np.average(hidden, axis=1, weights=weights)
''',
    "einsum_pool": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    h = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for i in range(len(norms)):
        h = bert_layer(h, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    m = mask.astype(h.dtype)
    return np.einsum("btd,bt->bd", h, m) / m.sum(axis=1, keepdims=True)
''',
    "boolean_rows": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    out = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                          embedding_norm)
    layer = 0
    while layer < attention_w.shape[0]:
        out = bert_layer(out, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                         ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
        layer += 1
    return np.stack([out[b][mask[b] == 1].mean(axis=0) for b in range(out.shape[0])])
''',
}

# --------------------------------------------------------------------------- head_patterns
_HP = '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = weights[..., :, 0].mean(axis=-1) + weights[..., :, -1].mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''

MISTAKES["head_patterns"] = {
    "next_token_instead_of_previous": _slip(_HP, ("offset=-1", "offset=1")),
    "special_tokens_cls_only": _slip(_HP, (" + weights[..., :, -1].mean(axis=-1)", "")),
    "loop_leftover": '''
def head_patterns(weights):
    n = weights.shape[-1]
    total = 0
    for i in range(1, n - 1):
        total = total + weights[..., i, i - 1]
    previous = total / (n - 1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
    "previous_mean_over_all_queries:previous_divided_by_n": _slip(_HP, (
        "np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)",
        "np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / weights.shape[-1]")),
    "special_tokens_rows:special_rows_instead_of_columns": _slip(_HP, (
        "weights[..., :, 0].mean(axis=-1) + weights[..., :, -1].mean(axis=-1)",
        "weights[..., 0, :].mean(axis=-1) + weights[..., -1, :].mean(axis=-1)")),
    "uncatalogued:patterns_on_first_axis": _slip(_HP, ("np.stack([previous, special, itself], axis=-1)",
                                                       "np.stack([previous, special, itself])")),
    "uncatalogued:diagonal_default_axes": _slip(_HP, ("np.diagonal(weights, offset=-1, axis1=-2, axis2=-1)",
                                                      "np.diagonal(weights, offset=-1)")),
    "uncatalogued:sum_instead_of_mean": _slip(_HP, ("np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)",
                                                    "np.diagonal(weights, axis1=-2, axis2=-1).sum(axis=-1)")),
    "special_tokens_averaged:special_averaged_not_added": _slip(_HP, (
        "weights[..., :, 0].mean(axis=-1) + weights[..., :, -1].mean(axis=-1)",
        "weights[..., :, [0, -1]].mean(axis=(-2, -1))")),
    "uncatalogued:patterns_in_other_order": _slip(_HP, ("[previous, special, itself]", "[special, previous, itself]")),
}
VARIANTS["head_patterns"] = {
    "fancy_indexing": '''
def head_patterns(weights):
    n = weights.shape[-1]
    rows = np.arange(1, n)
    previous = weights[..., rows, rows - 1].mean(axis=-1)
    special = (weights[..., 0] + weights[..., n - 1]).mean(axis=-1)
    itself = weights[..., np.arange(n), np.arange(n)].mean(axis=-1)
    return np.stack((previous, special, itself), axis=-1)
''',
    "trace_and_eye": '''
def head_patterns(weights):
    n = weights.shape[-1]
    below = np.eye(n, k=-1, dtype=weights.dtype)
    previous = (weights * below).sum(axis=(-2, -1)) / (n - 1)
    special = weights[..., [0, -1]].sum(axis=-1).mean(axis=-1)
    itself = np.trace(weights, axis1=-2, axis2=-1) / n
    return np.stack([previous, special, itself], axis=-1)
''',
    "moveaxis_diagonals": '''
def head_patterns(weights):
    d_prev = np.diagonal(weights, -1, -2, -1)
    d_self = np.diagonal(weights, 0, -2, -1)
    first_last = np.take(weights, [0, weights.shape[-1] - 1], axis=-1).sum(axis=-1)
    return np.moveaxis(np.array([d_prev.mean(-1), first_last.mean(-1), d_self.mean(-1)]), 0, -1)
''',
}
