"""Blind set 10, notebook 03: attention in TensorFlow. Written from notebooks/03_attention_tensorflow.ipynb only."""

MISTAKES = {
    "scale_scores_tf": {
        "cast_float64": (["float32", "float64", "dtype", "cast"], '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        return scores / tf.sqrt(float(d_k))
    return scores / tf.sqrt(tf.cast(d_k, scores.dtype))
'''),
        "floor_division": (["floor", "//", "integer"], '''
def scale_scores_tf(scores, d_k):
    return scores // int(d_k ** 0.5)
'''),
        "all_to_float32": (["float64", "keep", "own dtype", "float32"], '''
def scale_scores_tf(scores, d_k):
    return tf.cast(scores, tf.float32) / tf.sqrt(tf.constant(d_k, tf.float32))
'''),
        "divide_by_dk": (["sqrt", "square root", "d_k"], '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.cast(d_k, scores.dtype)
'''),
        "cast_back_int": (["integer", "cast back", "int32", "float"], '''
def scale_scores_tf(scores, d_k):
    dtype = scores.dtype
    out = tf.cast(scores, tf.float32) / tf.sqrt(tf.cast(d_k, tf.float32))
    return tf.cast(out, dtype)
'''),
    },
    "float16_scores": {
        "scale_after_product": (["before", "overflow", "inf", "order"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scores = tf.matmul(queries, keys, transpose_b=True)
    return scores / tf.cast(tf.sqrt(float(d_k)), tf.float16)
'''),
        "return_float32": (["float16", "cast back", "dtype"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / tf.sqrt(float(d_k))
'''),
        "no_transpose_keys": (["transpose", "keys", "transpose_b"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = tf.cast(queries, tf.float32) / tf.sqrt(float(d_k))
    return tf.cast(tf.matmul(tf.transpose(q), tf.cast(keys, tf.float32)), tf.float16)
'''),
        "scale_both_by_sqrt": (["twice", "both", "sqrt", "once"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scale = tf.cast(tf.sqrt(float(d_k)), tf.float16)
    return tf.matmul(queries / scale, keys / scale, transpose_b=True)
'''),
    },
    "float32_roundoff": {
        "subtract_in_float32": (["float64", "subtract", "float32"], '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float32) - tf.cast(x, tf.float32), tf.float64)
'''),
        "wrong_sign": (["sign", "minus", "order", "x - "], '''
def float32_roundoff(x):
    return x - tf.cast(tf.cast(x, tf.float32), tf.float64)
'''),
        "return_float32": (["float64", "dtype", "cast"], '''
def float32_roundoff(x):
    return tf.cast(tf.cast(tf.cast(x, tf.float32), tf.float64) - x, tf.float32)
'''),
        "absolute_value": (["abs", "sign", "absolute"], '''
def float32_roundoff(x):
    return tf.abs(tf.cast(tf.cast(x, tf.float32), tf.float64) - x)
'''),
        "float16_rounding": (["float32", "float16", "precision"], '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float16), tf.float64) - x
'''),
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "branch": '''
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.math.sqrt(tf.cast(d_k, scores.dtype))
''',
        "multiply_rsqrt": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype == tf.int32:
        scores = tf.cast(scores, tf.float32)
    return scores * tf.math.rsqrt(tf.constant(float(d_k), dtype=scores.dtype))
''',
    },
    "float16_scores": {
        "via_float32": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    scores = tf.matmul(q, k, transpose_b=True) / tf.sqrt(tf.cast(d_k, tf.float32))
    return tf.cast(scores, tf.float16)
''',
        "einsum_f32": '''
def float16_scores(queries, keys):
    d_k = int(queries.shape[-1])
    q = tf.cast(queries, tf.float32) / (d_k ** 0.5)
    s = tf.einsum("qd,kd->qk", q, tf.cast(keys, tf.float32))
    return tf.cast(s, queries.dtype)
''',
    },
    "float32_roundoff": {
        "cast_twice": '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float32), tf.float64) - x
''',
        "subtract_fn": '''
def float32_roundoff(x):
    back = tf.cast(tf.cast(x, dtype=tf.float32), dtype=tf.float64)
    return tf.subtract(back, tf.cast(x, tf.float64))
''',
    },
}
