"""Fresh held-out learner answers for notebook 02's new exercises (issue 12, part 3).

Written before the exercises' own mutants existed in the key, from how learners slip when one state
(a decoder state, or one word) queries other states through learned projections. Never edited to
make the diagnosis look better. Format as in ``tests/cases/heldout/``.
"""

MISTAKES = {
    "state_weights": {
        "no_scaling:forgot": """
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query)
""",
        "scale_by_sqrt_d_model:encoder_width": """
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(states.shape[1]))
""",
        "scale_by_sqrt_d_model:state_width": """
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(len(state)))
""",
        "scale_by_d_k:no_root": """
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    d_k = keys.shape[-1]
    return softmax(keys @ query / d_k)
""",
        "scale_by_sqrt_tokens:len_states": """
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return softmax(keys @ query / np.sqrt(len(states)))
""",
        "softmax_wrong_axis:row_vector": """
def state_weights(state, states, w_query, w_key):
    query = state.reshape(1, -1) @ w_query      # (1, d_k)
    keys = states @ w_key                       # (n, d_k)
    scores = query @ keys.T / np.sqrt(keys.shape[1])   # (1, n)
    return softmax(scores, axis=0)[0]
""",
        "softmax_no_max_subtraction:manual": """
def state_weights(state, states, w_query, w_key):
    scores = (states @ w_key) @ (state @ w_query) / np.sqrt(w_key.shape[1])
    e = np.exp(scores)
    return e / e.sum()
""",
        "normalise_by_sum:divide": """
def state_weights(state, states, w_query, w_key):
    scores = (states @ w_key) @ (state @ w_query) / np.sqrt(w_key.shape[1])
    return scores / scores.sum()
""",
        "returns_scores:forgot_softmax": """
def state_weights(state, states, w_query, w_key):
    query = state @ w_query
    keys = states @ w_key
    return keys @ query
""",
        "mixed_up_projections:keys_with_w_query": """
def state_weights(state, states, w_query, w_key):
    query = state @ w_key
    keys = states @ w_query
    return softmax(keys @ query / np.sqrt(keys.shape[1]))
""",
    },
    "state_attention": {
        "weights_times_keys:keys": """
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    keys = states @ w_key
    return weights @ keys
""",
        "returns_weights:forgot_values": """
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    values = states @ w_value
    return weights
""",
        "scale_by_sqrt_d_model:inline": """
def state_attention(state, states, w_query, w_key, w_value):
    query, keys, values = state @ w_query, states @ w_key, states @ w_value
    weights = softmax(keys @ query / np.sqrt(states.shape[-1]))
    return weights @ values
""",
        "no_scaling:inline": """
def state_attention(state, states, w_query, w_key, w_value):
    query, keys, values = state @ w_query, states @ w_key, states @ w_value
    return softmax(keys @ query) @ values
""",
        "scale_applied_twice:inline": """
def state_attention(state, states, w_query, w_key, w_value):
    query, keys, values = state @ w_query, states @ w_key, states @ w_value
    d_k = keys.shape[1]
    scores = keys @ query / np.sqrt(d_k)
    return softmax(scores / np.sqrt(d_k)) @ values
""",
        "scale_by_sqrt_tokens:inline": """
def state_attention(state, states, w_query, w_key, w_value):
    query, keys, values = state @ w_query, states @ w_key, states @ w_value
    return softmax(keys @ query / np.sqrt(keys.shape[0])) @ values
""",
        "mixed_up_projections:values_with_w_key": """
def state_attention(state, states, w_query, w_key, w_value):
    query = state @ w_query
    keys = states @ w_value
    values = states @ w_key
    weights = softmax(keys @ query / np.sqrt(keys.shape[1]))
    return weights @ values
""",
        "softmax_no_max_subtraction:inline": """
def state_attention(state, states, w_query, w_key, w_value):
    query, keys, values = state @ w_query, states @ w_key, states @ w_value
    e = np.exp(keys @ query / np.sqrt(keys.shape[1]))
    return (e / np.sum(e)) @ values
""",
    },
}

VARIANTS = {
    "state_weights": {
        "einsum": """
def state_weights(state, states, w_query, w_key):
    query = np.einsum('d,dk->k', state, w_query)
    keys = np.einsum('nd,dk->nk', states, w_key)
    return softmax(np.einsum('nk,k->n', keys, query) / np.sqrt(w_key.shape[-1]))
""",
        "loop_math_sqrt": """
import math

def state_weights(state, states, w_query, w_key):
    query = np.dot(state, w_query)
    scores = np.array([np.dot(np.dot(s, w_key), query) for s in states])
    scores = scores / math.sqrt(len(query))
    scores = scores - scores.max()
    e = np.exp(scores)
    return e / e.sum()
""",
        "row_vector": """
def state_weights(state, states, w_query, w_key):
    query = state[None, :] @ w_query               # (1, d_k)
    scores = query @ (states @ w_key).T            # (1, n)
    return softmax(scores / np.sqrt(query.shape[-1]), axis=-1)[0]
""",
    },
    "state_attention": {
        "via_state_weights": """
def state_attention(state, states, w_query, w_key, w_value):
    weights = state_weights(state, states, w_query, w_key)
    return (states @ w_value).T @ weights
""",
        "weighted_sum_loop": """
def state_attention(state, states, w_query, w_key, w_value):
    query = state @ w_query
    keys = states @ w_key
    weights = softmax(keys @ query * w_key.shape[1] ** -0.5)
    out = 0
    for weight, s in zip(weights, states):
        out = out + weight * (s @ w_value)
    return out
""",
    },
}
