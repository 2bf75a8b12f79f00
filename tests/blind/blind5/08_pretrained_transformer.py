"""Blind set 5, notebook 08: Your attention inside a pretrained transformer. Written from notebooks/08_pretrained_transformer.ipynb only."""

_HW = '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(np.asarray(mask)[:, None, None, :] > 0, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''

_LAYER = '''
def _gelu(x):
    return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    a = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    v = split_heads(hidden @ w_v + b_v, n_heads)
    attended = combine_heads(a @ v) @ w_o + b_o
    x = layer_norm(hidden + attended, *norms[0])
    inner = _gelu(x @ ffn_w_in + ffn_b_in)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''

MISTAKES = {
    "attention_matrices": {
        "not_transposed": (["transpose", "(out, in)", ".t"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
'''),
        "stack_then_transpose_all": (["axes", "each matrix", "transpose"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T
'''),
        "output_not_transposed": (["output", "w_out", "transpose"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
'''),
        "returns_tuple_order_swapped": (["order", "key", "query"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([key_weight.T, query_weight.T, value_weight.T, output_weight.T])
'''),
    },
    "bert_embeddings": {
        "no_layer_norm": (["layer norm", "normalis", "embedding_norm"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    return word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
'''),
        "positions_from_ids": (["position", "arange", "counted from 0"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    x = word_embeddings[token_ids] + position_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "positions_from_one": (["position 0", "[cls]", "counted from 0"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[1:n + 1] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "gamma_beta_swapped": (["gamma", "beta", "row 0"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[1], embedding_norm[0])
'''),
        "type_row0_always": (["token type", "token_types", "type_embeddings"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[0]
    return layer_norm(x, *embedding_norm)
'''),
    },
    "bert_head_weights": {
        "mask_queries": (["keys", "columns", "queries"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(np.asarray(mask)[:, None, :, None] > 0, s, -1e9)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_added_as_ones": (["-inf", "mask", "add"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]) + np.asarray(mask)[:, None, None, :]
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "no_biases": (["bias", "b_query", "b_key"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query, n_heads)
    k = split_heads(hidden @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(np.asarray(mask)[:, None, None, :] > 0, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "scale_d_model": (["d_head", "sqrt", "d_model"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(hidden.shape[-1])
    s = np.where(np.asarray(mask)[:, None, None, :] > 0, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    "bert_layer": {
        "no_residual_attention": (["residual", "x +", "skip"], _LAYER.replace("layer_norm(hidden + attended", "layer_norm(attended")),
        "gelu_tanh_approx": (["gelu", "erf", "tanh"], _LAYER.replace(
            "0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))",
            "0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))")),
        "relu_instead": (["gelu", "relu", "erf"], _LAYER.replace(
            "0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))", "np.maximum(x, 0.0)")),
        "pre_ln": (["post-ln", "layer norm", "after the residual"], _LAYER.replace(
            "    a = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)\n"
            "    v = split_heads(hidden @ w_v + b_v, n_heads)\n"
            "    attended = combine_heads(a @ v) @ w_o + b_o\n"
            "    x = layer_norm(hidden + attended, *norms[0])\n"
            "    inner = _gelu(x @ ffn_w_in + ffn_b_in)\n"
            "    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])\n",
            "    h = layer_norm(hidden, *norms[0])\n"
            "    a = bert_head_weights(h, w_q, b_q, w_k, b_k, mask, n_heads)\n"
            "    v = split_heads(h @ w_v + b_v, n_heads)\n"
            "    x = hidden + combine_heads(a @ v) @ w_o + b_o\n"
            "    inner = _gelu(layer_norm(x, *norms[1]) @ ffn_w_in + ffn_b_in)\n"
            "    return x + inner @ ffn_w_out + ffn_b_out\n")),
        "no_output_projection": (["w_out", "output projection", "b_out"], _LAYER.replace(
            "combine_heads(a @ v) @ w_o + b_o", "combine_heads(a @ v)")),
    },
    "sentence_embedding": {
        "mean_includes_padding": (["padding", "real tokens", "mask"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for l in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[l], attention_b[l], ffn_w_in[l], ffn_b_in[l], ffn_w_out[l],
                       ffn_b_out[l], norms[l], n_heads)
    return x.mean(axis=1)
'''),
        "cls_token": (["mean", "pooling", "[cls]"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for l in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[l], attention_b[l], ffn_w_in[l], ffn_b_in[l], ffn_w_out[l],
                       ffn_b_out[l], norms[l], n_heads)
    return x[:, 0]
'''),
        "layers_from_embeddings_each_time": (["loop", "previous layer", "output of"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    emb = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                          embedding_norm)
    for l in range(len(attention_w)):
        x = bert_layer(emb, mask, attention_w[l], attention_b[l], ffn_w_in[l], ffn_b_in[l], ffn_w_out[l],
                       ffn_b_out[l], norms[l], n_heads)
    m = mask[..., None]
    return (x * m).sum(axis=1) / m.sum(axis=1)
'''),
        "sum_not_mean": (["mean", "divide", "number of real tokens"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for l in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[l], attention_b[l], ffn_w_in[l], ffn_b_in[l], ffn_w_out[l],
                       ffn_b_out[l], norms[l], n_heads)
    return (x * mask[..., None]).sum(axis=1)
'''),
    },
    "head_patterns": {
        "previous_mean_over_all": (["first query", "n - 1", "i = 1"], '''
def head_patterns(weights):
    n = weights.shape[-1]
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / n
    special = (weights[..., 0] + weights[..., -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "offset_plus_one": (["offset", "previous", "next"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0] + weights[..., -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "special_rows_not_columns": (["keys", "columns", "first key"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0, :] + weights[..., -1, :]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "special_average_not_sum": (["plus", "sum", "first key plus the last"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = ((weights[..., 0] + weights[..., -1]) / 2).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
    },
}

VARIANTS = {
    "attention_matrices": {
        "stack_T": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([w.T for w in (query_weight, key_weight, value_weight, output_weight)])
''',
        "swapaxes": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.swapaxes(np.array([query_weight, key_weight, value_weight, output_weight]), 1, 2).copy()
''',
    },
    "bert_embeddings": {
        "fancy_index": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[-1]
    x = word_embeddings[token_ids] + position_embeddings[np.arange(n)] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
''',
        "take_manual_norm": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[-1]
    x = (np.take(word_embeddings, token_ids, axis=0) + position_embeddings[:n][None]
         + np.take(type_embeddings, token_types, axis=0))
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
''',
    },
    "bert_head_weights": {
        "where_neg_inf": _HW,
        "scipy_large_negative": '''
from scipy.special import softmax as _softmax

def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    d_model = hidden.shape[-1]
    d_head = d_model // n_heads
    q = np.einsum("btd,de->bte", hidden, w_query) + b_query
    k = np.einsum("btd,de->bte", hidden, w_key) + b_key
    q = q.reshape(*q.shape[:2], n_heads, d_head)
    k = k.reshape(*k.shape[:2], n_heads, d_head)
    s = np.einsum("bihd,bjhd->bhij", q, k) / np.sqrt(d_head)
    s = s + np.where(np.asarray(mask)[:, None, None, :] == 0, -np.inf, 0.0)
    return _softmax(s, axis=-1)
''',
    },
    "bert_layer": {
        "steps": _LAYER,
        "erf_inline_loop": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    a = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask, n_heads)
    v = split_heads(np.matmul(hidden, attention_w[2]) + attention_b[2], n_heads)
    out = np.matmul(combine_heads(np.matmul(a, v)), attention_w[3]) + attention_b[3]
    x = layer_norm(out + hidden, norms[0, 0], norms[0, 1])
    h = np.matmul(x, ffn_w_in) + ffn_b_in
    h = h * 0.5 * (1 + erf(h / np.sqrt(2)))
    return layer_norm(np.matmul(h, ffn_w_out) + ffn_b_out + x, norms[1, 0], norms[1, 1])
''',
    },
    "sentence_embedding": {
        "masked_mean": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for l in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[l], attention_b[l], ffn_w_in[l], ffn_b_in[l], ffn_w_out[l],
                       ffn_b_out[l], norms[l], n_heads)
    m = np.asarray(mask, dtype=x.dtype)[..., None]
    return (x * m).sum(axis=1) / m.sum(axis=1)
''',
        "zip_loop_per_sentence": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        x = bert_layer(x, mask, *layer, n_heads)
    return np.stack([x[b][np.asarray(mask[b]) > 0].mean(axis=0) for b in range(x.shape[0])])
''',
    },
    "head_patterns": {
        "diagonal": '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0] + weights[..., -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
''',
        "masks_eye": '''
def head_patterns(weights):
    n = weights.shape[-1]
    prev = (weights * np.eye(n, k=-1)).sum(axis=(-2, -1)) / (n - 1)
    special = weights[..., :, [0, -1]].sum(axis=-1).mean(axis=-1)
    own = np.trace(weights, axis1=-2, axis2=-1) / n
    return np.stack([prev, special, own], axis=-1)
''',
    },
}
