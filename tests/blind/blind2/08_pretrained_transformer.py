"""Blind set 2, notebook 08: A pretrained Transformer (all-MiniLM-L6-v2) in NumPy. Written from notebooks/08_pretrained_transformer.ipynb only."""

MISTAKES = {
    "attention_matrices": {
        "not_transposed": (["transpose", ".t", "(out, in)", "out_features"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
'''),
        "output_not_transposed": (["output", "w_out", "all four", "output.dense"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
'''),
        "returns_tuple": (["one array", "stack", "np.stack", "tuple", "(4, d_model, d_model)"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return query_weight.T, key_weight.T, value_weight.T, output_weight.T
'''),
        "stack_then_T": (["axes", "last two", ".t", "swapaxes"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T
'''),
        "order_swapped": (["order", "query", "key", "w_query, w_key"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([key_weight.T, query_weight.T, value_weight.T, output_weight.T])
'''),
    },
    "bert_embeddings": {
        "no_positions": (["position", "positions", "word order"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "positions_from_one": (["position 0", "from 0", "[cls]", "counted from 0"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[np.arange(1, n_tokens + 1)] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "no_layer_norm": (["layer norm", "layernorm", "layer_norm", "normalis"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[np.arange(n_tokens)] + type_embeddings[token_types]
    return x
'''),
        "gamma_beta_swapped": (["gamma", "beta", "row 0", "row 1"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[np.arange(n_tokens)] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[1], embedding_norm[0])
'''),
        "type_table_indexed_by_ids": (["token type", "types", "type_embeddings", "token_types"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[np.arange(n_tokens)] + type_embeddings[token_ids % 2]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
    },
    "bert_head_weights": {
        "mask_multiplies_scores": (["-inf", "infinity", "before the softmax", "zero score"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)  # (batch, heads, tokens, d_head)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1])
    scores = scores * mask[:, None, None, :]
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_hides_queries": (["keys", "queries", "rows", "columns", "(batch, 1, 1, tokens)"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)  # (batch, heads, tokens, d_head)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1])
    scores = np.where(mask[:, None, :, None] == 1, scores, -1e9)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_ignored": (["mask", "padding", "weight 0"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)  # (batch, heads, tokens, d_head)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "no_biases": (["bias", "b_query", "b_key"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query, n_heads)  # (batch, heads, tokens, d_head)
    keys = split_heads(hidden @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1])
    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "scale_sqrt_d_model": (["d_head", "sqrt", "d_model"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)  # (batch, heads, tokens, d_head)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(hidden.shape[-1])
    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_inverted": (["convention", "1 for a real token", "invert", "padding"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)  # (batch, heads, tokens, d_head)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1])
    scores = np.where(mask[:, None, None, :] == 0, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    "bert_layer": {
        "gelu_tanh_approximation": (["tanh", "approximat", "erf", "exact"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1 + np.tanh(np.sqrt(2 / np.pi) * (pre + 0.044715 * pre ** 3)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "relu_instead_of_gelu": (["gelu", "relu", "erf"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = np.maximum(pre, 0)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "no_attention_residual": (["residual", "add the input", "hidden +", "x +"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out + b_out
    x = layer_norm(attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1 + erf(pre / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "pre_ln_order": (["post-ln", "pre-ln", "after", "order"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    h = layer_norm(hidden, *norms[0])
    weights = bert_head_weights(h, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(h @ w_value + b_value, n_heads)
    x = hidden + combine_heads(weights @ values) @ w_out + b_out
    pre = layer_norm(x, *norms[1]) @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1 + erf(pre / np.sqrt(2)))
    return x + inner @ ffn_w_out + ffn_b_out
'''),
        "mask_not_passed": (["mask", "padding"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, np.ones_like(mask), n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1 + erf(pre / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "norms_swapped": (["norms[0]", "norms[1]", "which layer norm", "gamma"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[1])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1 + erf(pre / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[0])
'''),
        "no_output_bias": (["bias", "b_out"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out
    x = layer_norm(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1 + erf(pre / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
    },
    "sentence_embedding": {
        "mean_includes_padding": (["padding", "real tokens", "mask", "mean pooling"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    return x.mean(axis=1)
'''),
        "cls_token_only": (["mean", "pooling", "[cls]", "average"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    return x[:, 0]
'''),
        "layer_output_not_chained": (["loop", "every layer", "previous layer", "output of one layer"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(len(attention_w)):
        out = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    keep = mask[:, :, None].astype(out.dtype)  # (batch, tokens, 1)
    return (out * keep).sum(axis=1) / keep.sum(axis=1)
'''),
        "masked_sum_not_mean": (["mean", "average", "divide", "count"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    keep = mask[:, :, None].astype(x.dtype)  # (batch, tokens, 1)
    return (x * keep).sum(axis=1)
'''),
        "skips_last_layer": (["last layer", "range", "every layer", "all layers"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(len(attention_w) - 1):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    keep = mask[:, :, None].astype(x.dtype)  # (batch, tokens, 1)
    return (x * keep).sum(axis=1) / keep.sum(axis=1)
'''),
        "first_layer_weights_every_time": (["layer", "index", "attention_w[layer]", "each layer's weights"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[0], attention_b[0], ffn_w_in[0], ffn_b_in[0],
                       ffn_w_out[0], ffn_b_out[0], norms[0], n_heads)
    keep = mask[:, :, None].astype(x.dtype)  # (batch, tokens, 1)
    return (x * keep).sum(axis=1) / keep.sum(axis=1)
'''),
    },
    "head_patterns": {
        "previous_divided_by_n": (["n - 1", "first row", "queries 1", "divide"], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / weights.shape[-1]
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "next_token_offset": (["previous", "offset", "next token", "-1"], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "cls_only": (["last key", "[sep]", "both", "plus"], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = weights[..., :, 0].mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "specials_averaged": (["plus", "sum", "add", "not the average"], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = ((weights[..., :, 0] + weights[..., :, -1]) / 2).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "special_rows_not_columns": (["column", "key", "row", "first key"], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0, :] + weights[..., -1, :]).mean(axis=-1)
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
        "stack_transposed": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([w.T for w in (query_weight, key_weight, value_weight, output_weight)])
''',
        "swapaxes_stack": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.swapaxes(np.array([query_weight, key_weight, value_weight, output_weight]), -1, -2)
''',
        "einsum": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.einsum("noi->nio", np.stack([query_weight, key_weight, value_weight, output_weight]))
''',
    },
    "bert_embeddings": {
        "fancy_indexing": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[np.arange(n_tokens)] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
''',
        "np_take_own_norm": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    positions = np.broadcast_to(np.arange(token_ids.shape[-1]), token_ids.shape)
    x = (np.take(word_embeddings, token_ids, axis=0) + np.take(position_embeddings, positions, axis=0)
         + np.take(type_embeddings, token_types, axis=0))
    mean = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    gamma, beta = embedding_norm
    return (x - mean) / np.sqrt(var + 1e-12) * gamma + beta
''',
    },
    "bert_head_weights": {
        "where_minus_inf": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)  # (batch, heads, tokens, d_head)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1])
    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "additive_mask_scipy": '''
from scipy.special import softmax as _softmax

def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    d_head = w_query.shape[1] // n_heads
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = np.einsum("bhid,bhjd->bhij", q, k) / np.sqrt(d_head)
    scores = scores + (1.0 - mask[:, None, None, :]) * -1e9
    return _softmax(scores, axis=-1)
''',
    },
    "bert_layer": {
        "four_steps": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1 + erf(pre / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
''',
        "einsum_norm_cdf": '''
from scipy.stats import norm as _normal

def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    projected = np.einsum("btd,nde->nbte", hidden, attention_w[:3]) + attention_b[:3, None, None, :]
    weights = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask, n_heads)
    context = combine_heads(weights @ split_heads(projected[2], n_heads))
    x = layer_norm(hidden + context @ attention_w[3] + attention_b[3], norms[0, 0], norms[0, 1])
    h = x @ ffn_w_in + ffn_b_in
    h = h * _normal.cdf(h)
    return layer_norm(x + h @ ffn_w_out + ffn_b_out, norms[1, 0], norms[1, 1])
''',
    },
    "sentence_embedding": {
        "loop_masked_mean": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    keep = mask[:, :, None].astype(x.dtype)  # (batch, tokens, 1)
    return (x * keep).sum(axis=1) / keep.sum(axis=1)
''',
        "zip_np_average": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    hidden = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                             embedding_norm)
    for params in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        hidden = bert_layer(hidden, mask, *params, n_heads)
    return np.stack([np.average(hidden[b], axis=0, weights=mask[b]) for b in range(len(hidden))])
''',
    },
    "head_patterns": {
        "diagonals": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "eye_masks": '''
def head_patterns(weights):
    n = weights.shape[-1]
    previous = (weights * np.eye(n, k=-1)).sum(axis=(-2, -1)) / (n - 1)
    special = (weights[..., 0].sum(axis=-1) + weights[..., -1].sum(axis=-1)) / n
    itself = np.trace(weights, axis1=-2, axis2=-1) / n
    return np.stack([previous, special, itself], axis=-1)
''',
    },
}
