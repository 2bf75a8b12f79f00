"""Diagnosis from evidence (issue 11): contracts, evidence probes, shared mistakes, precision.

Each test builds a learner-style function, runs it through the same ``check`` the notebooks use (in
a clone, inputs that no notebook stores are judged with the grading side's key) and looks at the
verdict: which mistake is named, or which symptom is described.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from conftest import REPO

from attention_course import checks
from attention_course.contracts import CONTRACTS, evidence_probes, violations
from attention_course.convert import decode
from attention_course.mistakes import CATALOGUE
from autograder.key import mutant_outputs
from autograder.key import reference as ref
from autograder.key.exercises import Exercise, all_exercises

RNG = np.random.default_rng(11)
PLANS = sorted((REPO / "autograder" / "key" / "plans").glob("*.json"))


def _calls():
    for path in PLANS:
        for cell, calls in decode(json.loads(path.read_text(encoding="utf-8")))["plan"].items():
            for call in calls:
                yield path.stem, cell, call


def _failure(exercise, function, *inputs, **kwargs) -> str:
    with pytest.raises(checks.CheckFailed) as failure:
        checks.check(exercise, function, *inputs, quiet=True, **kwargs)
    return str(failure.value)


def _titles_in(message: str) -> int:
    """How many catalogued mistakes a verdict names (by their titles)."""
    return sum(m.title in message for m in CATALOGUE.values())


def _only_named(message: str, mistake: str) -> None:
    assert CATALOGUE[mistake].title in message, message
    assert _titles_in(message) == 1, message


# --- part 5: every call keeps to the exercise's stated contract --------------------------------


# Contracts (and so evidence probes) cover every exercise of notebooks 01-06, and of 07 and 08 so far
# rotary_embedding, kv_cache_step and bert_head_weights; the others are judged on their own inputs only.
CONTRACTED = "06"


def test_every_graded_exercise_has_a_contract():
    exercises = {call["exercise"] for name, _, call in _calls() if name[:2] <= CONTRACTED}
    assert exercises and exercises <= set(CONTRACTS), exercises - set(CONTRACTS)


def test_every_hidden_and_visible_call_keeps_to_the_contract():
    broken = [f"{name} {cell} {call['kind']} {call['exercise']}: {problem}"
              for name, cell, call in _calls() if call["exercise"] in CONTRACTS for probe in call["probes"]
              for problem in violations(call["exercise"], probe["inputs"])]
    assert not broken, "\n".join(broken)


def test_the_contract_rejects_unbatched_values_with_batched_queries():
    queries, keys = RNG.normal(size=(2, 5, 4)), RNG.normal(size=(2, 5, 4))
    assert violations("batched_attention", [queries, keys, np.eye(5)])
    assert not violations("batched_attention", [queries, keys, np.broadcast_to(np.eye(5), (2, 5, 5))])
    mask = np.ones((5, 5), dtype=bool)
    assert not violations("masked_attention", [queries, keys, RNG.normal(size=(2, 5, 3)), mask])
    assert violations("masked_attention", [queries, keys, RNG.normal(size=(2, 5, 3)), np.ones((3, 5, 5), bool)])


def test_evidence_probes_keep_to_the_contract_and_vary_what_they_say():
    queries, keys, values = RNG.normal(size=(3, 4)), RNG.normal(size=(3, 4)), RNG.normal(size=(3, 4))
    probes = evidence_probes("batched_attention", [queries, keys, values], {})
    labels = [probe["label"] for probe in probes]
    assert labels[0] == "other values of the same shapes" and labels[1].startswith("large values")
    sizes = probes[2]
    assert sizes["label"].startswith("other sizes")
    q, k, v = sizes["inputs"]
    assert q.shape[-2] != k.shape[-2] and k.shape[-1] != v.shape[-1] and k.shape[-1] != 4
    for probe in probes:
        assert not violations("batched_attention", probe["inputs"])
    assert np.abs(probes[1]["inputs"][0]).max() > 10 * np.abs(probes[0]["inputs"][0]).max()
    again = evidence_probes("batched_attention", [queries, keys, values], {})
    for a, b in zip(probes, again, strict=True):  # deterministic: the stored key finds them
        for x, y in zip(a["inputs"], b["inputs"], strict=True):
            np.testing.assert_array_equal(x, y)


# --- part 1: mistakes defined once ---------------------------------------------------------------


@pytest.mark.parametrize("exercise,mistake", [
    ("multi_head_attention", "weights_transposed"),
    ("softmax_stable", "softmax_over_all_entries"),  # notebook 01 lists it nowhere
    ("scale_scores_tf", "scale_applied_twice"),
    ("state_attention", "scale_applied_twice"),
    ("masked_attention", "keys_times_queries"),
])
def test_shared_mistakes_reach_exercises_that_do_not_list_them(exercise, mistake):
    assert mistake not in all_exercises()[exercise].mutants
    probes = evidence_probes(exercise, _inputs_of(exercise), {})
    probe = probes[-1] if probes[-1]["label"].startswith("other sizes") else probes[0]
    assert mistake in {row["mistake"] for row in mutant_outputs(exercise, probe)}


def test_a_new_exercise_picks_up_the_shared_mistakes_without_listing_any():
    registry = all_exercises()
    registry["_cross_attention_demo"] = Exercise(
        "_cross_attention_demo", reference=lambda q, kv: ref.attention(q, kv, kv))
    try:
        probe = {"inputs": [RNG.normal(size=(3, 4)), RNG.normal(size=(5, 4))], "kwargs": {}}
        found = {row["mistake"] for row in mutant_outputs("_cross_attention_demo", probe)}
    finally:
        del registry["_cross_attention_demo"]
    assert {"softmax_wrong_axis", "no_scaling", "keys_times_queries", "weights_transposed",
            "scale_applied_twice", "softmax_over_all_entries"} <= found


def _inputs_of(exercise):
    """The inputs of the exercise's visible check with the most axes (a 2-d softmax, not a 1-d one)."""
    visible = [call["probes"][0]["inputs"] for _, _, call in _calls()
               if call["exercise"] == exercise and call["kind"] == "check" and not call["hidden"]]
    return max(visible, key=lambda inputs: np.ndim(inputs[0]))


# --- part 2: name only what the evidence supports; otherwise the symptom -----------------------


def test_scaling_twice_is_not_told_it_divided_by_d_k_alone():
    def state_weights(state, states, w_query, w_key):
        scaled = (states @ w_key) @ (state @ w_query) / np.sqrt(w_key.shape[-1])
        return ref.softmax(scaled / np.sqrt(w_key.shape[-1]))

    message = _failure("state_weights", state_weights, RNG.normal(size=2), RNG.normal(size=(4, 3)),
                       RNG.normal(size=(2, 5)), RNG.normal(size=(3, 5)))
    assert CATALOGUE["scale_applied_twice"].title in message
    assert CATALOGUE["scale_by_d_k"].title in message  # the same numbers: both are said


def test_symmetric_scores_cannot_tell_transposed_weights_from_the_wrong_axis():
    import torch

    def self_attention_no_weights(inputs):
        return torch.softmax(inputs @ inputs.T, dim=-1).T @ inputs

    message = _failure("self_attention_no_weights", self_attention_no_weights,
                       RNG.normal(size=(4, 3)).astype(np.float32))
    assert CATALOGUE["weights_transposed"].title in message
    assert CATALOGUE["softmax_wrong_axis"].title in message


def test_transposed_weights_are_named_alone_where_the_probes_tell_them_apart():
    def batched_attention(queries, keys, values, scale=True):
        weights = ref.softmax(queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1]))
        return np.swapaxes(weights, -1, -2) @ values

    q, k, v = (RNG.normal(size=(4, 4)) for _ in range(3))
    message = _failure("batched_attention", batched_attention, q, k, v)
    assert CATALOGUE["weights_transposed"].title in message
    assert CATALOGUE["softmax_wrong_axis"].title not in message


@pytest.fixture
def scaled_scores_exercise(monkeypatch):
    """A scores-only exercise (notebook 04's former scaled_scores), registered for the tests that use it."""
    monkeypatch.setitem(CONTRACTS, "scaled_scores", ("n_queries d_k", "n_keys d_k"))
    monkeypatch.setitem(all_exercises(), "scaled_scores", Exercise(
        "scaled_scores", reference=lambda queries, keys: ref.attention_scores(queries, keys),
        returns="a (n_queries, n_keys) array of scaled scores"))


@pytest.mark.usefixtures("scaled_scores_exercise")
def test_an_uncatalogued_constant_factor_is_measured_and_matched():
    def scaled_scores(queries, keys):
        return queries @ keys.T / keys.shape[-1] ** 1.5  # d_k * sqrt(d_k): no catalogued mistake

    message = _failure("scaled_scores", scaled_scores, RNG.normal(size=(3, 4)), RNG.normal(size=(5, 4)))
    assert "times the expected one" in message and "1/d_k" in message
    assert _titles_in(message) == 0


@pytest.mark.usefixtures("scaled_scores_exercise")
def test_a_function_right_for_square_inputs_only_is_told_so():
    def scaled_scores(queries, keys):
        return queries @ keys / np.sqrt(keys.shape[-1]) if keys.shape[0] == keys.shape[1] else \
            queries @ keys.T / np.sqrt(keys.shape[-1])

    def odd(queries, keys):  # right unless the shapes differ; wrong in an uncatalogued way then
        right = queries @ keys.T / np.sqrt(keys.shape[-1])
        return right if queries.shape == keys.shape and queries.shape[0] == queries.shape[1] else right + 1

    square = RNG.normal(size=(4, 4))
    message = _failure("scaled_scores", odd, square, RNG.normal(size=(4, 4)))
    assert "but wrong on other sizes" in message
    assert _titles_in(message) == 0


def test_an_unknown_mistake_is_never_given_a_catalogued_name():
    def state_attention(state, states, w_query, w_key, w_value):  # softmax of the squared scores: in no catalogue
        scores = ((states @ w_key) @ (state @ w_query)) ** 2
        weights = np.exp(scores - scores.max())
        return weights / weights.sum() @ (states @ w_value)

    message = _failure("state_attention", state_attention, RNG.normal(size=3), RNG.normal(size=(4, 3)),
                       RNG.normal(size=(3, 2)), RNG.normal(size=(3, 2)), RNG.normal(size=(3, 5)))
    assert _titles_in(message) == 0, message


# --- part 3: the task sets the precision --------------------------------------------------------


def test_a_float16_answer_fails_a_float32_check_and_is_told_why():
    import torch

    def softmax_stable(scores):
        return torch.softmax(scores.half(), dim=-1)

    scores = RNG.normal(size=(3, 5)).astype(np.float32)
    message = _failure("softmax_stable", softmax_stable, scores)
    assert CATALOGUE["lower_precision"].title in message and "float16" in message


@pytest.mark.usefixtures("scaled_scores_exercise")
def test_a_float32_answer_to_float64_inputs_fails_and_is_told_it_lost_precision():
    """The task's precision, not the answer's, sets the tolerance (issue 11, part 3)."""
    def scaled_scores(queries, keys):
        q, k = queries.astype(np.float32), keys.astype(np.float32)
        return q @ k.T / np.float32(np.sqrt(k.shape[-1]))

    message = _failure("scaled_scores", scaled_scores, RNG.normal(size=(3, 4)), RNG.normal(size=(5, 4)))
    assert CATALOGUE["lower_precision"].title in message and "float64" in message, message


@pytest.mark.usefixtures("scaled_scores_exercise")
def test_a_float64_answer_to_float32_inputs_is_accepted(capsys):
    def scaled_scores(queries, keys):
        q, k = queries.astype(np.float64), keys.astype(np.float64)
        return q @ k.T / np.sqrt(k.shape[-1])

    checks.check("scaled_scores", scaled_scores, RNG.normal(size=(3, 4)).astype(np.float32),
                 RNG.normal(size=(5, 4)).astype(np.float32))
    assert "✓" in capsys.readouterr().out


def test_a_step_in_float16_cast_back_is_told_it_lost_precision():
    """The result has the task's dtype, so only its numbers show the float16 step."""
    def softmax_stable(scores):
        shifted = (scores - scores.max(dim=-1, keepdim=True).values).half()
        exps = shifted.exp()
        return (exps / exps.sum(dim=-1, keepdim=True)).to(scores.dtype)

    message = _failure("softmax_stable", softmax_stable, RNG.normal(size=(3, 5)).astype(np.float32))
    assert CATALOGUE["lower_precision"].title in message, message


def test_a_small_slip_is_not_mistaken_for_lower_precision():
    """An epsilon added where none belongs is off by more than float32's rounding: no precision story."""
    def softmax_stable(scores):
        exps = (scores - scores.max(dim=-1, keepdim=True).values).exp()
        return exps / (exps.sum(dim=-1, keepdim=True) + 1e-4)

    message = _failure("softmax_stable", softmax_stable, RNG.normal(size=(3, 5)).astype(np.float32))
    assert CATALOGUE["lower_precision"].title not in message, message


