"""Blind set 11, notebook 08: a pretrained transformer. Written from notebooks/08_pretrained_transformer.ipynb only."""

_HW = '''
import numpy as np
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask[:, None, None, :] > 0, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''

MISTAKES = {
    "attention_matrices": {
        "no_transpose": (["transpose", "(out, in)", "layout", ".t"], '''
import numpy as np
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
'''),
        "output_not_transposed": (["output", "w_out", "transpose", "dense"], '''
import numpy as np
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
'''),
        "inverse_not_transpose": (["inverse", "transpose", "inv"], '''
import numpy as np
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([np.linalg.inv(w) for w in (query_weight, key_weight, value_weight, output_weight)])
'''),
        "returns_tuple": (["one array", "stack", "tuple", "(4, d_model, d_model)"], '''
import numpy as np
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return (query_weight.T, key_weight.T, value_weight.T, output_weight.T)
'''),
        "concatenate_axis0": (["stack", "concatenate", "(4, d_model, d_model)", "new axis"], '''
import numpy as np
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.concatenate([query_weight.T, key_weight.T, value_weight.T, output_weight.T], axis=0)
'''),
    },
    "bert_embeddings": {
        "no_layer_norm": (["layer norm", "layer_norm", "embedding_norm", "normalis"], '''
import numpy as np
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    return word_embeddings[token_ids] + position_embeddings[np.arange(n)] + type_embeddings[token_types]
'''),
        "positions_from_ids": (["position", "arange", "token ids", "index"], '''
import numpy as np
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    x = word_embeddings[token_ids] + position_embeddings[token_ids % position_embeddings.shape[0]] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "no_type": (["type", "token_types", "segment"], '''
import numpy as np
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "gamma_beta_swapped": (["gamma", "beta", "row 0", "swapped"], '''
import numpy as np
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[1], embedding_norm[0])
'''),
        "positions_from_one": (["position", "from 0", "off by one", "arange"], '''
import numpy as np
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[1:n + 1] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
    },
    "bert_head_weights": {
        "mask_ignored": (["padding", "mask", "-inf"], '''
import numpy as np
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_queries": (["keys", "columns", "rows", "queries", "(batch, 1, 1, tokens)"], '''
import numpy as np
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask[:, None, :, None] > 0, s, -1e9)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "multiply_mask": (["multiply", "-inf", "before the softmax", "zero"], '''
import numpy as np
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = s * mask[:, None, None, :]
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "no_biases": (["bias", "b_query", "b_key"], '''
import numpy as np
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query, n_heads)
    k = split_heads(hidden @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask[:, None, None, :] > 0, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "scale_d_model": (["d_head", "d_model", "sqrt"], '''
import numpy as np
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(hidden.shape[-1])
    s = np.where(mask[:, None, None, :] > 0, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    },
    "bert_layer": {
        "gelu_tanh": (["tanh", "approximation", "erf", "gelu"], '''
import numpy as np
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    wq, wk, wv, wo = attention_w
    bq, bk, bv, bo = attention_b
    A = bert_head_weights(hidden, wq, bq, wk, bk, mask, n_heads)
    v = split_heads(hidden @ wv + bv, n_heads)
    x = layer_norm(hidden + combine_heads(A @ v) @ wo + bo, *norms[0])
    h = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h ** 3)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "relu": (["gelu", "relu", "erf"], '''
import numpy as np
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    wq, wk, wv, wo = attention_w
    bq, bk, bv, bo = attention_b
    A = bert_head_weights(hidden, wq, bq, wk, bk, mask, n_heads)
    v = split_heads(hidden @ wv + bv, n_heads)
    x = layer_norm(hidden + combine_heads(A @ v) @ wo + bo, *norms[0])
    inner = np.maximum(x @ ffn_w_in + ffn_b_in, 0)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "no_residual": (["residual", "x +", "add"], '''
import numpy as np
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    wq, wk, wv, wo = attention_w
    bq, bk, bv, bo = attention_b
    A = bert_head_weights(hidden, wq, bq, wk, bk, mask, n_heads)
    v = split_heads(hidden @ wv + bv, n_heads)
    x = layer_norm(combine_heads(A @ v) @ wo + bo, *norms[0])
    h = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * h * (1 + erf(h / np.sqrt(2)))
    return layer_norm(inner @ ffn_w_out + ffn_b_out, *norms[1])
'''),
        "pre_ln": (["post-ln", "pre-ln", "order", "after"], '''
import numpy as np
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    wq, wk, wv, wo = attention_w
    bq, bk, bv, bo = attention_b
    n = layer_norm(hidden, *norms[0])
    A = bert_head_weights(n, wq, bq, wk, bk, mask, n_heads)
    v = split_heads(n @ wv + bv, n_heads)
    x = hidden + combine_heads(A @ v) @ wo + bo
    h = layer_norm(x, *norms[1]) @ ffn_w_in + ffn_b_in
    inner = 0.5 * h * (1 + erf(h / np.sqrt(2)))
    return x + inner @ ffn_w_out + ffn_b_out
'''),
        "norms_swapped": (["norms[0]", "norms[1]", "order", "swapped"], '''
import numpy as np
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    wq, wk, wv, wo = attention_w
    bq, bk, bv, bo = attention_b
    A = bert_head_weights(hidden, wq, bq, wk, bk, mask, n_heads)
    v = split_heads(hidden @ wv + bv, n_heads)
    x = layer_norm(hidden + combine_heads(A @ v) @ wo + bo, *norms[1])
    h = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * h * (1 + erf(h / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[0])
'''),
    },
    "sentence_embedding": {
        "mean_all_tokens": (["padding", "real tokens", "mask", "mean pooling"], '''
import numpy as np
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for l in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[l], attention_b[l], ffn_w_in[l], ffn_b_in[l], ffn_w_out[l],
                       ffn_b_out[l], norms[l], n_heads)
    return x.mean(axis=1)
'''),
        "cls_token": (["mean", "cls", "first token", "pooling"], '''
import numpy as np
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for l in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[l], attention_b[l], ffn_w_in[l], ffn_b_in[l], ffn_w_out[l],
                       ffn_b_out[l], norms[l], n_heads)
    return x[:, 0]
'''),
        "first_layer_only": (["every layer", "loop", "layers", "each layer"], '''
import numpy as np
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    x = bert_layer(x, mask, attention_w[0], attention_b[0], ffn_w_in[0], ffn_b_in[0], ffn_w_out[0],
                   ffn_b_out[0], norms[0], n_heads)
    m = mask[..., None].astype(x.dtype)
    return (x * m).sum(axis=1) / m.sum(axis=1)
'''),
        "sum_not_mean": (["mean", "divide", "number of real tokens", "sum"], '''
import numpy as np
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for l in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[l], attention_b[l], ffn_w_in[l], ffn_b_in[l], ffn_w_out[l],
                       ffn_b_out[l], norms[l], n_heads)
    return (x * mask[..., None]).sum(axis=1)
'''),
        "divide_by_tokens": (["padding", "real tokens", "divide", "mask.sum"], '''
import numpy as np
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for l in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[l], attention_b[l], ffn_w_in[l], ffn_b_in[l], ffn_w_out[l],
                       ffn_b_out[l], norms[l], n_heads)
    return (x * mask[..., None]).mean(axis=1)
