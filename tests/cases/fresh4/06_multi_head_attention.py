"""Fourth fresh set, notebook 06: learner answers written without the key (checked only with selfcheck.py)."""

import textwrap


def _fn(signature: str, body: str) -> str:
    return f"def {signature}:\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n"


def _s(body):
    return _fn("split_heads(x, n_heads)", body)


def _c(body):
    return _fn("combine_heads(x)", body)


def _w(body):
    return _fn("head_weights(inputs, w_query, w_key, n_heads)", body)


def _m(body):
    return _fn("multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads)", body)


def _t(body):
    return _fn("torch_attn_mask(mask, n_heads)", body)


def _heads(q="split_heads(inputs @ w_query, n_heads)", k="split_heads(inputs @ w_key, n_heads)",
           scores="q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])",
           shift="scores - scores.max(axis=-1, keepdims=True)", axis="-1", ret="e / e.sum(axis={axis}, keepdims=True)"):
    return _w(f"""
        q = {q}
        k = {k}
        scores = {scores}
        e = np.exp({shift})
        return {ret.format(axis=axis)}
    """)


def _mha(values="split_heads(inputs @ w_value, n_heads)", context="weights @ values",
         out="combine_heads(context) @ w_out"):
    return _m(f"""
        weights = head_weights(inputs, w_query, w_key, n_heads)
        values = {values}
        context = {context}
        return {out}
    """)


