"""Fresh learner answers for notebook 08 (see README.md: written without the key, never tuned on)."""

_HEADS_BODY = '''
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    return np.exp(scores) / np.exp(scores).sum(axis=-1, keepdims=True)
'''
_HEADS_SIGNATURE = "\ndef bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):"


def _heads(*pairs: tuple[str, str]) -> str:
    """This file's correct ``bert_head_weights`` with each ``(old, new)`` text replaced once."""
    body = _HEADS_BODY
    for old, new in pairs:
        assert body.count(old) == 1, old
        body = body.replace(old, new)
    return _HEADS_SIGNATURE + body


_LAYER_BODY = '''
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out + b_out
    x = layer_norm(hidden + attended, norms[0][0], norms[0][1])
    inner = x @ ffn_w_in + ffn_b_in
    inner = inner * 0.5 * (1.0 + erf(inner / np.sqrt(2.0)))
    out = inner @ ffn_w_out + ffn_b_out
    return layer_norm(x + out, norms[1][0], norms[1][1])
'''
_LAYER_SIGNATURE = ("\ndef bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, "
                    "ffn_b_out, norms, n_heads):")


def _layer(*pairs: tuple[str, str]) -> str:
    """This file's correct ``bert_layer`` with each ``(old, new)`` text replaced once."""
    body = _LAYER_BODY
    for old, new in pairs:
        assert body.count(old) == 1, old
        body = body.replace(old, new)
    return _LAYER_SIGNATURE + body


_SENTENCE_BODY = '''
    hidden = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                             embedding_norm)
    for i in range(attention_w.shape[0]):
        hidden = bert_layer(hidden, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i],
                            ffn_w_out[i], ffn_b_out[i], norms[i], n_heads)
    weights = mask[:, :, None]
    return (hidden * weights).sum(axis=1) / weights.sum(axis=1)
'''
_SENTENCE_SIGNATURE = ("\ndef sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, "
                       "type_embeddings, embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, "
                       "ffn_b_out, norms, n_heads):")


def _sentence(*pairs: tuple[str, str]) -> str:
    """This file's correct ``sentence_embedding`` with each ``(old, new)`` text replaced once."""
    body = _SENTENCE_BODY
    for old, new in pairs:
        assert body.count(old) == 1, old
        body = body.replace(old, new)
    return _SENTENCE_SIGNATURE + body


