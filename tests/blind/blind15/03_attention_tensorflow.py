"""Blind set 15, notebook 03: Attention in TensorFlow (dtypes). Written from notebooks/03_attention_tensorflow.ipynb only."""

MISTAKES = {
    "scale_scores_tf": {
        "floor_division": (["floor", "//", "integer division"], '''
def scale_scores_tf(scores, d_k):
    return scores // int(d_k ** 0.5)
'''),
        "cast_float64": (["float32", "float64", "int32"], '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float64)
    return scores / tf.sqrt(tf.cast(d_k, scores.dtype))
'''),
        "cast_all_to_float32": (["float64", "keep", "dtype"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float32)
    return scores / tf.sqrt(float(d_k))
'''),
        "divide_by_dk": (["sqrt", "square root"], '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / d_k
'''),
        "cast_back_to_int": (["integer", "cast back", "int32"], '''
def scale_scores_tf(scores, d_k):
    original = scores.dtype
    scaled = tf.cast(scores, tf.float32) / d_k ** 0.5
    return tf.cast(scaled, original)
'''),
    },
    "float16_scores": {
        "plain_float16_product": (["overflow", "inf", "float16", "before the product"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    return tf.matmul(queries, keys, transpose_b=True) / tf.cast(d_k ** 0.5, tf.float16)
'''),
        "returns_float32": (["float16", "cast", "back"], '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / queries.shape[-1] ** 0.5
'''),
        "no_scaling": (["sqrt", "scale", "d_k"], '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.cast(tf.matmul(q, k, transpose_b=True), tf.float16)
'''),
        "no_transpose_keys": (["transpose", "keys"], '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    s = tf.matmul(q, tf.reshape(k, (k.shape[1], k.shape[0]))) / queries.shape[-1] ** 0.5
    return tf.cast(s, tf.float16)
'''),
        "scale_by_dk_before": (["sqrt", "square root", "d_k"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = queries / tf.cast(d_k, tf.float16)
    return tf.matmul(q, keys, transpose_b=True)
'''),
    },
    "float32_roundoff": {
        "subtract_in_float32": (["float64", "subtract", "float32"], '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float32) - tf.cast(x, tf.float32), tf.float64)
'''),
        "sign_flipped": (["minus", "sign", "order"], '''
def float32_roundoff(x):
    return x - tf.cast(tf.cast(x, tf.float32), tf.float64)
'''),
        "returns_float32": (["float64", "dtype", "cast"], '''
def float32_roundoff(x):
    return tf.cast(tf.cast(tf.cast(x, tf.float32), tf.float64) - x, tf.float32)
'''),
        "float16_instead": (["float32", "float16", "round"], '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float16), tf.float64) - x
'''),
        "absolute_value": (["absolute", "abs", "sign"], '''
def float32_roundoff(x):
    return tf.abs(tf.cast(tf.cast(x, tf.float32), tf.float64) - x)
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
    scores = tf.convert_to_tensor(scores)
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return tf.math.divide(scores, tf.constant(math.sqrt(d_k), dtype=scores.dtype))
''',
    },
    "float16_scores": {
        "compute_in_float32": '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    s = tf.matmul(q, k, transpose_b=True) / tf.sqrt(tf.cast(tf.shape(q)[-1], tf.float32))
    return tf.cast(s, tf.float16)
''',
        "einsum_float64": '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float64)
    k = tf.cast(keys, tf.float64)
    s = tf.einsum("qd,kd->qk", q, k) / float(queries.shape[-1]) ** 0.5
    return tf.cast(s, tf.float16)
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
