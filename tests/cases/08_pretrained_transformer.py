"""Learner-style answers for notebook 08: one catalogued mistake each, or a correct variant.

Keys: the exercise's solution cell (grade_id), then the mistake id (from
attention_course.mistakes) or a variant's name. Values: what a learner types into that cell.
Run by ``python3 tasks.py accuracy`` and tests/test_accuracy.py.

The notebook's given cell defines ``layer_norm``, ``split_heads`` and ``combine_heads``; ``erf`` is
imported by its setup cell. Mistakes left out on purpose: in ``bert_head_weights``, heads split with
a reshape but no transpose is covered by notebook 06's cases (here ``split_heads`` is given); in
``sentence_embedding`` the layers themselves are replaced by the reference during its check, so only
the pooling can go wrong there.
"""

MISTAKES = {
    "attention_matrices": {
        "weights_not_transposed": """
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])  # already square
""",
    },
    "bert_embeddings": {
        "position_embeddings_missing": """
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    summed = word_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
""",
        "positions_off_by_one": """
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    positions = np.arange(1, token_ids.shape[-1] + 1)  # the first word is position 1
    summed = word_embeddings[token_ids] + position_embeddings[positions] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
""",
        "token_type_embeddings_missing": """
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[-1]
    summed = word_embeddings[token_ids] + position_embeddings[:n_tokens]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
""",
        "embedding_layer_norm_missing": """
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[-1]
    return word_embeddings[token_ids] + position_embeddings[:n_tokens] + type_embeddings[token_types]
""",
    },
    "bert_head_weights": {
        "mask_finite_value": """
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = scores + (1.0 - mask[:, None, None, :]) * -10000.0  # BERT's extended attention mask
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "padding_mask_ignored": """
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "mask_wrong_sign": """
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask[:, None, None, :] == 0, scores, -np.inf)
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "mask_with_zero": """
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = scores * mask[:, None, None, :]  # padding scores become 0
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "mask_after_softmax": """
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True) * mask[:, None, None, :]
""",
        "padding_mask_on_queries": """
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask[:, None, :, None] != 0, scores, -np.inf)
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "biases_missing": """
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query, n_heads)
    keys = split_heads(hidden @ w_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask[:, None, None, :] != 0, scores, -np.inf)
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "no_scaling": """
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2)
    scores = np.where(mask[:, None, None, :] != 0, scores, -np.inf)
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "scale_by_sqrt_d_model": """
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(hidden.shape[-1])
    scores = np.where(mask[:, None, None, :] != 0, scores, -np.inf)
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "keys_times_queries": """
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = keys @ np.swapaxes(queries, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask[:, None, None, :] != 0, scores, -np.inf)
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "softmax_wrong_axis": """
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = np.where(mask[:, None, None, :] != 0, scores, -np.inf)
    exps = np.exp(scores - scores.max(axis=-2, keepdims=True))
    return exps / exps.sum(axis=-2, keepdims=True)
""",
    },
    "bert_layer": {
        "residual_missing": """
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    attended = combine_heads(weights @ split_heads(hidden @ w_value + b_value, n_heads)) @ w_out + b_out
    hidden = layer_norm(attended, norms[0, 0], norms[0, 1])  # forgot "hidden +"
    inner = hidden @ ffn_w_in + ffn_b_in
    inner = 0.5 * inner * (1 + erf(inner / np.sqrt(2)))
    return layer_norm(hidden + inner @ ffn_w_out + ffn_b_out, norms[1, 0], norms[1, 1])
""",
        "layer_norm_before_sublayer": """
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    x = layer_norm(hidden, norms[0, 0], norms[0, 1])
    weights = bert_head_weights(x, w_query, b_query, w_key, b_key, mask, n_heads)
    hidden = hidden + combine_heads(weights @ split_heads(x @ w_value + b_value, n_heads)) @ w_out + b_out
    x = layer_norm(hidden, norms[1, 0], norms[1, 1])
    inner = x @ ffn_w_in + ffn_b_in
    return hidden + (0.5 * inner * (1 + erf(inner / np.sqrt(2)))) @ ffn_w_out + ffn_b_out
""",
        "relu_instead_of_gelu": """
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    attended = combine_heads(weights @ split_heads(hidden @ w_value + b_value, n_heads)) @ w_out + b_out
    hidden = layer_norm(hidden + attended, norms[0, 0], norms[0, 1])
    inner = np.maximum(hidden @ ffn_w_in + ffn_b_in, 0)
    return layer_norm(hidden + inner @ ffn_w_out + ffn_b_out, norms[1, 0], norms[1, 1])
""",
        "gelu_tanh_approximation": """
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    attended = combine_heads(weights @ split_heads(hidden @ w_value + b_value, n_heads)) @ w_out + b_out
    hidden = layer_norm(hidden + attended, norms[0, 0], norms[0, 1])
    x = hidden @ ffn_w_in + ffn_b_in
    inner = 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))
    return layer_norm(hidden + inner @ ffn_w_out + ffn_b_out, norms[1, 0], norms[1, 1])
