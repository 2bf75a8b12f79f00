"""Blind set 4, notebook 03: Attention in TensorFlow, dtypes. Written from notebooks/03_attention_tensorflow.ipynb only."""

MISTAKES = {
    "scale_scores_tf": {
        "int_division_no_cast": (["cast", "float32", "integer", "int32"], '''
def scale_scores_tf(scores, d_k):
    return scores / tf.math.sqrt(float(d_k))
'''),
        "always_float32": (["float64", "keep", "own dtype", "dtype"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float32)
    return scores / tf.math.sqrt(tf.cast(d_k, tf.float32))
'''),
        "cast_to_float64": (["float32", "float64", "int32"], '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float64)
    return scores / (d_k ** 0.5)
'''),
        "floor_division": (["floor", "//", "integer division"], '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores // (d_k ** 0.5)
'''),
        "divide_by_dk": (["sqrt", "square root", "d_k"], '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / d_k
'''),
        "cast_back_to_int": (["cast back", "integer", "int32", "truncat"], '''
def scale_scores_tf(scores, d_k):
    out = tf.cast(scores, tf.float32) / (d_k ** 0.5)
    return tf.cast(out, scores.dtype)
'''),
    },
    "float16_scores": {
        "plain_product_overflow": (["overflow", "float16", "inf", "scale before"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scores = tf.matmul(queries, keys, transpose_b=True)
    return scores / tf.cast(d_k ** 0.5, tf.float16)
'''),
        "float32_not_cast_back": (["float16", "cast back", "dtype"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / d_k ** 0.5
'''),
        "no_scaling": (["sqrt", "scale", "d_k"], '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.cast(tf.matmul(q, k, transpose_b=True), tf.float16)
'''),
        "scale_by_dk_both": (["sqrt", "fourth root", "both", "twice"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scale = tf.cast(d_k ** 0.5, tf.float16)
    return tf.matmul(queries / scale, keys / scale, transpose_b=True)
'''),
        "keys_not_transposed": (["transpose", "keys", "transpose_b"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.cast(tf.matmul(q, k, transpose_a=True) / d_k ** 0.5, tf.float16)
'''),
    },
    "float32_roundoff": {
        "subtract_in_float32": (["float64", "subtract", "float32", "loses"], '''
def float32_roundoff(x):
    x32 = tf.cast(x, tf.float32)
    return tf.cast(x32 - tf.cast(x, tf.float32), tf.float64)
'''),
        "sign_flipped": (["sign", "minus", "order", "x minus"], '''
def float32_roundoff(x):
    return x - tf.cast(tf.cast(x, tf.float32), tf.float64)
'''),
        "returns_float32": (["float64", "dtype", "return"], '''
def float32_roundoff(x):
    diff = tf.cast(tf.cast(x, tf.float32), tf.float64) - x
    return tf.cast(diff, tf.float32)
'''),
        "abs_value": (["absolute", "abs", "sign"], '''
def float32_roundoff(x):
    return tf.abs(tf.cast(tf.cast(x, tf.float32), tf.float64) - x)
'''),
        "float16_instead": (["float16", "float32", "half"], '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float16), tf.float64) - x
'''),
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "cast_if_int": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype == tf.int32:
        scores = tf.cast(scores, tf.float32)
    return scores / (d_k ** 0.5)
''',
        "truediv_python_float": '''
import math


def scale_scores_tf(scores, d_k):
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return tf.math.truediv(scores, tf.constant(math.sqrt(d_k), dtype=scores.dtype))
''',
    },
    "float16_scores": {
        "float32_then_cast": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.cast(tf.matmul(q, k, transpose_b=True) / d_k ** 0.5, tf.float16)
''',
        "scale_queries_first": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = queries / tf.cast(d_k ** 0.5, tf.float16)
    return tf.cast(tf.matmul(tf.cast(q, tf.float32), tf.cast(keys, tf.float32), transpose_b=True), tf.float16)
''',
    },
    "float32_roundoff": {
        "cast_back": '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float32), tf.float64) - x
''',
        "subtract_fn": '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x, dtype=tf.float64)
    return tf.subtract(tf.dtypes.cast(tf.dtypes.cast(x, "float32"), "float64"), x)
''',
    },
}