@pytest.mark.parametrize("exercise", ["causal_mask", "torch_attn_mask"])
def test_a_mask_the_text_asks_to_be_boolean_fails_as_integers(exercise):
    """An exercise whose text states the result's dtype asks for it in every check (issue 11)."""
    if exercise == "causal_mask":
        message = _failure(exercise, lambda n: np.tril(np.ones((n, n), dtype=int)), 4)
    else:
        message = _failure(exercise, lambda mask, n_heads: np.repeat(~mask, n_heads, axis=0).astype(int),
                           np.tril(np.ones((2, 3, 3), dtype=bool)), 2)
    assert "dtype bool" in message and "0/1 integer mask" in message, message


def test_a_layer_with_heads_is_probed_with_other_sizes_and_another_number_of_heads():
    inputs, w = RNG.normal(size=(4, 6)), RNG.normal(size=(6, 6))
    probes = evidence_probes("head_weights", [inputs, w, w, 1], {})
    sized = [p for p in probes if p["label"].startswith("other sizes")]
    assert len(sized) == 1 and "heads=2" in sized[0]["label"], [p["label"] for p in probes]
    x, wq, wk, heads = sized[0]["inputs"]
    assert heads == 2 and wq.shape == wk.shape and wq.shape[0] == wq.shape[1] != 6  # square stays square
    assert x.shape[-1] % 2 == 0 and not violations("head_weights", sized[0]["inputs"])


def test_numpy_errors_are_matched_by_what_went_wrong_not_by_their_wording():
    """`@` and `np.dot` word one mismatch differently; a broadcast error is another mistake."""
    from attention_course.verdict import error_signature

    a, b = np.ones((4, 3)), np.ones((5, 2))
    signatures = []
    for product in (lambda: a @ b, lambda: np.dot(a, b), lambda: a * b):
        with pytest.raises(ValueError) as error:
            product()
        signatures.append(error_signature(str(error.value).splitlines()[0]))
    assert signatures[0] == signatures[1] != signatures[2]


@pytest.mark.parametrize(("message", "kind"), [
    ("expected m1 and m2 to have the same dtype, but got: double != float", "dtype"),
    ("expected scalar type Float but found Double", "dtype"),
    ("cannot compute MatMul as input #1(zero-based) was expected to be a double tensor but is a float tensor", "dtype"),
    ("view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
     "contiguous subspaces)", "layout"),
    ("mat1 and mat2 shapes cannot be multiplied (5x3 and 5x3)", "shape"),
    ("matmul: Input operand 1 has a mismatch in its core dimension 0 (size 5 is different from 3)", "shape"),
    ("Matrix size-incompatible: In[0]: [3,4], In[1]: [3,4] [Op:MatMul]", "shape"),
    ("name 'x' is not defined", "other"),
])
def test_errors_are_told_apart_by_kind_across_frameworks(message, kind):
    """A learner's dtype error must not be named as a mistake whose mutant fails on shapes (fresh set, 07)."""
    from attention_course.verdict import error_kind

    assert error_kind(message) == kind


def test_a_key_mask_probe_keeps_to_the_contract_and_pads():
    rng = np.random.default_rng(0)
    hidden, weights, biases = rng.normal(size=(2, 5, 8)), rng.normal(size=(2, 8, 8)), rng.normal(size=(2, 8))
    inputs = [hidden, weights[0], biases[0], weights[1], biases[1], np.ones((2, 5), dtype=np.int64), 2]
    assert not violations("bert_head_weights", inputs)
    probes = evidence_probes("bert_head_weights", inputs, {})
    masks = [probe["inputs"][5] for probe in probes]
    assert len(probes) == 3 and all(not violations("bert_head_weights", probe["inputs"]) for probe in probes)
    assert all(mask.dtype == np.int64 and (mask == 0).any() for mask in masks)  # padding, kept to 0 and 1
    bad = np.array([[0, 1, 1, 1, 1], [1, 1, 1, 1, 1]])
    assert violations("bert_head_weights", inputs[:5] + [bad, 2])


