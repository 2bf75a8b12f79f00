"""Self-check of a fresh set of cases (tests/cases/<set>/), without the grader.

One script for the fresh sets written without the key (fresh2, fresh3, ...). For each notebook: run
the source notebook's setup cell, the definitions of its other code cells (functions and classes
only) and its solution cells in a plain namespace, keep the reference function of every exercise, then run each case's source in a copy of that namespace and compare
its function with the reference on inputs written here (shapes the exercise text allows).

- every MISTAKE must differ on at least one input: a different value, shape or dtype, an error, or
  an input changed in place;
- every VARIANT must agree on every input: same shape and dtype, values within 1e-6 relative
  (float64) or float32 precision, and no input changed.

Run: .venv/bin/python tests/cases/selfcheck.py SET [NN ...]   (SET: fresh2, fresh3, fresh4, fresh5, fresh6, fresh7, fresh8, fresh9, fresh10, ...)
It never imports the grader's diagnosis (no check(), no verdict, no key).
"""

from __future__ import annotations

import ast
import copy
import importlib.util
import json
import os
import sys
import traceback
import warnings
import zlib
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402

CASES = Path(__file__).resolve().parent  # tests/cases
ROOT = CASES.parents[1]
SOLUTIONS = ROOT / "solutions"
NOTEBOOKS = [
    "01_attention_without_weights",
    "02_general_attention_numpy",
    "03_attention_tensorflow",
    "04_why_scale_by_sqrt_dk",
    "05_matrix_form_and_masks",
    "06_multi_head_attention",
    "07_trainable_attention",
    "08_pretrained_transformer",
]
# Exercises a set does not cover. fresh2 was written before float16_scores (03) and kv_cache_step (07)
# existed, and left out weighted_values_tf (03) and cross_attention (07), which were being replaced.
# fresh3, fresh4, fresh5, fresh6, fresh7, fresh8, fresh9 and fresh10 cover every graded exercise, so they have no
# entry.
SKIPPED = {
    "fresh2": {"weighted_values_tf", "cross_attention", "float16_scores", "kv_cache_step"},
}
HERE = CASES  # the set's folder, chosen in main()
SET = ""


# --------------------------------------------------------------------------- notebook namespace
def notebook_namespace(name: str) -> tuple[dict, dict]:
    """Namespace after the notebook's setup, its other definitions and its solution cells;
    and {grade_id: function name} of its graded code exercises."""
    nb = json.loads((SOLUTIONS / f"{name}.ipynb").read_text())
    ns: dict = {"__name__": f"nb_{name[:2]}"}
    exercises: dict = {}
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        meta = cell.get("metadata", {}).get("nbgrader", {})
        src = "".join(cell["source"])
        if meta.get("grade") and not meta.get("solution"):
            continue  # a test cell
        if meta.get("solution"):
            tree = ast.parse(src)
            names = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
            exercises[meta["grade_id"]] = names[-1]
            exec(compile(src, f"<{name}:{meta['grade_id']}>", "exec"), ns)
        elif meta.get("grade_id") == "setup":
            exec(compile(src, f"<{name}:setup>", "exec"), ns)
        else:  # only the definitions and imports of an ordinary cell
            tree = ast.parse(src)
            keep = [n for n in tree.body
                    if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom))]
            if keep:
                module = ast.Module(body=keep, type_ignores=[])
                try:
                    exec(compile(module, f"<{name}:defs>", "exec"), ns)
                except Exception:  # noqa: BLE001
                    pass
    return ns, exercises


# --------------------------------------------------------------------------- comparisons
def to_numpy(value):
    if isinstance(value, (tuple, list)):
        return np.stack([to_numpy(v) for v in value])
    if hasattr(value, "detach"):
        return value.detach().cpu().numpy()
    if hasattr(value, "numpy") and not isinstance(value, np.ndarray):
        return value.numpy()
    return np.asarray(value)


def tolerance(dtype):
    if dtype == np.float16:
        return 1e-3, 1e-4
    if dtype == np.float32:
        return 2e-5, 2e-6
    return 1e-6, 1e-9


