"""Blind set 5, notebook 03: Attention in TensorFlow (dtypes, half precision). Written from notebooks/03_attention_tensorflow.ipynb only."""

MISTAKES = {
    "scale_scores_tf": {
        "int_to_float64": (["float32", "float64", "cast"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float64)
    return scores / tf.math.sqrt(tf.cast(d_k, scores.dtype))
'''),
        "always_float32": (["float64", "keep", "own dtype"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float32)
    return scores / tf.math.sqrt(float(d_k))
'''),
        "floor_division": (["floor", "//", "truncat"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    out = scores // tf.cast(tf.math.sqrt(float(d_k)), scores.dtype)
    return tf.cast(out, tf.float32) if scores.dtype.is_integer else out
'''),
        "divide_by_dk": (["sqrt", "square root", "d_k"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.cast(d_k, scores.dtype)
'''),
    },
    "float16_scores": {
        "divide_after_product": (["overflow", "before the product", "inf"], '''
def float16_scores(queries, keys):
    queries = tf.convert_to_tensor(queries)
    keys = tf.convert_to_tensor(keys)
    d_k = queries.shape[-1]
    s = tf.matmul(queries, keys, transpose_b=True)
    return s / tf.math.sqrt(tf.cast(d_k, tf.float16))
'''),
        "float32_not_cast_back": (["float16", "cast back", "dtype"], '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(q.shape[-1]))
'''),
        "both_scaled": (["twice", "both", "d_k"], '''
def float16_scores(queries, keys):
    q = tf.convert_to_tensor(queries)
    k = tf.convert_to_tensor(keys)
    r = tf.math.sqrt(tf.cast(q.shape[-1], tf.float16))
    return tf.matmul(q / r, k / r, transpose_b=True)
'''),
        "no_transpose_keys_dim": (["sqrt", "n_keys", "d_k"], '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    s = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(k.shape[0]))
    return tf.cast(s, tf.float16)
'''),
    },
    "float32_roundoff": {
        "subtract_in_float32": (["float64", "subtract", "in float32"], '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x)
    x32 = tf.cast(x, tf.float32)
    return tf.cast(x32 - tf.cast(x, tf.float32), tf.float64)
'''),
        "wrong_sign": (["sign", "minus", "order"], '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x)
    return x - tf.cast(tf.cast(x, tf.float32), tf.float64)
'''),
        "absolute_value": (["abs", "sign", "negative"], '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x)
    return tf.abs(tf.cast(tf.cast(x, tf.float32), tf.float64) - x)
'''),
        "returns_float32": (["float64", "dtype", "cast"], '''
def float32_roundoff(x):
    x = tf.convert_to_tensor(x)
    return tf.cast(tf.cast(tf.cast(x, tf.float32), tf.float64) - x, tf.float32)
'''),
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "cast_if_int": '''
def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if not scores.dtype.is_floating:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.math.sqrt(tf.constant(d_k, dtype=scores.dtype))
''',
        "multiply_rsqrt": '''
import math

def scale_scores_tf(scores, d_k):
    scores = tf.convert_to_tensor(scores)
    if scores.dtype == tf.int32:
        scores = tf.cast(scores, tf.float32)
    return scores * tf.constant(1.0 / math.sqrt(d_k), dtype=scores.dtype)
''',
    },
    "float16_scores": {
        "float32_then_cast": '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    d_k = q.shape[-1]
    s = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(d_k, tf.float32))
    return tf.cast(s, tf.float16)
''',
        "float64_einsum": '''
def float16_scores(queries, keys):
    q = tf.cast(queries, tf.float64)
    k = tf.cast(keys, tf.float64)
    s = tf.einsum("qd,kd->qk", q, k) / tf.sqrt(tf.cast(tf.shape(q)[-1], tf.float64))
    return tf.cast(s, tf.float16)
''',
    },
    "float32_roundoff": {
        "casts": '''
def float32_roundoff(x):
    x = tf.cast(x, tf.float64)
    return tf.cast(tf.cast(x, tf.float32), tf.float64) - x
''',
        "subtract_func": '''
def float32_roundoff(x):
    x64 = tf.convert_to_tensor(x, dtype=tf.float64)
    back = tf.dtypes.cast(tf.dtypes.cast(x64, tf.float32), tf.float64)
    return tf.math.subtract(back, x64)
''',
    },
}
