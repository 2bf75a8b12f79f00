"""Blind set 3, notebook 03: attention in TensorFlow. Written from notebooks/03_attention_tensorflow.ipynb only."""

MISTAKES = {
    "scale_scores_tf": {
        "floor_division": (["floor", "//", "integer division"], '''
def scale_scores_tf(scores, d_k):
    return scores // int(np.sqrt(d_k))
'''),
        "cast_float64": (["float32", "float64", "cast", "dtype"], '''
def scale_scores_tf(scores, d_k):
    return tf.cast(scores, tf.float64) / np.sqrt(d_k)
'''),
        "always_float32": (["float64", "keep", "own dtype", "dtype"], '''
def scale_scores_tf(scores, d_k):
    return tf.cast(scores, tf.float32) / np.sqrt(d_k)
'''),
        "divide_by_dk": (["sqrt", "square root", "d_k"], '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / d_k
'''),
        "cast_back_int": (["integer", "cast back", "int32", "floating"], '''
def scale_scores_tf(scores, d_k):
    result = tf.cast(scores, tf.float32) / tf.sqrt(tf.cast(d_k, tf.float32))
    return tf.cast(result, scores.dtype)
'''),
    },
    "float16_scores": {
        "scale_after_product": (["before the product", "overflow", "inf", "order"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    return tf.matmul(queries, keys, transpose_b=True) / tf.cast(tf.sqrt(float(d_k)), tf.float16)
'''),
        "returns_float32": (["float16", "cast the result back", "dtype"], '''
def float16_scores(queries, keys):
    q, k = tf.cast(queries, tf.float32), tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / np.sqrt(q.shape[-1])
'''),
        "no_scale": (["sqrt", "scale", "d_k"], '''
def float16_scores(queries, keys):
    q, k = tf.cast(queries, tf.float32), tf.cast(keys, tf.float32)
    return tf.cast(tf.matmul(q, k, transpose_b=True), tf.float16)
'''),
        "no_transpose": (["transpose", "keys^t", "transpose_b"], '''
def float16_scores(queries, keys):
    q, k = tf.cast(queries, tf.float32), tf.cast(keys, tf.float32)
    return tf.cast(tf.matmul(q, tf.reshape(k, (k.shape[1], k.shape[0]))) / np.sqrt(q.shape[-1]), tf.float16)
'''),
        "scale_by_dk": (["sqrt", "square root", "d_k"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = queries / tf.cast(d_k, tf.float16)
    return tf.matmul(q, keys, transpose_b=True)
'''),
    },
    "float32_roundoff": {
        "subtract_in_float32": (["float64", "subtract", "in float32", "precision"], '''
def float32_roundoff(x):
    x32 = tf.cast(x, tf.float32)
    return tf.cast(x32 - tf.cast(x, tf.float32), tf.float64)
'''),
        "sign_flipped": (["sign", "minus", "order", "x - float32"], '''
def float32_roundoff(x):
    return x - tf.cast(tf.cast(x, tf.float32), tf.float64)
'''),
        "absolute_value": (["absolute", "abs", "sign"], '''
def float32_roundoff(x):
    return tf.abs(tf.cast(tf.cast(x, tf.float32), tf.float64) - x)
'''),
        "float16_instead": (["float16", "float32", "cast"], '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float16), tf.float64) - x
'''),
        "returns_float32": (["float64", "dtype", "cast"], '''
def float32_roundoff(x):
    return tf.cast(tf.cast(tf.cast(x, tf.float32), tf.float64) - x, tf.float32)
'''),
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "cast_then_divide": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype == tf.int32:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.sqrt(tf.cast(d_k, scores.dtype))
''',
        "math_sqrt": '''
import math

def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return tf.math.divide(scores, math.sqrt(d_k))
''',
    },
    "float16_scores": {
        "via_float32": '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    scores = tf.matmul(q, k, transpose_b=True) / tf.sqrt(tf.cast(tf.shape(q)[-1], tf.float32))
    return tf.cast(scores, tf.float16)
''',
        "scale_queries_first": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scaled = queries / tf.constant(np.sqrt(d_k), dtype=tf.float16)
    return tf.matmul(scaled, tf.transpose(keys))
''',
    },
    "float32_roundoff": {
        "cast_roundtrip": '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float32), tf.float64) - x
''',
        "numpy": '''
def float32_roundoff(x):
    x64 = x.numpy()
    return tf.constant(x64.astype(np.float32).astype(np.float64) - x64, dtype=tf.float64)
''',
    },
}