def _mistake_ids(node) -> set[str]:
    if isinstance(node, dict):
        own = {node["mistake"]} if isinstance(node.get("mistake"), str) else set()
        return own.union(*(_mistake_ids(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(_mistake_ids(value) for value in node))
    return set()


def test_every_mutant_is_a_catalogued_mistake_or_a_declared_decoy():
    # the verdict names only catalogued mistakes: a mutant under any other id silently names nothing,
    # which is right for a decoy (DECOYS) and a bug for a misspelt id
    from attention_course import expected
    from autograder.key.mistakes import DECOYS

    stored = [expected.exercise(name) for name in expected._index(expected.FOLDER)]
    from attention_course.verdict.slips import GENERATED

    # generated mistakes (one edit of the reference, said in words) are declared by their prefix
    ids = {mistake for mistake in _mistake_ids(stored) if not mistake.startswith(GENERATED)}
    assert ids & DECOYS == DECOYS and not DECOYS & set(CATALOGUE)
    assert ids <= set(CATALOGUE) | DECOYS, ids - set(CATALOGUE) - DECOYS


# --- mistakes found unnamed in the fresh sets, defined once in the shared steps -----------------


def _split(x, n_heads):  # (tokens, d_model) -> (heads, tokens, d_head), as split_heads does
    return np.swapaxes(x.reshape(x.shape[0], n_heads, -1), 0, 1)


def test_two_mistakes_raising_numpys_very_error_are_both_named():
    # keys.T on a stack of heads and no transpose at all mismatch the same two sizes on the check's own
    # input; where no probe tells them apart (a square head: tokens = d_head), both are named
    def head_weights(inputs, w_query, w_key, n_heads):
        queries, keys = _split(inputs @ w_query, n_heads), _split(inputs @ w_key, n_heads)
        return ref.softmax(queries @ keys.T / np.sqrt(keys.shape[-1]))

    message = _failure("head_weights", head_weights, RNG.normal(size=(3, 4)), RNG.normal(size=(4, 4)),
                       RNG.normal(size=(4, 4)), 2)
    assert CATALOGUE["keys_transpose_all_axes"].title in message
    both = CATALOGUE["keys_without_transpose"].title in message
    assert both == ("raise the very error" in message), message


def test_a_probe_of_other_sizes_tells_the_two_transpose_slips_apart():
    # with tokens no longer a multiple of the heads in the probe of other sizes, keys.T on a stack of
    # heads (batch axes reversed) and no transpose at all raise different errors there
    def head_weights(inputs, w_query, w_key, n_heads):
        queries, keys = _split(inputs @ w_query, n_heads), _split(inputs @ w_key, n_heads)
        return ref.softmax(queries @ keys.T / np.sqrt(keys.shape[-1]))

    message = _failure("head_weights", head_weights, RNG.normal(size=(3, 4)), RNG.normal(size=(4, 4)),
                       RNG.normal(size=(4, 4)), 2)
    assert CATALOGUE["keys_transpose_all_axes"].title in message
    assert CATALOGUE["keys_without_transpose"].title not in message, message


def test_an_error_matched_only_by_its_kind_names_no_pair():
    # PyTorch words its errors otherwise than the NumPy mutants: a shape error alone is weak evidence
    import torch

    def kv_cache_step(queries, keys, values, cached_keys, cached_values):
        all_keys, all_values = torch.cat([cached_keys, keys], -2), torch.cat([cached_values, values], -2)
        return torch.softmax(queries @ all_keys.T / queries.shape[-1] ** 0.5, -1) @ all_values

    q, k, v, ck, cv = (torch.tensor(RNG.normal(size=shape)) for shape in ((1, 2, 4),) * 3 + ((1, 3, 4),) * 2)
    message = _failure("kv_cache_step", kv_cache_step, q, k, v, ck, cv)
    assert "raised" in message and _titles_in(message) == 0, message


@pytest.mark.parametrize(("cast", "mistake"), [(int, "integer_arithmetic"), (np.float16, "lower_precision")])
def test_values_truncated_or_rounded_before_the_weighted_sum_are_named(cast, mistake):
    def state_attention(state, states, w_query, w_key, w_value):
        scores = (states @ w_key) @ (state @ w_query) / np.sqrt(w_key.shape[-1])
        return ref.softmax(scores) @ (states @ w_value).astype(cast)

    message = _failure("state_attention", state_attention, RNG.normal(size=3), RNG.normal(size=(4, 3)),
                       RNG.normal(size=(3, 2)), RNG.normal(size=(3, 2)), RNG.normal(size=(3, 5)) * 3)
    assert CATALOGUE[mistake].title in message, message


def test_a_shift_by_the_minimum_is_told_that_softmax_overflows():
    import torch

    def softmax_stable(scores):
        exps = torch.exp(scores - scores.min(dim=-1, keepdim=True).values)
        return exps / exps.sum(dim=-1, keepdim=True)

    message = _failure("softmax_stable", softmax_stable, torch.tensor(RNG.normal(size=6), dtype=torch.float32))
    assert CATALOGUE["softmax_no_max_subtraction"].title in message, message


def test_a_loop_that_skips_the_last_head_or_width_is_told_part_of_the_output_is_missing():
    def head_weights(inputs, w_query, w_key, n_heads):
        queries, keys = _split(inputs @ w_query, n_heads), _split(inputs @ w_key, n_heads)
        weights = np.zeros((n_heads, inputs.shape[0], inputs.shape[0]))
        for head in range(n_heads - 1):
            weights[head] = ref.softmax(queries[head] @ keys[head].T / np.sqrt(keys.shape[-1]))
        return weights

    def width_sweep(queries, keys, widths, power):
        return np.stack([queries[:, :w] @ keys[:, :w].T / float(w) ** power for w in widths[:-1]])

    title = CATALOGUE["loop_leftover"].title
    assert title in _failure("head_weights", head_weights, RNG.normal(size=(3, 4)), RNG.normal(size=(4, 4)),
                             RNG.normal(size=(4, 4)), 2)
    assert title in _failure("width_sweep", width_sweep, RNG.normal(size=(3, 6)), RNG.normal(size=(4, 6)),
                             np.array([2, 4, 6]), 0.5)


def test_positions_probes_are_neither_consecutive_nor_from_zero_and_widths_stay_even():
    # positions - positions[0] equals ignoring the positions wherever they are 0, 1, 2, ... from the start
    x, positions = RNG.normal(size=(5, 8)).astype(np.float32), np.array([3, 4, 5, 6, 7])
    probes = evidence_probes("rotary_embedding", [x, positions], {})
    assert [p["label"].split(" (")[0] for p in probes] == [
        "other values of the same shapes", "large values", "other sizes"]
    for probe in probes:
        x_probe, p = probe["inputs"]
        assert not violations("rotary_embedding", probe["inputs"])
        assert x_probe.shape[-1] % 2 == 0 and p.dtype == positions.dtype
        assert p[0] != 0 and not np.all(np.diff(np.sort(p)) == 1)
    assert probes[2]["inputs"][0].shape[-1] != 8
    assert violations("rotary_embedding", [RNG.normal(size=(4, 5)), np.arange(4)])  # odd width
    assert violations("rotary_embedding", [RNG.normal(size=(4, 6)), np.arange(4.0)])  # float positions


def test_a_notebooks_checks_hold_no_probe_once_judged():
    # a notebook's checks make new probe objects on every run of a test cell: a key that held each one
    # (to digest it once, as the grader's plan allows) grew the kernel without bound
    from autograder.key import ComputedKey

    def probe():
        return {"inputs": [RNG.normal(size=(3, 4)), RNG.normal(size=(3, 4))], "kwargs": {}}

    kernel_side, grader_side = ComputedKey(remember_probes=False), ComputedKey()
    for _ in range(5):
        kernel_side.analyse("score_variance", probe())
        grader_side.analyse("score_variance", probe())
    assert not kernel_side._digests and len(grader_side._digests) == 5
    same = probe()
    assert kernel_side.analyse("score_variance", same) is kernel_side.analyse("score_variance", dict(same))


def test_pytorchs_product_mismatch_is_read_as_numpys():
    """`x @ x` on a (6, 3) tensor: PyTorch and NumPy word the same two sizes differently."""
    import torch

    from attention_course.verdict import error_signature

    messages = []
    for product in (lambda: torch.ones(6, 3) @ torch.ones(6, 3), lambda: np.ones((6, 3)) @ np.ones((6, 3))):
        with pytest.raises((RuntimeError, ValueError)) as error:
            product()
        messages.append(str(error.value).splitlines()[0])
    assert error_signature(messages[0]) == error_signature(messages[1]) == ("mismatch", frozenset({"3", "6"}))

    def self_attention_no_weights(inputs):  # the keys not transposed: a shape error on every probe
        return torch.softmax(inputs @ inputs, dim=-1) @ inputs

    # the very error everywhere but on square inputs (contracts.SQUARE), where x @ x gives numbers:
    # there only the missing transpose matches them (x * x, a sum of products, mismatches alike elsewhere)
    message = _failure("self_attention_no_weights", self_attention_no_weights, torch.tensor(RNG.normal(size=(6, 3))))
    _only_named(message, "keys_without_transpose")

    def gram_of_features(inputs):  # uncatalogued: (d, d) weights, a shape error but on square inputs
        return torch.softmax(inputs.T @ inputs, dim=-1) @ inputs

    message = _failure("self_attention_no_weights", gram_of_features, torch.tensor(RNG.normal(size=(6, 3))))
    assert _titles_in(message) == 0, message


def _bert_layer(slip=None):
    """One learner's BERT layer (attention written out, post-LN), with one slip."""
    from autograder.key.reference_n08 import gelu, layer_norm

    def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
        w_q, w_k, w_v, w_o = attention_w
        b_q, b_k, b_v, b_o = attention_b
        batch, tokens, d_model = hidden.shape

        def heads(x):  # (batch, tokens, d_model) -> (batch, heads, tokens, d_head)
            return x.reshape(batch, tokens, n_heads, d_model // n_heads).transpose(0, 2, 1, 3)

        queries, keys = heads(hidden @ w_q + b_q), heads(hidden @ w_k + b_k)
        values = heads(hidden @ {"values_from_w_k": w_k, "w_v_transposed": w_v.T}.get(slip, w_v) + b_v)
        scores = queries @ keys.transpose(0, 1, 3, 2) / np.sqrt(d_model // n_heads)  # (batch, heads, tokens, tokens)
        scores = np.where(mask[:, None, None, :] != 0, scores, 0.0 if slip == "masked_with_zero" else -np.inf)
        context = (ref.softmax(scores) @ values).transpose(0, 2, 1, 3).reshape(batch, tokens, d_model)
        attended = context + b_o if slip == "w_o_left_out" else context @ w_o + b_o
        hidden = layer_norm(hidden + attended, *norms[0])
        return layer_norm(hidden + gelu(hidden @ ffn_w_in + ffn_b_in) @ ffn_w_out + ffn_b_out, *norms[1])

    return bert_layer


@pytest.mark.parametrize(("slip", "mistake"), [
    ("w_o_left_out", "missing_output_projection"),  # W_O left out, its bias still added
    ("values_from_w_k", "mixed_up_projections"),
    ("w_v_transposed", "projection_order"),
    ("masked_with_zero", "mask_with_zero"),
])
def test_a_bert_layers_slips_in_its_own_attention_are_named(slip, mistake):
    rng = np.random.default_rng(804)
    d, ff = 8, 16
    inputs = [rng.normal(size=(2, 5, d)), np.array([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]),
              rng.normal(size=(4, d, d)) / np.sqrt(d), 0.3 * rng.normal(size=(4, d)),
              rng.normal(size=(d, ff)), 0.3 * rng.normal(size=ff), rng.normal(size=(ff, d)) / 4,
              0.3 * rng.normal(size=d), np.array([1.0, 0.0])[:, None] + 0.2 * rng.normal(size=(2, 2, d)), 2]
    checks.check("bert_layer", _bert_layer(), *inputs, quiet=True)  # the learner's layer is right without the slip
    message = _failure("bert_layer", _bert_layer(slip), *inputs)
    _only_named(message, mistake)



def test_heads_stacked_along_the_tokens_or_averaged_in_a_whole_layer_name_nothing():
    # before W_O both give only the same shape error (d_head against d_model), on every probe
    def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads, combine):
        queries, keys, values = (_split(inputs @ w, n_heads) for w in (w_query, w_key, w_value))
        heads = ref.softmax(queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])) @ values
        return combine(heads) @ w_out

    for combine in (lambda heads: np.concatenate(list(heads), axis=-2), lambda heads: heads.mean(axis=0)):
        message = _failure("multi_head_attention", lambda *a, c=combine: multi_head_attention(*a, combine=c),
                           RNG.normal(size=(3, 4)), *RNG.normal(size=(3, 4, 4)), RNG.normal(size=(4, 5)), 2)
        assert "raised" in message and _titles_in(message) == 0, message


# --- after the eighth fresh set's first run (its figure above these is the unbiased one) ----------


def test_a_python_list_where_a_tensor_is_asked_fails_and_says_so():
    import torch

    def scores_for_query(query, inputs):  # the right numbers, as Python floats
        return [torch.dot(x, query).item() for x in inputs]

    message = _failure("scores_for_query", scores_for_query, torch.tensor(RNG.normal(size=3)),
                       torch.tensor(RNG.normal(size=(4, 3))))
    assert "returned a Python list" in message and "torch.stack" in message, message


def test_rope_with_positions_shifted_names_nothing_and_scores_over_the_values_width_are_named():
    # KEYING.md rules the first uncatalogued; the second has its own entry, scale_by_sqrt_d_v
    import torch

    def rotary_embedding(x, positions):
        d = x.shape[-1]
        theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
        angles = (positions + 1).to(x.dtype)[:, None] * theta  # (tokens, d / 2)
        even, odd = x[..., 0::2], x[..., 1::2]
        out = torch.empty_like(x)
        out[..., 0::2] = even * torch.cos(angles) - odd * torch.sin(angles)
        out[..., 1::2] = even * torch.sin(angles) + odd * torch.cos(angles)
        return out

    def batched_attention(queries, keys, values, scale=True):
        scores = queries @ np.swapaxes(keys, -1, -2)
        scores = scores / np.sqrt(values.shape[-1]) if scale else scores  # d_v where d_k belongs
        return ref.softmax(scores) @ values

    message = _failure("rotary_embedding", rotary_embedding,
                       torch.tensor(RNG.normal(size=(5, 8)), dtype=torch.float32), torch.tensor([2, 3, 4, 5, 6]))
    assert _titles_in(message) == 0, message
    _only_named(_failure("batched_attention", batched_attention, RNG.normal(size=(2, 3, 4)),
                         RNG.normal(size=(2, 5, 4)), RNG.normal(size=(2, 5, 6))), "scale_by_sqrt_d_v")


def test_gradient_norms_of_diag_p_name_both_entries_that_give_its_numbers():
    def gradient_norms(scores):  # diag(p) as each row's Jacobian: its norm is the weights' norm
        return np.array([np.linalg.norm(np.diag(ref.softmax(row))) for row in scores])

    message = _failure("gradient_norms", gradient_norms, RNG.normal(size=(3, 5)))
    for mistake in ("jacobian_diagonal_only", "gradient_norm_of_weights"):
        assert CATALOGUE[mistake].title in message, message


def test_the_entropy_of_raw_scores_is_told_the_softmax_is_missing():
    def attention_entropy(scores):
        return -(scores * np.log(scores)).sum(axis=-1)  # nan wherever a score is negative

    with np.errstate(all="ignore"):
        message = _failure("attention_entropy", attention_entropy, RNG.normal(size=(3, 5)))
    assert CATALOGUE["no_softmax"].title in message, message


# --- before the ninth fresh set ------------------------------------------------------------------


def test_a_weight_transposed_is_named_where_square_weights_give_its_numbers_and_the_others_its_error():
    # states @ w_value.T: numbers on square weights, NumPy's mismatch where d_model != d_v
    def state_attention(state, states, w_query, w_key, w_value):
        keys, query = states @ w_key, state @ w_query  # (n_states, d_k), (d_k,)
        weights = ref.softmax(keys @ query / np.sqrt(keys.shape[-1]))  # (n_states,)
        return weights @ (states @ w_value.T)  # (d_v,) where W_V is square

    message = _failure("state_attention", state_attention, RNG.normal(size=3), RNG.normal(size=(4, 3)),
                       RNG.normal(size=(3, 2)), RNG.normal(size=(3, 2)), RNG.normal(size=(3, 3)))
    assert CATALOGUE["projection_order"].title in message, message


def test_values_left_unprojected_raise_a_transposed_weights_error_but_are_not_named_for_it():
    # with d_model != d_v on every probe, the mismatch is all there is: the same as W_V.T's
    def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
        queries, keys = (_split(inputs @ w, n_heads) for w in (w_query, w_key))
        weights = ref.softmax(queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1]))
        heads = weights @ _split(inputs, n_heads)  # (heads, tokens, d_model / heads): not projected
        return np.concatenate(list(heads), axis=-1) @ w_out

    message = _failure("multi_head_attention", multi_head_attention, RNG.normal(size=(3, 4)),
                       *RNG.normal(size=(2, 4, 2)), RNG.normal(size=(4, 6)), RNG.normal(size=(6, 5)), 2)
    assert "raised" in message and _titles_in(message) == 0, message


# --- after the ninth fresh set's first run (its figure is the unbiased one; these are biased) ----


def test_weights_masked_after_the_softmax_and_renormalised_are_named_where_they_underflow():
    # right until every kept weight of a row underflows (scores in the thousands): then nan
    def bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
        batch, tokens, d_model = hidden.shape
        queries, keys = ((hidden @ w + b).reshape(batch, tokens, n_heads, -1).transpose(0, 2, 1, 3)
                         for w, b in ((w_query, b_query), (w_key, b_key)))  # (batch, heads, tokens, d_head)
        scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1])  # (batch, heads, tokens, tokens)
        weights = ref.softmax(scores) * (mask[:, None, None, :] != 0)
        return weights / weights.sum(axis=-1, keepdims=True)

    rng = np.random.default_rng(9)
    mask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]])
    message = _failure("bert_head_weights", bert_head_weights, rng.normal(size=(2, 5, 8)), rng.normal(size=(8, 8)),
                       rng.normal(size=8), rng.normal(size=(8, 8)), rng.normal(size=8), mask, 2)
    _only_named(message, "mask_after_softmax")


def test_an_error_that_names_no_size_names_no_mistake():
    # the first w rows instead of the first w features: np.stack's "all input arrays must have the
    # same shape", which element-wise products raise too
    def width_sweep(queries, keys, widths, power):
        return np.stack([queries[:w] @ keys[:w].T / float(w) ** power for w in widths])

    message = _failure("width_sweep", width_sweep, RNG.normal(size=(4, 8)), RNG.normal(size=(5, 8)),
                       np.array([1, 4, 8]), 0.5)
    assert "raised" in message and _titles_in(message) == 0, message


def _variance_in_float16(queries, keys):
    return float(np.var(queries.astype(np.float16) @ keys.astype(np.float16).T))


def _mask_buffer_one_sequence_short(mask, n_heads):
    out = np.zeros((mask.shape[0] * n_heads, *mask.shape[1:]), dtype=bool)
    for b in range(mask.shape[0] - 1):
        out[b * n_heads:(b + 1) * n_heads] = ~mask[b]
    return out


def _first_state_as_query(state, states, w_query, w_key):
    keys = states @ w_key
    return ref.softmax(keys @ (states[0] @ w_query) / np.sqrt(keys.shape[-1]))


@pytest.mark.parametrize(("exercise", "function", "shapes", "mistake"), [
    ("score_variance", _variance_in_float16, [(4, 8), (5, 8)], "lower_precision"),
    ("torch_attn_mask", _mask_buffer_one_sequence_short, ["mask", 2], "loop_leftover"),
    ("state_weights", _first_state_as_query, [(3,), (4, 3), (3, 2), (3, 2)], "wrong_query"),
], ids=["score_variance_in_float16", "torch_attn_mask_buffer_one_sequence_short",
        "state_weights_first_state_as_query"])
def test_slips_of_the_ninth_fresh_set_are_named(exercise, function, shapes, mistake):
    rng = np.random.default_rng(19)
    inputs = [rng.random((3, 4, 4)) < 0.7 if s == "mask" else rng.normal(size=s) if isinstance(s, tuple) else s
              for s in shapes]
    _only_named(_failure(exercise, function, *inputs), mistake)


def test_values_alone_reshaped_into_heads_without_the_transpose_are_named():
    def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
        queries, keys = (_split(inputs @ w, n_heads) for w in (w_query, w_key))
        weights = ref.softmax(queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1]))
        values = (inputs @ w_value).reshape(n_heads, inputs.shape[-2], -1)  # no transpose
        heads = weights @ values  # (heads, tokens, d_head)
        return np.concatenate(list(heads), axis=-1) @ w_out

    rng = np.random.default_rng(29)
    message = _failure("multi_head_attention", multi_head_attention, rng.normal(size=(3, 4)),
                       *rng.normal(size=(3, 4, 4)), rng.normal(size=(4, 5)), 2)
    _only_named(message, "heads_reshape_without_transpose")


