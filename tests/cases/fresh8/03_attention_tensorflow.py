"""Eighth fresh set, notebook 03: attention in TensorFlow (dtypes)."""

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
    "integer_arithmetic:int_sqrt": '''
import math


def scale_scores_tf(scores, d_k):
    if scores.dtype == tf.int32:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.cast(int(math.sqrt(d_k)), scores.dtype)
''',
    "integer_arithmetic:cast_back": '''
def scale_scores_tf(scores, d_k):
    original = scores.dtype
    x = tf.cast(scores, tf.float32) if original == tf.int32 else scores
    x = x / tf.math.sqrt(tf.cast(d_k, x.dtype))
    return tf.cast(x, original)
''',
    "lower_precision:always_float32": '''
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float32)
    return scores / tf.math.sqrt(float(d_k))
''',
    "lower_precision:float16_detour": '''
def scale_scores_tf(scores, d_k):
    target = tf.float32 if scores.dtype.is_integer else scores.dtype
    half = tf.cast(scores, tf.float16) / tf.math.sqrt(tf.cast(d_k, tf.float16))
    return tf.cast(half, target)
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
    "uncatalogued:int_to_float64": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float64)
    return scores / tf.math.sqrt(tf.cast(d_k, scores.dtype))
''',
    "uncatalogued:multiplied": '''
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores * tf.math.sqrt(tf.cast(d_k, scores.dtype))
''',
}
VARIANTS["scale_scores_tf"] = {
    "python_sqrt": '''
import math


def scale_scores_tf(scores, d_k):
    if scores.dtype == tf.int32:
        scores = tf.cast(scores, tf.float32)
    return scores / math.sqrt(d_k)
''',
    "truediv_dtype_table": '''
def scale_scores_tf(scores, d_k):
    dtype = scores.dtype if scores.dtype in (tf.float32, tf.float64) else tf.float32
    x = tf.cast(scores, dtype)
    return tf.math.truediv(x, tf.sqrt(tf.constant(d_k, dtype=dtype)))
''',
}

# --------------------------------------------------------------------------- float16_scores
MISTAKES["float16_scores"] = {
    "float16_overflow": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    raw = tf.matmul(queries, keys, transpose_b=True)
    return raw / tf.math.sqrt(tf.cast(d_k, raw.dtype))
''',
    "float16_overflow:cast_back_before_scale": '''
def float16_scores(queries, keys):
    raw = tf.matmul(tf.cast(queries, tf.float32), tf.cast(keys, tf.float32), transpose_b=True)
    raw = tf.cast(raw, tf.float16)
    return raw / tf.cast(tf.math.sqrt(float(queries.shape[-1])), tf.float16)
''',
    "no_scaling": '''
def float16_scores(queries, keys):
    return tf.matmul(queries, tf.transpose(keys))
''',
    "scale_by_d_k": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    return tf.matmul(queries / tf.cast(d_k, tf.float16), keys, transpose_b=True)
''',
    "scale_applied_twice:both_scaled": '''
def float16_scores(queries, keys):
    root = tf.math.sqrt(tf.cast(queries.shape[-1], tf.float16))
    return tf.matmul(queries / root, keys / root, transpose_b=True)
''',
    "scale_by_sqrt_tokens": '''
def float16_scores(queries, keys):
    root = tf.math.sqrt(tf.cast(keys.shape[0], tf.float16))
    return tf.matmul(queries / root, keys, transpose_b=True)
''',
    "keys_without_transpose": '''
def float16_scores(queries, keys):
    root = tf.math.sqrt(tf.cast(queries.shape[-1], tf.float16))
    return tf.matmul(queries / root, keys)
''',
    "keys_times_queries": '''
def float16_scores(queries, keys):
    root = tf.math.sqrt(tf.cast(queries.shape[-1], tf.float16))
    return tf.matmul(keys, queries / root, transpose_b=True)
''',
    "uncatalogued:result_float32": '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(q.shape[-1]))
''',
}
VARIANTS["float16_scores"] = {
    "float32_then_cast": '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    scaled = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(q.shape[-1]))
    return tf.cast(scaled, tf.float16)
''',
    "keys_scaled_first": '''
def float16_scores(queries, keys):
    root = tf.math.sqrt(tf.cast(tf.shape(keys)[-1], keys.dtype))
    return tf.linalg.matmul(queries, tf.transpose(keys / root))
''',
}

# --------------------------------------------------------------------------- float32_roundoff
MISTAKES["float32_roundoff"] = {
    "lower_precision:subtracted_in_float32": '''
def float32_roundoff(x):
    x32 = tf.cast(x, tf.float32)
    return tf.cast(x32 - tf.cast(x, tf.float32), tf.float64)
''',
    "lower_precision:returned_float32": '''
def float32_roundoff(x):
    rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return tf.cast(rounded - x, tf.float32)
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
    "uncatalogued:float16_roundoff": '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float16), tf.float64) - x
''',
    "uncatalogued:returns_rounded": '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float32), tf.float64)
''',
}
VARIANTS["float32_roundoff"] = {
    "cast_to_input_dtype": '''
def float32_roundoff(x):
    return tf.subtract(tf.cast(tf.cast(x, tf.float32), x.dtype), x)
''',
    "numpy_roundtrip": '''
def float32_roundoff(x):
    a = x.numpy()
    return tf.constant(a.astype(np.float32).astype(np.float64) - a)
''',
}
