"""Blind set 11, notebook 03: attention in TensorFlow. Written from notebooks/03_attention_tensorflow.ipynb only."""

MISTAKES = {
    "scale_scores_tf": {
        "cast_float64": (["float32", "float64", "cast", "dtype"], '''
import tensorflow as tf
def scale_scores_tf(scores, d_k):
    s = tf.cast(scores, tf.float64)
    return s / tf.math.sqrt(tf.cast(d_k, tf.float64))
'''),
        "true_div_int": (["float32", "float64", "int32", "cast"], '''
import tensorflow as tf
import math
def scale_scores_tf(scores, d_k):
    return scores / math.sqrt(d_k)
'''),
        "always_float32": (["float64", "keep", "own dtype", "float32"], '''
import tensorflow as tf
def scale_scores_tf(scores, d_k):
    s = tf.cast(scores, tf.float32)
    return s / tf.math.sqrt(float(d_k))
'''),
        "floor_div": (["floor", "//", "integer"], '''
import tensorflow as tf
import math
def scale_scores_tf(scores, d_k):
    return tf.cast(scores // int(math.sqrt(d_k)), tf.float32)
'''),
        "divide_by_dk": (["sqrt", "square root", "d_k"], '''
import tensorflow as tf
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.cast(d_k, scores.dtype)
'''),
    },
    "float16_scores": {
        "plain_float16": (["overflow", "inf", "before the product", "float32"], '''
import tensorflow as tf
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    s = tf.matmul(queries, keys, transpose_b=True)
    return s / tf.math.sqrt(tf.cast(d_k, tf.float16))
'''),
        "returns_float32": (["float16", "cast back", "dtype"], '''
import tensorflow as tf
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(d_k))
'''),
        "no_transpose_keys": (["transpose", "keys", "transpose_b"], '''
import tensorflow as tf
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = tf.cast(queries, tf.float32) / tf.math.sqrt(float(d_k))
    k = tf.cast(keys, tf.float32)
    return tf.cast(tf.matmul(k, q, transpose_b=True), tf.float16)
'''),
        "forgot_scale": (["sqrt", "scale", "divide"], '''
import tensorflow as tf
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.cast(tf.matmul(q, k, transpose_b=True), tf.float16)
'''),
        "scale_both_sqrt": (["twice", "both", "sqrt", "queries and keys"], '''
import tensorflow as tf
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    c = tf.math.sqrt(tf.cast(d_k, tf.float16))
    return tf.matmul(queries / c, keys / c, transpose_b=True)
'''),
    },
    "float32_roundoff": {
        "subtract_in_float32": (["float64", "float32", "subtract", "subtraction"], '''
import tensorflow as tf
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float32) - tf.cast(x, tf.float32), tf.float64)
'''),
        "sign_flipped": (["sign", "minus", "order", "x -"], '''
import tensorflow as tf
def float32_roundoff(x):
    return x - tf.cast(tf.cast(x, tf.float32), tf.float64)
'''),
        "absolute": (["abs", "sign", "absolute"], '''
import tensorflow as tf
def float32_roundoff(x):
    return tf.abs(tf.cast(tf.cast(x, tf.float32), tf.float64) - x)
'''),
        "float32_result": (["float64", "dtype", "cast"], '''
import tensorflow as tf
def float32_roundoff(x):
    return tf.cast(tf.cast(tf.cast(x, tf.float32), tf.float64) - x, tf.float32)
'''),
        "relative": (["relative", "divide", "difference"], '''
import tensorflow as tf
def float32_roundoff(x):
    return (tf.cast(tf.cast(x, tf.float32), tf.float64) - x) / x
'''),
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "cast_if_int": '''
import tensorflow as tf
def scale_scores_tf(scores, d_k):
    if scores.dtype == tf.int32:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.math.sqrt(tf.cast(d_k, scores.dtype))
''',
        "multiply_rsqrt": '''
import tensorflow as tf
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores * tf.math.rsqrt(tf.constant(d_k, dtype=scores.dtype))
''',
    },
    "float16_scores": {
        "float32_then_cast": '''
import tensorflow as tf
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    s = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(d_k, tf.float32))
    return tf.cast(s, tf.float16)
''',
        "einsum32": '''
import tensorflow as tf
def float16_scores(queries, keys):
    d_k = int(queries.shape[-1])
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    s = tf.einsum("qd,kd->qk", q, k) / (d_k ** 0.5)
    return tf.cast(s, tf.float16)
''',
    },
    "float32_roundoff": {
        "cast_twice": '''
import tensorflow as tf
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float32), tf.float64) - x
''',
        "subtract_fn": '''
import tensorflow as tf
def float32_roundoff(x):
    back = tf.dtypes.cast(tf.dtypes.cast(x, tf.float32), x.dtype)
    return tf.math.subtract(back, x)
''',
    },
}