""",
        "missing_output_projection": """
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    attended = combine_heads(weights @ split_heads(hidden @ w_value + b_value, n_heads))
    hidden = layer_norm(hidden + attended, norms[0, 0], norms[0, 1])
    inner = hidden @ ffn_w_in + ffn_b_in
    inner = 0.5 * inner * (1 + erf(inner / np.sqrt(2)))
    return layer_norm(hidden + inner @ ffn_w_out + ffn_b_out, norms[1, 0], norms[1, 1])
""",
        "biases_missing": """
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    attended = combine_heads(weights @ split_heads(hidden @ w_value + b_value, n_heads)) @ w_out + b_out
    hidden = layer_norm(hidden + attended, norms[0, 0], norms[0, 1])
    inner = hidden @ ffn_w_in
    inner = 0.5 * inner * (1 + erf(inner / np.sqrt(2)))
    return layer_norm(hidden + inner @ ffn_w_out, norms[1, 0], norms[1, 1])
""",
        "padding_mask_ignored": """
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = exps / exps.sum(axis=-1, keepdims=True)
    attended = combine_heads(weights @ split_heads(hidden @ w_value + b_value, n_heads)) @ w_out + b_out
    hidden = layer_norm(hidden + attended, norms[0, 0], norms[0, 1])
    inner = hidden @ ffn_w_in + ffn_b_in
    inner = 0.5 * inner * (1 + erf(inner / np.sqrt(2)))
    return layer_norm(hidden + inner @ ffn_w_out + ffn_b_out, norms[1, 0], norms[1, 1])
""",
    },
    "sentence_embedding": {
        "mean_pool_includes_padding": """
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    hidden = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                             embedding_norm)
    for layer in range(len(attention_w)):
        hidden = bert_layer(hidden, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer],
                            ffn_b_in[layer], ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    return hidden.mean(axis=1)
""",
        "cls_pooling": """
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    hidden = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                             embedding_norm)
    for layer in range(len(attention_w)):
        hidden = bert_layer(hidden, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer],
                            ffn_b_in[layer], ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    return hidden[:, 0]  # the [CLS] token
""",
    },
    "head_patterns": {
        "next_token_instead_of_previous": """
def head_patterns(weights):
    previous = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
""",
        "special_tokens_cls_only": """
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = weights[..., :, 0].mean(axis=-1)  # weight on [CLS]
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
""",
        "weights_transposed": """