def same(ref, out) -> tuple[bool, str]:
    if ref.shape != out.shape:
        return False, f"shape {out.shape} != {ref.shape}"
    if ref.dtype != out.dtype:
        return False, f"dtype {out.dtype} != {ref.dtype}"
    if ref.dtype == bool or np.issubdtype(ref.dtype, np.integer):
        ok = np.array_equal(ref, out)
        return ok, "" if ok else "values differ"
    rtol, atol = tolerance(ref.dtype)
    if ref.dtype == np.float16 and ref.size:
        # float16 keeps about three digits, and the order of a product's additions (or a division
        # before or after it) may change the last one: a few units of the last place of the
        # largest entry are round-off, not a mistake
        rtol, atol = 4e-3, 4e-3 * float(np.nanmax(np.abs(ref.astype(np.float64)), initial=1.0))
    ok = np.allclose(out, ref, rtol=rtol, atol=atol, equal_nan=False)
    if ok:
        return True, ""
    with np.errstate(invalid="ignore"):
        diff = np.nanmax(np.abs(out.astype(np.float64) - ref.astype(np.float64))) if out.size else 0
    return False, f"max diff {diff:.3g}"


def args_snapshot(args):
    return [to_numpy(a).copy() if hasattr(a, "shape") else copy.deepcopy(a) for a in args]


def run_one(fn, args):
    """(output as numpy or None, error or None, whether an input changed)."""
    before = args_snapshot(args)
    try:
        with np.errstate(all="ignore"):
            out = to_numpy(fn(*args))
        err = None
    except Exception as error:  # noqa: BLE001
        out, err = None, f"{type(error).__name__}: {str(error).splitlines()[0][:80] if str(error) else ''}"
    after = args_snapshot(args)
    changed = any(
        (b.shape != a.shape or not np.array_equal(b, a, equal_nan=True)) if isinstance(b, np.ndarray) else b != a
        for b, a in zip(before, after, strict=True)
    )
    return out, err, changed