def test_a_result_of_zeros_is_told_nothing_was_written():
    def context_vector(weights, inputs):  # a buffer returned before the loop that fills it
        return np.zeros(inputs.shape[-1])

    message = _failure("context_vector", context_vector, RNG.dirichlet(np.ones(4)), RNG.normal(size=(4, 3)))
    assert "every entry of the result is 0" in message, message
    assert _titles_in(message) == 0, message


# --- notebook 10: blocks and shared key/value heads ---------------------------------------------


def test_grouped_heads_are_probed_with_query_heads_a_multiple_of_the_key_value_heads():
    queries, keys, values = RNG.normal(size=(6, 5, 4)), RNG.normal(size=(2, 5, 4)), RNG.normal(size=(2, 5, 3))
    assert not violations("grouped_query_attention", [queries, keys, values])
    assert violations("grouped_query_attention", [RNG.normal(size=(5, 5, 4)), keys, values])  # 5 heads, 2 groups
    (sized,) = [p for p in evidence_probes("grouped_query_attention", [queries, keys, values], {})
                if p["label"].startswith("other sizes")]
    q, k, v = sized["inputs"]
    n_heads, n_kv_heads = q.shape[-3], k.shape[-3]
    # a group of two or more query heads per key/value head, and several of those: so that a tiled
    # layout (head h reads h % n_kv_heads) gives other numbers than the repeated one
    assert n_heads % n_kv_heads == 0 and n_heads // n_kv_heads >= 2 and n_kv_heads >= 2
    assert n_heads != 6 and not violations("grouped_query_attention", sized["inputs"])


def test_a_blocked_softmax_whose_sum_is_not_rescaled_is_named_and_a_two_pass_one_accepted(capsys):
    def online_softmax(scores, block):  # each block against the running maximum, earlier terms left as they were
        running_max, total = np.full(scores.shape[:-1] + (1,), -np.inf), 0.0
        for start in range(0, scores.shape[-1], block):
            running_max = np.maximum(running_max, scores[..., start:start + block].max(-1, keepdims=True))
            total = total + np.exp(scores[..., start:start + block] - running_max).sum(-1, keepdims=True)
        return np.exp(scores - running_max) / total

    scores = np.sort(RNG.normal(size=(3, 7)), axis=-1) * 5  # the maximum grows in every block
    _only_named(_failure("online_softmax", online_softmax, scores, 3), "online_sum_not_rescaled")
    checks.check("online_softmax", lambda s, block: ref.softmax(s), scores, 3)  # the text asks for blocks;
    assert "✓ online_softmax" in capsys.readouterr().out  # the tests judge results, so two passes pass


def test_a_blocked_softmax_whose_maximum_is_each_blocks_own_is_named_as_such_not_as_no_shift():
    def online_softmax(scores, block):  # the last block's maximum replaces the running one
        running_max, total = np.full(scores.shape[:-1] + (1,), -np.inf), np.zeros(scores.shape[:-1] + (1,))
        for start in range(0, scores.shape[-1], block):
            block_max = scores[..., start:start + block].max(-1, keepdims=True)
            total = total * np.exp(running_max - block_max) + np.exp(scores[..., start:start + block] - block_max).sum(-1, keepdims=True)
            running_max = block_max
        return np.exp(scores - running_max) / total

    scores = RNG.normal(size=(2, 7)) * 3
    scores[:, :3] += 900.0  # the first block far above the others: the falling maximum lets exp overflow
    with np.errstate(all="ignore"):
        message = _failure("online_softmax", online_softmax, scores, 3)
    _only_named(message, "running_max_not_kept")


def test_a_text_longer_than_the_context_is_no_evidence_of_a_shape_mismatch_nor_the_reverse():
    from attention_course.verdict import error_kind
    from autograder.key.reference_n09 import TOO_LONG

    too_long = TOO_LONG.format(tokens=18, context_length=16)  # a loop that feeds too many tokens
    cat = "Sizes of tensors must match except in dimension 1. Expected size 1 but got size 6 for tensor number 1 in the list."
    assert error_kind(too_long) == "length" and error_kind(cat) == "shape"
    assert error_kind("mat1 and mat2 shapes cannot be multiplied (3x4 and 5x4)") == "shape"


# --- diagnosis that generalises: symptoms in the exercise's own quantities -----------------------
# (each way of explaining a result that no catalogued mistake explains)


def _softmax_rows(x, axis=-1):
    exps = np.exp(x - x.max(axis=axis, keepdims=True))
    return exps / exps.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize(("exercise", "function", "shapes", "said"), [
    ("context_vector", lambda w, x: (w[:, None] * x).mean(axis=0), ["weights", (6, 3)],
     ["1/the number of tokens", "average (mean)"]),
    ("score_variance", lambda q, k: np.var(q @ k.T, ddof=1), [(3, 4), (5, 4)], ["n - 1", "ddof=1"]),
    ("attention_entropy", lambda s: -(_softmax_rows(s) * np.log2(_softmax_rows(s))).sum(-1), [(3, 5)],
     ["1/ln 2", "base 2"]),
    ("attention_entropy", lambda s: (_softmax_rows(s) * np.log(_softmax_rows(s))).sum(-1), [(3, 5)],
     ["(-1)", "opposite sign"]),
    ("state_attention", lambda s, S, wq, wk, wv: (S.shape[0] * _softmax_rows((S @ wk) @ (s @ wq) / np.sqrt(wk.shape[1])))
     @ (S @ wv), [(3,), (4, 3), (3, 2), (3, 2), (3, 5)], ["the number of states = 4", "a sum over states"]),
], ids=["mean_of_tokens", "sample_variance", "log2", "sign", "sum_over_states"])
def test_a_constant_factor_is_read_against_the_exercises_quantities(exercise, function, shapes, said):
    inputs = [RNG.dirichlet(np.ones(6)) if s == "weights" else RNG.normal(size=s) for s in shapes]
    message = _failure(exercise, function, *inputs)
    assert all(words in message for words in said), message
    assert _titles_in(message) == 0, message


def test_a_factor_that_matches_a_size_by_coincidence_is_not_read_as_that_size():
    def context_vector(weights, inputs):  # always a sixth, whatever the number of tokens
        return weights @ inputs / 6

    message = _failure("context_vector", context_vector, RNG.dirichlet(np.ones(6)), RNG.normal(size=(6, 3)))
    assert "0.1667 times the expected one" in message and "tokens" not in message, message


def test_one_number_is_never_every_entry_nor_a_factor_without_a_formula():
    def score_variance(queries, keys):  # the mean of each row's variance: no constant factor
        return float(np.mean(np.var(queries @ keys.T, axis=-1)))

    message = _failure("score_variance", score_variance, RNG.normal(size=(3, 4)), RNG.normal(size=(5, 4)))
    assert "every entry" not in message and "times the expected" not in message, message
    assert "variance of each row" in message, message  # a described slip (verdict.slips)


@pytest.mark.parametrize(("exercise", "function", "inputs", "said"), [
    ("softmax_stable", lambda s: (lambda e: e / e.sum(-1))(torch_exp_minus(s, keepdim=False)), "torch_scores",
     ["keepdim=True", "(2,)"]),
    ("softmax_stable", lambda s: torch_exp_minus(s, values=False), "torch_scores", [".values"]),
    ("project_qkv", lambda x, wq, wk, wv: (x * wq, x * wk, x * wv), [(4, 3), (3, 3), (3, 3), (3, 3)],
     ["matrix product (@", "4 = tokens"]),
    ("state_attention", lambda s, S, wq, wk, wv: (S @ wv) @ _softmax_rows((S @ wk) @ (s @ wq)),
     [(3,), (4, 3), (3, 2), (3, 2), (3, 5)], ["4 (n_states)", "5 (d_v)", "transposed"]),
    ("split_heads", "_three_axes", [(4, 6), 2], ["leading (batch) axes"]),
    ("combine_heads", lambda x: x.transpose(0, 2, 1, 3).reshape(x.shape[0], x.shape[2], -1), [(2, 3, 4)],
     ["leading (batch) axes"]),
    ("masked_attention", "_boolean_index", [(3, 4), (3, 4), (3, 2), "row_mask"], ["np.where"]),
], ids=["keepdim", "max_values", "elementwise", "product_order", "unpack", "transpose_axes", "boolean_index"])
def test_a_librarys_error_is_translated_into_the_likely_slip_with_the_learners_shapes(exercise, function, inputs,
                                                                                        said):
    import torch

    if inputs == "torch_scores":
        inputs = [torch.tensor(RNG.normal(size=(2, 3)), dtype=torch.float32)]
    else:
        inputs = [np.tril(np.ones((1, 3), bool)) if s == "row_mask" else RNG.normal(size=s) if isinstance(s, tuple)
                  else s for s in inputs]
    if function == "_three_axes":
        def function(inputs, n_heads):
            batch, tokens, d_model = inputs.shape  # no batch axis in this check's input
            return np.swapaxes(inputs.reshape(batch, tokens, n_heads, -1), -2, -3)
    if function == "_boolean_index":
        def function(queries, keys, values, mask):
            scores = queries @ np.swapaxes(keys, -1, -2)
            scores[~mask] = -np.inf  # a mask that only broadcasts cannot index
            return _softmax_rows(scores) @ values
    message = _failure(exercise, function, *inputs)
    assert "raised" in message and all(words in message for words in said), message
    assert _titles_in(message) == 0, message


def torch_exp_minus(scores, keepdim=True, values=True):
    """exp(scores - each row's maximum), with the maximum's axis dropped or its (values, indices) pair kept."""
    import torch

    top = scores.max(dim=-1, keepdim=keepdim)
    return torch.exp(scores - (top.values if values else top))


