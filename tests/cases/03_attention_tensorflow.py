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
    "weighted_values_tf": {
        "weights_transposed": """
def weighted_values_tf(weights, values):
    return tf.transpose(weights) @ tf.cast(values, weights.dtype)
""",
        "returns_weights": """
def weighted_values_tf(weights, values):
    return weights
""",
        "integer_arithmetic": """
def weighted_values_tf(weights, values):
    return tf.cast(tf.cast(weights, values.dtype) @ values, weights.dtype)
""",
        "lower_precision": """
def weighted_values_tf(weights, values):
    return tf.matmul(tf.cast(weights, tf.float32), tf.cast(values, tf.float32))
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
    "weighted_values_tf": {
        "linalg_matmul": """
def weighted_values_tf(weights, values):
    return tf.linalg.matmul(weights, tf.cast(values, dtype=weights.dtype))
""",
        "tensordot": """
def weighted_values_tf(weights, values):
    return tf.tensordot(weights, tf.cast(values, weights.dtype), axes=1)
""",
    },
    "float32_roundoff": {
        "numpy_float32": """
def float32_roundoff(x):
    return tf.constant(np.float32(x.numpy()).astype(np.float64)) - x
""",
    },
}
