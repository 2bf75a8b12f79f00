"""Notebook 06: multi-head attention in NumPy, checked against PyTorch and Keras (seeds 003, 004).

Head ``h`` owns the columns ``h * d_head : (h + 1) * d_head`` of the projected queries, keys and
values, as in :func:`attention_course.reference.split_heads`, ``torch.nn.MultiheadAttention`` and
``keras.layers.MultiHeadAttention``. The comparison with the libraries is ungraded (it calls the
learner's ``multi_head_attention``); ``torch_attn_mask`` lays a per-sequence boolean mask out as
``torch.nn.MultiheadAttention`` reads its 3-d ``attn_mask``: True where blocked, entry
``b * n_heads + h`` for sequence ``b``, head ``h``.
"""

from functools import partial

import numpy as np

from .. import reference as ref
from ..mutants import combine_heads_interleaved as _combine_interleaved
from ..mutants import head_layout_mutants
from ..mutants import naive_softmax as _naive_softmax
from ..mutants import softmax_over_all_entries as _softmax_all
from ..mutants import split_heads_interleaved as _split_interleaved
from ..mutants import split_heads_without_transpose as _split_no_transpose
from . import BOOLEAN_MASK, Exercise, merged

# --- splitting and combining heads, right and wrong ----------------------------------------------


def _combine_on_tokens(x):
    """The heads stacked below each other: (..., heads * tokens, d_head)."""
    x = np.asarray(x)
    *lead, heads, tokens, d_head = x.shape
    return x.reshape(*lead, heads * tokens, d_head)


# --- attention per head: the answer's steps, and mutants with one step replaced -------------------
# The steps in the answer's own arithmetic: the split into heads, the products of the queries and
# keys, the width whose square root divides them (None: no scaling), the softmax, the combination
# of the heads and the output projection.


def _products(queries, keys):
    return queries @ np.swapaxes(keys, -1, -2)  # (..., heads, tokens, tokens)


_STEPS = {
    "split": ref.split_heads,
    "products": _products,
    "width": lambda inputs, keys, n_heads: keys.shape[-1],  # d_head
    "softmax": ref.softmax,
    "combine": ref.combine_heads,
    "output": lambda concatenated, w_out: concatenated @ ref.as_float(w_out),
}


def _scores(steps, inputs, w_query, w_key, n_heads):
    inputs = ref.as_float(inputs)
    queries = steps["split"](inputs @ ref.as_float(w_query), n_heads)  # (..., heads, tokens, d_head)
    keys = steps["split"](inputs @ ref.as_float(w_key), n_heads)
    scores = steps["products"](queries, keys)
    width = steps["width"](inputs, keys, n_heads)
    # a scale of the scores' dtype keeps float32 in float32 (NumPy 2)
    return scores if width is None else scores / np.sqrt(width, dtype=scores.dtype)


def _head_weights(**wrong):
    """The head weights with the steps named in ``wrong`` replaced."""
    steps = {**_STEPS, **wrong}

    def head_weights(inputs, w_query, w_key, n_heads):
        return steps["softmax"](_scores(steps, inputs, w_query, w_key, n_heads), axis=-1)

    return head_weights


def _heads_pooled(pool, fill):
    """A combine that adds up (or averages, ``pool``) the heads' contexts instead of putting them side
    by side, then widens the (..., tokens, d_head) result back to d_model for W_O: the pooled
    context repeated once per head (``fill="tiled"``), or followed by zeros, which is the pooled
    context times W_O's first d_head rows alone (``fill="zeros"``)."""

    def combine(x):  # (..., heads, tokens, d_head) -> (..., tokens, heads * d_head)
        pooled = getattr(x, pool)(axis=-3)
        n_heads = x.shape[-3]
        if fill == "tiled":
            return np.concatenate([pooled] * n_heads, axis=-1)
        return np.concatenate([pooled, np.zeros_like(pooled).repeat(n_heads - 1, axis=-1)], axis=-1)

    return combine


def _multi_head(**wrong):
    """Multi-head attention with the steps named in ``wrong`` replaced; ``value_split`` splits the
    values alone (the split step's by default)."""
    steps = {**_STEPS, **wrong}
    split_values = wrong.get("value_split", steps["split"])
    head_weights = _head_weights(**wrong)

    def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
        inputs = ref.as_float(inputs)
        weights = head_weights(inputs, w_query, w_key, n_heads)  # (..., heads, tokens, tokens)
        values = split_values(inputs @ ref.as_float(w_value), n_heads)  # (..., heads, tokens, d_head)
        concatenated = steps["combine"](weights @ values)  # (..., tokens, heads * d_head)
        return steps["output"](concatenated, w_out)

    return multi_head_attention


