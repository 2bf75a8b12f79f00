"""Fresh held-out learner answers for notebook 03's new exercises (issue 12, part 3).

Written before the exercises' own mutants existed in the key, from how learners slip with
TensorFlow's dtypes: integer division, casting back, casting everything to float32, mixed dtypes in
tf.matmul. Never edited to make the diagnosis look better. Format as in ``tests/cases/heldout/``.
"""

MISTAKES = {
    "scale_scores_tf": {
        "integer_arithmetic:floor_division": """
def scale_scores_tf(scores, d_k):
    return scores // int(np.sqrt(d_k))
""",
        "integer_arithmetic:cast_back": """
def scale_scores_tf(scores, d_k):
    scaled = tf.cast(scores, tf.float32) / np.sqrt(d_k)
    return tf.cast(scaled, scores.dtype)
""",
        "lower_precision:always_float32": """
def scale_scores_tf(scores, d_k):
    return tf.cast(scores, tf.float32) / tf.math.sqrt(float(d_k))
""",
        "no_scaling:cast_only": """
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores
""",
        "scale_by_d_k:no_root": """
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.cast(d_k, scores.dtype)
""",
        "scale_applied_twice:sqrt_twice": """
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    root = tf.math.sqrt(tf.cast(d_k, scores.dtype))
    return scores / root / root
""",
    },
    "float32_roundoff": {
        "lower_precision:subtract_in_float32": """
def float32_roundoff(x):
    x32 = tf.cast(x, tf.float32)
    return x32 - tf.cast(x, tf.float32)
""",
        "lower_precision:result_cast_to_float32": """
def float32_roundoff(x):
    rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return tf.cast(rounded - x, tf.float32)
""",
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "rsqrt": """
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores * tf.math.rsqrt(tf.constant(d_k, dtype=scores.dtype))
""",
        "math_sqrt_python_float": """
import math

def scale_scores_tf(scores, d_k):
    if scores.dtype in (tf.int32, tf.int64):
        scores = tf.cast(scores, tf.float32)
    return scores / math.sqrt(d_k)
""",
    },
    "float32_roundoff": {
        "cast_back_to_input_dtype": """
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float32), x.dtype) - x
""",
        "through_numpy": """
def float32_roundoff(x):
    x = np.asarray(x)
    return tf.convert_to_tensor(x.astype(np.float32).astype(np.float64) - x)
""",
    },
}
