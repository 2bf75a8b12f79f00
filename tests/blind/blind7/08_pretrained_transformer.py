"""Blind set 7, notebook 08: A pretrained transformer (MiniLM). Written from notebooks/08_pretrained_transformer.ipynb only."""

_LAYER = '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    a = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    v = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(a @ v) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1 + erf(pre / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''

_SENT = '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    m = mask[..., None].astype(x.dtype)
    return (x * m).sum(axis=1) / m.sum(axis=1)
'''


def _r(base, old, new):
    assert old in base, old
    return base.replace(old, new)


MISTAKES = {
    "attention_matrices": {
        "not_transposed": (["transpose", "(out, in)", ".t"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
'''),
        "output_not_transposed": (["transpose", "output", "w_out", "all four"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
'''),
        "wrong_order": (["order", "w_query, w_key, w_value, w_out", "swap"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, value_weight.T, key_weight.T, output_weight.T])
'''),
        "tuple_not_array": (["one array", "stack", "(4, d_model, d_model)", "tuple"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return query_weight.T, key_weight.T, value_weight.T, output_weight.T
'''),
        "concatenate_flat": (["stack", "concatenate", "(4, d_model, d_model)", "axis"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.concatenate([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
'''),
        "inverse_not_transpose": (["transpose", "inverse", "inv"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([np.linalg.inv(w) for w in (query_weight, key_weight, value_weight, output_weight)])
'''),
    },
    "bert_embeddings": {
        "no_layer_norm": (["layer norm", "normalis", "embedding_norm"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    return word_embeddings[token_ids] + position_embeddings[np.arange(n)] + type_embeddings[token_types]
'''),
        "no_type_embedding": (["type", "token_types", "segment"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[np.arange(n)]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "positions_from_one": (["position", "from 0", "arange", "start"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[np.arange(1, n + 1)] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "position_by_token_id": (["position", "arange", "token_ids", "index"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    x = word_embeddings[token_ids] + position_embeddings[token_ids % len(position_embeddings)] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "gamma_beta_swapped": (["gamma", "beta", "row 0", "swap"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[np.arange(n)] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[1], embedding_norm[0])
'''),
        "norm_over_tokens": (["axis", "last axis", "features", "tokens"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[np.arange(n)] + type_embeddings[token_types]
    mean = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
'''),
    },
    "bert_head_weights": {
        "no_biases": (["bias", "b_query", "b_key"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query, n_heads)
    k = split_heads(hidden @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask[:, None, None, :].astype(bool), s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_queries_axis": (["keys", "queries", "(batch, 1, 1, tokens)", "column"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w * mask[:, None, :, None]
'''),
        "no_mask": (["mask", "padding", "-inf"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "scale_d_model": (["d_head", "d_model", "sqrt"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(hidden.shape[-1])
    s = np.where(mask[:, None, None, :].astype(bool), s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_added_as_ones": (["-inf", "add", "0 and 1", "1 and 0", "convert"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]) + mask[:, None, None, :]
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "zero_after_softmax": (["after the softmax", "renormal", "sum to 1", "-inf"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) * mask[:, None, None, :]
'''),
    },
    "bert_layer": {
        "gelu_tanh": (["tanh", "erf", "exact", "gelu"], _r(_LAYER, "inner = 0.5 * pre * (1 + erf(pre / np.sqrt(2)))",
                                                           "inner = 0.5 * pre * (1 + np.tanh(np.sqrt(2 / np.pi) * (pre + 0.044715 * pre ** 3)))")),
        "relu": (["gelu", "relu", "erf"], _r(_LAYER, "inner = 0.5 * pre * (1 + erf(pre / np.sqrt(2)))", "inner = np.maximum(pre, 0)")),
        "no_residual_attention": (["residual", "x +", "add the input"], _r(_LAYER, "layer_norm(hidden + attended, *norms[0])", "layer_norm(attended, *norms[0])")),
        "pre_ln": (["post-ln", "pre-ln", "after", "order"], _r(_r(_LAYER, "x = layer_norm(hidden + attended, *norms[0])",
                                                               "x = hidden + attended"),
                                                            "return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])",
                                                            "return x + inner @ ffn_w_out + ffn_b_out")),
        "no_output_bias": (["bias", "b_out", "attention_b"], _r(_LAYER, "combine_heads(a @ v) @ w_out + b_out", "combine_heads(a @ v) @ w_out")),
        "norms_swapped": (["norms[0]", "norms[1]", "swap", "order"], _r(_r(_LAYER, "*norms[0])", "*norms[@])"), "*norms[1])", "*norms[0])").replace("*norms[@])", "*norms[1])")),
        "gelu_missing_x": (["times x", "multiply by x", "x ·", "phi"], _r(_LAYER, "inner = 0.5 * pre * (1 + erf(pre / np.sqrt(2)))",
                                                                            "inner = 0.5 * (1 + erf(pre / np.sqrt(2)))")),
    },
    "sentence_embedding": {
        "mean_includes_padding": (["padding", "real tokens", "mask", "mean pooling"], _r(_SENT, "return (x * m).sum(axis=1) / m.sum(axis=1)", "return x.mean(axis=1)")),
        "cls_token": (["mean", "cls", "first token", "pooling"], _r(_SENT, "return (x * m).sum(axis=1) / m.sum(axis=1)", "return x[:, 0]")),
        "sum_not_mean": (["mean", "divide", "number of real tokens", "sum"], _r(_SENT, "return (x * m).sum(axis=1) / m.sum(axis=1)", "return (x * m).sum(axis=1)")),
        "first_layer_only": (["every layer", "loop", "layers", "last layer"], _r(_SENT, "x = bert_layer(x, mask, attention_w[layer]", "y = bert_layer(x, mask, attention_w[layer]").replace(
            "    m = mask", "        if layer == 0:\n            out = y\n    x = out\n    m = mask")),
        "divide_by_all_tokens": (["padding", "real tokens", "mask.sum", "count"], _r(_SENT, "return (x * m).sum(axis=1) / m.sum(axis=1)", "return (x * m).sum(axis=1) / x.shape[1]")),
        "skip_last_layer": (["range", "last layer", "off by one", "every layer"], _r(_SENT, "for layer in range(len(attention_w)):", "for layer in range(len(attention_w) - 1):")),
    },
    "head_patterns": {
        "previous_is_next": (["offset", "previous", "-1", "i - 1"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "special_rows_not_columns": (["key", "column", "row", "query"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0, :] + weights[..., -1, :]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "prev_mean_over_all_queries": (["n-1", "queries 1", "first query", "divide"], '''
def head_patterns(weights):
    n = weights.shape[-1]
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / n
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "cls_only": (["sep", "last key", "[sep]", "plus"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = weights[..., :, 0].mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "special_averaged": (["plus", "sum", "add", "average of the two"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = ((weights[..., :, 0] + weights[..., :, -1]) / 2).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "stack_wrong_axis": (["axis", "(..., 3)", "last axis", "stack"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own])
'''),
    },
}

VARIANTS = {
    "attention_matrices": {
        "stack_T": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
''',
        "swapaxes": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.swapaxes(np.array([query_weight, key_weight, value_weight, output_weight]), 1, 2).copy()
''',
    },
    "bert_embeddings": {
        "index_tables": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n][None] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
''',
        "take_manual_norm": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = (np.take(word_embeddings, token_ids, axis=0) + np.take(position_embeddings, np.arange(n), axis=0)
         + np.take(type_embeddings, token_types, axis=0))
    mu = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    gamma, beta = embedding_norm
    return (x - mu) / np.sqrt(var + 1e-12) * gamma + beta
''',
    },
    "bert_head_weights": {
        "where_inf": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask[:, None, None, :].astype(bool), s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
        "additive_mask_scipy": '''
from scipy.special import softmax as _softmax


def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    d_head = w_query.shape[1] // n_heads
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    add = np.where(mask == 0, -np.inf, 0.0)[:, None, None, :]
    return _softmax(np.einsum("bhid,bhjd->bhij", q, k) / np.sqrt(d_head) + add, axis=-1)
''',
    },
    "bert_layer": {
        "steps": _LAYER,
        "scipy_norm_cdf": _r(_LAYER, "inner = 0.5 * pre * (1 + erf(pre / np.sqrt(2)))",
                             "from scipy.stats import norm as _norm\n    inner = pre * _norm.cdf(pre)"),
    },
    "sentence_embedding": {
        "loop_masked_mean": _SENT,
        "zip_layers": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for weights in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        x = bert_layer(x, mask, *weights, n_heads)
    m = mask.astype(bool)
    return np.einsum("bt,btd->bd", m.astype(x.dtype), x) / m.sum(axis=1, keepdims=True)
''',
    },
    "head_patterns": {
        "diagonal_offsets": '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
''',
        "index_arrays": '''
def head_patterns(weights):
    n = weights.shape[-1]
    i = np.arange(1, n)
    prev = weights[..., i, i - 1].mean(axis=-1)
    special = weights[..., 0].mean(axis=-1) + weights[..., n - 1].mean(axis=-1)
    own = weights[..., np.arange(n), np.arange(n)].mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
''',
    },
}
