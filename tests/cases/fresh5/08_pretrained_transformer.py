"""Fifth fresh set, notebook 08 (NumPy, BERT layers): what a learner types into each solution cell.

The bert_layer cases are one learner's full answer (_LAYER, written for this set) with one slip each,
made by _slip() (text replacement); _LAYER itself is a variant. bert_head_weights, bert_embeddings and
sentence_embedding use small templates the same way.
"""

_EMB = '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    words = word_embeddings[token_ids]
    positions = position_embeddings[np.arange(n_tokens)]
    types = type_embeddings[token_types]
    x = words + positions + types
    gamma, beta = embedding_norm
    return layer_norm(x, gamma, beta)
'''

_HEADS = '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    d_head = hidden.shape[-1] // n_heads
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d_head)
    keep = mask[:, None, None, :] == 1
    scores = np.where(keep, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)
'''

_LAYER = '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    wq, wk, wv, wo = attention_w
    bq, bk, bv, bo = attention_b
    batch, tokens, d_model = hidden.shape
    d_head = d_model // n_heads
    q = split_heads(hidden @ wq + bq, n_heads)
    k = split_heads(hidden @ wk + bk, n_heads)
    v = split_heads(hidden @ wv + bv, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    keep = mask[:, None, None, :].astype(bool)
    scores = np.where(keep, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    probs = np.exp(scores)
    probs = probs / probs.sum(axis=-1, keepdims=True)
    context = combine_heads(probs @ v)
    attn_out = context @ wo + bo
    x = layer_norm(hidden + attn_out, norms[0][0], norms[0][1])
    h = x @ ffn_w_in + ffn_b_in
    h = h * 0.5 * (1.0 + erf(h / np.sqrt(2.0)))
    ffn_out = h @ ffn_w_out + ffn_b_out
    return layer_norm(x + ffn_out, norms[1][0], norms[1][1])
'''

_SENT = '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    hidden = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                             embedding_norm)
    n_layers = attention_w.shape[0]
    for i in range(n_layers):
        hidden = bert_layer(hidden, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i],
                            ffn_w_out[i], ffn_b_out[i], norms[i], n_heads)
    m = mask[:, :, None]
    summed = (hidden * m).sum(axis=1)
    counts = m.sum(axis=1)
    return summed / counts
'''


def _rep(template, old, new, count=1):
    assert template.count(old) == count, (old, template.count(old))
    return template.replace(old, new)


def _slip(old, new, count=1):
    return _rep(_LAYER, old, new, count)


MISTAKES = {
    "attention_matrices": {
        "weights_not_transposed": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
''',
        "weights_not_transposed:w_out_kept": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
''',
        "mixed_up_projections:keys_values_swapped": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([w.T for w in (query_weight, value_weight, key_weight, output_weight)])
''',
        "changes_inputs_in_place": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    ws = [query_weight, key_weight, value_weight, output_weight]
    for w in ws:
        w[...] = w.T.copy()
    return np.stack(ws)
''',
        "lower_precision:float32": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight.T]).astype(np.float32)
''',
        "uncatalogued:concatenated": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.concatenate([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
''',
        "matrices_stacked_on_last_axis:stack_transposed_whole": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T
''',
        "uncatalogued:stacked_on_middle_axis": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight.T], axis=1)
''',
    },
    "bert_embeddings": {
        "position_embeddings_missing": _rep(_EMB, "x = words + positions + types", "x = words + types"),
        "positions_off_by_one": _rep(_EMB, "np.arange(n_tokens)", "np.arange(1, n_tokens + 1)"),
        "token_type_embeddings_missing": _rep(_EMB, "x = words + positions + types", "x = words + positions"),
        "embedding_layer_norm_missing": _rep(_EMB, "return layer_norm(x, gamma, beta)", "return x"),
        "layer_norm_scale_shift_swapped:gamma_beta_swapped": _rep(_EMB, "gamma, beta = embedding_norm", "beta, gamma = embedding_norm"),
        "embedding_lookup_wrong_ids:positions_from_ids": _rep(_EMB, "position_embeddings[np.arange(n_tokens)]",
                                                "position_embeddings[token_ids]"),
        "uncatalogued:positions_from_batch_axis": _rep(_EMB, "n_tokens = token_ids.shape[1]",
                                                       "n_tokens = token_ids.shape[0]"),
        "uncatalogued:norm_with_sample_std": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    x = word_embeddings[token_ids] + position_embeddings[:token_ids.shape[1]] + type_embeddings[token_types]
    x = (x - x.mean(axis=-1, keepdims=True)) / x.std(axis=-1, ddof=1, keepdims=True)
    return x * embedding_norm[0] + embedding_norm[1]
''',
        "layer_norm_wrong_axis:norm_over_tokens": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    x = word_embeddings[token_ids] + position_embeddings[:token_ids.shape[1]] + type_embeddings[token_types]
    mean = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
''',
    },
    "bert_head_weights": {
        "padding_mask_ignored": _rep(_HEADS, "    scores = np.where(keep, scores, -np.inf)\n", ""),
        "biases_missing": _rep(_HEADS, "hidden @ w_query + b_query", "hidden @ w_query"),
        "padding_mask_on_queries": _rep(_HEADS, "mask[:, None, None, :]", "mask[:, None, :, None]"),
        "mask_with_zero": _rep(_HEADS, "np.where(keep, scores, -np.inf)", "np.where(keep, scores, 0.0)"),
        "mask_finite_value:hf_additive": _rep(_HEADS, "scores = np.where(keep, scores, -np.inf)",
                                              "scores = scores + (1.0 - mask[:, None, None, :]) * -10000.0"),
        "mask_wrong_sign": _rep(_HEADS, "== 1", "== 0"),
        "scale_by_sqrt_d_model": _rep(_HEADS, "np.sqrt(d_head)", "np.sqrt(hidden.shape[-1])"),
        "no_scaling": _rep(_HEADS, " / np.sqrt(d_head)", ""),
        "softmax_no_max_subtraction": _rep(_HEADS, "    scores = scores - scores.max(axis=-1, keepdims=True)\n", ""),
        "projection_order:w_transposed": _rep(_HEADS, "hidden @ w_query + b_query, n_heads)\n    k = split_heads(hidden @ w_key",
                                              "hidden @ w_query.T + b_query, n_heads)\n    k = split_heads(hidden @ w_key.T"),
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
    },
    "bert_layer": {
        "residual_missing:attention": _slip("layer_norm(hidden + attn_out,", "layer_norm(attn_out,"),
        "residual_missing:feed_forward": _slip("layer_norm(x + ffn_out,", "layer_norm(ffn_out,"),
        "layer_norm_before_sublayer": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    wq, wk, wv, wo = attention_w
    bq, bk, bv, bo = attention_b
    normed = layer_norm(hidden, norms[0][0], norms[0][1])
    weights = bert_head_weights(normed, wq, bq, wk, bk, mask, n_heads)
    v = split_heads(normed @ wv + bv, n_heads)
    x = hidden + combine_heads(weights @ v) @ wo + bo
    normed = layer_norm(x, norms[1][0], norms[1][1])
    h = normed @ ffn_w_in + ffn_b_in
    h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))
    return x + h @ ffn_w_out + ffn_b_out