def _weights_times_scores(inputs, w_query, w_key, w_value, w_out, n_heads):
    """The weights multiplied by the scores where the values belong."""
    inputs = ref.as_float(inputs)
    scores = _scores(_STEPS, inputs, w_query, w_key, n_heads)
    return ref.combine_heads(ref.softmax(scores, axis=-1) @ scores) @ ref.as_float(w_out)


def _returns_weights(inputs, w_query, w_key, w_value, w_out, n_heads):
    return _head_weights()(ref.as_float(inputs), w_query, w_key, n_heads)


_NO_SCALING = {"width": lambda inputs, keys, n_heads: None}
# one wrong step each: the mistakes the head weights and the layer share
_WRONG_STEPS = {
    "no_scaling": _NO_SCALING,
    "scale_by_sqrt_d_model": {"width": lambda inputs, keys, n_heads: inputs.shape[-1]},
    # d_head read off the inputs' width, not the projections'
    "d_head_from_input_width": {"width": lambda inputs, keys, n_heads: inputs.shape[-1] // n_heads},
    "softmax_wrong_axis": {"softmax": lambda scores, axis=-1: ref.softmax(scores, axis=-2)},
    "softmax_no_max_subtraction": {"softmax": _naive_softmax},
    "softmax_over_all_entries": {"softmax": _softmax_all},
    "keys_times_queries": {"products": lambda queries, keys: keys @ np.swapaxes(queries, -1, -2)},
}
_NO_SOFTMAX = {"softmax": lambda scores, axis=-1: scores}

_MHA_MUTANTS = {
    "missing_output_projection": _multi_head(output=lambda concatenated, w_out: concatenated),
    "heads_summed": [_multi_head(combine=_heads_pooled(pool, fill)) for pool in ("sum", "mean")
                     for fill in ("tiled", "zeros")],
    **merged(head_layout_mutants(_multi_head),
              # the values alone reshaped into heads without the transpose (the head weights right)
              {"heads_reshape_without_transpose": [_multi_head(value_split=_split_no_transpose)]}),
    # no heads stacked below each other here: before W_O that is only a shape error, which heads
    # averaged (uncatalogued) raise too, on every probe (a fifth fresh set's case)
    **{mistake: _multi_head(**wrong) for mistake, wrong in _WRONG_STEPS.items()},
    "weights_times_scores": _weights_times_scores,
    "returns_weights": _returns_weights,
}

# During a check, the learner's own earlier answers are replaced by these references.
_USES_SPLIT = {"split_heads": ref.split_heads}
_USES_ALL = {
    "split_heads": ref.split_heads,
    "combine_heads": ref.combine_heads,
    "head_weights": _head_weights(),
}


def _weights_not_split(d_head: bool):
    """One attention over the full width, its weights repeated for every head: scaled by sqrt(d_head)
    (``d_head``) or by sqrt(d_model)."""

    def head_weights(inputs, w_query, w_key, n_heads):
        queries, keys = ref.as_float(inputs) @ ref.as_float(w_query), ref.as_float(inputs) @ ref.as_float(w_key)
        width = queries.shape[-1] // n_heads if d_head else queries.shape[-1]
        scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(width)  # (..., tokens, tokens)
        weights = ref.softmax(scores, axis=-1)
        return np.repeat(weights[..., None, :, :], n_heads, axis=-3)  # (..., heads, tokens, tokens)

    return head_weights


# --- a mask in nn.MultiheadAttention's convention and layout --------------------------------------


def _per_head(blocked, n_heads):
    return np.repeat(blocked, n_heads, axis=0)  # entry b * n_heads + h


def _torch_attn_mask(mask, n_heads, *, oriented=np.asarray, blocked_of=np.logical_not, per_head=_per_head):
    """(batch, queries, keys), True = allowed -> (batch * heads, queries, keys), True = blocked."""
    blocked = blocked_of(oriented(np.asarray(mask, dtype=bool)))
    return per_head(blocked, n_heads)


def _last_sequence_left_false(blocked, n_heads):
    """A loop over range(batch - 1) filling a buffer of False."""
    filled = np.repeat(blocked, n_heads, axis=0)
    filled[-n_heads:] = False
    return filled


_TORCH_MASK_STEPS = {
    "torch_mask_not_inverted": {"blocked_of": np.asarray},
    "torch_mask_heads_tiled": {"per_head": lambda blocked, n_heads: np.tile(blocked, (n_heads, 1, 1))},  # h * batch + b
    # (batch, heads, queries, keys)
    "torch_mask_heads_not_merged": {"per_head": lambda blocked, n_heads: np.repeat(blocked[:, None], n_heads, axis=1)},
    # (batch, keys, queries): square masks only, else a shape error
    "mask_transposed": {"oriented": lambda mask: np.swapaxes(mask, -1, -2)},
}
# a loop over range(n_heads - 1) (one head short for every sequence), or over range(batch - 1)
_TORCH_MASK_LOOPS = [lambda blocked, n_heads: np.repeat(blocked, n_heads - 1, axis=0),
                     lambda blocked, n_heads: np.repeat(blocked[:-1], n_heads, axis=0),
                     _last_sequence_left_false]


EXERCISES = [
    Exercise(
        "split_heads",
        # through the shared step, so that its mistakes (autograder.key.mistakes) apply
        mistakes_from=lambda x, n_heads: ref.split_heads(x, n_heads),
        returns="an array of shape (..., heads, tokens, d_head)",
        integers_ok=True,
        mutants={"heads_interleaved": _split_interleaved},  # the reshapes without a transpose are shared
    ),
    Exercise(
        "combine_heads",
        mistakes_from=lambda x: ref.combine_heads(x),
        returns="an array of shape (..., tokens, heads * d_head)",
        integers_ok=True,
        mutants={  # the reshape without a transpose is shared
            "heads_concatenated_on_wrong_axis": _combine_on_tokens,
            "heads_interleaved": _combine_interleaved,
            # the last head left out of the concatenation (not a shared step's mistake: in a layer
            # it gives only a shape error, which a head averaged away gives too)
            "loop_leftover": lambda x: ref.combine_heads(np.asarray(x)[..., :-1, :, :]),
            # (..., heads, d_head, tokens) reshaped to (..., tokens, heads * d_head)
            "heads_wrong_axes_swapped": lambda x: np.swapaxes(np.asarray(x), -1, -2).reshape(
                *np.shape(x)[:-3], np.shape(x)[-2], np.shape(x)[-3] * np.shape(x)[-1]),
            # one (..., tokens, d_head) array for all heads, or that array repeated to the full width
            "heads_averaged": [lambda x: ref.as_float(x).mean(axis=-3), lambda x: ref.as_float(x).sum(axis=-3),
                               lambda x: np.tile(ref.as_float(x).mean(axis=-3), np.shape(x)[-3])],
        },
    ),
    Exercise(
        "head_weights",
        mistakes_from=lambda inputs, w_query, w_key, n_heads: ref.attention_weights(
            ref.split_heads(ref.as_float(inputs) @ ref.as_float(w_query), n_heads),
            ref.split_heads(ref.as_float(inputs) @ ref.as_float(w_key), n_heads)),
        returns="an array of weights of shape (..., heads, tokens, tokens)",
        uses=_USES_SPLIT,
        mutants={
            **{mistake: _head_weights(**wrong) for mistake, wrong in _WRONG_STEPS.items()},
            "heads_reshape_without_transpose": _head_weights(split=_split_no_transpose),
            "heads_interleaved": _head_weights(split=_split_interleaved),
            "returns_scores": [_head_weights(**_NO_SOFTMAX), _head_weights(**_NO_SOFTMAX, **_NO_SCALING)],
            "heads_not_split": [_weights_not_split(d_head=True), _weights_not_split(d_head=False)],
        },
    ),
    Exercise(
        "multi_head_attention",
        mistakes_from=lambda inputs, w_query, w_key, w_value, w_out, n_heads: ref.multi_head_attention(
            inputs, ref.as_float(w_query), ref.as_float(w_key), ref.as_float(w_value), ref.as_float(w_out), n_heads),
        returns="an array of shape (..., tokens, d_out)",
        uses=_USES_ALL,
        mutants=_MHA_MUTANTS,
    ),
    Exercise(
        "torch_attn_mask",
        mistakes_from=_torch_attn_mask,
        returns="a boolean array of shape (batch * n_heads, n_queries, n_keys)",
        integers_ok=True,  # a 0/1 mask's mistakes are named, as in notebook 05; its dtype is then told
        **BOOLEAN_MASK,
        mutants={**{mistake: partial(_torch_attn_mask, **wrong) for mistake, wrong in _TORCH_MASK_STEPS.items()},
                 "loop_leftover": [partial(_torch_attn_mask, per_head=loop) for loop in _TORCH_MASK_LOOPS]},
    ),
]
