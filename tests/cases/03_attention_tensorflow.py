"""Learner-style answers for notebook 03: one catalogued mistake each, or a correct variant.

Keys: the exercise's solution cell (grade_id), then the mistake id (from
attention_course.mistakes) or a variant's name. Values: what a learner types into that cell.
Run by ``python3 tasks.py accuracy`` and tests/test_accuracy.py.
"""

MISTAKES = {
    "scores_tf": {
        "keys_times_queries": """
def scores_tf(queries, keys):
    return tf.matmul(keys, queries, transpose_b=True)
""",
        "keys_without_transpose": """
def scores_tf(queries, keys):
    return tf.matmul(queries, keys)
""",
        "sum_instead_of_dot": """
def scores_tf(queries, keys):
    return queries * keys
""",
        "scaled_too_early": """
def scores_tf(queries, keys):
    scores = tf.cast(tf.matmul(queries, keys, transpose_b=True), tf.float32)
    return scores / tf.math.sqrt(tf.cast(keys.shape[-1], tf.float32))
""",
    },
    "attention_weights_tf": {
        "integer_arithmetic": """
def attention_weights_tf(scores, d_k):
    scaled = scores // int(d_k ** 0.5)
    return tf.nn.softmax(tf.cast(scaled, tf.float32), axis=-1)
""",
        "no_scaling": """
def attention_weights_tf(scores, d_k):
    return tf.nn.softmax(tf.cast(scores, tf.float32), axis=-1)
""",
        "scale_by_d_k": """
def attention_weights_tf(scores, d_k):
    scores = tf.cast(scores, tf.float32)
    return tf.nn.softmax(scores / d_k, axis=-1)
""",
        "scale_by_sqrt_tokens": """
def attention_weights_tf(scores, d_k):
    scores = tf.cast(scores, tf.float32)
    n_keys = tf.cast(tf.shape(scores)[-1], tf.float32)
    return tf.nn.softmax(scores / tf.math.sqrt(n_keys), axis=-1)
""",
        "softmax_wrong_axis": """
def attention_weights_tf(scores, d_k):
    scores = tf.cast(scores, tf.float32)
    return tf.nn.softmax(scores / tf.math.sqrt(float(d_k)), axis=0)
""",
        "softmax_no_max_subtraction": """
def attention_weights_tf(scores, d_k):
    scaled = tf.cast(scores, tf.float32) / tf.math.sqrt(float(d_k))
    exps = tf.exp(scaled)
    return exps / tf.reduce_sum(exps, axis=-1, keepdims=True)
""",
        "normalise_by_sum": """
def attention_weights_tf(scores, d_k):
    scaled = tf.cast(scores, tf.float32) / tf.math.sqrt(float(d_k))
    return scaled / tf.reduce_sum(scaled, axis=-1, keepdims=True)
""",
        "no_softmax": """
def attention_weights_tf(scores, d_k):
    return tf.cast(scores, tf.float32) / tf.math.sqrt(float(d_k))
""",
    },
    "attention_tf": {
        "integer_arithmetic": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scores = tf.matmul(queries, keys, transpose_b=True) // int(keys.shape[-1] ** 0.5)
    weights = tf.nn.softmax(tf.cast(scores, tf.float32), axis=-1)
    return weights @ tf.cast(values, tf.float32)
""",
        "no_scaling": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scores = tf.cast(tf.matmul(queries, keys, transpose_b=True), tf.float32)
    return tf.nn.softmax(scores, axis=-1) @ tf.cast(values, tf.float32)
""",
        "scale_by_d_k": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scores = tf.cast(tf.matmul(queries, keys, transpose_b=True), tf.float32)
    weights = tf.nn.softmax(scores / keys.shape[-1], axis=-1)
    return weights @ tf.cast(values, tf.float32)
""",
        "scale_by_sqrt_tokens": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scores = tf.cast(tf.matmul(queries, keys, transpose_b=True), tf.float32)
    n_tokens = float(inputs.shape[0])
    weights = tf.nn.softmax(scores / tf.math.sqrt(n_tokens), axis=-1)
    return weights @ tf.cast(values, tf.float32)
""",
        "softmax_wrong_axis": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scores = tf.cast(scores_tf(queries, keys), tf.float32) / tf.math.sqrt(float(keys.shape[-1]))
    weights = tf.nn.softmax(scores, axis=0)
    return weights @ tf.cast(values, tf.float32)
""",
        "softmax_no_max_subtraction": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scores = tf.cast(scores_tf(queries, keys), tf.float32) / tf.math.sqrt(float(keys.shape[-1]))
    exps = tf.exp(scores)
    weights = exps / tf.reduce_sum(exps, axis=-1, keepdims=True)
    return weights @ tf.cast(values, tf.float32)
""",
        "normalise_by_sum": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scores = tf.cast(scores_tf(queries, keys), tf.float32) / tf.math.sqrt(float(keys.shape[-1]))
    weights = scores / tf.reduce_sum(scores, axis=-1, keepdims=True)
    return weights @ tf.cast(values, tf.float32)
""",
        "no_softmax": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scores = tf.cast(scores_tf(queries, keys), tf.float32) / tf.math.sqrt(float(keys.shape[-1]))
    return scores @ tf.cast(values, tf.float32)
""",
        "keys_without_transpose": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    weights = attention_weights_tf(queries @ keys, keys.shape[-1])
    return weights @ tf.cast(values, weights.dtype)
""",
        "keys_times_queries": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    weights = attention_weights_tf(tf.matmul(keys, queries, transpose_b=True), keys.shape[-1])
    return weights @ tf.cast(values, weights.dtype)
""",
        "weights_transposed": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    weights = attention_weights_tf(scores_tf(queries, keys), keys.shape[-1])
    return tf.matmul(weights, tf.cast(values, weights.dtype), transpose_a=True)
""",
        "weights_times_scores": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scores = scores_tf(queries, keys)
    weights = attention_weights_tf(scores, keys.shape[-1])
    return weights @ tf.cast(scores, weights.dtype)
""",
        "weights_times_keys": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    weights = attention_weights_tf(scores_tf(queries, keys), keys.shape[-1])
    return weights @ tf.cast(keys, weights.dtype)
""",
        "returns_weights": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys = inputs @ w_query, inputs @ w_key
    return attention_weights_tf(scores_tf(queries, keys), keys.shape[-1])
""",
        "returns_scores": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys = inputs @ w_query, inputs @ w_key
    return tf.cast(scores_tf(queries, keys), tf.float32)
""",
    },
    "attention_numpy": {
        "integer_arithmetic": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scaled = (queries @ keys.T) // np.sqrt(keys.shape[-1])
    exps = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True) @ values
""",
        "no_scaling": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scores = queries @ keys.T
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return (exps / exps.sum(axis=-1, keepdims=True)) @ values
""",
        "scale_by_d_k": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scaled = queries @ keys.T / keys.shape[-1]
    exps = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    return (exps / exps.sum(axis=-1, keepdims=True)) @ values
""",
        "scale_by_sqrt_tokens": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scaled = queries @ keys.T / np.sqrt(len(inputs))
    exps = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    return (exps / exps.sum(axis=-1, keepdims=True)) @ values
""",
        "softmax_wrong_axis": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scaled = queries @ keys.T / np.sqrt(keys.shape[-1])
    exps = np.exp(scaled - scaled.max(axis=0))
    return (exps / exps.sum(axis=0)) @ values
""",
        "softmax_no_max_subtraction": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    exps = np.exp(queries @ keys.T / np.sqrt(keys.shape[-1]))
    return (exps / exps.sum(axis=-1, keepdims=True)) @ values
""",
        "normalise_by_sum": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scaled = queries @ keys.T / np.sqrt(keys.shape[-1])
    return (scaled / scaled.sum(axis=-1, keepdims=True)) @ values
""",
        "no_softmax": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    return (queries @ keys.T / np.sqrt(keys.shape[-1])) @ values
""",
        "keys_without_transpose": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scaled = queries @ keys / np.sqrt(keys.shape[-1])
    exps = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    return (exps / exps.sum(axis=-1, keepdims=True)) @ values
""",
        "keys_times_queries": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scaled = keys @ queries.T / np.sqrt(keys.shape[-1])
    exps = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    return (exps / exps.sum(axis=-1, keepdims=True)) @ values
""",
        "weights_transposed": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scaled = queries @ keys.T / np.sqrt(keys.shape[-1])
    exps = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    weights = exps / exps.sum(axis=-1, keepdims=True)
    return weights.T @ values
""",
        "weights_times_scores": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scores = queries @ keys.T
    scaled = scores / np.sqrt(keys.shape[-1])
    exps = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    return (exps / exps.sum(axis=-1, keepdims=True)) @ scores
""",
        "weights_times_keys": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scaled = queries @ keys.T / np.sqrt(keys.shape[-1])
    exps = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    return (exps / exps.sum(axis=-1, keepdims=True)) @ keys
""",
        "returns_weights": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys = inputs @ w_query, inputs @ w_key
    scaled = queries @ keys.T / np.sqrt(keys.shape[-1])
    exps = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)
""",
        "returns_scores": """
def attention_numpy(inputs, w_query, w_key, w_value):
    return (inputs @ w_query) @ (inputs @ w_key).T
""",
    },
}

VARIANTS = {
    "scores_tf": {
        "matmul_transpose": """
def scores_tf(queries, keys):
    return tf.matmul(queries, tf.transpose(keys))
""",
        "operator": """
def scores_tf(queries, keys):
    return queries @ tf.transpose(keys)
""",
        "einsum": """
def scores_tf(queries, keys):
    return tf.einsum("qd,kd->qk", queries, keys)
""",
        "tensordot": """
def scores_tf(queries, keys):
    return tf.tensordot(queries, keys, axes=[[1], [1]])
""",
        "broadcast_reduce_sum": """
def scores_tf(queries, keys):
    return tf.reduce_sum(queries[:, None, :] * keys[None, :, :], axis=-1)
""",
    },
    "attention_weights_tf": {
        "tf_nn_softmax_python_sqrt": """
import math

def attention_weights_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return tf.nn.softmax(scores / math.sqrt(d_k), axis=-1)
""",
        "always_float32": """
def attention_weights_tf(scores, d_k):
    scaled = tf.cast(scores, tf.float32) / tf.sqrt(tf.cast(d_k, tf.float32))
    return tf.nn.softmax(scaled)
""",
        "hand_written_stable": """
def attention_weights_tf(scores, d_k):
    scaled = tf.cast(scores, tf.float32) / tf.math.sqrt(float(d_k))
    exps = tf.exp(scaled - tf.reduce_max(scaled, axis=-1, keepdims=True))
    return exps / tf.reduce_sum(exps, axis=-1, keepdims=True)
""",
        "keras_softmax": """
def attention_weights_tf(scores, d_k):
    scaled = tf.cast(scores, tf.float32) / d_k ** 0.5
    return tf.keras.activations.softmax(scaled, axis=-1)
""",
        "float64_inside": """
def attention_weights_tf(scores, d_k):
    scaled = tf.cast(scores, tf.float64) / tf.math.sqrt(tf.constant(d_k, tf.float64))
    return tf.cast(tf.nn.softmax(scaled, axis=-1), tf.float32)
""",
        "log_softmax": """
def attention_weights_tf(scores, d_k):
    scaled = tf.cast(scores, tf.float32) / tf.math.sqrt(float(d_k))
    return tf.exp(tf.nn.log_softmax(scaled, axis=-1))
""",
    },
    "attention_tf": {
        "uses_helpers": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries = tf.matmul(inputs, w_query)
    keys = tf.matmul(inputs, w_key)
    values = tf.matmul(inputs, w_value)
    weights = attention_weights_tf(scores_tf(queries, keys), keys.shape[-1])
    return tf.matmul(weights, tf.cast(values, tf.float32))
""",
        "cast_first_float32": """
def attention_tf(inputs, w_query, w_key, w_value):
    x, wq, wk, wv = (tf.cast(t, tf.float32) for t in (inputs, w_query, w_key, w_value))
    queries, keys, values = x @ wq, x @ wk, x @ wv
    d_k = tf.cast(tf.shape(keys)[-1], tf.float32)
    weights = tf.nn.softmax(tf.matmul(queries, keys, transpose_b=True) / tf.sqrt(d_k), axis=-1)
    return weights @ values
""",
        "einsum": """
def attention_tf(inputs, w_query, w_key, w_value):
    x = tf.cast(inputs, tf.float32)
    q = tf.einsum("td,dk->tk", x, tf.cast(w_query, tf.float32))
    k = tf.einsum("td,dk->tk", x, tf.cast(w_key, tf.float32))
    v = tf.einsum("td,dv->tv", x, tf.cast(w_value, tf.float32))
    weights = tf.nn.softmax(tf.einsum("qd,kd->qk", q, k) / k.shape[-1] ** 0.5)
    return tf.einsum("qk,kv->qv", weights, v)
""",
        "hand_written_softmax": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scaled = tf.cast(scores_tf(queries, keys), tf.float32) / tf.math.sqrt(float(keys.shape[-1]))
    exps = tf.exp(scaled - tf.reduce_max(scaled, axis=-1, keepdims=True))
    weights = exps / tf.reduce_sum(exps, axis=-1, keepdims=True)
    return weights @ tf.cast(values, tf.float32)
""",
        "float64_inside": """
def attention_tf(inputs, w_query, w_key, w_value):
    x, wq, wk, wv = (tf.cast(t, tf.float64) for t in (inputs, w_query, w_key, w_value))
    queries, keys, values = x @ wq, x @ wk, x @ wv
    weights = tf.nn.softmax(queries @ tf.transpose(keys) / tf.sqrt(tf.cast(keys.shape[-1], tf.float64)))
    return tf.cast(weights @ values, tf.float32)
""",
        "loop_over_queries": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    values = tf.cast(values, tf.float32)
    rows = []
    for i in range(queries.shape[0]):
        scores = tf.cast(tf.linalg.matvec(keys, queries[i]), tf.float32)  # (keys,)
        weights = tf.nn.softmax(scores / tf.sqrt(float(keys.shape[-1])))
        rows.append(tf.linalg.matvec(values, weights, transpose_a=True))  # (d_v,)
    return tf.stack(rows)
""",
    },
    "attention_numpy": {
        "reference_style": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scaled = (queries @ keys.T) / np.sqrt(keys.shape[-1])
    exps = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True) @ values
