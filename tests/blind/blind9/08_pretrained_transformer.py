"""Blind set 9, notebook 08: A pretrained transformer (all-MiniLM-L6-v2) by hand. Written from notebooks/08_pretrained_transformer.ipynb only."""

MISTAKES = {
    'attention_matrices': {
        'not_transposed': (['transpose', '.t', '(out, in)'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
'''),
        'output_not_transposed': (['output', 'w_out', 'all four', 'output_weight'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
'''),
        'stack_then_full_T': (['axes', 'swapaxes', '.t', 'last two axes'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T
'''),
        'concatenate_not_stack': (['stack', 'concatenate', '(4, d_model, d_model)'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.concatenate([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
'''),
        'inverse_not_transpose': (['transpose', 'inverse', 'inv'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([np.linalg.inv(w) for w in (query_weight, key_weight, value_weight, output_weight)])
'''),
    },
    'bert_embeddings': {
        'positions_from_one': (['position 0', 'from 0', 'off by one', '[cls]'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[1:n_tokens + 1] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
'''),
        'no_layer_norm': (['layer norm', 'layer_norm', 'normalis', 'normaliz'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[:n_tokens] + type_embeddings[token_types]
    return summed
'''),
        'no_type_embeddings': (['type', 'token type', 'token_types'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[:n_tokens]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
'''),
        'positions_indexed_by_ids': (['position', 'index', 'arange'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
'''),
        'gamma_beta_swapped': (['gamma', 'beta', 'row 0', 'row 1'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[:n_tokens] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[1], embedding_norm[0])
'''),
        'norm_only_words': (['sum', 'after', 'layer norm of the sum', 'normalise the sum'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    words = layer_norm(word_embeddings[token_ids], embedding_norm[0], embedding_norm[1])
    return words + position_embeddings[:n_tokens] + type_embeddings[token_types]
'''),
    },
    'bert_head_weights': {
        'mask_ignored': (['mask', 'padding', 'key'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        'mask_on_queries': (['keys', 'columns', 'rows', 'queries'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(mask[:, None, :, None].astype(bool), scores, -1e9)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        'mask_multiplies_scores': (['-inf', 'zero', 'multiply', 'before the softmax'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = scores * mask[:, None, None, :]
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        'no_biases': (['bias', 'b_query', 'b_key'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query, n_heads)
    k = split_heads(hidden @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(mask[:, None, None, :].astype(bool), scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        'scale_by_d_model': (['d_head', 'sqrt', 'd_model'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(hidden.shape[-1])
    scores = np.where(mask[:, None, None, :].astype(bool), scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        'mask_inverted': (['invert', '1 for a real token', 'padding', 'convention'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(mask[:, None, None, :].astype(bool), -1e9, scores)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    'bert_layer': {
        'gelu_tanh': (['tanh', 'erf', 'exact', 'approximation'], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    weights = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    values = split_heads(hidden @ w_v + b_v, n_heads)
    attended = combine_heads(weights @ values) @ w_o + b_o
    x = layer_norm(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (pre + 0.044715 * pre ** 3)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        'relu': (['gelu', 'relu'], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    weights = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    values = split_heads(hidden @ w_v + b_v, n_heads)
    attended = combine_heads(weights @ values) @ w_o + b_o
    x = layer_norm(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = np.maximum(pre, 0.0)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        'no_attention_residual': (['residual', 'x +', 'add the input', 'hidden +'], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    weights = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    values = split_heads(hidden @ w_v + b_v, n_heads)
    attended = combine_heads(weights @ values) @ w_o + b_o
    x = layer_norm(attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1.0 + erf(pre / np.sqrt(2.0)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        'pre_ln': (['post-ln', 'pre-ln', 'after', 'order'], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    h = layer_norm(hidden, *norms[0])
    weights = bert_head_weights(h, w_q, b_q, w_k, b_k, mask, n_heads)
    values = split_heads(h @ w_v + b_v, n_heads)
    x = hidden + combine_heads(weights @ values) @ w_o + b_o
    pre = layer_norm(x, *norms[1]) @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1.0 + erf(pre / np.sqrt(2.0)))
    return x + inner @ ffn_w_out + ffn_b_out
'''),
        'norms_swapped': (['norms[0]', 'norms[1]', 'order', 'swapped'], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    weights = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    values = split_heads(hidden @ w_v + b_v, n_heads)
    attended = combine_heads(weights @ values) @ w_o + b_o
    x = layer_norm(hidden + attended, *norms[1])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1.0 + erf(pre / np.sqrt(2.0)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[0])
'''),
        'no_output_bias': (['bias', 'b_out', 'attention_b[3]'], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    weights = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    values = split_heads(hidden @ w_v + b_v, n_heads)
    attended = combine_heads(weights @ values) @ w_o
    x = layer_norm(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1.0 + erf(pre / np.sqrt(2.0)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        'ffn_residual_from_input': (['residual', 'after attention', 'normalised x', 'hidden'], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    weights = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    values = split_heads(hidden @ w_v + b_v, n_heads)
    attended = combine_heads(weights @ values) @ w_o + b_o
    x = layer_norm(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1.0 + erf(pre / np.sqrt(2.0)))
    return layer_norm(hidden + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
    },
    'sentence_embedding': {
        'mean_includes_padding': (['padding', 'mask', 'real tokens'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    return x.mean(axis=1)
'''),
        'cls_pooling': (['mean', 'pooling', '[cls]', 'average'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    return x[:, 0]
'''),
        'same_layer_every_time': (['loop', 'each layer', 'layer index', 'every layer'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[0], attention_b[0], ffn_w_in[0], ffn_b_in[0],
                       ffn_w_out[0], ffn_b_out[0], norms[0], n_heads)
    keep = mask[..., None].astype(x.dtype)
    return (x * keep).sum(axis=1) / keep.sum(axis=1)
'''),
        'sum_not_mean': (['divide', 'mean', 'count', 'sum'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    keep = mask[..., None].astype(x.dtype)
    return (x * keep).sum(axis=1)
'''),
        'divide_by_all_tokens': (['divide', 'number of real tokens', 'mask.sum', 'padding'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    keep = mask[..., None].astype(x.dtype)
    return (x * keep).sum(axis=1) / x.shape[1]
'''),
        'last_layer_skipped': (['last layer', 'range', 'every layer', 'off by one'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(attention_w.shape[0] - 1):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    keep = mask[..., None].astype(x.dtype)
    return (x * keep).sum(axis=1) / keep.sum(axis=1)
'''),
    },
    'head_patterns': {
        'previous_over_all_queries': (['query 0', 'n - 1', 'first query', 'previous'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / weights.shape[-1]
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        'cls_only': (['[sep]', 'last key', 'plus'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = weights[..., :, 0].mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        'next_token_offset': (['offset=-1', 'previous', 'next', 'direction'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        'stacked_first_axis': (['axis', 'last axis', '(..., 3)'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself])
'''),
        'special_averaged': (['plus', 'sum', 'half', 'first plus last'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1) / 2
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        'diagonal_default_axes': (['axis1', 'axis2', 'last two axes'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
    },
}

VARIANTS = {
    'attention_matrices': {
        'stack_transposes': '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
''',
        'swapaxes_copy': '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    stacked = np.array([query_weight, key_weight, value_weight, output_weight])
    return np.swapaxes(stacked, -1, -2).copy()
''',
    },
    'bert_embeddings': {
        'fancy_indexing': '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    n_tokens = token_ids.shape[1]
    summed = word_embeddings[token_ids] + position_embeddings[:n_tokens] + type_embeddings[token_types]
    return layer_norm(summed, embedding_norm[0], embedding_norm[1])
''',
        'np_take_manual_norm': '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                    embedding_norm):
    positions = np.broadcast_to(np.arange(token_ids.shape[-1]), token_ids.shape)
    summed = (np.take(word_embeddings, token_ids, axis=0) + np.take(position_embeddings, positions, axis=0)
              + np.take(type_embeddings, token_types, axis=0))
    mean = summed.mean(axis=-1, keepdims=True)
    var = summed.var(axis=-1, keepdims=True)
    gamma, beta = embedding_norm
    return (summed - mean) / np.sqrt(var + 1e-12) * gamma + beta
''',
    },
    'bert_head_weights': {
        'where_neg_inf': '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(mask[:, None, None, :].astype(bool), scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        'einsum_additive_mask': '''
from scipy.special import softmax as _softmax


def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    d_model = w_query.shape[1]
    d_head = d_model // n_heads
    q = (hidden @ w_query + b_query).reshape(*hidden.shape[:-1], n_heads, d_head)
    k = (hidden @ w_key + b_key).reshape(*hidden.shape[:-1], n_heads, d_head)
    scores = np.einsum("bihd,bjhd->bhij", q, k) / np.sqrt(d_head)
    scores = scores + (1.0 - mask[:, None, None, :]) * -1e30
    return _softmax(scores, axis=-1)
''',
    },
    'bert_layer': {
        'four_steps_erf': '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    weights = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    values = split_heads(hidden @ w_v + b_v, n_heads)
    attended = combine_heads(weights @ values) @ w_o + b_o
    x = layer_norm(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1.0 + erf(pre / np.sqrt(2.0)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
''',
        'einsum_normal_cdf': '''
from scipy.stats import norm as _normal


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    heads = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask, n_heads)
    v = split_heads(np.einsum("btd,de->bte", hidden, attention_w[2]) + attention_b[2], n_heads)
    context = combine_heads(np.einsum("bhij,bhjd->bhid", heads, v))
    x = layer_norm(hidden + context @ attention_w[3] + attention_b[3], norms[0, 0], norms[0, 1])
    pre = x @ ffn_w_in + ffn_b_in
    inner = pre * _normal.cdf(pre)
    return layer_norm(x + (inner @ ffn_w_out + ffn_b_out), norms[1, 0], norms[1, 1])
''',
    },
    'sentence_embedding': {
        'loop_masked_mean': '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                        embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    keep = mask[..., None].astype(x.dtype)
    return (x * keep).sum(axis=1) / keep.sum(axis=1)
''',
        'zip_einsum_pool': '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    hidden = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                             embedding_norm)
    for params in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        hidden = bert_layer(hidden, mask, *params, n_heads)
    weights = mask / mask.sum(axis=-1, keepdims=True)
    return np.einsum("bt,btd->bd", weights.astype(hidden.dtype), hidden)
''',
    },
    'head_patterns': {
        'np_diagonal': '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        'fancy_index': '''
def head_patterns(weights):
    n = weights.shape[-1]
    rows = np.arange(1, n)
    previous = weights[..., rows, rows - 1].mean(axis=-1)
    special = weights[..., 0].mean(axis=-1) + weights[..., n - 1].mean(axis=-1)
    eye = np.eye(n, dtype=bool)
    itself = (weights * eye).sum(axis=(-2, -1)) / n
    return np.stack([previous, special, itself], axis=-1)
''',
    },
}