MISTAKES = {
    "attention_matrices": {
        "weights_not_transposed:stacked_as_stored": """
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
""",
        "mixed_up_projections:query_key_swapped": """
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([key_weight.T, query_weight.T, value_weight.T, output_weight.T])
""",
        "changes_inputs_in_place:slice_assign": """
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    for w in (query_weight, key_weight, value_weight, output_weight):
        w[:] = w.T
    return np.stack([query_weight, key_weight, value_weight, output_weight])
""",
        "matrices_stacked_on_last_axis:stack_then_T": """
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T
""",
        "uncatalogued:concatenated_not_stacked": """
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.concatenate([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
""",
        "uncatalogued:inverse_instead_of_transpose": """
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([np.linalg.inv(w) for w in (query_weight, key_weight, value_weight, output_weight)])
""",
    },
    "bert_embeddings": {
        "position_embeddings_missing": """
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    summed = word_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
""",
        "token_type_embeddings_missing": """
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[:n]
    return layer_norm(summed, *embedding_norm)
""",
        "embedding_layer_norm_missing": """
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    return word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
""",
        "positions_off_by_one": """
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    positions = np.arange(1, token_ids.shape[-1] + 1)
    summed = word_embeddings[token_ids] + position_embeddings[positions] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
""",
        "layer_norm_scale_shift_swapped:gamma_beta_swapped": """
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
    beta, gamma = embedding_norm
    return layer_norm(summed, gamma, beta)
""",
        "uncatalogued:layer_norm_eps_1e-5": """
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
    x = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + 1e-5)
    return x * embedding_norm[0] + embedding_norm[1]
""",
        "embedding_lookup_wrong_ids:positions_indexed_by_ids": """
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    summed = word_embeddings[token_ids] + position_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
""",
        "layer_norm_wrong_axis:layer_norm_over_tokens": """
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
    x = (x - x.mean(axis=1, keepdims=True)) / np.sqrt(x.var(axis=1, keepdims=True) + 1e-12)
    return x * embedding_norm[0] + embedding_norm[1]
""",
    },
    "bert_head_weights": {
        "padding_mask_ignored": _heads(("    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)\n", "")),
        "padding_mask_on_queries": _heads(("mask[:, None, None, :] == 1", "mask[:, None, :, None] == 1")),
        "biases_missing": _heads(("hidden @ w_query + b_query", "hidden @ w_query"),
                                 ("hidden @ w_key + b_key", "hidden @ w_key")),
        "mask_with_zero": _heads(("scores, -np.inf)", "scores, 0.0)")),
        "mask_wrong_sign": _heads(("mask[:, None, None, :] == 1", "mask[:, None, None, :] == 0")),
        "scale_by_sqrt_d_model": _heads(("np.sqrt(keys.shape[-1])", "np.sqrt(hidden.shape[-1])")),
        "uncatalogued:mask_broadcast_on_heads": _heads(("mask[:, None, None, :] == 1", "mask[:, None, :] == 1")),
        "uncatalogued:bias_added_after_split": _heads(
            ("split_heads(hidden @ w_query + b_query, n_heads)", "split_heads(hidden @ w_query, n_heads) + b_query"),
            ("split_heads(hidden @ w_key + b_key, n_heads)", "split_heads(hidden @ w_key, n_heads) + b_key")),
        "projection_order:course_weights_transposed": _heads(("hidden @ w_query", "hidden @ w_query.T"),
                                                          ("hidden @ w_key", "hidden @ w_key.T")),
    },
    "bert_layer": {
        "residual_missing:attention": _layer(("layer_norm(hidden + attended,", "layer_norm(attended,")),
        "layer_norm_before_sublayer": """
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    normed = layer_norm(hidden, *norms[0])
    weights = bert_head_weights(normed, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(normed @ w_value + b_value, n_heads)
    x = hidden + combine_heads(weights @ values) @ w_out + b_out
    normed = layer_norm(x, *norms[1])
    inner = normed @ ffn_w_in + ffn_b_in
    inner = 0.5 * inner * (1 + erf(inner / np.sqrt(2)))
    return x + inner @ ffn_w_out + ffn_b_out
""",
        "relu_instead_of_gelu": _layer(("inner = inner * 0.5 * (1.0 + erf(inner / np.sqrt(2.0)))",
                                        "inner = np.maximum(inner, 0.0)")),
        "gelu_tanh_approximation": _layer(
            ("inner = inner * 0.5 * (1.0 + erf(inner / np.sqrt(2.0)))",
             "inner = 0.5 * inner * (1 + np.tanh(np.sqrt(2 / np.pi) * (inner + 0.044715 * inner ** 3)))")),
        "biases_missing:b_out": _layer(("@ w_out + b_out", "@ w_out")),
        "missing_output_projection": _layer(("combine_heads(weights @ values) @ w_out + b_out",
                                             "combine_heads(weights @ values) + b_out")),
        "padding_mask_ignored:ones": _layer(("b_key, mask, n_heads)", "b_key, np.ones_like(mask), n_heads)")),
        "mixed_up_projections:values_from_w_key": _layer(("hidden @ w_value + b_value", "hidden @ w_key + b_key")),
        "layer_norms_mixed_up:norms_swapped": _layer(("norms[0][0], norms[0][1]", "norms[1][0], norms[1][1]"),
                                             ("return layer_norm(x + out, norms[1][0], norms[1][1])",
                                              "return layer_norm(x + out, norms[0][0], norms[0][1])")),
        "uncatalogued:gelu_erf_without_sqrt2": _layer(("erf(inner / np.sqrt(2.0))", "erf(inner / 2.0)")),
        "second_residual_from_block_input:second_residual_from_layer_input": _layer(("layer_norm(x + out,", "layer_norm(hidden + out,")),
    },
    "sentence_embedding": {
        "mean_pool_includes_padding": _sentence(
            ("    weights = mask[:, :, None]\n    return (hidden * weights).sum(axis=1) / weights.sum(axis=1)\n",
             "    return hidden.mean(axis=1)\n")),
        "cls_pooling": _sentence(
            ("    weights = mask[:, :, None]\n    return (hidden * weights).sum(axis=1) / weights.sum(axis=1)\n",
             "    return hidden[:, 0, :]\n")),
        "padding_mask_ignored:layers": _sentence(("hidden = bert_layer(hidden, mask,",
                                                  "hidden = bert_layer(hidden, np.ones_like(mask),")),
        "loop_leftover:last_layer_skipped": _sentence(("range(attention_w.shape[0])", "range(attention_w.shape[0] - 1)")),
        "layers_not_chained:layers_not_chained": _sentence(
            ("        hidden = bert_layer(hidden, mask,", "        output = bert_layer(hidden, mask,"),
            ("    weights = mask[:, :, None]\n", "    hidden = output\n    weights = mask[:, :, None]\n")),
        "uncatalogued:divided_by_all_real_tokens": _sentence(("weights.sum(axis=1)", "weights.sum()")),
        "uncatalogued:max_pooling": _sentence(
            ("    return (hidden * weights).sum(axis=1) / weights.sum(axis=1)\n",
             "    return np.where(weights == 1, hidden, -np.inf).max(axis=1)\n")),
    },
    "head_patterns": {
        "next_token_instead_of_previous": """
def head_patterns(weights):
    previous = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
""",
        "special_tokens_cls_only": """
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = weights[..., :, 0].mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
""",
        "previous_mean_over_all_queries:previous_divided_by_n": """
def head_patterns(weights):
    n = weights.shape[-1]
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / n
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
""",
        "uncatalogued:diagonal_default_axes": """
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
""",
        "special_tokens_rows:special_rows_not_columns": """
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0, :] + weights[..., -1, :]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
""",
        "uncatalogued:stacked_on_first_axis": """
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.array([previous, special, itself])
""",
    },
}