def test_a_reshape_into_the_wrong_width_names_the_sizes():
    def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
        tokens, d_model = inputs.shape
        split = [(inputs @ w).reshape(tokens, n_heads, d_model // n_heads).transpose(1, 0, 2)  # d_model, not d_k
                 for w in (w_query, w_key, w_value)]
        weights = _softmax_rows(split[0] @ np.swapaxes(split[1], -1, -2) / np.sqrt(split[0].shape[-1]))
        return (weights @ split[2]).transpose(1, 0, 2).reshape(tokens, -1) @ w_out

    message = _failure("multi_head_attention", multi_head_attention, RNG.normal(size=(3, 4)),
                       *RNG.normal(size=(3, 4, 3)), RNG.normal(size=(3, 5)), 1)
    assert "cannot reshape" in message and "4 = d_model" in message and "needs 12" in message, message


def test_nan_from_an_underflow_is_told_from_an_overflow():
    import torch

    def one_maximum_for_all_rows(scores):
        exps = torch.exp(scores - scores.max())
        return exps / exps.sum(dim=-1, keepdim=True)

    scores = torch.tensor([[0.0, 1.0, 2.0], [-900.0, -901.0, -902.0]], dtype=torch.float32)
    message = _failure("softmax_stable", one_maximum_for_all_rows, scores)
    assert "0/0" in message and "underflow" in message and "each row's own" in message, message
    assert "overflow" not in message.replace("underflow", ""), message


def test_inf_is_told_as_an_overflow():
    def attention_entropy(scores):  # exp() of a large score left in the weights' numerator
        exps = np.exp(scores)
        return -(exps / np.exp(scores - scores.max(-1, keepdims=True)).sum(-1, keepdims=True)
                 * np.log(_softmax_rows(scores))).sum(-1)

    with np.errstate(all="ignore"):
        message = _failure("attention_entropy", attention_entropy, 800 + RNG.normal(size=(3, 5)))
    assert "inf" in message and "overflow" in message, message


@pytest.mark.parametrize(("exercise", "function", "shapes", "said"), [
    ("scores_for_query", lambda q, x: (x * q).sum(axis=0), [(3,), (6, 3)], ["over dim=0 (the tokens) where one over dim=1 (dim=-1) (d)"]),
    ("context_vector", lambda w, x: w[:, None] * x, ["weights", (6, 3)], ["is the sum over the tokens (dim=0) missing?"]),
    ("gradient_norms", lambda s: float(np.linalg.norm(s)), [(3, 4)], ["one value per query", "one per row"]),
    ("padding_mask", lambda lengths, n: np.arange(n)[None, :] < lengths[:, None], ["lengths", 3],
     ["axis of length 1", "(batch, 1, n_tokens)"]),
    ("torch_attn_mask", lambda mask, h: np.repeat(~mask, h), ["mask", 4], ["flattened"]),
    ("split_heads", lambda x, h: np.swapaxes(x.reshape(*x.shape[:-1], h, x.shape[-1] // h), 0, 1), [(2, 4, 6), 3],
     ["leading (batch) axes must stay in front"]),
    ("width_sweep", lambda q, k, w, p: np.stack([q[:, :v] @ k[:, :v].T / float(v) ** p for v in w], axis=-1),
     [(3, 8), (4, 8), "widths", 0.5], ["(n_queries, n_keys, n_widths) where (n_widths, n_queries, n_keys)"]),
], ids=["wrong_axis", "no_reduction", "one_per_row", "axis_of_one", "flattened", "batch_axis_moved", "stacked_last"])
def test_a_result_of_the_wrong_shape_is_explained_with_the_exercises_axes(exercise, function, shapes, said):
    values = {"weights": RNG.dirichlet(np.ones(6)), "lengths": np.array([2, 3]), "widths": np.array([2, 4, 8]),
              "mask": np.tril(np.ones((2, 3, 3), bool))}
    inputs = [values[s] if isinstance(s, str) else RNG.normal(size=s) if isinstance(s, tuple) else s for s in shapes]
    message = _failure(exercise, function, *inputs)
    assert all(words in message for words in said), message
    assert _titles_in(message) == 0, message


def test_what_the_inputs_a_function_is_right_on_have_in_common_is_said():
    def batched_attention(queries, keys, values, scale=True):  # right only while d_k = d_v
        # (sqrt(d_v) alone is catalogued, scale_by_sqrt_d_v: this mixes both widths)
        scores = queries @ np.swapaxes(keys, -1, -2) / (values.shape[-1] * keys.shape[-1]) ** 0.25
        return _softmax_rows(scores) @ values

    message = _failure("batched_attention", batched_attention, *RNG.normal(size=(3, 2, 3, 4)))
    assert "but wrong on other sizes" in message and "d_k = d_v" in message, message


def test_the_options_a_check_called_the_function_with_are_said():
    def batched_attention(queries, keys, values, scale=True):  # the flag ignored
        return _softmax_rows(queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])) @ values

    message = _failure("batched_attention", batched_attention, *RNG.normal(size=(3, 2, 3, 4)), scale=False)
    assert "called with scale=False" in message, message


@pytest.mark.parametrize(("exercise", "function", "shapes", "said"), [
    ("softmax_jacobian", lambda s: (np.diag(_softmax_rows(s)) - 2 * np.outer(_softmax_rows(s), _softmax_rows(s))
                                    + np.diag(_softmax_rows(s) ** 2)), [(4,)],
     ["only the entries off the diagonal are wrong"]),
    ("head_weights", "_last_head_unscaled", [(3, 4), (4, 4), (4, 4), 2], ["along axis 0 (heads), index 0 is right and 1 wrong"]),
    ("scores_for_query", lambda q, x: (x @ q).softmax(dim=-1), [(3,), (6, 3)], ["softmax of the expected one"]),
    ("width_sweep", lambda q, k, w, p: np.stack([q[:, :v] @ k[:, :v].T * float(v) ** p for v in w]),
     [(3, 8), (4, 8), "widths", 0.5], ["its own multiple", "[2, 4, 8] to the power 1", "multiplication where a division"]),
], ids=["off_diagonal", "one_head", "softmax_of_scores", "each_width_its_factor"])
def test_which_part_of_a_result_is_right_or_what_function_of_it_is_said(exercise, function, shapes, said):
    if function == "_last_head_unscaled":
        def function(inputs, w_query, w_key, n_heads):
            queries, keys = _split(inputs @ w_query, n_heads), _split(inputs @ w_key, n_heads)
            scale = np.array([np.sqrt(keys.shape[-1])] + [1.0] * (n_heads - 1))[:, None, None]
            return _softmax_rows(queries @ np.swapaxes(keys, -1, -2) / scale)
    inputs = [np.array([2, 4, 8]) if s == "widths" else RNG.normal(size=s) if isinstance(s, tuple) else s
              for s in shapes]
    message = _failure(exercise, function, *inputs)
    assert all(words in message for words in said), message
    assert _titles_in(message) == 0, message


def test_a_slice_off_by_a_factor_of_the_inputs_length_is_told_so():
    # head_patterns has no contract: its sizes are read off the input's last axis (the tokens)
    def head_patterns(weights):
        n = weights.shape[-1]
        previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum(axis=-1) / n  # n where n - 1 belongs
        special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
        itself = np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)
        return np.stack([previous, special, itself], axis=-1)

    weights = _softmax_rows(RNG.normal(size=(2, 3, 5, 5)))
    message = _failure("head_patterns", head_patterns, weights)  # a catalogued slip since blind set 3
    _only_named(message, "previous_mean_over_all_queries")
    assert "n - 1" in message, message


def test_a_size_equal_to_a_width_on_every_wrong_input_is_not_named_as_that_size():
    # sqrt(d_k) of the whole projection where each head's d_head belongs: with tokens = d_k in the check
    # (kept equal on the probe of other sizes), dividing by sqrt(tokens) gives the same numbers
    def multi_head_attention(inputs, w_query, w_key, w_value, w_out, n_heads):
        queries, keys, values = (_split(inputs @ w, n_heads) for w in (w_query, w_key, w_value))
        weights = _softmax_rows(queries @ np.swapaxes(keys, -1, -2) / np.sqrt(w_query.shape[-1]))
        return np.concatenate(list(weights @ values), axis=-1) @ w_out

    message = _failure("multi_head_attention", multi_head_attention, RNG.normal(size=(3, 4)),
                       *RNG.normal(size=(3, 4, 3)), RNG.normal(size=(3, 5)), 1)
    assert CATALOGUE["scale_by_sqrt_tokens"].title not in message, message


def test_weights_of_scores_scaled_by_another_size_are_told_which_size():
    # each head's scores divided by sqrt of the whole projected width d_k, where its own d_head belongs
    def head_weights(inputs, w_query, w_key, n_heads):
        queries, keys = _split(inputs @ w_query, n_heads), _split(inputs @ w_key, n_heads)
        return _softmax_rows(queries @ np.swapaxes(keys, -1, -2) / np.sqrt(w_query.shape[-1]))

    message = _failure("head_weights", head_weights, RNG.normal(size=(3, 4)), RNG.normal(size=(4, 6)),
                       RNG.normal(size=(4, 6)), 2)
    assert "softmax of scores" in message and "sqrt(d_k) where sqrt(d_head) belongs" in message, message
    assert _titles_in(message) == 0, message


def test_a_mask_of_the_opposite_convention_is_told_it_is_inverted(monkeypatch):
    # an exercise whose mistakes the catalogue does not list (the course's masks list inversion)
    monkeypatch.setitem(CONTRACTS, "_keep_mask", ("=n_tokens",))
    monkeypatch.setitem(all_exercises(), "_keep_mask", Exercise(
        "_keep_mask", reference=lambda n: np.tril(np.ones((n, n), dtype=bool)),
        returns="a boolean array of shape (n_tokens, n_tokens)"))
    message = _failure("_keep_mask", lambda n: np.triu(np.ones((n, n), dtype=bool), k=1), 4)
    assert "every entry is the opposite of the expected one: True and False swapped" in message, message
    assert _titles_in(message) == 0, message


def test_a_result_one_position_off_is_told_the_index_is_off_by_one():
    import torch

    def scores_for_query(query, inputs):
        return torch.stack([inputs[i - 1] @ query for i in range(len(inputs))])  # i - 1 for i

    message = _failure("scores_for_query", scores_for_query, torch.tensor(RNG.normal(size=3)),
                       torch.tensor(RNG.normal(size=(6, 3))))
    assert "one position later along dim 0: an index off by one" in message and _titles_in(message) == 0, message


def test_no_symptom_wording_carries_a_catalogued_title():
    # a title in a symptom would name that mistake for anything showing the symptom
    from pathlib import Path

    import attention_course.verdict as verdict

    code = "".join(path.read_text(encoding="utf-8") for path in Path(verdict.__file__).parent.glob("*.py"))
    joined = re.sub(r'"\s*\n\s*f?"', "", code)  # the pieces of implicitly joined strings
    assert not [m.id for m in CATALOGUE.values() if m.title in joined]


def _mhsa_inputs():
    rng = np.random.default_rng(7)
    return ((rng.normal(size=(2, 5, 8))).astype(np.float32),
            *((rng.normal(size=(8, 8)) / np.sqrt(8)).astype(np.float32) for _ in range(4)), 4, False)


def test_a_layer_left_in_training_mode_is_told_its_dropout_is_active():
    import torch

    from autograder.key import get_exercise

    reference = get_exercise("mhsa_forward").reference

    def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):  # layer.eval() forgotten
        arrays = [v.numpy() if hasattr(v, "numpy") else v for v in (inputs, w_query, w_key, w_value, w_out)]
        return torch.nn.Dropout(0.5)(torch.from_numpy(np.asarray(reference(*arrays, n_heads, causal))))

    message = _failure("mhsa_forward", mhsa_forward, *_mhsa_inputs())
    assert _titles_in(message) == 0, message  # random initial parameters change a result as well
    assert all(word in message for word in ("the same input a second time", "training mode", "dropout", "eval()"))


def _generate_inputs(n_prompt, steps):
    rng = np.random.default_rng(5)  # the stand-in's embedding (V=9), positions (context 24), output weights
    return (rng.integers(0, 9, size=(1, n_prompt)), steps, 0.0, None, rng.normal(size=(9, 5)),
            rng.normal(size=(24, 5)), rng.normal(size=(5, 9)))


def _generate_that(checks_length: bool, past_context=IndexError):
    def generate_with_stand_in(prompt, steps, temperature, top_k, embedding, positions, w_out):
        n_prompt, context = prompt.shape[-1], positions.shape[0]
        if checks_length and n_prompt + steps > context:
            raise ValueError("too long for the context")
        if n_prompt > context:
            raise past_context("the model read past its positions")
        return prompt.new_zeros((prompt.shape[0], n_prompt + steps))
    return generate_with_stand_in


def test_a_check_can_expect_the_error_the_exercise_asks_for(capsys):
    when = "n_prompt + steps > model.context_length"
    checks.check_raises("generate", _generate_that(True), *_generate_inputs(20, 5), error="ValueError", when=when)
    assert "✓ generate: raises ValueError when n_prompt + steps > model.context_length" in capsys.readouterr().out
    for n_prompt, missing in ((20, "returned a result"), (26, "raised IndexError")):
        with pytest.raises(checks.CheckFailed) as failure:
            checks.check_raises("generate", _generate_that(False), *_generate_inputs(n_prompt, 5),
                                error="ValueError", when=when)
        message = str(failure.value)
        assert f"should raise ValueError when {when}" in message and missing in message, message
        assert "raise ValueError" in message.split("but it")[1], message  # the check to add is said


def test_a_generate_that_calls_the_model_once_more_is_caught_and_not_blamed_on_the_cache():
    import torch

    from autograder.key.reference_n09 import _StandIn

    def generate_with_stand_in(prompt, steps, temperature, top_k, embedding, positions, w_out):
        model = _StandIn(embedding.numpy(), positions.numpy(), w_out.numpy(), max_calls=steps)
        tokens = prompt.numpy()
        logits, cache = model(tokens)
        for _ in range(steps):  # the model is run on the last token too, whose logits nobody reads
            tokens = np.concatenate([tokens, logits[:, -1].argmax(axis=-1)[:, None]], axis=-1)
            logits, cache = model(tokens[:, -1:], cache)
        return torch.as_tensor(tokens)

    message = _failure("generate", generate_with_stand_in, *_generate_inputs(3, 5))
    assert "called 6 times where 5 calls are enough" in message and "once more" in message, message
    assert _titles_in(message) == 0, message  # not "the cache ... was not passed back"


def test_generates_hidden_tests_expect_the_length_check():
    raising = [call for _, cell, call in _calls() if call["kind"] == "raises"]
    assert {call["exercise"] for call in raising} == {"generate"}
    assert all(call["hidden"] and call["options"]["error"] == "ValueError" for call in raising)


# --- mistakes blind sets 1-3 made in notebooks 06 to 10, each written as a learner would ----------


def _count_without(part):
    def count_parameters(vocab_size, context_length, d_model, n_layers):
        d = d_model
        mlp = 8 * d * d + (0 if part == "mlp_biases" else 5 * d)
        norms = 0 if part == "norms" else 4 * d
        final = 0 if part == "norms" else 2 * d
        return vocab_size * d + context_length * d + n_layers * (4 * d * d + mlp + norms) + final + d * vocab_size
    return count_parameters


def _loss_over_tokens(logits, targets):
    import torch

    log_p = torch.log_softmax(logits, dim=1)  # the tokens' axis of (batch, tokens, vocab)
    return -log_p.gather(-1, targets.long().unsqueeze(-1)).mean()