# --------------------------------------------------------------------------- inputs per exercise
def inputs_for(grade_id: str, ns: dict) -> list:
    """A list of zero-argument callables, each returning a fresh tuple of arguments."""
    rng = np.random.default_rng(zlib.crc32(grade_id.encode()))
    torch = sys.modules.get("torch")
    tf = sys.modules.get("tensorflow")
    g = rng.normal
    cases = []

    def add(*args):
        frozen = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        cases.append(lambda frozen=frozen: tuple(
            a.copy() if isinstance(a, np.ndarray) else a for a in frozen))

    def add_t(*args):  # torch tensors from numpy arrays
        frozen = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        cases.append(lambda frozen=frozen: tuple(
            torch.from_numpy(a.copy()) if isinstance(a, np.ndarray) else a for a in frozen))

    def add_tf(*args):
        frozen = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        cases.append(lambda frozen=frozen: tuple(
            tf.constant(a) if isinstance(a, np.ndarray) else a for a in frozen))

    f32 = np.float32
    if grade_id == "scores_for_query":
        x = g(size=(6, 3)).astype(f32)
        add_t(x[1].copy(), x)
        add_t(g(size=4), g(size=(7, 4)))
        add_t(g(size=2).astype(f32), g(size=(5, 2)).astype(f32))
        add_t(g(size=8), g(size=(3, 8)))
    elif grade_id == "softmax_stable":
        add_t(g(size=6).astype(f32))
        add_t(np.array([[1.0, 2.0, 3.0], [1000.0, 1001.0, 1002.0]], dtype=f32))
        add_t(g(size=(4, 5)).astype(f32))
        add_t(g(size=(2, 3, 6)) * 50)
        add_t((g(size=(3, 4)) * 3000).astype(f32))
        add_t(g(size=(3, 3)))
    elif grade_id == "context_vector":
        add_t(rng.dirichlet(np.ones(6)).astype(f32), g(size=(6, 3)).astype(f32))
        add_t(rng.dirichlet(np.ones(4)), g(size=(4, 5)))
        add_t(rng.dirichlet(np.ones(3)), g(size=(3, 3)))
        add_t(np.array([1.0], dtype=f32), g(size=(1, 2)).astype(f32))
    elif grade_id == "self_attention_no_weights":
        add_t(g(size=(6, 3)).astype(f32))
        add_t(g(size=(4, 5)))
        add_t((g(size=(5, 3)) * 20).astype(f32))
        add_t(g(size=(3, 3)))
    elif grade_id == "project_qkv":
        add(g(size=(5, 4)).astype(f32), *g(size=(3, 4, 2)).astype(f32))
        add(g(size=(7, 3)), *g(size=(3, 3, 5)))
        add(rng.integers(0, 3, size=(4, 3)), *rng.integers(0, 3, size=(3, 3, 3)))
        add(g(size=(4, 4)), *g(size=(3, 4, 4)))
    elif grade_id in ("state_weights", "state_attention"):
        extra = grade_id == "state_attention"
        for d_state, n_states, d_model, d_k, d_v in ((2, 5, 3, 4, 6), (4, 6, 4, 4, 2), (3, 3, 3, 3, 3), (6, 9, 8, 16, 5)):
            args = [g(size=d_state), g(size=(n_states, d_model)), g(size=(d_state, d_k)), g(size=(d_model, d_k))]
            if extra:
                args.append(g(size=(d_model, d_v)))
            add(*args)
        args = [rng.integers(-2, 3, size=3), rng.integers(-2, 3, size=(5, 4)), rng.integers(-2, 3, size=(3, 2)),
                rng.integers(-2, 3, size=(4, 2))]
        if extra:
            args.append(rng.integers(-2, 3, size=(4, 3)))
        add(*args)
        args = [g(size=3) * 30, g(size=(4, 3)) * 30, g(size=(3, 5)), g(size=(3, 5))]
        if extra:
            args.append(g(size=(3, 2)))
        add(*args)
        args = [g(size=4).astype(f32), g(size=(6, 3)).astype(f32), g(size=(4, 5)).astype(f32),
                g(size=(3, 5)).astype(f32)]
        if extra:
            args.append(g(size=(3, 2)).astype(f32))
        add(*args)
    elif grade_id == "scale_scores_tf":
        add_tf(np.array([[55, 35, 54, 85], [29, 18, 28, 45]], dtype=np.int32), 4)
        add_tf(g(size=(3, 5)), 3)
        add_tf(rng.integers(-20, 21, size=(3, 5)).astype(np.int32), 8)
        add_tf((g(size=(4, 6)) * 3).astype(f32), 3)
        add_tf(rng.integers(-3000, 3001, size=(3, 5)).astype(np.int32), 2)
        add_tf(np.array([[7, -7, 3]], dtype=np.int32), 1)
    elif grade_id == "float16_scores":
        f16 = np.float16
        seed_q = np.array([[1, 2, 8, 8], [1, 1, 4, 4], [1, 1, 6, 6], [3, 4, 6, 6]], dtype=f16)
        seed_k = np.array([[3, 2, 2, 4], [1, 1, 0, 4], [2, 2, 2, 4], [5, 4, 2, 7]], dtype=f16)
        add_tf(seed_q, seed_k)
        add_tf(seed_q * 32, seed_k * 32)  # plain dot products up to 87040: beyond float16
        add_tf(g(size=(3, 6)).astype(f16), g(size=(5, 6)).astype(f16))
        add_tf(rng.uniform(40, 90, size=(3, 16)).astype(f16), rng.uniform(40, 90, size=(5, 16)).astype(f16))
        add_tf(rng.uniform(5, 30, size=(4, 9)).astype(f16), rng.uniform(5, 30, size=(6, 9)).astype(f16))
        add_tf(g(size=(1, 5)).astype(f16), g(size=(7, 5)).astype(f16))
        add_tf(rng.uniform(70, 110, size=(4, 9)).astype(f16), rng.uniform(70, 110, size=(2, 9)).astype(f16))
    elif grade_id == "float32_roundoff":
        add_tf(np.array([1.8553905e-07, 0.1, 1 / 3]))
        add_tf(g(size=(3, 4)))
        add_tf(g(size=7) * 1e5)
        add_tf(rng.uniform(size=(2, 3, 4)))
    elif grade_id == "score_variance":
        add(g(size=(6, 4)), g(size=(9, 4)))
        add(g(size=(5, 5)), g(size=(5, 5)))
        add(g(size=(3, 2)) + 1, g(size=(4, 2)))
        add(g(size=(8, 16)).astype(f32), g(size=(8, 16)).astype(f32))
    elif grade_id == "width_sweep":
        add(g(size=(4, 8)), g(size=(5, 8)), np.array([1, 4, 8]), 0.0)
        add(g(size=(4, 8)), g(size=(5, 8)), np.array([2, 8]), 1.0)
        add(g(size=(6, 16)), g(size=(3, 16)), np.array([1, 2, 4, 8, 16]), 0.5)
        add(g(size=(2, 9)).astype(f32), g(size=(7, 9)).astype(f32), np.array([9, 3, 5]), 0.5)
        add(g(size=(4, 10)), g(size=(6, 10)), np.array([4, 10, 1]), 0.25)
    elif grade_id == "attention_entropy":
        add(g(size=(4, 6)))
        add(np.array([[0.0, -1000.0, 1.0], [1000.0, 1001.0, 1002.0]]))
        add(g(size=(2, 3, 5)) * 10)
        add((g(size=(3, 7)) * 2000).astype(f32))
        add(g(size=(3, 3)) * 3)
        add(g(size=6))
    elif grade_id == "softmax_jacobian":
        add(g(size=4))
        add(g(size=7).astype(f32))
        add(np.array([0.0, 1000.0, 2000.0]))
        add(g(size=5) * 3)
        add(np.array([3.0]))
    elif grade_id == "gradient_norms":
        add(g(size=(5, 7)))
        add(g(size=(3, 4)).astype(f32))
        add(np.array([[0.0, 0.0, 0.0, 0.0], [0.0, 1000.0, 2000.0, 0.0]]))
        add(g(size=(4, 6)) * 3)
        add(g(size=(3, 3)))
    elif grade_id == "batched_attention":
        add(g(size=(3, 4)), g(size=(5, 4)), g(size=(5, 2)))
        add(g(size=(3, 3)), g(size=(3, 3)), g(size=(3, 3)), False)
        add(g(size=(2, 4, 3)), g(size=(2, 6, 3)), g(size=(2, 6, 5)))
        add(g(size=(2, 3, 3, 4)), g(size=(2, 3, 3, 4)), g(size=(2, 3, 3, 2)), False)
        add(g(size=(3, 3, 3)), g(size=(3, 3, 3)), g(size=(3, 3, 3)))
        add(g(size=(4, 4)) * 100, g(size=(4, 4)) * 100, g(size=(4, 3)))
    elif grade_id == "causal_mask":
        for n in (1, 2, 4, 7):
            add(n)
    elif grade_id == "masked_attention":
        tril = np.tril(np.ones((5, 5), dtype=bool))
        add(g(size=(5, 4)), g(size=(5, 4)), g(size=(5, 3)), tril)
        pad = np.arange(5)[None, None, :] < np.array([5, 2, 3])[:, None, None]
        add(g(size=(3, 5, 4)), g(size=(3, 5, 4)), g(size=(3, 5, 2)), pad)
        q, k = g(size=(4, 3)) * 60, g(size=(4, 3)) * 60
        add(q, k, g(size=(4, 2)), np.tril(np.ones((4, 4), dtype=bool)))
        add(g(size=(2, 3, 4)), g(size=(2, 6, 4)), g(size=(2, 6, 2)), (rng.random((2, 3, 6)) < 0.5) | np.eye(3, 6, dtype=bool))
        # a masked key with by far the largest score of its row
        add(np.array([[40.0, 0.0], [0.0, 1.0]]), np.array([[-40.0, 0.0], [40.0, 0.0]]), g(size=(2, 3)),
            np.tril(np.ones((2, 2), dtype=bool)))
    elif grade_id == "padding_mask":
        add(np.array([2, 3]), 3)
        add(np.array([1, 4, 2]), 4)
        add(np.array([5]), 5)
        add(np.array([0, 1, 6]), 6)
    elif grade_id == "split_heads":
        add(np.arange(12.0).reshape(3, 4), 2)
        add(g(size=(5, 6)), 3)
        add(g(size=(2, 7, 12)).astype(f32), 4)
        add(g(size=(2, 3, 4, 6)), 2)
        add(g(size=(4, 8)), 1)
    elif grade_id == "combine_heads":
        add(np.arange(12.0).reshape(2, 3, 2))
        add(g(size=(3, 5, 2)))
        add(g(size=(2, 4, 3, 5)).astype(f32))
        add(g(size=(2, 2, 3, 4, 2)))
        add(g(size=(1, 4, 6)))
    elif grade_id == "head_weights":
        add(g(size=(5, 6)), g(size=(6, 6)), g(size=(6, 6)), 3)
        add(g(size=(2, 4, 8)).astype(f32), g(size=(8, 8)).astype(f32), g(size=(8, 8)).astype(f32), 2)
        add(g(size=(3, 4)), g(size=(4, 6)), g(size=(4, 6)), 3)
        add(g(size=(4, 8)) * 1000, g(size=(8, 8)), g(size=(8, 8)), 2)
        add(g(size=(2, 3, 3, 8)), g(size=(8, 8)), g(size=(8, 8)), 4)
    elif grade_id == "multi_head_attention":
        for lead, tokens, d, heads in (((), 4, 8, 2), ((2,), 5, 6, 3), ((2, 2), 3, 8, 4), ((), 4, 4, 1)):
            add(g(size=(*lead, tokens, d)), *(g(size=(d, d)) / np.sqrt(d) for _ in range(4)), heads)
        add(g(size=(4, 5)), g(size=(5, 6)), g(size=(5, 6)), g(size=(5, 6)), g(size=(6, 3)), 2)
        add((g(size=(3, 8)) * 30).astype(f32), *(g(size=(8, 8)).astype(f32) for _ in range(4)), 4)
    elif grade_id == "torch_attn_mask":
        causal = np.tril(np.ones((3, 3), dtype=bool))
        allowed = causal & (np.arange(3) < np.array([3, 2])[:, None])[:, None, :]
        add(allowed, 4)
        add(allowed, 1)
        add(rng.random((2, 3, 5)) < 0.6, 3)
        add(rng.random((3, 4, 4)) < 0.6, 2)
    elif grade_id == "mhsa_forward":
        for b, t, d_in, d_out, h, c, dt in ((2, 5, 6, 4, 2, False, f32), (2, 5, 6, 4, 2, True, f32),
                                           (2, 5, 8, 8, 4, True, np.float64), (1, 4, 8, 8, 2, True, f32),
                                           (3, 6, 5, 6, 3, False, f32), (1, 1, 4, 4, 1, True, f32)):
            x = g(size=(b, t, d_in)).astype(dt)
            ws = [(g(size=(d_in, d_out)) / np.sqrt(d_in)).astype(dt) for _ in range(3)]
            add_t(x, *ws, (g(size=(d_out, d_out)) / np.sqrt(d_out)).astype(dt), h, c)
    elif grade_id == "kv_cache_step":
        for lead, n_new, n_cached, d_k, d_v, dt in (((1, 2), 1, 5, 4, 4, f32), ((2,), 3, 4, 4, 2, f32),
                                                    ((), 4, 0, 3, 3, np.float64), ((2, 2), 3, 5, 4, 4, np.float64),
                                                    ((), 5, 1, 4, 6, f32), ((1, 3), 4, 2, 2, 5, f32),
                                                    ((3,), 1, 0, 2, 3, f32)):
            add_t(*(g(size=(*lead, n, d)).astype(dt) for n, d in ((n_new, d_k), (n_new, d_k), (n_new, d_v),
                                                                  (n_cached, d_k), (n_cached, d_v))))
        args = [g(size=s) for s in ((2, 2, 3, 4), (2, 2, 3, 4), (2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4))]
        add_t(args[0] * 30, args[1] * 30, *args[2:])  # huge scores
    elif grade_id == "sinusoidal_encoding":
        for n, d in ((4, 6), (10, 16), (1, 2), (7, 10), (3, 128)):
            add(n, d)
    elif grade_id == "rotary_embedding":
        add_t(rng.uniform(-1, 1, size=(5, 8)).astype(f32), np.array([3, 4, 5, 6, 7]))
        add_t(rng.uniform(-1, 1, size=(2, 2, 4, 6)).astype(f32), np.arange(4))
        add_t(g(size=(3, 4)), np.array([0, 9, 2]))
        add_t(g(size=(2, 6, 12)), np.array([100, 101, 102, 103, 104, 105]))
        add_t(rng.uniform(-1, 1, size=(3, 10)).astype(f32), np.array([7, 7, 7]))
    elif grade_id == "attention_matrices":
        add(*g(size=(4, 6, 6)))
        add(*g(size=(4, 3, 3)).astype(f32))
        add(*g(size=(4, 1, 1)))
    elif grade_id == "bert_embeddings":
        small = [g(size=(20, 6)), g(size=(9, 6)), g(size=(2, 6)),
                 np.stack([1 + 0.1 * g(size=6), 0.1 * g(size=6)])]
        add(np.array([[3, 7, 7, 1, 0]]), np.array([[0, 0, 1, 1, 1]]), *small)
        add(rng.integers(0, 20, size=(3, 9)), rng.integers(0, 2, size=(3, 9)), *small)
        add(rng.integers(0, 20, size=(2, 4)), np.zeros((2, 4), dtype=np.int64), *small)
    elif grade_id == "bert_head_weights":
        x = g(size=(2, 5, 8))
        wq, wk = g(size=(2, 8, 8)) / np.sqrt(8)
        bq, bk = g(size=(2, 8))
        add(x, wq, bq, wk, bk, np.ones((2, 5), dtype=np.int64), 2)
        add(x, wq, bq, wk, bk, np.array([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]), 2)
        x = g(size=(3, 6, 6)).astype(f32)
        wq, wk = (g(size=(2, 6, 6)) / np.sqrt(6)).astype(f32)
        bq, bk = g(size=(2, 6)).astype(f32)
        add(x, wq, bq, wk, bk, np.array([[1] * 6, [1, 1, 0, 0, 0, 0], [1, 1, 1, 1, 1, 0]]), 3)
        x = g(size=(2, 4, 8)) * 300
        add(x, g(size=(8, 8)), g(size=8), g(size=(8, 8)), g(size=8), np.array([[1, 1, 1, 0], [1, 1, 1, 1]]), 4)
    elif grade_id in ("bert_layer", "sentence_embedding"):
        for d, ff, heads, n_layers in ((8, 16, 2, 2), (6, 12, 3, 1)):
            norms = np.array([1.0, 0.0])[:, None] + 0.2 * g(size=(n_layers, 2, 2, d))
            stacks = [g(size=(n_layers, 4, d, d)) / np.sqrt(d), 0.3 * g(size=(n_layers, 4, d)),
                      2 * g(size=(n_layers, d, ff)) / np.sqrt(d), 0.3 * g(size=(n_layers, ff)),
                      g(size=(n_layers, ff, d)) / np.sqrt(ff), 0.3 * g(size=(n_layers, d)), norms]
            mask = np.array([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]])
            if grade_id == "bert_layer":
                add(g(size=(2, 5, d)), mask, *(s[0] for s in stacks), heads)
            else:
                tables = [g(size=(12, d)), g(size=(7, d)), g(size=(2, d)),
                          np.array([[1.0], [0.0]]) + 0.2 * g(size=(2, d))]
                ids = np.array([[1, 5, 9, 3, 2], [1, 7, 2, 0, 0]])
                add(ids, np.zeros_like(ids), mask, *tables, *stacks, heads)
                add(ids, np.array([[0, 0, 1, 1, 1], [0, 1, 1, 0, 0]]), np.ones_like(ids), *tables, *stacks, heads)
    elif grade_id == "head_patterns":
        add(rng.dirichlet(np.ones(5), size=(3, 2, 5)))
        add(np.eye(4, k=-1) + np.diag([1.0, 0.0, 0.0, 0.0]))
        add(rng.dirichlet(np.ones(6), size=6))
        add(rng.dirichlet(np.ones(7), size=(2, 7)).astype(f32))
    else:
        raise KeyError(f"no inputs written for {grade_id}")
    return cases


