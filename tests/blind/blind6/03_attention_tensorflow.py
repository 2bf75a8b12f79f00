"""Blind set 6, notebook 03: Attention in TensorFlow (dtypes, casts, half precision). Written from notebooks/03_attention_tensorflow.ipynb only."""

MISTAKES = {
    "scale_scores_tf": {
        "floor_division": (["floor", "//", "integer division", "truncat"], '''
import math

def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        return tf.cast(scores // int(math.sqrt(d_k)), tf.float32)
    return scores / tf.cast(tf.sqrt(float(d_k)), scores.dtype)
'''),
        "int_to_float64": (["float64", "float32", "int32"], '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float64)
    return scores / tf.sqrt(tf.cast(d_k, scores.dtype))
'''),
        "always_float32": (["float64", "keep", "own dtype", "precision"], '''
def scale_scores_tf(scores, d_k):
    scores = tf.cast(scores, tf.float32)
    return scores / tf.sqrt(float(d_k))
'''),
        "divide_by_dk": (["sqrt", "square root"], '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.cast(d_k, scores.dtype)
'''),
        "cast_back": (["cast back", "integer", "int32", "truncat"], '''
def scale_scores_tf(scores, d_k):
    scaled = tf.cast(scores, tf.float32) / tf.sqrt(float(d_k))
    return tf.cast(scaled, scores.dtype)
'''),
    },
    "float16_scores": {
        "overflow": (["overflow", "inf", "before the product", "float32", "65504"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    scores = tf.matmul(queries, keys, transpose_b=True)
    return scores / tf.sqrt(tf.cast(d_k, tf.float16))
'''),
        "left_in_float32": (["float16", "cast back", "dtype"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.matmul(q, k, transpose_b=True) / tf.sqrt(float(d_k))
'''),
        "divide_by_dk": (["sqrt", "square root"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.cast(tf.matmul(q, k, transpose_b=True) / float(d_k), tf.float16)
'''),
        "scaled_both": (["both", "twice", "queries only", "once"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    s = tf.sqrt(tf.cast(d_k, tf.float16))
    return tf.matmul(queries / s, keys / s, transpose_b=True)
'''),
        "dk_from_rows": (["d_k", "shape[-1]", "width", "n_queries"], '''
def float16_scores(queries, keys):
    d_k = queries.shape[0]
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    return tf.cast(tf.matmul(q, k, transpose_b=True) / tf.sqrt(float(d_k)), tf.float16)
'''),
    },
    "float32_roundoff": {
        "subtract_in_float32": (["float64", "subtract in float64", "zero", "float32"], '''
def float32_roundoff(x):
    x32 = tf.cast(x, tf.float32)
    return tf.cast(x32 - tf.cast(x, tf.float32), tf.float64)
'''),
        "wrong_sign": (["sign", "minus", "order", "float32(x) - x"], '''
def float32_roundoff(x):
    return x - tf.cast(tf.cast(x, tf.float32), tf.float64)
'''),
        "no_subtraction": (["subtract", "minus x", "difference"], '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float32), tf.float64)
'''),
        "absolute": (["abs", "sign", "absolute"], '''
def float32_roundoff(x):
    return tf.abs(tf.cast(tf.cast(x, tf.float32), tf.float64) - x)
'''),
        "returns_float32": (["float64", "dtype", "float32"], '''
def float32_roundoff(x):
    return tf.cast(tf.cast(tf.cast(x, tf.float32), tf.float64) - x, tf.float32)
'''),
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "cast_then_divide": '''
def scale_scores_tf(scores, d_k):
    if scores.dtype.is_integer:
        scores = tf.cast(scores, tf.float32)
    return scores / tf.math.sqrt(tf.cast(d_k, scores.dtype))
''',
        "rsqrt": '''
def scale_scores_tf(scores, d_k):
    dtype = tf.float32 if scores.dtype in (tf.int32, tf.int64) else scores.dtype
    s = tf.cast(scores, dtype)
    return s * tf.math.rsqrt(tf.constant(d_k, dtype=dtype))
''',
    },
    "float16_scores": {
        "via_float32": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = tf.cast(queries, tf.float32)
    k = tf.cast(keys, tf.float32)
    scores = tf.matmul(q, k, transpose_b=True) / tf.sqrt(tf.cast(d_k, tf.float32))
    return tf.cast(scores, tf.float16)
''',
        "scale_queries_first": '''
def float16_scores(queries, keys):
    d_k = queries.shape[-1]
    q = queries / tf.sqrt(tf.cast(d_k, tf.float16))
    return tf.matmul(q, keys, transpose_b=True)
''',
    },
    "float32_roundoff": {
        "cast_twice": '''
def float32_roundoff(x):
    return tf.cast(tf.cast(x, tf.float32), tf.float64) - x
''',
        "numpy": '''
def float32_roundoff(x):
    a = np.asarray(x, dtype=np.float64)
    return tf.constant(a.astype(np.float32).astype(np.float64) - a, dtype=tf.float64)
''',
    },
}
