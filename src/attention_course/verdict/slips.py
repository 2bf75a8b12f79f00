"""Slips the catalogue leaves out, described when they alone explain a wrong result.

The grading side computes each of these as a mutant (a decoy, ``autograder.key.mistakes.DECOYS``)
like any catalogued mistake. A slip is not named, since it has no catalogue entry; when it explains
the learner's results on every probe and no catalogued mistake does, the message says what the
result matches, in the exercise's own words, and how to put it right.
"""

from __future__ import annotations

# slip id -> (what the learner's result matches, how to put it right)
SLIPS: dict[str, tuple[str, str]] = {
    # notebook 01
    "scores_of_every_query": (
        "the scores of every token against every token (a matrix such as inputs @ inputs.T)",
        "only the one query given is asked for: one score per token, the dot product of each input "
        "with that query (a 1-d result)."),
    "cosine_similarity": (
        "each dot product divided by the lengths (norms) of the two vectors: a cosine similarity",
        "the scores are the plain dot products, not normalised by the vectors' lengths."),
    "weights_softmaxed_again": (
        "the weights passed through a softmax a second time",
        "the weights already sum to 1: apply the softmax once, to the scores, and use its result as it is."),
    "scaled_where_no_scaling_is_asked": (
        "the scores divided by d before the softmax",
        "this exercise asks for attention without any scaling: the softmax of the raw dot products."),
    # notebook 03
    "roundoff_relative": (
        "the round-off divided by x: a relative error",
        "the difference itself is asked, float32(x) - x, in float64, not divided by anything."),
    "roundoff_absolute": (
        "the absolute value (or the opposite sign) of the round-off",
        "keep the sign: the round-off is float32(x) - x, the rounded value minus the exact one."),
    # notebooks 03 to 05
    "keys_reshaped_not_transposed": (
        "the keys reshaped to (d_k, n_keys) instead of transposed",
        "a reshape keeps the numbers in their order and only regroups them; to turn the keys' rows into "
        "columns, transpose them (keys.T, np.swapaxes(keys, -1, -2), or tf.matmul(..., transpose_b=True))."),
    # notebook 05
    "mask_ignored": (
        "attention computed without the mask: the hidden keys still get weight",
        "apply the mask to the scores before the softmax, putting -inf where it is False."),
    "scale_flag_ignored": (
        "the scale argument not followed: the scores scaled when scale=False, or left unscaled when scale=True",
        "divide by sqrt(d_k) only when scale is True, and return the unscaled attention when it is False."),
    # notebook 04
    "variance_not_centred": (
        "the mean of the squared scores, without subtracting their mean first",
        "the variance is the mean squared distance from the mean, np.var's default (ddof=0)."),
    "variance_per_row": (
        "the variance of each row (each query's scores), averaged or returned per row",
        "one number is asked: the variance of all the dot products together, np.var over the whole matrix."),
    "width_power_multiplied": (
        "the scores divided by w * power (or by w ** power applied the wrong way round)",
        "power is an exponent: divide by w ** power (power 0: by 1; 0.5: by the square root of w)."),
    "entropy_summed_over_queries": (
        "the terms -p log p summed over the wrong axis (down the columns, over the queries)",
        "each query's entropy sums over its own row of weights, the last axis (axis=-1)."),
    "norm_per_column": (
        "one norm per column (per key), from each column's softmax, where one per row (per query) is asked",
        "each row of scores (each query) has its own softmax and its own Jacobian: loop over the rows."),
    "norm_not_frobenius": (
        "another norm of each Jacobian: its largest entry",
        "the Frobenius norm is the square root of the sum of the squared entries (np.linalg.norm's default "
        "for a matrix)."),
}


# The prefix of a generated mistake's id: the rest is its description, in plain words. The grading
# side makes these mutants by editing the reference's own code at one place
# (``autograder.key.generated``); they have no catalogue entry, and are said only when nothing
# catalogued and no slip above explains a result.
GENERATED = "generated: "


def generated_slips(candidates: list[str]) -> str | None:
    """What the result matches, for the generated mistakes that explain it: one description, or
    two (the evidence cannot tell them apart: both are said); None for more (no basis to say one)."""
    descriptions = sorted(c[len(GENERATED):] for c in candidates if c.startswith(GENERATED))
    if not descriptions or len(descriptions) > 2:
        return None
    said = " or, equally, ".join(descriptions)
    return (f"Your result matches exactly what the expected computation gives with one slip made: {said}. "
            "Look for that step in your code.")


def described(slips: list[str]) -> str:
    """What the result matches and how to put it right, for the slips that explain it."""
    what = " or ".join(SLIPS[s][0] for s in slips)
    how = " ".join(SLIPS[s][1][0].upper() + SLIPS[s][1][1:] for s in slips)
    return f"your result matches {what}. Hint: {how}"