''',
        "relu_instead_of_gelu": _slip("h = h * 0.5 * (1.0 + erf(h / np.sqrt(2.0)))", "h = np.maximum(h, 0.0)"),
        "gelu_tanh_approximation": _slip("h = h * 0.5 * (1.0 + erf(h / np.sqrt(2.0)))",
                                         "h = 0.5 * h * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (h + 0.044715 * h ** 3)))"),
        "padding_mask_ignored": _slip("    scores = np.where(keep, scores, -np.inf)\n", ""),
        "biases_missing:b_out": _slip("attn_out = context @ wo + bo", "attn_out = context @ wo"),
        "biases_missing:ffn_in": _slip("h = x @ ffn_w_in + ffn_b_in", "h = x @ ffn_w_in"),
        "scale_by_sqrt_d_model": _slip("np.sqrt(d_head)", "np.sqrt(d_model)"),
        "no_scaling": _slip(" / np.sqrt(d_head)", ""),
        "heads_reshape_without_transpose": _slip("split_heads(hidden @ wq + bq, n_heads)",
                                                 "(hidden @ wq + bq).reshape(batch, n_heads, tokens, d_head)")
        .replace("split_heads(hidden @ wk + bk, n_heads)", "(hidden @ wk + bk).reshape(batch, n_heads, tokens, d_head)")
        .replace("split_heads(hidden @ wv + bv, n_heads)", "(hidden @ wv + bv).reshape(batch, n_heads, tokens, d_head)")
        .replace("combine_heads(probs @ v)", "(probs @ v).reshape(batch, tokens, d_model)"),
        "missing_output_projection": _slip("attn_out = context @ wo + bo", "attn_out = context + bo"),
        "mask_wrong_sign": _slip("np.where(keep, scores, -np.inf)", "np.where(~keep, scores, -np.inf)"),
        "mask_with_zero": _slip("np.where(keep, scores, -np.inf)", "np.where(keep, scores, 0)"),
        "mixed_up_projections": _slip("v = split_heads(hidden @ wv + bv, n_heads)", "v = split_heads(hidden @ wk + bk, n_heads)"),
        "softmax_wrong_axis": _slip("scores.max(axis=-1, keepdims=True)\n    probs = np.exp(scores)\n    probs = probs / probs.sum(axis=-1, keepdims=True)",
                                    "scores.max(axis=-2, keepdims=True)\n    probs = np.exp(scores)\n    probs = probs / probs.sum(axis=-2, keepdims=True)"),
        "layer_norms_mixed_up:norms_swapped": _slip("norms[0][0], norms[0][1]", "norms[1][0], norms[1][1]")
        .replace("layer_norm(x + ffn_out, norms[1][0], norms[1][1])", "layer_norm(x + ffn_out, norms[0][0], norms[0][1])"),
        "uncatalogued:gamma_beta_swapped": _slip("norms[0][0], norms[0][1]", "norms[0][1], norms[0][0]"),
        "uncatalogued:gelu_sigmoid": _slip("h = h * 0.5 * (1.0 + erf(h / np.sqrt(2.0)))",
                                           "h = h / (1.0 + np.exp(-1.702 * h))"),
        "uncatalogued:w_out_transposed": _slip("context @ wo + bo", "context @ wo.T + bo"),
    },
    "sentence_embedding": {
        "mean_pool_includes_padding": _rep(_SENT, "    m = mask[:, :, None]\n    summed = (hidden * m).sum(axis=1)\n"
                                                  "    counts = m.sum(axis=1)\n    return summed / counts",
                                           "    return hidden.mean(axis=1)"),
        "mean_pool_includes_padding:divides_by_length": _rep(_SENT, "counts = m.sum(axis=1)", "counts = hidden.shape[1]"),
        "cls_pooling": _rep(_SENT, "    m = mask[:, :, None]\n    summed = (hidden * m).sum(axis=1)\n"
                                   "    counts = m.sum(axis=1)\n    return summed / counts",
                            "    return hidden[:, 0, :]"),
        "loop_leftover:last_layer": _rep(_SENT, "range(n_layers)", "range(n_layers - 1)"),
        "layer_weights_not_indexed:first_layer_every_time": _rep(
            _SENT, "attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i],\n                            ffn_w_out[i], ffn_b_out[i], norms[i]",
            "attention_w[0], attention_b[0], ffn_w_in[0], ffn_b_in[0],\n                            ffn_w_out[0], ffn_b_out[0], norms[0]"),
        "layers_not_chained:layers_not_chained": _rep(
            _SENT, "    for i in range(n_layers):\n        hidden = bert_layer(hidden,",
            "    embedded = hidden\n    for i in range(n_layers):\n        hidden = bert_layer(embedded,"),
        "uncatalogued:types_passed_as_mask": _rep(_SENT, "hidden = bert_layer(hidden, mask,", "hidden = bert_layer(hidden, token_types,"),
        "pooled_sum_not_mean:sum_not_mean": _rep(_SENT, "return summed / counts", "return summed"),
        "uncatalogued:max_pool": _rep(_SENT, "    m = mask[:, :, None]\n    summed = (hidden * m).sum(axis=1)\n"
                                             "    counts = m.sum(axis=1)\n    return summed / counts",
                                      "    return np.where(mask[:, :, None] == 1, hidden, -np.inf).max(axis=1)"),
        "token_type_embeddings_missing": _rep(
            _SENT, "    hidden = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,\n"
                   "                             embedding_norm)\n",
            "    n = token_ids.shape[1]\n"
            "    hidden = layer_norm(word_embeddings[token_ids] + position_embeddings[:n], embedding_norm[0], embedding_norm[1])\n"),
        "embedding_layer_norm_missing": _rep(
            _SENT, "    hidden = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,\n"
                   "                             embedding_norm)\n",
            "    n = token_ids.shape[1]\n"
            "    hidden = word_embeddings[token_ids] + position_embeddings[np.arange(n)] + type_embeddings[token_types]\n"),
    },
    "head_patterns": {
        "next_token_instead_of_previous": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0] + weights[..., -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "special_tokens_cls_only": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = weights[..., 0].mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "uncatalogued:diagonal_default_axes": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1).mean(axis=-1)
    special = (weights[..., 0] + weights[..., -1]).mean(axis=-1)
    itself = np.diagonal(weights).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "previous_mean_over_all_queries:previous_divided_by_n": '''
