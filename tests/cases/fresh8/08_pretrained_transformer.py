"""Eighth fresh set, notebook 08: a pretrained transformer (MiniLM/BERT) in NumPy."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}


def _replace(source: str, *pairs: str) -> str:
    for old, new in zip(pairs[::2], pairs[1::2], strict=True):
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    return source


# --------------------------------------------------------------------------- attention_matrices
MISTAKES["attention_matrices"] = {
    "weights_not_transposed": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
''',
    "weights_not_transposed:w_out_only": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
''',
    "mixed_up_projections:query_key_swapped": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([key_weight.T, query_weight.T, value_weight.T, output_weight.T])
''',
    "changes_inputs_in_place": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    for w in (query_weight, key_weight, value_weight, output_weight):
        w[:] = w.T.copy()
    return np.stack([query_weight, key_weight, value_weight, output_weight])
''',
    "uncatalogued:concatenated": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.concatenate([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
''',
    "matrices_stacked_on_last_axis:stacked_last_axis": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight.T], axis=-1)
''',
    "matrices_stacked_on_last_axis:stack_T_all_axes": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T
''',
}
VARIANTS["attention_matrices"] = {
    "swapaxes": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.swapaxes(np.stack([query_weight, key_weight, value_weight, output_weight]), -1, -2)
''',
    "array_of_transposes": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.array([w.T for w in (query_weight, key_weight, value_weight, output_weight)])
''',
    "einsum": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    stacked = np.stack((query_weight, key_weight, value_weight, output_weight))
    return np.einsum("noi->nio", stacked).copy()
''',
}

# --------------------------------------------------------------------------- bert_embeddings
_EMB = '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    positions = np.arange(token_ids.shape[1])
    summed = word_embeddings[token_ids] + position_embeddings[positions] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
'''
MISTAKES["bert_embeddings"] = {
    "position_embeddings_missing": _replace(_EMB, " + position_embeddings[positions]", ""),
    "positions_off_by_one": _replace(_EMB, "np.arange(token_ids.shape[1])", "np.arange(1, token_ids.shape[1] + 1)"),
    "token_type_embeddings_missing": _replace(_EMB, " + type_embeddings[token_types]", ""),
    "embedding_layer_norm_missing": _replace(
        _EMB, "return layer_norm(summed, embedding_norm[0], embedding_norm[1])", "return summed"),
    "layer_norm_scale_shift_swapped:gamma_beta_swapped": _replace(_EMB, "embedding_norm[0], embedding_norm[1]",
                                                "embedding_norm[1], embedding_norm[0]"),
    "embedding_lookup_wrong_ids:type_row_zero_for_all": _replace(_EMB, "type_embeddings[token_types]", "type_embeddings[0]"),
    "embedding_lookup_wrong_ids:positions_from_ids": _replace(_EMB, "position_embeddings[positions]",
                                                "position_embeddings[token_ids]"),
    "uncatalogued:norm_with_ddof1": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    x = word_embeddings[token_ids] + position_embeddings[np.arange(token_ids.shape[1])] + type_embeddings[token_types]
    x = (x - x.mean(axis=-1, keepdims=True)) / x.std(axis=-1, ddof=1, keepdims=True)
    return x * embedding_norm[0] + embedding_norm[1]
''',
    "layer_norm_wrong_axis:normalised_over_tokens": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    x = word_embeddings[token_ids] + position_embeddings[np.arange(token_ids.shape[1])] + type_embeddings[token_types]
    x = (x - x.mean(axis=1, keepdims=True)) / np.sqrt(x.var(axis=1, keepdims=True) + 1e-12)
    return x * embedding_norm[0] + embedding_norm[1]
''',
}
VARIANTS["bert_embeddings"] = {
    "take_own_norm": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n = token_ids.shape[-1]
    x = np.take(word_embeddings, token_ids, axis=0) + position_embeddings[:n] + np.take(type_embeddings, token_types, axis=0)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    gamma, beta = embedding_norm
    return gamma * (x - mean) / np.sqrt(var + 1e-12) + beta
''',
    "slice_positions": _replace(_EMB, "position_embeddings[positions]", "position_embeddings[None, :len(positions)]"),
}

# --------------------------------------------------------------------------- bert_head_weights
_HW = '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)
'''
_MASKLINE = "    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)\n"
MISTAKES["bert_head_weights"] = {
    "padding_mask_ignored": _replace(_HW, _MASKLINE, ""),
    "padding_mask_on_queries": _replace(_HW, "mask[:, None, None, :] == 1", "mask[:, None, :, None] == 1"),
    "mask_wrong_sign": _replace(_HW, "mask[:, None, None, :] == 1", "mask[:, None, None, :] == 0"),
    "mask_finite_value:hf_additive": _replace(
        _HW, _MASKLINE, "    scores = scores + (1.0 - mask[:, None, None, :]) * -10000.0\n"),
    "mask_with_zero:multiplied": _replace(_HW, _MASKLINE, "    scores = scores * mask[:, None, None, :]\n"),
    "biases_missing:query": _replace(_HW, "hidden @ w_query + b_query", "hidden @ w_query"),
    "no_scaling": _replace(_HW, " / np.sqrt(keys.shape[-1])", ""),
    "scale_by_sqrt_d_model": _replace(_HW, "np.sqrt(keys.shape[-1])", "np.sqrt(hidden.shape[-1])"),
    "softmax_no_max_subtraction": _replace(_HW, "    scores = scores - scores.max(axis=-1, keepdims=True)\n", ""),
    "mask_after_softmax:not_renormalised": _replace(
        _HW, _MASKLINE, "", "return weights / weights.sum(axis=-1, keepdims=True)",
        "return weights / weights.sum(axis=-1, keepdims=True) * mask[:, None, None, :]"),
    "heads_reshape_without_transpose": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    batch, tokens, d_model = hidden.shape
    d_head = d_model // n_heads
    q = (hidden @ w_query + b_query).reshape(batch, n_heads, tokens, d_head)
    k = (hidden @ w_key + b_key).reshape(batch, n_heads, tokens, d_head)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d_head)
    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
}
VARIANTS["bert_head_weights"] = {
    "log_mask": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(q.shape[-1])
    with np.errstate(divide="ignore"):
        scores = scores + np.log(mask.astype(scores.dtype))[:, None, None, :]
    scores -= scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
    "template": _HW,
}

# --------------------------------------------------------------------------- bert_layer
# One learner's full answer, written for this set; each mistake is that answer with one slip.
_LAYER = '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    weights = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    values = split_heads(hidden @ w_v + b_v, n_heads)
    context = combine_heads(weights @ values)
    attn_out = context @ w_o + b_o
    x = layer_norm(hidden + attn_out, norms[0][0], norms[0][1])
    h = x @ ffn_w_in + ffn_b_in
    h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))
    ffn_out = h @ ffn_w_out + ffn_b_out
    return layer_norm(x + ffn_out, norms[1][0], norms[1][1])
'''


def _slip(*pairs: str) -> str:
    return _replace(_LAYER, *pairs)


MISTAKES["bert_layer"] = {
    "residual_missing:attention": _slip("layer_norm(hidden + attn_out,", "layer_norm(attn_out,"),
    "residual_missing:feed_forward": _slip("layer_norm(x + ffn_out,", "layer_norm(ffn_out,"),
    "layer_norm_before_sublayer": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    normed = layer_norm(hidden, norms[0][0], norms[0][1])
    weights = bert_head_weights(normed, w_q, b_q, w_k, b_k, mask, n_heads)
    values = split_heads(normed @ w_v + b_v, n_heads)
    x = hidden + combine_heads(weights @ values) @ w_o + b_o
    h = layer_norm(x, norms[1][0], norms[1][1]) @ ffn_w_in + ffn_b_in
    h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))
    return x + h @ ffn_w_out + ffn_b_out
''',
    "relu_instead_of_gelu": _slip("h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))", "h = np.maximum(h, 0.0)"),
    "gelu_tanh_approximation": _slip(
        "h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))",
        "h = 0.5 * h * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (h + 0.044715 * h ** 3)))"),
    "biases_missing:value": _slip("hidden @ w_v + b_v", "hidden @ w_v"),
    "biases_missing:output": _slip("context @ w_o + b_o", "context @ w_o"),
    "biases_missing:ffn_in": _slip("x @ ffn_w_in + ffn_b_in", "x @ ffn_w_in"),
    "padding_mask_ignored": _slip("b_k, mask, n_heads)", "b_k, np.ones_like(mask), n_heads)"),
    "missing_output_projection": _slip("context @ w_o + b_o", "context + b_o"),
    "mixed_up_projections:values_from_w_key": _slip("hidden @ w_v + b_v", "hidden @ w_k + b_v"),
    "projection_order:value_transposed": _slip("hidden @ w_v + b_v", "hidden @ w_v.T + b_v"),
    "heads_reshape_without_transpose": _slip(
        "context = combine_heads(weights @ values)",
        "context = (weights @ values).reshape(hidden.shape)"),
    "layer_norms_mixed_up:norms_swapped": _slip("norms[0][0], norms[0][1]", "norms[1][0], norms[1][1]",
                                        "x + ffn_out, norms[1][0], norms[1][1]", "x + ffn_out, norms[0][0], norms[0][1]"),
    "second_residual_from_block_input:ffn_residual_from_input": _slip("layer_norm(x + ffn_out,", "layer_norm(hidden + ffn_out,"),
}
VARIANTS["bert_layer"] = {
    "template": _LAYER,
    "norm_cdf_gelu": _slip(
        "h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))",
        "from scipy.stats import norm as _normal\n    h = h * _normal.cdf(h)"),
}

# --------------------------------------------------------------------------- sentence_embedding
_SENT = '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    hidden = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                             embedding_norm)
    for i in range(attention_w.shape[0]):
        hidden = bert_layer(hidden, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i],
                            ffn_w_out[i], ffn_b_out[i], norms[i], n_heads)
    m = mask[:, :, None]
    return (hidden * m).sum(axis=1) / m.sum(axis=1)
'''
MISTAKES["sentence_embedding"] = {
    "mean_pool_includes_padding": _replace(_SENT, "(hidden * m).sum(axis=1) / m.sum(axis=1)", "hidden.mean(axis=1)"),
    "mean_pool_includes_padding:divided_by_length": _replace(
        _SENT, "(hidden * m).sum(axis=1) / m.sum(axis=1)", "(hidden * m).sum(axis=1) / hidden.shape[1]"),
    "cls_pooling": _replace(_SENT, "(hidden * m).sum(axis=1) / m.sum(axis=1)", "hidden[:, 0, :]"),
    "loop_leftover:last_layer": _replace(_SENT, "range(attention_w.shape[0])", "range(attention_w.shape[0] - 1)"),
    "padding_mask_ignored": _replace(_SENT, "bert_layer(hidden, mask,", "bert_layer(hidden, np.ones_like(mask),"),
    "uncatalogued:layer_output_discarded": _replace(_SENT, "        hidden = bert_layer(hidden,", "        bert_layer(hidden,"),
    "layer_weights_not_indexed:layer_zero_repeated": _replace(
        _SENT, "attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i],\n                            ffn_w_out[i], ffn_b_out[i], norms[i]",
        "attention_w[0], attention_b[0], ffn_w_in[0], ffn_b_in[0],\n                            ffn_w_out[0], ffn_b_out[0], norms[0]"),
    "pooled_sum_not_mean:sum_pooling": _replace(_SENT, "(hidden * m).sum(axis=1) / m.sum(axis=1)", "(hidden * m).sum(axis=1)"),
    "uncatalogued:divided_by_all_tokens_of_batch": _replace(
        _SENT, "(hidden * m).sum(axis=1) / m.sum(axis=1)", "(hidden * m).sum(axis=1) / m.sum()"),
}
VARIANTS["sentence_embedding"] = {
    "template": _SENT,
    "zip_einsum": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for weights in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        x = bert_layer(x, mask, *weights, n_heads)
    counts = mask.sum(axis=1, keepdims=True)
    return np.einsum("bt,btd->bd", mask, x) / counts
''',
}

# --------------------------------------------------------------------------- head_patterns
_HP = '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''
MISTAKES["head_patterns"] = {
    "next_token_instead_of_previous": _replace(_HP, "offset=-1", "offset=1"),
    "special_tokens_cls_only": _replace(_HP, "(weights[..., :, 0] + weights[..., :, -1])", "weights[..., :, 0]"),
    "special_tokens_rows:special_rows_not_columns": _replace(_HP, "weights[..., :, 0] + weights[..., :, -1]",
                                                      "weights[..., 0, :] + weights[..., -1, :]"),
    "uncatalogued:diagonal_default_axes": _replace(
        _HP, "np.diagonal(weights, offset=-1, axis1=-2, axis2=-1)", "np.diagonal(weights, offset=-1)"),
    "previous_mean_over_all_queries:previous_divided_by_n": _replace(
        _HP, "np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)",
        "np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / weights.shape[-1]"),
    "uncatalogued:trace_not_mean": _replace(
        _HP, "itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)",
        "itself = np.trace(weights, axis1=-2, axis2=-1)"),
    "uncatalogued:stacked_first": _replace(_HP, "[previous, special, itself], axis=-1", "[previous, special, itself]"),
    "uncatalogued:special_max_not_sum": _replace(
        _HP, "(weights[..., :, 0] + weights[..., :, -1])", "np.maximum(weights[..., :, 0], weights[..., :, -1])"),
}
VARIANTS["head_patterns"] = {
    "fancy_index": '''
def head_patterns(weights):
    n = weights.shape[-1]
    i = np.arange(1, n)
    previous = weights[..., i, i - 1].mean(axis=-1)
    special = weights[..., 0].mean(axis=-1) + weights[..., n - 1].mean(axis=-1)
    itself = np.einsum("...ii->...i", weights).mean(axis=-1)
    return np.stack((previous, special, itself), axis=-1)
''',
    "trace_offset": '''
def head_patterns(weights):
    n = weights.shape[-1]
    previous = np.trace(weights, offset=-1, axis1=-2, axis2=-1) / (n - 1)
    special = weights[..., :, [0, -1]].sum(axis=-1).mean(axis=-1)
    itself = np.trace(weights, axis1=-2, axis2=-1) / n
    return np.stack([previous, special, itself], axis=-1)
''',
}