def _online_correction_inverted(scores, block):
    running_max = np.full(scores.shape[:-1] + (1,), -np.inf)
    running_sum = np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, scores.shape[-1], block):
        part = scores[..., start:start + block]
        new_max = np.maximum(running_max, part.max(axis=-1, keepdims=True))
        running_sum = running_sum * np.exp(new_max - running_max) + np.exp(part - new_max).sum(axis=-1, keepdims=True)
        running_max = new_max
    return np.exp(scores - running_max) / running_sum


def _grouped_causal(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    keys, values = np.repeat(keys, group, axis=-3), np.repeat(values, group, axis=-3)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    allowed = np.tril(np.ones(scores.shape[-2:], dtype=bool), k=keys.shape[-2] - queries.shape[-2])
    return ref.softmax(np.where(allowed, scores, -np.inf)) @ values


@pytest.mark.parametrize(("exercise", "function", "mistake"), [
    ("count_parameters", _count_without("mlp_biases"), "parameters_mlp_biases_missing"),
    ("count_parameters", _count_without("norms"), "parameters_layer_norms_missing"),
    ("causal_lm_loss", _loss_over_tokens, "loss_softmax_over_tokens"),
    ("online_softmax", _online_correction_inverted, "online_sum_not_rescaled"),
    ("grouped_query_attention", _grouped_causal, "causal_mask_not_asked"),
])
def test_slips_of_blind_sets_in_notebooks_09_and_10_are_named(exercise, function, mistake):
    visible = [call["probes"][0]["inputs"] for _, _, call in _calls()
               if call["exercise"] == exercise and call["kind"] == "check" and not call["hidden"]]
    assert visible, exercise
    for inputs in visible[:2]:
        message = _failure(exercise, function, *inputs)
        assert CATALOGUE[mistake].title in message, message


def test_d_head_read_off_the_inputs_width_is_named():
    def head_weights(inputs, w_query, w_key, n_heads):
        d_head = inputs.shape[-1] // n_heads  # the inputs' width, not the projections'
        queries, keys = (ref.split_heads(inputs @ w, n_heads) for w in (w_query, w_key))
        return ref.softmax(queries @ np.swapaxes(keys, -1, -2) / np.sqrt(d_head))

    rng = np.random.default_rng(606)
    message = _failure("head_weights", head_weights, rng.normal(size=(5, 6)), rng.normal(size=(6, 4)),
                       rng.normal(size=(6, 4)), 2)
    _only_named(message, "d_head_from_input_width")


def _embedding_inputs():
    rng = np.random.default_rng(808)
    return (np.array([[3, 7, 1, 9, 4], [2, 2, 8, 0, 5]]), np.array([[0, 0, 1, 1, 1], [0, 0, 0, 1, 1]]),
            rng.normal(size=(10, 8)), rng.normal(size=(6, 8)), rng.normal(size=(2, 8)),
            np.stack([1 + 0.3 * rng.normal(size=8), 0.3 * rng.normal(size=8)]))


@pytest.mark.parametrize(("slip", "mistake"), [
    ("norm_rows_swapped", "layer_norm_scale_shift_swapped"),
    ("types_row_zero", "embedding_lookup_wrong_ids"),
    ("positions_by_ids", "embedding_lookup_wrong_ids"),
])
def test_slips_of_bert_embeddings_are_named(slip, mistake):
    from autograder.key.reference_n08 import layer_norm

    def bert_embeddings(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings, embedding_norm):
        positions = token_ids if slip == "positions_by_ids" else np.arange(token_ids.shape[1])
        types = np.zeros_like(token_types) if slip == "types_row_zero" else token_types
        summed = word_embeddings[token_ids] + position_embeddings[positions] + type_embeddings[types]
        gamma, beta = embedding_norm[::-1] if slip == "norm_rows_swapped" else embedding_norm
        return layer_norm(summed, gamma, beta)

    _only_named(_failure("bert_embeddings", bert_embeddings, *_embedding_inputs()), mistake)


def test_the_rows_of_the_special_tokens_are_named_where_their_columns_belong():
    def head_patterns(weights):
        previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
        special = (weights[..., 0, :] + weights[..., -1, :]).mean(axis=-1)  # rows, not columns
        return np.stack([previous, special, np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)], axis=-1)

    weights = ref.softmax(np.random.default_rng(809).normal(size=(2, 3, 6, 6)) * 2)
    _only_named(_failure("head_patterns", head_patterns, weights), "special_tokens_rows")


@pytest.mark.parametrize(("slip", "mistake"), [
    ("specials_halved", "special_tokens_averaged"),
    ("previous_over_n", "previous_mean_over_all_queries"),
])
def test_slips_of_head_patterns_are_named(slip, mistake):
    def head_patterns(weights):
        diagonal = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1)
        previous = diagonal.sum(axis=-1) / weights.shape[-1] if slip == "previous_over_n" else diagonal.mean(axis=-1)
        special = (weights[..., :, 0] + weights[..., :, -1]) / (2 if slip == "specials_halved" else 1)
        return np.stack([previous, special.mean(axis=-1), np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)],
                        axis=-1)

    weights = ref.softmax(np.random.default_rng(810).normal(size=(2, 3, 6, 6)) * 2)
    _only_named(_failure("head_patterns", head_patterns, weights), mistake)


def test_a_layer_norm_over_the_whole_tensor_is_named():
    def layer_norm(x, gamma, beta, eps=1e-5):
        mean = x.mean()
        return (x - mean) / ((x - mean) ** 2).mean().add(eps).sqrt() * gamma + beta

    inputs = [i for _, _, call in _calls() if call["exercise"] == "layer_norm" and not call["hidden"]
              for i in [call["probes"][0]["inputs"]]][0]
    assert CATALOGUE["layer_norm_wrong_axis"].title in _failure("layer_norm", layer_norm, *inputs)


def test_a_second_residual_that_adds_the_blocks_input_is_named():
    from autograder.key import reference_n09 as ref9

    def second_from_inputs(x, attend, mlp, norm):
        hidden = x + attend(norm(x, 0))
        return x + mlp(norm(hidden, 1))

    def block_forward(*inputs):  # the learner's block with out = x + mlp(norm_2(h))
        return ref9.block(*(v.numpy() if hasattr(v, "numpy") else v for v in inputs), wiring=second_from_inputs)

    inputs = [call["probes"][0]["inputs"] for _, _, call in _calls()
              if call["exercise"] == "block_forward" and not call["hidden"]][0]
    _only_named(_failure("block_forward", block_forward, *inputs), "second_residual_from_block_input")


def test_logits_outside_the_top_k_set_to_zero_are_named():
    import torch

    def next_token_probabilities(logits, temperature, top_k=None):
        logits = logits / temperature
        if top_k is not None and top_k < logits.shape[-1]:
            kth = torch.topk(logits, top_k, dim=-1).values[..., -1:]
            logits = logits.masked_fill(logits < kth, 0.0)  # 0 where -inf belongs
        return torch.softmax(logits, dim=-1)

    logits = np.random.default_rng(906).normal(size=(3, 7)).astype(np.float32)
    _only_named(_failure("next_token_probabilities", next_token_probabilities, logits, 1.5, 3), "mask_with_zero")
# --- notebooks 01-05: mistakes catalogued after blind sets 1-3 -----------------------------------


def _sum_of_inputs(weights, inputs):
    return inputs.sum(axis=0)  # the weights left out


def _self_attention_scaled(inputs):
    return ref.softmax(inputs @ inputs.T / np.sqrt(inputs.shape[-1])) @ inputs  # scaled, though unscaled is asked


def _state_attention_on_states(state, states, w_query, w_key, w_value):
    keys = states @ w_key
    return ref.softmax(keys @ (state @ w_query) / np.sqrt(keys.shape[-1])) @ states  # W_V left out


def _jacobian_elementwise(scores):
    p = ref.softmax(scores)
    return np.diag(p) - p * p


def _jacobian_dot(scores):
    p = ref.softmax(scores)
    return np.diag(p) - p @ p


def _gradient_norms_summing_abs(scores):
    p = ref.softmax(scores)
    return np.array([np.abs(np.diag(row) - np.outer(row, row)).sum() for row in p])


def _width_sweep_one_extra(queries, keys, widths, power):
    return np.stack([queries[:, :w + 1] @ keys[:, :w + 1].T / w ** power for w in widths])


@pytest.mark.parametrize(("exercise", "function", "shapes", "mistake"), [
    ("context_vector", _sum_of_inputs, [(5,), (5, 3)], "context_without_weights"),
    ("self_attention_no_weights", _self_attention_scaled, [(5, 4)], "unscaled_attention_scaled"),
    ("state_attention", _state_attention_on_states, [(3,), (4, 3), (3, 2), (3, 2), (3, 5)], "values_not_projected"),
    ("softmax_jacobian", _jacobian_elementwise, [(5,)], "jacobian_inner_product"),
    ("softmax_jacobian", _jacobian_dot, [(5,)], "jacobian_inner_product"),
    ("gradient_norms", _gradient_norms_summing_abs, [(3, 5)], "gradient_norm_sum_of_abs"),
    ("width_sweep", _width_sweep_one_extra, [(3, 8), (4, 8), [1, 2, 4], 0.5], "width_slice_off_by_one"),
], ids=["context_vector_unweighted", "self_attention_scaled", "state_attention_on_states",
        "jacobian_elementwise", "jacobian_dot", "gradient_norms_sum_of_abs", "width_sweep_one_extra"])
def test_slips_of_notebooks_01_to_05_after_three_blind_sets_are_named(exercise, function, shapes, mistake):
    rng = np.random.default_rng(23)
    inputs = [rng.normal(size=s) if isinstance(s, tuple) else s for s in shapes]
    if exercise == "context_vector":
        import torch
        inputs = [torch.tensor(ref.softmax(inputs[0])), torch.tensor(inputs[1])]
    if exercise == "self_attention_no_weights":
        import torch
        inputs = [torch.tensor(x) for x in inputs]
        function = _torch_of(_self_attention_scaled)
    _only_named(_failure(exercise, function, *inputs), mistake)


def _torch_of(function):
    import torch

    return lambda tensor: torch.tensor(function(tensor.numpy()))
# --- slips the catalogue leaves out, described in the exercise's words (verdict.slips) -----------


def _variance_keys_reshaped(queries, keys):
    return np.var(queries @ keys.reshape(keys.shape[1], keys.shape[0]))


@pytest.mark.parametrize(("exercise", "function", "shapes", "said"), [
    ("gradient_norms", lambda scores: np.array([np.abs(np.diag(p) - np.outer(p, p)).max()
                                                for p in ref.softmax(scores)]), [(3, 5)], "Frobenius"),
    ("score_variance", _variance_keys_reshaped, [(4, 6), (5, 6)], "reshape"),
    ("masked_attention", lambda q, k, v, mask: ref.softmax(q @ k.T / np.sqrt(k.shape[-1])) @ v,
     [(3, 4), (5, 4), (5, 2), "mask"], "without the mask"),
], ids=["norm_not_frobenius", "keys_reshaped_not_transposed", "mask_ignored"])
def test_a_slip_the_catalogue_leaves_out_is_described_without_a_title(exercise, function, shapes, said):
    rng = np.random.default_rng(23)
    inputs = [np.tril(np.ones((3, 5), dtype=bool)) if s == "mask" else rng.normal(size=s) if isinstance(s, tuple)
              else s for s in shapes]
    message = _failure(exercise, function, *inputs)
    assert "your result matches" in message and said in message and _titles_in(message) == 0, message


def test_a_one_entry_array_where_a_scalar_is_asked_is_told_so():
    def score_variance(queries, keys):
        return np.array([np.var(queries @ keys.T)])

    message = _failure("score_variance", score_variance, RNG.normal(size=(4, 6)), RNG.normal(size=(5, 6)))
    assert "an array of one entry where a scalar" in message, message


# --- slips of blind sets 4 and 5, written as a learner would (not through the key's mutants) --------


def _visible_inputs(exercise):
    return [call["probes"][0]["inputs"] for _, _, call in _calls()
            if call["exercise"] == exercise and not call["hidden"]][0]


def _numpy(*inputs):
    return [v.numpy() if hasattr(v, "numpy") else v for v in inputs]


def _learner_block(first_from="x", mlp_normed=True, swap_first_norm=False, mlp_reshaped=False):
    """A pre-LN block in NumPy with one slip: the first residual from LN1(x), the MLP reading h without
    norm_2, norm_1's gamma and beta read the other way, or the MLP's weights reshaped, not transposed."""
    from autograder.key import reference_n07 as ref7
    from autograder.key.reference_n08 import gelu

    def norm(x, gamma, beta):
        mean = x.mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(((x - mean) ** 2).mean(-1, keepdims=True) + 1e-5) * gamma + beta

    def block_forward(*inputs):
        x, attention_w, w_in, b_in, w_out, b_out, norms, n_heads = _numpy(*inputs)
        g1, b1 = (norms[0, 1], norms[0, 0]) if swap_first_norm else (norms[0, 0], norms[0, 1])
        if mlp_reshaped:
            w_in, w_out = w_in.reshape(w_in.shape[::-1]).T, w_out.reshape(w_out.shape[::-1]).T
        a = norm(x, g1, b1)
        h = (a if first_from == "normed" else x) + ref7.mhsa(a, *attention_w, n_heads, True)
        m = norm(h, norms[1, 0], norms[1, 1]) if mlp_normed else h
        return h + gelu(m @ w_in + b_in) @ w_out + b_out

    return block_forward


