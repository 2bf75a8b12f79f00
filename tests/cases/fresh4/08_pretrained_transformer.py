"""Fourth fresh set, notebook 08: learner answers written without the key (checked only with selfcheck.py).

The bert_layer cases are one learner's full answer (_LAYER, written for this set) with one slip each."""

import textwrap

_LAYER = '''
def gelu(x):
    return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))


def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
    wq, wk, wv, wo = attention_w
    bq, bk, bv, bo = attention_b
    probs = bert_head_weights(hidden, wq, bq, wk, bk, mask, n_heads)
    v = split_heads(hidden @ wv + bv, n_heads)
    context = combine_heads(probs @ v)
    attn_out = context @ wo + bo
    h1 = layer_norm(attn_out + hidden, norms[0][0], norms[0][1])
    ff = gelu(h1 @ ffn_w_in + ffn_b_in)
    ff_out = ff @ ffn_w_out + ffn_b_out
    return layer_norm(ff_out + h1, norms[1][0], norms[1][1])
'''


def _slip(*pairs):
    source = _LAYER
    for old, new in pairs:
        assert old in source, old
        source = source.replace(old, new)
    return source


_GELU = "return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))"


def _fn(signature: str, body: str) -> str:
    return f"def {signature}:\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n"


def _m(body):
    return _fn("attention_matrices(query_weight, key_weight, value_weight, output_weight)", body)


def _e(body):
    return _fn("bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, "
               "embedding_norm)", body)


def _h(body):
    return _fn("bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)", body)


_SENTENCE_SIG = ("sentence_embedding(token_ids, token_types, mask, word_embeddings, position_embeddings, "
                 "type_embeddings, embedding_norm, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, "
                 "ffn_b_out, norms, n_heads)")


def _s(body):
    return _fn(_SENTENCE_SIG, body)


def _p(body):
    return _fn("head_patterns(weights)", body)


def _emb(summed="word_embeddings[token_ids] + position_embeddings[positions] + type_embeddings[token_types]",
         positions="np.arange(token_ids.shape[1])", ret="layer_norm(summed, embedding_norm[0], embedding_norm[1])"):
    return _e(f"""
        positions = {positions}
        summed = {summed}
        return {ret}
    """)


def _heads(q="split_heads(hidden @ w_query + b_query, n_heads)", k="split_heads(hidden @ w_key + b_key, n_heads)",
           scores="q @ k.swapaxes(-1, -2) / np.sqrt(q.shape[-1])",
           masked="np.where(mask[:, None, None, :] == 1, scores, -np.inf)",
           shift="masked - masked.max(axis=-1, keepdims=True)", after=""):
    return _h(f"""
        q = {q}
        k = {k}
        scores = {scores}
        masked = {masked}
        e = np.exp({shift})
        probs = e / e.sum(axis=-1, keepdims=True){after}
        return probs
    """)


def _sent(loop="range(len(attention_w))", layer_mask="mask", pool="(hidden * real).sum(axis=1) / real.sum(axis=1)",
          embed="bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, "
                "embedding_norm)", index="i"):
    return _s(f"""
        hidden = {embed}
        for i in {loop}:
            hidden = bert_layer(hidden, {layer_mask}, attention_w[{index}], attention_b[{index}], ffn_w_in[{index}],
                                ffn_b_in[{index}], ffn_w_out[{index}], ffn_b_out[{index}], norms[{index}], n_heads)
        real = mask[:, :, None].astype(hidden.dtype)
        return {pool}
    """)


def _pat(previous="np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)",
         special="(weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)",
         itself="np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)", stack="axis=-1"):
    return _p(f"""
        previous = {previous}
        special = {special}
        itself = {itself}
        return np.stack([previous, special, itself], {stack})
    """)


