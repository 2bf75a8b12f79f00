"""Blind set 15, notebook 08: Your attention inside a pretrained transformer. Written from notebooks/08_pretrained_transformer.ipynb only."""

MISTAKES = {
    "attention_matrices": {
        "no_transpose": (['transpose', '(out, in)', '.t'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
'''),
        "transpose_whole_stack": (['axes', 'last two', '(4, d_model, d_model)'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T
'''),
        "returns_tuple": (['one array', 'stack', 'tuple'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return query_weight.T, key_weight.T, value_weight.T
'''),
        "output_not_transposed": (['output', 'w_out', 'transpose'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
'''),
        "key_value_swapped": (['order', 'key', 'value'], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, value_weight.T, key_weight.T, output_weight.T])
'''),
    },
    "bert_embeddings": {
        "no_type_embeddings": (['token type', 'type_embeddings', 'segment'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[np.arange(n_tokens)]
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
'''),
        "positions_from_ids": (['position', 'arange', 'token ids'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[token_ids] + type_embeddings[token_types]
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
'''),
        "no_layer_norm": (['layer norm', 'normalis', 'embedding_norm'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[np.arange(n_tokens)] + type_embeddings[token_types]
    return x
'''),
        "gamma_beta_swapped": (['gamma', 'beta', 'row 0'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[np.arange(n_tokens)] + type_embeddings[token_types]
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * embedding_norm[1] + embedding_norm[0]
'''),
        "norm_over_tokens": (['axis', 'last axis', 'features'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[np.arange(n_tokens)] + type_embeddings[token_types]
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
'''),
        "std_instead_of_var": (['variance', 'square root', 'sqrt'], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[np.arange(n_tokens)] + type_embeddings[token_types]
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / (var + 1e-12) * embedding_norm[0] + embedding_norm[1]
'''),
    },
    "bert_head_weights": {
        "mask_on_queries": (['keys', 'queries', 'columns'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = hidden @ w_query + b_query
    k = hidden @ w_key + b_key
    b, t, d = q.shape
    dh = d // n_heads
    q = q.reshape(b, t, n_heads, dh).transpose(0, 2, 1, 3)
    k = k.reshape(b, t, n_heads, dh).transpose(0, 2, 1, 3)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(dh)
    scores = np.where(mask[:, None, :, None] > 0, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "no_bias": (['bias', 'b_query', 'b_key'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = hidden @ w_query
    k = hidden @ w_key
    b, t, d = q.shape
    dh = d // n_heads
    q = q.reshape(b, t, n_heads, dh).transpose(0, 2, 1, 3)
    k = k.reshape(b, t, n_heads, dh).transpose(0, 2, 1, 3)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(dh)
    scores = np.where(mask[:, None, None, :] > 0, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "scale_by_d_model": (['d_head', 'sqrt', 'd_model'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = hidden @ w_query + b_query
    k = hidden @ w_key + b_key
    b, t, d = q.shape
    dh = d // n_heads
    q = q.reshape(b, t, n_heads, dh).transpose(0, 2, 1, 3)
    k = k.reshape(b, t, n_heads, dh).transpose(0, 2, 1, 3)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d)
    scores = np.where(mask[:, None, None, :] > 0, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_after_softmax": (['renormal', 'before the softmax', 'sum to 1'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = hidden @ w_query + b_query
    k = hidden @ w_key + b_key
    b, t, d = q.shape
    dh = d // n_heads
    q = q.reshape(b, t, n_heads, dh).transpose(0, 2, 1, 3)
    k = k.reshape(b, t, n_heads, dh).transpose(0, 2, 1, 3)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(dh)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True) * mask[:, None, None, :]
'''),
        "heads_reshape_no_transpose": (['transpose', 'split', 'heads'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = hidden @ w_query + b_query
    k = hidden @ w_key + b_key
    b, t, d = q.shape
    dh = d // n_heads
    q = q.reshape(b, n_heads, t, dh)
    k = k.reshape(b, n_heads, t, dh)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(dh)
    scores = np.where(mask[:, None, None, :] > 0, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_inverted": (['padding', '1 and 0', 'invert'], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = hidden @ w_query + b_query
    k = hidden @ w_key + b_key
    b, t, d = q.shape
    dh = d // n_heads
    q = q.reshape(b, t, n_heads, dh).transpose(0, 2, 1, 3)
    k = k.reshape(b, t, n_heads, dh).transpose(0, 2, 1, 3)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(dh)
    scores = np.where(mask[:, None, None, :] == 0, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    "bert_layer": {
        "tanh_gelu": (['tanh', 'erf', 'exact'], '''
from scipy.special import erf as _erf

def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    def _ln(x, g, b):
        m = x.mean(axis=-1, keepdims=True)
        v = ((x - m) ** 2).mean(axis=-1, keepdims=True)
        return (x - m) / np.sqrt(v + 1e-12) * g + b

    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    bsz, t, d = hidden.shape
    dh = d // n_heads

    def _split(x):
        return x.reshape(bsz, t, n_heads, dh).transpose(0, 2, 1, 3)

    q, k, v = _split(hidden @ w_q + b_q), _split(hidden @ w_k + b_k), _split(hidden @ w_v + b_v)
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(dh)
    s = np.where(mask[:, None, None, :] > 0, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    attended = (a @ v).transpose(0, 2, 1, 3).reshape(bsz, t, d) @ w_o + b_o
    x = _ln(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1 + np.tanh(np.sqrt(2 / np.pi) * (pre + 0.044715 * pre ** 3)))
    return _ln(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "relu": (['gelu', 'relu', 'erf'], '''
from scipy.special import erf as _erf

def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    def _ln(x, g, b):
        m = x.mean(axis=-1, keepdims=True)
        v = ((x - m) ** 2).mean(axis=-1, keepdims=True)
        return (x - m) / np.sqrt(v + 1e-12) * g + b

    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    bsz, t, d = hidden.shape
    dh = d // n_heads

    def _split(x):
        return x.reshape(bsz, t, n_heads, dh).transpose(0, 2, 1, 3)

    q, k, v = _split(hidden @ w_q + b_q), _split(hidden @ w_k + b_k), _split(hidden @ w_v + b_v)
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(dh)
    s = np.where(mask[:, None, None, :] > 0, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    attended = (a @ v).transpose(0, 2, 1, 3).reshape(bsz, t, d) @ w_o + b_o
    x = _ln(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = np.maximum(pre, 0)
    return _ln(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "no_attention_residual": (['residual', 'x + attended', 'add'], '''
from scipy.special import erf as _erf

def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    def _ln(x, g, b):
        m = x.mean(axis=-1, keepdims=True)
        v = ((x - m) ** 2).mean(axis=-1, keepdims=True)
        return (x - m) / np.sqrt(v + 1e-12) * g + b

    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    bsz, t, d = hidden.shape
    dh = d // n_heads

    def _split(x):
        return x.reshape(bsz, t, n_heads, dh).transpose(0, 2, 1, 3)

    q, k, v = _split(hidden @ w_q + b_q), _split(hidden @ w_k + b_k), _split(hidden @ w_v + b_v)
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(dh)
    s = np.where(mask[:, None, None, :] > 0, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    attended = (a @ v).transpose(0, 2, 1, 3).reshape(bsz, t, d) @ w_o + b_o
    x = _ln(attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1 + _erf(pre / np.sqrt(2)))
    return _ln(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "pre_ln": (['post-ln', 'after', 'pre-ln', 'order'], '''
from scipy.special import erf as _erf

def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    def _ln(x, g, b):
        m = x.mean(axis=-1, keepdims=True)
        v = ((x - m) ** 2).mean(axis=-1, keepdims=True)
        return (x - m) / np.sqrt(v + 1e-12) * g + b

    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    bsz, t, d = hidden.shape
    dh = d // n_heads

    def _split(x):
        return x.reshape(bsz, t, n_heads, dh).transpose(0, 2, 1, 3)

    q, k, v = _split(hidden @ w_q + b_q), _split(hidden @ w_k + b_k), _split(hidden @ w_v + b_v)
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(dh)
    s = np.where(mask[:, None, None, :] > 0, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    attended = (a @ v).transpose(0, 2, 1, 3).reshape(bsz, t, d) @ w_o + b_o
    x = hidden + attended
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1 + _erf(pre / np.sqrt(2)))
    return _ln(x, *norms[0]) + _ln(inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "norms_swapped": (['norms[0]', 'norms[1]', 'order'], '''
from scipy.special import erf as _erf

def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    def _ln(x, g, b):
        m = x.mean(axis=-1, keepdims=True)
        v = ((x - m) ** 2).mean(axis=-1, keepdims=True)
        return (x - m) / np.sqrt(v + 1e-12) * g + b

    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    bsz, t, d = hidden.shape
    dh = d // n_heads

    def _split(x):
        return x.reshape(bsz, t, n_heads, dh).transpose(0, 2, 1, 3)

    q, k, v = _split(hidden @ w_q + b_q), _split(hidden @ w_k + b_k), _split(hidden @ w_v + b_v)
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(dh)
    s = np.where(mask[:, None, None, :] > 0, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    attended = (a @ v).transpose(0, 2, 1, 3).reshape(bsz, t, d) @ w_o + b_o
    x = _ln(hidden + attended, *norms[1])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1 + _erf(pre / np.sqrt(2)))
    return _ln(x + inner @ ffn_w_out + ffn_b_out, *norms[0])
'''),
        "no_padding_mask": (['padding', 'mask'], '''
from scipy.special import erf as _erf

def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    def _ln(x, g, b):
        m = x.mean(axis=-1, keepdims=True)
        v = ((x - m) ** 2).mean(axis=-1, keepdims=True)
        return (x - m) / np.sqrt(v + 1e-12) * g + b

    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    bsz, t, d = hidden.shape
    dh = d // n_heads

    def _split(x):
        return x.reshape(bsz, t, n_heads, dh).transpose(0, 2, 1, 3)

    q, k, v = _split(hidden @ w_q + b_q), _split(hidden @ w_k + b_k), _split(hidden @ w_v + b_v)
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(dh)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    attended = (a @ v).transpose(0, 2, 1, 3).reshape(bsz, t, d) @ w_o + b_o
    x = _ln(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1 + _erf(pre / np.sqrt(2)))
    return _ln(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
    },
    "sentence_embedding": {
        "mean_over_padding": (['padding', 'real tokens', 'mask'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for i in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    return x.mean(axis=1)
'''),
        "sum_not_mean": (['mean', 'divide', 'number of real tokens'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for i in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    m = mask[:, :, None].astype(x.dtype)
    return (x * m).sum(axis=1)
'''),
        "divide_by_all_tokens": (['number of real tokens', 'divide', 'padding'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for i in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    m = mask[:, :, None].astype(x.dtype)
    return (x * m).sum(axis=1) / x.shape[1]
'''),
        "cls_token": (['mean', 'cls', 'first token'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for i in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    return x[:, 0]
'''),
        "layers_not_chained": (['loop', 'previous layer', 'output'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    emb = x
    for i in range(len(attention_w)):
        x = bert_layer(emb, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    m = mask[:, :, None].astype(x.dtype)
    return (x * m).sum(axis=1) / m.sum(axis=1)
'''),
        "first_layer_only": (['layers', 'loop', 'every layer'], '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for i in range(1):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    m = mask[:, :, None].astype(x.dtype)
    return (x * m).sum(axis=1) / m.sum(axis=1)
'''),
    },
    "head_patterns": {
        "next_token_offset": (['offset', 'previous', 'next', '-1'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "cls_only": (['last key', '[sep]', 'first key plus'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = weights[..., :, 0].mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "rows_instead_of_columns": (['key', 'column', 'row'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0, :] + weights[..., -1, :]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "previous_divided_by_n": (['n-1', 'queries 1', 'divide', 'first query'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / weights.shape[-1]
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself], axis=-1)
'''),
        "stack_first_axis": (['axis', 'last axis', '(..., 3)'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([previous, special, itself])
'''),
        "diagonal_default_axes": (['axis1', 'axis2', 'last two'], '''
def head_patterns(weights):
    previous = np.diagonal(weights, offset=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    itself = np.diagonal(weights).mean(axis=-1)
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
    return np.transpose(np.array([query_weight, key_weight, value_weight, output_weight]), (0, 2, 1)).copy()
''',
    },
    "bert_embeddings": {
        "index_tables": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n_tokens = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[np.arange(n_tokens)] + type_embeddings[token_types]
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
''',
        "np_take": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    batch, n_tokens = token_ids.shape
    positions = np.broadcast_to(np.arange(n_tokens), (batch, n_tokens))
    x = (np.take(word_embeddings, token_ids, axis=0) + np.take(position_embeddings, positions, axis=0)
         + np.take(type_embeddings, token_types, axis=0))
    x = x - x.mean(axis=-1, keepdims=True)
    return x / np.sqrt(np.var(x, axis=-1, keepdims=True) + 1e-12) * embedding_norm[0] + embedding_norm[1]
''',
    },
    "bert_head_weights": {
        "where_inf": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = hidden @ w_query + b_query
    k = hidden @ w_key + b_key
    b, t, d = q.shape
    dh = d // n_heads
    q = q.reshape(b, t, n_heads, dh).transpose(0, 2, 1, 3)
    k = k.reshape(b, t, n_heads, dh).transpose(0, 2, 1, 3)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(dh)
    scores = np.where(mask[:, None, None, :] > 0, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "einsum_scipy": '''
from scipy.special import softmax as _sp_softmax

def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = np.einsum("btd,de->bte", hidden, w_query) + b_query
    k = np.einsum("btd,de->bte", hidden, w_key) + b_key
    b, t, d = q.shape
    dh = d // n_heads
    q = q.reshape(b, t, n_heads, dh)
    k = k.reshape(b, t, n_heads, dh)
    scores = np.einsum("bihd,bjhd->bhij", q, k) / dh ** 0.5
    scores = scores + np.where(mask.astype(bool), 0.0, -np.inf)[:, None, None, :]
    return _sp_softmax(scores, axis=-1)
''',
    },
    "bert_layer": {
        "self_contained": '''
from scipy.special import erf as _erf

def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    def _ln(x, g, b):
        m = x.mean(axis=-1, keepdims=True)
        v = ((x - m) ** 2).mean(axis=-1, keepdims=True)
        return (x - m) / np.sqrt(v + 1e-12) * g + b

    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    bsz, t, d = hidden.shape
    dh = d // n_heads

    def _split(x):
        return x.reshape(bsz, t, n_heads, dh).transpose(0, 2, 1, 3)

    q, k, v = _split(hidden @ w_q + b_q), _split(hidden @ w_k + b_k), _split(hidden @ w_v + b_v)
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(dh)
    s = np.where(mask[:, None, None, :] > 0, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    attended = (a @ v).transpose(0, 2, 1, 3).reshape(bsz, t, d) @ w_o + b_o
    x = _ln(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * pre * (1 + _erf(pre / np.sqrt(2)))
    return _ln(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
''',
        "helpers": '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    weights = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask, n_heads)
    values = split_heads(hidden @ attention_w[2] + attention_b[2], n_heads)
    attended = combine_heads(weights @ values) @ attention_w[3] + attention_b[3]
    x = layer_norm(hidden + attended, *norms[0])
    pre = x @ ffn_w_in + ffn_b_in
    inner = pre * 0.5 * (1.0 + erf(pre / 2 ** 0.5))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
''',
    },
    "sentence_embedding": {
        "masked_mean": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for i in range(len(attention_w)):
        x = bert_layer(x, mask, attention_w[i], attention_b[i], ffn_w_in[i], ffn_b_in[i], ffn_w_out[i],
                       ffn_b_out[i], norms[i], n_heads)
    m = mask[:, :, None].astype(x.dtype)
    return (x * m).sum(axis=1) / m.sum(axis=1)
''',
        "boolean_index": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        x = bert_layer(x, mask, *layer, n_heads)
    return np.stack([x[b, mask[b].astype(bool)].mean(axis=0) for b in range(x.shape[0])])
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
        "fancy_index": '''
def head_patterns(weights):
    n = weights.shape[-1]
    rows = np.arange(1, n)
    previous = weights[..., rows, rows - 1].mean(axis=-1)
    special = weights[..., [0, n - 1]].sum(axis=-1).mean(axis=-1)
    eye = np.eye(n, dtype=bool)
    itself = (weights * eye).sum(axis=(-2, -1)) / n
    return np.stack([previous, special, itself], axis=-1)
''',
    },
}
