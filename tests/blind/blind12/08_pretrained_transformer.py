"""Blind set 12, notebook 08: Your attention inside a pretrained transformer. Written from notebooks/08_pretrained_transformer.ipynb only."""

MISTAKES = {
    "attention_matrices": {
        "no_transpose": (["transpose", "(out, in)", ".t", "layout"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
'''),
        "transpose_whole_stack": (["transpose", "axes", "stack", "swapaxes"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T
'''),
        "output_not_transposed": (["output", "w_out", "transpose"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
'''),
        "returns_tuple_order": (["order", "query, key, value", "w_out"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([key_weight.T, query_weight.T, value_weight.T, output_weight.T])
'''),
        "inverse_instead_of_transpose": (["transpose", "inverse", ".t"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([np.linalg.inv(w) for w in (query_weight, key_weight, value_weight, output_weight)])
'''),
    },
    "bert_embeddings": {
        "no_layer_norm": (["layer norm", "normalis", "layernorm"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[np.arange(n_tokens)] + type_embeddings[token_types]
    return summed
'''),
        "positions_from_token_ids": (["position", "np.arange", "token id", "index"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[token_ids % position_embeddings.shape[0]] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
'''),
        "gamma_beta_swapped": (["gamma", "beta", "row 0", "swapped"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[np.arange(n_tokens)] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[1], embedding_norm[0])
'''),
        "no_type_embedding": (["type", "token_types", "segment"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[np.arange(n_tokens)]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
'''),
        "positions_from_one": (["position 0", "from 0", "off by one", "[cls]"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[np.arange(1, n_tokens + 1)] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
'''),
        "norm_before_sum": (["after", "sum", "order", "normalise the sum"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    return layer_norm(word_embeddings[token_ids], embedding_norm[0], embedding_norm[1]) + position_embeddings[np.arange(n_tokens)] + type_embeddings[token_types]
'''),
    },
    "bert_head_weights": {
        "mask_queries": (["keys", "columns", "(batch, 1, 1, tokens)", "queries"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    d_head = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    scores = np.where(mask[:, None, :, None] == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_multiplied": (["-inf", "multipl", "zero", "0"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    d_head = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    scores = scores * mask[:, None, None, :]
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "no_biases": (["bias", "b_query", "b_key"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query, n_heads)
    k = split_heads(hidden @ w_key, n_heads)
    d_head = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "scale_d_model": (["d_head", "sqrt", "d_model"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    d_head = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(hidden.shape[-1])
    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_inverted": (["1 for a real token", "invert", "padding", "convention"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    d_head = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    scores = np.where(mask[:, None, None, :] == 0, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "additive_minus_10000_after": (["before the softmax", "exactly 0", "-inf", "10000"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    d_head = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    scores = scores + (1.0 - mask[:, None, None, :]) * -10.0
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    "bert_layer": {
        "gelu_tanh": (["tanh", "erf", "exact", "approximation"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    v = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ v) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (pre + 0.044715 * pre ** 3)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "relu": (["gelu", "relu", "erf"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    v = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ v) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = np.maximum(pre, 0.0)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "no_residual_attention": (["residual", "x +", "add"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    v = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ v) @ w_out + b_out
    x = layer_norm(attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1.0 + erf(pre / np.sqrt(2.0)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "residual_from_hidden": (["residual", "normalised x", "hidden"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    v = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ v) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1.0 + erf(pre / np.sqrt(2.0)))
    return layer_norm(hidden + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "no_output_projection": (["w_out", "output projection", "b_out"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    v = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ v)
    x = layer_norm(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1.0 + erf(pre / np.sqrt(2.0)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "pre_ln": (["post-ln", "after", "pre-ln", "layer norm"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    h = layer_norm(hidden, *norms[0])
    weights = bert_head_weights(h, w_query, b_query, w_key, b_key, mask, n_heads)
    v = split_heads(h @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ v) @ w_out + b_out
    x = hidden + attended
    pre = layer_norm(x, *norms[1]) @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1.0 + erf(pre / np.sqrt(2.0)))
    return x + inner @ ffn_w_out + ffn_b_out
'''),
        "norms_swapped": (["norms[0]", "norms[1]", "gamma", "order"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    v = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ v) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[1])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1.0 + erf(pre / np.sqrt(2.0)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[0])
'''),
    },
    "sentence_embedding": {
        "mean_over_padding": (["padding", "real tokens", "mask", "mean pooling"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    return x.mean(axis=1)
'''),
        "cls_token": (["mean", "[cls]", "pooling", "average"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    return x[:, 0]
'''),
        "sum_not_mean": (["divide", "number of real tokens", "mean", "sum"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    m = mask[..., None].astype(x.dtype)
    return (x * m).sum(axis=1)
'''),
        "first_layer_only_loop": (["previous layer", "output of", "feed", "chain"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(attention_w.shape[0]):
        y = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    x = y
    m = mask[..., None].astype(x.dtype)
    return (x * m).sum(axis=1) / m.sum(axis=1)
'''),
        "divide_by_all_tokens": (["real tokens", "padding", "divide", "count"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    m = mask[..., None].astype(x.dtype)
    return (x * m).sum(axis=1) / mask.shape[1]
'''),
        "skips_last_layer": (["last layer", "range", "off by one", "every layer"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(attention_w.shape[0] - 1):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    m = mask[..., None].astype(x.dtype)
    return (x * m).sum(axis=1) / m.sum(axis=1)
'''),
    },
    "head_patterns": {
        "next_not_previous": (["offset", "previous", "-1", "below the diagonal"], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "special_rows": (["keys", "columns", "first key", "rows"], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0, :] + weights[..., -1, :]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "previous_over_all_queries": (["n-1", "queries 1", "mean over", "divide"], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / weights.shape[-1]
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "special_mean_not_sum": (["plus", "sum", "first key plus", "[cls]"], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = ((weights[..., :, 0] + weights[..., :, -1]) / 2).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "diagonal_default_axes": (["axis1", "axis2", "last two axes", "diagonal"], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
    },
}

VARIANTS = {
    "attention_matrices": {
        "transpose_stack": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
''',
        "swapaxes_copy": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    stacked = np.array([query_weight, key_weight, value_weight, output_weight])
    return np.ascontiguousarray(np.swapaxes(stacked, -1, -2))
''',
    },
    "bert_embeddings": {
        "fancy_indexing": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[np.arange(n_tokens)] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
''',
        "take_manual_norm": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    x = np.take(word_embeddings, token_ids, axis=0)
    x = x + position_embeddings[: token_ids.shape[-1]][None]
    x = x + np.take(type_embeddings, token_types, axis=0)
    mu = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
''',
    },
    "bert_head_weights": {
        "where_inf": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    d_head = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "additive_mask_einsum": '''
import scipy.special
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(np.matmul(hidden, w_query) + b_query, n_heads)
    k = split_heads(np.matmul(hidden, w_key) + b_key, n_heads)
    scores = np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(q.shape[-1])
    additive = np.where(mask.astype(bool), 0.0, -np.inf)[:, None, None, :]
    return scipy.special.softmax(scores + additive, axis=-1)
''',
    },
    "bert_layer": {
        "four_steps": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    v = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ v) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1.0 + erf(pre / np.sqrt(2.0)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
''',
        "gelu_helper_indices": '''
def _gelu(z):
    return z * 0.5 * (1.0 + erf(z / 2.0 ** 0.5))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    weights = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask, n_heads)
    values = split_heads(np.matmul(hidden, attention_w[2]) + attention_b[2], n_heads)
    x = hidden + np.matmul(combine_heads(np.matmul(weights, values)), attention_w[3]) + attention_b[3]
    x = layer_norm(x, norms[0, 0], norms[0, 1])
    y = x + np.matmul(_gelu(np.matmul(x, ffn_w_in) + ffn_b_in), ffn_w_out) + ffn_b_out
    return layer_norm(y, norms[1, 0], norms[1, 1])
''',
    },
    "sentence_embedding": {
        "loop_masked_mean": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    m = mask[..., None].astype(x.dtype)
    return (x * m).sum(axis=1) / m.sum(axis=1)
''',
        "zip_einsum": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for weights in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        x = bert_layer(x, mask, *weights, n_heads)
    counts = mask.sum(axis=-1, keepdims=True)
    return np.einsum("bt,btd->bd", mask.astype(x.dtype), x) / counts
''',
    },
    "head_patterns": {
        "diagonal_offset": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "index_arrays": '''
def head_patterns(weights):
    n = weights.shape[-1]
    i = np.arange(1, n)
    previous = weights[..., i, i - 1].mean(axis=-1)
    special = weights[..., [0, -1]].sum(axis=-1).mean(axis=-1)
    j = np.arange(n)
    itself = weights[..., j, j].mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
    },
}
