"""Fourth fresh set, notebook 04: learner answers written without the key (checked only with selfcheck.py)."""

import textwrap


def _fn(signature: str, body: str) -> str:
    return f"def {signature}:\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n"


def _v(body):
    return _fn("score_variance(queries, keys)", body)


def _w(body):
    return _fn("width_sweep(queries, keys, widths, power)", body)


def _e(body):
    return _fn("attention_entropy(scores)", body)


def _j(body):
    return _fn("softmax_jacobian(scores)", body)


def _g(body):
    return _fn("gradient_norms(scores)", body)


MISTAKES = {
    "score_variance": {
        "scaled_too_early": _v("return float(np.var(queries @ keys.T / np.sqrt(queries.shape[-1])))"),
        "std_instead_of_variance": _v("return float(np.std(queries @ keys.T))"),
        "keys_without_transpose": _v("return float(np.var(queries @ keys))"),
        "sum_instead_of_dot:elementwise": _v("return float(np.var(queries * keys))"),
        "lower_precision:float16": _v("return float(np.var((queries @ keys.T).astype(np.float16)))"),
        "integer_arithmetic:astype_int": _v("return float(np.var((queries @ keys.T).astype(int)))"),
        "uncatalogued:ddof1": _v("return float(np.var(queries @ keys.T, ddof=1))"),
        "uncatalogued:mean_of_row_variances": _v("return float(np.var(queries @ keys.T, axis=-1).mean())"),
        "uncatalogued:second_moment": _v("""
            raw = queries @ keys.T
            return float(np.mean(raw ** 2))
        """),
        "variance_from_formula:theory_formula": _v("return float(np.var(queries) * np.var(keys) * queries.shape[-1])"),
    },
    "width_sweep": {
        "width_scale_fixed": _w("""
            return np.stack([queries[:, :w] @ keys[:, :w].T / np.sqrt(w) for w in widths])
        """),
        "width_scale_full": _w("""
            d = queries.shape[-1]
            return np.stack([queries[:, :w] @ keys[:, :w].T / float(d) ** power for w in widths])
        """),
        "width_last_columns": _w("""
            out = []
            for w in widths:
                out.append(queries[:, -w:] @ keys[:, -w:].T / float(w) ** power)
            return np.stack(out)
        """),
        "loop_leftover": _w("""
            out = []
            for w in widths[:-1]:
                out.append(queries[:, :w] @ keys[:, :w].T / float(w) ** power)
            return np.stack(out)
        """),
        "integer_arithmetic:buffer_widths_dtype": _w("""
            out = np.empty((len(widths), len(queries), len(keys)), dtype=widths.dtype)
            for i, w in enumerate(widths):
                out[i] = queries[:, :w] @ keys[:, :w].T / float(w) ** power
            return out
        """),
        "keys_times_queries": _w("""
            return np.stack([keys[:, :w] @ queries[:, :w].T / float(w) ** power for w in widths])
        """),
        "lower_precision:float32": _w("""
            q, k = queries.astype(np.float32), keys.astype(np.float32)
            return np.stack([q[:, :w] @ k[:, :w].T / float(w) ** power for w in widths])
        """),
        "width_slice_off_by_one:slice_off_by_one": _w("""
            return np.stack([queries[:, :w - 1] @ keys[:, :w - 1].T / float(w) ** power for w in widths])
        """),
        "uncatalogued:multiplied": _w("""
            return np.stack([queries[:, :w] @ keys[:, :w].T * float(w) ** power for w in widths])
        """),
        "uncatalogued:stack_last_axis": _w("""
            return np.stack([queries[:, :w] @ keys[:, :w].T / float(w) ** power for w in widths], axis=-1)
        """),
        "uncatalogued:index_as_width": _w("""
            out = []
            for i in range(len(widths)):
                w = i + 1
                out.append(queries[:, :w] @ keys[:, :w].T / w ** power)
            return np.array(out)
        """),
    },
    "attention_entropy": {
        "entropy_nan_for_zero_weights": _e("""
            p = softmax(scores, axis=-1)
            return -(p * np.log(p)).sum(axis=-1)
        """),
        "softmax_no_max_subtraction": _e("""
            log_p = scores - np.log(np.exp(scores).sum(axis=-1, keepdims=True))
            return -(np.exp(log_p) * log_p).sum(axis=-1)
        """),
        "softmax_wrong_axis": _e("""
            shifted = scores - scores.max(axis=0, keepdims=True)
            log_p = shifted - np.log(np.exp(shifted).sum(axis=0, keepdims=True))
            return -(np.exp(log_p) * log_p).sum(axis=-1)
        """),
        "softmax_over_all_entries:logsumexp_all": _e("""
            from scipy.special import logsumexp
            log_p = scores - logsumexp(scores)
            return -(np.exp(log_p) * log_p).sum(axis=-1)
        """),
        "lower_precision:float32": _e("""
            s = scores.astype(np.float32)
            s = s - s.max(axis=-1, keepdims=True)
            log_p = s - np.log(np.exp(s).sum(axis=-1, keepdims=True))
            return -(np.exp(log_p) * log_p).sum(axis=-1)
        """),
        "uncatalogued:bits": _e("""
            from scipy.special import log_softmax
            log_p = log_softmax(scores, axis=-1)
            return -(np.exp(log_p) * log_p / np.log(2)).sum(axis=-1)
        """),
        "uncatalogued:sign": _e("""
            shifted = scores - scores.max(axis=-1, keepdims=True)
            log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
            return (np.exp(log_p) * log_p).sum(axis=-1)
        """),
        "uncatalogued:scores_times_log": _e("""
            shifted = scores - scores.max(axis=-1, keepdims=True)
            log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
            return -(scores * log_p).sum(axis=-1)
        """),
        "uncatalogued:global_max": _e("""
            shifted = scores - scores.max()
            log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
            return -(np.exp(log_p) * log_p).sum(axis=-1)
        """),
        "uncatalogued:mean_not_sum": _e("""
            shifted = scores - scores.max(axis=-1, keepdims=True)
            log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
            return -(np.exp(log_p) * log_p).mean(axis=-1)
        """),
    },
    "softmax_jacobian": {
        "jacobian_diagonal_only": _j("""
            p = softmax(scores)
            return np.diag(p * (1 - p))
        """),
        "jacobian_sign_flipped": _j("""
            p = softmax(scores)
            return np.outer(p, p) - np.diag(p)
        """),
        "softmax_no_max_subtraction": _j("""
            e = np.exp(scores)
            p = e / e.sum()
            return np.diag(p) - np.outer(p, p)
        """),
        "loop_leftover": _j("""
            p = softmax(scores)
            n = len(p)
            J = np.zeros((n, n))
            for i in range(n - 1):
                for j in range(n):
                    J[i, j] = p[i] * ((i == j) - p[j])
            return J
        """),
        "lower_precision:float32": _j("""
            p = softmax(scores.astype(np.float32))
            return np.diag(p) - np.outer(p, p)
        """),
        "jacobian_inner_product:inner_instead_of_outer": _j("""
            p = softmax(scores)
            return np.diag(p) - p @ p
        """),
        "jacobian_identity_for_diagonal:missing_p_factor": _j("""
            p = softmax(scores)
            return np.eye(len(p)) - np.outer(p, p)
        """),
        "uncatalogued:p_i_twice": _j("""
            p = softmax(scores)
            return p[:, None] * (np.eye(len(p)) - p[:, None])
        """),
        "uncatalogued:diagonal_vector": _j("""
            p = softmax(scores)
            return p * (1 - p)
        """),
    },
    "gradient_norms": {
        "gradient_norm_squared": _g("""
            return np.array([np.sum(softmax_jacobian(row) ** 2) for row in scores])
        """),
        "gradient_norm_of_weights": _g("""
            return np.array([np.linalg.norm(softmax(row)) for row in scores])
        """),
        "gradient_norm_whole_stack": _g("""
            return np.linalg.norm(np.stack([softmax_jacobian(row) for row in scores]))
        """),
        "gradient_norm_spectral": _g("""
            return np.array([np.linalg.norm(softmax_jacobian(row), ord=2) for row in scores])
        """),
        "jacobian_diagonal_only": _g("""
            norms = []
            for row in scores:
                p = softmax(row)
                norms.append(np.linalg.norm(np.diag(p * (1 - p))))
            return np.array(norms)
        """),
        "softmax_wrong_axis": _g("""
            p = softmax(scores, axis=0)
            return np.array([np.linalg.norm(np.diag(r) - np.outer(r, r)) for r in p])
        """),
        "loop_leftover": _g("""
            out = np.zeros(len(scores))
            for i in range(len(scores) - 1):
                out[i] = np.linalg.norm(softmax_jacobian(scores[i]))
            return out
        """),
        "uncatalogued:ord1": _g("""
            return np.array([np.linalg.norm(softmax_jacobian(row), ord=1) for row in scores])
        """),
        "uncatalogued:sqrt_of_abs_sum": _g("""
            return np.array([np.sqrt(np.abs(softmax_jacobian(row)).sum()) for row in scores])
        """),
        "uncatalogued:norm_per_row_of_J": _g("""
            return np.array([np.linalg.norm(softmax_jacobian(row), axis=-1) for row in scores])
        """),
    },
}

