"""Blind set 1, notebook 08: Your attention inside a pretrained transformer (NumPy, checked against Hugging Face transformers). Written from notebooks/08_pretrained_transformer.ipynb only."""

MISTAKES = {
    "attention_matrices": {
        "no_transpose": (["transpose", ".t", "(out, in)", "out_features"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
'''),
        "output_not_transposed": (["w_out", "all four", "output_weight", "output projection"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
'''),
        "concatenate_not_stack": (["stack", "new axis", "(4, d_model, d_model)", "concatenat"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.concatenate([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
'''),
        "transpose_whole_stack": (["last two axes", "swapaxes", "whole stack", "each matrix"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T
'''),
        "reshape_instead_of_transpose": (["reshape", "transpose", ".t"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    # (out, in) -> (in, out)
    return np.stack([w.reshape(w.shape[1], w.shape[0])
                     for w in (query_weight, key_weight, value_weight, output_weight)])
'''),
    },
    "bert_embeddings": {
        "positions_indexed_by_ids": (["np.arange", "counted from 0", "index of the token", "position ids"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    summed = word_embeddings[token_ids] + position_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
'''),
        "no_layer_norm": (["layer norm", "layernorm", "layer_norm", "normalis"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    return word_embeddings[token_ids] + position_embeddings[:n_tokens] + type_embeddings[token_types]
'''),
        "no_token_types": (["token type", "type embedding", "token_types", "type_embeddings"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[:n_tokens]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
'''),
        "positions_from_one": (["position 0", "from 0", "[cls] is position 0", "off by one"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[1:n_tokens + 1] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
'''),
        "gamma_beta_swapped": (["gamma", "beta", "row 0", "row 1"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[:n_tokens] + type_embeddings[token_types]
    beta, gamma = embedding_norm
    return layer_norm(summed, gamma, beta)
'''),
        "own_norm_over_tokens": (["last axis", "each token", "features", "axis=-1"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n_tokens] + type_embeddings[token_types]
    mean = x.mean(axis=1, keepdims=True)
    std = x.std(axis=1, keepdims=True)
    return (x - mean) / (std + 1e-12) * embedding_norm[0] + embedding_norm[1]
'''),
    },
    "bert_head_weights": {
        "mask_on_queries": (["columns", "(batch, 1, 1, tokens)", "padding keys", "hides keys"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1])
    scores = np.where(mask[:, None, :, None] == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)
'''),
        "no_biases": (["bias", "b_query", "b_key"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query, n_heads)
    keys = split_heads(hidden @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1])
    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)
'''),
        "mask_multiplies_scores": (["-inf", "multipl", "score of 0", "e^0"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1])
    scores = scores * mask[:, None, None, :]
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)
'''),
        "scale_by_d_model": (["d_head", "per head", "sqrt(d_model)", "width of each head"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(hidden.shape[-1])
    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)
'''),
        "mask_not_expanded": (["broadcast", "(batch, 1, 1, tokens)", "reshape the mask", "expand"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1])
    scores = np.where(mask == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)
'''),
        "zero_weights_after_softmax": (["before the softmax", "renormal", "sum to 1", "-inf"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights * mask[:, None, None, :]
'''),
    },
    "bert_layer": {
        "tanh_gelu": (["tanh", "erf", "approximation", "exact"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
               n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    h = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h ** 3)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "relu": (["relu", "gelu", "erf"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
               n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    inner = np.maximum(x @ ffn_w_in + ffn_b_in, 0.0)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "pre_layer_norm": (["post-ln", "pre-ln", "after the residual", "before the sublayer"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
               n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    normed = layer_norm(hidden, *norms[0])
    weights = bert_head_weights(normed, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(normed @ w_value + b_value, n_heads)
    x = hidden + combine_heads(weights @ values) @ w_out + b_out
    normed = layer_norm(x, *norms[1])
    h = normed @ ffn_w_in + ffn_b_in
    inner = 0.5 * h * (1 + erf(h / np.sqrt(2)))
    return x + inner @ ffn_w_out + ffn_b_out
'''),
        "no_attention_residual": (["residual", "x + attended", "add the input", "skip connection"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
               n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out + b_out
    x = layer_norm(attended, *norms[0])
    h = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * h * (1 + erf(h / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "same_norm_twice": (["norms[1]", "second layer norm", "after the feed-forward", "gamma"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
               n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    h = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * h * (1 + erf(h / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[0])
'''),
        "no_value_bias": (["bias", "b_value", "value bias"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
               n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    h = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * h * (1 + erf(h / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "no_output_projection": (["w_out", "output projection", "output dense", "b_out"], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
               n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values)
    x = layer_norm(hidden + attended, *norms[0])
    h = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * h * (1 + erf(h / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
    },
    "sentence_embedding": {
        "mean_includes_padding": (["padding", "real tokens", "[pad]", "masked mean"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    return x.mean(axis=1)
'''),
        "cls_pooling": (["mean", "[cls]", "pooling", "average"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    return x[:, 0]
'''),
        "layers_not_chained": (["each layer", "previous layer", "output of", "chain"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    embedded = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                               embedding_norm)
    for layer in range(len(attention_w)):
        out = bert_layer(embedded, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer],
                         ffn_b_in[layer], ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    real = mask[..., None]
    return (out * real).sum(axis=1) / real.sum(axis=1)
'''),
        "divides_by_all_tokens": (["number of real tokens", "mask.sum", "real tokens", "padded length"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    return (x * mask[..., None]).sum(axis=1) / x.shape[1]
'''),
        "skips_last_layer": (["every layer", "last layer", "all layers", "all six"], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(len(attention_w) - 1):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    real = mask[..., None]
    return (x * real).sum(axis=1) / real.sum(axis=1)
'''),
    },
    "head_patterns": {
        "next_token_offset": (["offset=-1", "below the diagonal", "previous", "next token"], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "previous_divided_by_n": (["n - 1", "n-1", "queries 1", "first query"], '''
def head_patterns(weights):
    n = weights.shape[-1]
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / n
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "special_rows_not_columns": (["column", "first key", "weight on the first key", "rows"], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0, :] + weights[..., -1, :]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "cls_only": (["[sep]", "last key", "first and last"], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = weights[..., :, 0].mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "diagonal_default_axes": (["axis1", "axis2", "last two axes"], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "stacked_on_first_axis": (["last axis", "axis=-1", "(..., 3)"], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself])
'''),
    },
}

VARIANTS = {
    "attention_matrices": {
        "stack_of_transposes": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
''',
        "swapaxes_after_stack": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.swapaxes(np.stack([query_weight, key_weight, value_weight, output_weight]), -1, -2).copy()
''',
    },
    "bert_embeddings": {
        "fancy_indexing": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    summed = (word_embeddings[token_ids]                  # (batch, tokens, d_model)
              + position_embeddings[np.arange(n_tokens)]  # (tokens, d_model), broadcast over the batch
              + type_embeddings[token_types])             # (batch, tokens, d_model)
    gamma, beta = embedding_norm
    return layer_norm(summed, gamma, beta)
''',
        "take_and_own_norm": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    x = (np.take(word_embeddings, token_ids, axis=0)
         + position_embeddings[: token_ids.shape[-1]][None]
         + np.take(type_embeddings, token_types, axis=0))
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
''',
    },
    "bert_head_weights": {
        "where_minus_inf": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)   # (batch, heads, tokens, d_head)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1])
    scores = np.where(mask[:, None, None, :].astype(bool), scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)
''',
        "additive_mask_scipy": '''
from scipy.special import softmax


def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    d_head = w_query.shape[1] // n_heads
    q = split_heads(np.matmul(hidden, w_query) + b_query, n_heads)
    k = split_heads(np.matmul(hidden, w_key) + b_key, n_heads)
    scores = np.einsum("bhid,bhjd->bhij", q, k) / np.sqrt(d_head)
    additive = np.where(np.asarray(mask) > 0, 0.0, -np.inf)[:, None, None, :]
    return softmax(scores + additive, axis=-1)
''',
    },
    "bert_layer": {
        "steps_one_to_four": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
               n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out + b_out           # step 1
    x = layer_norm(hidden + attended, *norms[0])                         # step 2
    h = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * h * (1 + erf(h / np.sqrt(2)))                          # step 3, exact GELU
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])      # step 4
''',
        "inline_attention_norm_cdf": '''
from scipy.stats import norm as normal_distribution


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
               n_heads):
    q, k, v = (split_heads(hidden @ attention_w[i] + attention_b[i], n_heads) for i in range(3))
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(mask[:, None, None, :] > 0, scores, -np.inf)
    scores -= scores.max(axis=-1, keepdims=True)
    a = np.exp(scores)
    a /= a.sum(axis=-1, keepdims=True)
    attended = combine_heads(a @ v) @ attention_w[3] + attention_b[3]
    x = layer_norm(hidden + attended, norms[0, 0], norms[0, 1])
    h = x @ ffn_w_in + ffn_b_in
    inner = h * normal_distribution.cdf(h)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, norms[1, 0], norms[1, 1])
''',
    },
    "sentence_embedding": {
        "loop_and_masked_mean": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    real = mask[..., None].astype(x.dtype)          # (batch, tokens, 1)
    return (x * real).sum(axis=1) / real.sum(axis=1)
''',
        "zip_einsum": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    hidden = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                             embedding_norm)
    for params in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        hidden = bert_layer(hidden, mask, *params, n_heads)
    weights = np.asarray(mask, dtype=hidden.dtype)
    return np.einsum("bt,btd->bd", weights, hidden) / weights.sum(axis=1, keepdims=True)
''',
    },
    "head_patterns": {
        "diagonals": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)   # queries 1 .. n-1
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)              # first + last key
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "trace_and_masks": '''
def head_patterns(weights):
    n = weights.shape[-1]
    previous = np.trace(weights, offset=-1, axis1=-2, axis2=-1) / (n - 1)
    special_keys = np.zeros(n)
    special_keys[[0, -1]] = 1.0
    special = (weights @ special_keys).mean(axis=-1)
    itself = (weights * np.eye(n)).sum(axis=(-2, -1)) / n
    return np.stack([previous, special, itself], axis=-1)
''',
    },
}
