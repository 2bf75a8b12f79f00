"""Notebook 09: a GPT the learner builds, trains and makes write (PyTorch).

The references and their knobs live in :mod:`..reference_n09`. The block is graded through
``block_forward``, which loads course-style weights into the learner's ``Block`` (as 07's
``mhsa_forward`` grades its module); the block calls the learner's ``layer_norm`` and
``causal_attention``, which its checks replace by the references (``uses``), so a wrong helper costs
the helpers' exercise only. ``generate`` is graded with a stand-in model defined in the notebook
(``generate_with_stand_in``): the learner's ``GPT`` never enters its check, and the tokens are
certain (greedy, or top_k=1).
"""

from functools import partial

import numpy as np

from .. import reference as ref
from .. import reference_n07 as ref7
from .. import reference_n09 as ref9
from ..mutants import gelu_tanh, head_layout_mutants, relu
from ..reference import as_float
from . import Exercise


def _with(function, **knobs):
    return partial(function, **knobs)


def _block(**knobs):
    def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
        return ref9.block(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads, **knobs)

    return block_forward


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


def _mlp_weights_reshaped(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    """The MLP's (d_in, d_out) weights reshaped to nn.Linear's (d_out, d_in) instead of transposed."""
    w_in, w_out = as_float(mlp_w_in), as_float(mlp_w_out)
    return (inputs, attention_w, w_in.reshape(w_in.shape[::-1]).T, mlp_b_in, w_out.reshape(w_out.shape[::-1]).T,
            mlp_b_out, norms, n_heads)


def _generate(**knobs):
    def generate_with_stand_in(prompt, steps, temperature, top_k, embedding, positions, w_out):
        return ref9.generate(prompt, steps, temperature, top_k, embedding, positions, w_out, **knobs)

    return generate_with_stand_in


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
            "token_ids_are_code_points": _with(ref9.encode, ids="code_points"),
            "token_ids_off_by_one": _with(ref9.encode, ids="from_one"),
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
            "decode_joined_with_spaces": _with(ref9.decoded_code_points, joined=" "),
            "token_ids_off_by_one": [_with(ref9.decoded_code_points, offset=1),
                                     _with(ref9.decoded_code_points, offset=-1)],
            "token_ids_from_sorted_vocabulary": lambda ids, vocabulary: ref9.decoded_code_points(
                ids, sorted(vocabulary)),
        },
    ),
    Exercise(
        "layer_norm",
        framework="torch",
        returns="a tensor with the shape of x",
        mutants={
            "layer_norm_unbiased_variance": _with(ref9.layer_norm, variance="unbiased"),
            "layer_norm_eps_outside_sqrt": _with(ref9.layer_norm, eps_where="std"),
            "layer_norm_without_eps": _with(ref9.layer_norm, eps_where="none"),
            "layer_norm_wrong_axis": [_with(ref9.layer_norm, axis=-2), _with(ref9.layer_norm, axis=0),
                                      _with(ref9.layer_norm, axis=None)],
            "layer_norm_scale_shift_swapped": _with(ref9.layer_norm, swap=True),
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
            "kv_cache_mask_not_shifted": _with(ref9.causal_attention, mask="upper_left"),
            "kv_cache_mask_missing": _with(ref9.causal_attention, mask="none"),
            "mask_after_softmax": _with(ref9.causal_attention, masking="after_softmax"),
        },
    ),
    Exercise(
        "block_forward",
        mistakes_from=_block(),
        framework="torch",
        returns="a tensor of shape (batch, tokens, d_model)",
        uses={"layer_norm": ref9.layer_norm, "causal_attention": ref9.causal_attention},
        mutants={
            "layer_norm_after_sublayer": _block(order="post"),
            "layer_norm_missing": [_block(order="none"), _block_by_steps(mlp_normed=False),
                                   _block_by_steps(attention_normed=False)],
            "layer_norm_scale_shift_swapped": [_block_with_inputs(_norm_parameters_swapped(which))
                                               for which in (0, 1, slice(None))],
            "residual_missing": [_block(residual=("mlp",)), _block(residual=("attention",)), _block(residual=())],
            "residual_after_norm": [_block(residual_from="normalised"), _block_by_steps(first_from="normalised"),
                                    _block_by_steps(second_from="normalised")],
            "second_residual_from_block_input": _block(second_residual_from="inputs"),
            "relu_instead_of_gelu": _block(activation=relu),
            "gelu_tanh_approximation": _block(activation=gelu_tanh),
            "biases_missing": _block(mlp_biases=False),
            "layer_norms_mixed_up": [*(_block(norm_order=order) for order in ((1, 0), (0, 0), (1, 1))),
                                     _block_with_inputs(_norms_read_across(every=True)),
                                     _block_with_inputs(_norms_read_across(every=False))],
            "linear_weight_not_transposed": [
                _block_with_inputs(_mlp_weights_reshaped),
                _block(transpose_weights=("query", "key", "value", "out")),
                _block(transpose_weights=("query", "key", "value")),
                _block(transpose_weights=("out",)),
                *(_block(transpose_weights=(one,)) for one in ("query", "key", "value")),
            ],
            "missing_output_projection": _block(project=False),
            **head_layout_mutants(_block),
        },
    ),
    Exercise(
        "count_parameters",
        mistakes_from=ref9.count_parameters,
        returns="an int",
        integers_ok=True,
        mutants={
            "parameters_head_bias": _with(ref9.count_parameters, head_bias=True),
            "parameters_attention_biases": _with(ref9.count_parameters, attention_biases=True),
            "parameters_layer_norm_gamma_only": [_with(ref9.count_parameters, norm_parameters=1),
                                                 _one_block_norm_short],
            # the same count as gamma alone in the blocks' norms (the final norm whole): said together
            "parameters_one_norm_per_block": _one_block_norm_short,
            "parameters_mlp_not_four_times_wider": _with(ref9.count_parameters, mlp_factor=1),
            "parameters_part_missing": [_with(ref9.count_parameters, positions=False),
                                        _with(ref9.count_parameters, final_norm=False)],
            "parameters_head_tied": _with(ref9.count_parameters, tied_head=True),
            "parameters_mlp_biases_missing": _with(ref9.count_parameters, mlp_biases=False),
            "parameters_layer_norms_missing": [_with(ref9.count_parameters, block_norms=False),
                                               _with(ref9.count_parameters, block_norms=False, final_norm=False)],
        },
    ),
    Exercise(
        "causal_lm_loss",
        mistakes_from=ref9.causal_lm_loss,
        framework="torch",
        returns="a tensor of shape (): the mean loss",
        mutants={
            "loss_summed": _with(ref9.causal_lm_loss, reduce="sum"),
            "loss_mean_over_batch_only": _with(ref9.causal_lm_loss, mean_over="batch"),
            "loss_targets_shifted_twice": _with(ref9.causal_lm_loss, shift=True),
            "loss_softmax_twice": _with(ref9.causal_lm_loss, softmax_first=True),
            "loss_sign_flipped": _with(ref9.causal_lm_loss, sign=1.0),
            "softmax_no_max_subtraction": _with(ref9.causal_lm_loss, stable=False),
            "loss_softmax_over_tokens": _with(ref9.causal_lm_loss, axis=-2),
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
            "temperature_multiplies": _with(ref9.next_token_probabilities, temperature_op="multiply"),
            "top_k_off_by_one": [_with(ref9.next_token_probabilities, top_k_extra=1),
                                 _with(ref9.next_token_probabilities, top_k_extra=-1)],
            "top_k_not_renormalised": _with(ref9.next_token_probabilities, renormalise=False),
            # the logits outside the top k set to 0, not -inf, before the softmax
            "mask_with_zero": _with(ref9.next_token_probabilities, fill=0.0),
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
            "generate_cache_not_passed": _generate(feed="no_cache"),
            "generate_whole_text_with_cache": _generate(feed="whole_text"),
            "generate_first_position_logits": _generate(logits_at=0),
            "generate_returns_new_tokens_only": _generate(returns="new"),
            "loop_leftover": _generate(extra_steps=-1),
        },
    ),
]
