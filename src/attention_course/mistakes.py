"""The catalogue of common attention mistakes, with the hint a learner sees for each.

A *mistake* is a named misconception. Exercises (see :mod:`attention_course.exercises`) attach to
each applicable mistake a *mutant*: the reference implementation with exactly that mistake made.
When a learner's answer is wrong, :mod:`attention_course.checks` runs the mutants on the same input;
the one that reproduces the learner's output names the mistake. Hints point at the fix without
giving the solution away.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .reference import as_float, softmax


@dataclass(frozen=True)
class Mistake:
    id: str
    title: str
    hint: str


_CATALOGUE = [
    Mistake(
        "softmax_wrong_axis",
        "softmax normalises over the wrong axis",
        "Each query's weights (one row) must sum to 1. Normalise across the keys, the last axis, "
        "not down the columns.",
    ),
    Mistake(
        "softmax_no_max_subtraction",
        "softmax overflows on large scores",
        "exp() of a large score is inf, and inf/inf is nan. Softmax does not change when you "
        "subtract the same number from every score: subtract the row's maximum before exp().",
    ),
    Mistake(
        "normalise_by_sum",
        "scores divided by their sum instead of a softmax",
        "Dividing by the sum only rescales; it keeps negative scores negative. Exponentiate first, "
        "then normalise (that is the softmax).",
    ),
    Mistake(
        "no_softmax",
        "the scores were used as weights without any normalisation",
        "Raw scores do not sum to 1. Turn them into weights with a softmax across the keys.",
    ),
    Mistake(
        "no_scaling",
        "the scores are not scaled",
        "Divide the scores by the square root of the key dimension d_k before the softmax.",
    ),
    Mistake(
        "scale_by_d_k",
        "the scores are divided by d_k instead of its square root",
        "The scaling factor is the square root of d_k, the length of one key vector.",
    ),
    Mistake(
        "scale_by_sqrt_d_model",
        "the scores are scaled by sqrt(d_model), the input width, instead of sqrt(d_k)",
        "Use the width of the keys (their last axis), not the width of the input embeddings.",
    ),
    Mistake(
        "scale_by_sqrt_tokens",
        "the scores are scaled by the square root of the number of tokens instead of sqrt(d_k)",
        "The scale depends on the length of one key vector (the last axis of the keys), not on "
        "how many keys there are.",
    ),
    Mistake(
        "scale_applied_twice",
        "the scores are scaled twice",
        "Divide by sqrt(d_k) once, between the dot products and the softmax.",
    ),
    Mistake(
        "keys_without_transpose",
        "queries multiplied by the keys without transposing them",
        "scores[i, j] is the dot product of query i with key j: multiply the queries by the "
        "transpose of the keys.",
    ),
    Mistake(
        "keys_times_queries",
        "the scores are keys times queries (transposed scores)",
        "Rows of the score matrix belong to queries and columns to keys: queries come first.",
    ),
    Mistake(
        "weights_times_scores",
        "the weights multiply the scores instead of the values",
        "The output is a weighted sum of the value vectors (or, without projections, of the input "
        "vectors), not of the scores.",
    ),
    Mistake(
        "weights_times_keys",
        "the weights multiply the keys instead of the values",
        "Keys decide *where* to attend; the values are what gets summed.",
    ),
    Mistake(
        "weights_times_queries",
        "the weights multiply the queries instead of the values",
        "The weighted sum runs over value vectors, one per key.",
    ),
    Mistake(
        "returns_weights",
        "the function returns the attention weights instead of the context",
        "After the softmax there is one more step: use the weights to combine the values.",
    ),
    Mistake(
        "returns_scores",
        "the function returns the raw scores",
        "The scores still have to go through the remaining steps the exercise asks for.",
    ),
    Mistake(
        "weights_transposed",
        "the weights are transposed before they are used",
        "Row i of the weights belongs to query i: multiply weights @ values without transposing.",
    ),
    Mistake(
        "integer_arithmetic",
        "integer arithmetic truncates the result",
        "Integer tensors cannot hold fractions: cast the scores (and values) to a float type "
        "before dividing or taking the softmax.",
    ),
    Mistake(
        "changes_inputs_in_place",
        "the function changes its inputs in place",
        "Work on new arrays (x = x - m, not x -= m) so the caller's data stays as it was.",
    ),
    Mistake(
        "wrong_query",
        "the scores use the wrong query",
        "Use the query vector you were given for every dot product.",
    ),
    Mistake(
        "sum_instead_of_dot",
        "the scores are element-wise products or sums, not dot products",
        "A dot product multiplies matching entries and adds them up into one number per key.",
    ),
    Mistake(
        "heads_reshape_without_transpose",
        "the heads were split or combined with a reshape but no transpose",
        "After reshaping (tokens, d_model) to (tokens, heads, d_head), move the heads axis in "
        "front of the tokens axis so that each head sees all tokens; to combine, move it back "
        "behind the tokens axis before merging (heads, d_head).",
    ),
    Mistake(
        "heads_concatenated_on_wrong_axis",
        "the heads are concatenated along the wrong axis",
        "Concatenate the heads side by side along the feature axis: (tokens, heads * d_head).",
    ),
    Mistake(
        "missing_output_projection",
        "the output projection W_O is missing",
        "Multi-head attention ends by multiplying the concatenated heads by W_O.",
    ),
    Mistake(
        "mask_after_softmax",
        "the mask is applied after the softmax",
        "Zeroing weights after the softmax leaves rows that no longer sum to 1. Mask the scores "
        "with -inf before the softmax.",
    ),
    Mistake(
        "mask_wrong_sign",
        "the mask is inverted",
        "The mask is True where attention is allowed: keep those scores, and put -inf on the others.",
    ),
    Mistake(
        "causal_mask_off_by_one",
        "the causal mask is off by one",
        "Token i may attend to itself and to earlier tokens: the diagonal stays visible.",
    ),
    Mistake(
        "causal_mask_upper",
        "the causal mask lets tokens see the future instead of the past",
        "Token i may attend to tokens 0..i: the allowed entries are on and below the diagonal.",
    ),
    Mistake(
        "projection_order",
        "the projections are multiplied in the wrong order",
        "Inputs are rows, so project them with inputs @ W (shape (tokens, d_model) @ (d_model, d_k)).",
    ),
    Mistake(
        "mixed_up_projections",
        "the query, key and value projections are mixed up",
        "Queries come from W_Q, keys from W_K and values from W_V.",
    ),
    Mistake(
        "loop_leftover",
        "only part of the output was computed",
        "Check that every query row (every token) gets its own output.",
    ),
    Mistake(
        "softmax_over_all_entries",
        "the softmax normalises over the whole matrix instead of each row",
        "scipy.special.softmax without an axis normalises over every entry at once, so only the "
        "whole matrix sums to 1. Pass axis=-1 so that each query's row sums to 1.",
    ),
    Mistake(
        "scaled_too_early",
        "the raw scores were already divided by sqrt(d_k)",
        "This step returns the plain dot products; the division by sqrt(d_k) belongs to the next "
        "step, just before the softmax.",
    ),
    Mistake(
        "std_instead_of_variance",
        "the standard deviation was returned instead of the variance",
        "The variance is the mean squared distance from the mean; the standard deviation is its "
        "square root.",
    ),
    Mistake(
        "entropy_nan_for_zero_weights",
        "the entropy is nan when a weight is exactly 0",
        "0 * log(0) evaluates to 0 * -inf = nan, although its limit is 0. Compute log p from the "
        "scores (a log-softmax) instead of taking the log of p.",
    ),
    Mistake(
        "jacobian_diagonal_only",
        "the softmax Jacobian has only its diagonal term",
        "Raising one score lowers every other weight as well: the off-diagonal entries are "
        "-p_i * p_j.",
    ),
    Mistake(
        "jacobian_sign_flipped",
        "the softmax Jacobian has the wrong sign",
        "Raising score i raises weight i: the diagonal entries p_i (1 - p_i) are positive.",
    ),
    # --- notebook 05: batches and masks ---
    Mistake(
        "keys_transpose_all_axes",
        "keys.T reversed every axis of a batch, not just the last two",
        "On an array of shape (..., tokens, d_k), .T also moves the batch axes. Swap only the last "
        "two axes: np.swapaxes(keys, -1, -2).",
    ),
    Mistake(
        "mask_with_zero",
        "masked scores were set to 0 instead of -inf",
        "A score of 0 still gets the weight e^0 before normalising. Put -inf where the mask is "
        "False, so that the softmax gives those keys exactly 0.",
    ),
    Mistake(
        "padding_mask_on_queries",
        "the padding mask hides queries instead of keys",
        "No query may attend to a padding token, so padding is masked along the keys: shape "
        "(batch, 1, n_tokens), which broadcasts over the queries.",
    ),
    Mistake(
        "padding_mask_off_by_one",
        "the padding mask is off by one",
        "Sequence b has lengths[b] real tokens, at positions 0 .. lengths[b] - 1.",
    ),
    # --- notebook 06: multi-head attention ---
    Mistake(
        "heads_interleaved",
        "each head took every n_heads-th column instead of a block of neighbouring columns",
        "Head h owns the columns h*d_head to (h+1)*d_head. Reshape the feature axis as "
        "(n_heads, d_head), heads first, and undo it in the same order when combining.",
    ),
]

CATALOGUE: dict[str, Mistake] = {mistake.id: mistake for mistake in _CATALOGUE}


# --- wrong versions that several exercises' mutants are built from ------------------------------


def naive_softmax(scores, axis: int = -1):
    """Softmax without subtracting the maximum: inf, then nan, on large scores (float32 stays float32)."""
    exps = np.exp(as_float(scores))
    return exps / exps.sum(axis=axis, keepdims=True)


def softmax_over_all_entries(scores, axis=None):
    """``scipy.special.softmax`` without an axis: one normalisation over every entry of the array."""
    return softmax(as_float(scores).reshape(-1)).reshape(np.shape(scores))
