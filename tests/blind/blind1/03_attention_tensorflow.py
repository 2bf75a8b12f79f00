"""Blind set 1, notebook 03: The same attention in TensorFlow. Written from notebooks/03_attention_tensorflow.ipynb only."""

MISTAKES = {
    "scale_scores_tf": {
        "no_cast_int_over_float": (["tf.cast", "cast", "int32"], '''
def scale_scores_tf(scores, d_k):
    return scores / np.sqrt(d_k)
'''),
        "cast_to_float64": (["float32", "not float64"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float64)
    return scores / tf.math.sqrt(tf.cast(d_k, tf.float64))
'''),
        "always_float32": (["float64", "keep their", "own dtype", "only integer"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float32)
    return scores / tf.math.sqrt(float(d_k))
'''),
        "floor_division": (["floor", "//", "truncat"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    scaled = scores // int(np.sqrt(d_k))
    return tf.cast(scaled, tf.float32) if scaled.dtype.is_integer else scaled
'''),
        "divide_by_d_k": (["square root", "sqrt"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.cast(d_k, scores.dtype)
'''),
        "int_division_then_cast": (["cast first", "before dividing", "float64", "int / int"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if scores.dtype.is_integer:
        # int32 / int32 gives float64 in TensorFlow
        return scores / tf.cast(tf.math.sqrt(float(d_k)), scores.dtype)
    return scores / tf.math.sqrt(tf.cast(d_k, scores.dtype))
'''),
    },
    "float16_scores": {
        "divide_after_product": (["overflow", "before the product", "65504", "infinite"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scores = tf.matmul(queries, keys, transpose_b=True)
    return scores / tf.math.sqrt(tf.cast(d_k, scores.dtype))
'''),
        "left_in_float32": (["float16", "cast back"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q32 = tf.cast(queries, tf.float32)
    k32 = tf.cast(keys, tf.float32)
    return tf.matmul(q32, k32, transpose_b=True) / tf.math.sqrt(float(d_k))
'''),
        "both_divided_by_sqrt": (["twice", "both", "only one", "d_k instead"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scale = tf.math.sqrt(tf.cast(d_k, tf.float16))
    return tf.matmul(queries / scale, keys / scale, transpose_b=True)
'''),
        "no_transpose": (["transpose", "transpose_b", "keys^t"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = queries / tf.math.sqrt(tf.cast(d_k, tf.float16))
    return tf.matmul(q, keys)
'''),
        "no_scale": (["sqrt", "scale", "square root", "√d_k"], '''
def float16_scores(queries, keys):
    scores = tf.matmul(tf.cast(queries, tf.float32), tf.cast(keys, tf.float32), transpose_b=True)
    return tf.cast(scores, tf.float16)
'''),
    },
    "float32_roundoff": {
        "subtract_in_float32": (["subtract in float64", "zero", "loses", "in float32"], '''
def float32_roundoff(x):
    x32 = tf.cast(x, tf.float32)
    return tf.cast(x32 - tf.cast(x, tf.float32), tf.float64)
'''),
        "sign_reversed": (["sign", "minus x", "the other way", "reversed"], '''
def float32_roundoff(x):
    back = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return x - back
'''),
        "no_cast_back": (["cast back", "float64", "mix", "brought back"], '''
def float32_roundoff(x):
    return tf.cast(x, tf.float32) - x
'''),
        "absolute_value": (["abs", "sign", "signed"], '''
def float32_roundoff(x):
    back = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return tf.abs(back - x)
'''),
        "relative_error": (["relative", "divide by x", "absolute difference"], '''
def float32_roundoff(x):
    back = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return (back - x) / x
'''),
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "branch_on_dtype": '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)  # cast once, before dividing
    return scores / tf.math.sqrt(tf.cast(d_k, scores.dtype))
''',
        "rsqrt": '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if scores.dtype not in (tf.float32, tf.float64):
        scores = tf.cast(scores, tf.float32)
    return scores * tf.math.rsqrt(tf.constant(d_k, dtype=scores.dtype))
''',
    },
    "float16_scores": {
        "via_float32": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q32 = tf.cast(queries, tf.float32)
    k32 = tf.cast(keys, tf.float32)
    scores = tf.matmul(q32, k32, transpose_b=True) / tf.math.sqrt(float(d_k))
    return tf.cast(scores, tf.float16)
''',
        "scale_queries_first": '''
def float16_scores(queries, keys):
    queries = tf.convert_to_tensor(queries)
    d_k = queries.shape[-1]
    scaled_queries = queries / tf.math.sqrt(tf.cast(d_k, queries.dtype))
    return tf.matmul(scaled_queries, keys, transpose_b=True)
''',
    },
    "float32_roundoff": {
        "cast_twice": '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x)
    back = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return back - x
''',
        "numpy_round_trip": '''
def float32_roundoff(x):
    x64 = np.asarray(x, dtype=np.float64)
    rounded = x64.astype(np.float32).astype(np.float64)
    return tf.constant(rounded - x64, dtype=tf.float64)
''',
    },
}
