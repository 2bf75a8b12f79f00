"""Learner-style answers for notebook 03: one catalogued mistake each, or a correct variant.

Keys: the exercise's solution cell (grade_id), then the mistake id (from
attention_course.mistakes) or a variant's name. Values: what a learner types into that cell.
Run by ``python3 tasks.py accuracy`` and tests/test_accuracy.py.
"""

MISTAKES = {
    "scale_scores_tf": {
        "integer_arithmetic": """
def scale_scores_tf(scores, d_k):
    return tf.cast(scores // 2, tf.float32) if not scores.dtype.is_floating else scores // np.sqrt(d_k)
""",
        "no_scaling": """
def scale_scores_tf(scores, d_k):
    return tf.cast(scores, tf.float32) if not scores.dtype.is_floating else scores
""",
        "scale_by_d_k": """
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores / float(d_k)
""",
        "scale_by_sqrt_tokens": """
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.math.sqrt(tf.cast(tf.shape(scores)[-1], scores.dtype))
""",
        "scale_applied_twice": """
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores / float(np.sqrt(d_k)) / float(np.sqrt(d_k))
""",
        "lower_precision": """
def scale_scores_tf(scores, d_k):
    return tf.cast(scores, tf.float32) / float(np.sqrt(d_k))
""",
    },
    "float16_scores": {
        "float16_overflow": """
def float16_scores(queries, keys):
    scores = tf.matmul(queries, keys, transpose_b=True)
    return scores / tf.math.sqrt(tf.cast(keys.shape[-1], scores.dtype))
""",
        "no_scaling": """
def float16_scores(queries, keys):
    scores = tf.matmul(tf.cast(queries, tf.float32), tf.cast(keys, tf.float32), transpose_b=True)
    return tf.cast(scores, tf.float16)
""",
        "scale_by_d_k": """
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    return tf.matmul(queries / d_k, keys, transpose_b=True)
""",
        "keys_times_queries": """
def float16_scores(queries, keys):
    keys = keys / tf.math.sqrt(tf.cast(keys.shape[-1], keys.dtype))
    return tf.matmul(keys, queries, transpose_b=True)
""",
    },
    "float32_roundoff": {
        "lower_precision": """
def float32_roundoff(x):
    return tf.cast(tf.cast(tf.cast(x, tf.float32), tf.float64) - x, tf.float32)
""",
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "python_float_divisor": """
def scale_scores_tf(scores, d_k):
    if scores.dtype == tf.int32:
        scores = tf.cast(scores, tf.float32)
    return scores / d_k ** 0.5
""",
        "multiply_by_rsqrt": """
def scale_scores_tf(scores, d_k):
    scores = scores if scores.dtype.is_floating else tf.cast(scores, tf.float32)
    return scores * tf.math.rsqrt(tf.cast(d_k, scores.dtype))
""",
    },
    "float16_scores": {
        "through_float32": """
def float16_scores(queries, keys):
    scores = tf.matmul(tf.cast(queries, tf.float32), tf.cast(keys, tf.float32), transpose_b=True)
    return tf.cast(scores / np.sqrt(queries.shape[-1]), tf.float16)
""",
        "quarter_power_each": """
def float16_scores(queries, keys):
    root = tf.cast(queries.shape[-1], tf.float16) ** 0.25
    return tf.matmul(queries / root, keys / root, transpose_b=True)
""",
        "einsum_scaled_keys": """
def float16_scores(queries, keys):
    keys = keys * tf.math.rsqrt(tf.cast(tf.shape(keys)[-1], keys.dtype))
    return tf.einsum("qd,kd->qk", queries, keys)
""",
    },
    "float32_roundoff": {
        "numpy_float32": """
def float32_roundoff(x):
    return tf.constant(np.float32(x.numpy()).astype(np.float64)) - x
""",
    },
}
