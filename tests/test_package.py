"""The shared package: references agree across frameworks, and checks say what is wrong."""

from __future__ import annotations

import contextlib
import io
import json
import warnings

import numpy as np
import pytest

from attention_course import checks, data
from attention_course.mistakes import CATALOGUE
from autograder.key import reference as ref
from autograder.key.exercises import all_exercises
from autograder.key.mistakes import DECOYS

RNG = np.random.default_rng(0)


def test_exercise_names_are_unique_and_mutants_are_catalogued():
    exercises = all_exercises()  # raises on a duplicate name
    assert len(exercises) >= 4
    for exercise in exercises.values():
        assert exercise.framework in {"numpy", "torch", "tensorflow"}
        # a decoy (a mistake the catalogue leaves out, computed so that it names nothing) is declared
        unknown = set(exercise.mutants) - set(CATALOGUE) - DECOYS
        assert not unknown, f"{exercise.name}: mutants {unknown} are neither catalogued nor declared decoys"


def test_numpy_softmax_is_stable_and_normalised():
    scores = np.array([[1000.0, 1001.0, 1002.0], [-5.0, 0.0, 5.0]])
    weights = ref.softmax(scores)
    assert np.all(np.isfinite(weights))
    np.testing.assert_allclose(weights.sum(-1), 1.0)
    np.testing.assert_allclose(weights[0], ref.softmax(scores[0] - 1000))


def test_seed_002_context_vector():
    inputs = data.journey_inputs(np.float64)
    weights = ref.softmax(ref.dot_scores(inputs[1], inputs))
    np.testing.assert_allclose(ref.weighted_sum(weights, inputs), [0.4419, 0.6515, 0.5683], atol=5e-5)


def test_seed_001_replay_reproduces_printed_attention():
    w_query, w_key, w_value = data.seed001_replay()
    out = ref.self_attention(data.words_001(), w_query, w_key, w_value)
    np.testing.assert_allclose(out[0], [1.67601, 1.67601, 0.64798], atol=1e-5)
    np.testing.assert_allclose(out[2], [1.84696, 1.84696, 0.30608], atol=1e-5)
    for mine, used in zip(data.seed001_replay(), data.weights_001("used"), strict=True):
        np.testing.assert_array_equal(mine, used)
    as_written = ref.self_attention(data.words_001(), *data.seed001_as_written())
    np.testing.assert_allclose(as_written[0], [0.98522, 1.74174, 0.75652], atol=1e-5)


def test_seed_003_first_row_and_seed_000_scores():
    queries, keys, values = ref.project(data.inputs_003(), *data.weights_003())
    np.testing.assert_allclose(ref.attention(queries, keys, values, scale=1.0)[0],
                               [1.93662106, 6.68310531, 1.59506841])
    q, k, _ = ref.project(data.embeddings_000(), *data.weights_000())
    np.testing.assert_array_equal(ref.attention_scores(q, k, scale=False)[0], [55, 35, 54, 85])


def test_torch_reference_matches_numpy():
    torch = pytest.importorskip("torch")
    from autograder.key import reference_torch as rt

    x = RNG.normal(size=(2, 5, 8))
    w = [RNG.normal(size=(8, 8)) for _ in range(4)]
    mask = ref.causal_mask(5)
    expected = ref.self_attention(x, *w[:3], mask=mask)
    got = rt.self_attention(*(torch.from_numpy(a) for a in (x, *w[:3])), mask=torch.from_numpy(mask))
    np.testing.assert_allclose(got.numpy(), expected, atol=1e-10)
    mha = rt.multi_head_attention_module(*(torch.from_numpy(a) for a in (x, *w)), n_heads=2)
    np.testing.assert_allclose(mha.numpy(), ref.multi_head_attention(x, *w, n_heads=2), atol=1e-10)


def test_tensorflow_reference_matches_numpy():
    pytest.importorskip("tensorflow")
    from autograder.key import reference_tf as rtf

    x = RNG.normal(size=(2, 4, 6)).astype(np.float32)
    w = [RNG.normal(size=(6, 6)).astype(np.float32) for _ in range(4)]
    np.testing.assert_allclose(rtf.self_attention(x, *w[:3]).numpy(), ref.self_attention(x, *w[:3]), atol=1e-4)
    mha = rtf.multi_head_attention_layer(x, *w, n_heads=3)
    np.testing.assert_allclose(np.asarray(mha), ref.multi_head_attention(x, *w, n_heads=3), atol=1e-4)