def head_patterns(weights):
    n = weights.shape[-1]
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / n
    special = (weights[..., 0] + weights[..., -1]).mean(axis=-1)
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
        "uncatalogued:order_swapped": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0] + weights[..., -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([itself, special, previous], axis=-1)
''',
        "uncatalogued:stacked_first": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0] + weights[..., -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.array([previous, special, itself])
''',
        "uncatalogued:itself_trace": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0] + weights[..., -1]).mean(axis=-1)
    itself = np.trace(weights, axis1=-2, axis2=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "loop_leftover:previous_stops_early": '''
def head_patterns(weights):
    n = weights.shape[-1]
    previous = sum(weights[..., i, i - 1] for i in range(1, n - 1)) / (n - 1)
    special = (weights[..., 0] + weights[..., -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
    },
}

VARIANTS = {
    "attention_matrices": {
        "swapaxes": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.swapaxes(np.stack([query_weight, key_weight, value_weight, output_weight]), -1, -2)
''',
        "array_of_transposes": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.array([w.T for w in (query_weight, key_weight, value_weight, output_weight)])
''',
    },
    "bert_embeddings": {
        "template": _EMB,
        "take_and_own_norm": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n = token_ids.shape[-1]
    x = np.take(word_embeddings, token_ids, axis=0) + position_embeddings[:n][None] \\
        + np.take(type_embeddings, token_types, axis=0)
    mu = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return embedding_norm[0] * (x - mu) / np.sqrt(var + 1e-12) + embedding_norm[1]
''',
    },
    "bert_head_weights": {
        "template": _HEADS,
        "einsum_scipy": '''
from scipy.special import softmax as sp_softmax

def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    padding = (mask == 0)[:, None, None, :]
    return sp_softmax(np.where(padding, -np.inf, scores), axis=-1)
''',
    },
    "bert_layer": {
        "full_answer": _LAYER,
        "with_helpers": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    (wq, wk, wv, wo), (bq, bk, bv, bo) = attention_w, attention_b
    weights = bert_head_weights(hidden, wq, bq, wk, bk, mask, n_heads)
    values = split_heads(hidden @ wv + bv, n_heads)
    attended = combine_heads(weights @ values) @ wo + bo
    hidden = layer_norm(attended + hidden, *norms[0])

    def gelu(z):
        return z * 0.5 * (1 + erf(z / 2 ** 0.5))

    ff = gelu(hidden @ ffn_w_in + ffn_b_in) @ ffn_w_out + ffn_b_out
    return layer_norm(ff + hidden, *norms[1])
''',
    },
    "sentence_embedding": {
        "template": _SENT,
        "zip_layers_einsum_pool": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for aw, ab, wi, bi, wo, bo, nm in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        x = bert_layer(x, mask, aw, ab, wi, bi, wo, bo, nm, n_heads)
    real = mask.astype(x.dtype)
    return np.einsum("bt,btd->bd", real, x) / real.sum(axis=1, keepdims=True)
''',
    },
    "head_patterns": {
        "fancy_indexing": '''
def head_patterns(weights):
    n = weights.shape[-1]
    i = np.arange(n)
    previous = weights[..., i[1:], i[:-1]].mean(axis=-1)
    special = weights[..., [0, -1]].sum(axis=-1).mean(axis=-1)
    itself = weights[..., i, i].mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "einsum_diagonal": '''
def head_patterns(weights):
    itself = np.einsum("...ii->...i", weights).mean(-1)
    previous = np.einsum("...ii->...i", weights[..., 1:, :-1]).mean(-1)
    special = weights[..., :, 0].mean(-1) + weights[..., :, -1].mean(-1)
    return np.stack((previous, special, itself), axis=-1)
''',
    },
}