MISTAKES = {
    "attention_matrices": {
        "weights_not_transposed": _m("return np.stack([query_weight, key_weight, value_weight, output_weight])"),
        "weights_not_transposed:w_out_kept": _m("""
            return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight])
        """),
        "changes_inputs_in_place": _m("""
            for w in (query_weight, key_weight, value_weight, output_weight):
                w[...] = w.T.copy()
            return np.stack([query_weight, key_weight, value_weight, output_weight])
        """),
        "lower_precision": _m("""
            return np.stack([w.T for w in (query_weight, key_weight, value_weight, output_weight)]).astype(np.float32)
        """),
        "uncatalogued:order_swapped": _m("return np.stack([key_weight.T, query_weight.T, value_weight.T, output_weight.T])"),
        "matrices_stacked_on_last_axis:stack_axis": _m("""
            return np.stack([query_weight.T, key_weight.T, value_weight.T, output_weight.T], axis=-1)
        """),
        "uncatalogued:concatenate": _m("""
            return np.concatenate([query_weight.T, key_weight.T, value_weight.T, output_weight.T])
        """),
        "matrices_stacked_on_last_axis:stack_then_T": _m("return np.stack([query_weight, key_weight, value_weight, output_weight]).T"),
        "uncatalogued:inverse_instead_of_transpose": _m("""
            return np.stack([np.linalg.inv(w) for w in (query_weight, key_weight, value_weight, output_weight)])
        """),
    },
    "bert_embeddings": {
        "position_embeddings_missing": _emb(summed="word_embeddings[token_ids] + type_embeddings[token_types]"),
        "positions_off_by_one": _emb(positions="np.arange(1, token_ids.shape[1] + 1)"),
        "token_type_embeddings_missing": _emb(summed="word_embeddings[token_ids] + position_embeddings[positions]"),
        "embedding_layer_norm_missing": _emb(ret="summed"),
        "lower_precision": _emb(ret="layer_norm(summed.astype(np.float32), embedding_norm[0], embedding_norm[1])"),
        "layer_norm_scale_shift_swapped:gamma_beta_swapped": _emb(ret="layer_norm(summed, embedding_norm[1], embedding_norm[0])"),
        "embedding_lookup_wrong_ids:type_row0_only": _emb(
            summed="word_embeddings[token_ids] + position_embeddings[positions] + type_embeddings[0]"),
        "embedding_lookup_wrong_ids:positions_by_ids": _emb(
            summed="word_embeddings[token_ids] + position_embeddings[token_ids] + type_embeddings[token_types]"),
        "uncatalogued:positions_from_batch_axis": _emb(positions="np.arange(token_ids.shape[0])[:, None]"),
        "uncatalogued:ddof1_norm": _emb(ret="(summed - summed.mean(-1, keepdims=True)) / summed.std(-1, ddof=1, "
                                            "keepdims=True) * embedding_norm[0] + embedding_norm[1]"),
        "layer_norm_wrong_axis:norm_over_tokens": _emb(ret="(summed - summed.mean(1, keepdims=True)) / np.sqrt(summed.var(1, "
                                                  "keepdims=True) + 1e-12) * embedding_norm[0] + embedding_norm[1]"),
    },
    "bert_head_weights": {
        "padding_mask_ignored": _heads(masked="scores"),
        "mask_wrong_sign": _heads(masked="np.where(mask[:, None, None, :] == 0, scores, -np.inf)"),
        "padding_mask_on_queries": _heads(masked="np.where(mask[:, None, :, None] == 1, scores, -np.inf)"),
        "biases_missing": _heads(q="split_heads(hidden @ w_query, n_heads)", k="split_heads(hidden @ w_key, n_heads)"),
        "scale_by_sqrt_d_model": _heads(scores="q @ k.swapaxes(-1, -2) / np.sqrt(hidden.shape[-1])"),
        "no_scaling": _heads(scores="q @ k.swapaxes(-1, -2)"),
        "softmax_no_max_subtraction": _heads(shift="masked"),
        "mask_with_zero": _heads(masked="np.where(mask[:, None, None, :] == 1, scores, 0.0)"),
        "mask_finite_value": _heads(masked="scores + (1.0 - mask[:, None, None, :]) * -10000.0"),
        "projection_order": _heads(q="split_heads(hidden @ w_query.T + b_query, n_heads)",
                                   k="split_heads(hidden @ w_key.T + b_key, n_heads)"),
        "heads_reshape_without_transpose": _heads(
            q="(hidden @ w_query + b_query).reshape(hidden.shape[0], n_heads, hidden.shape[1], -1)",
            k="(hidden @ w_key + b_key).reshape(hidden.shape[0], n_heads, hidden.shape[1], -1)"),
        "mask_after_softmax": _heads(masked="scores", after=" * mask[:, None, None, :]"),
        "keys_times_queries": _heads(scores="k @ q.swapaxes(-1, -2) / np.sqrt(q.shape[-1])"),
        "mixed_up_projections": _heads(k="split_heads(hidden @ w_query + b_query, n_heads)"),
        "uncatalogued:bias_before_product": _heads(q="split_heads((hidden + b_query) @ w_query, n_heads)",
                                                   k="split_heads((hidden + b_key) @ w_key, n_heads)"),
        "uncatalogued:global_max": _heads(shift="masked - np.max(masked)"),
        "uncatalogued:key_bias_on_queries": _heads(q="split_heads(hidden @ w_query + b_key, n_heads)",
                                                   k="split_heads(hidden @ w_key + b_query, n_heads)"),
    },
    "bert_layer": {
        "relu_instead_of_gelu": _slip((_GELU, "return np.maximum(x, 0.0)")),
        "gelu_tanh_approximation": _slip(
            (_GELU, "return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))")),
        "residual_missing:attention": _slip(("layer_norm(attn_out + hidden,", "layer_norm(attn_out,")),
        "residual_missing:feed_forward": _slip(("layer_norm(ff_out + h1,", "layer_norm(ff_out,")),
        "layer_norm_before_sublayer": _slip(
            ("    probs = bert_head_weights(hidden, wq, bq, wk, bk, mask, n_heads)\n"
             "    v = split_heads(hidden @ wv + bv, n_heads)\n",
             "    x = layer_norm(hidden, norms[0][0], norms[0][1])\n"
             "    probs = bert_head_weights(x, wq, bq, wk, bk, mask, n_heads)\n"
             "    v = split_heads(x @ wv + bv, n_heads)\n"),
            ("    h1 = layer_norm(attn_out + hidden, norms[0][0], norms[0][1])\n"
             "    ff = gelu(h1 @ ffn_w_in + ffn_b_in)\n",
             "    h1 = attn_out + hidden\n"
             "    ff = gelu(layer_norm(h1, norms[1][0], norms[1][1]) @ ffn_w_in + ffn_b_in)\n"),
            ("    return layer_norm(ff_out + h1, norms[1][0], norms[1][1])", "    return ff_out + h1")),
        "biases_missing:b_out": _slip(("attn_out = context @ wo + bo", "attn_out = context @ wo")),
        "biases_missing:ffn_in": _slip(("gelu(h1 @ ffn_w_in + ffn_b_in)", "gelu(h1 @ ffn_w_in)")),
        "padding_mask_ignored": _slip(("bk, mask, n_heads)", "bk, np.ones_like(mask), n_heads)")),
        "missing_output_projection": _slip(("attn_out = context @ wo + bo", "attn_out = context")),
        "projection_order:all_transposed": _slip(("wq, wk, wv, wo = attention_w",
                                                  "wq, wk, wv, wo = attention_w.transpose(0, 2, 1)")),
        "heads_reshape_without_transpose": _slip(("combine_heads(probs @ v)", "(probs @ v).reshape(hidden.shape)")),
        "mixed_up_projections": _slip(("hidden @ wv + bv", "hidden @ wk + bk")),
        "weights_transposed": _slip(("combine_heads(probs @ v)", "combine_heads(probs.swapaxes(-1, -2) @ v)")),
        "layer_norms_mixed_up:norms_swapped": _slip(("norms[0][0], norms[0][1]", "NORM_A"), ("norms[1][0], norms[1][1]", "NORM_B"),
                                            ("NORM_A", "norms[1][0], norms[1][1]"), ("NORM_B", "norms[0][0], norms[0][1]")),
        "uncatalogued:gamma_beta_swapped": _slip(("norms[0][0], norms[0][1]", "norms[0][1], norms[0][0]"),
                                                 ("norms[1][0], norms[1][1]", "norms[1][1], norms[1][0]")),
        "uncatalogued:erf_without_sqrt2": _slip((_GELU, "return 0.5 * x * (1.0 + erf(x))")),
        "uncatalogued:ffn_on_input": _slip(("gelu(h1 @ ffn_w_in", "gelu(hidden @ ffn_w_in")),
        "uncatalogued:sigmoid_approximation": _slip((_GELU, "return x / (1.0 + np.exp(-1.702 * x))")),
        "uncatalogued:second_norm_missing": _slip(("return layer_norm(ff_out + h1, norms[1][0], norms[1][1])",
                                                   "return ff_out + h1")),
        "biases_missing:b_value": _slip(("hidden @ wv + bv", "hidden @ wv")),
    },
    "sentence_embedding": {
        "mean_pool_includes_padding": _sent(pool="hidden.mean(axis=1)"),
        "mean_pool_includes_padding:padded_length": _sent(pool="(hidden * real).sum(axis=1) / hidden.shape[1]"),
        "cls_pooling": _sent(pool="hidden[:, 0]"),
        "embedding_layer_norm_missing": _sent(
            embed="word_embeddings[token_ids] + position_embeddings[np.arange(token_ids.shape[1])] "
                  "+ type_embeddings[token_types]"),
        "loop_leftover": _sent(loop="range(len(attention_w) - 1)"),
        "padding_mask_ignored:in_layers": _sent(layer_mask="np.ones_like(mask)"),
        "layer_weights_not_indexed:same_layer_repeated": _sent(index="0"),
        "uncatalogued:max_pooling": _sent(pool="np.where(real > 0, hidden, -np.inf).max(axis=1)"),
        "pooled_sum_not_mean:sum_not_mean": _sent(pool="(hidden * real).sum(axis=1)"),
        "uncatalogued:last_token": _sent(pool="hidden[:, -1]"),
        "uncatalogued:l2_normalised": _s("""
            hidden = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                                     embedding_norm)
            for layer in range(len(attention_w)):
                hidden = bert_layer(hidden, mask, attention_w[layer], attention_b[layer], ffn_w_in[layer],
                                    ffn_b_in[layer], ffn_w_out[layer], ffn_b_out[layer], norms[layer], n_heads)
            real = mask[..., None]
            pooled = (hidden * real).sum(1) / real.sum(1)
            return pooled / np.linalg.norm(pooled, axis=-1, keepdims=True)
        """),
        "uncatalogued:layers_reversed": _sent(loop="reversed(range(len(attention_w)))"),
        "uncatalogued:types_ignored": _sent(
            embed="bert_embeddings(token_ids, np.zeros_like(token_types), word_embeddings, position_embeddings, "
                  "type_embeddings, embedding_norm)"),
        "uncatalogued:pooled_over_features": _sent(pool="(hidden * real).sum(axis=-1) / real.sum(axis=-1)"),
    },
    "head_patterns": {
        "next_token_instead_of_previous": _pat(
            previous="np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean(axis=-1)"),
        "special_tokens_cls_only": _pat(special="weights[..., :, 0].mean(axis=-1)"),
        "loop_leftover": _pat(previous="np.mean([weights[..., i, i - 1] for i in range(1, weights.shape[-1] - 1)], axis=0)"),
        "previous_mean_over_all_queries:previous_divided_by_n": _pat(
            previous="np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / weights.shape[-1]"),
        "special_tokens_rows:special_as_queries": _pat(special="(weights[..., 0, :] + weights[..., -1, :]).mean(axis=-1)"),
        "uncatalogued:stacked_first_axis": _pat(stack="axis=0"),
        "uncatalogued:diagonal_first_axes": _pat(previous="np.diagonal(weights, offset=-1).mean(axis=-1)",
                                                 itself="np.diagonal(weights).mean(axis=-1)"),
        "uncatalogued:itself_sum": _pat(itself="np.trace(weights, axis1=-2, axis2=-1)"),
        "uncatalogued:wraps_first_row": _pat(
            previous="weights[..., np.arange(weights.shape[-1]), np.arange(weights.shape[-1]) - 1].mean(axis=-1)"),
        "uncatalogued:special_max": _pat(special="np.maximum(weights[..., :, 0], weights[..., :, -1]).mean(axis=-1)"),
    },
}