MISTAKES = {
    "split_heads": {
        "heads_reshape_without_transpose": _s("""
            *lead, tokens, d_model = x.shape
            return x.reshape(*lead, n_heads, tokens, d_model // n_heads)
        """),
        "heads_reshape_without_transpose:no_swap": _s("""
            *lead, tokens, d_model = x.shape
            return x.reshape(*lead, tokens, n_heads, d_model // n_heads)
        """),
        "heads_interleaved": _s("""
            *lead, tokens, d_model = x.shape
            x = x.reshape(*lead, tokens, d_model // n_heads, n_heads)
            return np.moveaxis(x, -1, -3)
        """),
        "changes_inputs_in_place": _s("""
            *lead, tokens, d_model = x.shape
            x.shape = (*lead, tokens, n_heads, d_model // n_heads)
            return np.swapaxes(x, -3, -2)
        """),
        "uncatalogued:swapped_last_two": _s("""
            *lead, tokens, d_model = x.shape
            return np.swapaxes(x.reshape(*lead, tokens, n_heads, d_model // n_heads), -2, -1)
        """),
        "uncatalogued:batch_axes_dropped": _s("""
            tokens, d_model = x.shape[-2:]
            return x.reshape(tokens, n_heads, d_model // n_heads).transpose(1, 0, 2)
        """),
        "uncatalogued:transpose_all_axes": _s("""
            *lead, tokens, d_model = x.shape
            return np.transpose(x.reshape(*lead, tokens, n_heads, d_model // n_heads))
        """),
        "uncatalogued:heads_axis_first": _s("""
            d_head = x.shape[-1] // n_heads
            return np.stack([x[..., h * d_head:(h + 1) * d_head] for h in range(n_heads)])
        """),
        "uncatalogued:float_division_reshape": _s("""
            *lead, tokens, d_model = x.shape
            x = x.reshape(*lead, tokens, n_heads, d_model / n_heads)
            return np.swapaxes(x, -3, -2)
        """),
    },
    "combine_heads": {
        "heads_reshape_without_transpose": _c("""
            *lead, heads, tokens, d_head = x.shape
            return x.reshape(*lead, tokens, heads * d_head)
        """),
        "heads_concatenated_on_wrong_axis": _c("""
            return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-2)
        """),
        "heads_interleaved": _c("""
            x = np.swapaxes(np.swapaxes(x, -3, -2), -1, -2)  # (..., tokens, d_head, heads)
            *lead, tokens, d_head, heads = x.shape
            return x.reshape(*lead, tokens, heads * d_head)
        """),
        "uncatalogued:hstack_batch": _c("return np.hstack(list(x))"),
        "heads_wrong_axes_swapped:swapped_last_two": _c("""
            *lead, heads, tokens, d_head = x.shape
            return np.swapaxes(x, -2, -1).reshape(*lead, tokens, heads * d_head)
        """),
        "uncatalogued:fixed_rank": _c("""
            heads, tokens, d_head = x.shape[-3:]
            return x.transpose(1, 0, 2).reshape(tokens, heads * d_head)
        """),
        "uncatalogued:concat_first_axis": _c("return np.concatenate(x, axis=-1)"),
    },
    "head_weights": {
        "heads_reshape_without_transpose": _heads(
            q="(inputs @ w_query).reshape(*inputs.shape[:-2], n_heads, inputs.shape[-2], -1)",
            k="(inputs @ w_key).reshape(*inputs.shape[:-2], n_heads, inputs.shape[-2], -1)"),
        "heads_interleaved": _heads(
            q="np.moveaxis((inputs @ w_query).reshape(*inputs.shape[:-1], -1, n_heads), -1, -3)",
            k="np.moveaxis((inputs @ w_key).reshape(*inputs.shape[:-1], -1, n_heads), -1, -3)"),
        "scale_by_sqrt_d_model": _heads(scores="q @ np.swapaxes(k, -1, -2) / np.sqrt(inputs.shape[-1])"),
        "scale_by_d_k": _heads(scores="q @ np.swapaxes(k, -1, -2) / k.shape[-1]"),
        "scale_by_sqrt_tokens": _heads(scores="q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-2])"),
        "no_scaling": _heads(scores="q @ np.swapaxes(k, -1, -2)"),
        "softmax_no_max_subtraction": _heads(shift="scores"),
        "keys_transpose_all_axes": _heads(scores="q @ k.T / np.sqrt(k.shape[-1])"),
        "softmax_wrong_axis": _heads(shift="scores - scores.max(axis=-2, keepdims=True)", axis="-2"),
        "mixed_up_projections": _heads(k="split_heads(inputs @ w_query, n_heads)"),
        "keys_times_queries": _heads(scores="k @ np.swapaxes(q, -1, -2) / np.sqrt(k.shape[-1])"),
        "projection_order": _heads(q="split_heads(inputs @ w_query.T, n_heads)",
                                   k="split_heads(inputs @ w_key.T, n_heads)"),
        "returns_scores": _heads(ret="q @ np.swapaxes(k, -1, -2)"),
        "uncatalogued:global_max": _heads(shift="scores - scores.max()"),
        "uncatalogued:heads_and_width_confused": _heads(
            q="split_heads(inputs @ w_query, w_query.shape[1] // n_heads)",
            k="split_heads(inputs @ w_key, w_key.shape[1] // n_heads)"),
    },
    "multi_head_attention": {
        "missing_output_projection": _mha(out="combine_heads(context)"),
        "heads_reshape_without_transpose": _mha(
            out="context.reshape(*context.shape[:-3], context.shape[-2], -1) @ w_out"),
        "heads_concatenated_on_wrong_axis": _mha(
            out="np.concatenate([context[..., h, :, :] for h in range(n_heads)], axis=-2) @ w_out"),
        "weights_transposed": _mha(context="np.swapaxes(weights, -1, -2) @ values"),
        "weights_times_keys": _mha(context="weights @ split_heads(inputs @ w_key, n_heads)"),
        "mixed_up_projections:values_from_w_query": _mha(values="split_heads(inputs @ w_query, n_heads)"),
        "projection_order:w_out_T": _mha(out="combine_heads(context) @ w_out.T"),
        "no_scaling": _m("""
            q = split_heads(inputs @ w_query, n_heads)
            k = split_heads(inputs @ w_key, n_heads)
            v = split_heads(inputs @ w_value, n_heads)
            s = q @ np.swapaxes(k, -1, -2)
            e = np.exp(s - s.max(axis=-1, keepdims=True))
            return combine_heads(e / e.sum(axis=-1, keepdims=True) @ v) @ w_out
        """),
        "softmax_no_max_subtraction": _m("""
            q = split_heads(inputs @ w_query, n_heads)
            k = split_heads(inputs @ w_key, n_heads)
            v = split_heads(inputs @ w_value, n_heads)
            e = np.exp(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]))
            return combine_heads(e / e.sum(axis=-1, keepdims=True) @ v) @ w_out
        """),
        "loop_leftover": _m("""
            q, k, v = (inputs @ w for w in (w_query, w_key, w_value))
            d_head = q.shape[-1] // n_heads
            outs = []
            for h in range(n_heads - 1):
                cols = slice(h * d_head, (h + 1) * d_head)
                s = q[..., cols] @ np.swapaxes(k[..., cols], -1, -2) / np.sqrt(d_head)
                e = np.exp(s - s.max(axis=-1, keepdims=True))
                outs.append(e / e.sum(axis=-1, keepdims=True) @ v[..., cols])
            outs.append(np.zeros_like(outs[0]) if outs else np.zeros_like(v[..., :d_head]))
            return np.concatenate(outs, axis=-1) @ w_out
        """),
        "d_head_from_input_width:d_head_from_d_model": _m("""
            d_head = inputs.shape[-1] // n_heads
            q = split_heads(inputs @ w_query, n_heads)
            k = split_heads(inputs @ w_key, n_heads)
            v = split_heads(inputs @ w_value, n_heads)
            s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
            e = np.exp(s - s.max(axis=-1, keepdims=True))
            return combine_heads(e / e.sum(axis=-1, keepdims=True) @ v) @ w_out
        """),
        "uncatalogued:values_not_split": _mha(values="inputs @ w_value"),
        "uncatalogued:residual_added": _mha(out="combine_heads(context) @ w_out + inputs"),
        "uncatalogued:concat_over_batch": _mha(out="np.concatenate(list(context), axis=-1) @ w_out"),
    },
    "torch_attn_mask": {
        "torch_mask_not_inverted": _t("return np.repeat(np.asarray(mask, dtype=bool), n_heads, axis=0)"),
        "torch_mask_heads_tiled": _t("return np.tile(~mask, (n_heads, 1, 1))"),
        "torch_mask_heads_not_merged": _t("return np.repeat(~mask[:, None], n_heads, axis=1)"),
        "mask_transposed:swapaxes": _t("return np.repeat(np.swapaxes(~mask, -1, -2), n_heads, axis=0)"),
        "changes_inputs_in_place": _t("""
            np.logical_not(mask, out=mask)
            return np.repeat(mask, n_heads, axis=0)
        """),
        "loop_leftover": _t("""
            out = []
            for b in range(len(mask) - 1):
                out.extend([~mask[b]] * n_heads)
            return np.array(out)
        """),
        "uncatalogued:float_mask": _t("return np.repeat((~mask).astype(np.float32), n_heads, axis=0)"),
        "uncatalogued:additive_float": _t("return np.repeat(np.where(mask, 0.0, -np.inf), n_heads, axis=0)"),
        "uncatalogued:repeat_wrong_axis": _t("return np.repeat(~mask, n_heads, axis=1)"),
        "uncatalogued:one_minus_int": _t("return np.repeat(1 - mask.astype(int), n_heads, axis=0)"),
    },
}

