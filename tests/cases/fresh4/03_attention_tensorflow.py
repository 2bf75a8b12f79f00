"""Fourth fresh set, notebook 03: learner answers written without the key (checked only with selfcheck.py)."""

import textwrap


def _fn(signature: str, body: str) -> str:
    return f"def {signature}:\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n"


def _s(body):
    return _fn("scale_scores_tf(scores, d_k)", body)


def _h(body):
    return _fn("float16_scores(queries, keys)", body)


def _r(body):
    return _fn("float32_roundoff(x)", body)


MISTAKES = {
    "scale_scores_tf": {
        "integer_arithmetic:floor_division": _s("""
            scores = tf.cast(scores, tf.float32) if scores.dtype.is_integer else scores
            return scores // tf.math.sqrt(tf.cast(d_k, scores.dtype))
        """),
        "integer_arithmetic:cast_back": _s("""
            dtype = scores.dtype
            scaled = tf.cast(scores, tf.float32) / tf.math.sqrt(float(d_k))
            return tf.cast(scaled, dtype)
        """),
        "integer_arithmetic:int_root": _s("""
            if scores.dtype.is_integer:
                scores = tf.cast(scores, tf.float32)
            root = int(np.sqrt(d_k))
            return scores / tf.cast(root, scores.dtype)
        """),
        "lower_precision:always_float32": _s("""
            return tf.cast(scores, tf.float32) / tf.math.sqrt(tf.cast(d_k, tf.float32))
        """),
        "lower_precision:float16": _s("""
            scores = tf.cast(scores, tf.float16)
            return scores / tf.math.sqrt(tf.cast(d_k, tf.float16))
        """),
        "scale_by_d_k": _s("""
            if not scores.dtype.is_floating:
                scores = tf.cast(scores, tf.float32)
            return scores / tf.cast(d_k, scores.dtype)
        """),
        "no_scaling": _s("""
            if not scores.dtype.is_floating:
                scores = tf.cast(scores, tf.float32)
            return scores
        """),
        "scale_applied_twice": _s("""
            if not scores.dtype.is_floating:
                scores = tf.cast(scores, tf.float32)
            root = tf.math.sqrt(tf.cast(d_k, scores.dtype))
            scores = scores / root
            return scores / root
        """),
        "uncatalogued:always_float64": _s("""
            return tf.cast(scores, tf.float64) / tf.math.sqrt(tf.cast(d_k, tf.float64))
        """),
        "uncatalogued:multiplied_by_sqrt": _s("""
            if not scores.dtype.is_floating:
                scores = tf.cast(scores, tf.float32)
            return scores * tf.math.sqrt(tf.cast(d_k, scores.dtype))
        """),
        "uncatalogued:softmax_applied": _s("""
            if not scores.dtype.is_floating:
                scores = tf.cast(scores, tf.float32)
            return tf.nn.softmax(scores / tf.math.sqrt(tf.cast(d_k, scores.dtype)), axis=-1)
        """),
        "uncatalogued:numpy_true_division": _s("""
            return tf.constant(scores.numpy() / np.sqrt(d_k))
        """),
    },
    "float16_scores": {
        "float16_overflow": _h("""
            d_k = queries.shape[-1]
            scores = tf.matmul(queries, keys, transpose_b=True)
            return scores / tf.math.sqrt(tf.cast(d_k, tf.float16))
        """),
        "float16_overflow:multiply_after": _h("""
            factor = tf.cast(1.0 / np.sqrt(queries.shape[-1]), tf.float16)
            return tf.matmul(queries, tf.transpose(keys)) * factor
        """),
        "float16_overflow:cast_back_before_scaling": _h("""
            products = tf.matmul(tf.cast(queries, tf.float32), tf.cast(keys, tf.float32), transpose_b=True)
            products = tf.cast(products, tf.float16)
            return products / tf.math.sqrt(tf.cast(queries.shape[-1], tf.float16))
        """),
        "no_scaling": _h("return tf.matmul(queries, keys, transpose_b=True)"),
        "scale_by_d_k": _h("""
            d_k = queries.shape[-1]
            return tf.matmul(queries / tf.cast(d_k, queries.dtype), keys, transpose_b=True)
        """),
        "keys_times_queries": _h("""
            d_k = queries.shape[-1]
            queries = queries / tf.math.sqrt(tf.cast(d_k, queries.dtype))
            return tf.matmul(keys, queries, transpose_b=True)
        """),
        "keys_without_transpose": _h("""
            d_k = queries.shape[-1]
            queries = queries / tf.math.sqrt(tf.cast(d_k, queries.dtype))
            return tf.matmul(queries, keys)
        """),
        "scale_applied_twice": _h("""
            root = tf.math.sqrt(tf.cast(queries.shape[-1], tf.float16))
            return tf.matmul(queries / root, keys / root, transpose_b=True)
        """),
        "scale_by_sqrt_tokens": _h("""
            root = tf.math.sqrt(tf.cast(keys.shape[0], tf.float16))
            return tf.matmul(queries / root, keys, transpose_b=True)
        """),
        "integer_arithmetic:floordiv": _h("""
            root = tf.math.sqrt(tf.cast(queries.shape[-1], queries.dtype))
            return tf.matmul(queries // root, keys, transpose_b=True)
        """),
        "uncatalogued:returns_float32": _h("""
            q = tf.cast(queries, tf.float32)
            k = tf.cast(keys, tf.float32)
            return tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(q.shape[-1]))
        """),
        "uncatalogued:dtype_mix": _h("""
            queries = queries / tf.math.sqrt(float(queries.shape[-1]))
            return tf.matmul(queries, keys, transpose_b=True)
        """),
    },
    "float32_roundoff": {
        "lower_precision:subtract_in_float32": _r("""
            rounded = tf.cast(x, tf.float32)
            return tf.cast(rounded - tf.cast(x, tf.float32), tf.float64)
        """),
        "lower_precision:result_float32": _r("""
            rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
            return tf.cast(rounded - x, tf.float32)
        """),
        "uncatalogued:sign_flipped": _r("return x - tf.cast(tf.cast(x, tf.float32), tf.float64)"),
        "uncatalogued:abs": _r("return tf.abs(tf.cast(tf.cast(x, tf.float32), tf.float64) - x)"),
        "uncatalogued:returns_rounded": _r("return tf.cast(tf.cast(x, tf.float32), tf.float64)"),
        "uncatalogued:rounds_to_float16": _r("return tf.cast(tf.cast(x, tf.float16), tf.float64) - x"),
        "uncatalogued:relative": _r("""
            rounded = tf.cast(tf.cast(x, tf.float32), tf.float64)
            return (rounded - x) / x
        """),
        "uncatalogued:reduced_to_max": _r("""
            diff = tf.cast(tf.cast(x, tf.float32), tf.float64) - x
            return tf.reduce_max(tf.abs(diff))
        """),
    },
}

