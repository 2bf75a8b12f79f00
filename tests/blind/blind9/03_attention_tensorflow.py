"""Blind set 9, notebook 03: The same attention in TensorFlow. Written from notebooks/03_attention_tensorflow.ipynb only."""

MISTAKES = {
    "scale_scores_tf": {
        "floor_division": (["floor", "//", "integer division", "truncat"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    return tf.cast(scores // int(d_k ** 0.5), tf.float32)
'''),
        "divisor_cast_to_int": (["divisor", "integer", "truncat", "cast the scores"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    divisor = tf.cast(tf.math.sqrt(float(d_k)), scores.dtype)
    result = scores / divisor
    if result.dtype == tf.float64 and scores.dtype.is_integer:
        result = tf.cast(result, tf.float32)
    return result
'''),
        "always_float32": (["float64", "keep", "own dtype", "precision"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float32)
    return scores / tf.math.sqrt(float(d_k))
'''),
        "int_true_division_float64": (["float32", "int32", "float64", "cast first"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if scores.dtype.is_integer:
        return scores / int(d_k) * (int(d_k) / d_k ** 0.5)
    return scores / tf.math.sqrt(tf.cast(d_k, scores.dtype))
'''),
        "divide_by_d_k": (["sqrt", "square root", "instead of"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.cast(d_k, scores.dtype)
'''),
        "cast_back_to_int": (["cast back", "integer", "int32"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    original = scores.dtype
    scaled = tf.cast(scores, tf.float32) / tf.math.sqrt(float(d_k))
    return tf.cast(scaled, original)
'''),
    },
    "float16_scores": {
        "divide_after_product": (["overflow", "inf", "before the product", "65504"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    products = tf.matmul(queries, keys, transpose_b=True)
    return products / tf.math.sqrt(tf.cast(d_k, products.dtype))
'''),
        "no_cast_back": (["float16", "cast back", "dtype"], '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(q.shape[-1]))
'''),
        "divide_by_d_k": (["sqrt", "square root"], '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    scores = tf.matmul(q, k, transpose_b=True) / float(q.shape[-1])
    return tf.cast(scores, tf.float16)
'''),
        "no_transpose": (["transpose", "transpose_b", "keys^t"], '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    scores = tf.matmul(q, k) / tf.math.sqrt(float(q.shape[-1]))
    return tf.cast(scores, tf.float16)
'''),
        "scale_both_sides": (["both", "twice", "queries and keys"], '''
def float16_scores(queries, keys):
    scale = tf.math.sqrt(tf.cast(queries.shape[-1], tf.float16))
    return tf.matmul(queries / scale, keys / scale, transpose_b=True)
'''),
        "d_k_from_rows": (["d_k", "shape[-1]", "width", "number of queries"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[0]
    scale = tf.math.sqrt(tf.cast(d_k, tf.float16))
    return tf.matmul(queries / scale, keys, transpose_b=True)
'''),
    },
    "float32_roundoff": {
        "subtract_in_float32": (["float64", "subtract in float64", "zero", "cast back"], '''
def float32_roundoff(x):
    x32 = tf.cast(x, tf.float32)
    return tf.cast(x32 - tf.cast(x, tf.float32), tf.float64)
'''),
        "sign_reversed": (["sign", "minus", "order", "opposite"], '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x, tf.float64)
    return x - tf.cast(tf.cast(x, tf.float32), tf.float64)
'''),
        "forgot_subtraction": (["subtract", "minus x", "difference"], '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float32), tf.float64)
'''),
        "absolute_value": (["abs", "absolute", "sign"], '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x, tf.float64)
    return tf.abs(tf.cast(tf.cast(x, tf.float32), tf.float64) - x)
'''),
        "float32_result": (["float64", "dtype", "float32"], '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x, tf.float64)
    return tf.cast(tf.cast(tf.cast(x, tf.float32), tf.float64) - x, tf.float32)
'''),
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "cast_if_integer": '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.math.sqrt(tf.cast(d_k, scores.dtype))
''',
        "truediv_constant": '''
import math


def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    target = scores.dtype if scores.dtype in (tf.float32, tf.float64) else tf.float32
    return tf.math.divide(tf.cast(scores, target), tf.constant(math.sqrt(d_k), dtype=target))
''',
    },
    "float16_scores": {
        "in_float32_cast_back": '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(q.shape[-1]))
    return tf.cast(scores, tf.float16)
''',
        "scale_queries_first": '''
def float16_scores(queries, keys):
    queries = tf.convert_to_tensor(queries, tf.float16)
    keys = tf.convert_to_tensor(keys, tf.float16)
    scaled_queries = queries / tf.math.sqrt(tf.cast(queries.shape[-1], tf.float16))
    return tf.matmul(scaled_queries, keys, transpose_b=True)
''',
    },
    "float32_roundoff": {
        "cast_twice": '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x, tf.float64)
    return tf.cast(tf.cast(x, tf.float32), tf.float64) - x
''',
        "via_numpy": '''
def float32_roundoff(x):
    x64 = np.asarray(x, dtype=np.float64)
    return tf.constant(x64.astype(np.float32).astype(np.float64) - x64, dtype=tf.float64)
''',
    },
}
