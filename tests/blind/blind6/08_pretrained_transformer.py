"""Blind set 6, notebook 08: A pretrained transformer (all-MiniLM-L6-v2) run by your own code. Written from notebooks/08_pretrained_transformer.ipynb only."""

_HW = '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''

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
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    m = mask[..., None].astype(x.dtype)
    return (x * m).sum(axis=1) / m.sum(axis=1)
'''

_PAT = '''
def head_patterns(weights):
    n = weights.shape[-1]
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''


def _edit(src, *pairs):
    for old, new in pairs:
        assert old in src, old
        src = src.replace(old, new)
    return src


MISTAKES = {
    "attention_matrices": {
        "no_transpose": (["transpose", ".t", "(out, in)", "layout"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
'''),
        "output_not_transposed": (["output", "w_out", "all four", "output.dense"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
'''),
        "returns_tuple": (["one array", "stack", "tuple", "(4, d_model, d_model)"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return [query_weight.T, key_weight.T, value_weight.T, output_weight.T]
'''),
        "order_swapped": (["order", "w_key", "w_value", "swapped"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, value_weight.T, key_weight.T, output_weight.T])
'''),
        "inverse": (["inverse", "transpose", "inv"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([np.linalg.inv(w) for w in (query_weight, key_weight, value_weight, output_weight)])
'''),
    },
    "bert_embeddings": {
        "no_positions": (["position", "position_embeddings"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    x = word_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "no_layer_norm": (["layer norm", "normalis", "layer_norm", "embedding_norm"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    return word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
'''),
        "positions_from_one": (["position 0", "from 0", "[cls]", "off-by-one"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[1:n + 1] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "type_ignored": (["token type", "token_types", "type_embeddings"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[0]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "gamma_beta_swapped": (["gamma", "beta", "row 0", "swapped"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[1], embedding_norm[0])
'''),
        "positions_by_id": (["position", "arange", "index", "token ids"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    x = word_embeddings[token_ids] + position_embeddings[token_ids % len(position_embeddings)] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
    },
    "bert_head_weights": {
        "mask_on_queries": (["keys", "columns", "queries", "rows"], _edit(_HW, (
            "mask[:, None, None, :] == 1", "mask[:, None, :, None] == 1"),
            ("scores = scores - scores.max(axis=-1, keepdims=True)", "scores = scores - np.where(np.isfinite(scores), scores, 0).max(axis=-1, keepdims=True)"))),
        "mask_after_softmax": (["renormal", "sum to 1", "before the softmax", "after"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True) * mask[:, None, None, :]
'''),
        "no_biases": (["bias", "b_query", "b_key"], _edit(_HW,
            ("hidden @ w_query + b_query", "hidden @ w_query"), ("hidden @ w_key + b_key", "hidden @ w_key"))),
        "sqrt_d_model": (["d_head", "sqrt(d_model)", "width of a head"], _edit(_HW,
            ("np.sqrt(q.shape[-1])", "np.sqrt(hidden.shape[-1])"))),
        "mask_added": (["-inf", "add the mask", "0 and 1", "large negative"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]) + mask[:, None, None, :]
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    "bert_layer": {
        "no_residual": (["residual", "x +", "skip", "add the input"], _edit(_LAYER,
            ("layer_norm(hidden + attended, *norms[0])", "layer_norm(attended, *norms[0])"))),
        "pre_ln": (["post-ln", "pre-ln", "after", "order"], _edit(_LAYER,
            ("    a = bert_head_weights(hidden,", "    h = layer_norm(hidden, *norms[0])\n    a = bert_head_weights(h,"),
            ("v = split_heads(hidden @ w_value", "v = split_heads(h @ w_value"),
            ("x = layer_norm(hidden + attended, *norms[0])", "x = hidden + attended"),
            ("pre = x @ ffn_w_in", "pre = layer_norm(x, *norms[1]) @ ffn_w_in"),
            ("return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])", "return x + inner @ ffn_w_out + ffn_b_out"))),
        "relu": (["gelu", "relu", "erf"], _edit(_LAYER,
            ("inner = 0.5 * pre * (1 + erf(pre / np.sqrt(2)))", "inner = np.maximum(pre, 0)"))),
        "tanh_gelu": (["tanh", "approximation", "erf", "exact"], _edit(_LAYER,
            ("inner = 0.5 * pre * (1 + erf(pre / np.sqrt(2)))",
             "inner = 0.5 * pre * (1 + np.tanh(np.sqrt(2 / np.pi) * (pre + 0.044715 * pre ** 3)))"))),
        "norms_swapped": (["norms[0]", "norms[1]", "order", "swapped"], _edit(_LAYER,
            ("*norms[0])", "*norms[__ONE__])"), ("*norms[1])", "*norms[0])"), ("__ONE__", "1"))),
        "no_value_bias": (["bias", "b_value", "b_out"], _edit(_LAYER,
            ("hidden @ w_value + b_value", "hidden @ w_value"), ("@ w_out + b_out", "@ w_out"))),
    },
    "sentence_embedding": {
        "mean_with_padding": (["padding", "real tokens", "mask", "mean pooling"], _edit(_SENT,
            ("    m = mask[..., None].astype(x.dtype)\n    return (x * m).sum(axis=1) / m.sum(axis=1)\n",
             "    return x.mean(axis=1)\n"))),
        "cls_token": (["[cls]", "mean", "pooling", "first token"], _edit(_SENT,
            ("    m = mask[..., None].astype(x.dtype)\n    return (x * m).sum(axis=1) / m.sum(axis=1)\n",
             "    return x[:, 0]\n"))),
        "first_layer_only": (["layer", "loop", "every layer", "index"], _edit(_SENT,
            ("attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],\n                       ffn_w_out[layer], ffn_b_out[layer], norms[layer]",
             "attention_w[0], attention_b[0], ffn_w_in[0], ffn_b_in[0],\n                       ffn_w_out[0], ffn_b_out[0], norms[0]"))),
        "not_chained": (["loop", "previous layer", "output of", "chain"], _edit(_SENT,
            ("    x = bert_embeddings(", "    emb = bert_embeddings("),
            ("        x = bert_layer(x, mask,", "        x = bert_layer(emb, mask,"))),
        "divide_by_all_tokens": (["divide", "number of real tokens", "count", "padding"], _edit(_SENT,
            ("return (x * m).sum(axis=1) / m.sum(axis=1)", "return (x * m).sum(axis=1) / x.shape[1]"))),
        "skips_last_layer": (["last layer", "range", "every layer"], _edit(_SENT,
            ("range(len(attention_w))", "range(len(attention_w) - 1)"))),
    },
    "head_patterns": {
        "next_token": (["previous", "offset", "next token", "i - 1"], _edit(_PAT, ("offset=-1", "offset=1"))),
        "prev_divided_by_n": (["n - 1", "mean over", "queries 1", "divide"], _edit(_PAT,
            ("np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)",
             "np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / n"))),
        "cls_only": (["[sep]", "last key", "first key plus", "plus"], _edit(_PAT,
            ("(weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)", "weights[..., :, 0].mean(axis=-1)"))),
        "special_averaged": (["plus", "sum", "average of the two", "half"], _edit(_PAT,
            ("(weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)",
             "((weights[..., :, 0] + weights[..., :, -1]) / 2).mean(axis=-1)"))),
        "trace_not_mean": (["mean", "trace", "sum", "average"], _edit(_PAT,
            ("itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)",
             "itself = np.trace(weights, axis1=-2, axis2=-1)"))),
        "special_rows": (["column", "key", "row", "query"], _edit(_PAT,
            ("(weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)",
             "(weights[..., 0, :] + weights[..., -1, :]).mean(axis=-1)"))),
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
    stacked = np.array([query_weight, key_weight, value_weight, output_weight])
    return np.ascontiguousarray(np.swapaxes(stacked, 1, 2))
''',
    },
    "bert_embeddings": {
        "indexing": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    positions = np.arange(token_ids.shape[1])
    x = word_embeddings[token_ids] + position_embeddings[positions][None] + type_embeddings[token_types]
    return layer_norm(x, *embedding_norm)
''',
        "take": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[-1]
    x = np.take(word_embeddings, token_ids, axis=0) + np.take(type_embeddings, token_types, axis=0)
    x = x + position_embeddings[:n]
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
''',
    },
    "bert_head_weights": {
        "where_inf": _HW,
        "einsum": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    b, t, d = hidden.shape
    dh = d // n_heads
    q = (hidden @ w_query + b_query).reshape(b, t, n_heads, dh)
    k = (hidden @ w_key + b_key).reshape(b, t, n_heads, dh)
    s = np.einsum("bihd,bjhd->bhij", q, k) / np.sqrt(dh)
    s = np.where(np.asarray(mask, dtype=bool)[:, None, None, :], s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
    },
    "bert_layer": {
        "steps": _LAYER,
        "own_gelu": _edit(_LAYER,
            ("    inner = 0.5 * pre * (1 + erf(pre / np.sqrt(2)))\n",
             "    from scipy.stats import norm as _norm\n    inner = pre * _norm.cdf(pre)\n")),
    },
    "sentence_embedding": {
        "loop": _SENT,
        "zip": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for params in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        x = bert_layer(x, mask, *params, n_heads)
    m = np.asarray(mask, dtype=x.dtype)
    return np.einsum("btd,bt->bd", x, m) / m.sum(axis=-1, keepdims=True)
''',
    },
    "head_patterns": {
        "diagonal": _PAT,
        "masks": '''
def head_patterns(weights):
    n = weights.shape[-1]
    prev_mask = np.eye(n, k=-1)
    eye = np.eye(n)
    previous = (weights * prev_mask).sum(axis=(-2, -1)) / (n - 1)
    special = (weights[..., 0].sum(axis=-1) + weights[..., -1].sum(axis=-1)) / n
    itself = (weights * eye).sum(axis=(-2, -1)) / n
    return np.stack([previous, special, itself], axis=-1)
''',
    },
}