VARIANTS = {
    "scale_scores_tf": {
        "is_integer": _s("""
            if scores.dtype.is_integer:
                scores = tf.cast(scores, tf.float32)
            return tf.math.divide(scores, tf.sqrt(tf.constant(d_k, dtype=scores.dtype)))
        """),
        "rsqrt": _s("""
            if scores.dtype not in (tf.float32, tf.float64):
                scores = tf.cast(scores, tf.float32)
            return scores * tf.math.rsqrt(tf.cast(d_k, scores.dtype))
        """),
        "python_root": _s("""
            dtype = scores.dtype if scores.dtype.is_floating else tf.float32
            return tf.cast(scores, dtype) / tf.constant(np.sqrt(d_k), dtype=dtype)
        """),
    },
    "float16_scores": {
        "via_float32": _h("""
            q = tf.cast(queries, tf.float32)
            k = tf.cast(keys, tf.float32)
            scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(q.shape[-1]))
            return tf.cast(scores, tf.float16)
        """),
        "keys_scaled": _h("""
            root = tf.math.sqrt(tf.cast(keys.shape[-1], keys.dtype))
            return tf.matmul(queries, keys / root, transpose_b=True)
        """),
        "fourth_root_each": _h("""
            r = tf.math.sqrt(tf.math.sqrt(tf.cast(queries.shape[-1], queries.dtype)))
            return tf.matmul(queries / r, tf.transpose(keys / r))
        """),
    },
    "float32_roundoff": {
        "cast_back_to_dtype": _r("return tf.cast(tf.cast(x, tf.float32), x.dtype) - x"),
        "negated": _r("return -(x - tf.cast(tf.cast(x, tf.float32), tf.float64))"),
        "subtract": _r("""
            as_float32 = tf.cast(x, tf.float32)
            return tf.subtract(tf.cast(as_float32, tf.float64), x)
        """),
    },
}
