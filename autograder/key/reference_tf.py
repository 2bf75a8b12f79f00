"""Reference implementations in TensorFlow, built from TensorFlow's own operations.

Same conventions and names as :mod:`attention_course.reference`. Importing this module imports
TensorFlow (about 5 s); the package silences TensorFlow's C++ logging first.
"""

from __future__ import annotations

import tensorflow as tf


def softmax(scores, axis: int = -1):
    return tf.nn.softmax(tf.cast(scores, tf.float32) if scores.dtype.is_integer else scores, axis=axis)


def attention_scores(queries, keys, scale: bool = True):
    """Integer queries and keys give exact integer scores; scaling casts to float32 first."""
    scores = tf.matmul(queries, keys, transpose_b=True)  # (..., n_queries, n_keys)
    if not scale:
        return scores
    scores = tf.cast(scores, tf.float32) if scores.dtype.is_integer else scores
    d_k = tf.cast(tf.shape(keys)[-1], scores.dtype)
    return scores / tf.math.sqrt(d_k)


def attention(queries, keys, values, mask=None, scale: bool = True):
    scores = attention_scores(queries, keys, scale)
    scores = tf.cast(scores, tf.float32) if scores.dtype.is_integer else scores
    if mask is not None:
        scores = tf.where(tf.cast(mask, tf.bool), scores, tf.constant(-float("inf"), scores.dtype))
    weights = tf.nn.softmax(scores, axis=-1)  # (..., n_queries, n_keys)
    return tf.matmul(weights, tf.cast(values, weights.dtype))


def self_attention(inputs, w_query, w_key, w_value, mask=None, scale: bool = True):
    return attention(inputs @ w_query, inputs @ w_key, inputs @ w_value, mask, scale)


def multi_head_attention_layer(inputs, w_query, w_key, w_value, w_out, n_heads: int):
    """The same computation through ``keras.layers.MultiHeadAttention`` with the given weights.

    Keras keeps per-head kernels: query/key/value (d_model, heads, d_head) and output
    (heads, d_head, d_model), which are our matrices reshaped. ``inputs``: (batch, tokens, d_model).
    """
    import keras

    d_model = inputs.shape[-1]
    d_head = d_model // n_heads
    layer = keras.layers.MultiHeadAttention(num_heads=n_heads, key_dim=d_head, use_bias=False)
    layer(inputs, inputs)  # build the layer
    layer.set_weights([
        w_query.reshape(d_model, n_heads, d_head),
        w_key.reshape(d_model, n_heads, d_head),
        w_value.reshape(d_model, n_heads, d_head),
        w_out.reshape(n_heads, d_head, d_model),
    ])
    return layer(inputs, inputs)
