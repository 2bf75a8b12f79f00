"""Tenth fresh set, notebook 08: a pretrained transformer (all-MiniLM-L6-v2) in NumPy."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}


def _slip(old: str, new: str, source: str) -> str:
    assert source.count(old) == 1, old
    return source.replace(old, new)


# --------------------------------------------------------------------------- attention_matrices
MISTAKES["attention_matrices"] = {
    "weights_not_transposed": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
''',
    "weights_not_transposed:output_kept": '''
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
        w[...] = w.T
    return np.stack([query_weight, key_weight, value_weight, output_weight])
''',
    "lower_precision:float32": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    stacked = np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
    return stacked.astype(np.float32)
''',
    "matrices_stacked_on_last_axis:stacked_on_last_axis": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight.T], axis=-1)
''',
    "uncatalogued:concatenated": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.concatenate([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
''',
}
VARIANTS["attention_matrices"] = {
    "swap_after_stack": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.swapaxes(np.stack([query_weight, key_weight, value_weight, output_weight]), 1, 2)
''',
    "array_of_transposes": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.array([np.transpose(w) for w in (query_weight, key_weight, value_weight, output_weight)])
''',
}

# --------------------------------------------------------------------------- bert_embeddings
_EMB = '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids]
    x = x + position_embeddings[np.arange(n_tokens)]
    x = x + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''
MISTAKES["bert_embeddings"] = {
    "position_embeddings_missing": _slip("    x = x + position_embeddings[np.arange(n_tokens)]\n", "", _EMB),
    "positions_off_by_one": _slip("np.arange(n_tokens)]", "np.arange(1, n_tokens + 1)]", _EMB),
    "token_type_embeddings_missing": _slip("    x = x + type_embeddings[token_types]\n", "", _EMB),
    "embedding_layer_norm_missing": _slip(
        "return layer_norm(x, embedding_norm[0], embedding_norm[1])", "return x", _EMB),
    "layer_norm_scale_shift_swapped:gamma_beta_swapped": _slip(
        "layer_norm(x, embedding_norm[0], embedding_norm[1])",
        "layer_norm(x, embedding_norm[1], embedding_norm[0])", _EMB),
    "embedding_lookup_wrong_ids:positions_indexed_by_ids": _slip(
        "position_embeddings[np.arange(n_tokens)]", "position_embeddings[token_ids]", _EMB),
    "uncatalogued:layer_norm_sample_std": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    x = word_embeddings[token_ids] + position_embeddings[:token_ids.shape[1]] + type_embeddings[token_types]
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, ddof=1, keepdims=True)
    return (x - mean) / std * embedding_norm[0] + embedding_norm[1]
''',
    "loop_leftover:last_sentence": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    batch, n_tokens = token_ids.shape
    out = np.zeros((batch, n_tokens, word_embeddings.shape[1]))
    for b in range(batch - 1):
        x = word_embeddings[token_ids[b]] + position_embeddings[:n_tokens] + type_embeddings[token_types[b]]
        out[b] = layer_norm(x, embedding_norm[0], embedding_norm[1])
    return out
''',
}
VARIANTS["bert_embeddings"] = {
    "base": _EMB,
    "own_layer_norm_take": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    x = (np.take(word_embeddings, token_ids, axis=0) + position_embeddings[: token_ids.shape[-1]]
         + np.take(type_embeddings, token_types, axis=0))
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    gamma, beta = embedding_norm
    return gamma * (x - mean) / np.sqrt(var + 1e-12) + beta
''',
}

# --------------------------------------------------------------------------- bert_head_weights
_HEAD = '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    d_head = q.shape[-1]
    scores = q @ k.swapaxes(-1, -2) / np.sqrt(d_head)
    keep = mask[:, None, None, :].astype(bool)
    scores = np.where(keep, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)
'''
MISTAKES["bert_head_weights"] = {
    "padding_mask_ignored": _slip("    scores = np.where(keep, scores, -np.inf)\n", "", _HEAD),
    "padding_mask_on_queries": _slip("mask[:, None, None, :]", "mask[:, None, :, None]", _HEAD),
    "mask_wrong_sign": _slip("np.where(keep, scores, -np.inf)", "np.where(keep, -np.inf, scores)", _HEAD),
    "mask_with_zero": _slip("np.where(keep, scores, -np.inf)", "scores * keep", _HEAD),
    "mask_finite_value": _slip(
        "np.where(keep, scores, -np.inf)", "scores + (1.0 - keep) * -10000.0", _HEAD),
    "biases_missing": _slip("hidden @ w_query + b_query", "hidden @ w_query", _HEAD),
    "scale_by_sqrt_d_model": _slip("np.sqrt(d_head)", "np.sqrt(hidden.shape[-1])", _HEAD),
    "projection_order": _slip("hidden @ w_key + b_key", "hidden @ w_key.T + b_key", _HEAD),
    "softmax_no_max_subtraction": _slip(
        "    scores = scores - scores.max(axis=-1, keepdims=True)\n", "", _HEAD),
    "heads_reshape_without_transpose": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    batch, tokens, d_model = hidden.shape
    d_head = d_model // n_heads
    q = (hidden @ w_query + b_query).reshape(batch, n_heads, tokens, d_head)
    k = (hidden @ w_key + b_key).reshape(batch, n_heads, tokens, d_head)
    scores = q @ k.swapaxes(-1, -2) / np.sqrt(d_head)
    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)
''',
}
VARIANTS["bert_head_weights"] = {
    "base": _HEAD,
    "additive_mask_scipy": '''
from scipy.special import softmax as _softmax


def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(np.matmul(hidden, w_query) + b_query, n_heads)
    k = split_heads(np.matmul(hidden, w_key) + b_key, n_heads)
    scores = np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(q.shape[-1])
    scores = scores + np.where(mask == 0, -np.inf, 0.0)[:, None, None, :]
    return _softmax(scores, axis=-1)
''',
}

# --------------------------------------------------------------------------- bert_layer
# One learner's full answer; each mistake changes one piece of it.
_LAYER = '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
               n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    weights = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    values = split_heads(hidden @ w_v + b_v, n_heads)
    context = combine_heads(weights @ values)
    attended = context @ w_o + b_o
    x = layer_norm(hidden + attended, norms[0][0], norms[0][1])
    h = x @ ffn_w_in + ffn_b_in
    h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))
    out = h @ ffn_w_out + ffn_b_out
    return layer_norm(x + out, norms[1][0], norms[1][1])
'''
MISTAKES["bert_layer"] = {
    "relu_instead_of_gelu": _slip(
        "h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))", "h = np.maximum(h, 0.0)", _LAYER),
    "gelu_tanh_approximation": _slip(
        "h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))",
        "h = 0.5 * h * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (h + 0.044715 * h ** 3)))", _LAYER),
    "residual_missing:attention": _slip(
        "layer_norm(hidden + attended, norms[0][0]", "layer_norm(attended, norms[0][0]", _LAYER),
    "residual_missing:feed_forward": _slip("layer_norm(x + out, norms[1][0]", "layer_norm(out, norms[1][0]", _LAYER),
    "layer_norm_before_sublayer": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
               n_heads):
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
    "biases_missing:value": _slip("hidden @ w_v + b_v", "hidden @ w_v", _LAYER),
    "biases_missing:feed_forward_out": _slip("out = h @ ffn_w_out + ffn_b_out", "out = h @ ffn_w_out", _LAYER),
    "missing_output_projection": _slip("attended = context @ w_o + b_o", "attended = context", _LAYER),
    "padding_mask_ignored": _slip(
        "b_k, mask, n_heads)", "b_k, np.ones_like(mask), n_heads)", _LAYER),
    "mixed_up_projections:values_from_key_matrix": _slip(
        "split_heads(hidden @ w_v + b_v", "split_heads(hidden @ w_k + b_v", _LAYER),
    "heads_reshape_without_transpose": _slip(
        "context = combine_heads(weights @ values)",
        "context = (weights @ values).reshape(hidden.shape[0], hidden.shape[1], -1)", _LAYER),
    "layer_norms_mixed_up:norms_swapped": _slip(
        "layer_norm(x + out, norms[1][0], norms[1][1])", "layer_norm(x + out, norms[0][0], norms[0][1])",
        _slip("layer_norm(hidden + attended, norms[0][0], norms[0][1])",
              "layer_norm(hidden + attended, norms[1][0], norms[1][1])", _LAYER)),
    "uncatalogued:gelu_half_missing": _slip(
        "h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))", "h = h * (1.0 + erf(h / np.sqrt(2.0)))", _LAYER),
    "uncatalogued:erf_without_root_two": _slip(
        "h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))", "h = 0.5 * h * (1.0 + erf(h))", _LAYER),
}
VARIANTS["bert_layer"] = {
    "base": _LAYER,
    "normal_cdf_own_attention": '''
from scipy.stats import norm as _normal


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
               n_heads):
    q, k, v = (split_heads(hidden @ attention_w[i] + attention_b[i], n_heads) for i in range(3))
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(mask[:, None, None, :] > 0, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    context = combine_heads(e / e.sum(axis=-1, keepdims=True) @ v)
    x = layer_norm(hidden + context @ attention_w[3] + attention_b[3], *norms[0])
    inner = x @ ffn_w_in + ffn_b_in
    inner = inner * _normal.cdf(inner)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
''',
}

# --------------------------------------------------------------------------- sentence_embedding
_SENT = '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for i in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    m = mask[:, :, None]
    return (x * m).sum(axis=1) / m.sum(axis=1)
'''
MISTAKES["sentence_embedding"] = {
    "mean_pool_includes_padding": _slip(
        "    m = mask[:, :, None]\n    return (x * m).sum(axis=1) / m.sum(axis=1)", "    return x.mean(axis=1)",
        _SENT),
    "cls_pooling": _slip(
        "    m = mask[:, :, None]\n    return (x * m).sum(axis=1) / m.sum(axis=1)", "    return x[:, 0, :]", _SENT),
    "padding_mask_ignored": _slip("x = bert_layer(x, mask,", "x = bert_layer(x, np.ones_like(mask),", _SENT),
    "loop_leftover:last_layer_skipped": _slip(
        "range(attention_w.shape[0])", "range(attention_w.shape[0] - 1)", _SENT),
    "layer_weights_not_indexed:first_layer_repeated": _slip(
        "x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],\n"
        "                       ffn_b_out[i], norms[i], n_heads)",
        "x = bert_layer(x, mask, attention_w[0], attention_b[0], ffn_w_in[0], ffn_b_in[0], ffn_w_out[0],\n"
        "                       ffn_b_out[0], norms[0], n_heads)", _SENT),
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
    "uncatalogued:divided_by_all_real_tokens": _slip(
        "return (x * m).sum(axis=1) / m.sum(axis=1)", "return (x * m).sum(axis=1) / m.sum()", _SENT),
    "uncatalogued:max_pooling": _slip(
        "return (x * m).sum(axis=1) / m.sum(axis=1)", "return np.where(m == 1, x, -np.inf).max(axis=1)", _SENT),
}
VARIANTS["sentence_embedding"] = {
    "base": _SENT,
    "einsum_pooling_zip": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    hidden = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                             embedding_norm)
    for params in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        hidden = bert_layer(hidden, mask, *params, n_heads)
    real = mask.astype(hidden.dtype)
    return np.einsum("bt,btd->bd", real, hidden) / real.sum(axis=1, keepdims=True)
''',
}

# --------------------------------------------------------------------------- head_patterns
_PAT = '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = weights[..., :, 0].mean(axis=-1) + weights[..., :, -1].mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''
MISTAKES["head_patterns"] = {
    "next_token_instead_of_previous": _slip("offset=-1", "offset=1", _PAT),
    "special_tokens_cls_only": _slip(
        "weights[..., :, 0].mean(axis=-1) + weights[..., :, -1].mean(axis=-1)", "weights[..., :, 0].mean(axis=-1)",
        _PAT),
    "loop_leftover:previous_stops_early": '''
def head_patterns(weights):
    n = weights.shape[-1]
    previous = np.mean([weights[..., i, i - 1] for i in range(1, n - 1)], axis=0)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
    "special_tokens_rows:special_rows_not_columns": _slip(
        "weights[..., :, 0].mean(axis=-1) + weights[..., :, -1].mean(axis=-1)",
        "weights[..., 0, :].mean(axis=-1) + weights[..., -1, :].mean(axis=-1)", _PAT),
    "previous_mean_over_all_queries:previous_divided_by_all_queries": _slip(
        "np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)",
        "np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / weights.shape[-1]", _PAT),
    "uncatalogued:trace_not_mean": _slip(
        "itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)",
        "itself = np.trace(weights, axis1=-2, axis2=-1)", _PAT),
    "uncatalogued:stacked_first": _slip(
        "np.stack([previous, special, itself], axis=-1)", "np.stack([previous, special, itself])", _PAT),
}
VARIANTS["head_patterns"] = {
    "base": _PAT,
    "fancy_index_trace": '''
def head_patterns(weights):
    n = weights.shape[-1]
    rows = np.arange(1, n)
    previous = weights[..., rows, rows - 1].mean(axis=-1)
    special = (weights[..., 0] + weights[..., n - 1]).mean(axis=-1)
    itself = np.trace(weights, axis1=-2, axis2=-1) / n
    return np.stack((previous, special, itself), axis=-1)
''',
}
