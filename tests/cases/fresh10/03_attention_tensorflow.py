"""Tenth fresh set, notebook 03: the same attention in TensorFlow."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}

# --------------------------------------------------------------------------- scale_scores_tf
MISTAKES["scale_scores_tf"] = {
    "integer_arithmetic:floor_division": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores // tf.math.sqrt(tf.cast(d_k, scores.dtype))
''',
    "integer_arithmetic:cast_back": '''
def scale_scores_tf(scores, d_k):
    scaled = tf.cast(scores, tf.float32) / tf.math.sqrt(float(d_k))
    return tf.cast(scaled, scores.dtype)
''',
    "lower_precision:always_float32": '''
def scale_scores_tf(scores, d_k):
    return tf.cast(scores, tf.float32) / tf.math.sqrt(tf.constant(d_k, tf.float32))
''',
    "lower_precision:half_detour": '''
def scale_scores_tf(scores, d_k):
    out_dtype = scores.dtype if scores.dtype.is_floating else tf.float32
    half = tf.cast(scores, tf.float16) / tf.math.sqrt(tf.constant(d_k, tf.float16))
    return tf.cast(half, out_dtype)
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
    "scale_by_sqrt_tokens:shape_instead_of_d_k": '''
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.math.sqrt(tf.cast(scores.shape[-1], scores.dtype))
''',
    "uncatalogued:integers_to_float64": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float64)
    return scores / tf.math.sqrt(tf.cast(d_k, scores.dtype))
''',
    "uncatalogued:multiplied_by_root": '''
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores * tf.math.sqrt(tf.cast(d_k, scores.dtype))
''',
}
VARIANTS["scale_scores_tf"] = {
    "truediv_constant": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype == tf.int32:
        scores = tf.cast(scores, tf.float32)
    return tf.math.truediv(scores, tf.constant(d_k ** 0.5, dtype=scores.dtype))
''',
    "rsqrt": '''
def scale_scores_tf(scores, d_k):
    x = scores if scores.dtype in (tf.float32, tf.float64) else tf.cast(scores, "float32")
    return x * tf.math.rsqrt(tf.cast(d_k, x.dtype))
''',
}

# --------------------------------------------------------------------------- float16_scores
MISTAKES["float16_scores"] = {
    "float16_overflow": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scores = tf.matmul(queries, keys, transpose_b=True)
    return scores / tf.math.sqrt(tf.cast(d_k, tf.float16))
''',
    "keys_without_transpose": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    queries = queries / tf.math.sqrt(tf.cast(d_k, queries.dtype))
    return tf.matmul(queries, keys)
''',
    "keys_times_queries": '''
def float16_scores(queries, keys):
    d_k = keys.shape[-1]
    keys = keys / tf.math.sqrt(tf.cast(d_k, keys.dtype))
    return tf.matmul(keys, queries, transpose_b=True)
''',
    "no_scaling": '''
def float16_scores(queries, keys):
    return tf.matmul(queries, tf.transpose(keys))
''',
    "scale_by_d_k": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    return tf.matmul(queries / d_k, keys, transpose_b=True)
''',
    "scale_by_sqrt_tokens": '''
def float16_scores(queries, keys):
    n_keys = keys.shape[0]
    queries = queries / tf.math.sqrt(tf.cast(n_keys, tf.float16))
    return tf.matmul(queries, keys, transpose_b=True)
''',
    "scale_applied_twice": '''
def float16_scores(queries, keys):
    root = tf.math.sqrt(tf.cast(queries.shape[-1], tf.float16))
    scores = tf.matmul(queries / root, keys, transpose_b=True)
    return scores / root
''',
    "uncatalogued:float32_result": '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(q.shape[-1]))
''',
}
VARIANTS["float16_scores"] = {
    "float32_detour": '''
def float16_scores(queries, keys):
    q, k = tf.cast(queries, tf.float32), tf.cast(keys, tf.float32)
    scores = tf.matmul(q, k, transpose_b=True) / tf.sqrt(tf.cast(tf.shape(q)[-1], tf.float32))
    return tf.cast(scores, tf.float16)
''',
    "keys_scaled_first": '''
def float16_scores(queries, keys):
    keys = keys / tf.cast(keys.shape[-1] ** 0.5, keys.dtype)
    return queries @ tf.transpose(keys)
''',
}

# --------------------------------------------------------------------------- float32_roundoff
MISTAKES["float32_roundoff"] = {
    "lower_precision:subtracted_in_float32": '''
def float32_roundoff(x):
    rounded = tf.cast(x, tf.float32)
    return tf.cast(rounded - tf.cast(x, tf.float32), tf.float64)
''',
    "lower_precision:returned_float32": '''
def float32_roundoff(x):
    difference = tf.cast(tf.cast(x, tf.float32), tf.float64) - x
    return tf.cast(difference, tf.float32)
''',
    "uncatalogued:float16_roundoff": '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float16), tf.float64) - x
''',
    "uncatalogued:sign_flipped": '''
def float32_roundoff(x):
    rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return x - rounded
''',
    "uncatalogued:relative_error": '''
def float32_roundoff(x):
    rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return (rounded - x) / x
''',
    "uncatalogued:absolute_value": '''
def float32_roundoff(x):
    rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return tf.abs(rounded - x)
''',
}
VARIANTS["float32_roundoff"] = {
    "numpy_detour": '''
def float32_roundoff(x):
    values = x.numpy()
    return tf.constant(values.astype(np.float32).astype(np.float64) - values)
''',
    "subtract_op": '''
def float32_roundoff(x):
    return tf.subtract(tf.cast(tf.cast(x, "float32"), "float64"), x)
''',
}