'''),
    },
    "head_patterns": {
        "next_token": (["previous", "offset", "-1", "next"], '''
import numpy as np
def head_patterns(weights):
    prev = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "special_rows": (["key", "column", "row", "first key"], '''
import numpy as np
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0, :] + weights[..., -1, :]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "prev_mean_over_all": (["n-1", "queries 1", "mean over", "divide"], '''
import numpy as np
def head_patterns(weights):
    n = weights.shape[-1]
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / n
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "cls_only": (["sep", "last key", "plus", "cls"], '''
import numpy as np
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = weights[..., :, 0].mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "diagonal_default_axes": (["axis1", "axis2", "leading", "diagonal"], '''
import numpy as np
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
    },
}

VARIANTS = {
    "attention_matrices": {
        "stack_T": '''
import numpy as np
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
''',
        "swapaxes": '''
import numpy as np
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.swapaxes(np.array([query_weight, key_weight, value_weight, output_weight]), 1, 2).copy()
''',
    },
    "bert_embeddings": {
        "index": '''
import numpy as np
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[np.arange(n)][None] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
''',
        "take_manual_norm": '''
import numpy as np
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = (np.take(word_embeddings, token_ids, axis=0) + position_embeddings[:n]
         + np.take(type_embeddings, token_types, axis=0))
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
''',
    },
    "bert_head_weights": {
        "where_inf": _HW,
        "additive": '''
import numpy as np
from scipy.special import softmax as _sm
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = np.einsum("bhid,bhjd->bhij", q, k) / np.sqrt(q.shape[-1])
    add = np.where(np.asarray(mask)[:, None, None, :] == 0, -np.inf, 0.0)
    return _sm(s + add, axis=-1)
''',
    },
    "bert_layer": {
        "steps": '''
import numpy as np
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    wq, wk, wv, wo = attention_w
    bq, bk, bv, bo = attention_b
    A = bert_head_weights(hidden, wq, bq, wk, bk, mask, n_heads)
    v = split_heads(hidden @ wv + bv, n_heads)
    attended = combine_heads(A @ v) @ wo + bo
    x = layer_norm(hidden + attended, *norms[0])
    h = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * h * (1 + erf(h / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
''',
        "scipy_norm_cdf": '''
import numpy as np
from scipy.stats import norm as _normal
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    A = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask, n_heads)
    v = split_heads(hidden @ attention_w[2] + attention_b[2], n_heads)
    x = layer_norm(hidden + combine_heads(A @ v) @ attention_w[3] + attention_b[3], norms[0, 0], norms[0, 1])
    h = x @ ffn_w_in + ffn_b_in
    inner = h * _normal.cdf(h)
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, norms[1, 0], norms[1, 1])
''',
    },
    "sentence_embedding": {
        "masked_mean": '''
import numpy as np
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for l in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[l], attention_b[l], ffn_w_in[l], ffn_b_in[l], ffn_w_out[l],
                       ffn_b_out[l], norms[l], n_heads)
    m = mask[..., None].astype(x.dtype)
    return (x * m).sum(axis=1) / m.sum(axis=1)
''',
        "zip_layers": '''
import numpy as np
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out,
                       norms, n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        x = bert_layer(x, mask, *layer, n_heads)
    w = np.asarray(mask, dtype=x.dtype)
    return np.einsum("bt,btd->bd", w, x) / w.sum(axis=1, keepdims=True)
''',
    },
    "head_patterns": {
        "diagonal": '''
import numpy as np
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
''',
        "index_arrays": '''
import numpy as np
def head_patterns(weights):
    n = weights.shape[-1]
    i = np.arange(n)
    prev = weights[..., i[1:], i[:-1]].mean(axis=-1)
    special = weights[..., :, [0, -1]].sum(axis=-1).mean(axis=-1)
    own = weights[..., i, i].mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
''',
    },
}
