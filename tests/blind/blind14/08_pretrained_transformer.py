"""Blind set 14, notebook 08: A pretrained transformer. Written from notebooks/08_pretrained_transformer.ipynb only."""

_HW = '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask[:, None, None, :] == 1, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''

MISTAKES = {
    "attention_matrices": {
        "no_transpose": (["transpose", "(out, in)", "layout"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
'''),
        "output_not_transposed": (["transpose", "output", "w_out"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
'''),
        "returns_tuple_order": (["order", "key", "value"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([w.T for w in (query_weight, value_weight, key_weight, output_weight)])
'''),
        "inverse_not_transpose": (["transpose", "inverse", "inv"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([np.linalg.inv(w) for w in (query_weight, key_weight, value_weight, output_weight)])
'''),
        "inplace_transpose": (["in place", "change", "copy"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    ws = [query_weight, key_weight, value_weight, output_weight]
    for w in ws:
        w[...] = w.T.copy()
    return np.stack(ws)
'''),
    },
    "bert_embeddings": {
        "no_layer_norm": (["layer norm", "normalis", "embedding_norm"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    positions = np.arange(token_ids.shape[1])
    return word_embeddings[token_ids] + position_embeddings[positions] + type_embeddings[token_types]
'''),
        "positions_from_one": (["position", "from 0", "off by one"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    positions = np.arange(1, token_ids.shape[1] + 1)
    x = word_embeddings[token_ids] + position_embeddings[positions] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "positions_indexed_by_ids": (["position", "index", "token ids"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    x = word_embeddings[token_ids] + position_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "type_table_row_zero": (["token type", "token_types", "type"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    positions = np.arange(token_ids.shape[1])
    x = word_embeddings[token_ids] + position_embeddings[positions] + type_embeddings[0]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "gamma_beta_swapped": (["gamma", "beta", "row 0"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    positions = np.arange(token_ids.shape[1])
    x = word_embeddings[token_ids] + position_embeddings[positions] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[1], embedding_norm[0])
'''),
    },
    "bert_head_weights": {
        "mask_ignored": (["mask", "padding", "-inf"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_on_queries": (["keys", "columns", "queries"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask[:, None, :, None] == 1, s, -1e9)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "biases_dropped": (["bias", "b_query", "b_key"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query, n_heads)
    k = split_heads(hidden @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask[:, None, None, :] == 1, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "scale_d_model": (["d_head", "sqrt", "d_model"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(hidden.shape[-1])
    s = np.where(mask[:, None, None, :] == 1, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_added_as_is": (["-inf", "add", "1 and 0"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]) + mask[:, None, None, :]
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    "bert_layer": {
        "no_residual_attention": (["residual", "x +", "add"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    from scipy.special import erf
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    A = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    V = split_heads(hidden @ w_v + b_v, n_heads)
    attended = combine_heads(A @ V) @ w_o + b_o
    x = layer_norm(attended, *norms[0])
    h = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * h * (1 + erf(h / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "relu_not_gelu": (["gelu", "relu", "erf"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    A = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    V = split_heads(hidden @ w_v + b_v, n_heads)
    x = layer_norm(hidden + combine_heads(A @ V) @ w_o + b_o, *norms[0])
    inner = np.maximum(0, x @ ffn_w_in + ffn_b_in)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "tanh_gelu": (["tanh", "approximation", "erf"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    A = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    V = split_heads(hidden @ w_v + b_v, n_heads)
    x = layer_norm(hidden + combine_heads(A @ V) @ w_o + b_o, *norms[0])
    h = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h ** 3)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "pre_ln": (["post-ln", "pre-ln", "order"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    from scipy.special import erf
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    h0 = layer_norm(hidden, *norms[0])
    A = bert_head_weights(h0, w_q, b_q, w_k, b_k, mask, n_heads)
    V = split_heads(h0 @ w_v + b_v, n_heads)
    x = hidden + combine_heads(A @ V) @ w_o + b_o
    h1 = layer_norm(x, *norms[1])
    h = h1 @ ffn_w_in + ffn_b_in
    return x + (0.5 * h * (1 + erf(h / np.sqrt(2)))) @ ffn_w_out + ffn_b_out
'''),
        "residual_from_input": (["residual", "normalised", "x"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    from scipy.special import erf
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    A = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    V = split_heads(hidden @ w_v + b_v, n_heads)
    x = layer_norm(hidden + combine_heads(A @ V) @ w_o + b_o, *norms[0])
    h = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * h * (1 + erf(h / np.sqrt(2)))
    return layer_norm(hidden + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
    },
    "sentence_embedding": {
        "mean_over_all_tokens": (["padding", "real tokens", "mask"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    return x.mean(axis=1)
'''),
        "cls_token": (["mean", "[cls]", "pool"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    return x[:, 0]
'''),
        "only_first_layer": (["layers", "loop", "every layer"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    x = bert_layer(x, mask, attention_w[0], attention_b[0], ffn_w_in[0], ffn_b_in[0],
                   ffn_w_out[0], ffn_b_out[0], norms[0], n_heads)
    m = mask[..., None]
    return (x * m).sum(axis=1) / m.sum(axis=1)
'''),
        "layer_output_discarded": (["x =", "reassign", "previous layer"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(len(attention_w)):
        out = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                         ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    m = mask[..., None]
    return (out * m).sum(axis=1) / m.sum(axis=1)
'''),
        "divide_by_all_tokens": (["divide", "number of real tokens", "mask.sum"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    return (x * mask[..., None]).sum(axis=1) / x.shape[1]
'''),
    },
    "head_patterns": {
        "next_token_offset": (["offset", "previous", "k=-1"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "special_rows_not_columns": (["columns", "keys", "rows"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0, :] + weights[..., -1, :]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "prev_mean_over_all_queries": (["n-1", "first query", "mean"], '''
def head_patterns(weights):
    n = weights.shape[-1]
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / n
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "special_first_only": (["[sep]", "last key", "plus"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = weights[..., :, 0].mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "diagonal_default_axes": (["axis1", "axis2", "leading axes"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights).mean(axis=-1) if weights.ndim > 2 else np.diagonal(weights).mean()
    return np.stack(np.broadcast_arrays(prev, special, own), axis=-1)
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
    return np.swapaxes(np.array([query_weight, key_weight, value_weight, output_weight]), -1, -2).copy()
''',
    },
    "bert_embeddings": {
        "index": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    positions = np.arange(token_ids.shape[1])
    x = word_embeddings[token_ids] + position_embeddings[positions][None] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
''',
        "take_manual_norm": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    x = (np.take(word_embeddings, token_ids, axis=0) + position_embeddings[: token_ids.shape[1]]
         + np.take(type_embeddings, token_types, axis=0))
    mu = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
''',
    },
    "bert_head_weights": {
        "where_inf": _HW,
        "additive_big_negative": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    from scipy.special import softmax
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = np.einsum("bhid,bhjd->bhij", q, k) / np.sqrt(q.shape[-1])
    s = np.where(mask[:, None, None, :].astype(bool), s, -np.inf)
    return softmax(s, axis=-1)
''',
    },
    "bert_layer": {
        "four_steps": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    A = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    V = split_heads(hidden @ w_v + b_v, n_heads)
    x = layer_norm(hidden + combine_heads(A @ V) @ w_o + b_o, *norms[0])
    h = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * h * (1 + erf(h / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
''',
        "gelu_helper_ndtr": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    from scipy.special import ndtr

    def gelu(z):
        return z * ndtr(z)

    A = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask, n_heads)
    V = split_heads(hidden @ attention_w[2] + attention_b[2], n_heads)
    attended = combine_heads(A @ V) @ attention_w[3] + attention_b[3]
    x = layer_norm(hidden + attended, norms[0, 0], norms[0, 1])
    return layer_norm(x + gelu(x @ ffn_w_in + ffn_b_in) @ ffn_w_out + ffn_b_out, norms[1, 0], norms[1, 1])
''',
    },
    "sentence_embedding": {
        "masked_mean": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    m = mask[..., None].astype(x.dtype)
    return (x * m).sum(axis=1) / m.sum(axis=1)
''',
        "zip_average": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for params in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        x = bert_layer(x, mask, *params, n_heads)
    return np.stack([np.average(x[b], axis=0, weights=mask[b]) for b in range(len(x))])
''',
    },
    "head_patterns": {
        "diagonals": '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
''',
        "index_arrays": '''
def head_patterns(weights):
    n = weights.shape[-1]
    i = np.arange(n)
    prev = weights[..., i[1:], i[:-1]].mean(axis=-1)
    special = weights[..., [0, -1]].sum(axis=-1).mean(axis=-1)
    own = weights[..., i, i].mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
''',
    },
}
