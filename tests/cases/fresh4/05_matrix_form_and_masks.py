"""Fourth fresh set, notebook 05: learner answers written without the key (checked only with selfcheck.py)."""

import textwrap


def _fn(signature: str, body: str) -> str:
    return f"def {signature}:\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n"


def _b(body):
    return _fn("batched_attention(queries, keys, values, scale=True)", body)


def _c(body):
    return _fn("causal_mask(n_tokens)", body)


def _m(body):
    return _fn("masked_attention(queries, keys, values, mask)", body)


def _p(body):
    return _fn("padding_mask(lengths, n_tokens)", body)


def _scaled(transpose="np.swapaxes(keys, -1, -2)", divide="np.sqrt(keys.shape[-1])", softmax="softmax(scores, axis=-1)",
            product="weights @ values"):
    return _b(f"""
        scores = queries @ {transpose}
        if scale:
            scores = scores / {divide}
        weights = {softmax}
        return {product}
    """)


def _masked(where="np.where(mask, scores, -np.inf)", after="", divide="np.sqrt(keys.shape[-1])",
            transpose="np.swapaxes(keys, -1, -2)", softmax="softmax(scores, axis=-1)"):
    return _m(f"""
        scores = queries @ {transpose} / {divide}
        scores = {where}
        weights = {softmax}{after}
        return weights @ values
    """)


MISTAKES = {
    "batched_attention": {
        "keys_transpose_all_axes": _scaled(transpose="keys.T"),
        "keys_without_transpose": _scaled(transpose="keys"),
        "keys_times_queries": _b("""
            scores = keys @ np.swapaxes(queries, -1, -2)
            if scale:
                scores = scores / np.sqrt(keys.shape[-1])
            return softmax(scores, axis=-1) @ values
        """),
        "scale_by_d_k": _scaled(divide="keys.shape[-1]"),
        "scale_by_sqrt_tokens": _scaled(divide="np.sqrt(keys.shape[-2])"),
        "scale_applied_twice": _scaled(
            divide="np.sqrt(keys.shape[-1])\n            scores = scores / np.sqrt(keys.shape[-1])"),
        "softmax_wrong_axis": _scaled(softmax="softmax(scores, axis=-2)"),
        "softmax_over_all_entries": _scaled(softmax="scipy.special.softmax(scores)"),
        "softmax_no_max_subtraction": _scaled(softmax="np.exp(scores) / np.exp(scores).sum(axis=-1, keepdims=True)"),
        "weights_transposed": _scaled(product="np.swapaxes(weights, -1, -2) @ values"),
        "returns_weights": _scaled(product="weights"),
        "weights_times_keys": _scaled(product="weights @ keys"),
        "uncatalogued:scale_flag_ignored": _b("""
            scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
            return softmax(scores) @ values
        """),
        "uncatalogued:scale_flag_inverted": _b("""
            scores = queries @ np.swapaxes(keys, -1, -2)
            if not scale:
                scores = scores / np.sqrt(keys.shape[-1])
            return softmax(scores) @ values
        """),
        "scale_by_sqrt_d_v:scale_by_d_v": _scaled(divide="np.sqrt(values.shape[-1])"),
        "uncatalogued:transpose_fixed_rank": _scaled(transpose="np.transpose(keys, (0, 2, 1))"),
        "uncatalogued:loops_first_axis": _b("""
            outputs = []
            for q, k, v in zip(queries, keys, values):
                s = q @ k.T
                if scale:
                    s = s / np.sqrt(k.shape[-1])
                outputs.append(softmax(s) @ v)
            return np.array(outputs)
        """),
    },
    "causal_mask": {
        "causal_mask_upper": _c("return np.triu(np.ones((n_tokens, n_tokens), dtype=bool))"),
        "causal_mask_upper:triu_k1": _c("return np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)"),
        "causal_mask_upper:comparison_transposed": _c("""
            i = np.arange(n_tokens)
            return i[:, None] <= i[None, :]
        """),
        "causal_mask_off_by_one": _c("return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=-1)"),
        "causal_mask_off_by_one:k1": _c("return np.tril(np.ones((n_tokens, n_tokens), dtype=bool), k=1)"),
        "causal_mask_off_by_one:strict_comparison": _c("""
            return np.arange(n_tokens)[:, None] > np.arange(n_tokens)[None, :]
        """),
        "mask_wrong_sign:negated_tril": _c("return ~np.tril(np.ones((n_tokens, n_tokens), dtype=bool))"),
        "loop_leftover": _c("""
            mask = np.zeros((n_tokens, n_tokens), dtype=bool)
            for i in range(n_tokens - 1):
                mask[i, :i + 1] = True
            return mask
        """),
        "uncatalogued:float_mask": _c("return np.tril(np.ones((n_tokens, n_tokens)))"),
        "uncatalogued:int_mask": _c("return np.tril(np.ones((n_tokens, n_tokens), dtype=int))"),
    },
    "masked_attention": {
        "mask_with_zero": _masked(where="np.where(mask, scores, 0)"),
        "mask_with_zero:multiply": _masked(where="scores * mask"),
        "mask_after_softmax": _masked(where="scores", after=" * mask"),
        "mask_after_softmax:renormalised": _masked(
            where="scores", after=" * mask\n        weights = weights / weights.sum(axis=-1, keepdims=True)"),
        "mask_wrong_sign": _masked(where="np.where(mask, -np.inf, scores)"),
        "mask_finite_value:minus100": _masked(where="np.where(mask, scores, -100.0)"),
        "mask_transposed:swapaxes": _masked(where="np.where(np.swapaxes(mask, -1, -2), scores, -np.inf)"),
        "no_scaling": _masked(divide="1"),
        "softmax_no_max_subtraction": _masked(
            softmax="np.exp(scores) / np.exp(scores).sum(axis=-1, keepdims=True)"),
        "keys_transpose_all_axes": _masked(transpose="keys.T"),
        "softmax_wrong_axis": _masked(softmax="softmax(scores, axis=-2)"),
        "uncatalogued:mask_ignored": _masked(where="scores"),
        "uncatalogued:max_before_mask": _m("""
            scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
            scores = scores - scores.max(axis=-1, keepdims=True)
            exps = np.where(mask, np.exp(scores), 0.0)
            return exps / exps.sum(axis=-1, keepdims=True) @ values
        """),
        "uncatalogued:boolean_index_broadcast": _m("""
            scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
            scores[~mask] = -np.inf
            return softmax(scores) @ values
        """),
    },
    "padding_mask": {
        "padding_mask_off_by_one": _p("""
            return (np.arange(n_tokens)[None, :] <= np.asarray(lengths)[:, None])[:, None, :]
        """),
        "padding_mask_off_by_one:range_from_one": _p("""
            positions = np.arange(1, n_tokens + 1)
            return (positions < lengths[:, None])[:, None, :]
        """),
        "padding_mask_on_queries": _p("""
            keep = np.arange(n_tokens)[None, :] < np.asarray(lengths)[:, None]
            return keep[:, :, None]
        """),
        "mask_wrong_sign": _p("""
            return (np.arange(n_tokens)[None, :] >= lengths[:, None])[:, None, :]
        """),
        "loop_leftover": _p("""
            mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
            for b in range(len(lengths) - 1):
                mask[b, 0, :lengths[b]] = True
            return mask
        """),
        "uncatalogued:missing_axis": _p("return np.arange(n_tokens)[None, :] < lengths[:, None]"),
        "uncatalogued:int_dtype": _p("""
            return (np.arange(n_tokens)[None, :] < lengths[:, None]).astype(int)[:, None, :]
        """),
        "uncatalogued:axis_in_front": _p("""
            keep = np.arange(n_tokens)[None, :] < lengths[:, None]
            return keep[None, :, :]
        """),
        "uncatalogued:left_padding": _p("""
            return (np.arange(n_tokens)[::-1][None, :] < lengths[:, None])[:, None, :]
        """),
    },
}

