"""Fourth fresh set, notebook 02: learner answers written without the key (checked only with selfcheck.py)."""

import textwrap


def _fn(signature: str, body: str) -> str:
    return f"def {signature}:\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n"


def _p(body):
    return _fn("project_qkv(inputs, w_query, w_key, w_value)", body)


def _w(body):
    return _fn("state_weights(state, states, w_query, w_key)", body)


def _a(body):
    return _fn("state_attention(state, states, w_query, w_key, w_value)", body)


MISTAKES = {
    "project_qkv": {
        "projection_order:w_times_inputs": _p("""
            return w_query.T @ inputs.T, w_key.T @ inputs.T, w_value.T @ inputs.T
        """),
        "projection_order:w_transposed": _p("""
            return inputs @ w_query.T, inputs @ w_key.T, inputs @ w_value.T
        """),
        "mixed_up_projections:key_value_swapped": _p("""
            queries = inputs @ w_query
            keys = inputs @ w_value
            values = inputs @ w_key
            return queries, keys, values
        """),
        "mixed_up_projections:one_matrix": _p("""
            queries = inputs @ w_query
            keys = inputs @ w_query
            values = inputs @ w_query
            return queries, keys, values
        """),
        "lower_precision:astype_float32": _p("""
            x = inputs.astype(np.float32)
            return x @ w_query.astype(np.float32), x @ w_key.astype(np.float32), x @ w_value.astype(np.float32)
        """),
        "integer_arithmetic:astype_int": _p("""
            q, k, v = (np.matmul(inputs, w) for w in (w_query, w_key, w_value))
            return q.astype(int), k.astype(int), v.astype(int)
        """),
        "uncatalogued:returned_out_of_order": _p("""
            queries, keys, values = inputs @ w_query, inputs @ w_key, inputs @ w_value
            return keys, queries, values
        """),
        "uncatalogued:elementwise": _p("return inputs * w_query, inputs * w_key, inputs * w_value"),
        "uncatalogued:stacked_wrong_axis": _p("""
            return np.stack([inputs @ w_query, inputs @ w_key, inputs @ w_value], axis=1)
        """),
        "uncatalogued:values_missing": _p("return inputs @ w_query, inputs @ w_key"),
    },
    "state_weights": {
        "no_scaling": _w("""
            query = state @ w_query
            keys = states @ w_key
            return softmax(keys @ query)
        """),
        "scale_by_d_k": _w("""
            query = state @ w_query
            keys = states @ w_key
            return softmax(keys @ query / keys.shape[1])
        """),
        "scale_by_sqrt_d_model": _w("""
            query = state @ w_query
            keys = states @ w_key
            return softmax(keys @ query / np.sqrt(states.shape[1]))
        """),
        "scale_by_sqrt_d_model:d_state": _w("""
            query = state @ w_query
            keys = states @ w_key
            d = w_query.shape[0]
            return softmax(keys @ query / np.sqrt(d))
        """),
        "scale_by_sqrt_tokens": _w("""
            query = state @ w_query
            keys = states @ w_key
            return softmax(keys @ query / np.sqrt(len(states)))
        """),
        "softmax_no_max_subtraction": _w("""
            query = state @ w_query
            keys = states @ w_key
            e = np.exp(keys @ query / np.sqrt(keys.shape[-1]))
            return e / e.sum()
        """),
        "normalise_by_sum": _w("""
            scores = (states @ w_key) @ (state @ w_query) / np.sqrt(w_key.shape[1])
            return scores / scores.sum()
        """),
        "returns_scores": _w("""
            query = state @ w_query
            keys = states @ w_key
            return keys @ query
        """),
        "no_softmax": _w("""
            query = state @ w_query
            keys = states @ w_key
            return keys @ query / np.sqrt(keys.shape[-1])
        """),
        "mixed_up_projections:swapped": _w("""
            query = state @ w_key
            keys = states @ w_query
            return softmax(keys @ query / np.sqrt(keys.shape[-1]))
        """),
        "projection_order:w_key_T": _w("""
            query = state @ w_query
            keys = states @ w_key.T
            return softmax(keys @ query / np.sqrt(keys.shape[-1]))
        """),
        "integer_arithmetic:floor_division": _w("""
            query = state @ w_query
            keys = states @ w_key
            return softmax((keys @ query) // np.sqrt(keys.shape[-1]))
        """),
        "lower_precision:float32": _w("""
            query = (state @ w_query).astype(np.float32)
            keys = (states @ w_key).astype(np.float32)
            return softmax(keys @ query / np.float32(np.sqrt(keys.shape[-1])))
        """),
        "keys_without_transpose:query_at_keys": _w("""
            query = state @ w_query
            keys = states @ w_key
            return softmax(query @ keys / np.sqrt(keys.shape[-1]))
        """),
        "uncatalogued:scaled_after_softmax": _w("""
            query = state @ w_query
            keys = states @ w_key
            return softmax(keys @ query) / np.sqrt(keys.shape[-1])
        """),
        "uncatalogued:state_not_projected": _w("""
            keys = states @ w_key
            return softmax(keys @ state / np.sqrt(keys.shape[-1]))
        """),
        "uncatalogued:keys_not_projected": _w("""
            query = state @ w_query
            return softmax(states @ query / np.sqrt(w_key.shape[-1]))
        """),
    },
    "state_attention": {
        "weights_times_keys": _a("""
            weights = state_weights(state, states, w_query, w_key)
            keys = states @ w_key
            return weights @ keys
        """),
        "returns_weights": _a("""
            weights = state_weights(state, states, w_query, w_key)
            values = states @ w_value
            return weights
        """),
        "mixed_up_projections:value_from_w_query": _a("""
            weights = state_weights(state, states, w_query, w_key)
            return weights @ (states @ w_query)
        """),
        "loop_leftover": _a("""
            weights = state_weights(state, states, w_query, w_key)
            values = states @ w_value
            out = np.zeros(values.shape[1])
            for j in range(len(states) - 1):
                out += weights[j] * values[j]
            return out
        """),
        "integer_arithmetic:values_astype_int": _a("""
            weights = state_weights(state, states, w_query, w_key)
            values = (states @ w_value).astype(int)
            return weights @ values
        """),
        "no_scaling": _a("""
            q = state @ w_query
            k = states @ w_key
            w = softmax(k @ q)
            return w @ (states @ w_value)
        """),
        "lower_precision:values_float16": _a("""
            weights = state_weights(state, states, w_query, w_key)
            values = (states @ w_value).astype(np.float16)
            return weights @ values
        """),
        "values_not_projected:values_not_projected": _a("""
            weights = state_weights(state, states, w_query, w_key)
            return weights @ states
        """),
        "scale_by_sqrt_d_v:scale_by_d_v": _a("""
            q = state @ w_query
            k = states @ w_key
            v = states @ w_value
            w = softmax(k @ q / np.sqrt(v.shape[-1]))
            return w @ v
        """),
        "uncatalogued:sum_wrong_axis": _a("""
            weights = state_weights(state, states, w_query, w_key)
            values = states @ w_value
            return (weights[:, None] * values).sum(axis=1)
        """),
        "uncatalogued:weights_renormalised_by_softmax": _a("""
            weights = softmax(state_weights(state, states, w_query, w_key))
            return weights @ (states @ w_value)
        """),
    },
}

