"""Blind set 2, notebook 03: The same attention in TensorFlow. Written from notebooks/03_attention_tensorflow.ipynb only."""

MISTAKES = {
    "scale_scores_tf": {
        "cast_to_float64": (["float32", "float64", "cast"], '''
def scale_scores_tf(scores, d_k):
    return tf.cast(scores, tf.float64) / np.sqrt(d_k)
'''),
        "floor_division": (["floor", "//", "truncat", "integer division"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    x = scores if scores.dtype.is_floating else tf.cast(scores, tf.float32)
    return x // tf.math.sqrt(tf.cast(d_k, x.dtype))
'''),
        "always_float32": (["float64", "keep", "own dtype", "float scores"], '''
def scale_scores_tf(scores, d_k):
    return tf.cast(scores, tf.float32) / tf.math.sqrt(float(d_k))
'''),
        "divide_by_d_k": (["sqrt", "square root"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    x = scores if scores.dtype.is_floating else tf.cast(scores, tf.float32)
    return x / tf.cast(d_k, x.dtype)
'''),
        "cast_back_to_int": (["integer", "cast back", "int32"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    x = scores if scores.dtype.is_floating else tf.cast(scores, tf.float32)
    return tf.cast(x / tf.math.sqrt(tf.cast(d_k, x.dtype)), scores.dtype)
'''),
    },
    "float16_scores": {
        "divide_after_product": (["overflow", "inf", "before the product", "65504"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scores = tf.matmul(queries, keys, transpose_b=True)
    return scores / tf.math.sqrt(tf.cast(d_k, tf.float16))
'''),
        "float32_not_cast_back": (["float16", "cast back", "dtype"], '''
def float16_scores(queries, keys):
    q, k = tf.cast(queries, tf.float32), tf.cast(keys, tf.float32)
    d_k = q.shape[-1]
    return tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(d_k))
'''),
        "scales_both_sides": (["both", "twice", "once", "d_k instead"], '''
def float16_scores(queries, keys):
    queries, keys = tf.convert_to_tensor(queries), tf.convert_to_tensor(keys)
    scale = tf.math.sqrt(tf.cast(queries.shape[-1], tf.float16))
    return tf.matmul(queries / scale, keys / scale, transpose_b=True)
'''),
        "d_k_from_wrong_axis": (["d_k", "width", "shape[-1]", "last axis"], '''
def float16_scores(queries, keys):
    q, k = tf.cast(queries, tf.float32), tf.cast(keys, tf.float32)
    d_k = q.shape[0]
    return tf.cast(tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(d_k)), tf.float16)
'''),
        "no_scaling": (["sqrt", "scale", "divide"], '''
def float16_scores(queries, keys):
    q, k = tf.cast(queries, tf.float32), tf.cast(keys, tf.float32)
    return tf.cast(tf.matmul(q, k, transpose_b=True), tf.float16)
'''),
    },
    "float32_roundoff": {
        "subtract_in_float32": (["float64", "subtract in float32", "zero", "before subtracting"], '''
def float32_roundoff(x):
    x32 = tf.cast(x, tf.float32)
    return tf.cast(x32 - tf.cast(x, tf.float32), tf.float64)
'''),
        "sign_reversed": (["sign", "minus", "order", "x - "], '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x, tf.float64)
    return x - tf.cast(tf.cast(x, tf.float32), tf.float64)
'''),
        "mixed_dtype_subtraction": (["cast", "float64", "back", "mix"], '''
def float32_roundoff(x):
    return tf.cast(x, tf.float32) - x
'''),
        "absolute_value": (["absolute", "abs", "sign"], '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x, tf.float64)
    return tf.abs(tf.cast(tf.cast(x, tf.float32), tf.float64) - x)
'''),
        "relative_error": (["relative", "divid", "size of x"], '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x, tf.float64)
    return (tf.cast(tf.cast(x, tf.float32), tf.float64) - x) / x
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
    return scores / tf.math.sqrt(tf.cast(d_k, scores.dtype))
''',
        "rsqrt_multiply": '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if scores.dtype not in (tf.float32, tf.float64):
        scores = tf.cast(scores, tf.float32)
    return tf.math.multiply(scores, tf.math.rsqrt(tf.constant(float(d_k), dtype=scores.dtype)))
''',
    },
    "float16_scores": {
        "float32_then_back": '''
def float16_scores(queries, keys):
    q, k = tf.cast(queries, tf.float32), tf.cast(keys, tf.float32)
    scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(q.shape[-1]))
    return tf.cast(scores, tf.float16)
''',
        "scale_queries_first": '''
def float16_scores(queries, keys):
    queries = tf.convert_to_tensor(queries, tf.float16)
    keys = tf.convert_to_tensor(keys, tf.float16)
    scaled_queries = queries / tf.math.sqrt(tf.cast(tf.shape(queries)[-1], tf.float16))
    return tf.matmul(scaled_queries, keys, transpose_b=True)
''',
    },
    "float32_roundoff": {
        "cast_twice": '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x, tf.float64)
    return tf.cast(tf.cast(x, tf.float32), tf.float64) - x
''',
        "numpy_astype": '''
def float32_roundoff(x):
    x64 = np.asarray(x, dtype=np.float64)
    return tf.constant(x64.astype(np.float32).astype(np.float64) - x64)
''',
    },
}
