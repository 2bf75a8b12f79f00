'''Second fresh set, notebook 03: learner submissions written without the key.

Written on 2026-11-23 by a helper session that read only the exercise texts, signatures and solution
cells of solutions/03_attention_tensorflow.ipynb and the ids and titles of the mistake catalogue
(src/attention_course/mistakes.py); not autograder/key/, verdict.py, expected/, accuracy.py, nor any
other case file. weighted_values_tf is left out (being replaced). Each case was checked only against
the notebook's own solution (selfcheck.py), never against the grader. Rule: this file is never edited
after its first measurement.
'''

MISTAKES = {
    "scale_scores_tf": {
        "integer_arithmetic:floor_division": '''
def scale_scores_tf(scores, d_k):
    divisor = tf.cast(tf.math.sqrt(float(d_k)), scores.dtype)
    return scores // divisor
''',
        "integer_arithmetic:cast_back": '''
def scale_scores_tf(scores, d_k):
    scaled = tf.cast(scores, tf.float32) / tf.math.sqrt(float(d_k))
    return tf.cast(scaled, scores.dtype)
''',
        "lower_precision:always_float32": '''
def scale_scores_tf(scores, d_k):
    return tf.cast(scores, tf.float32) / tf.math.sqrt(tf.cast(d_k, tf.float32))
''',
        "uncatalogued:always_float64": '''
def scale_scores_tf(scores, d_k):
    return tf.cast(scores, tf.float64) / tf.math.sqrt(tf.cast(d_k, tf.float64))
''',
        "scale_by_d_k": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype == tf.int32:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.cast(d_k, scores.dtype)
''',
        "lower_precision:float16": '''
def scale_scores_tf(scores, d_k):
    target = tf.float32 if scores.dtype == tf.int32 else scores.dtype
    half = tf.cast(scores, tf.float16) / tf.math.sqrt(tf.cast(d_k, tf.float16))
    return tf.cast(half, target)
''',
        "uncatalogued:sqrt_of_python_int": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.math.sqrt(d_k)
''',
        "no_scaling": '''
def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores
''',
    },
    "float32_roundoff": {
        "lower_precision:subtract_in_float32": '''
def float32_roundoff(x):
    rounded = tf.cast(x, tf.float32)
    return tf.cast(rounded - tf.cast(x, tf.float32), tf.float64)
''',
        "uncatalogued:sign_flipped": '''
def float32_roundoff(x):
    rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return x - rounded
''',
        "lower_precision:float32_result": '''
def float32_roundoff(x):
    rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return tf.cast(rounded - x, tf.float32)
''',
        "uncatalogued:absolute_value": '''
def float32_roundoff(x):
    return tf.abs(tf.cast(tf.cast(x, tf.float32), tf.float64) - x)
''',
        "uncatalogued:relative_error": '''
def float32_roundoff(x):
    rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
    return (rounded - x) / x
''',
        "uncatalogued:rounds_to_float16": '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float16), tf.float64) - x
''',
        "uncatalogued:mixed_dtype_subtraction": '''
def float32_roundoff(x):
    return tf.cast(x, tf.float32) - x
''',
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "rsqrt": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return tf.math.divide(scores, tf.sqrt(tf.constant(d_k, dtype=scores.dtype)))
''',
        "python_math": '''
import math


def scale_scores_tf(scores, d_k):
    if scores.dtype not in (tf.float32, tf.float64):
        scores = tf.cast(scores, tf.float32)
    return scores / math.sqrt(d_k)
''',
        "dtype_table": '''
def scale_scores_tf(scores, d_k):
    dtype = {tf.int32: tf.float32}.get(scores.dtype, scores.dtype)
    scores = tf.cast(scores, dtype)
    return tf.math.truediv(scores, tf.cast(d_k, dtype) ** 0.5)
''',
    },
    "float32_roundoff": {
        "numpy_route": '''
def float32_roundoff(x):
    values = x.numpy()
    return tf.constant(values.astype(np.float32).astype(np.float64) - values)
''',
        "cast_to_input_dtype": '''
def float32_roundoff(x):
    return tf.subtract(tf.cast(tf.cast(x, tf.float32), x.dtype), x)
''',
    },
}
