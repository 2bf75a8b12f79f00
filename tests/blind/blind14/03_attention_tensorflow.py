"""Blind set 14, notebook 03: Attention in TensorFlow. Written from notebooks/03_attention_tensorflow.ipynb only."""

MISTAKES = {
    "scale_scores_tf": {
        "floor_division": (["floor", "//", "integer division"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    scaled = scores // int(d_k ** 0.5)
    return tf.cast(scaled, tf.float32) if scores.dtype.is_integer else scaled
'''),
        "always_float32": (["float64", "keep", "own dtype"], '''
def scale_scores_tf(scores, d_k):
    return tf.cast(scores, tf.float32) / tf.math.sqrt(float(d_k))
'''),
        "truediv_gives_float64": (["float32", "cast", "float64"], '''
def scale_scores_tf(scores, d_k):
    return tf.convert_to_tensor(scores) / np.sqrt(d_k)
'''),
        "divide_by_dk": (["sqrt", "square root", "d_k"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / d_k
'''),
        "cast_back_to_int": (["integer", "cast back", "int32"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    dtype = scores.dtype
    scaled = tf.cast(scores, tf.float32) / tf.math.sqrt(float(d_k))
    return tf.cast(scaled, dtype)
'''),
    },
    "float16_scores": {
        "divide_after_product": (["overflow", "before the product", "inf"], '''
def float16_scores(queries, keys):
    queries, keys = tf.convert_to_tensor(queries), tf.convert_to_tensor(keys)
    d_k = queries.shape[-1]
    return tf.matmul(queries, keys, transpose_b=True) / tf.math.sqrt(tf.cast(d_k, tf.float16))
'''),
        "float32_not_cast_back": (["float16", "cast back", "dtype"], '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(q.shape[-1]))
'''),
        "no_transpose_keys": (["transpose", "transpose_b", "keys"], '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    scores = tf.matmul(q, tf.reshape(k, (k.shape[-1], -1))) / tf.math.sqrt(float(q.shape[-1]))
    return tf.cast(scores, tf.float16)
'''),
        "scale_both_by_sqrt": (["twice", "both", "sqrt"], '''
def float16_scores(queries, keys):
    queries, keys = tf.convert_to_tensor(queries), tf.convert_to_tensor(keys)
    s = tf.math.sqrt(tf.cast(queries.shape[-1], tf.float16))
    return tf.matmul(queries / s, keys / s, transpose_b=True)
'''),
        "sqrt_of_n_keys": (["d_k", "width", "number of keys"], '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(k.shape[0]))
    return tf.cast(scores, tf.float16)
'''),
    },
    "float32_roundoff": {
        "subtract_in_float32": (["float64", "subtract", "float32"], '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x)
    return tf.cast(tf.cast(x, tf.float32) - tf.cast(x, tf.float32), tf.float64)
'''),
        "returns_float32": (["float64", "cast back", "dtype"], '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x)
    return tf.cast(tf.cast(tf.cast(x, tf.float32), tf.float64) - x, tf.float32)
'''),
        "wrong_sign": (["sign", "minus x", "order"], '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x)
    return x - tf.cast(tf.cast(x, tf.float32), tf.float64)
'''),
        "float16_instead": (["float32", "float16", "precision"], '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x)
    return tf.cast(tf.cast(x, tf.float16), tf.float64) - x
'''),
        "absolute_value": (["sign", "abs", "absolute"], '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x)
    return tf.abs(tf.cast(tf.cast(x, tf.float32), tf.float64) - x)
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
        "python_float": '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if scores.dtype not in (tf.float32, tf.float64):
        scores = tf.cast(scores, tf.float32)
    return tf.math.multiply(scores, tf.constant(d_k ** -0.5, scores.dtype))
''',
    },
    "float16_scores": {
        "float32_then_cast": '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(q.shape[-1]))
    return tf.cast(scores, tf.float16)
''',
        "scale_queries_first": '''
def float16_scores(queries, keys):
    queries, keys = tf.convert_to_tensor(queries), tf.convert_to_tensor(keys)
    q = queries / tf.math.sqrt(tf.cast(queries.shape[-1], tf.float16))
    return tf.matmul(q, keys, transpose_b=True)
''',
    },
    "float32_roundoff": {
        "double_cast": '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x)
    return tf.cast(tf.cast(x, tf.float32), tf.float64) - x
''',
        "numpy_based": '''
def float32_roundoff(x):
    x64 = np.asarray(x, dtype=np.float64)
    return tf.constant(x64.astype(np.float32).astype(np.float64) - x64)
''',
    },
}
