"""Fourth fresh set, notebook 01: learner answers written without the key (checked only with selfcheck.py)."""

import textwrap


def _fn(signature: str, body: str) -> str:
    return f"def {signature}:\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n"


def _q(body):
    return _fn("scores_for_query(query, inputs)", body)


def _s(body):
    return _fn("softmax_stable(scores)", body)


def _c(body):
    return _fn("context_vector(weights, inputs)", body)


def _a(body):
    return _fn("self_attention_no_weights(inputs)", body)


MISTAKES = {
    "scores_for_query": {
        "keys_without_transpose:query_at_inputs": _q("return query @ inputs"),
        "sum_instead_of_dot:elementwise": _q("return inputs * query"),
        "sum_instead_of_dot:added": _q("return (inputs + query).sum(dim=-1)"),
        "wrong_query:journey_hardcoded": _q("""
            # the query of the text: "journey"
            return inputs @ inputs[1]
        """),
        "scaled_too_early": _q("return inputs @ query / query.shape[0] ** 0.5"),
        "lower_precision:empty_float32": _q("""
            scores = torch.empty(inputs.shape[0])
            for i, x_i in enumerate(inputs):
                scores[i] = torch.dot(x_i, query)
            return scores
        """),
        "loop_leftover": _q("""
            scores = torch.zeros(len(inputs), dtype=inputs.dtype)
            for i in range(len(inputs) - 1):
                scores[i] = torch.dot(inputs[i], query)
            return scores
        """),
        "uncatalogued:sum_over_tokens": _q("return (inputs * query).sum(dim=0)"),
        "uncatalogued:softmax_applied": _q("return torch.softmax(inputs @ query, dim=0)"),
        "uncatalogued:rounded": _q("return torch.round(inputs @ query, decimals=4)"),
        "uncatalogued:inputs_transposed": _q("return inputs.T @ query"),
    },
    "softmax_stable": {
        "softmax_no_max_subtraction": _s("""
            exps = torch.exp(scores)
            return exps / exps.sum(dim=-1, keepdim=True)
        """),
        "softmax_wrong_axis:dim0": _s("""
            exps = torch.exp(scores - scores.max(dim=0, keepdim=True).values)
            return exps / exps.sum(dim=0, keepdim=True)
        """),
        "changes_inputs_in_place": _s("""
            scores -= scores.max(dim=-1, keepdim=True).values
            exps = torch.exp(scores)
            return exps / exps.sum(dim=-1, keepdim=True)
        """),
        "normalise_by_sum": _s("return scores / scores.sum(dim=-1, keepdim=True)"),
        "softmax_over_all_entries:sum_all": _s("""
            exps = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
            return exps / exps.sum()
        """),
        "softmax_no_max_subtraction:min_shift": _s("""
            exps = torch.exp(scores - scores.min(dim=-1, keepdim=True).values)
            return exps / exps.sum(dim=-1, keepdim=True)
        """),
        "lower_precision:float32": _s("""
            scores = scores.float()
            exps = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
            return exps / exps.sum(dim=-1, keepdim=True)
        """),
        "uncatalogued:global_max": _s("""
            exps = torch.exp(scores - scores.max())
            return exps / exps.sum(dim=-1, keepdim=True)
        """),
        "uncatalogued:sum_without_keepdim": _s("""
            exps = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
            return exps / exps.sum(dim=-1)
        """),
        "uncatalogued:exp_not_normalised": _s("""
            return torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
        """),
        "uncatalogued:returns_log_softmax": _s("""
            shifted = scores - scores.max(dim=-1, keepdim=True).values
            return shifted - torch.log(torch.exp(shifted).sum(dim=-1, keepdim=True))
        """),
        "uncatalogued:loop_first_axis": _s("""
            out = torch.empty_like(scores)
            for i in range(scores.shape[0]):
                row = scores[i]
                e = torch.exp(row - row.max())
                out[i] = e / e.sum()
            return out
        """),
    },
    "context_vector": {
        "loop_leftover:skips_first": _c("""
            context = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
            for i in range(1, len(weights)):
                context = context + weights[i] * inputs[i]
            return context
        """),
        "lower_precision:zeros_float32": _c("""
            context = torch.zeros(inputs.shape[1])
            for weight, x_i in zip(weights, inputs):
                context += weight * x_i
            return context
        """),
        "uncatalogued:inputs_times_weights": _c("return inputs @ weights"),
        "uncatalogued:no_sum": _c("return weights[:, None] * inputs"),
        "uncatalogued:sum_wrong_axis": _c("return (weights[:, None] * inputs).sum(dim=1)"),
        "context_without_weights:unweighted_mean": _c("return inputs.mean(dim=0)"),
        "uncatalogued:softmax_again": _c("return torch.softmax(weights, dim=0) @ inputs"),
        "uncatalogued:overwrite_not_accumulate": _c("""
            context = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
            for weight, x_i in zip(weights, inputs):
                context = weight * x_i
            return context
        """),
        "uncatalogued:index_shift": _c("""
            context = torch.zeros(inputs.shape[1], dtype=inputs.dtype)
            for i, weight in enumerate(weights):
                context = context + weight * inputs[i - 1]
            return context
        """),
    },
    "self_attention_no_weights": {
        "softmax_no_max_subtraction": _a("""
            scores = inputs @ inputs.T
            weights = torch.exp(scores)
            weights = weights / weights.sum(dim=-1, keepdim=True)
            return weights @ inputs
        """),
        "softmax_wrong_axis": _a("return torch.softmax(inputs @ inputs.T, dim=0) @ inputs"),
        "weights_transposed": _a("""
            weights = softmax_stable(inputs @ inputs.T)
            return weights.T @ inputs
        """),
        "returns_weights": _a("return softmax_stable(inputs @ inputs.T)"),
        "returns_scores": _a("return inputs @ inputs.T"),
        "no_softmax": _a("return (inputs @ inputs.T) @ inputs"),
        "normalise_by_sum": _a("""
            scores = inputs @ inputs.T
            return scores / scores.sum(dim=-1, keepdim=True) @ inputs
        """),
        "softmax_over_all_entries": _a("""
            scores = inputs @ inputs.T
            exps = torch.exp(scores - scores.max())
            return exps / exps.sum() @ inputs
        """),
        "weights_times_scores": _a("""
            scores = inputs @ inputs.T
            return softmax_stable(scores) @ scores
        """),
        "lower_precision:float32": _a("""
            x = inputs.float()
            return softmax_stable(x @ x.T) @ x
        """),
        "loop_leftover": _a("""
            out = torch.zeros_like(inputs)
            for i in range(len(inputs) - 1):
                out[i] = softmax_stable(inputs[i] @ inputs.T) @ inputs
            return out
        """),
        "unscaled_attention_scaled:scaled": _a("""
            scores = inputs @ inputs.T / inputs.shape[1] ** 0.5
            return softmax_stable(scores) @ inputs
        """),
        "scores_features_by_features:gram_of_features": _a("return softmax_stable(inputs.T @ inputs) @ inputs"),
        "uncatalogued:global_max": _a("""
            scores = inputs @ inputs.T
            exps = torch.exp(scores - scores.max())
            return exps / exps.sum(dim=-1, keepdim=True) @ inputs
        """),
    },
}

