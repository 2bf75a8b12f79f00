"""Blind set 13, notebook 03: Attention in TensorFlow. Written from notebooks/03_attention_tensorflow.ipynb only."""

MISTAKES = {
    "scale_scores_tf": {
        "cast_float64": (["float32", "cast", "tf.float32", "dtype"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float64)
    return scores / tf.sqrt(tf.cast(d_k, tf.float64))
'''),
        "floor_division": (["floor", "//", "integer division"], '''
def scale_scores_tf(scores, d_k):
    return scores // int(d_k ** 0.5)
'''),
        "always_float32": (["float64", "keep", "own dtype", "cast only"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float32)
    return scores / tf.sqrt(float(d_k))
'''),
        "divide_by_dk": (["sqrt", "square root", "d_k"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / d_k
'''),
        "cast_back_to_int": (["integer", "cast back", "int32", "floating"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    scaled = tf.cast(scores, tf.float32) / d_k ** 0.5
    return tf.cast(scaled, scores.dtype)
'''),
    },
    "float16_scores": {
        "plain_float16_product": (["overflow", "inf", "float16", "range"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scores = tf.matmul(queries, keys, transpose_b=True)
    return scores / tf.cast(tf.sqrt(float(d_k)), tf.float16)
'''),
        "float32_not_cast_back": (["float16", "cast back", "dtype"], '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / tf.sqrt(float(q.shape[-1]))
'''),
        "no_transpose_keys": (["transpose", "keys", "transpose_b"], '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    scores = tf.matmul(q, tf.reshape(k, (k.shape[-1], -1))) / tf.sqrt(float(q.shape[-1]))
    return tf.cast(scores, tf.float16)
'''),
        "scale_twice_sqrt_both": (["sqrt", "twice", "both", "d_k"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    s = tf.cast(tf.sqrt(float(d_k)), tf.float16)
    return tf.matmul(queries / s, keys / s, transpose_b=True)
'''),
    },
    "float32_roundoff": {
        "subtract_in_float32": (["float64", "subtract", "float32"], '''
def float32_roundoff(x):
    x32 = tf.cast(x, tf.float32)
    return tf.cast(x32 - tf.cast(x, tf.float32), tf.float64)
'''),
        "reversed_sign": (["minus", "sign", "order", "x - "], '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x, tf.float64)
    return x - tf.cast(tf.cast(x, tf.float32), tf.float64)
'''),
        "result_float32": (["float64", "cast back", "dtype"], '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x, tf.float64)
    return tf.cast(x, tf.float32) - tf.cast(x, tf.float32)
'''),
        "absolute_value": (["absolute", "abs", "sign"], '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x, tf.float64)
    return tf.abs(tf.cast(tf.cast(x, tf.float32), tf.float64) - x)
'''),
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "cast_if_integer": '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.sqrt(tf.cast(d_k, scores.dtype))
''',
        "math_sqrt_multiply": '''
import math


def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores * tf.constant(1.0 / math.sqrt(d_k), dtype=scores.dtype)
''',
    },
    "float16_scores": {
        "float32_then_cast": '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    scores = tf.matmul(q, k, transpose_b=True) / tf.sqrt(float(q.shape[-1]))
    return tf.cast(scores, tf.float16)
''',
        "scale_queries_first": '''
def float16_scores(queries, keys):
    queries = tf.convert_to_tensor(queries)
    d_k = queries.shape[-1]
    scaled = queries / tf.cast(tf.sqrt(float(d_k)), tf.float16)
    return tf.matmul(scaled, keys, transpose_b=True)
''',
    },
    "float32_roundoff": {
        "cast_round_trip": '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x, tf.float64)
    return tf.cast(tf.cast(x, tf.float32), tf.float64) - x
''',
        "numpy_subtract": '''
def float32_roundoff(x):
    x64 = tf.convert_to_tensor(x, dtype=tf.float64)
    back = tf.cast(tf.cast(x64, tf.float32), tf.float64)
    return tf.subtract(back, x64)
''',
    },
}