VARIANTS = {
    "attention_matrices": {
        "transpose_axes": _m("""
            return np.transpose(np.stack([query_weight, key_weight, value_weight, output_weight]), (0, 2, 1))
        """),
        "swapaxes": _m("return np.swapaxes(np.array([query_weight, key_weight, value_weight, output_weight]), -1, -2)"),
        "comprehension": _m("""
            return np.array([w.T for w in (query_weight, key_weight, value_weight, output_weight)])
        """),
    },
    "bert_embeddings": {
        "take": _emb(summed="np.take(word_embeddings, token_ids, axis=0) + position_embeddings[positions][None] "
                            "+ np.take(type_embeddings, token_types, axis=0)"),
        "by_hand_norm": _emb(ret="(summed - summed.mean(-1, keepdims=True)) / np.sqrt(summed.var(-1, keepdims=True) "
                                 "+ 1e-12) * embedding_norm[0] + embedding_norm[1]"),
    },
    "bert_head_weights": {
        "additive_inf": _heads(masked="scores + np.where(mask.astype(bool), 0.0, -np.inf)[:, None, None, :]"),
        "scipy": _h("""
            from scipy.special import softmax
            q = split_heads(hidden @ w_query + b_query, n_heads)
            k = split_heads(hidden @ w_key + b_key, n_heads)
            scores = np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(k.shape[-1])
            scores = np.where(mask[:, None, None, :] > 0, scores, -np.inf)
            return softmax(scores, axis=-1)
        """),
    },
    "bert_layer": {
        "as_written": _LAYER,
        "norm_cdf": _slip((_GELU, "from scipy.stats import norm\n    return x * norm.cdf(x)")),
        "unpacked_norms": _slip(("norms[0][0], norms[0][1]", "*norms[0]"), ("norms[1][0], norms[1][1]", "*norms[1]"),
                                ("context = combine_heads(probs @ v)",
                                 "context = np.concatenate(list(np.moveaxis(probs @ v, 1, 0)), axis=-1)")),
    },
    "sentence_embedding": {
        "zip_layers": _s("""
            x = bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                                embedding_norm)
            for layer in zip(attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms):
                x = bert_layer(x, mask, *layer, n_heads)
            return np.einsum("bt,btd->bd", mask, x) / mask.sum(axis=1, keepdims=True)
        """),
        "average": _sent(pool="np.stack([np.average(h, axis=0, weights=m) for h, m in zip(hidden, mask)])"),
    },
    "head_patterns": {
        "fancy_index": _pat(previous="weights[..., np.arange(1, weights.shape[-1]), np.arange(weights.shape[-1] - 1)]"
                                     ".mean(axis=-1)"),
        "separate_means": _pat(special="weights[..., :, 0].mean(-1) + weights[..., :, -1].mean(-1)",
                               itself="np.trace(weights, axis1=-2, axis2=-1) / weights.shape[-1]"),
    },
}