VARIANTS = {
    "scores_for_query": {
        "matmul": _q("return torch.matmul(inputs, query)"),
        "stack_of_dots": _q("return torch.stack([torch.dot(x, query) for x in inputs])"),
        "einsum": _q('return torch.einsum("td,d->t", inputs, query)'),
    },
    "softmax_stable": {
        "amax": _s("""
            e = torch.exp(scores - scores.amax(dim=-1, keepdim=True))
            return e / e.sum(dim=-1, keepdim=True)
        """),
        "logsumexp": _s("return torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True))"),
        "unsqueeze": _s("""
            m = scores.max(dim=-1).values.unsqueeze(-1)
            e = (scores - m).exp()
            total = e.sum(dim=-1).unsqueeze(-1)
            return e / total
        """),
    },
    "context_vector": {
        "matmul": _c("return weights @ inputs"),
        "einsum": _c('return torch.einsum("t,td->d", weights, inputs)'),
        "broadcast_sum": _c("return (weights[:, None] * inputs).sum(dim=0)"),
    },
    "self_attention_no_weights": {
        "torch_softmax": _a("return torch.softmax(inputs @ inputs.T, dim=-1) @ inputs"),
        "einsum": _a("""
            scores = torch.einsum("id,jd->ij", inputs, inputs)
            weights = softmax_stable(scores)
            return torch.einsum("ij,jd->id", weights, inputs)
        """),
        "inline_stable": _a("""
            scores = inputs @ inputs.transpose(0, 1)
            scores = scores - scores.max(dim=1, keepdim=True).values
            weights = scores.exp() / scores.exp().sum(dim=1, keepdim=True)
            return weights @ inputs
        """),
    },
}
