"""Blind set 7, notebook 03: Attention in TensorFlow. Written from notebooks/03_attention_tensorflow.ipynb only."""

MISTAKES = {
    "scale_scores_tf": {
        "divide_by_dk": (["sqrt", "square root", "d_k"], '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / d_k
'''),
        "floor_division": (["floor", "//", "integer division"], '''
def scale_scores_tf(scores, d_k):
    return scores // int(d_k ** 0.5) if scores.dtype.is_integer else scores / tf.cast(tf.sqrt(float(d_k)), scores.dtype)
'''),
        "int_to_float64": (["float32", "float64", "int32", "cast"], '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float64)
    return scores / tf.cast(np.sqrt(d_k), scores.dtype)
'''),
        "always_float32": (["float64", "keep", "dtype", "cast"], '''
def scale_scores_tf(scores, d_k):
    return tf.cast(scores, tf.float32) / tf.sqrt(tf.cast(d_k, tf.float32))
'''),
        "cast_back_to_int": (["integer", "cast back", "int32", "float"], '''
def scale_scores_tf(scores, d_k):
    out = tf.cast(scores, tf.float32) / np.sqrt(d_k) if scores.dtype.is_integer else scores / tf.cast(np.sqrt(d_k), scores.dtype)
    return tf.cast(out, scores.dtype)
'''),
        "multiply_sqrt": (["divide", "multiply", "sqrt"], '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores * tf.cast(np.sqrt(d_k), scores.dtype)
'''),
    },
    "float16_scores": {
        "scale_after_product": (["overflow", "before", "order", "float32", "inf"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    s = tf.matmul(queries, keys, transpose_b=True)
    return s / tf.cast(np.sqrt(d_k), tf.float16)
'''),
        "returns_float32": (["float16", "cast back", "dtype"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / np.sqrt(d_k).astype(np.float32)
'''),
        "no_transpose_keys_elementwise": (["transpose", "keys", "matmul", "n_keys"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = queries / tf.cast(np.sqrt(d_k), tf.float16)
    return tf.reduce_sum(q * keys, axis=-1, keepdims=True)
'''),
        "scale_by_dk": (["sqrt", "square root", "d_k"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.cast(tf.matmul(q, k, transpose_b=True) / d_k, tf.float16)
'''),
        "sqrt_of_n_keys": (["d_k", "width", "n_keys", "last axis"], '''
def float16_scores(queries, keys):
    n = keys.shape[0]
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.cast(tf.matmul(q, k, transpose_b=True) / np.sqrt(n), tf.float16)
'''),
    },
    "float32_roundoff": {
        "subtract_in_float32": (["float64", "subtract", "float32", "cast"], '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float32) - tf.cast(x, tf.float32), tf.float64)
'''),
        "wrong_sign": (["sign", "minus", "order", "x - float32"], '''
def float32_roundoff(x):
    return x - tf.cast(tf.cast(x, tf.float32), tf.float64)
'''),
        "returns_float32": (["float64", "dtype", "cast"], '''
def float32_roundoff(x):
    d = tf.cast(tf.cast(x, tf.float32), tf.float64) - x
    return tf.cast(d, tf.float32)
'''),
        "absolute_value": (["absolute", "abs", "sign"], '''
def float32_roundoff(x):
    return tf.abs(tf.cast(tf.cast(x, tf.float32), tf.float64) - x)
'''),
        "relative_error": (["relative", "divide", "difference"], '''
def float32_roundoff(x):
    return (tf.cast(tf.cast(x, tf.float32), tf.float64) - x) / x
'''),
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "cast_then_divide": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.sqrt(tf.cast(d_k, scores.dtype))
''',
        "math_sqrt": '''
import math


def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return tf.math.divide(scores, tf.constant(math.sqrt(d_k), dtype=scores.dtype))
''',
    },
    "float16_scores": {
        "float32_then_cast": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    s = tf.matmul(q, k, transpose_b=True) / tf.sqrt(tf.cast(d_k, tf.float32))
    return tf.cast(s, tf.float16)
''',
        "prescale_float16": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = queries / tf.cast(np.sqrt(d_k), tf.float16)
    return tf.cast(tf.cast(tf.matmul(tf.cast(q, tf.float32), tf.cast(keys, tf.float32), transpose_b=True), tf.float16), tf.float16)
''',
    },
    "float32_roundoff": {
        "cast_twice": '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float32), tf.float64) - x
''',
        "numpy_roundtrip": '''
def float32_roundoff(x):
    a = np.asarray(x, dtype=np.float64)
    return tf.constant(a.astype(np.float32).astype(np.float64) - a, dtype=tf.float64)
''',
    },
}