def head_patterns(weights):
    keys_by_query = np.swapaxes(weights, -1, -2)
    previous = np.diagonal(keys_by_query, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (keys_by_query[..., :, 0] + keys_by_query[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(keys_by_query, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
""",
    },
}

VARIANTS = {
    "attention_matrices": {
        "one_transpose_of_the_stack": """
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).transpose(0, 2, 1)
""",
        "list_comprehension": """
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.array([np.swapaxes(w, 0, 1) for w in (query_weight, key_weight, value_weight, output_weight)])
""",
    },
    "bert_embeddings": {
        "np_take_and_own_layer_norm": """
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    x = (np.take(word_embeddings, token_ids, axis=0) + position_embeddings[:n_tokens][None]
         + np.take(type_embeddings, token_types, axis=0))
    mean = x.mean(-1, keepdims=True)
    std = np.sqrt(x.var(-1, keepdims=True) + 1e-12)
    return (x - mean) / std * embedding_norm[0] + embedding_norm[1]
""",
    },
    "bert_head_weights": {
        "additive_mask": """
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = split_heads(hidden @ w_query + b_query, n_heads)
    keys = split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    scores = scores + (1 - mask[:, None, None, :]) * -1e9  # as BERT's implementations do
    scores = scores - scores.max(axis=-1, keepdims=True)
    return np.exp(scores) / np.exp(scores).sum(axis=-1, keepdims=True)
""",
        "loop_over_heads_and_scipy": """
from scipy.special import softmax


def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries, keys = hidden @ w_query + b_query, hidden @ w_key + b_key
    d_head = queries.shape[-1] // n_heads
    heads = []
    for h in range(n_heads):
        q = queries[..., h * d_head:(h + 1) * d_head]
        k = keys[..., h * d_head:(h + 1) * d_head]
        scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)  # (batch, tokens, tokens)
        heads.append(softmax(np.where(mask[:, None, :] == 1, scores, -np.inf), axis=-1))
    return np.stack(heads, axis=1)
""",
    },
    "bert_layer": {
        "gelu_from_the_normal_cdf": """
from scipy.stats import norm


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    weights = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask,
                                n_heads)
    context = combine_heads(weights @ split_heads(hidden @ attention_w[2] + attention_b[2], n_heads))
    hidden = layer_norm(hidden + context @ attention_w[3] + attention_b[3], *norms[0])
    inner = hidden @ ffn_w_in + ffn_b_in
    return layer_norm(hidden + (inner * norm.cdf(inner)) @ ffn_w_out + ffn_b_out, *norms[1])
""",
        "attention_written_out_with_mask": """
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    q, k, v = (split_heads(hidden @ attention_w[i] + attention_b[i], n_heads) for i in range(3))
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(mask[:, None, None, :] > 0, scores, -np.inf)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    weights = weights / weights.sum(-1, keepdims=True)
    hidden = layer_norm(hidden + combine_heads(weights @ v) @ attention_w[3] + attention_b[3], norms[0][0], norms[0][1])
    inner = hidden @ ffn_w_in + ffn_b_in
    gelu = inner * 0.5 * (1.0 + erf(inner / np.sqrt(2.0)))
    return layer_norm(hidden + gelu @ ffn_w_out + ffn_b_out, norms[1][0], norms[1][1])
""",
    },
    "sentence_embedding": {
        "zip_over_layers_and_einsum": """
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer_weights in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        x = bert_layer(x, mask, *layer_weights, n_heads)
    return np.einsum("btd,bt->bd", x, mask) / mask.sum(axis=1, keepdims=True)
""",
    },
    "head_patterns": {
        "fancy_indexing": """
def head_patterns(weights):
    n = weights.shape[-1]
    rows = np.arange(n)
    previous = weights[..., rows[1:], rows[:-1]].mean(axis=-1)
    special = weights[..., [0, n - 1]].sum(axis=-1).mean(axis=-1)
    itself = weights[..., rows, rows].mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
""",
        "traces": """
def head_patterns(weights):
    n = weights.shape[-1]
    previous = np.trace(weights, offset=-1, axis1=-2, axis2=-1) / (n - 1)
    special = (weights[..., 0].sum(axis=-1) + weights[..., -1].sum(axis=-1)) / n
    itself = np.trace(weights, axis1=-2, axis2=-1) / n
    return np.stack([previous, special, itself], axis=-1)
""",
    },
}
