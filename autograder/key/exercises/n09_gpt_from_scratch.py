"""Notebook 09: a GPT the learner builds, trains and makes write (PyTorch).

The references and their steps live in :mod:`..reference_n09`; each mutant below is a reference with
one step (or two, where the mistake needs it) replaced by a wrong one, or the right reference on
arguments mixed up as a slip mixes them up. The block is graded through ``block_forward``, which
loads course-style weights into the learner's ``Block`` (as 07's ``mhsa_forward`` grades its
module); the block calls the learner's ``layer_norm`` and ``causal_attention``, which its checks
replace by the references (``uses``), so a wrong helper costs the helpers' exercise only.
``generate`` is graded with a stand-in model defined in the notebook (``generate_with_stand_in``):
the learner's ``GPT`` never enters its check, and the tokens are certain (greedy, or top_k=1).
"""

from functools import partial

import numpy as np

from .. import reference as ref
from .. import reference_n07 as ref7
from .. import reference_n09 as ref9
from ..mutants import (
    attention_masked_after_softmax,
    gelu_tanh,
    head_layout_mutants,
    mask_not_shifted,
    no_mask,
    relu,
    unprojected,
)
from ..reference import as_float
from ..reference_n08 import post_ln
from . import Exercise

# --- the tokenizer -------------------------------------------------------------------------------


def _character_off_by(offset):
    """Each id read as its neighbour's place: ids counted from 1 (``offset`` 1), or the vocabulary
    read one place off (-1)."""
    return lambda token_id, vocabulary: vocabulary[(int(token_id) - offset) % len(vocabulary)]


# --- the layer norm ------------------------------------------------------------------------------


def _moments(axis=-1, unbiased=False):
    """The mean and variance over ``axis`` (None: the whole tensor), the variance divided by d - 1
    where ``unbiased`` (``torch.var``'s default)."""
    def moments(x):
        mean = x.mean(axis=axis, keepdims=True)
        d = x.size if axis is None else x.shape[axis]
        squares = ((x - mean) ** 2).sum(axis=axis, keepdims=True)
        return mean, squares / (d - 1 if unbiased else d)

    return moments


def _gamma_beta_swapped(x, gamma, beta, eps=ref9.EPS):
    """gamma and beta exchanged: beta scales, gamma shifts."""
    return ref9.layer_norm(x, beta, gamma, eps)


# --- the block -----------------------------------------------------------------------------------


def _block(**wrong):
    """09's ``block`` graded as ``block_forward``, with the steps in ``wrong`` replaced."""
    def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
        return ref9.block(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads, **wrong)

    return block_forward


def _attention_with(**wrong):
    """The block with 07's ``mhsa`` as its attention, the steps in ``wrong`` of it replaced."""
    return _block(attention=partial(ref7.mhsa, **wrong))


def _pre_ln_adding(first="x", second="hidden"):
    """The pre-LN wiring with what each residual adds back changed: ``x`` (the block's input),
    ``hidden`` (h), ``normed`` (the sub-layer's own normalised input), or None (no residual)."""
    def wiring(x, attend, mlp, norm):
        normed = norm(x, 0)
        attended = attend(normed)
        hidden = attended if first is None else {"x": x, "normed": normed}[first] + attended
        normed = norm(hidden, 1)
        out = mlp(normed)
        return out if second is None else {"x": x, "hidden": hidden, "normed": normed}[second] + out

    return wiring


def _block_by_steps(*, first_from="inputs", second_from="hidden", attention_normed=True, mlp_normed=True):
    """A pre-LN block with one of its two halves written differently from the other.

    ``first_from`` / ``second_from``: what each residual adds back (``inputs``, ``hidden`` or
    ``normalised``: the sublayer's own normalised input); ``attention_normed`` / ``mlp_normed``
    False: that sublayer reads its input without its layer norm."""

    def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
        x = as_float(inputs)
        weights = as_float(attention_w).astype(x.dtype, copy=False)
        norms = as_float(norms).astype(x.dtype, copy=False)
        normed = ref9.layer_norm(x, norms[0, 0], norms[0, 1]) if attention_normed else x
        hidden = {"normalised": normed}.get(first_from, x) + ref7.mhsa(normed, *weights, n_heads, True)
        normed_2 = ref9.layer_norm(hidden, norms[1, 0], norms[1, 1]) if mlp_normed else hidden
        inner = ref9.gelu(normed_2 @ as_float(mlp_w_in) + as_float(mlp_b_in))
        base = {"normalised": normed_2, "inputs": x}.get(second_from, hidden)
        return base + inner @ as_float(mlp_w_out) + as_float(mlp_b_out)

    return block_forward