def _encode_sorted(text, vocabulary):
    index = {c: i for i, c in enumerate(sorted(vocabulary))}
    return np.array([index[c] for c in text], dtype=np.int64)


def _heads_summed(inputs, w_query, w_key, w_value, w_out, n_heads):
    weights = ref.attention_weights(ref.split_heads(inputs @ w_query, n_heads), ref.split_heads(inputs @ w_key, n_heads))
    out = weights @ ref.split_heads(inputs @ w_value, n_heads)  # (..., heads, tokens, d_head)
    return out.sum(axis=-3) @ w_out[: out.shape[-1]]


def _rope_in_place(x, positions):
    x = np.array(x, dtype=np.float64)
    d = x.shape[-1]
    angles = np.asarray(positions, dtype=np.float64)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    out = x.copy()
    out[..., 0::2] = out[..., 0::2] * np.cos(angles) - out[..., 1::2] * np.sin(angles)
    out[..., 1::2] = out[..., 0::2] * np.sin(angles) + out[..., 1::2] * np.cos(angles)
    return out


def _online_softmax_final_by_block_max(scores, block):
    m, s = np.full(scores.shape[:-1] + (1,), -np.inf), np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, scores.shape[-1], block):
        block_m = scores[..., start:start + block].max(-1, keepdims=True)
        new_m = np.maximum(m, block_m)
        s = s * np.exp(m - new_m) + np.exp(scores[..., start:start + block] - new_m).sum(-1, keepdims=True)
        m = new_m
    return np.exp(scores - block_m) / s


def _grouped_keys_repeated_only(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    return ref.attention(queries, np.repeat(keys, group, axis=-3), values)


@pytest.mark.parametrize(("exercise", "function", "mistake"), [
    ("block_forward", _learner_block(first_from="normed"), "residual_after_norm"),
    ("block_forward", _learner_block(mlp_normed=False), "layer_norm_missing"),
    ("block_forward", _learner_block(swap_first_norm=True), "layer_norm_scale_shift_swapped"),
    ("block_forward", _learner_block(mlp_reshaped=True), "linear_weight_not_transposed"),
    ("encode", _encode_sorted, "token_ids_from_sorted_vocabulary"),
    ("multi_head_attention", _heads_summed, "heads_summed"),
    ("rotary_embedding", _rope_in_place, "rope_pair_overwritten_before_use"),
    ("online_softmax", _online_softmax_final_by_block_max, "online_final_with_last_block_max"),
    ("grouped_query_attention", _grouped_keys_repeated_only, "kv_heads_not_repeated"),
], ids=["first_residual_from_the_normalised_input", "mlp_without_norm_2", "norm_1_gamma_beta_swapped",
        "mlp_weights_reshaped", "ids_from_sorted_vocabulary", "heads_summed", "rope_pair_overwritten",
        "online_final_by_last_block_max", "grouped_values_not_repeated"])
def test_slips_of_blind_sets_four_and_five_are_named(exercise, function, mistake):
    # the visible check's vocabulary is sorted already: the slip shows on one in its own order
    inputs = ["hello there", "ohtlre e"] if exercise == "encode" else _visible_inputs(exercise)
    _only_named(_failure(exercise, function, *inputs), mistake)


# --- slips of blind sets 6 and 7, written as a learner would (not through the key's mutants) --------


def _gram_features(inputs):
    inputs = _numpy(inputs)[0]
    scores = inputs.T @ inputs  # (d, d)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    return inputs @ (weights / weights.sum(-1, keepdims=True))


def _learner_jacobian(slip):
    def softmax_jacobian(scores):
        p = np.exp(scores - scores.max())
        p = p / p.sum()
        return {"minus_p": np.diag(p) - p, "identity": np.eye(len(p)) - np.outer(p, p),
                "plus": np.diag(p) + np.outer(p, p)}[slip]
    return softmax_jacobian


def _variance_from_formula(queries, keys):
    return float(np.var(queries) * np.var(keys) * queries.shape[-1])


def _layer_norm_sqrt_twice(x, gamma, beta, eps=1e-5):
    x, gamma, beta = _numpy(x, gamma, beta)
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / (np.sqrt(np.sqrt(var)) + eps) * gamma + beta


def _online_rescale_inverted_guarded(scores, block):
    m, s = np.full(scores.shape[:-1] + (1,), -np.inf), np.zeros(scores.shape[:-1] + (1,))
    for start in range(0, scores.shape[-1], block):
        part = scores[..., start:start + block]
        new_m = np.maximum(m, part.max(-1, keepdims=True))
        s = s * np.exp(np.where(np.isfinite(m), new_m - m, 0)) + np.exp(part - new_m).sum(-1, keepdims=True)
        m = new_m
    return np.exp(scores - m) / s


def _blocked_lower_right(queries, keys, values, block, causal=False):
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    if causal:
        n_q, n_k = scores.shape[-2:]
        scores = np.where(np.arange(n_k)[None, :] <= np.arange(n_q)[:, None] + n_k - n_q, scores, -np.inf)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    return weights / weights.sum(-1, keepdims=True) @ values


def _sinusoid_column_exponent(n_positions, d_model):
    import torch

    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    j = torch.arange(d_model, dtype=torch.float64)[None, :]
    angle = t / 10000 ** (2 * j / d_model)
    return torch.where(torch.arange(d_model) % 2 == 0, torch.sin(angle), torch.cos(angle)).float()


def _rope_exponent_doubled(x, positions):
    import torch

    d = x.shape[-1]
    angle = positions.to(x.dtype)[:, None] * 10000.0 ** (-2 * torch.arange(0, d, 2, dtype=x.dtype) / d)
    out = torch.empty_like(x)
    out[..., 0::2] = x[..., 0::2] * torch.cos(angle) - x[..., 1::2] * torch.sin(angle)
    out[..., 1::2] = x[..., 0::2] * torch.sin(angle) + x[..., 1::2] * torch.cos(angle)
    return out


def _query_mask_filled(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = ref.split_heads(hidden @ w_query + b_query, n_heads)
    keys = ref.split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1])
    scores = np.where(mask[:, None, :, None] == 1, scores, -1e9)  # the queries' rows, not the keys' columns
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    return weights / weights.sum(-1, keepdims=True)


def _mask_added(hidden, w_query, b_query, w_key, b_key, mask, n_heads):
    queries = ref.split_heads(hidden @ w_query + b_query, n_heads)
    keys = ref.split_heads(hidden @ w_key + b_key, n_heads)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1]) + mask[:, None, None, :]
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    return weights / weights.sum(-1, keepdims=True)


def _weights_for_every_head_at_once(inputs, w_query, w_key, n_heads):
    queries, keys = inputs @ w_query, inputs @ w_key
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1] // n_heads)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    return np.repeat((weights / weights.sum(-1, keepdims=True))[..., None, :, :], n_heads, axis=-3)


def _grouped_scaled_by_heads(queries, keys, values):
    group = queries.shape[-3] // keys.shape[-3]
    keys, values = np.repeat(keys, group, axis=-3), np.repeat(values, group, axis=-3)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-3])
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    return weights / weights.sum(-1, keepdims=True) @ values


def _combine_last_axes_swapped(x):
    *lead, heads, tokens, d_head = x.shape
    return np.swapaxes(x, -1, -2).reshape(*lead, tokens, heads * d_head)


def _padding_mask_reshaped(lengths, n_tokens):
    return (np.arange(n_tokens)[:, None] < lengths[None, :]).reshape(len(lengths), 1, n_tokens)


def _blocks_averaged(queries, keys, values, block, causal=False):
    parts = []
    for start in range(0, keys.shape[-2], block):
        scores = queries @ np.swapaxes(keys[..., start:start + block, :], -1, -2) / np.sqrt(keys.shape[-1])
        weights = np.exp(scores - scores.max(-1, keepdims=True))
        parts.append(weights / weights.sum(-1, keepdims=True) @ values[..., start:start + block, :])
    return sum(parts) / len(parts)


def _blind_inputs(exercise):
    if exercise == "bert_head_weights":  # the visible check's own input, with padding (no stored plan)
        from attention_course import expected

        return list(expected.exercise(exercise)["probes"][0]["probe"]["inputs"])
    if exercise == "blocked_attention":  # more queries than keys, where the two alignments differ
        return [RNG.normal(size=(5, 3)), RNG.normal(size=(4, 3)), RNG.normal(size=(4, 2)), 2, True]
    if exercise == "online_softmax":  # a maximum that grows after the first block
        return [np.sort(RNG.normal(size=(3, 8)), axis=-1), 3]
    return _visible_inputs(exercise)


@pytest.mark.parametrize(("exercise", "function", "mistake"), [
    ("self_attention_no_weights", _gram_features, "scores_features_by_features"),
    ("softmax_jacobian", _learner_jacobian("minus_p"), "jacobian_outer_product_missing"),
    ("softmax_jacobian", _learner_jacobian("identity"), "jacobian_identity_for_diagonal"),
    ("softmax_jacobian", _learner_jacobian("plus"), "jacobian_outer_product_added"),
    ("score_variance", _variance_from_formula, "variance_from_formula"),
    ("layer_norm", _layer_norm_sqrt_twice, "layer_norm_not_divided_by_std"),
    ("online_softmax", _online_rescale_inverted_guarded, "online_sum_not_rescaled"),
    ("blocked_attention", _blocked_lower_right, "causal_mask_lower_right"),
    ("sinusoidal_encoding", _sinusoid_column_exponent, "sinusoid_wrong_exponent"),
    ("rotary_embedding", _rope_exponent_doubled, "sinusoid_wrong_exponent"),
    ("bert_head_weights", _query_mask_filled, "padding_mask_on_queries"),
    ("bert_head_weights", _mask_added, "mask_added_to_scores"),
    ("head_weights", _weights_for_every_head_at_once, "heads_not_split"),
    ("grouped_query_attention", _grouped_scaled_by_heads, "scale_by_number_of_heads"),
    ("combine_heads", _combine_last_axes_swapped, "heads_wrong_axes_swapped"),
    ("padding_mask", _padding_mask_reshaped, "mask_reshaped_not_transposed"),
    ("blocked_attention", _blocks_averaged, "blocks_normalised_separately"),
], ids=["gram_of_features", "jacobian_minus_p", "jacobian_identity", "jacobian_plus_outer", "variance_formula",
        "layer_norm_sqrt_twice", "online_rescale_inverted", "causal_lower_right", "sinusoid_column_exponent",
        "rope_exponent_doubled", "query_rows_masked_finite", "mask_added", "heads_not_split",
        "grouped_scaled_by_heads", "combine_last_axes_swapped", "padding_mask_reshaped", "blocks_averaged"])
def test_slips_of_blind_sets_six_and_seven_are_named(exercise, function, mistake):
    inputs = _blind_inputs(exercise)
    if mistake == "blocks_normalised_separately":  # no causal mask, three blocks of keys
        inputs = [RNG.normal(size=(3, 4)), RNG.normal(size=(6, 4)), RNG.normal(size=(6, 2)), 2]
    message = _failure(exercise, function, *inputs)
    if mistake == "causal_mask_lower_right":
        # with one query more than keys, the lower-right mask hides the diagonal: both are said
        assert CATALOGUE[mistake].title in message and CATALOGUE["causal_mask_off_by_one"].title in message, message
        assert _titles_in(message) == 2, message
    else:
        _only_named(message, mistake)


def test_a_result_divided_by_its_sum_is_said_so():
    def scores_for_query(query, inputs):
        scores = inputs @ query
        return scores / scores.sum()

    message = _failure("scores_for_query", scores_for_query, *_visible_inputs("scores_for_query"))
    assert "divided by its sum" in message, message


# --- slips of blind sets 8 and 9, after their first runs (written as a learner would) -------------


def _entropy_eps_in_log(scores):
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    weights = weights / weights.sum(-1, keepdims=True)
    return -np.sum(weights * np.log(weights + 1e-9), axis=-1)


def _loss_log_of_softmax(logits, targets):
    import torch

    picked = torch.softmax(logits, dim=-1).gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return -torch.log(picked).mean()