VARIANTS = {
    "split_heads": {
        "moveaxis": _s("""
            new_shape = x.shape[:-1] + (n_heads, x.shape[-1] // n_heads)
            return np.moveaxis(x.reshape(new_shape), -2, -3)
        """),
        "array_split": _s("return np.stack(np.split(x, n_heads, axis=-1), axis=-3)"),
    },
    "combine_heads": {
        "moveaxis": _c("""
            y = np.moveaxis(x, -3, -2)
            return y.reshape(y.shape[:-2] + (-1,))
        """),
        "concatenate_heads": _c("""
            return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-1)
        """),
    },
    "head_weights": {
        "einsum": _w("""
            q = split_heads(inputs @ w_query, n_heads)
            k = split_heads(inputs @ w_key, n_heads)
            s = np.einsum("...qd,...kd->...qk", q, k) / np.sqrt(q.shape[-1])
            s = s - s.max(-1, keepdims=True)
            return np.exp(s) / np.exp(s).sum(-1, keepdims=True)
        """),
        "scipy": _w("""
            from scipy.special import softmax
            q = split_heads(inputs @ w_query, n_heads)
            k = split_heads(inputs @ w_key, n_heads)
            return softmax(q @ np.swapaxes(k, -2, -1) / np.sqrt(k.shape[-1]), axis=-1)
        """),
    },
    "multi_head_attention": {
        "one_line": _m("""
            return combine_heads(head_weights(inputs, w_query, w_key, n_heads)
                                 @ split_heads(inputs @ w_value, n_heads)) @ w_out
        """),
        "head_loop": _m("""
            q, k, v = inputs @ w_query, inputs @ w_key, inputs @ w_value
            d_head = q.shape[-1] // n_heads
            heads = []
            for h in range(n_heads):
                cols = slice(h * d_head, (h + 1) * d_head)
                s = q[..., cols] @ np.swapaxes(k[..., cols], -1, -2) / np.sqrt(d_head)
                e = np.exp(s - s.max(axis=-1, keepdims=True))
                heads.append(e / e.sum(axis=-1, keepdims=True) @ v[..., cols])
            return np.concatenate(heads, axis=-1) @ w_out
        """),
    },
    "torch_attn_mask": {
        "logical_not": _t("return np.repeat(np.logical_not(mask), n_heads, axis=0)"),
        "broadcast_reshape": _t("""
            b, q, k = mask.shape
            blocked = np.broadcast_to(~mask[:, None], (b, n_heads, q, k))
            return blocked.reshape(b * n_heads, q, k)
        """),
        "comprehension": _t("return np.stack([~m for m in mask for _ in range(n_heads)])"),
    },
}
