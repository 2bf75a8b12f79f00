"""Held-out learner answers for notebook 03 (see README.md: never used to tune the diagnosis)."""

MISTAKES = {
    "scores_tf": {
        "keys_times_queries:transpose_b": """
def scores_tf(queries, keys):
    return tf.matmul(keys, queries, transpose_b=True)
""",
        "sum_instead_of_dot:reduce_sum": """
def scores_tf(queries, keys):
    return tf.reduce_sum(queries * keys, axis=-1)
""",
    },
    "attention_weights_tf": {
        "softmax_wrong_axis:axis0": """
def attention_weights_tf(scores, d_k):
    scores = tf.cast(scores, tf.float32)
    return tf.nn.softmax(scores / tf.sqrt(float(d_k)), axis=0)
""",
        "softmax_over_all_entries": """
def attention_weights_tf(scores, d_k):
    scaled = tf.cast(scores, tf.float32) / tf.sqrt(float(d_k))
    exps = tf.exp(scaled - tf.reduce_max(scaled))
    return exps / tf.reduce_sum(exps)
""",
        "softmax_no_max_subtraction:inline": """
def attention_weights_tf(scores, d_k):
    scaled = tf.cast(scores, tf.float32) / tf.sqrt(float(d_k))
    exps = tf.exp(scaled)
    return exps / tf.reduce_sum(exps, axis=-1, keepdims=True)
""",
        "integer_arithmetic:floor_div": """
def attention_weights_tf(scores, d_k):
    scaled = scores // int(np.sqrt(d_k))
    return tf.nn.softmax(tf.cast(scaled, tf.float32), axis=-1)
""",
        "lower_precision": """
def attention_weights_tf(scores, d_k):
    scaled = tf.cast(scores, tf.float16) / tf.sqrt(tf.cast(d_k, tf.float16))
    return tf.nn.softmax(scaled, axis=-1)
""",
    },
    "attention_tf": {
        "weights_transposed:tf_transpose": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    weights = attention_weights_tf(scores_tf(queries, keys), keys.shape[-1])
    return tf.transpose(weights) @ tf.cast(values, weights.dtype)
""",
        "keys_times_queries:helper": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    weights = attention_weights_tf(scores_tf(keys, queries), keys.shape[-1])
    return weights @ tf.cast(values, weights.dtype)
""",
        "scale_by_sqrt_d_model": """
def attention_tf(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    weights = attention_weights_tf(scores_tf(queries, keys), inputs.shape[-1])
    return weights @ tf.cast(values, weights.dtype)
""",
    },
    "attention_numpy": {
        "softmax_over_all_entries": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scaled = queries @ keys.T / np.sqrt(keys.shape[-1])
    exps = np.exp(scaled - scaled.max())
    return (exps / exps.sum()) @ values
""",
        "scale_by_sqrt_d_model": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    scaled = queries @ keys.T / np.sqrt(inputs.shape[1])
    exps = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True) @ values
""",
        "mixed_up_projections": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_value, inputs @ w_key
    scaled = queries @ keys.T / np.sqrt(keys.shape[-1])
    exps = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True) @ values
""",
        "softmax_no_max_subtraction:inline": """
def attention_numpy(inputs, w_query, w_key, w_value):
    queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
    exps = np.exp(queries @ keys.T / np.sqrt(keys.shape[-1]))
    return exps / exps.sum(axis=1, keepdims=True) @ values
""",
    },
}

VARIANTS = {
    "scores_tf": {
        "einsum": """
def scores_tf(queries, keys):
    return tf.einsum('qd,kd->qk', queries, keys)
""",
        "tf_transpose": """
def scores_tf(queries, keys):
    return queries @ tf.transpose(keys)
""",
    },
    "attention_weights_tf": {
        "math_softmax_python_sqrt": """
import math

def attention_weights_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return tf.math.softmax(scores / math.sqrt(d_k), axis=-1)
""",
        "reduce_logsumexp": """
def attention_weights_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    scaled = scores / tf.sqrt(tf.cast(d_k, scores.dtype))
    return tf.exp(scaled - tf.reduce_logsumexp(scaled, axis=-1, keepdims=True))
""",
    },
    "attention_tf": {
        "cast_inputs_first": """
def attention_tf(inputs, w_query, w_key, w_value):
    x = tf.cast(inputs, tf.float32)
    q = x @ tf.cast(w_query, tf.float32)
    k = x @ tf.cast(w_key, tf.float32)
    v = x @ tf.cast(w_value, tf.float32)
    weights = tf.nn.softmax(tf.matmul(q, k, transpose_b=True) / tf.sqrt(float(k.shape[-1])), axis=-1)
    return weights @ v
""",
    },
    "attention_numpy": {
        "scipy_softmax": """
from scipy.special import softmax as _softmax

def attention_numpy(inputs, w_query, w_key, w_value):
    q, k, v = inputs @ w_query, inputs @ w_key, inputs @ w_value
    return _softmax(q @ k.T / np.sqrt(k.shape[1]), axis=1) @ v
""",
    },
}