VARIANTS = {
    "project_qkv": {
        "matmul": _p("return np.matmul(inputs, w_query), np.matmul(inputs, w_key), np.matmul(inputs, w_value)"),
        "einsum": _p("""
            return tuple(np.einsum("td,dk->tk", inputs, w) for w in (w_query, w_key, w_value))
        """),
        "stacked": _p("return np.stack([inputs @ w for w in (w_query, w_key, w_value)])"),
    },
    "state_weights": {
        "inline": _w("""
            scores = (states @ w_key) @ (state @ w_query)
            return softmax(scores / np.sqrt(w_key.shape[1]))
        """),
        "by_hand_stable": _w("""
            query = state @ w_query
            keys = states @ w_key
            scores = keys @ query / np.sqrt(keys.shape[-1])
            e = np.exp(scores - scores.max())
            return e / e.sum()
        """),
        "einsum": _w("""
            q = np.einsum("s,sk->k", state, w_query)
            k = np.einsum("nm,mk->nk", states, w_key)
            return softmax(np.einsum("nk,k->n", k, q) / np.sqrt(k.shape[-1]))
        """),
    },
    "state_attention": {
        "inline": _a("""
            query = state @ w_query
            keys = states @ w_key
            weights = softmax(keys @ query / np.sqrt(keys.shape[-1]))
            return weights @ (states @ w_value)
        """),
        "broadcast_sum": _a("""
            weights = state_weights(state, states, w_query, w_key)
            return np.sum(weights[:, None] * (states @ w_value), axis=0)
        """),
        "values_T": _a("""
            values = states @ w_value
            return values.T @ state_weights(state, states, w_query, w_key)
        """),
    },
}
