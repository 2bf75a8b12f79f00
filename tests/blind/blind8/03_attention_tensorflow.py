"""Blind set 8, notebook 03: Attention in TensorFlow, dtypes and round-off. Written from notebooks/03_attention_tensorflow.ipynb only."""

MISTAKES = {
    "scale_scores_tf": {
        "floor_division": (["floor", "//", "integer division"], '''
def scale_scores_tf(scores, d_k):
    return scores // int(np.sqrt(d_k))
'''),
        "cast_to_float64": (["float32", "float64", "cast"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float64)
    return scores / np.sqrt(d_k)
'''),
        "always_float32": (["float64", "keep", "own dtype", "float scores"], '''
def scale_scores_tf(scores, d_k):
    return tf.cast(scores, tf.float32) / tf.sqrt(tf.cast(d_k, tf.float32))
'''),
        "no_cast_of_int": (["cast", "int32", "tf.cast", "mix"], '''
def scale_scores_tf(scores, d_k):
    return scores / tf.sqrt(tf.cast(d_k, tf.float32))
'''),
        "divide_by_d_k": (["square root", "sqrt", "d_k"], '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / d_k
'''),
        "cast_back_to_int": (["integer", "cast back", "int32", "float"], '''
def scale_scores_tf(scores, d_k):
    scaled = tf.cast(scores, tf.float32) / np.sqrt(d_k)
    return tf.cast(scaled, scores.dtype)
'''),
    },
    "float16_scores": {
        "plain_float16_product": (["overflow", "inf", "65504", "float16 range"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scores = tf.matmul(queries, keys, transpose_b=True)
    return scores / tf.cast(tf.sqrt(float(d_k)), tf.float16)
'''),
        "float32_not_cast_back": (["float16", "cast back", "dtype"], '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / np.sqrt(q.shape[-1])
'''),
        "reshape_not_transpose": (["transpose", "reshape", "keys^t"], '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    s = tf.matmul(q, tf.reshape(k, (k.shape[-1], -1))) / np.sqrt(q.shape[-1])
    return tf.cast(s, tf.float16)
'''),
        "sqrt_not_taken": (["sqrt", "square root", "d_k"], '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.cast(tf.matmul(q, k, transpose_b=True) / q.shape[-1], tf.float16)
'''),
        "prescale_queries_only": (["both", "fourth root", "queries and keys", "sqrt"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scale = tf.constant(d_k ** -0.25, dtype=tf.float16)
    return tf.matmul(queries * scale, keys, transpose_b=True)
'''),
    },
    "float32_roundoff": {
        "subtract_in_float32": (["float64", "subtract", "cast back"], '''
def float32_roundoff(x):
    x32 = tf.cast(x, tf.float32)
    return tf.cast(x32 - tf.cast(x, tf.float32), tf.float64)
'''),
        "wrong_sign": (["sign", "minus", "x - float32", "order"], '''
def float32_roundoff(x):
    return x - tf.cast(tf.cast(x, tf.float32), tf.float64)
'''),
        "returns_float32": (["float64", "dtype", "cast"], '''
def float32_roundoff(x):
    diff = tf.cast(tf.cast(x, tf.float32), tf.float64) - x
    return tf.cast(diff, tf.float32)
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
        "cast_if_integer": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.sqrt(tf.cast(d_k, scores.dtype))
''',
        "math_sqrt": '''
import math


def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if scores.dtype not in (tf.float32, tf.float64):
        scores = tf.cast(scores, tf.float32)
    return tf.math.multiply(scores, tf.constant(1.0 / math.sqrt(d_k), dtype=scores.dtype))
''',
    },
    "float16_scores": {
        "float32_then_cast": '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    d_k = tf.cast(tf.shape(q)[-1], tf.float32)
    scores = tf.matmul(q, k, transpose_b=True) / tf.sqrt(d_k)
    return tf.cast(scores, tf.float16)
''',
        "prescale_half": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scale = tf.constant(d_k ** -0.25, dtype=queries.dtype)
    return tf.matmul(queries * scale, tf.transpose(keys * scale))
''',
    },
    "float32_roundoff": {
        "cast_cast": '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float32), tf.float64) - x
''',
        "numpy": '''
def float32_roundoff(x):
    arr = np.asarray(x, dtype=np.float64)
    return tf.constant(arr.astype(np.float32).astype(np.float64) - arr, dtype=tf.float64)
''',
    },
}
