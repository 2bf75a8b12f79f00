"""Blind set 13, notebook 08: A pretrained transformer. Written from notebooks/08_pretrained_transformer.ipynb only."""

MISTAKES = {
    'attention_matrices': {
        'no_transpose': (['transpose', '.t', '(out, in)', 'layout'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
'''),
        'concatenate_not_stack': (['stack', '(4, d_model, d_model)', 'concatenate', 'one array'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.concatenate([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
'''),
        'output_not_transposed': (['transpose', 'output', 'w_out', 'all four'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
'''),
        'in_place_transpose': (['in place', 'in-place', 'change', 'argument'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    for w in (query_weight, key_weight, value_weight, output_weight):
        w[...] = w.T.copy()
    return np.stack([query_weight, key_weight, value_weight, output_weight])
'''),
    },
    'bert_embeddings': {
        'no_token_types': (['type', 'token_types', 'token type'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n_tokens][None]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        'positions_by_id': (['position', 'token_ids', 'index', 'arange'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        'no_layer_norm': (['layer norm', 'normalis', 'normaliz', 'embedding_norm'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n_tokens][None] + type_embeddings[token_types]
    return x
'''),
        'gamma_beta_swapped': (['gamma', 'beta', 'row 0', 'swapped'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n_tokens][None] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[1], embedding_norm[0])
'''),
        'positions_from_one': (['position', 'from 0', '[cls]', 'start'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[1:n_tokens + 1][None] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
    },
    'bert_head_weights': {
        'mask_on_queries': (['keys', 'queries', 'column', 'broadcast'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    keep = np.asarray(mask).astype(bool)[:, None, :, None]
    scores = np.where(keep, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        'no_biases': (['bias', 'b_query', 'b_key'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query, n_heads)
    k = split_heads(hidden @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    keep = np.asarray(mask).astype(bool)[:, None, None, :]
    scores = np.where(keep, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        'mask_after_softmax': (['before the softmax', 'renormal', 'sum to 1', '-inf'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights * np.asarray(mask)[:, None, None, :]
'''),
        'mask_added_raw': (['-inf', 'additive', '1 and 0', 'infinity'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    keep = np.asarray(mask).astype(bool)[:, None, None, :]
    scores = scores + np.asarray(mask)[:, None, None, :]
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        'scale_d_model': (['d_head', 'sqrt', 'd_model'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(hidden.shape[-1])
    keep = np.asarray(mask).astype(bool)[:, None, None, :]
    scores = np.where(keep, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    'bert_layer': {
        'gelu_tanh': (['tanh', 'erf', 'exact', 'approximation'], '''
def gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    weights = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask, n_heads)
    v = split_heads(hidden @ attention_w[2] + attention_b[2], n_heads)
    attended = combine_heads(weights @ v) @ attention_w[3] + attention_b[3]
    x = layer_norm(hidden + attended, *norms[0])
    inner = gelu(x @ ffn_w_in + ffn_b_in)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        'relu': (['gelu', 'relu', 'erf'], '''
def gelu(x):
    return np.maximum(x, 0)


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    weights = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask, n_heads)
    v = split_heads(hidden @ attention_w[2] + attention_b[2], n_heads)
    attended = combine_heads(weights @ v) @ attention_w[3] + attention_b[3]
    x = layer_norm(hidden + attended, *norms[0])
    inner = gelu(x @ ffn_w_in + ffn_b_in)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        'no_attention_residual': (['residual', 'x +', 'hidden +', 'add'], '''
def gelu(x):
    return 0.5 * x * (1 + erf(x / np.sqrt(2)))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    weights = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask, n_heads)
    v = split_heads(hidden @ attention_w[2] + attention_b[2], n_heads)
    attended = combine_heads(weights @ v) @ attention_w[3] + attention_b[3]
    x = layer_norm(attended, *norms[0])
    inner = gelu(x @ ffn_w_in + ffn_b_in)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        'norms_swapped': (['norms[0]', 'norms[1]', 'order', 'layer norm'], '''
def gelu(x):
    return 0.5 * x * (1 + erf(x / np.sqrt(2)))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    weights = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask, n_heads)
    v = split_heads(hidden @ attention_w[2] + attention_b[2], n_heads)
    attended = combine_heads(weights @ v) @ attention_w[3] + attention_b[3]
    x = layer_norm(hidden + attended, *norms[1])#
    inner = gelu(x @ ffn_w_in + ffn_b_in)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[0])
'''),
        'gelu_no_sqrt2': (['sqrt', 'erf', 'gelu', 'sqrt(2)'], '''
def gelu(x):
    return 0.5 * x * (1 + erf(x))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    weights = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask, n_heads)
    v = split_heads(hidden @ attention_w[2] + attention_b[2], n_heads)
    attended = combine_heads(weights @ v) @ attention_w[3] + attention_b[3]
    x = layer_norm(hidden + attended, *norms[0])
    inner = gelu(x @ ffn_w_in + ffn_b_in)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        'no_output_bias': (['bias', 'b_out', 'attention_b[3]'], '''
def gelu(x):
    return 0.5 * x * (1 + erf(x / np.sqrt(2)))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    weights = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask, n_heads)
    v = split_heads(hidden @ attention_w[2] + attention_b[2], n_heads)
    attended = combine_heads(weights @ v) @ attention_w[3]
    x = layer_norm(hidden + attended, *norms[0])
    inner = gelu(x @ ffn_w_in + ffn_b_in)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
    },
    'sentence_embedding': {
        'mean_with_padding': (['padding', 'real tokens', 'mask', 'mean over'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    real = np.asarray(mask, dtype=x.dtype)[..., None]
    return x.mean(axis=1)
'''),
        'cls_token': (['mean', '[cls]', 'first token', 'pool'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    real = np.asarray(mask, dtype=x.dtype)[..., None]
    return x[:, 0]
'''),
        'layers_not_chained': (['loop', 'previous layer', 'chain', 'output of'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    embedded = x
    for layer in range(attention_w.shape[0]):
        x = bert_layer(embedded, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    real = np.asarray(mask, dtype=x.dtype)[..., None]
    return (x * real).sum(axis=1) / real.sum(axis=1)
'''),
        'divide_all_tokens': (['number of real', 'padding', 'divide', 'count'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    real = np.asarray(mask, dtype=x.dtype)[..., None]
    return (x * real).sum(axis=1) / x.shape[1]
'''),
        'off_by_one_layers': (['last layer', 'range', 'every layer', 'off by one'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(attention_w.shape[0] - 1):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    real = np.asarray(mask, dtype=x.dtype)[..., None]
    return (x * real).sum(axis=1) / real.sum(axis=1)
'''),
    },
    'head_patterns': {
        'next_token': (['offset', 'previous', '-1', 'next'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        'previous_mean_over_n': (['n - 1', 'queries 1', 'mean', 'first query'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / weights.shape[-1]
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        'special_rows_not_columns': (['key', 'column', 'query', 'first key'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0, :] + weights[..., -1, :]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        'cls_only': (['[sep]', 'last key', 'plus', 'both'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = weights[..., :, 0].mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        'diagonal_default_axes': (['axis1', 'axis2', 'last two axes', 'diagonal'], '''
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
        'stack_T': '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
''',
        'transpose_axes': '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    stacked = np.array([query_weight, key_weight, value_weight, output_weight])
    return np.transpose(stacked, (0, 2, 1)).copy()
''',
    },
    'bert_embeddings': {
        'fancy_index': '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n_tokens][None] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
''',
        'take_manual_norm': '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    positions = np.arange(token_ids.shape[-1])
    x = (np.take(word_embeddings, token_ids, axis=0) + np.take(position_embeddings, positions, axis=0)
         + np.take(type_embeddings, token_types, axis=0))
    mean = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
''',
    },
    'bert_head_weights': {
        'where_neg_inf': '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    keep = np.asarray(mask).astype(bool)[:, None, None, :]
    scores = np.where(keep, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        'einsum_additive': '''
from scipy.special import softmax as _softmax


def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    d_head = w_query.shape[1] // n_heads
    q = (hidden @ w_query + b_query).reshape(*hidden.shape[:2], n_heads, d_head)
    k = (hidden @ w_key + b_key).reshape(*hidden.shape[:2], n_heads, d_head)
    scores = np.einsum("bihd,bjhd->bhij", q, k) / np.sqrt(d_head)
    additive = np.where(np.asarray(mask)[:, None, None, :] == 0, -np.inf, 0.0)
    return _softmax(scores + additive, axis=-1)
''',
    },
    'bert_layer': {
        'four_steps': '''
def gelu(x):
    return 0.5 * x * (1 + erf(x / np.sqrt(2)))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    weights = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask, n_heads)
    v = split_heads(hidden @ attention_w[2] + attention_b[2], n_heads)
    attended = combine_heads(weights @ v) @ attention_w[3] + attention_b[3]
    x = layer_norm(hidden + attended, *norms[0])
    inner = gelu(x @ ffn_w_in + ffn_b_in)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
''',
        'loop_heads_cdf': '''
from scipy.stats import norm as _normal


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    d_head = w_q.shape[1] // n_heads
    heads = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        q = hidden @ w_q[:, cols] + b_q[cols]
        k = hidden @ w_k[:, cols] + b_k[cols]
        v = hidden @ w_v[:, cols] + b_v[cols]
        s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
        s = np.where(np.asarray(mask)[:, None, :] > 0, s, -np.inf)
        s = s - s.max(-1, keepdims=True)
        a = np.exp(s)
        a = a / a.sum(-1, keepdims=True)
        heads.append(a @ v)
    attended = np.concatenate(heads, axis=-1) @ w_o + b_o
    x = layer_norm(hidden + attended, norms[0][0], norms[0][1])
    pre = x @ ffn_w_in + ffn_b_in
    inner = pre * _normal.cdf(pre)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, norms[1][0], norms[1][1])
''',
    },
    'sentence_embedding': {
        'masked_mean': '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    real = np.asarray(mask, dtype=x.dtype)[..., None]
    return (x * real).sum(axis=1) / real.sum(axis=1)
''',
        'zip_boolean_index': '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for weights in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        x = bert_layer(x, mask, *weights, n_heads)
    rows = [x[b][np.asarray(mask[b]).astype(bool)].mean(axis=0) for b in range(x.shape[0])]
    return np.stack(rows)
''',
    },
    'head_patterns': {
        'diagonal': '''
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
    special = weights[..., [0, n - 1]].sum(axis=-1).mean(axis=-1)
    idx = np.arange(n)
    itself = weights[..., idx, idx].mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
    },
}
