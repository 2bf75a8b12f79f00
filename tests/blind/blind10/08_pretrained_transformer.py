"""Blind set 10, notebook 08: a pretrained transformer. Written from notebooks/08_pretrained_transformer.ipynb only."""

MISTAKES = {
    "attention_matrices": {
        "no_transpose": (["transpose", "(out, in)", ".t", "layout"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
'''),
        "output_not_transposed": (["w_out", "output", "transpose", "all four"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
'''),
        "transpose_whole_stack": (["axes", "transpose", "stack", "each matrix"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T
'''),
        "wrong_order": (["order", "w_key", "w_value", "query, key, value"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([key_weight.T, query_weight.T, value_weight.T, output_weight.T])
'''),
        "tuple_not_array": (["one array", "stack", "tuple", "(4, d_model, d_model)"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return query_weight.T, key_weight.T, value_weight.T, output_weight.T
'''),
    },
    "bert_embeddings": {
        "no_layer_norm": (["layer norm", "normalis", "embedding_norm"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    t = token_ids.shape[1]
    return word_embeddings[token_ids] + position_embeddings[:t] + type_embeddings[token_types]
'''),
        "positions_by_id": (["position", "arange", "place in the sentence"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    x = word_embeddings[token_ids] + position_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "gamma_beta_swapped": (["gamma", "beta", "row 0", "swap"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    t = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:t] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[1], embedding_norm[0])
'''),
        "no_type_embedding": (["type", "token_types", "segment"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    t = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:t]
    return layer_norm(x, *embedding_norm)
'''),
        "positions_from_one": (["position", "from 0", "off by one", "start"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    t = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[1:t + 1] + type_embeddings[token_types]
    return layer_norm(x, *embedding_norm)
'''),
    },
    "bert_head_weights": {
        "no_bias": (["bias", "b_query", "b_key"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query, n_heads)
    k = split_heads(hidden @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask[:, None, None, :] == 1, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_queries": (["keys", "columns", "queries", "(batch, 1, 1, tokens)"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask[:, None, :, None] == 1, s, -1e9)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "add_mask_directly": (["-inf", "add the mask", "0 and 1", "padding"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]) + mask[:, None, None, :]
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "scale_d_model": (["d_head", "d_model", "sqrt"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(hidden.shape[-1])
    s = np.where(mask[:, None, None, :] == 1, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "no_mask": (["mask", "padding", "weight 0"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    "bert_layer": {
        "pre_ln": (["post-ln", "after", "residual", "order"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    x = layer_norm(hidden, *norms[0])
    a = bert_head_weights(x, w_q, b_q, w_k, b_k, mask, n_heads)
    v = split_heads(x @ w_v + b_v, n_heads)
    h = hidden + combine_heads(a @ v) @ w_o + b_o
    y = layer_norm(h, *norms[1])
    inner = 0.5 * (y @ ffn_w_in + ffn_b_in) * (1 + erf((y @ ffn_w_in + ffn_b_in) / np.sqrt(2)))
    return h + inner @ ffn_w_out + ffn_b_out
'''),
        "tanh_gelu": (["erf", "tanh", "approximation", "exact"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    a = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    v = split_heads(hidden @ w_v + b_v, n_heads)
    x = layer_norm(hidden + combine_heads(a @ v) @ w_o + b_o, *norms[0])
    z = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * z * (1 + np.tanh(np.sqrt(2 / np.pi) * (z + 0.044715 * z ** 3)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "relu": (["gelu", "relu", "erf"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    a = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    v = split_heads(hidden @ w_v + b_v, n_heads)
    x = layer_norm(hidden + combine_heads(a @ v) @ w_o + b_o, *norms[0])
    inner = np.maximum(x @ ffn_w_in + ffn_b_in, 0)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "no_residual_ffn": (["residual", "x +", "add the input"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    a = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    v = split_heads(hidden @ w_v + b_v, n_heads)
    x = layer_norm(hidden + combine_heads(a @ v) @ w_o + b_o, *norms[0])
    z = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * z * (1 + erf(z / np.sqrt(2)))
    return layer_norm(inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "gelu_missing_half": (["gelu", "1/2", "half", "phi"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    a = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    v = split_heads(hidden @ w_v + b_v, n_heads)
    x = layer_norm(hidden + combine_heads(a @ v) @ w_o + b_o, *norms[0])
    z = x @ ffn_w_in + ffn_b_in
    inner = z * (1 + erf(z / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
    },
    "sentence_embedding": {
        "mean_all_tokens": (["padding", "real tokens", "mask", "mean pooling"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for i in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    return x.mean(axis=1)
'''),
        "cls_token": (["mean", "cls", "first token", "pooling"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for i in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    return x[:, 0]
'''),
        "only_first_layer": (["every layer", "loop", "layers", "x ="], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x0 = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                         embedding_norm)
    for i in range(len(attention_w)):
        x = bert_layer(x0, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    m = mask[..., None]
    return (x * m).sum(axis=1) / m.sum(axis=1)
'''),
        "divide_by_all_tokens": (["divide", "number of real tokens", "mask.sum"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for i in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    return (x * mask[..., None]).sum(axis=1) / x.shape[1]
'''),
    },
    "head_patterns": {
        "previous_includes_first": (["i = 1", "first query", "previous", "offset"], '''
def head_patterns(weights):
    n = weights.shape[-1]
    prev = np.concatenate([np.zeros(weights.shape[:-2] + (1,)),
                           np.diagonal(weights, offset=-1, axis1=-2, axis2=-1)], axis=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "offset_plus_one": (["next", "offset", "-1", "previous"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "special_rows_not_columns": (["key", "columns", "rows", "[cls]"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0, :] + weights[..., -1, :]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "special_cls_only": (["[sep]", "last key", "plus"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = weights[..., :, 0].mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "diagonal_default_axes": (["axis1", "axis2", "leading", "diagonal"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights).mean(axis=0)
    return np.stack([prev, special, own], axis=-1)
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
        "index": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    t = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[np.arange(t)] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
''',
        "take": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    x = (np.take(word_embeddings, token_ids, axis=0) + np.take(type_embeddings, token_types, axis=0)
         + position_embeddings[: token_ids.shape[-1]][None])
    return layer_norm(x, *embedding_norm)
''',
    },
    "bert_head_weights": {
        "where_inf": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask[:, None, None, :] == 1, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "additive_mask": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    from scipy.special import softmax as sp_softmax
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    d_head = hidden.shape[-1] // n_heads
    add = np.where(mask.astype(bool), 0.0, -np.inf)[:, None, None, :]
    return sp_softmax(np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(d_head) + add, axis=-1)
''',
    },
    "bert_layer": {
        "steps": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    a = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    v = split_heads(hidden @ w_v + b_v, n_heads)
    x = layer_norm(hidden + combine_heads(a @ v) @ w_o + b_o, *norms[0])
    z = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * z * (1 + erf(z / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
''',
        "norm_cdf": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    from scipy.stats import norm as normal
    a = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask, n_heads)
    v = split_heads(hidden @ attention_w[2] + attention_b[2], n_heads)
    attended = combine_heads(a @ v) @ attention_w[3] + attention_b[3]
    x = layer_norm(hidden + attended, norms[0, 0], norms[0, 1])
    z = x @ ffn_w_in + ffn_b_in
    return layer_norm(x + (z * normal.cdf(z)) @ ffn_w_out + ffn_b_out, norms[1, 0], norms[1, 1])
''',
    },
    "sentence_embedding": {
        "masked_mean": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for i in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    m = mask[..., None].astype(x.dtype)
    return (x * m).sum(axis=1) / m.sum(axis=1)
''',
        "zip_average": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        x = bert_layer(x, mask, *layer, n_heads)
    return np.stack([np.average(x[b], axis=0, weights=mask[b]) for b in range(x.shape[0])])
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