def _block_with_inputs(change):
    """The right block on inputs changed as a slip changes them (``change`` maps the arguments)."""

    def block_forward(*args):
        return ref9.block(*change(*args))

    return block_forward


def _norm_parameters_swapped(which):
    """gamma and beta of layer norm ``which`` (0, 1, or both) exchanged, as from rows read the other way."""

    def change(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
        norms = np.array(as_float(norms))
        norms[which] = norms[which][..., ::-1, :]
        return inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads

    return change


def _norms_read_across(every: bool):
    """norms (norm, gamma or beta, d_model) read as (gamma or beta, norm, d_model): every parameter
    (``every``), or only norm_1's beta taken from norms[1, 0]."""

    def change(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
        norms = np.array(as_float(norms))
        if every:
            norms = np.ascontiguousarray(np.swapaxes(norms, 0, 1))
        else:
            norms[0, 1] = norms[1, 0]
        return inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads

    return change


def _norms_in_order(*order):
    """The layer norms' parameters taken in ``order``: (1, 0) the two swapped, (0, 0) the first twice."""
    def change(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
        return inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, as_float(norms)[list(order)], n_heads

    return change


def _attention_weights_not_transposed(*which):
    """The matrices ``which`` of attention_w (0 to 3: W_Q, W_K, W_V, W_O) copied into
    ``nn.Linear.weight`` without ``.T``: each used transposed."""
    def change(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
        weights = np.array(as_float(attention_w))
        for i in which:
            weights[..., i, :, :] = np.swapaxes(weights[..., i, :, :], -1, -2).copy()
        return inputs, weights, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads

    return change


def _mlp_biases_zero(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    """The MLP's layers made without biases (``bias=False``): the loaded biases never added."""
    return (inputs, attention_w, mlp_w_in, np.zeros_like(as_float(mlp_b_in)), mlp_w_out,
            np.zeros_like(as_float(mlp_b_out)), norms, n_heads)


def _mlp_weights_reshaped(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    """The MLP's (d_in, d_out) weights reshaped to nn.Linear's (d_out, d_in) instead of transposed."""
    w_in, w_out = as_float(mlp_w_in), as_float(mlp_w_out)
    return (inputs, attention_w, w_in.reshape(w_in.shape[::-1]).T, mlp_b_in, w_out.reshape(w_out.shape[::-1]).T,
            mlp_b_out, norms, n_heads)


def _generate(**wrong):
    """09's ``generate`` with the stand-in, with the steps in ``wrong`` replaced."""
    def generate_with_stand_in(prompt, steps, temperature, top_k, embedding, positions, w_out):
        return ref9.generate(prompt, steps, temperature, top_k, embedding, positions, w_out, **wrong)

    return generate_with_stand_in


def _new_tokens_only(prompt, steps, temperature, top_k, embedding, positions, w_out):
    """The new tokens returned without the prompt."""
    tokens = ref9.generate(prompt, steps, temperature, top_k, embedding, positions, w_out)
    return tokens[:, np.asarray(prompt).shape[-1]:]


def _norm_divided_by(denominator):
    """A layer norm that divides the centred input by ``denominator(variance, eps)`` instead of
    sqrt(variance + eps): the variance itself, or the square root taken twice."""

    def layer_norm(x, gamma, beta, eps=ref9.EPS):
        x = as_float(x)
        centred = x - x.mean(axis=-1, keepdims=True)
        variance = (centred ** 2).mean(axis=-1, keepdims=True)
        return centred / denominator(variance, eps) * as_float(gamma) + as_float(beta)

    return layer_norm


def _picked_loss(transform):
    """-mean of transform(logits) picked at the targets, where transform should be the log-softmax."""

    def loss(logits, targets):
        picked = np.take_along_axis(transform(as_float(logits)), np.asarray(targets).astype(np.int64)[..., None],
                                    axis=-1)  # (batch, tokens, 1)
        return -picked.mean()

    return loss


def _log_of_softmax(logits):
    """log(softmax(logits)): a probability that underflows to 0 in the logits' own precision gives
    log(0) = -inf, where log_softmax stays finite."""
    with np.errstate(divide="ignore"):
        return np.log(ref.softmax(logits, axis=-1))  # (batch, tokens, vocab)


def _log_softmax_over_tokens(logits):
    """The log-softmax taken over the tokens (dim=1), not over the vocabulary."""
    top = logits.max(axis=-2, keepdims=True)
    return logits - (top + np.log(np.exp(logits - top).sum(axis=-2, keepdims=True)))


def _log_softmax_unshifted(logits):
    """The log-softmax from exp of the raw logits, the maximum not subtracted: overflows."""
    return logits - np.log(np.exp(logits).sum(axis=-1, keepdims=True))


def _targets_shifted_twice(logits, targets):
    """Logits and targets shifted once more though they come aligned: logits[:, :-1] against targets[:, 1:]."""
    return ref9.causal_lm_loss(np.asarray(logits)[..., :-1, :], np.asarray(targets)[..., 1:])


def _loss_of_softmax(logits, targets):
    """The cross-entropy of the probabilities: the softmax taken first, then again inside the loss."""
    return ref9.causal_lm_loss(ref.softmax(logits, axis=-1), targets)


def _top_k_off_by(extra):
    """top-k keeping ``extra`` more (or fewer) of the largest logits than asked."""
    def next_token_probabilities(logits, temperature, top_k=None):
        return ref9.next_token_probabilities(logits, temperature, None if top_k is None else int(top_k) + extra)

    return next_token_probabilities


def _top_k_over_whole_batch(logits, temperature, top_k=None):
    """top-k with the k-th largest logit taken over the whole batch (a flattened topk), not per row:
    a row whose logits are all below it is masked entirely, and its softmax is nan."""
    scaled = as_float(logits) / as_float(logits).dtype.type(temperature)
    if top_k is None:
        return ref.softmax(scaled, axis=-1)
    kth = -np.sort(-scaled.reshape(-1))[int(top_k) - 1]
    with np.errstate(invalid="ignore"):
        return ref.softmax(np.where(scaled >= kth, scaled, -np.inf), axis=-1)


def _one_block_norm_short(vocab_size, context_length, d_model, n_layers):
    """2 * d_model parameters fewer in every block: one of its two layer norms left out, or only the
    gammas of both counted."""
    return ref9.count_parameters(vocab_size, context_length, d_model, n_layers) - np.int64(
        2 * int(d_model) * int(n_layers))


EXERCISES = [
    Exercise(
        "encode",
        mistakes_from=ref9.encode,
        framework="torch",
        returns="an int64 tensor of shape (len(text),)",
        integers_ok=True,
        dtype="int64",
        dtype_hint="Token ids are int64: `torch.tensor(ids, dtype=torch.int64)` (a tensor of Python ints is "
                   "int64 already; `torch.Tensor(ids)` makes float32).",
        mutants={
            # ord(c): the characters' Unicode numbers
            "token_ids_are_code_points": partial(ref9.encode, token_id=lambda character, index: ord(character)),
            "token_ids_off_by_one": partial(ref9.encode, token_id=lambda character, index: index[character] + 1),
            "token_ids_from_sorted_vocabulary": [
                lambda text, vocabulary: ref9.encode(text, sorted(vocabulary)),
                lambda text, vocabulary: ref9.encode(text, sorted(set(text)))],  # a vocabulary of the text's own
        },
    ),
    Exercise(
        "decode",
        mistakes_from=ref9.decoded_code_points,
        framework="torch",
        returns="the decoded text (a str)",
        integers_ok=True,
        mutants={
            "decode_joined_with_spaces": partial(ref9.decoded_code_points, joined=" ".join),
            "token_ids_off_by_one": [partial(ref9.decoded_code_points, character=_character_off_by(1)),
                                     partial(ref9.decoded_code_points, character=_character_off_by(-1))],
            "token_ids_from_sorted_vocabulary": lambda ids, vocabulary: ref9.decoded_code_points(
                ids, sorted(vocabulary)),
        },
    ),
    Exercise(
        "layer_norm",
        framework="torch",
        returns="a tensor with the shape of x",
        mutants={
            "layer_norm_unbiased_variance": partial(ref9.layer_norm, moments=_moments(unbiased=True)),
            "layer_norm_eps_outside_sqrt": partial(
                ref9.layer_norm, normalise=lambda centred, var, eps: centred / (np.sqrt(var) + eps)),
            "layer_norm_without_eps": partial(ref9.layer_norm, normalise=lambda centred, var, eps: centred / np.sqrt(var)),
            "layer_norm_wrong_axis": [partial(ref9.layer_norm, moments=_moments(axis)) for axis in (-2, 0, None)],
            "layer_norm_scale_shift_swapped": _gamma_beta_swapped,
            "layer_norm_not_divided_by_std": [_norm_divided_by(denominator) for denominator in (
                lambda var, eps: var + eps, lambda var, eps: np.sqrt(np.sqrt(var)) + eps,
                lambda var, eps: np.sqrt(np.sqrt(var + eps)), lambda var, eps: np.sqrt(np.sqrt(var) + eps))],
        },
        mistakes_from=ref9.layer_norm,
    ),
    Exercise(
        "causal_attention",
        mistakes_from=ref9.causal_attention,
        framework="torch",
        returns="a tensor of shape (..., n_queries, d_v): the queries' context",
        mutants={
            "kv_cache_mask_not_shifted": partial(ref9.causal_attention, allowed=mask_not_shifted),
            "kv_cache_mask_missing": partial(ref9.causal_attention, allowed=no_mask),
            "mask_after_softmax": partial(ref9.causal_attention, attention=attention_masked_after_softmax),
        },
    ),
    Exercise(
        "block_forward",
        mistakes_from=_block(),
        framework="torch",
        returns="a tensor of shape (batch, tokens, d_model)",
        uses={"layer_norm": ref9.layer_norm, "causal_attention": ref9.causal_attention},
        mutants={
            "layer_norm_after_sublayer": _block(wiring=post_ln),  # BERT's wiring, notebook 08's answer
            "layer_norm_missing": [_block(normalise=lambda value, gamma, beta: value),
                                   _block_by_steps(mlp_normed=False), _block_by_steps(attention_normed=False)],
            "layer_norm_scale_shift_swapped": [_block_with_inputs(_norm_parameters_swapped(which))
                                               for which in (0, 1, slice(None))],
            # the attention's residual, the MLP's, or both left out
            "residual_missing": [_block(wiring=_pre_ln_adding(first=None)), _block(wiring=_pre_ln_adding(second=None)),
                                 _block(wiring=_pre_ln_adding(first=None, second=None))],
            "residual_after_norm": [_block(wiring=_pre_ln_adding(first="normed", second="normed")),
                                    _block_by_steps(first_from="normalised"),
                                    _block_by_steps(second_from="normalised")],
            "second_residual_from_block_input": _block(wiring=_pre_ln_adding(second="x")),
            "relu_instead_of_gelu": _block(activation=relu),
            "gelu_tanh_approximation": _block(activation=gelu_tanh),
            "biases_missing": _block_with_inputs(_mlp_biases_zero),
            "layer_norms_mixed_up": [*(_block_with_inputs(_norms_in_order(*order)) for order in ((1, 0), (0, 0), (1, 1))),
                                     _block_with_inputs(_norms_read_across(every=True)),
                                     _block_with_inputs(_norms_read_across(every=False))],
            "linear_weight_not_transposed": [
                _block_with_inputs(_mlp_weights_reshaped),
                _block_with_inputs(_attention_weights_not_transposed(0, 1, 2, 3)),
                _block_with_inputs(_attention_weights_not_transposed(0, 1, 2)),
                _block_with_inputs(_attention_weights_not_transposed(3)),
                *(_block_with_inputs(_attention_weights_not_transposed(one)) for one in (0, 1, 2)),
            ],
            "missing_output_projection": _attention_with(output=unprojected),
            **head_layout_mutants(_attention_with),
        },
    ),
    Exercise(
        "count_parameters",
        mistakes_from=ref9.count_parameters,
        returns="an int",
        integers_ok=True,
        mutants={
            "parameters_head_bias": partial(ref9.count_parameters, head=lambda v, d: d * v + v),
            "parameters_attention_biases": partial(ref9.count_parameters, attention=lambda d: 4 * d * d + 4 * d),
            # gamma only, in every layer norm
            "parameters_layer_norm_gamma_only": [
                partial(ref9.count_parameters, block_norms=lambda d: 2 * d, final_norm=lambda d: d),
                _one_block_norm_short],
            # the same count as gamma alone in the blocks' norms (the final norm whole): said together
            "parameters_one_norm_per_block": _one_block_norm_short,
            # the MLP as wide as the model inside
            "parameters_mlp_not_four_times_wider": partial(ref9.count_parameters, mlp=lambda d: d * d + d * d + (d + d)),
            # no position embedding, or no final layer norm
            "parameters_part_missing": [partial(ref9.count_parameters, embeddings=lambda v, c, d: v * d),
                                        partial(ref9.count_parameters, final_norm=lambda d: 0)],
            # the head counted as the token embedding's
            "parameters_head_tied": partial(ref9.count_parameters, head=lambda v, d: 0),
            "parameters_mlp_biases_missing": partial(ref9.count_parameters, mlp=lambda d: d * (4 * d) + (4 * d) * d),
            # the blocks' two layer norms left out, or every layer norm
            "parameters_layer_norms_missing": [
                partial(ref9.count_parameters, block_norms=lambda d: 0),
                partial(ref9.count_parameters, block_norms=lambda d: 0, final_norm=lambda d: 0)],
        },
    ),
    Exercise(
        "causal_lm_loss",
        mistakes_from=ref9.causal_lm_loss,
        framework="torch",
        returns="a tensor of shape (): the mean loss",
        mutants={
            "loss_summed": partial(ref9.causal_lm_loss, loss=lambda picked: -picked.sum()),
            # summed over the tokens, averaged over the batch
            "loss_mean_over_batch_only": partial(ref9.causal_lm_loss, loss=lambda picked: -picked.sum(axis=-1).mean()),
            "loss_targets_shifted_twice": _targets_shifted_twice,
            "loss_softmax_twice": _loss_of_softmax,
            "loss_sign_flipped": partial(ref9.causal_lm_loss, loss=lambda picked: picked.mean()),
            "softmax_no_max_subtraction": partial(ref9.causal_lm_loss, log_softmax=_log_softmax_unshifted),
            "loss_softmax_over_tokens": partial(ref9.causal_lm_loss, log_softmax=_log_softmax_over_tokens),
            "log_of_softmax": _picked_loss(_log_of_softmax),
            "loss_without_log_softmax": [_picked_loss(lambda logits: logits),
                                         _picked_loss(lambda logits: ref.softmax(logits, axis=-1))],
        },
    ),
    Exercise(
        "next_token_probabilities",
        mistakes_from=ref9.next_token_probabilities,
        framework="torch",
        returns="a tensor of shape (batch, vocab_size): probabilities",
        mutants={
            "temperature_multiplies": partial(ref9.next_token_probabilities,
                                              tempered=lambda logits, temperature: logits * temperature),
            "top_k_off_by_one": [_top_k_off_by(1), _top_k_off_by(-1)],
            # the rest zeroed after the softmax, not renormalised
            "top_k_not_renormalised": partial(ref9.next_token_probabilities, kept=lambda scaled, kth: np.where(
                scaled >= kth, ref.softmax(scaled, axis=-1), 0.0).astype(scaled.dtype)),
            # the logits outside the top k set to 0, not -inf, before the softmax
            "mask_with_zero": partial(ref9.next_token_probabilities, kept=lambda scaled, kth: ref.softmax(
                np.where(scaled >= kth, scaled, scaled.dtype.type(0.0)), axis=-1)),
            "top_k_over_whole_batch": _top_k_over_whole_batch,
        },
    ),
    Exercise(
        "generate",
        mistakes_from=_generate(),
        framework="torch",
        returns="an int64 tensor of shape (batch, n_prompt + steps)",
        integers_ok=True,
        dtype="int64",
        uses={"next_token_probabilities": ref9.next_token_probabilities},
        mutants={
            # the new token alone, the cache not passed back (the stand-in refuses)
            "generate_cache_not_passed": _generate(feed=lambda model, token_ids, next_ids, cache: model(next_ids)),
            "generate_whole_text_with_cache": _generate(
                feed=lambda model, token_ids, next_ids, cache: model(token_ids, cache)),
            "generate_first_position_logits": _generate(
                next_token=lambda logits: logits[:, 0].argmax(axis=-1)[:, None]),
            "generate_returns_new_tokens_only": _new_tokens_only,
            "loop_leftover": _generate(rounds=lambda steps: steps - 1),  # a loop one step short
        },
    ),
]
