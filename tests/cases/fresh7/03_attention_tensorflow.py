"""Seventh fresh set, notebook 03. Written without the key (see README.md)."""

MISTAKES = {
    "scale_scores_tf": {
        "integer_arithmetic:floordiv": """
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores // tf.math.sqrt(tf.cast(d_k, scores.dtype))
""",
        "integer_arithmetic:int_sqrt": """
def scale_scores_tf(scores, d_k):
    if scores.dtype == tf.int32:
        scores = tf.cast(scores, tf.float32)
    return scores / int(np.sqrt(d_k))
""",
        "integer_arithmetic:cast_back": """
def scale_scores_tf(scores, d_k):
    original = scores.dtype
    x = tf.cast(scores, tf.float32) if original == tf.int32 else scores
    return tf.cast(x / tf.sqrt(tf.cast(d_k, x.dtype)), original)
""",
        "lower_precision:always_float32": """
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float32)
    return scores / tf.sqrt(float(d_k))
""",
        "lower_precision:int_to_float16": """
def scale_scores_tf(scores, d_k):
    if scores.dtype == tf.int32:
        return tf.cast(tf.cast(scores, tf.float16) / tf.sqrt(tf.cast(d_k, tf.float16)), tf.float32)
    return scores / tf.sqrt(tf.cast(d_k, scores.dtype))
""",
        "uncatalogued:int_to_float64": """
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float64)
    return scores / tf.math.sqrt(tf.cast(d_k, scores.dtype))
""",
        "no_scaling": """
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores
""",
        "scale_by_d_k": """
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.cast(d_k, scores.dtype)
""",
    },
    "float16_scores": {
        "float16_overflow": """
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scores = tf.matmul(queries, keys, transpose_b=True)
    return scores / tf.math.sqrt(tf.cast(d_k, tf.float16))
""",
        "float16_overflow:cast_back_before_division": """
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    raw = tf.matmul(tf.cast(queries, tf.float32), tf.cast(keys, tf.float32), transpose_b=True)
    raw = tf.cast(raw, tf.float16)
    return raw / tf.cast(tf.sqrt(float(d_k)), tf.float16)
""",
        "no_scaling": """
def float16_scores(queries, keys):
    return tf.matmul(queries, keys, transpose_b=True)
""",
        "keys_without_transpose": """
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = queries / tf.math.sqrt(tf.cast(d_k, queries.dtype))
    return tf.matmul(q, keys)
""",
        "keys_times_queries": """
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = queries / tf.math.sqrt(tf.cast(d_k, queries.dtype))
    return tf.matmul(keys, q, transpose_b=True)
""",
        "uncatalogued:left_in_float32": """
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / tf.sqrt(float(q.shape[-1]))
""",
        "scale_by_d_k": """
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    return tf.matmul(queries / d_k, keys, transpose_b=True)
""",
        "scale_by_sqrt_tokens": """
def float16_scores(queries, keys):
    n = keys.shape[0]
    q = queries / tf.math.sqrt(tf.cast(n, tf.float16))
    return tf.matmul(q, keys, transpose_b=True)
""",
    },
    "float32_roundoff": {
        "lower_precision:subtracted_in_float32": """
def float32_roundoff(x):
    x32 = tf.cast(x, tf.float32)
    return tf.cast(x32 - tf.cast(x, tf.float32), tf.float64)
""",
        "lower_precision:result_cast_to_float32": """
def float32_roundoff(x):
    rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return tf.cast(rounded - x, tf.float32)
""",
        "uncatalogued:sign_flipped": """
def float32_roundoff(x):
    return x - tf.cast(tf.cast(x, tf.float32), tf.float64)
""",
        "uncatalogued:absolute_error": """
def float32_roundoff(x):
    return tf.abs(tf.cast(tf.cast(x, tf.float32), tf.float64) - x)
""",
        "uncatalogued:relative_error": """
def float32_roundoff(x):
    rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return (rounded - x) / x
""",
        "uncatalogued:rounded_to_float16": """
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float16), tf.float64) - x
""",
        "uncatalogued:returns_rounded_value": """
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float32), tf.float64)
""",
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "rsqrt": """
def scale_scores_tf(scores, d_k):
    dtype = scores.dtype if scores.dtype in (tf.float32, tf.float64) else tf.float32
    x = tf.cast(scores, dtype)
    return x * tf.math.rsqrt(tf.constant(d_k, dtype=dtype))
""",
        "numpy_scalar": """
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, 'float32')
    return tf.math.divide(scores, tf.constant(np.sqrt(d_k), dtype=scores.dtype))
""",
    },
    "float16_scores": {
        "keys_scaled_first": """
def float16_scores(queries, keys):
    scale = tf.cast(1.0 / np.sqrt(keys.shape[-1]), keys.dtype)
    return queries @ tf.transpose(keys * scale)
""",
        "float32_then_cast": """
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    s = tf.matmul(q, k, transpose_b=True) / tf.sqrt(tf.cast(tf.shape(q)[-1], tf.float32))
    return tf.cast(s, tf.float16)
""",
    },
    "float32_roundoff": {
        "via_numpy": """
def float32_roundoff(x):
    a = x.numpy()
    return tf.constant(a.astype(np.float32).astype(np.float64) - a)
""",
        "subtract_op": """
def float32_roundoff(x):
    back = tf.cast(tf.cast(x, 'float32'), x.dtype)
    return tf.subtract(back, x)
""",
    },
}
