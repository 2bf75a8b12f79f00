"""Mistakes generated from the reference's own code (autograder/key/generated.py).

A slip nobody catalogued but that is ONE edit of the reference (a term left out, a square root
left out, the other axis) is said in words built from the edit; the reference itself is never
such a mistake, and an edit that changes nothing is dropped.
"""

from __future__ import annotations

import ast

import numpy as np
import pytest
import torch

from attention_course import checks
from attention_course.mistakes import CATALOGUE
from attention_course.verdict.slips import GENERATED, generated_slips
from autograder.key import analyse, generated, get_exercise, mutant_outputs
from autograder.key import reference as ref
from autograder.key import reference_n09 as ref9
from autograder.key.generated import called_functions, generated_mutants

RNG = np.random.default_rng(28)


def _failure(exercise, function, *inputs) -> str:
    with pytest.raises(checks.CheckFailed) as failure:
        checks.check(exercise, function, *inputs, quiet=True)
    return str(failure.value)


def _layer_norm_inputs():
    x = RNG.normal(size=(2, 3, 8)).astype(np.float32)
    gamma, beta = RNG.normal(size=8).astype(np.float32), RNG.normal(size=8).astype(np.float32)
    return [torch.from_numpy(a) for a in (x, gamma, beta)]


def test_a_catalogued_mistake_is_named_before_a_generated_edit_that_gives_the_same_numbers():
    def layer_norm(x, gamma, beta, eps=1e-5):  # divides by the variance itself
        mean = x.mean(-1, keepdim=True)
        var = ((x - mean) ** 2).mean(-1, keepdim=True)
        return (x - mean) / (var + eps) * gamma + beta

    # the generator makes this edit too ("the square root of (the variance plus the epsilon) left
    # out"); the catalogue's entry, written for it, is said instead
    message = _failure("layer_norm", layer_norm, *_layer_norm_inputs())
    assert CATALOGUE["layer_norm_not_divided_by_std"].title in message, message
    assert "left out" not in message, message


def test_a_layer_norm_that_subtracts_beta_is_told_so():
    def layer_norm(x, gamma, beta, eps=1e-5):
        mean = x.mean(-1, keepdim=True)
        var = ((x - mean) ** 2).mean(-1, keepdim=True)
        return (x - mean) / torch.sqrt(var + eps) * gamma - beta

    message = _failure("layer_norm", layer_norm, *_layer_norm_inputs())
    assert "the shift beta subtracted where it is added" in message, message


def _base(exercise: str):
    """The NumPy function an exercise's mistakes are derived from."""
    spec = get_exercise(exercise)
    return spec.mistakes_from or spec.reference


def test_the_helpers_a_reference_calls_are_edited_too():
    names = {f.__name__ for f in called_functions(_base("block_forward"))}
    assert {"block", "layer_norm", "mhsa", "softmax", "split_heads"} <= names
    assert "as_float" not in names


def test_the_reference_itself_is_never_a_generated_mistake():
    probe = {"inputs": [RNG.normal(size=(3, 5))], "kwargs": {}}
    expected = analyse("softmax_stable", probe)["expected"]
    generated = [row for row in mutant_outputs("softmax_stable", probe) if row["mistake"].startswith(GENERATED)]
    assert generated, "the softmax has edits that change its result"
    for row in generated:
        assert row["value"] is not None and row["error"] is None
        assert not np.allclose(row["value"], expected, rtol=1e-9, atol=1e-12)


def test_an_edit_that_gives_the_reference_result_is_dropped():
    # a softmax shifted by the minimum instead of the maximum gives the same weights on small scores
    edit = GENERATED + "a minimum where a maximum belongs (in the softmax)"
    assert edit in generated_mutants(_base("softmax_stable"))
    probe = {"inputs": [RNG.normal(size=(3, 5))], "kwargs": {}}
    assert edit not in {row["mistake"] for row in mutant_outputs("softmax_stable", probe)}


def test_step_calls_are_never_edited():
    # the block's keyword-only steps have catalogued wrong versions: no edit touches an expression reading one
    steps = {"attention", "activation", "normalise", "wiring"}
    _, definition = generated._parsed(ref9.block)
    nodes = list(ast.walk(definition))
    sites = generated._candidate_sites(ref9.block)
    assert len(sites) > 10  # the MLP's products and sums, the layer norms' parameters
    for index, _, _ in sites:
        assert not {n.id for n in ast.walk(nodes[index]) if isinstance(n, ast.Name)} & steps


def test_descriptions_quote_no_reference_code():
    for exercise in ("layer_norm", "block_forward", "causal_lm_loss"):
        spec = get_exercise(exercise)
        for description in generated_mutants(spec.mistakes_from or spec.reference):
            assert "as_float" not in description and "ref." not in description and "return" not in description


def test_two_descriptions_are_said_together_and_more_say_nothing():
    one, two, three = (GENERATED + words for words in ("a", "b", "c"))
    assert "a or, equally, b" in generated_slips([one, two])
    assert generated_slips([one, two, three]) is None
    assert generated_slips(["softmax_wrong_axis"]) is None


def test_the_softmax_reference_is_edited_in_its_module_only_for_one_call():
    original = ref.softmax
    mutants = generated_mutants(_base("softmax_stable"))
    edit = mutants[GENERATED + "a mean (average) where a sum belongs (in the softmax)"][0]
    scores = RNG.normal(size=(2, 4))
    assert not np.allclose(edit(scores), original(scores))
    assert ref.softmax is original


def test_a_step_taken_by_default_is_edited_where_it_is_held_for_one_call():
    from autograder.key import reference_n08 as bert

    default = bert.bert_embeddings.__kwdefaults__["added"]
    mutants = generated_mutants(bert.bert_embeddings)
    edit = mutants[GENERATED + "`types` subtracted where it is added (in the sum of the embeddings)"][0]
    ids, types = np.array([[1, 2, 0]]), np.array([[0, 1, 1]])
    tables = [RNG.normal(size=shape) for shape in ((4, 6), (5, 6), (2, 6))]
    norm = np.stack([np.ones(6), np.zeros(6)])
    right = bert.bert_embeddings(ids, types, *tables, norm)
    assert not np.allclose(edit(ids, types, *tables, norm), right)
    assert bert.bert_embeddings.__kwdefaults__["added"] is default
    assert np.array_equal(bert.bert_embeddings(ids, types, *tables, norm), right)
