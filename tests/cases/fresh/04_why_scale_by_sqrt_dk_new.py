"""Fresh held-out learner answers for notebook 04's new exercises (width_sweep, gradient_norms).

Written before the exercises' mutants were added to the answer key, from how learners are likely
to get these two functions wrong (and right in other ways), not from the key. Never edit them to
make the diagnosis look better; see tests/cases/heldout/README.md.
"""

MISTAKES = {
    "width_sweep": {
        "no_scaling:power_forgotten": """
def width_sweep(queries, keys, widths, power):
    return np.array([queries[:, :w] @ keys[:, :w].T for w in widths])
""",
        "width_scale_fixed:always_sqrt": """
def width_sweep(queries, keys, widths, power):
    out = []
    for w in widths:
        out.append(queries[:, :w] @ keys[:, :w].T / np.sqrt(w))
    return np.stack(out)
""",
        "width_scale_full:shape_of_keys": """
def width_sweep(queries, keys, widths, power):
    d_k = keys.shape[-1]
    return np.stack([queries[:, :w] @ keys[:, :w].T / d_k ** power for w in widths])
""",
        "width_last_columns:negative_slice": """
def width_sweep(queries, keys, widths, power):
    return np.stack([queries[:, -w:] @ keys[:, -w:].T / w ** power for w in widths])
""",
        "keys_times_queries:swapped": """
def width_sweep(queries, keys, widths, power):
    return np.stack([keys[:, :w] @ queries[:, :w].T / w ** power for w in widths])
""",
        "scale_applied_twice:queries_and_scores": """
def width_sweep(queries, keys, widths, power):
    result = []
    for w in widths:
        q = queries[:, :w] / w ** power
        result.append(q @ keys[:, :w].T / w ** power)
    return np.array(result)
""",
    },
    "gradient_norms": {
        "gradient_norm_squared:no_sqrt": """
def gradient_norms(scores):
    return np.array([np.sum(softmax_jacobian(row) ** 2) for row in scores])
""",
        "gradient_norm_of_weights:norm_of_p": """
def gradient_norms(scores):
    weights = softmax(scores, axis=-1)
    return np.linalg.norm(weights, axis=-1)
""",
        "gradient_norm_whole_stack:one_number": """
def gradient_norms(scores):
    jacobians = np.stack([softmax_jacobian(row) for row in scores])
    return np.linalg.norm(jacobians)
""",
        "gradient_norm_spectral:ord_2": """
def gradient_norms(scores):
    return np.array([np.linalg.norm(softmax_jacobian(s), 2) for s in scores])
""",
        "softmax_over_all_entries:scipy_default": """
def gradient_norms(scores):
    p = softmax(scores)
    jacobians = p[:, :, None] * (np.eye(scores.shape[-1]) - p[:, None, :])
    return np.sqrt((jacobians ** 2).sum(axis=(1, 2)))
""",
        "softmax_no_max_subtraction:exp_by_hand": """
def gradient_norms(scores):
    norms = []
    for row in scores:
        p = np.exp(row) / np.exp(row).sum()
        norms.append(np.linalg.norm(np.diag(p) - np.outer(p, p)))
    return np.array(norms)
""",
    },
}

VARIANTS = {
    "width_sweep": {
        "preallocated": """
def width_sweep(queries, keys, widths, power):
    out = np.empty((len(widths), queries.shape[0], keys.shape[0]))
    for i, w in enumerate(widths):
        out[i] = np.dot(queries[:, :w], keys[:, :w].T) / np.power(float(w), power)
    return out
""",
        "scale_queries_first": """
def width_sweep(queries, keys, widths, power):
    return np.stack([(queries[:, :w] / w ** power) @ keys[:, :w].T for w in widths])
""",
        "einsum": """
def width_sweep(queries, keys, widths, power):
    return np.array([np.einsum("qd,kd->qk", queries[:, :w], keys[:, :w]) * float(w) ** -power
                     for w in widths])
""",
    },
    "gradient_norms": {
        "closed_form": """
def gradient_norms(scores):
    p = softmax(scores, axis=-1)
    squares = (p ** 2).sum(axis=-1)
    return np.sqrt(squares - 2 * (p ** 3).sum(axis=-1) + squares ** 2)
""",
        "batched_jacobians": """
def gradient_norms(scores):
    p = softmax(scores, axis=-1)  # (n_queries, n_keys)
    n = p.shape[-1]
    jacobians = p[:, :, None] * np.eye(n) - p[:, :, None] * p[:, None, :]
    return np.linalg.norm(jacobians, axis=(-2, -1))
""",
        "loop_over_rows": """
def gradient_norms(scores):
    result = np.zeros(len(scores))
    for i in range(len(scores)):
        result[i] = np.sqrt(np.sum(softmax_jacobian(scores[i]) ** 2))
    return result
""",
    },
}