def _top_k_flattened(logits, temperature, top_k=None):
    import torch

    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.topk(logits.flatten(), top_k).values[-1]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def _first_run_inputs(exercise):
    """The slips' inputs (:func:`_blind_inputs`), with those that the slips of blind sets 8 and 9 need."""
    import torch

    if exercise == "causal_lm_loss":  # logits far apart, and one target's probability underflows in float32
        rng = np.random.default_rng(89)  # its own generator: the inputs do not depend on the tests run before
        logits, targets = rng.normal(size=(2, 3, 5)) * 60, rng.integers(0, 5, size=(2, 3))
        logits[0, 0, targets[0, 0]] = logits[0, 0].max() - 200.0  # e^-200 is 0 in float32
        return [torch.tensor(logits, dtype=torch.float32), torch.tensor(targets)]
    if exercise == "next_token_probabilities":
        return [torch.tensor(RNG.normal(size=(3, 6)), dtype=torch.float32), 1.0, 2]
    return _blind_inputs(exercise)


@pytest.mark.parametrize(("exercise", "function", "mistake"), [
    ("attention_entropy", _entropy_eps_in_log, "epsilon_in_log"),
    ("causal_lm_loss", _loss_log_of_softmax, "log_of_softmax"),
    ("next_token_probabilities", _top_k_flattened, "top_k_over_whole_batch"),
], ids=["entropy_eps_in_log", "loss_log_of_softmax", "top_k_flattened"])
def test_slips_of_blind_sets_eight_and_nine_are_named(exercise, function, mistake):
    # an eps in the log can equal a lower precision, and log(0) an overflow, on every input tried:
    # then both are said, this one among them
    message = _failure(exercise, function, *_first_run_inputs(exercise))
    assert CATALOGUE[mistake].title in message, message
    assert _titles_in(message) <= 2, message


def test_a_floor_division_by_the_whole_root_that_leaves_the_scores_unscaled_is_told_why():
    # on the visible check's integer inputs d_k = 3: int(np.sqrt(3)) is 1, and `// 1` changes nothing
    def state_weights(state, states, w_query, w_key):
        scores = (states @ w_key) @ (state @ w_query) // int(np.sqrt(w_key.shape[-1]))
        weights = np.exp(scores - scores.max())
        return weights / weights.sum()

    message = _failure("state_weights", state_weights, *_visible_inputs("state_weights"))
    assert CATALOGUE["no_scaling"].title in message and "//" in message and "int(np.sqrt(3)) is 1" in message, message


# --- slips that several blind sets wrote (each set written without the catalogue) ---------------------


def _variance_of_matched_pairs(queries, keys):
    n = min(len(queries), len(keys))
    return float(np.var(np.sum(queries[:n] * keys[:n], axis=1)))


def _variance_of_products(queries, keys):
    n = min(len(queries), len(keys))
    return float(np.var(queries[:n] * keys[:n]))


def _entropy_of_scores_over_their_sum(scores):
    p = np.abs(scores) / np.abs(scores).sum(axis=-1, keepdims=True)
    return -(p * np.log(np.where(p > 0, p, 1.0))).sum(axis=-1)


def _heads_averaged(x):
    return x.mean(axis=-3)


def _words_normalised_first(token_ids, token_types, word_embeddings, position_embeddings, type_embeddings,
                            embedding_norm):
    from autograder.key.reference_n08 import layer_norm

    words = layer_norm(word_embeddings[token_ids], embedding_norm[0], embedding_norm[1])
    return words + position_embeddings[:token_ids.shape[-1]] + type_embeddings[token_types]


def _encode_with_own_vocabulary(text, vocabulary):
    import torch

    ids = {character: i for i, character in enumerate(sorted(set(text)))}
    return torch.tensor([ids[character] for character in text], dtype=torch.int64)


def _loss_of_probabilities(logits, targets):
    import torch

    return -torch.softmax(logits, dim=-1).gather(-1, targets[..., None]).mean()


def _blocks_softmaxed_alone(queries, keys, values, block, causal=False):
    rows = np.arange(queries.shape[-2])[:, None]
    outputs = []
    for start in range(0, keys.shape[-2], block):
        scores = queries @ keys[start:start + block].T / np.sqrt(keys.shape[-1])
        if causal:  # a finite fill: a block whose keys are all hidden gets uniform weights
            scores = np.where(np.arange(start, start + len(keys[start:start + block]))[None, :] <= rows, scores, -1e30)
        weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
        outputs.append(weights / weights.sum(axis=-1, keepdims=True) @ values[start:start + block])
    return sum(outputs) / len(outputs)


def _kv_repeated_by_their_count(queries, keys, values):
    copies = keys.shape[-3]  # n_kv_heads where n_heads // n_kv_heads belongs
    keys, values = np.repeat(keys, copies, axis=-3), np.repeat(values, copies, axis=-3)
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(keys.shape[-1])
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True) @ values


def _learner_bert_layer(residuals: str):
    """A post-LN BERT layer written out: its residuals as asked (``"none"``, or ``"from_hidden"``: the
    feed-forward's residual adds the layer's input, not the normalised x)."""
    from scipy.special import erf

    from autograder.key import reference as ref
    from autograder.key import reference_n08 as bert

    def bert_layer(hidden, mask, attention_w, attention_b, ffn_w_in, ffn_b_in, ffn_w_out, ffn_b_out, norms, n_heads):
        w_query, w_key, w_value, w_out = attention_w
        b_query, b_key, b_value, b_out = attention_b
        weights = bert.bert_head_weights(hidden, w_query, b_query, w_key, b_key, mask, n_heads)
        values = ref.split_heads(hidden @ w_value + b_value, n_heads)
        attended = ref.combine_heads(weights @ values) @ w_out + b_out
        x = bert.layer_norm(attended if residuals == "none" else hidden + attended, *norms[0])
        inner = x @ ffn_w_in + ffn_b_in
        out = 0.5 * inner * (1 + erf(inner / np.sqrt(2))) @ ffn_w_out + ffn_b_out
        return bert.layer_norm({"none": out, "from_hidden": hidden + out}[residuals], *norms[1])

    return bert_layer


@pytest.mark.parametrize(("exercise", "function", "mistakes"), [
    ("bert_layer", _learner_bert_layer("from_hidden"), ["second_residual_from_block_input"]),
    ("grouped_query_attention", _kv_repeated_by_their_count, ["kv_heads_repeated_by_their_count"]),
    ("blocked_attention", _blocks_softmaxed_alone, ["blocks_normalised_separately"]),
    ("bert_layer", _learner_bert_layer("none"), ["residual_missing"]),
    ("score_variance", _variance_of_matched_pairs, ["matched_pairs_only"]),
    ("score_variance", _variance_of_products, ["sum_instead_of_dot"]),
    ("attention_entropy", _entropy_of_scores_over_their_sum, ["normalise_by_sum"]),
    ("combine_heads", _heads_averaged, ["heads_averaged"]),
    ("bert_embeddings", _words_normalised_first, ["layer_norm_before_the_sum"]),
    ("encode", _encode_with_own_vocabulary, ["token_ids_from_sorted_vocabulary"]),
    ("causal_lm_loss", _loss_of_probabilities, ["loss_without_log_softmax"]),
], ids=["second_residual_from_hidden", "kv_repeated_by_count", "blocks_softmaxed_alone", "no_residuals", "matched_pairs", "products_of_rows", "entropy_over_sum", "heads_averaged", "norm_before_sum",
        "own_vocabulary", "loss_of_probabilities"])
def test_slips_that_several_blind_sets_wrote_are_named(exercise, function, mistakes):
    if exercise in ("bert_embeddings", "bert_layer"):  # the check's own input (notebook 08 stores no plan)
        from attention_course import expected

        inputs = list(expected.exercise(exercise)["probes"][0]["probe"]["inputs"])
    elif exercise == "encode":  # a vocabulary in an order of its own, not the text's sorted characters
        inputs = ["a truth universally acknowledged", "yuwvt srolnkihgedca"]
    else:
        inputs = _first_run_inputs(exercise)
    message = _failure(exercise, function, *inputs)
    assert all(CATALOGUE[m].title in message for m in mistakes), message
    assert _titles_in(message) == len(mistakes), message


def test_a_block_norm_left_out_and_gammas_alone_read_the_same_count_and_are_said_together():
    from autograder.key import reference_n09 as ref9

    def count_parameters(vocab_size, context_length, d_model, n_layers):  # norm_1 and norm_2 as one
        return int(ref9.count_parameters(vocab_size, context_length, d_model, n_layers)) - 2 * d_model * n_layers

    message = _failure("count_parameters", count_parameters, *_visible_inputs("count_parameters"))
    assert CATALOGUE["parameters_one_norm_per_block"].title in message, message
    assert CATALOGUE["parameters_layer_norm_gamma_only"].title in message and _titles_in(message) == 2, message


def test_a_diagonal_of_the_first_two_axes_is_told_where_a_stack_of_weights_breaks_np_stack():
    def head_patterns(weights):  # np.diagonal's default axes are 0 and 1: right on one matrix only
        previous = np.diagonal(weights, offset=-1).mean(axis=-1)
        special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
        itself = np.diagonal(weights).mean(axis=-1)
        return np.stack([previous, special, itself], axis=-1)

    message = _failure("head_patterns", head_patterns, RNG.dirichlet(np.ones(5), size=(3, 2, 5)))
    assert "np.stack" in message and "axis1=-2, axis2=-1" in message and "last two axes" in message, message


def test_axes_moved_by_the_wrong_transpose_say_so():
    def split_heads(x, n_heads):  # the last two axes swapped where heads and tokens should be
        *lead, tokens, d_model = x.shape
        return np.swapaxes(x.reshape(*lead, tokens, n_heads, d_model // n_heads), -1, -2)

    message = _failure("split_heads", split_heads, *_visible_inputs("split_heads"))
    assert "the right numbers, but with" in message and "the wrong axes swapped" in message, message


def test_an_integer_result_wrong_on_float_inputs_too_is_not_called_integer_arithmetic():
    def state_attention(state, states, w_query, w_key, w_value):  # hard attention: one state's value
        scores = (states @ w_key) @ (state @ w_query)
        return (states @ w_value)[np.argmax(scores)]

    message = _failure("state_attention", state_attention, *_visible_inputs("state_attention"))
    assert _titles_in(message) == 0, message


def test_an_error_of_no_known_kind_names_only_a_mistake_raising_the_very_same_error():
    from attention_course.verdict.errors import explain_error
    from attention_course.verdict.naming import matches

    nan_draw = "probability tensor contains either `inf`, `nan` or element < 0"
    outcome = {"status": "raised", "type": "RuntimeError", "message": nan_draw}
    no_cache = [{"error": "the model was called without the cache it returned", "value": None}]
    assert not matches(outcome, no_cache, np.float32, {})
    assert matches(outcome, [{"error": nan_draw, "value": None}], np.float32, {})
    said = explain_error(nan_draw, "generate", {"inputs": [], "kwargs": {}}, "torch")
    assert "temperature of 0" in said and "argmax" in said and "greedy" in said, said


@pytest.mark.parametrize(("mistake", "words"), [
    ("heads_interleaved", ["interleaved", "strided", "contiguous"]),
    ("top_k_off_by_one", ["threshold", "values[..., -1]"]),
    ("jacobian_diagonal_only", ["outer product", "np.outer", "p p^T"]),
])
def test_titles_and_hints_say_the_words_learners_use_for_the_slip(mistake, words):
    # words the blind sets' authors keyed these slips with, which the earlier wording lacked
    text = f"{CATALOGUE[mistake].title}. {CATALOGUE[mistake].hint}"
    assert all(word in text for word in words), text


def test_norms_read_across_the_two_layer_norms_are_named_as_mixed_up():
    import torch

    from autograder.key import reference_n09 as ref9

    def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
        # norm_1 = (norms[0][0], norms[1][0]), norm_2 = (norms[0][1], norms[1][1]): the layout read across
        across = torch.as_tensor(norms).transpose(0, 1).contiguous()
        return torch.as_tensor(ref9.block(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out,
                                          across.numpy(), n_heads))

    message = _failure("block_forward", block_forward, *_visible_inputs("block_forward"))
    _only_named(message, "layer_norms_mixed_up")
    assert "norms[0, 1], not norms[1, 0]" in message, message


def test_parts_that_do_not_broadcast_on_a_stack_of_weights_are_told_the_first_axes_too():
    def head_patterns(weights):  # np.diagonal without axes, its parts broadcast before stacking
        previous = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)
        special = (weights[..., :, 0] + weights[..., :, -1]).mean(axis=-1)
        itself = np.diagonal(weights).mean(axis=-1)
        return np.stack(np.broadcast_arrays(previous, special, itself), axis=-1)

    message = _failure("head_patterns", head_patterns, RNG.dirichlet(np.ones(5), size=(3, 2, 5)))
    assert "do not broadcast" in message and "axis1=-2, axis2=-1" in message, message