def test_heads_split_and_combine_are_inverse():
    x = RNG.normal(size=(2, 3, 8))
    heads = ref.split_heads(x, 4)
    assert heads.shape == (2, 4, 3, 2)
    np.testing.assert_array_equal(heads[:, 1], x[..., 2:4])
    np.testing.assert_array_equal(ref.combine_heads(heads), x)


# --- checks ------------------------------------------------------------------------------------


def _message(function, *inputs, exercise="softmax_stable") -> str:
    with pytest.raises(checks.CheckFailed) as failure:
        checks.check(exercise, function, *inputs)
    return str(failure.value)


def test_check_accepts_the_reference_and_prints_to_stdout_only(capsys):
    torch = pytest.importorskip("torch")
    checks.check("softmax_stable", lambda s: torch.softmax(s, -1), RNG.normal(size=(3, 4)))
    captured = capsys.readouterr()
    assert "✓ softmax_stable" in captured.out and captured.err == ""


def test_check_names_a_wrong_axis():
    torch = pytest.importorskip("torch")
    assert "wrong axis" in _message(lambda s: torch.softmax(s, 0), RNG.normal(size=(3, 4)))


def test_check_names_an_overflowing_softmax():
    torch = pytest.importorskip("torch")

    def naive(scores):
        return torch.exp(scores) / torch.exp(scores).sum(-1, keepdim=True)

    assert "overflows" in _message(naive, (RNG.normal(size=(2, 3)) * 1000).astype(np.float32))


def test_check_says_not_implemented_for_the_stub():
    def stub(scores):
        raise NotImplementedError()

    assert "not implemented yet" in _message(stub, RNG.normal(size=3))


def test_check_catches_changes_to_the_inputs():
    torch = pytest.importorskip("torch")

    def in_place(scores):
        scores -= scores.max(-1, keepdim=True).values
        return torch.softmax(scores, -1)

    assert "in place" in _message(in_place, RNG.normal(size=(2, 3)))


def test_check_reports_wrong_shape_and_missing_return():
    assert "shape" in _message(lambda s: s.sum(), RNG.normal(size=(2, 3)))
    assert "returned None" in _message(lambda s: None, RNG.normal(size=3))


def test_learners_warnings_and_stderr_never_reach_stderr():
    torch = pytest.importorskip("torch")
    import sys

    def noisy(scores):
        warnings.warn("deprecated thing", UserWarning, stacklevel=1)
        print("debugging", file=sys.stderr)
        return torch.softmax(scores, -1)

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        checks.check("softmax_stable", noisy, RNG.normal(size=(2, 3)))
    assert err.getvalue() == ""


def test_dependencies_are_replaced_by_the_reference_during_a_check():
    torch = pytest.importorskip("torch")
    namespace = {"torch": torch}
    exec(
        "def softmax_stable(s):\n    return s\n"  # wrong on purpose
        "def self_attention_no_weights(x):\n    return softmax_stable(x @ x.T) @ x\n",
        namespace,
    )
    checks.check("self_attention_no_weights", namespace["self_attention_no_weights"],
                 data.journey_inputs())
    assert namespace["softmax_stable"](torch.ones(2)).tolist() == [1.0, 1.0]  # restored afterwards


def test_heatmap_labels_tokens():
    import matplotlib

    matplotlib.use("Agg")
    from attention_course import plots

    ax = plots.heatmap(ref.softmax(RNG.normal(size=(3, 3))), ["a", "b", "c"])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b", "c"]


@pytest.mark.parametrize("value", [np.float64(2.5), np.array(3.0), np.arange(6.0).reshape(2, 3).T,
                                   np.array([[1, 2]], dtype=np.int32), np.zeros((0, 3), np.float32)])
def test_codec_keeps_shape_dtype_and_values(value):
    from attention_course.convert import decode, encode

    back = decode(json.loads(json.dumps(encode(value))))
    assert back.shape == np.shape(value) and back.dtype == np.asarray(value).dtype
    assert np.array_equal(back, value)


def test_codec_refuses_objects():
    from attention_course.convert import decode, encode

    with pytest.raises(TypeError):
        encode(np.array([object()]))
    with pytest.raises(ValueError):
        decode({"__array__": "|O", "shape": [1], "b64": ""})
