"""Blind set 3, notebook 08: a pretrained transformer (MiniLM) by hand. Written from notebooks/08_pretrained_transformer.ipynb only."""

_LAYER = '''
def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    weights = bert_head_weights(hidden, attention_w[0], attention_b[0], attention_w[1], attention_b[1], mask, n_heads)
    values = split_heads(hidden @ attention_w[2] + attention_b[2], n_heads)
    attended = combine_heads(weights @ values) @ attention_w[3] + attention_b[3]
    x = layer_norm(hidden + attended, *norms[0])
    inner = x @ ffn_w_in + ffn_b_in
    inner = 0.5 * inner * (1 + erf(inner / np.sqrt(2)))
    return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])
'''

_SENTENCE = '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for layer in range(attention_w.shape[0]):
        x = bert_layer(x, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],
                       ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
    real = mask[..., None].astype(x.dtype)
    return (x * real).sum(axis=1) / real.sum(axis=1)
'''


def _edit(base, *pairs):
    for old, new in zip(pairs[::2], pairs[1::2], strict=True):
        assert old in base, old
        base = base.replace(old, new)
    return base


MISTAKES = {
    "attention_matrices": {
        "no_transpose": (["transpose", "(out, in)", ".t", "layout"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight])
'''),
        "transpose_whole_stack": (["axes", "stack", "transpose", "(4, d_model, d_model)"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight, key_weight, value_weight, output_weight]).T