# --------------------------------------------------------------------------- the check
def load_cases(name: str):
    spec = importlib.util.spec_from_file_location(f"{SET}_{name[:2]}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.MISTAKES, module.VARIANTS


def case_function(ns, fn_name, source, label):
    local = dict(ns)
    local["__name__"] = f"case_{label}"
    exec(compile(source, f"<{label}>", "exec"), local)
    return local[fn_name]


def check_notebook(name: str) -> list[str]:
    problems = []
    ns, exercises = notebook_namespace(name)
    mistakes, variants = load_cases(name)
    graded = {g: f for g, f in exercises.items() if g not in SKIPPED.get(SET, set())}
    for gid in list(mistakes) + list(variants):
        if gid not in graded:
            problems.append(f"{name}: {gid} is not a graded exercise here")
    counts = {}
    for gid, fn_name in graded.items():
        if gid not in mistakes or gid not in variants:
            problems.append(f"{name}: {gid} has no mistakes or no variants")
            continue
        makers = inputs_for(gid, ns)
        torch = sys.modules.get("torch")
        if torch is not None:
            torch.manual_seed(0)
        refs = []
        for make in makers:
            out, err, changed = run_one(ns[fn_name], make())
            if err or changed:
                problems.append(f"{name}: reference {gid} failed on my input: {err} changed={changed}")
            refs.append(out)
        for kind, group in (("mistake", mistakes[gid]), ("variant", variants[gid])):
            for key, source in group.items():
                label = f"{gid}/{key}"
                try:
                    fn = case_function(ns, fn_name, source, label)
                except Exception:  # noqa: BLE001
                    problems.append(f"{name}: {label} does not even define {fn_name}: {traceback.format_exc(limit=1)}")
                    continue
                differs = []
                for make, ref in zip(makers, refs, strict=True):
                    out, err, changed = run_one(fn, make())
                    if err:
                        differs.append(f"raises {err}")
                    elif changed:
                        differs.append("changes an input")
                    else:
                        ok, why = same(ref, out)
                        if not ok:
                            differs.append(why)
                if kind == "mistake" and not differs:
                    problems.append(f"{name}: MISTAKE {label} gives the reference's results on every input")
                if kind == "variant" and differs:
                    problems.append(f"{name}: VARIANT {label} differs: {differs[:2]}")
                if os.environ.get("VERBOSE"):
                    print(f"  {kind:7} {label:55} {differs[:1] if differs else 'same'}")
        counts[gid] = (len(mistakes[gid]), len(variants[gid]))
    catalogued = uncatalogued = 0
    for group in mistakes.values():
        for key in group:
            if key.startswith("uncatalogued:"):
                uncatalogued += 1
            else:
                catalogued += 1
    n_var = sum(len(v) for v in variants.values())
    print(f"{name}: {len(graded)} exercises, mistakes {catalogued} catalogued + {uncatalogued} uncatalogued, "
          f"{n_var} variants")
    return problems


def check_keys() -> list[str]:
    sys.path.insert(0, str(ROOT / "src"))
    from attention_course.mistakes import CATALOGUE  # ids and titles only

    problems = []
    for name in NOTEBOOKS:
        if not (HERE / f"{name}.py").exists():
            problems.append(f"{name}.py is missing")
            continue
        mistakes, _ = load_cases(name)
        for gid, group in mistakes.items():
            for key in group:
                mistake_id = key.split(":")[0]
                if mistake_id != "uncatalogued" and mistake_id not in CATALOGUE:
                    problems.append(f"{name}: {gid}/{key}: {mistake_id} is not in the catalogue")
                if mistake_id == "uncatalogued" and ":" not in key:
                    problems.append(f"{name}: {gid}/{key}: an uncatalogued case needs a tag")
    return problems


def main(argv):
    global HERE, SET
    if not argv or not (CASES / argv[0]).is_dir():
        print(__doc__)
        print("usage: selfcheck.py SET [NN ...], SET a folder of tests/cases (fresh2, fresh3, ...)")
        return 2
    SET, argv = argv[0], argv[1:]
    HERE = CASES / SET
    chosen = [n for n in NOTEBOOKS if not argv or n[:2] in argv]
    problems = [p for p in check_keys() if argv == [] or p[:2] in argv]
    for name in chosen:
        problems += check_notebook(name)
    for p in problems:
        print("PROBLEM", p)
    print("self-check:", "PASSED" if not problems else f"FAILED ({len(problems)} problems)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