VARIANTS = {
    "batched_attention": {
        "einsum": _b("""
            scores = np.einsum("...qd,...kd->...qk", queries, keys)
            if scale:
                scores = scores / np.sqrt(keys.shape[-1])
            return np.einsum("...qk,...kv->...qv", softmax(scores), values)
        """),
        "moveaxis": _scaled(transpose="np.moveaxis(keys, -1, -2)"),
        "by_hand_stable": _scaled(softmax="np.exp(scores - scores.max(-1, keepdims=True))\n"
                                          "        weights = weights / weights.sum(-1, keepdims=True)"),
    },
    "causal_mask": {
        "tri": _c("return np.tri(n_tokens, dtype=bool)"),
        "comparison": _c("""
            rows, cols = np.indices((n_tokens, n_tokens))
            return cols <= rows
        """),
        "loop": _c("""
            mask = np.zeros((n_tokens, n_tokens), dtype=bool)
            for i in range(n_tokens):
                mask[i, : i + 1] = True
            return mask
        """),
    },
    "masked_attention": {
        "additive_inf": _masked(where="scores + np.where(mask, 0.0, -np.inf)"),
        "finfo_min": _masked(where="np.where(mask, scores, np.finfo(scores.dtype).min)"),
        "by_hand_after_mask": _masked(
            softmax="np.exp(scores - scores.max(axis=-1, keepdims=True))\n"
                    "        weights = weights / weights.sum(axis=-1, keepdims=True)"),
        "minus_1e9_added_to_masked": _masked(where="np.where(mask, scores, scores - 1e9)"),
    },
    "padding_mask": {
        "expand_dims": _p("return np.expand_dims(np.arange(n_tokens) < np.asarray(lengths)[:, None], axis=1)"),
        "loop": _p("""
            mask = np.zeros((len(lengths), 1, n_tokens), dtype=bool)
            for b, length in enumerate(lengths):
                mask[b, 0, :length] = True
            return mask
        """),
        "comprehension": _p("""
            return np.array([[[j < n for j in range(n_tokens)]] for n in lengths], dtype=bool).reshape(len(lengths), 1, n_tokens)
        """),
    },
}