VARIANTS = {
    "score_variance": {
        "by_hand": _v("""
            raw = np.einsum("id,jd->ij", queries, keys)
            return float(((raw - raw.mean()) ** 2).mean())
        """),
        "method": _v("return (queries @ keys.T).var().item()"),
    },
    "width_sweep": {
        "einsum_preallocated": _w("""
            out = np.empty((len(widths), queries.shape[0], keys.shape[0]), dtype=np.result_type(queries, keys))
            for i, w in enumerate(widths):
                out[i] = np.einsum("qd,kd->qk", queries[:, :w], keys[:, :w]) / float(w) ** power
            return out
        """),
        "comprehension": _w("""
            return np.array([(queries[:, :w] @ keys[:, :w].T) / float(w) ** power for w in widths])
        """),
    },
    "attention_entropy": {
        "log_softmax": _e("""
            from scipy.special import log_softmax
            log_p = log_softmax(scores, axis=-1)
            return -np.sum(np.exp(log_p) * log_p, axis=-1)
        """),
        "scipy_entropy": _e("""
            from scipy.stats import entropy
            return entropy(softmax(scores, axis=-1), axis=-1)
        """),
        "nansum": _e("""
            p = softmax(scores, axis=-1)
            with np.errstate(divide="ignore", invalid="ignore"):
                return -np.nansum(p * np.log(p), axis=-1)
        """),
    },
    "softmax_jacobian": {
        "kronecker": _j("""
            p = softmax(scores)
            return p[:, None] * (np.eye(len(p), dtype=p.dtype) - p[None, :])
        """),
        "diagflat": _j("""
            p = softmax(scores)
            return np.diagflat(p) - p[:, None] * p[None, :]
        """),
    },
    "gradient_norms": {
        "fro": _g("return np.array([np.linalg.norm(softmax_jacobian(r), 'fro') for r in scores])"),
        "vectorised": _g("""
            p = softmax(scores, axis=-1)
            eye = np.eye(p.shape[-1], dtype=p.dtype)
            J = p[:, :, None] * eye - p[:, :, None] * p[:, None, :]
            return np.sqrt((J ** 2).sum(axis=(-2, -1)))
        """),
    },
}
