"""Ninth fresh set, notebook 03: the same attention in TensorFlow (dtypes)."""

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
    "integer_arithmetic:sqrt_truncated": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.cast(int(d_k ** 0.5), scores.dtype)
''',
    "lower_precision:always_float32": '''
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float32)
    return scores / tf.math.sqrt(float(d_k))
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
    scaled = scores / root
    return scaled / root
''',
    "uncatalogued:cast_to_float64": '''
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float64)
    return scores / np.sqrt(d_k)
''',
    "uncatalogued:multiplied_by_root": '''
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores * tf.math.sqrt(tf.cast(d_k, scores.dtype))
''',
    "uncatalogued:softmax_applied": '''
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return tf.nn.softmax(scores / tf.math.sqrt(tf.cast(d_k, scores.dtype)), axis=-1)
''',
    "uncatalogued:cast_back_to_input_dtype": '''
def scale_scores_tf(scores, d_k):
    scaled = tf.cast(scores, tf.float32) / tf.math.sqrt(tf.cast(d_k, tf.float32))
    return tf.cast(scaled, scores.dtype)
''',
}
VARIANTS["scale_scores_tf"] = {
    "python_root": '''
def scale_scores_tf(scores, d_k):
    x = scores if scores.dtype.is_floating else tf.cast(scores, tf.float32)
    return x / d_k ** 0.5
''',
    "rsqrt": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype in (tf.int32, tf.int64):
        scores = tf.cast(scores, tf.float32)
    return scores * tf.math.rsqrt(tf.constant(d_k, dtype=scores.dtype))
''',
    "truediv_constant": '''
def scale_scores_tf(scores, d_k):
    dtype = scores.dtype if scores.dtype.is_floating else tf.float32
    return tf.math.truediv(tf.cast(scores, dtype), tf.constant(np.sqrt(d_k), dtype=dtype))
''',
}

# --------------------------------------------------------------------------- float16_scores
MISTAKES["float16_scores"] = {
    "float16_overflow": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scores = tf.matmul(queries, keys, transpose_b=True)
    return scores / tf.math.sqrt(tf.cast(d_k, scores.dtype))
''',
    "no_scaling": '''
def float16_scores(queries, keys):
    return tf.matmul(queries, keys, transpose_b=True)
''',
    "scale_by_d_k": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    return tf.matmul(queries / tf.cast(d_k, queries.dtype), keys, transpose_b=True)
''',
    "keys_without_transpose": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    return tf.matmul(queries / tf.math.sqrt(tf.cast(d_k, tf.float16)), keys)
''',
    "keys_times_queries": '''
def float16_scores(queries, keys):
    d_k = keys.shape[-1]
    return tf.matmul(keys, queries / tf.math.sqrt(tf.cast(d_k, tf.float16)), transpose_b=True)
''',
    "scale_by_sqrt_tokens": '''
def float16_scores(queries, keys):
    n_keys = keys.shape[0]
    return tf.matmul(queries / tf.math.sqrt(tf.cast(n_keys, tf.float16)), keys, transpose_b=True)
''',
    "scale_applied_twice:queries_and_keys": '''
def float16_scores(queries, keys):
    root = tf.math.sqrt(tf.cast(queries.shape[-1], tf.float16))
    return tf.matmul(queries / root, keys / root, transpose_b=True)
''',
    "integer_arithmetic:floor_division": '''
def float16_scores(queries, keys):
    root = tf.math.sqrt(tf.cast(queries.shape[-1], queries.dtype))
    return tf.matmul(queries // root, keys, transpose_b=True)
''',
    "uncatalogued:not_cast_back": '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(q.shape[-1]))
''',
    "uncatalogued:multiplied_by_root": '''
def float16_scores(queries, keys):
    root = tf.math.sqrt(tf.cast(queries.shape[-1], queries.dtype))
    return tf.matmul(queries * root, keys, transpose_b=True)
''',
}
VARIANTS["float16_scores"] = {
    "float32_then_back": '''
def float16_scores(queries, keys):
    q32, k32 = tf.cast(queries, tf.float32), tf.cast(keys, tf.float32)
    scores = tf.matmul(q32, k32, transpose_b=True) / tf.math.sqrt(tf.cast(tf.shape(q32)[-1], tf.float32))
    return tf.cast(scores, queries.dtype)
''',
    "keys_scaled_first": '''
def float16_scores(queries, keys):
    d_k = keys.shape[-1]
    scaled_keys = keys / tf.math.sqrt(tf.cast(d_k, keys.dtype))
    return tf.matmul(queries, tf.transpose(scaled_keys))
''',
    "einsum_rsqrt": '''
def float16_scores(queries, keys):
    factor = tf.math.rsqrt(tf.constant(queries.shape[-1], dtype=queries.dtype))
    return tf.einsum("qd,kd->qk", queries * factor, keys)
''',
}

# --------------------------------------------------------------------------- float32_roundoff
MISTAKES["float32_roundoff"] = {
    "lower_precision:subtracted_in_float32": '''
def float32_roundoff(x):
    rounded = tf.cast(x, tf.float32)
    return tf.cast(rounded - tf.cast(x, tf.float32), tf.float64)
''',
    "lower_precision:rounded_to_float16": '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float16), tf.float64) - x
''',
    "uncatalogued:sign_flipped": '''
def float32_roundoff(x):
    rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return x - rounded
''',
    "uncatalogued:returns_rounded_value": '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float32), tf.float64)
''',
    "uncatalogued:absolute_value": '''
def float32_roundoff(x):
    rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return tf.abs(rounded - x)
''',
    "uncatalogued:relative_error": '''
def float32_roundoff(x):
    rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return (rounded - x) / x
''',
    "uncatalogued:result_in_float32": '''
def float32_roundoff(x):
    rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return tf.cast(rounded - x, tf.float32)
''',
    "uncatalogued:spacing_instead_of_difference": '''
def float32_roundoff(x):
    return tf.constant(np.spacing(x.numpy().astype(np.float32)).astype(np.float64))
''',
}
VARIANTS["float32_roundoff"] = {
    "subtract_op": '''
def float32_roundoff(x):
    back = tf.cast(tf.cast(x, dtype=tf.float32), dtype=x.dtype)
    return tf.subtract(back, x)
''',
    "numpy": '''
def float32_roundoff(x):
    values = x.numpy()
    return tf.constant(values.astype(np.float32).astype(np.float64) - values)
''',
    "negated_difference": '''
def float32_roundoff(x):
    return -(x - tf.cast(tf.cast(x, tf.float32), tf.float64))
''',
}
