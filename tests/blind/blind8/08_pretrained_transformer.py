"""Blind set 8, notebook 08: Your attention inside a pretrained transformer. Written from notebooks/08_pretrained_transformer.ipynb only."""

MISTAKES = {
    "attention_matrices": {
        "no_transpose": (['transpose', '.t', '(out, in)', 'layout'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
'''),
        "transpose_whole_stack": (['axes', 'transpose each', 'stack', '(4, d_model, d_model)'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T
'''),
        "output_not_transposed": (['output', 'w_out', 'dense', 'transpose'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
'''),
        "order_swapped": (['order', 'query', 'key', 'value'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([key_weight.T, query_weight.T, value_weight.T, output_weight.T])
'''),
        "swap_first_axes": (['swapaxes', 'last two', 'axes', '-1, -2'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.swapaxes(np.stack([query_weight, key_weight, value_weight, output_weight]), 0, 1)
'''),
    },
    "bert_embeddings": {
        "positions_by_ids": (['position', 'arange', 'counted from 0', 'index'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[-1]
    x = word_embeddings[token_ids] + position_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "no_type_embedding": (['type', 'token_types', 'segment'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[-1]
    x = word_embeddings[token_ids] + position_embeddings[:n_tokens]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "no_layer_norm": (['layer norm', 'layer_norm', 'normalis'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[-1]
    x = word_embeddings[token_ids] + position_embeddings[:n_tokens] + type_embeddings[token_types]
    return x
'''),
        "gamma_beta_swapped": (['gamma', 'beta', 'row 0', 'swapped'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[-1]
    x = word_embeddings[token_ids] + position_embeddings[:n_tokens] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[1], embedding_norm[0])
'''),
        "positions_from_one": (['position 0', '[cls]', 'from 0', 'off by one'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[-1]
    x = word_embeddings[token_ids] + position_embeddings[1:n_tokens + 1] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "norm_before_adding": (['sum', 'after', 'normalise the sum', 'before'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[-1]
    words = layer_norm(word_embeddings[token_ids], embedding_norm[0], embedding_norm[1])
    return words + position_embeddings[:n_tokens] + type_embeddings[token_types]
'''),
    },
    "bert_head_weights": {
        "biases_ignored": (['bias', 'b_query', 'b_key'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query, n_heads)
    k = split_heads(hidden @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(mask[:, None, None, :].astype(bool), scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_on_queries": (['keys', 'columns', 'queries', 'mask[:, none, none, :]'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(mask[:, None, :, None].astype(bool), scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_after_softmax": (['before the softmax', 'renormalis', 'sum to 1', 'after'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True) * mask[:, None, None, :]
'''),
        "scale_by_d_model": (['d_head', 'd_model', 'sqrt', 'per head'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(hidden.shape[-1])
    scores = np.where(mask[:, None, None, :].astype(bool), scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_added_as_is": (['-inf', 'additive', '1 and 0', 'where'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = scores + mask[:, None, None, :]
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "no_max_subtraction": (['overflow', 'maximum', 'max', 'stable'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(mask[:, None, None, :].astype(bool), scores, -np.inf)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    "bert_layer": {
        "tanh_gelu": (['erf', 'tanh', 'exact', 'approximation'], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    z = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * z * (1 + np.tanh(np.sqrt(2 / np.pi) * (z + 0.044715 * z ** 3)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "relu_not_gelu": (['gelu', 'relu', 'erf'], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    inner = np.maximum(0, x @ ffn_w_in + ffn_b_in)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "no_attention_residual": (['residual', 'x +', 'add the input', 'hidden +'], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out + b_out
    x = layer_norm(attended, *norms[0])
    inner = 0.5 * (x @ ffn_w_in + ffn_b_in) * (1 + erf((x @ ffn_w_in + ffn_b_in) / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "pre_ln": (['post-ln', 'pre-ln', 'after', 'order'], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    h = layer_norm(hidden, *norms[0])
    weights = bert_head_weights(h, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(h @ w_value + b_value, n_heads)
    x = hidden + combine_heads(weights @ values) @ w_out + b_out
    z = layer_norm(x, *norms[1]) @ ffn_w_in + ffn_b_in
    inner = 0.5 * z * (1 + erf(z / np.sqrt(2)))
    return x + inner @ ffn_w_out + ffn_b_out
'''),
        "norms_swapped": (['norms[0]', 'norms[1]', 'order', 'swapped'], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[1])
    inner = 0.5 * (x @ ffn_w_in + ffn_b_in) * (1 + erf((x @ ffn_w_in + ffn_b_in) / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[0])
'''),
        "output_bias_forgotten": (['bias', 'b_out', 'attention_b[3]'], '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out
    x = layer_norm(hidden + attended, *norms[0])
    inner = 0.5 * (x @ ffn_w_in + ffn_b_in) * (1 + erf((x @ ffn_w_in + ffn_b_in) / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
    },
    "sentence_embedding": {
        "mean_includes_padding": (['padding', 'real tokens', 'mask', 'mean pooling'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    return x.mean(axis=1)
'''),
        "cls_token": (['mean', '[cls]', 'first token', 'pool'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    return x[:, 0]
'''),
        "always_layer_zero": (['layer', 'loop', 'index', 'each layer'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[0], attention_b[0], ffn_w_in[0], ffn_b_in[0],
                       ffn_w_out[0], ffn_b_out[0], norms[0], n_heads)
    m = mask[..., None].astype(x.dtype)
    return (x * m).sum(axis=1) / m.sum(axis=1)
'''),
        "layers_from_embeddings": (['previous', 'output', 'chain', 'feed'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(attention_w.shape[0]):
        out = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                         ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    m = mask[..., None].astype(out.dtype)
    return (out * m).sum(axis=1) / m.sum(axis=1)
'''),
        "divide_by_all_tokens": (['divide', 'number of real tokens', 'mask.sum', 'count'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    m = mask[..., None].astype(x.dtype)
    return (x * m).sum(axis=1) / x.shape[1]
'''),
        "last_layer_skipped": (['last layer', 'range', 'off by one', 'every layer'], '''
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
        "next_token_offset": (['offset', 'previous', 'below the diagonal', '-1'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "previous_over_all_queries": (['n - 1', 'queries 1', 'first query', 'mean over'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / weights.shape[-1]
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "special_rows": (['keys', 'column', 'rows', 'query'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0, :] + weights[..., -1, :]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "cls_only": (['[sep]', 'last key', 'plus', 'both'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = weights[..., :, 0].mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "stack_axis0": (['axis', 'last axis', '(..., 3)', 'stack'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself])
'''),
        "diagonal_default_axes": (['axis1', 'axis2', 'last two axes', 'leading'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1).mean(axis=0)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights).mean(axis=0)
    return np.stack([previous, special, itself], axis=-1)
'''),
    },
}

VARIANTS = {
    "attention_matrices": {
        "stack_T": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
''',
        "transpose_axes": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    stacked = np.array([query_weight, key_weight, value_weight, output_weight])
    return np.transpose(stacked, (0, 2, 1)).copy()
''',
    },
    "bert_embeddings": {
        "fancy_index": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[-1]
    x = word_embeddings[token_ids] + position_embeddings[:n_tokens] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
''',
        "take_manual_norm": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    positions = np.arange(token_ids.shape[1])
    x = (np.take(word_embeddings, token_ids, axis=0) + np.take(position_embeddings, positions, axis=0)[None]
         + np.take(type_embeddings, token_types, axis=0))
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    gamma, beta = embedding_norm
    return (x - mean) / np.sqrt(var + 1e-12) * gamma + beta
''',
    },
    "bert_head_weights": {
        "where_inf": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(mask[:, None, None, :].astype(bool), scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "einsum_scipy": '''
from scipy.special import softmax as _softmax


def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    batch, tokens, d_model = hidden.shape
    d_head = d_model // n_heads
    q = (hidden @ w_query + b_query).reshape(batch, tokens, n_heads, d_head)
    k = (hidden @ w_key + b_key).reshape(batch, tokens, n_heads, d_head)
    scores = np.einsum("bihd,bjhd->bhij", q, k) / np.sqrt(d_head)
    scores = scores + np.where(mask == 0, -np.inf, 0.0)[:, None, None, :]
    return _softmax(scores, axis=-1)
''',
    },
    "bert_layer": {
        "steps": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    values = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ values) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    inner = 0.5 * (x @ ffn_w_in + ffn_b_in) * (1 + erf((x @ ffn_w_in + ffn_b_in) / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
''',
        "einsum_gelu_helper": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    def gelu(z):
        return z * 0.5 * (1.0 + erf(z / np.sqrt(2.0)))

    projected = [hidden @ attention_w[i] + attention_b[i] for i in range(3)]
    weights = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask, n_heads)
    heads = np.einsum("bhij,bhjd->bhid", weights, split_heads(projected[2], n_heads))
    attended = combine_heads(heads) @ attention_w[3] + attention_b[3]
    gamma1, beta1 = norms[0]
    x = layer_norm(hidden + attended, gamma1, beta1)
    ffn = gelu(x @ ffn_w_in + ffn_b_in) @ ffn_w_out + ffn_b_out
    gamma2, beta2 = norms[1]
    return layer_norm(x + ffn, gamma2, beta2)
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
        "zip_boolean_index": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    hidden = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                             embedding_norm)
    for weights in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        hidden = bert_layer(hidden, mask, *weights, n_heads)
    return np.stack([hidden[b][mask[b] == 1].mean(axis=0) for b in range(hidden.shape[0])])
''',
    },
    "head_patterns": {
        "diagonal": '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
        "fancy_index_trace": '''
def head_patterns(weights):
    n = weights.shape[-1]
    i = np.arange(1, n)
    previous = weights[..., i, i - 1].sum(axis=-1) / (n - 1)
    special = weights[..., [0, -1]].sum(axis=(-2, -1)) / n
    itself = np.trace(weights, axis1=-2, axis2=-1) / n
    return np.concatenate([previous[..., None], special[..., None], itself[..., None]], axis=-1)
''',
    },
}