'''),
        "output_not_transposed": (["output", "w_out", "transpose", "all four"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
'''),
        "wrong_order": (["order", "key", "value", "query"], '''
def attention_matrices(query_weight, key_weight, value_weight, output_weight):
    return np.stack([query_weight.T, value_weight.T, key_weight.T, output_weight.T])
'''),
    },
    "bert_embeddings": {
        "positions_from_1": (["position", "from 0", "[cls]", "counted"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[1:n + 1] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "no_layer_norm": (["layer norm", "normalis", "layernorm"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    return word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
'''),
        "gamma_beta_swapped": (["gamma", "beta", "row 0", "row 1"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[1], embedding_norm[0])
'''),
        "position_by_token_id": (["position", "token ids", "index", "place"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    x = word_embeddings[token_ids] + position_embeddings[token_ids] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
        "no_type_embedding": (["type", "token_types", "segment"], '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[0]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
'''),
    },
    "bert_head_weights": {
        "mask_queries": (["keys", "columns", "rows", "queries"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask[:, None, :, None] == 1, s, -1e9)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "mask_added": (["-inf", "add", "exactly 0", "1 and 0"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]) + mask[:, None, None, :]
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "no_biases": (["bias", "b_query", "b_key"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query, n_heads)
    k = split_heads(hidden @ w_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask[:, None, None, :] == 1, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "scale_d_model": (["d_head", "d_model", "sqrt"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(hidden.shape[-1])
    s = np.where(mask[:, None, None, :] == 1, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
        "zero_after_softmax": (["after the softmax", "sum to 1", "renormal", "before the softmax"], '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True) * mask[:, None, None, :]
'''),
    },
    "bert_layer": {
        "tanh_gelu": (["tanh", "approximation", "erf", "exact"], _edit(_LAYER,
            "inner = 0.5 * inner * (1 + erf(inner / np.sqrt(2)))",
            "inner = 0.5 * inner * (1 + np.tanh(np.sqrt(2 / np.pi) * (inner + 0.044715 * inner ** 3)))")),
        "relu": (["gelu", "relu"], _edit(_LAYER,
            "inner = 0.5 * inner * (1 + erf(inner / np.sqrt(2)))", "inner = np.maximum(inner, 0)")),
        "no_first_residual": (["residual", "x + attended", "add", "input"], _edit(_LAYER,
            "x = layer_norm(hidden + attended, *norms[0])", "x = layer_norm(attended, *norms[0])")),
        "second_residual_from_hidden": (["residual", "hidden", "first layer norm", "x"], _edit(_LAYER,
            "return layer_norm(x + inner @ ffn_w_out", "return layer_norm(hidden + inner @ ffn_w_out")),
        "no_output_bias": (["bias", "b_out", "attention_b[3]"], _edit(_LAYER,
            "@ attention_w[3] + attention_b[3]", "@ attention_w[3]")),
        "pre_ln": (["post", "pre-ln", "after adding", "order"], _edit(_LAYER,
            "    weights = bert_head_weights(hidden,", "    normed = layer_norm(hidden, *norms[0])\n    weights = bert_head_weights(normed,",
            "values = split_heads(hidden @", "values = split_heads(normed @",
            "x = layer_norm(hidden + attended, *norms[0])", "x = hidden + attended",
            "inner = x @ ffn_w_in", "inner = layer_norm(x, *norms[1]) @ ffn_w_in",
            "return layer_norm(x + inner @ ffn_w_out + ffn_b_out, *norms[1])", "return x + inner @ ffn_w_out + ffn_b_out")),
    },
    "sentence_embedding": {
        "mean_with_padding": (["padding", "real tokens", "mask", "mean pooling"], _edit(_SENTENCE,
            "    real = mask[..., None].astype(x.dtype)\n    return (x * real).sum(axis=1) / real.sum(axis=1)",
            "    return x.mean(axis=1)")),
        "cls_token": (["mean", "cls", "pooling", "average"], _edit(_SENTENCE,
            "    real = mask[..., None].astype(x.dtype)\n    return (x * real).sum(axis=1) / real.sum(axis=1)",
            "    return x[:, 0]")),
        "first_layer_only": (["each layer", "layer index", "loop", "layers"], _edit(_SENTENCE,
            "attention_w[layer], attention_b[layer], ffn_w_in[layer], ffn_b_in[layer],\n                       ffn_w_out[layer], ffn_b_out[layer], norms[layer]",
            "attention_w[0], attention_b[0], ffn_w_in[0], ffn_b_in[0],\n                       ffn_w_out[0], ffn_b_out[0], norms[0]")),
        "divide_by_all_tokens": (["divide", "number of real tokens", "count", "padding"], _edit(_SENTENCE,
            "/ real.sum(axis=1)", "/ x.shape[1]")),
        "skip_last_layer": (["last layer", "off-by-one", "range", "every layer"], _edit(_SENTENCE,
            "range(attention_w.shape[0])", "range(attention_w.shape[0] - 1)")),
    },
    "head_patterns": {
        "next_token": (["previous", "offset", "next token", "below the diagonal"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "prev_divided_by_n": (["n-1", "queries 1", "mean over", "first query"], '''
def head_patterns(weights):
    n = weights.shape[-1]
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / n
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "special_rows": (["key", "column", "first key", "query", "rows"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., 0, :] + weights[..., -1, :]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "cls_only": (["[sep]", "last key", "plus", "both"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = weights[..., :, 0].mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
'''),
        "stack_first_axis": (["axis", "(..., 3)", "last axis", "stack"], '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.array([prev, special, own])
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
        "fancy_index": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    n = token_ids.shape[1]
    x = word_embeddings[token_ids] + position_embeddings[:n] + type_embeddings[token_types]
    return layer_norm(x, embedding_norm[0], embedding_norm[1])
''',
        "take_manual_norm": '''
def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
    positions = np.arange(token_ids.shape[1])
    x = (np.take(word_embeddings, token_ids, axis=0) + np.take(position_embeddings, positions, axis=0)[None]
         + np.take(type_embeddings, token_types, axis=0))
    mean = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * embedding_norm[0] + embedding_norm[1]
''',
    },
    "bert_head_weights": {
        "where_inf": '''
def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    q = split_heads(hidden @ w_query + b_query, n_heads)
    k = split_heads(hidden @ w_key + b_key, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask[:, None, None, :] == 1, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
''',
        "scipy_softmax_einsum": '''
from scipy.special import softmax as _softmax

def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    d_head = hidden.shape[-1] // n_heads
    q = split_heads(np.einsum("btd,de->bte", hidden, w_query) + b_query, n_heads)
    k = split_heads(np.einsum("btd,de->bte", hidden, w_key) + b_key, n_heads)
    s = np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(d_head)
    s[np.broadcast_to(np.asarray(mask)[:, None, None, :] == 0, s.shape)] = -np.inf
    return _softmax(s, axis=-1)
''',
    },
    "bert_layer": {
        "steps": _LAYER,
        "scipy_norm_cdf": '''
from scipy.stats import norm as _normal

def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    w_q, w_k, w_v, w_o = attention_w
    b_q, b_k, b_v, b_o = attention_b
    a = bert_head_weights(hidden, w_q, b_q, w_k, b_k, mask, n_heads)
    context = combine_heads(a @ split_heads(hidden @ w_v + b_v, n_heads))
    x = layer_norm(hidden + context @ w_o + b_o, norms[0, 0], norms[0, 1])
    h = x @ ffn_w_in + ffn_b_in
    h = h * _normal.cdf(h)
    return layer_norm(x + h @ ffn_w_out + ffn_b_out, norms[1, 0], norms[1, 1])
''',
    },
    "sentence_embedding": {
        "loop_masked_mean": _SENTENCE,
        "zip_layers": '''
def sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, type_embeddings,
                       embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms,
                       n_heads):
    x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm)
    for weights in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
        x = bert_layer(x, mask, *weights, n_heads)
    return np.einsum("bt,btd->bd", mask, x) / mask.sum(axis=1, keepdims=True)
''',
    },
    "head_patterns": {
        "diagonals": '''
def head_patterns(weights):
    prev = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
    special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
    own = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
''',
        "index_arrays": '''
def head_patterns(weights):
    n = weights.shape[-1]
    i = np.arange(n)
    prev = weights[..., i[1:], i[:-1]].mean(axis=-1)
    special = weights[..., [0, -1]].sum(axis=-1).mean(axis=-1)
    own = weights[..., i, i].mean(axis=-1)
    return np.stack([prev, special, own], axis=-1)
''',
    },
}
