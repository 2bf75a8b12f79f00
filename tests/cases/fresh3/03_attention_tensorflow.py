"""Third fresh set, notebook 03: learners' answers written without the grader's key.

Each source is what a learner would type in the exercise's solution cell; the notebook's earlier
cells have run. Written on 2026-11-23 from the exercise texts and the catalogue's ids and hints only,
checked only against the notebook's own solution (tests/cases/selfcheck.py fresh3), never against the
grader. Rule: never edited after its first measurement (see README.md).
"""

MISTAKES = {
    "scale_scores_tf": {
        "integer_arithmetic:floor_then_cast": '''
import math

def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        return tf.cast(scores // int(math.sqrt(d_k)), tf.float32)
    return scores / tf.math.sqrt(tf.cast(d_k, scores.dtype))
''',
        "integer_arithmetic:cast_back": '''
def scale_scores_tf(scores, d_k):
    original = scores.dtype
    scaled = tf.cast(scores, tf.float32) / tf.math.sqrt(float(d_k))
    return tf.cast(scaled, original)
''',
        "lower_precision:always_float32": '''
def scale_scores_tf(scores, d_k):
    return tf.cast(scores, tf.float32) / tf.sqrt(tf.constant(float(d_k)))
''',
        "lower_precision:half": '''
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float16)
    return scores / tf.math.sqrt(tf.cast(d_k, tf.float16))
''',
        "scale_by_d_k:no_sqrt": '''
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.cast(d_k, scores.dtype)
''',
        "no_scaling:cast_only": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype == tf.int32:
        scores = tf.cast(scores, tf.float32)
    return scores
''',
        "uncatalogued:true_division_float64": '''
def scale_scores_tf(scores, d_k):
    return scores / np.sqrt(d_k)
''',
        "uncatalogued:multiplied_by_rsqrt_inverse": '''
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.math.rsqrt(tf.cast(d_k, scores.dtype))
''',
        "uncatalogued:softmax_too": '''
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return tf.nn.softmax(scores / tf.math.sqrt(tf.cast(d_k, scores.dtype)), axis=-1)
''',
    },
    "float16_scores": {
        "float16_overflow:divide_after": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scores = tf.matmul(queries, keys, transpose_b=True)
    return scores / tf.math.sqrt(tf.cast(d_k, tf.float16))
''',
        "float16_overflow:rsqrt_after": '''
def float16_scores(queries, keys):
    scale = tf.math.rsqrt(tf.cast(tf.shape(keys)[-1], queries.dtype))
    return (queries @ tf.transpose(keys)) * scale
''',
        "keys_times_queries:swapped": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    queries = queries / tf.math.sqrt(tf.cast(d_k, queries.dtype))
    return tf.matmul(keys, queries, transpose_b=True)
''',
        "keys_without_transpose:plain_matmul": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    return tf.matmul(queries / tf.math.sqrt(tf.cast(d_k, tf.float16)), keys)
''',
        "scale_by_d_k:queries_first": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    return tf.matmul(queries / tf.cast(d_k, tf.float16), keys, transpose_b=True)
''',
        "scale_by_sqrt_tokens:n_keys": '''
def float16_scores(queries, keys):
    n = keys.shape[0]
    q = queries / tf.math.sqrt(tf.cast(n, tf.float16))
    return tf.matmul(q, keys, transpose_b=True)
''',
        "no_scaling:only_product": '''
def float16_scores(queries, keys):
    return tf.matmul(queries, keys, transpose_b=True)
''',
        "uncatalogued:left_in_float32": '''
def float16_scores(queries, keys):
    q32, k32 = tf.cast(queries, tf.float32), tf.cast(keys, tf.float32)
    return tf.matmul(q32, k32, transpose_b=True) / tf.math.sqrt(float(q32.shape[-1]))
''',
        "uncatalogued:clipped_overflow": '''
def float16_scores(queries, keys):
    raw = tf.matmul(queries, keys, transpose_b=True)
    raw = tf.clip_by_value(raw, -65504.0, 65504.0)
    return raw / tf.math.sqrt(tf.cast(queries.shape[-1], tf.float16))
''',
    },
    "float32_roundoff": {
        "lower_precision:returned_float32": '''
def float32_roundoff(x):
    rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return tf.cast(rounded - x, tf.float32)
''',
        "uncatalogued:subtracted_in_float32": '''
def float32_roundoff(x):
    x32 = tf.cast(x, tf.float32)
    return tf.cast(x32 - tf.cast(x, tf.float32), tf.float64)
''',
        "uncatalogued:sign_flipped": '''
def float32_roundoff(x):
    return x - tf.cast(tf.cast(x, tf.float32), tf.float64)
''',
        "uncatalogued:absolute_value": '''
def float32_roundoff(x):
    return tf.abs(tf.cast(tf.cast(x, tf.float32), tf.float64) - x)
''',
        "uncatalogued:rounded_to_float16": '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float16), tf.float64) - x
''',
        "uncatalogued:relative_error": '''
def float32_roundoff(x):
    rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return (rounded - x) / x
''',
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "dtype_check_int32": '''
import math

def scale_scores_tf(scores, d_k):
    if scores.dtype == tf.int32:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.constant(math.sqrt(d_k), dtype=scores.dtype)
''',
        "multiply_rsqrt": '''
def scale_scores_tf(scores, d_k):
    x = scores if scores.dtype.is_floating else tf.cast(scores, tf.float32)
    return x * tf.math.rsqrt(tf.cast(d_k, x.dtype))
''',
        "truediv_helper": '''
def _as_float(t):
    return t if t.dtype in (tf.float32, tf.float64) else tf.cast(t, tf.float32)


def scale_scores_tf(scores, d_k):
    scores = _as_float(scores)
    return tf.math.truediv(scores, tf.math.sqrt(tf.cast(d_k, scores.dtype)))
''',
    },
    "float16_scores": {
        "via_float32": '''
def float16_scores(queries, keys):
    q, k = tf.cast(queries, tf.float32), tf.cast(keys, tf.float32)
    scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(q.shape[-1]))
    return tf.cast(scores, queries.dtype)
''',
        "keys_scaled_first": '''
def float16_scores(queries, keys):
    scale = tf.math.sqrt(tf.cast(keys.shape[-1], keys.dtype))
    return tf.matmul(queries, keys / scale, transpose_b=True)
''',
        "split_scale": '''
def float16_scores(queries, keys):
    root = tf.cast(keys.shape[-1], tf.float16) ** 0.25
    return tf.matmul(queries / root, keys / root, transpose_b=True)
''',
    },
    "float32_roundoff": {
        "back_to_input_dtype": '''
def float32_roundoff(x):
    as32 = tf.cast(x, tf.float32)
    return tf.subtract(tf.cast(as32, x.dtype), x)
''',
        "numpy_round_trip": '''
def float32_roundoff(x):
    values = x.numpy()
    return tf.constant(values.astype(np.float32).astype(np.float64) - values)
''',
    },
}
