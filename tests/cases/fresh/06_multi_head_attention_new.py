"""Fresh held-out learner answers for notebook 06's new exercise, ``torch_attn_mask(mask, n_heads)``.

Written before the exercise's mutants existed in ``autograder/key/``, from how learners get the
conversion wrong: keeping the course's convention (True = allowed) where ``nn.MultiheadAttention``
reads True as blocked, stacking the copies for the heads in the wrong order (PyTorch reads row
``b * n_heads + h`` as batch ``b``, head ``h``), and leaving the heads on an axis of their own.
Never edited to make the diagnosis look better (see ``tests/cases/heldout/README.md``).
"""

MISTAKES = {
    "torch_attn_mask": {
        "torch_mask_not_inverted:repeat": """
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask, n_heads, axis=0)
""",
        "torch_mask_not_inverted:broadcast": """
def torch_attn_mask(mask, n_heads):
    batch, n_queries, n_keys = mask.shape
    expanded = np.broadcast_to(mask[:, None, :, :], (batch, n_heads, n_queries, n_keys))
    return expanded.reshape(batch * n_heads, n_queries, n_keys)
""",
        "torch_mask_heads_tiled:tile": """
def torch_attn_mask(mask, n_heads):
    return np.tile(~mask, (n_heads, 1, 1))
""",
        "torch_mask_heads_tiled:concatenate": """
def torch_attn_mask(mask, n_heads):
    blocked = np.logical_not(mask)
    return np.concatenate([blocked] * n_heads, axis=0)
""",
        "torch_mask_heads_tiled:stack_then_reshape": """
def torch_attn_mask(mask, n_heads):
    blocked = mask == False  # noqa: E712
    stacked = np.stack([blocked for _ in range(n_heads)])  # (heads, batch, queries, keys)
    return stacked.reshape(-1, mask.shape[-2], mask.shape[-1])
""",
        "torch_mask_heads_not_merged:expand": """
def torch_attn_mask(mask, n_heads):
    batch, n_queries, n_keys = mask.shape
    return np.broadcast_to(~mask[:, None], (batch, n_heads, n_queries, n_keys)).copy()
""",
        "changes_inputs_in_place:invert_out": """
def torch_attn_mask(mask, n_heads):
    np.logical_not(mask, out=mask)  # flip the convention
    return np.repeat(mask, n_heads, axis=0)
""",
    },
}

VARIANTS = {
    "torch_attn_mask": {
        "loop_over_batch_and_heads": """
def torch_attn_mask(mask, n_heads):
    rows = []
    for b in range(mask.shape[0]):
        for h in range(n_heads):
            rows.append(mask[b] == False)  # noqa: E712
    return np.stack(rows)
""",
        "broadcast_then_reshape": """
def torch_attn_mask(mask, n_heads):
    batch, n_queries, n_keys = mask.shape
    blocked = np.broadcast_to(~mask[:, None, :, :], (batch, n_heads, n_queries, n_keys))
    return blocked.reshape(batch * n_heads, n_queries, n_keys)
""",
        "integer_index": """
def torch_attn_mask(mask, n_heads):
    rows = np.arange(mask.shape[0] * n_heads) // n_heads  # 0, 0, ..., 1, 1, ...
    return np.invert(mask[rows])
""",
        "compare_with_zero": """
def torch_attn_mask(mask, n_heads):
    return np.repeat(mask.astype(np.int8), n_heads, axis=0) == 0
""",
    },
}
