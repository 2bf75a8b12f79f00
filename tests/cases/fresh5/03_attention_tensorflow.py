"""Fifth fresh set, notebook 03 (TensorFlow): what a learner types into each solution cell."""

MISTAKES = {
    "scale_scores_tf": {
        "integer_arithmetic:floordiv": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores // tf.sqrt(tf.cast(d_k, scores.dtype))
''',
        "integer_arithmetic:cast_back": '''
def scale_scores_tf(scores, d_k):
    dtype = scores.dtype
    scaled = tf.cast(scores, tf.float32) / tf.sqrt(float(d_k)) if dtype.is_integer else scores / tf.sqrt(tf.cast(d_k, dtype))
    return tf.cast(scaled, dtype)
''',
        "integer_arithmetic:int_root": '''
import math

def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.cast(int(math.sqrt(d_k)), scores.dtype)
''',
        "lower_precision:always_float32": '''
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float32)
    return scores / tf.math.sqrt(tf.constant(d_k, tf.float32))
''',
        "lower_precision:int_to_float16": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype == tf.int32:
        scores = tf.cast(scores, tf.float16)
    return scores / tf.sqrt(tf.cast(d_k, scores.dtype))
''',
        "uncatalogued:int_to_float64": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float64)
    return scores / tf.sqrt(tf.cast(d_k, scores.dtype))
''',
        "no_scaling": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        return tf.cast(scores, tf.float32)
    return scores
''',
        "scale_by_d_k": '''
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.cast(d_k, scores.dtype)
''',
        "scale_applied_twice": '''
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    root = tf.sqrt(tf.cast(d_k, scores.dtype))
    scores = scores / root
    return scores / root
''',
        "uncatalogued:multiplied": '''
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores * tf.sqrt(tf.cast(d_k, scores.dtype))
''',
    },
    "float16_scores": {
        "float16_overflow:divide_after": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scores = tf.matmul(queries, keys, transpose_b=True)
    return scores / tf.sqrt(tf.cast(d_k, tf.float16))
''',
        "float16_overflow:cast_before_divide": '''
def float16_scores(queries, keys):
    q32, k32 = tf.cast(queries, tf.float32), tf.cast(keys, tf.float32)
    products = tf.cast(tf.matmul(q32, k32, transpose_b=True), tf.float16)
    return products / tf.cast(tf.sqrt(float(queries.shape[-1])), tf.float16)
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
        "scale_applied_twice:both_shrunk": '''
def float16_scores(queries, keys):
    root = tf.cast(tf.sqrt(float(keys.shape[-1])), tf.float16)
    return tf.matmul(queries / root, keys / root, transpose_b=True)
''',
        "keys_without_transpose": '''
def float16_scores(queries, keys):
    root = tf.cast(tf.sqrt(float(keys.shape[-1])), tf.float16)
    return tf.matmul(queries / root, keys)
''',
        "keys_times_queries": '''
def float16_scores(queries, keys):
    root = tf.cast(tf.sqrt(float(keys.shape[-1])), tf.float16)
    return tf.matmul(keys, queries / root, transpose_b=True)
''',
        "scale_by_sqrt_tokens": '''
def float16_scores(queries, keys):
    n = keys.shape[0]
    return tf.matmul(queries / tf.cast(tf.sqrt(float(n)), tf.float16), keys, transpose_b=True)
''',
        "integer_arithmetic:int_root": '''
import math

def float16_scores(queries, keys):
    root = int(math.sqrt(queries.shape[-1]))
    return tf.matmul(queries / root, keys, transpose_b=True)
''',
        "uncatalogued:left_in_float32": '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / tf.sqrt(float(q.shape[-1]))
''',
        "uncatalogued:float32_divisor": '''
def float16_scores(queries, keys):
    d_k = tf.cast(tf.shape(queries)[-1], tf.float32)
    return tf.matmul(queries / tf.sqrt(d_k), keys, transpose_b=True)
''',
    },
    "float32_roundoff": {
        "lower_precision:subtracted_in_float32": '''
def float32_roundoff(x):
    rounded = tf.cast(x, tf.float32)
    return tf.cast(rounded - tf.cast(x, tf.float32), tf.float64)
''',
        "lower_precision:result_float32": '''
def float32_roundoff(x):
    rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return tf.cast(rounded - x, tf.float32)
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
    back = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return (back - x) / x
''',
        "uncatalogued:rounds_to_float16": '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float16), tf.float64) - x
''',
        "uncatalogued:seven_decimals": '''
def float32_roundoff(x):
    return tf.round(x * 1e7) / 1e7 - x
''',
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "rsqrt": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype in (tf.int32, tf.int64):
        scores = tf.cast(scores, tf.float32)
    return tf.math.multiply(scores, tf.math.rsqrt(tf.constant(float(d_k), dtype=scores.dtype)))
''',
        "python_float": '''
import math

def scale_scores_tf(scores, d_k):
    x = scores if scores.dtype.is_floating else tf.cast(scores, "float32")
    return tf.math.divide(x, tf.constant(math.sqrt(d_k), dtype=x.dtype))
''',
    },
    "float16_scores": {
        "via_float32": '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    scaled = tf.matmul(q, k, transpose_b=True) / tf.sqrt(tf.cast(tf.shape(q)[-1], tf.float32))
    return tf.cast(scaled, queries.dtype)
''',
        "keys_scaled_einsum": '''
def float16_scores(queries, keys):
    factor = tf.constant(1.0 / keys.shape[-1] ** 0.5, dtype=keys.dtype)
    return tf.einsum("qd,kd->qk", queries, keys * factor)
''',
    },
    "float32_roundoff": {
        "subtract_op": '''
def float32_roundoff(x):
    single = tf.cast(x, dtype=tf.float32)
    return tf.subtract(tf.cast(single, dtype=x.dtype), x)
''',
        "numpy_roundtrip": '''
def float32_roundoff(x):
    values = x.numpy()
    return tf.constant(values.astype(np.float32).astype(np.float64) - values)
''',
    },
}
