"""Blind set 4, notebook 08: A pretrained transformer (MiniLM) by hand. Written from notebooks/08_pretrained_transformer.ipynb only."""

MISTAKES = {
    "attention_matrices": {
        "no_transpose": (['transpose', '(out, in)', '.t', 'layout'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
'''),
        "transpose_stack_whole": (['transpose', 'axes', 'stack', 'each matrix'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T
'''),
        "output_not_transposed": (['output', 'w_out', 'transpose', 'dense'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
'''),
        "wrong_order": (['order', 'key', 'value', 'query'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([key_weight.T, query_weight.T, value_weight.T, output_weight.T])
'''),
        "inverse_not_transpose": (['transpose', 'inverse', 'inv'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([np.linalg.inv(w) for w in (query_weight, key_weight, value_weight, output_weight)])
'''),
    },
    "bert_embeddings": {
        "no_positions": (['position', 'position_embeddings', 'sum'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    positions = np.arange(token_ids.shape[1])
    x = word_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "no_layer_norm": (['layer norm', 'embedding_norm', 'normalis'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    positions = np.arange(token_ids.shape[1])
    x = word_embeddings[token_ids] + position_embeddings[positions] + type_embeddings[token_types]
    return x
'''),
        "gamma_beta_swapped": (['gamma', 'beta', 'row 0', 'swapped'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    positions = np.arange(token_ids.shape[1])
    x = word_embeddings[token_ids] + position_embeddings[positions] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[1], embedding_norm[0])
'''),
        "positions_indexed_by_ids": (['position', 'arange', 'ids', 'index'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    positions = np.arange(token_ids.shape[1])
    x = word_embeddings[token_ids] + position_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "type_ignored_row0": (['token_types', 'type', 'index'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    positions = np.arange(token_ids.shape[1])
    x = word_embeddings[token_ids] + position_embeddings[positions] + type_embeddings[0]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "norm_before_sum": (['order', 'after the sum', 'layer norm', 'sum'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    positions = np.arange(token_ids.shape[1])
    x = layer_norm(word_embeddings[token_ids], embedding_norm[0], embedding_norm[1])
    return x + position_embeddings[positions] + type_embeddings[token_types]
'''),
    },
    "bert_head_weights": {
        "no_mask": (['padding', 'mask', 'weight 0', 'keys'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_queries": (['keys', 'rows', 'queries', 'columns'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(mask[:, None, :, None] == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "no_bias": (['bias', 'b_query', 'b_key'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query, n_heads)
    k = split_heads(hidden @ w_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "scale_d_model": (['d_head', 'sqrt', 'd_model', 'per head'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(w_query.shape[1])
    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_multiply_scores": (['-inf', 'before the softmax', 'multiply', '0'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = scores * mask[:, None, None, :]
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_broadcast_batch_only": (['broadcast', 'axis', 'none', '(batch, 1, 1, tokens)'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(mask[None, None, :, :] == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    "bert_layer": {
        "no_residual_attention": (['residual', 'x +', 'add', 'attention'], '''
from scipy.special import erf as _erf


def _gelu(x):
    return 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0)))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    v = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ v) @ w_out + b_out
    x = layer_norm(attended, *norms[0])
    inner = _gelu(x @ ffn_w_in + ffn_b_in)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "pre_ln": (['post-ln', 'pre-ln', 'order', 'layer norm after'], '''
from scipy.special import erf as _erf


def _gelu(x):
    return 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0)))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    hidden_in = hidden
    hidden = layer_norm(hidden, *norms[0])
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    v = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ v) @ w_out + b_out
    x = hidden_in + attended
    inner = _gelu(x @ ffn_w_in + ffn_b_in)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "relu_not_gelu": (['gelu', 'relu', 'activation'], '''
from scipy.special import erf as _erf


def _gelu(x):
    return 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0)))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    v = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ v) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    inner = np.maximum(x @ ffn_w_in + ffn_b_in, 0.0)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "tanh_gelu": (['tanh', 'approximation', 'erf', 'exact'], '''
from scipy.special import erf as _erf


def _gelu(x):
    return 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0)))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    v = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ v) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    z = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * z * (1 + np.tanh(np.sqrt(2 / np.pi) * (z + 0.044715 * z ** 3)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "residual_from_hidden": (['residual', 'x', 'hidden', 'after the first norm'], '''
from scipy.special import erf as _erf


def _gelu(x):
    return 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0)))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    v = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ v) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    inner = _gelu(x @ ffn_w_in + ffn_b_in)
    return layer_norm(hidden + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "norms_swapped": (['norms[0]', 'norms[1]', 'order', 'swapped'], '''
from scipy.special import erf as _erf


def _gelu(x):
    return 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0)))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    v = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ v) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[1])
    inner = _gelu(x @ ffn_w_in + ffn_b_in)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[0])
'''),
        "no_output_bias": (['bias', 'b_out', 'output'], '''
from scipy.special import erf as _erf


def _gelu(x):
    return 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0)))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    v = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ v) @ w_out
    x = layer_norm(hidden + attended, *norms[0])
    inner = _gelu(x @ ffn_w_in + ffn_b_in)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
    },
    "sentence_embedding": {
        "mean_all_tokens": (['padding', 'real tokens', 'mask', 'mean over'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for l in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[l], attention_b[l], ffn_w_in[l], ffn_b_in[l], ffn_w_out[l],
                       ffn_b_out[l], norms[l], n_heads)
    return x.mean(axis=1)
'''),
        "cls_token": (['mean', '[cls]', 'first token', 'pool'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for l in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[l], attention_b[l], ffn_w_in[l], ffn_b_in[l], ffn_w_out[l],
                       ffn_b_out[l], norms[l], n_heads)
    return x[:, 0]
'''),
        "only_first_layer": (['layers', 'loop', 'every layer', 'each layer'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for l in range(1):
        x = bert_layer(x, mask, attention_w[l], attention_b[l], ffn_w_in[l], ffn_b_in[l], ffn_w_out[l],
                       ffn_b_out[l], norms[l], n_heads)
    m = mask[..., None].astype(x.dtype)
    return (x * m).sum(axis=1) / m.sum(axis=1)
'''),
        "last_layer_only_on_embeddings": (['loop', 'output of the previous layer', 'x =', 'chain'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for l in range(attention_w.shape[0]):
        out = bert_layer(x, mask, attention_w[l], attention_b[l], ffn_w_in[l], ffn_b_in[l], ffn_w_out[l],
                       ffn_b_out[l], norms[l], n_heads)
    x = out
    m = mask[..., None].astype(x.dtype)
    return (x * m).sum(axis=1) / m.sum(axis=1)
'''),
        "divide_by_n_tokens": (['real tokens', 'count', 'divide', 'mask.sum'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for l in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[l], attention_b[l], ffn_w_in[l], ffn_b_in[l], ffn_w_out[l],
                       ffn_b_out[l], norms[l], n_heads)
    m = mask[..., None].astype(x.dtype)
    return (x * m).sum(axis=1) / x.shape[1]
'''),
        "sum_not_mean": (['mean', 'average', 'divide'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for l in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[l], attention_b[l], ffn_w_in[l], ffn_b_in[l], ffn_w_out[l],
                       ffn_b_out[l], norms[l], n_heads)
    m = mask[..., None].astype(x.dtype)
    return (x * m).sum(axis=1)
'''),
    },
    "head_patterns": {
        "next_token_offset": (['offset', 'previous', '-1', 'next'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "special_max_not_sum": (['first key', 'last key', 'plus', 'sum'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = np.maximum(weights[..., :, 0], weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "special_rows_not_columns": (['column', 'key', 'rows', 'queries'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0, :] + weights[..., -1, :]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "previous_divided_by_n": (['n-1', 'mean over queries', 'divide', 'i = 1'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / weights.shape[-1]
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "diagonal_default_axes": (['axis1', 'axis2', 'last two axes', 'diagonal'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "sum_over_queries": (['mean', 'average', 'sum'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).sum(axis=-1)
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
        "swapaxes": '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.swapaxes(np.array([query_weight, key_weight, value_weight, output_weight]), 1, 2).copy()
''',
    },
    "bert_embeddings": {
        "index_sum": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    positions = np.arange(token_ids.shape[1])
    x = word_embeddings[token_ids] + position_embeddings[positions] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
''',
        "take_manual_norm": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[-1]
    x = (np.take(word_embeddings, token_ids, axis=0) + position_embeddings[:n][None]
         + np.take(type_embeddings, token_types, axis=0))
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
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(mask[:, None, None, :] == 1, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "additive_mask_scipy": '''
from scipy.special import softmax as _sp_softmax


def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    d_head = w_query.shape[1] // n_heads
    q = split_heads(hidden @ w_query + b_query, n_heads) / np.sqrt(d_head)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    scores = np.einsum("bhid,bhjd->bhij", q, k)
    scores = np.where(mask.astype(bool)[:, None, None, :], scores, -np.inf)
    return _sp_softmax(scores, axis=-1)
''',
    },
    "bert_layer": {
        "steps": '''
from scipy.special import erf as _erf


def _gelu(x):
    return 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0)))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_query, w_key, w_value, w_out = attention_w
    b_query, b_key, b_value, b_out = attention_b
    weights = bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
    v = split_heads(hidden @ w_value + b_value, n_heads)
    attended = combine_heads(weights @ v) @ w_out + b_out
    x = layer_norm(hidden + attended, *norms[0])
    inner = _gelu(x @ ffn_w_in + ffn_b_in)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
''',
        "einsum_inline": '''
from scipy.special import erf as _erf


def _gelu(x):
    return 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0)))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    q_w, k_w, v_w, o_w = attention_w
    q_b, k_b, v_b, o_b = attention_b
    A = bert_head_weights(hidden, q_w, q_b, k_w, k_b, mask, n_heads)
    V = split_heads(np.einsum("btd,de->bte", hidden, v_w) + v_b, n_heads)
    h = layer_norm(hidden + (combine_heads(np.einsum("bhij,bhjd->bhid", A, V)) @ o_w + o_b),
                   norms[0][0], norms[0][1])
    ff = _gelu(h @ ffn_w_in + ffn_b_in) @ ffn_w_out + ffn_b_out
    return layer_norm(h + ff, norms[1][0], norms[1][1])
''',
    },
    "sentence_embedding": {
        "loop_masked_mean": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for l in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[l], attention_b[l], ffn_w_in[l], ffn_b_in[l], ffn_w_out[l],
                       ffn_b_out[l], norms[l], n_heads)
    m = mask[..., None].astype(x.dtype)
    return (x * m).sum(axis=1) / m.sum(axis=1)
''',
        "zip_layers": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        x = bert_layer(x, mask, *layer, n_heads)
    m = mask.astype(float)
    return np.einsum("btd,bt->bd", x, m) / m.sum(axis=1, keepdims=True)
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
        "index_arrays": '''
def head_patterns(weights):
    n = weights.shape[-1]
    i = np.arange(1, n)
    previous = weights[..., i, i - 1].mean(axis=-1)
    special = weights[..., :, 0].mean(axis=-1) + weights[..., :, n - 1].mean(axis=-1)
    d = np.arange(n)
    itself = weights[..., d, d].mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
''',
    },
}
