"""The catalogue of common attention mistakes, with the hint a learner sees for each.

A *mistake* is a named misconception. On the grading side (``autograder/key``, never shipped to
learners) each exercise attaches to each applicable mistake a *mutant*: the reference with exactly
that mistake made. When an answer is wrong, the verdict (:mod:`attention_course.verdict`) compares
it with the mutants' outputs on the same input; the one that reproduces it names the mistake.
Titles and hints point at the fix without giving the solution away.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mistake:
    id: str
    title: str
    hint: str


_CATALOGUE = [
    Mistake(
        "softmax_wrong_axis",
        "softmax normalises over the wrong axis",
        "Each query's weights (one row) must sum to 1. Normalise over the keys, the last axis "
        "(axis=-1; dim=-1 in PyTorch), not down the columns.",
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
        "Raw scores do not sum to 1. Turn them into weights, the probabilities p = softmax(scores), with a "
        "softmax across the keys.",
    ),
    Mistake(
        "no_scaling",
        "the scores are not scaled",
        "Divide the scores by the square root of the key dimension d_k before the softmax. If you did "
        "divide: by int(np.sqrt(d_k)), or with the floor division //, the scale can vanish (int(np.sqrt(3)) "
        "is 1, and // floors): divide with / by np.sqrt(d_k) itself.",
    ),
    Mistake(
        "scale_by_d_k",
        "the scores are divided by d_k instead of its square root",
        "The scaling factor is the square root of d_k, the length of one key vector.",
    ),
    Mistake(
        "scale_by_sqrt_d_model",
        "the scores are scaled by sqrt(d_model), the input width, instead of sqrt(d_k)",
        "Use the width of the keys (their last axis), not the width of an input: neither the "
        "embeddings' d_model nor a decoder state's width; with several heads, the width of one "
        "head, d_head.",
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
        "After the softmax there is one more step: use the weights to combine the values (weights @ "
        "values); the context vectors are these weighted sums.",
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
        "Integer tensors cannot hold fractions, and floor division (//) drops them even from "
        "floats: cast the scores (and values) to a float type and divide with /.",
    ),
    Mistake(
        "lower_precision",
        "the result was computed in lower precision than its inputs",
        "A cast to a narrower float type rounds every step and loses digits: a step in float16, or in "
        "float32 for float64 inputs, is coarser than the task. Keep the inputs' precision (cast integers "
        "to float32 or wider, never to float16).",
    ),
    Mistake(
        "float16_overflow",
        "the dot products overflow float16 before they are divided by sqrt(d_k)",
        "float16's largest finite number is 65504; a larger dot product becomes inf, and dividing "
        "inf changes nothing. Shrink the numbers before the product (divide the queries first), "
        "or form the products in float32 and return to float16 only once they are scaled.",
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
        "matched_pairs_only",
        "only query i with key i: the diagonal of queries @ keys.T, not every pair",
        "The scores are the dot products of every query with every key (all pairs): queries @ keys.T has "
        "n_queries * n_keys entries, and the variance is taken over all of them.",
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
        "Zeroing weights after the softmax leaves rows that no longer sum to 1, and dividing them "
        "by their new sums fails once the kept weights underflow to 0. Mask the scores with -inf "
        "before the softmax.",
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
        "Token i may attend to tokens 0..i: the allowed entries are the lower triangle, on and below the "
        "diagonal (np.tril or torch.tril), not the upper one (triu).",
    ),
    Mistake(
        "projection_order",
        "the projections are multiplied in the wrong order, or with W transposed",
        "Inputs are rows and W is stored (d_model, d_k), so project them with inputs @ W: "
        "(tokens, d_model) @ (d_model, d_k).",
    ),
    Mistake(
        "mixed_up_projections",
        "the query, key and value projections are mixed up",
        "Queries come from W_Q (w_query), keys from W_K (w_key) and values from W_V (w_value): each "
        "of the three has its own matrix, none may stand in for another (nor one for all three), and "
        "they come back in the order the text gives them.",
    ),
    Mistake(
        "loop_leftover",
        "only part of the output was computed",
        "Check that every query row (every token), every head and every sequence of a batch gets its "
        "own output, and that every loop (over tokens, heads, layers or the terms of a sum) runs from "
        "the first item to the last: an off-by-one in a range(...) skips the last token, the last "
        "head or the last layer.",
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
        "context_without_weights",
        "the input vectors were added up (or averaged) without the attention weights",
        "A context vector is a weighted sum: multiply each input vector by its own weight before "
        "adding them up (weights @ inputs), so that the tokens with large weights count more.",
    ),
    Mistake(
        "unscaled_attention_scaled",
        "the scores were divided by sqrt(d), but this attention is the unscaled one",
        "Here the scores are the plain dot products, inputs @ inputs.T, passed straight to the "
        "softmax; the division by sqrt(d_k) belongs to the scaled attention of a later notebook.",
    ),
    Mistake(
        "values_not_projected",
        "the weights multiply the raw states (the inputs) instead of the values",
        "The values are the states projected by w_value (states @ w_value): the weighted sum runs "
        "over those projected vectors, not over the states themselves.",
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
        "-p_i * p_j. Subtract the outer product p p^T (np.outer(p, p)), a whole matrix, from diag(p).",
    ),
    Mistake(
        "jacobian_sign_flipped",
        "the softmax Jacobian has the wrong sign",
        "Raising score i raises weight i: the diagonal entries p_i (1 - p_i) are positive.",
    ),
    Mistake(
        "jacobian_inner_product",
        "p p^T was computed as p * p or p @ p instead of the outer product",
        "The second term is an (n, n) matrix whose entry (i, j) is p_i * p_j: np.outer(p, p), or "
        "p[:, None] * p[None, :]. On a 1-d array p * p multiplies entry by entry (a vector) and "
        "p @ p is the dot product (one number).",
    ),
    Mistake(
        "width_scale_fixed",
        "the scores are divided by sqrt(w) whatever the power is",
        "The divisor is w ** power: power 0 means no division, 0.5 the square root of w, 1 w itself.",
    ),
    Mistake(
        "width_scale_full",
        "the scores are scaled with the full width of the arrays, not the width of this slice",
        "For width w only the first w entries take part, so divide by w ** power, not by "
        "keys.shape[-1] ** power.",
    ),
    Mistake(
        "width_last_columns",
        "the last w entries of each vector were used instead of the first w",
        "Take the first w entries of every query and key: queries[:, :w], not queries[:, -w:].",
    ),
    Mistake(
        "width_slice_off_by_one",
        "each vector was cut to w + 1 or w - 1 entries instead of the first w",
        "A slice stops before its end index: queries[:, :w] already holds exactly w entries "
        "(indices 0 to w - 1).",
    ),
    Mistake(
        "gradient_norm_squared",
        "the squared Frobenius norm was returned, without the square root",
        "The Frobenius norm is the square root of the sum of the squared entries.",
    ),
    Mistake(
        "gradient_norm_of_weights",
        "the norm of the weights was returned instead of the norm of the Jacobian",
        "Measure the Jacobian diag(p) - p p^T of each row (your softmax_jacobian), not p itself.",
    ),
    Mistake(
        "gradient_norm_whole_stack",
        "one norm of all the rows together was returned instead of one norm per row",
        "Each query has its own Jacobian: return one Frobenius norm per row of scores, shape (n_queries,).",
    ),
    Mistake(
        "gradient_norm_spectral",
        "the spectral norm (largest singular value) was returned instead of the Frobenius norm",
        "np.linalg.norm of a matrix with ord=2 is the largest singular value; the Frobenius norm is "
        "its default for a matrix (or ord='fro').",
    ),
    Mistake(
        "gradient_norm_sum_of_abs",
        "the absolute values of the entries were added up instead of taking the Frobenius norm",
        "The Frobenius norm squares every entry, adds the squares and takes the square root: "
        "np.linalg.norm(J) or np.sqrt((J ** 2).sum()), not np.abs(J).sum().",
    ),
    # --- notebook 05: batches and masks ---
    Mistake(
        "keys_transpose_all_axes",
        "keys.T reversed every axis of a batch, not just the last two",
        "On an array of shape (..., tokens, d_k), .T also moves the batch axes. Swap only the last "
        "two axes: np.swapaxes(keys, -1, -2).",
    ),
    Mistake(
        "scale_by_sqrt_d_v",
        "the scores are scaled by the width of the values (d_v) instead of the keys (d_k)",
        "The scores are dot products of queries and keys, so the scale is the square root of the "
        "keys' width, keys.shape[-1]; the values may have another width.",
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
        "No query may attend to a padding token, so padding is masked along the keys (the columns of "
        "the scores): shape (batch, 1, n_tokens), which broadcasts over the queries.",
    ),
    Mistake(
        "mask_transposed",
        "the mask is used transposed",
        "Entry [i, j] of a mask says whether query i may see key j: rows are queries, columns are "
        "keys. Apply it as it is given, without .T or swapping its last two axes.",
    ),
    Mistake(
        "mask_finite_value",
        "the masked scores were given a finite value that large scores outweigh",
        "A stand-in such as -10000 is no match for scores in the thousands: the hidden keys keep "
        "some weight. Put -inf there, so that their weights are exactly 0.",
    ),
    Mistake(
        "padding_mask_off_by_one",
        "the padding mask is off by one",
        "Sequence b has lengths[b] real tokens, at positions 0 .. lengths[b] - 1.",
    ),
    # --- notebook 06: multi-head attention ---
    Mistake(
        "heads_interleaved",
        "each head took every n_heads-th column instead of a block of neighbouring columns (interleaved, "
        "strided, not contiguous)",
        "Head h owns the columns h*d_head to (h+1)*d_head, one contiguous block of columns. Reshape the "
        "feature axis as (n_heads, d_head), heads first, and undo it in the same order when combining.",
    ),
    Mistake(
        "torch_mask_not_inverted",
        "the mask keeps this course's convention, but nn.MultiheadAttention reads True as blocked",
        "PyTorch's nn.MultiheadAttention blocks attention where its boolean attn_mask is True, the opposite "
        "of Keras and of notebook 05. Flip every entry before repeating the mask for the heads.",
    ),
    Mistake(
        "torch_mask_heads_tiled",
        "the copies for the heads are in the wrong order: all sequences for head 0 first",
        "PyTorch reads entry b * n_heads + h as sequence b, head h: the n_heads copies of one sequence's "
        "mask must sit next to each other, before the next sequence's copies.",
    ),
    Mistake(
        "torch_mask_heads_not_merged",
        "the heads have an axis of their own; nn.MultiheadAttention wants them merged into the first axis",
        "A 3-d attn_mask has shape (batch * n_heads, n_queries, n_keys): merge the batch and heads axes "
        "into one, sequence by sequence.",
    ),
    Mistake(
        "d_head_from_input_width",
        "d_head is computed from the inputs' width (d_model // n_heads), not from the projected width",
        "Each head's width is the projected width split into heads: d_head = w_query.shape[1] // "
        "n_heads (the queries' last axis divided by n_heads). Where the projections change the width, "
        "d_model // n_heads is another number, and the scores are divided by the wrong sqrt.",
    ),
    # --- notebook 08: a pretrained transformer (BERT layers) ---
    Mistake(
        "weights_not_transposed",
        "a PyTorch weight was used as stored, without transposing it",
        "torch.nn.Linear stores its weight as (out_features, in_features) and computes x @ W.T + b. "
        "To multiply on the right (x @ w), transpose every one of the four weights, the output "
        "projection W_O included.",
    ),
    Mistake(
        "position_embeddings_missing",
        "the position embeddings are missing",
        "Attention itself ignores word order; BERT adds the embedding of each position "
        "(0, 1, 2, ...) to the word embedding.",
    ),
    Mistake(
        "positions_off_by_one",
        "the positions are counted from 1 instead of 0",
        "Token t (counting from 0, [CLS] included) gets row t of the position embeddings.",
    ),
    Mistake(
        "token_type_embeddings_missing",
        "the token type (segment) embeddings are missing",
        "BERT adds three embeddings: word, position and token type. Even when every token has type "
        "0, row 0 of the token type embeddings is added.",
    ),
    Mistake(
        "embedding_layer_norm_missing",
        "the embeddings were not layer-normalised",
        "After adding the word, position and token type embeddings, BERT applies a layer norm with "
        "the embeddings' own scale and shift.",
    ),
    Mistake(
        "layer_norm_before_the_sum",
        "the layer norm applied to the word embeddings before the sum, not to the sum of the three",
        "Add the word, position and token-type embeddings first; then layer-normalise that sum (the "
        "normalisation comes after all three are added).",
    ),
    Mistake(
        "padding_mask_ignored",
        "the padding mask is not used",
        "Padding tokens must get zero weight: before the softmax, set the scores of the keys where "
        "mask == 0 to -inf.",
    ),
    Mistake(
        "biases_missing",
        "a bias is missing",
        "Add each layer's bias after its matrix product: every nn.Linear of BERT has one (b_query, "
        "b_key, b_value, b_out and the feed-forward biases), and so do the two layers of a GPT "
        "block's MLP.",
    ),
    Mistake(
        "residual_missing",
        "a residual connection is missing",
        "Each sublayer's output is added to its input, for the attention and for the feed-forward "
        "block: BERT then normalises the sum, layer_norm(x + sublayer(x)); a GPT block normalises "
        "first, x + sublayer(layer_norm(x)).",
    ),
    Mistake(
        "layer_norm_before_sublayer",
        "the layer norm comes before the sublayer (pre-LN) instead of after the residual",
        "BERT is post-LN: x = layer_norm(x + attention(x)), then x = layer_norm(x + feed_forward(x)).",
    ),
    Mistake(
        "relu_instead_of_gelu",
        "ReLU was used instead of GELU",
        "The feed-forward block uses GELU, x * Phi(x) with Phi the normal CDF: "
        "0.5 * x * (1 + erf(x / sqrt(2))), nn.GELU() in PyTorch. Unlike ReLU it is not 0 for "
        "negative inputs.",
    ),
    Mistake(
        "gelu_tanh_approximation",
        "the tanh approximation of GELU was used instead of the exact one",
        "This model uses the exact GELU (BERT's config says hidden_act = \"gelu\"): the form with erf "
        "(scipy.special.erf, or nn.GELU() as it comes), not the tanh approximation "
        "(approximate=\"tanh\"), which differs by up to about 5e-4.",
    ),
    Mistake(
        "mean_pool_includes_padding",
        "the mean pooling averages over the padding tokens too",
        "Average over the real tokens only: multiply by the mask, sum over the tokens, and divide "
        "by the number of real tokens (mask.sum), not by the padded length.",
    ),
    Mistake(
        "cls_pooling",
        "the sentence embedding is the [CLS] token's vector instead of the mean over tokens",
        "This model was trained with mean pooling: average the last layer's vectors over the real "
        "tokens.",
    ),
    Mistake(
        "next_token_instead_of_previous",
        "the previous-token score reads the next token",
        "Query i's weight on the previous token is weights[..., i, i - 1], just below the diagonal "
        "(np.diagonal(weights, offset=-1, axis1=-2, axis2=-1)).",
    ),
    Mistake(
        "special_tokens_cls_only",
        "only [CLS] was counted as a special token, not [SEP]",
        "The special tokens of one sentence are [CLS] (first key) and [SEP] (last key): add the "
        "weights on both.",
    ),
    Mistake(
        "embedding_lookup_wrong_ids",
        "a position or token type embedding is looked up with the wrong ids",
        "Each table has its own ids: the word embeddings are indexed by token_ids, the position "
        "embeddings by the positions np.arange(n_tokens) (counted from 0), and the token type "
        "embeddings by token_types (the segment of each token), never by the token ids or one fixed row.",
    ),
    Mistake(
        "pooled_sum_not_mean",
        "the real tokens' vectors are summed, not averaged (no division by their number)",
        "Mean pooling divides the sum over the real tokens by how many there are: "
        "(hidden * mask[..., None]).sum(axis=-2) / mask.sum(axis=-1, keepdims=True).",
    ),
    Mistake(
        "special_tokens_averaged",
        "the weights on [CLS] and [SEP] are averaged instead of added",
        "The exercise asks for the weight on the special tokens together: weights[..., :, 0] + "
        "weights[..., :, -1], their sum (not the average of the two), then the mean over the queries.",
    ),
    Mistake(
        "previous_mean_over_all_queries",
        "the previous-token weights are averaged over all n queries, not over the n - 1 that have a previous token",
        "The first query (query 0) has no previous token: the diagonal below the main one (offset=-1) "
        "holds n - 1 weights, and its mean divides by n - 1.",
    ),
    Mistake(
        "layers_not_chained",
        "the layers are not chained: each layer reads the embeddings instead of the previous layer's output",
        "Run the layers in turn, feeding each one the output of the one before: inside the loop, "
        "hidden = bert_layer(hidden, ...), so that layer l reads what layer l - 1 wrote.",
    ),
    Mistake(
        "layer_weights_not_indexed",
        "every layer uses the first layer's weights (the loop does not index the weights by the layer)",
        "The weights are stacked along the layers: layer l uses attention_w[l], attention_b[l], "
        "ffn_w_in[l], ... and norms[l], not index 0 each time through the loop.",
    ),
    Mistake(
        "special_tokens_rows",
        "the rows of [CLS] and [SEP] were used instead of their columns",
        "The weight a query puts on a key is in that key's column: weights[..., :, 0] is every "
        "query's weight on [CLS] (the first key) and weights[..., :, -1] on [SEP]. A row, "
        "weights[..., 0, :], is what [CLS] itself attends to, and always sums to 1.",
    ),
    Mistake(
        "layer_norms_mixed_up",
        "the two layer norms are mixed up: swapped, or one of them used twice, or their parameters read "
        "across the two",
        "A layer has two layer norms, each with its own gamma and beta: norm_1 (norms[0]) goes with "
        "the attention and norm_2 (norms[1]) with the feed-forward part (the MLP). Use each once, in "
        "that order. Stacked as (2, 2, d_model), the layout is (norm, gamma or beta): norm_1's beta is "
        "norms[0, 1], not norms[1, 0].",
    ),
    # --- notebook 07: trainable attention, positions, a key-value cache ---
    Mistake(
        "linear_weight_not_transposed",
        "a (d_in, d_out) weight matrix was copied into nn.Linear without transposing it",
        "nn.Linear stores its weight as (out_features, in_features) and computes "
        "inputs @ weight.T. To make it compute inputs @ w, copy w.T into layer.weight.",
    ),
    Mistake(
        "causal_flag_ignored",
        "the causal option has no effect",
        "With causal=True, token i must not see tokens after i; with causal=False, every token "
        "sees every token. Apply the mask only when the layer is causal.",
    ),
    Mistake(
        "sinusoid_halves_not_interleaved",
        "the sines fill the first half of the columns and the cosines the second half",
        "This exercise interleaves them: column 2i holds the sine and column 2i+1 the cosine of "
        "the same angle. Assign to encoding[:, 0::2] and encoding[:, 1::2].",
    ),
    Mistake(
        "sinusoid_wrong_exponent",
        "the frequencies use the wrong exponent",
        "Pair i (columns 2i and 2i+1, or features 2i and 2i+1) turns with the frequency "
        "theta_i = 10000 ** (-2i / d), a negative exponent: both members of a pair share it, and "
        "-2i / d runs from 0 down to almost -1, so the frequencies fall from 1.",
    ),
    Mistake(
        "sin_cos_swapped",
        "sine and cosine are swapped",
        "In the encoding, even columns (0, 2, 4, ...) hold the sine and odd columns the cosine: at "
        "position 0 the row reads 0, 1, 0, 1, ... In a rotation, the cosine multiplies the "
        "component itself and the sine the other one.",
    ),
    Mistake(
        "positions_from_one",
        "the positions are counted from 1",
        "The first token has position 0, so the first row of the encoding is sin(0), cos(0), ...",
    ),
    Mistake(
        "rope_rotation_wrong_direction",
        "the pairs are rotated in the wrong direction",
        "A rotation by the angle a maps (x, y) to (x cos a - y sin a, x sin a + y cos a); the "
        "minus sign belongs to the first component.",
    ),
    Mistake(
        "rope_halves_instead_of_pairs",
        "feature i was paired with feature i + d/2 instead of its neighbour",
        "This exercise follows the RoFormer paper: pair i is the features 2i and 2i+1, next to "
        "each other (x[..., 0::2] and x[..., 1::2]); rotate_half, from other RoPE code, pairs the "
        "two halves instead.",
    ),
    Mistake(
        "rope_ignores_positions",
        "the rotation ignores the positions it was given",
        "Rotate token t by positions[t] times the pair's frequency; the positions need not be "
        "0, 1, 2, ... (a later chunk of a text starts further on).",
    ),
    Mistake(
        "kv_cache_new_tokens_missing",
        "the new tokens' own keys and values were not appended to the cache",
        "A new token attends to every earlier token and to itself: put its key and value at the "
        "end of the cache (along the tokens axis) before computing the scores.",
    ),
    Mistake(
        "kv_cache_ignored",
        "the cached keys and values were not used",
        "The cache holds the keys and values of all earlier tokens, and the new tokens must see "
        "them: attend over the cache with the new keys and values appended, not over the new "
        "tokens alone.",
    ),
    Mistake(
        "kv_cache_wrong_order",
        "the new keys and values were put in front of the cache",
        "The cache is in the order of the text: the new tokens come after it. Append along the "
        "tokens axis, cache first, so that the causal mask sees each key at its true position.",
    ),
    Mistake(
        "kv_cache_mask_not_shifted",
        "the causal mask is not shifted by the length of the cache",
        "New token i sits at position n_cached + i of the text, so it may see keys 0 to "
        "n_cached + i: the allowed entries are the lower-right corner of the full causal mask "
        "(tril with diagonal=n_cached), not its upper-left corner.",
    ),
    Mistake(
        "kv_cache_mask_missing",
        "the new tokens see the new tokens after them",
        "When several tokens arrive at once, each may see the cache and the new tokens up to "
        "itself, not those after it: the causal mask is still needed among the new tokens.",
    ),
    # --- notebook 09: a GPT -----------------------------------------------------------------------
    Mistake(
        "token_ids_are_code_points",
        "the ids are the characters' code points (ord), not their places in the vocabulary",
        "A token's id is its index in the vocabulary string (0 for its first character, 1 for the "
        "next, ...), so that every id is below the vocabulary size: look the character up in a "
        "dictionary built from the vocabulary.",
    ),
    Mistake(
        "token_ids_off_by_one",
        "the ids are off by one",
        "The first character of the vocabulary has id 0: enumerate() counts from 0, and decode reads "
        "vocabulary[id] with the same numbering.",
    ),
    Mistake(
        "token_ids_from_sorted_vocabulary",
        "the ids are places in the sorted characters (or in a vocabulary built from the text), not in the "
        "given vocabulary's own order",
        "An id is the character's place in vocabulary as it is given (the argument, in its own order, which "
        "need not be sorted): number the characters with enumerate(vocabulary), and decode with "
        "vocabulary[id], never sorted(vocabulary) or sorted(set(text)).",
    ),
    Mistake(
        "decode_joined_with_spaces",
        "the decoded characters are joined with spaces",
        "A character-level tokenizer gives one id per character, spaces included: join the "
        "characters with \"\".join(...), not \" \".join(...).",
    ),
    Mistake(
        "layer_norm_unbiased_variance",
        "the variance divides by d - 1 (torch.var's default) instead of d",
        "Layer norm uses the biased variance, the mean of the squared deviations: "
        "x.var(dim=-1, unbiased=False), or ((x - mean) ** 2).mean(dim=-1, keepdim=True).",
    ),
    Mistake(
        "layer_norm_eps_outside_sqrt",
        "eps is added to the standard deviation instead of the variance",
        "Divide by sqrt(variance + eps): eps goes inside the square root, as in nn.LayerNorm.",
    ),
    Mistake(
        "layer_norm_without_eps",
        "no eps: a constant vector divides by zero",
        "A vector whose features are all equal has variance 0, and (x - mean) / sqrt(0) is nan: "
        "divide by sqrt(variance + eps).",
    ),
    Mistake(
        "layer_norm_wrong_axis",
        "the layer norm normalises over the wrong axis",
        "Each token's vector is normalised on its own, over its features: the mean and the "
        "variance are taken over the last axis (dim=-1, keepdim=True), not over the tokens or the batch.",
    ),
    Mistake(
        "layer_norm_scale_shift_swapped",
        "gamma and beta are swapped (the layer norm's scale and shift)",
        "gamma multiplies the normalised vector and beta is added: normalised * gamma + beta. Where "
        "they come stacked (a (2, d_model) array of a layer norm's parameters), row 0 is gamma and "
        "row 1 beta.",
    ),
    Mistake(
        "layer_norm_after_sublayer",
        "the layer norms come after the residual additions (post-LN) instead of before the sublayers",
        "A GPT block is pre-LN: x = x + attention(layer_norm_1(x)), then x = x + mlp(layer_norm_2(x)); "
        "nothing is normalised after an addition.",
    ),
    Mistake(
        "layer_norm_missing",
        "the block's layer norms are missing",
        "Normalise the input of each sublayer with layer_norm(x, norm.weight, norm.bias) (norm_1 "
        "before the attention, norm_2 before the MLP).",
    ),
    Mistake(
        "residual_after_norm",
        "the residual adds the normalised input instead of the block's input",
        "The residual path carries x itself: x + attention(layer_norm(x)), not "
        "layer_norm(x) + attention(layer_norm(x)). Keep x, and normalise a copy for the sublayer.",
    ),
    Mistake(
        "parameters_head_bias",
        "the output head is counted with a bias",
        "The head is nn.Linear(d_model, vocab_size, bias=False): d_model * vocab_size parameters.",
    ),
    Mistake(
        "parameters_attention_biases",
        "the attention's projections are counted with biases",
        "W_Q, W_K, W_V and W_O are nn.Linear(d_model, d_model, bias=False): 4 * d_model ** 2 "
        "parameters per block, no biases.",
    ),
    Mistake(
        "parameters_layer_norm_gamma_only",
        "each layer norm is counted with d_model parameters instead of 2 * d_model",
        "A layer norm learns a gamma and a beta, each of d_model numbers; a block has two layer norms "
        "and the model one more at the end.",
    ),
    Mistake(
        "parameters_mlp_not_four_times_wider",
        "the MLP is counted as d_model wide inside instead of 4 * d_model",
        "The MLP is nn.Linear(d_model, 4 * d_model), GELU, nn.Linear(4 * d_model, d_model), each "
        "linear layer with its bias: 8 * d_model ** 2 + 5 * d_model parameters.",
    ),
    Mistake(
        "parameters_part_missing",
        "a part of the model is not counted",
        "Count every part: the token embedding (vocab_size * d_model), the position embedding "
        "(context_length * d_model), the blocks (each: four d_model x d_model attention matrices, W_q, W_k, "
        "W_v and the output projection W_O, the MLP's two layers with their biases, and two layer norms), "
        "the final layer norm (2 * d_model) and the head.",
    ),
    Mistake(
        "parameters_mlp_biases_missing",
        "the MLP's biases are not counted",
        "Both linear layers of the MLP have a bias: 4 * d_model numbers for the first (its output "
        "width) and d_model for the second, in every block.",
    ),
    Mistake(
        "parameters_one_norm_per_block",
        "one layer norm counted in each block, where each block has two",
        "Each block has two layer norms (norm_1 before the attention, norm_2 before the MLP), each with a "
        "gamma and a beta of d_model numbers: 4 * d_model per block, and 2 * d_model more for the final norm.",
    ),
    Mistake(
        "parameters_layer_norms_missing",
        "the layer norms' parameters (gamma and beta) are not counted",
        "Each layer norm learns a gamma and a beta of d_model numbers each: two layer norms in every "
        "block (norm_1, norm_2) and one at the end, 2 * d_model parameters each.",
    ),
    Mistake(
        "loss_softmax_over_tokens",
        "the log-softmax is taken over the tokens (dim=1), not over the vocabulary (dim=-1)",
        "Each position's logits are a distribution over the vocabulary, the last axis: "
        "log_softmax(logits, dim=-1), then pick each target's entry.",
    ),
    Mistake(
        "second_residual_from_block_input",
        "the second residual adds the block's input x instead of h, the output of the first residual",
        "Each residual adds its own sub-layer's input: h = x + attention(norm_1(x)), then "
        "h + mlp(norm_2(h)). The MLP's residual adds h, not x. In BERT's post-LN layer the feed-forward's "
        "residual adds the normalised x = layer_norm(hidden + attention(hidden)), not the layer's input hidden.",
    ),
    Mistake(
        "parameters_head_tied",
        "the output head is counted as the token embedding's (weight tying)",
        "GPT-2 reuses the token embedding as its head, but this notebook's GPT has a head of its "
        "own: count its d_model * vocab_size parameters too.",
    ),
    Mistake(
        "loss_summed",
        "the losses of the positions are summed instead of averaged",
        "The loss is the mean of -log p over every position of every sequence (batch * tokens of "
        "them), so that it does not grow with the batch: .mean(), not .sum().",
    ),
    Mistake(
        "loss_mean_over_batch_only",
        "the losses are summed over the tokens and averaged over the batch only",
        "Average over the batch and the tokens alike: every position counts once, and the loss "
        "stays comparable between context lengths.",
    ),
    Mistake(
        "loss_targets_shifted_twice",
        "the logits and the targets are shifted once more",
        "The targets are already the inputs shifted by one, so logits[:, t] goes with targets[:, t]: "
        "compare them as they are, without logits[:, :-1] and targets[:, 1:].",
    ),
    Mistake(
        "loss_softmax_twice",
        "a softmax was taken before the cross-entropy, which takes its own",
        "cross_entropy (or log_softmax) takes logits: give it the raw logits, not probabilities.",
    ),
    Mistake(
        "loss_sign_flipped",
        "the loss has the wrong sign",
        "The loss is minus the mean log-probability of the targets: positive, and smaller when the "
        "model puts more probability on the right character.",
    ),
    Mistake(
        "temperature_multiplies",
        "the logits are multiplied by the temperature instead of divided",
        "softmax(logits / temperature): a temperature below 1 sharpens the distribution, above 1 "
        "flattens it.",
    ),
    Mistake(
        "top_k_off_by_one",
        "top-k keeps one character too many or too few (an off-by-one at the k-th largest)",
        "Keep exactly the k largest logits of each row: the threshold is the k-th largest, the last of "
        "torch.topk(logits, k).values (values[..., -1], not the largest, values[..., 0]); keep the logits "
        "not smaller than it.",
    ),
    Mistake(
        "top_k_not_renormalised",
        "the probabilities outside the top k were zeroed but the rest not renormalised",
        "Set the logits outside the top k to -inf before the softmax (or divide the kept "
        "probabilities by their sum), so that each row still sums to 1.",
    ),
    Mistake(
        "generate_cache_not_passed",
        "the cache the model returned was not passed back to it",
        "After the prompt, call the model on the new token with the cache from the previous call, "
        "model(next_ids, cache), and keep the cache it returns for the next step.",
    ),
    Mistake(
        "generate_whole_text_with_cache",
        "the whole text was fed again together with the cache",
        "The cache already holds every earlier token: with it, feed only the token just drawn, "
        "shape (batch, 1); the text so far is fed once, as the prompt.",
    ),
    Mistake(
        "generate_first_position_logits",
        "the next token was chosen from the first position's logits instead of the last's",
        "The logits at position t predict the token after t: take logits[:, -1], the prediction "
        "after the last token fed.",
    ),
    Mistake(
        "generate_returns_new_tokens_only",
        "only the new tokens were returned, without the prompt",
        "Return the prompt followed by the new tokens, shape (batch, n_prompt + steps).",
    ),
]


_CATALOGUE += [
    # --- notebook 10: attention at length (online softmax, blocks, shared key/value heads) ---
    Mistake(
        "online_sum_not_rescaled",
        "the running sum (or the running output) was not rescaled, or rescaled with the wrong sign, "
        "when the maximum grew",
        "Every term summed so far is exp(score - m) for the maximum m of its moment. When a block "
        "raises the maximum from m to m_new, multiply the running sum, and the running output, by "
        "exp(m - m_new) before adding the block's own terms, which are taken against m_new. The "
        "correction is at most 1: exp(m_new - m) has its sign flipped.",
    ),
    Mistake(
        "causal_mask_not_asked",
        "a causal mask was applied where the exercise asks for none",
        "This function lets every query see every key: build no mask and pass no causal=True unless "
        "the exercise asks for one.",
    ),
    Mistake(
        "online_sum_not_divided",
        "the result was never divided by the running sum",
        "The running sum is the softmax's denominator: after the last block, divide the exponentials "
        "(or the accumulated output) by it, once.",
    ),
    Mistake(
        "running_max_started_at_zero",
        "the running maximum started at 0 instead of -inf",
        "Start it at -inf (np.full(shape, -np.inf)) so that the first block sets it. Started at 0 it "
        "stays 0 in a row of very negative scores, whose exponentials then all underflow to 0, and "
        "0/0 is nan.",
    ),
    Mistake(
        "running_max_not_kept",
        "the running maximum was replaced by each block's own maximum instead of the largest so far",
        "The maximum must only grow: m_new = np.maximum(m, the block's maximum). Replaced by a block's "
        "own maximum, it falls after a block of large scores, and exp(score - m) of those scores "
        "overflows to inf.",
    ),
    Mistake(
        "block_remainder_dropped",
        "the keys after the last full block were left out (a block size that does not divide their number)",
        "The last block may be shorter. Loop over range(0, n, block) and slice [start:start + block], "
        "which stops at the end by itself; np.split needs equal parts, np.array_split does not.",
    ),
    Mistake(
        "block_causal_offset",
        "each block's causal mask uses the block's own key positions, not their positions in the sequence",
        "Key j of the block that starts at `start` is key start + j of the sequence, and query i may "
        "see it when start + j <= i. Build each block's mask from np.arange(start, stop).",
    ),
    Mistake(
        "kv_heads_grouped_wrong",
        "the query heads were matched to the wrong key and value heads",
        "Query heads come in groups of n_heads // n_kv_heads neighbours, and group g shares key/value "
        "head g: head h reads head h // group_size. Repeat each key/value head group_size times in a "
        "row along the heads axis (head 0, 0, 1, 1, ...), not the whole stack over again (0, 1, 0, 1, ...).",
    ),
    Mistake(
        "kv_heads_not_repeated",
        "the keys or the values were not repeated for the query heads (only one of them was)",
        "Each of the n_kv_heads key and value heads serves n_heads // n_kv_heads query heads: repeat "
        "both the keys and the values along the heads' axis (np.repeat(..., group, axis=-3)) before "
        "the attention.",
    ),
    Mistake(
        "kv_heads_repeated_by_their_count",
        "each key/value head repeated n_kv_heads times (their own count), not n_heads // n_kv_heads (the group "
        "size)",
        "Each key/value head serves a group of n_heads // n_kv_heads query heads: repeat it that many times "
        "(np.repeat(keys, n_heads // n_kv_heads, axis=-3)), so that there are as many copies as query heads.",
    ),
    Mistake(
        "online_final_with_last_block_max",
        "the final exponentials are taken against the last block's maximum, not the running maximum",
        "After the loop, the running maximum is the maximum of every block; the variable that held "
        "the last block's own maximum is not. The last sweep uses the running maximum, the one the "
        "running sum was kept against.",
    ),
    Mistake(
        "heads_summed",
        "the heads' outputs were summed (or averaged) instead of concatenated side by side",
        "Each head gives its own (tokens, d_head) context; W_O expects them concatenated along the "
        "last axis into (tokens, n_heads * d_head), head 0's columns first (combine_heads), not "
        "added together into one head's width.",
    ),
    Mistake(
        "rope_pair_overwritten_before_use",
        "one feature of each pair was overwritten (in place) before the other was rotated from it",
        "Both rotated features of a pair come from the original pair (x[2i], x[2i + 1]): after "
        "out[..., 0::2] is written, out[..., 0::2] holds the rotated value, not x's. Read both from x "
        "(or a copy made before writing), never from the tensor being overwritten.",
    ),
]

_CATALOGUE += [
    Mistake(
        "scores_features_by_features",
        "the scores were formed as inputs.T @ inputs (features against features), not inputs @ inputs.T "
        "(token against token)",
        "Score (i, j) is the dot product of token i with token j: inputs @ inputs.T, a (tokens, tokens) "
        "matrix whose rows are the queries. inputs.T @ inputs is (d, d): it compares features, not tokens.",
    ),
    Mistake(
        "jacobian_outer_product_missing",
        "the weights p themselves were subtracted where the outer product p p^T belongs",
        "Entry (i, j) is p_i (delta_ij - p_j): diag(p) - np.outer(p, p). diag(p) - p subtracts p_j "
        "alone from every row (broadcasting), without the factor p_i.",
    ),
    Mistake(
        "jacobian_identity_for_diagonal",
        "the identity was used where diag(p) belongs",
        "The diagonal term is p_i delta_ij, the weights on the diagonal: np.diag(p) - np.outer(p, p). "
        "np.eye(n) - np.outer(p, p) puts 1 where p_i belongs.",
    ),
    Mistake(
        "jacobian_outer_product_added",
        "the outer product p p^T was added instead of subtracted",
        "d p_i / d s_j = p_i (delta_ij - p_j): diag(p) minus np.outer(p, p). Every off-diagonal entry "
        "is -p_i p_j, negative, and each row sums to 0.",
    ),
    Mistake(
        "variance_from_formula",
        "the variance predicted by the formula (d_k times the inputs' variances) instead of the "
        "variance measured on the scores",
        "The exercise asks for the empirical variance of the raw dot products: form every score "
        "queries @ keys.T and take np.var of them. d_k var(q) var(k) is what the measurement is "
        "compared with, not the measurement.",
    ),
    Mistake(
        "layer_norm_not_divided_by_std",
        "the centred input was divided by the variance (or by the square root taken twice), not by "
        "the standard deviation sqrt(variance + eps)",
        "Divide x - mean by the standard deviation: torch.sqrt(var + eps), one square root of the "
        "variance (x.var(dim=-1, unbiased=False, keepdim=True)); std() already is that root, so "
        "do not take another one.",
    ),
    Mistake(
        "mask_added_to_scores",
        "the 0/1 padding mask was added to the scores instead of blocking the padded keys",
        "Adding 1 to the real tokens' scores and 0 to the padding's changes every weight a little and "
        "hides nothing: a padded key must get -inf (np.where(mask[:, None, None, :] == 1, scores, "
        "-np.inf)), so that its weight is exactly 0.",
    ),
    Mistake(
        "heads_averaged",
        "the heads averaged (or summed) into one, not concatenated side by side",
        "combine_heads keeps every head: put the heads' d_head columns side by side (concatenate them, "
        "heads * d_head features per token), as the reshape after moving the tokens before the heads does; "
        "an average (mean) over the heads loses what each one found.",
    ),
    Mistake(
        "heads_not_split",
        "one attention over the full width, repeated for every head, instead of one per head on its own "
        "d_head columns",
        "Split the projected queries and keys into heads first (split_heads: (..., heads, tokens, "
        "d_head)), then take each head's scores from its own d_head columns: the heads' weights differ. "
        "Repeating the full-width weights gives every head the same pattern.",
    ),
    Mistake(
        "scale_by_number_of_heads",
        "the scores are scaled by the number of heads (alone, or times d_k) instead of sqrt(d_k)",
        "Each head's scores are dot products of d_k-wide queries and keys: divide by sqrt(d_k), the "
        "keys' last axis, whatever the number of heads.",
    ),
    Mistake(
        "matrices_stacked_on_last_axis",
        "the four matrices lie along the last axis, (d_model, d_model, 4), where they belong along the "
        "first: stacked with axis=-1, or .T applied to the whole stack",
        "np.stack(..., axis=0) puts the four matrices first, (4, d_model, d_model), as asked; axis=-1 "
        "puts them last. On an array of three axes, .T (np.transpose without axes) reverses all of them, "
        "(4, out, in) becoming (in, out, 4): transpose each matrix before stacking, or swap only the last "
        "two axes of the stack, np.swapaxes(stack, -1, -2).",
    ),
    Mistake(
        "heads_wrong_axes_swapped",
        "the wrong two axes were swapped before the reshape (d_head and tokens, not heads and tokens)",
        "From (..., heads, tokens, d_head), bring the tokens in front of the heads: np.swapaxes(x, -3, "
        "-2) gives (..., tokens, heads, d_head), and only then reshape to (..., tokens, heads * d_head), "
        "which puts the heads' columns side by side (concatenated). Swapping the last two axes puts "
        "d_head before the tokens, and the reshape mixes them.",
    ),
    Mistake(
        "mask_reshaped_not_transposed",
        "a (tokens, batch) comparison was reshaped to (batch, 1, tokens) instead of transposed",
        "reshape keeps the entries in memory order and only regroups them, so it scrambles a (n_tokens, "
        "batch) array; build the comparison the right way round instead: np.arange(n_tokens)[None, :] < "
        "lengths[:, None] is (batch, n_tokens), then add the axis with [:, None, :] (broadcast).",
    ),
    Mistake(
        "blocks_normalised_separately",
        "each block was normalised on its own and the blocks' results averaged or added, instead of one "
        "softmax over every key",
        "A block's softmax sums to 1 over that block alone; averaging blocks gives every block the same "
        "total weight, whatever its scores. Keep a running maximum, a running sum and a running output, "
        "rescale them when the maximum grows, and divide by the running sum once, at the end.",
    ),
    Mistake(
        "epsilon_in_log",
        "a small epsilon was added inside the logarithm (log(p + eps)), which changes every term",
        "The entropy asks for -sum p log p exactly, with 0 log 0 = 0. Instead of log(p + eps), take the "
        "log-softmax (scores minus their log-sum-exp: finite even where p underflows to 0), or "
        "scipy.special.entr(p), or np.where(p > 0, p * np.log(p), 0).",
    ),
    Mistake(
        "loss_without_log_softmax",
        "the loss picks the raw logits (or the probabilities) at the targets, not their log-softmax",
        "The loss is -log p(target): take log_softmax(logits) (the logits minus their logsumexp, so that "
        "they are normalised), pick each target's entry, negate and average; F.cross_entropy does all of "
        "it. Raw logits are not normalised, and probabilities without their log are no loss.",
    ),
    Mistake(
        "log_of_softmax",
        "log(softmax(logits)) where log_softmax belongs: a probability that underflows to 0 gives log(0) = -inf",
        "In float32 a probability below about 1e-45 is 0, and its log is -inf (an infinite loss). "
        "torch.log_softmax (or F.cross_entropy) computes logits - logsumexp(logits) directly and stays "
        "finite.",
    ),
    Mistake(
        "top_k_over_whole_batch",
        "the k-th largest logit was taken over the whole batch instead of in each row",
        "Each row (one sequence) keeps its own k largest logits: torch.topk(logits, k, dim=-1) gives "
        "them per row. A topk over the flattened tensor keeps the batch's k largest, and a row with none "
        "of them is masked entirely (its softmax is nan).",
    ),
    Mistake(
        "causal_mask_lower_right",
        "the causal mask is aligned to the lower-right corner (query i sees keys up to i + n_keys - "
        "n_queries) instead of the top-left (keys 0 to i)",
        "This exercise follows is_causal=True of scaled_dot_product_attention: query i may see key j "
        "when j <= i, counted from the first query and the first key, whatever the sizes (the "
        "top-left triangle). The bottom-right alignment is what a cache of past keys needs; it is "
        "not asked here.",
    ),
]

CATALOGUE: dict[str, Mistake] = {mistake.id: mistake for mistake in _CATALOGUE}
