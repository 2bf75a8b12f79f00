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

from .. import reference_n09 as ref9
from ..mutants import head_layout_mutants
from . import Exercise


def _with(function, **knobs):
    return partial(function, **knobs)


def _block(**knobs):
    def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
        return ref9.block(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads, **knobs)

    return block_forward


def _generate(**knobs):
    def generate_with_stand_in(prompt, steps, temperature, top_k, embedding, positions, w_out):
        return ref9.generate(prompt, steps, temperature, top_k, embedding, positions, w_out, **knobs)

    return generate_with_stand_in


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
            "layer_norm_missing": _block(order="none"),
            "residual_missing": [_block(residual=("mlp",)), _block(residual=("attention",)), _block(residual=())],
            "residual_after_norm": _block(residual_from="normalised"),
            "second_residual_from_block_input": _block(second_residual_from="inputs"),
            "relu_instead_of_gelu": _block(activation="relu_instead_of_gelu"),
            "gelu_tanh_approximation": _block(activation="gelu_tanh_approximation"),
            "biases_missing": _block(mlp_biases=False),
            "layer_norms_mixed_up": [_block(norm_order=order) for order in ((1, 0), (0, 0), (1, 1))],
            "linear_weight_not_transposed": [
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
            "parameters_layer_norm_gamma_only": _with(ref9.count_parameters, norm_parameters=1),
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