VARIANTS = {
    "attention_matrices": {
        "transpose_last_two": """
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).transpose(0, 2, 1)
""",
        "array_of_transposes": """
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.array([w.T for w in (query_weight, key_weight, value_weight, output_weight)])
""",
        "einsum_copy": """
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.einsum("nij->nji", np.stack([query_weight, key_weight, value_weight, output_weight])).copy()
""",
    },
    "bert_embeddings": {
        "slice_and_unpack": """
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[:n][None] + type_embeddings[token_types]
    gamma, beta = embedding_norm
    return layer_norm(summed, gamma, beta)
""",
        "take_and_own_norm": """
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    x = (np.take(word_embeddings, token_ids, axis=0) + np.take(type_embeddings, token_types, axis=0)
         + position_embeddings[np.arange(token_ids.shape[-1])])
    mean = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
""",
    },
    "bert_head_weights": {
        "hf_additive_mask": _heads(("    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)\n",
                                    "    scores = scores + (1.0 - mask[:, None, None, :]) * -10000.0\n")),
        "scipy_softmax_bool_mask": """
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    from scipy.special import softmax
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(q.shape[-1])
    scores[~np.broadcast_to(mask.astype(bool)[:, None, None, :], scores.shape)] = -np.inf
    return softmax(scores, axis=-1)
""",
    },
    "bert_layer": {
        "torch_gelu": _layer(("inner = inner * 0.5 * (1.0 + erf(inner / np.sqrt(2.0)))",
                              "inner = torch.nn.functional.gelu(torch.from_numpy(inner)).numpy()")),
        "scipy_norm_cdf": _layer(("inner = inner * 0.5 * (1.0 + erf(inner / np.sqrt(2.0)))",
                                  "from scipy.stats import norm\n    inner = inner * norm.cdf(inner)")),
        "norms_unpacked": _layer(("norms[0][0], norms[0][1]", "*norms[0]"), ("norms[1][0], norms[1][1]", "*norms[1]")),
    },
    "sentence_embedding": {
        "einsum_pooling": _sentence(
            ("    weights = mask[:, :, None]\n    return (hidden * weights).sum(axis=1) / weights.sum(axis=1)\n",
             "    return np.einsum('bt,btd->bd', mask, hidden) / mask.sum(axis=-1, keepdims=True)\n")),
        "zip_loop_average": """
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        x = bert_layer(x, mask, *layer, n_heads)
    weights = np.broadcast_to(mask[..., None], x.shape)
    return np.average(x, axis=1, weights=weights)
""",
    },
    "head_patterns": {
        "einsum_and_fancy_index": """
def head_patterns(weights):
    n = weights.shape[-1]
    previous = weights[..., np.arange(1, n), np.arange(n - 1)].mean(axis=-1)
    special = weights[..., :, [0, -1]].sum(axis=-1).mean(axis=-1)
    itself = np.einsum("...ii->...i", weights).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
""",
        "trace": """
def head_patterns(weights):
    n = weights.shape[-1]
    previous = np.trace(weights, offset=-1, axis1=-2, axis2=-1) / (n - 1)
    special = weights[..., 0].mean(axis=-1) + weights[..., -1].mean(axis=-1)
    itself = np.trace(weights, axis1=-2, axis2=-1) / n
    return np.stack([previous, special, itself], axis=-1)
""",
    },
}