""",
        "float32": """
def attention_numpy(inputs, w_query, w_key, w_value):
    x, wq, wk, wv = (a.astype(np.float32) for a in (inputs, w_query, w_key, w_value))
    queries, keys, values = x @ wq, x @ wk, x @ wv
    scaled = queries @ keys.T / np.float32(np.sqrt(keys.shape[-1]))
    exps = np.exp(scaled - np.max(scaled, axis=1, keepdims=True))
    return (exps / np.sum(exps, axis=1, keepdims=True)) @ values
""",
        "float64": """
def attention_numpy(inputs, w_query, w_key, w_value):
    x = np.asarray(inputs, dtype=np.float64)
    queries, keys, values = (x @ np.asarray(w, dtype=np.float64) for w in (w_query, w_key, w_value))
    scaled = queries @ keys.T / np.sqrt(keys.shape[1])
    exps = np.exp(scaled - scaled.max(axis=1)[:, None])
    return exps / exps.sum(axis=1)[:, None] @ values
""",
        "einsum": """
def attention_numpy(inputs, w_query, w_key, w_value):
    q = np.einsum("td,dk->tk", inputs, w_query)
    k = np.einsum("td,dk->tk", inputs, w_key)
    v = np.einsum("td,dv->tv", inputs, w_value)
    scaled = np.einsum("ik,jk->ij", q, k) / k.shape[-1] ** 0.5
    exps = np.exp(scaled - scaled.max(-1, keepdims=True))
    return np.einsum("ij,jv->iv", exps / exps.sum(-1, keepdims=True), v)
""",
        "loops": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    d_k = keys.shape[1]
    out = np.zeros((len(queries), values.shape[1]))
    for i in range(len(queries)):
        scores = np.array([queries[i] @ keys[j] for j in range(len(keys))]) / np.sqrt(d_k)
        exps = np.exp(scores - scores.max())
        weights = exps / exps.sum()
        for j in range(len(keys)):
            out[i] += weights[j] * values[j]
    return out
""",
        "logsumexp": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scaled = queries @ keys.T / np.sqrt(keys.shape[-1])
    m = scaled.max(axis=-1, keepdims=True)
    log_weights = scaled - m - np.log(np.exp(scaled - m).sum(axis=-1, keepdims=True))
    return np.exp(log_weights) @ values
""",
    },
}
