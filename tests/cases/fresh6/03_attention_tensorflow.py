"""Sixth fresh set, notebook 03: attention in TensorFlow (dtypes)."""

MISTAKES = {
    "scale_scores_tf": {
        "integer_arithmetic:floor_division": '''
def scale_scores_tf(scores, d_k):
    root = tf.cast(tf.math.sqrt(float(d_k)), scores.dtype)
    scaled = scores // root
    return tf.cast(scaled, tf.float32) if not scaled.dtype.is_floating else scaled
''',
        "integer_arithmetic:cast_back_to_input_dtype": '''
def scale_scores_tf(scores, d_k):
    x = scores if scores.dtype.is_floating else tf.cast(scores, tf.float32)
    scaled = x / tf.math.sqrt(tf.cast(d_k, x.dtype))
    return tf.cast(scaled, scores.dtype)
''',
        "integer_arithmetic:int_of_sqrt": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype == tf.int32:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.cast(int(np.sqrt(d_k)), scores.dtype)
''',
        "lower_precision:always_float32": '''
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float32)
    return scores / tf.sqrt(tf.constant(float(d_k)))
''',
        "lower_precision:ints_to_float16": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float16)
    return scores / tf.math.sqrt(tf.cast(d_k, scores.dtype))
''',
        "scale_by_d_k": '''
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.cast(d_k, scores.dtype)
''',
        "no_scaling": '''
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores
''',
        "scale_applied_twice": '''
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    root = tf.math.sqrt(tf.cast(d_k, scores.dtype))
    scores = scores / root
    return scores / root
''',
        "uncatalogued:always_float64": '''
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float64)
    return scores / tf.math.sqrt(tf.cast(d_k, tf.float64))
''',
        "uncatalogued:multiplied_by_sqrt": '''
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores * tf.math.sqrt(tf.cast(d_k, scores.dtype))
''',
    },
    "float16_scores": {
        "float16_overflow:product_first": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scores = tf.matmul(queries, keys, transpose_b=True)
    return scores / tf.math.sqrt(tf.cast(d_k, tf.float16))
''',
        "float16_overflow:cast_back_before_dividing": '''
def float16_scores(queries, keys):
    scores = tf.matmul(tf.cast(queries, tf.float32), tf.cast(keys, tf.float32), transpose_b=True)
    scores = tf.cast(scores, tf.float16)
    return scores / tf.cast(tf.sqrt(float(queries.shape[-1])), tf.float16)
''',
        "no_scaling": '''
def float16_scores(queries, keys):
    return tf.matmul(queries, tf.transpose(keys))
''',
        "scale_by_d_k": '''
def float16_scores(queries, keys):
    queries = queries / tf.cast(queries.shape[-1], tf.float16)
    return tf.matmul(queries, keys, transpose_b=True)
''',
        "scale_by_sqrt_tokens": '''
def float16_scores(queries, keys):
    queries = queries / tf.math.sqrt(tf.cast(keys.shape[0], tf.float16))
    return tf.matmul(queries, keys, transpose_b=True)
''',
        "scale_applied_twice": '''
def float16_scores(queries, keys):
    root = tf.math.sqrt(tf.cast(queries.shape[-1], tf.float16))
    scores = tf.matmul(queries / root, keys, transpose_b=True)
    return scores / root
''',
        "keys_without_transpose": '''
def float16_scores(queries, keys):
    queries = queries / tf.math.sqrt(tf.cast(queries.shape[-1], queries.dtype))
    return tf.matmul(queries, keys)
''',
        "keys_times_queries": '''
def float16_scores(queries, keys):
    queries = queries / tf.math.sqrt(tf.cast(queries.shape[-1], queries.dtype))
    return tf.matmul(keys, queries, transpose_b=True)
''',
        "uncatalogued:returns_float32": '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / tf.sqrt(tf.cast(q.shape[-1], tf.float32))
''',
    },
    "float32_roundoff": {
        "lower_precision:subtracted_in_float32": '''
def float32_roundoff(x):
    rounded = tf.cast(x, tf.float32)
    return tf.cast(rounded - tf.cast(x, tf.float32), tf.float64)
''',
        "lower_precision:result_cast_to_float32": '''
def float32_roundoff(x):
    difference = tf.cast(tf.cast(x, tf.float32), tf.float64) - x
    return tf.cast(difference, tf.float32)
''',
        "uncatalogued:sign_flipped": '''
def float32_roundoff(x):
    return x - tf.cast(tf.cast(x, tf.float32), tf.float64)
''',
        "uncatalogued:absolute_value": '''
def float32_roundoff(x):
    return tf.abs(tf.cast(tf.cast(x, tf.float32), tf.float64) - x)
''',
        "uncatalogued:relative_error": '''
def float32_roundoff(x):
    return (tf.cast(tf.cast(x, tf.float32), tf.float64) - x) / x
''',
        "uncatalogued:rounded_to_float16": '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float16), tf.float64) - x
''',
        "uncatalogued:returns_rounded_value": '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float32), tf.float64)
''',
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "rsqrt": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype == tf.int32:
        scores = tf.cast(scores, tf.float32)
    return scores * tf.math.rsqrt(tf.cast(d_k, scores.dtype))
''',
        "truediv_numpy_constant": '''
def scale_scores_tf(scores, d_k):
    x = scores if scores.dtype.is_floating else tf.cast(scores, "float32")
    return tf.math.truediv(x, tf.constant(np.sqrt(d_k), dtype=x.dtype))
''',
    },
    "float16_scores": {
        "float32_then_back": '''
def float16_scores(queries, keys):
    q32, k32 = tf.cast(queries, tf.float32), tf.cast(keys, tf.float32)
    scores = q32 @ tf.transpose(k32) / np.sqrt(q32.shape[-1]).astype(np.float32)
    return tf.cast(scores, tf.float16)
''',
        "einsum_scaled_queries": '''
def float16_scores(queries, keys):
    scaled = queries * tf.math.rsqrt(tf.cast(tf.shape(queries)[-1], queries.dtype))
    return tf.einsum("qd,kd->qk", scaled, keys)
''',
    },
    "float32_roundoff": {
        "numpy_round_trip": '''
def float32_roundoff(x):
    a = x.numpy()
    return tf.constant(a.astype(np.float32).astype(np.float64) - a)
''',
        "negated_difference": '''
def float32_roundoff(x):
    back = tf.cast(tf.cast(x, "float32"), "float64")
    return -tf.subtract(x, back)
''',
    },
}
