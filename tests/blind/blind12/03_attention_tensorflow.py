"""Blind set 12, notebook 03: Attention in TensorFlow. Written from notebooks/03_attention_tensorflow.ipynb only."""

MISTAKES = {
    "scale_scores_tf": {
        "floor_division": (["floor", "//", "truncat"], '''
def scale_scores_tf(scores, d_k):
    return tf.cast(scores // int(d_k ** 0.5), tf.float32)
'''),
        "cast_to_float64": (["float64", "float32", "int32"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float64)
    return scores / np.sqrt(d_k)
'''),
        "always_float32": (["float64", "keep", "own dtype"], '''
def scale_scores_tf(scores, d_k):
    return tf.cast(scores, tf.float32) / tf.sqrt(float(d_k))
'''),
        "cast_back_to_int": (["integer", "cast back", "int32"], '''
def scale_scores_tf(scores, d_k):
    out = tf.cast(scores, tf.float32) / tf.sqrt(tf.cast(d_k, tf.float32))
    return tf.cast(out, scores.dtype)
'''),
        "divide_by_dk": (["sqrt", "square root"], '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.cast(d_k, scores.dtype)
'''),
        "multiply_by_sqrt": (["divide", "multipl", "sqrt"], '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores * tf.sqrt(tf.cast(d_k, scores.dtype))
'''),
    },
    "float16_scores": {
        "scale_after_product": (["overflow", "before the product", "inf", "65504"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scores = tf.matmul(queries, keys, transpose_b=True)
    return scores / tf.sqrt(tf.cast(d_k, tf.float16))
'''),
        "returns_float32": (["float16", "cast back", "dtype"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / tf.sqrt(float(d_k))
'''),
        "no_transpose_keys": (["transpose", "keys^t", "transpose_b"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.cast(tf.matmul(q, k) / tf.sqrt(float(d_k)), tf.float16)
'''),
        "dk_from_rows": (["d_k", "shape[-1]", "width", "number of keys"], '''
def float16_scores(queries, keys):
    d_k = keys.shape[0]
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.cast(tf.matmul(q, k, transpose_b=True) / tf.sqrt(float(d_k)), tf.float16)
'''),
        "scale_both_sides": (["sqrt", "twice", "both", "once"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    s = tf.sqrt(tf.cast(d_k, tf.float16))
    return tf.matmul(queries / s, keys / s, transpose_b=True)
'''),
    },
    "float32_roundoff": {
        "subtract_in_float32": (["float64", "subtract", "float32"], '''
def float32_roundoff(x):
    x32 = tf.cast(x, tf.float32)
    return tf.cast(x32 - tf.cast(x, tf.float32), tf.float64)
'''),
        "sign_reversed": (["minus", "sign", "order", "x - float32"], '''
def float32_roundoff(x):
    return x - tf.cast(tf.cast(x, tf.float32), tf.float64)
'''),
        "absolute_value": (["abs", "sign", "negative"], '''
def float32_roundoff(x):
    return tf.abs(tf.cast(tf.cast(x, tf.float32), tf.float64) - x)
'''),
        "returns_float32": (["float64", "dtype", "cast back"], '''
def float32_roundoff(x):
    return tf.cast(tf.cast(tf.cast(x, tf.float32), tf.float64) - x, tf.float32)
'''),
        "relative_roundoff": (["relative", "divide", "absolute difference"], '''
def float32_roundoff(x):
    return (tf.cast(tf.cast(x, tf.float32), tf.float64) - x) / x
'''),
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "cast_if_int": '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.math.sqrt(tf.cast(d_k, scores.dtype))
''',
        "multiply_rsqrt": '''
import math
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    dtype = tf.float32 if scores.dtype in (tf.int32, tf.int64) else scores.dtype
    return tf.cast(scores, dtype) * tf.constant(1.0 / math.sqrt(d_k), dtype=dtype)
''',
    },
    "float16_scores": {
        "via_float32": '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    d_k = q.shape[-1]
    scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(d_k, tf.float32))
    return tf.cast(scores, tf.float16)
''',
        "einsum_float32": '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    scores = tf.einsum("qd,kd->qk", q, k) * (float(q.shape[-1]) ** -0.5)
    return tf.cast(scores, queries.dtype)
''',
    },
    "float32_roundoff": {
        "cast_round_trip": '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x, dtype=tf.float64)
    return tf.cast(tf.cast(x, tf.float32), tf.float64) - x
''',
        "numpy_round_trip": '''
def float32_roundoff(x):
    a = np.asarray(x, dtype=np.float64)
    return tf.constant(a.astype(np.float32).astype(np.float64) - a, dtype=tf.float64)
''',
    },
}
