"""Self-check of a blind case set tests/blind/<set> (written without seeing the grader).

For each learner notebook notebooks/NN_*.ipynb and its case file tests/blind/<set>/NN_*.py:

1. the first VARIANT of every exercise goes into the exercise's solution cell and the whole notebook runs
   (nbclient, kernel ``python3``, in a temporary directory); every visible test cell must pass;
2. every case (mistake or variant) in turn replaces the solution cell, the exercise's visible test cell(s)
   run again, and only PASS/FAIL is recorded (whether an error output appeared); then the first variant
   is put back;
3. each mistake is also called next to the first variant on random inputs of the shapes the exercise
   allows, and it must differ somewhere (other values, shape or dtype, an exception, or a changed input).
   An exercise whose cell defines several functions (notebook 09) compares each of them (COMPARED).

The outputs of the test cells are never printed, logged or read: only the presence of an error output is
looked at, and the outputs are dropped at once. The kernel's own stdout and stderr go to /dev/null.

A variant must PASS; a mistake must FAIL the visible check or differ on random inputs.

Run it with the course's virtual environment, from any directory:

    /work/main/.venv/bin/python tests/blind/selfcheck_blind.py            # set blind1, every notebook
    /work/main/.venv/bin/python tests/blind/selfcheck_blind.py 02 05      # some notebooks
    /work/main/.venv/bin/python tests/blind/selfcheck_blind.py --set blind2 09   # another set

The exit status is 0 when every case behaves as required.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import DeadKernelError

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
NOTEBOOKS = REPO / "notebooks"
CASES = HERE / "blind1"  # replaced by --set

# Names a case's source defines: by default the function named like the exercise's grade_id. An exercise
# whose cell defines several functions or classes lists them all; each must be defined after the case runs.
NAMES = {
    "mhsa_forward": ["mhsa_forward", "MultiHeadSelfAttention"],
    # notebook 09
    "encode": ["encode", "decode"],
    "block_helpers": ["layer_norm", "causal_attention"],
    "block_forward": ["block_forward", "CausalSelfAttention", "Block"],
    "count_parameters": ["count_parameters", "GPT"],
    "generate": ["generate", "next_token_probabilities"],
}

# The functions of an exercise compared on random inputs in step 3 (each with the generator of its name in
# GENERATORS); by default the function named like the grade_id. A mistake differs when any of them differs.
COMPARED = {
    "encode": ["encode", "decode"],
    "block_helpers": ["layer_norm", "causal_attention"],
    "generate": ["next_token_probabilities", "generate"],
}


def names_of(gid: str) -> list[str]:
    return NAMES.get(gid, [gid])

# Kernel-side helpers for step 3. Only this code's own prints are read ("BLINDCHECK ...").
HELPERS = r'''
import copy as _bc_copy
import numpy as _bc_np


def _bc_to_np(r):
    if isinstance(r, (tuple, list)):
        parts = [_bc_to_np(p) for p in r]
        try:
            return _bc_np.stack(parts)
        except Exception:
            return parts
    if hasattr(r, "detach"):
        return r.detach().cpu().numpy()
    if hasattr(r, "numpy") and not isinstance(r, _bc_np.ndarray):
        return r.numpy()
    return _bc_np.asarray(r)


def _bc_same(a, b):
    if isinstance(a, str) or isinstance(b, str):
        return type(a) is type(b) and a == b
    a, b = _bc_to_np(a), _bc_to_np(b)
    if isinstance(a, list) or isinstance(b, list):
        return False
    if a.dtype.kind in "USO" or b.dtype.kind in "USO":
        return a.shape == b.shape and a.dtype == b.dtype and bool((a == b).all())
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype == bool or a.dtype.kind in "iu":
        return bool((a == b).all())
    rtol = {2: 2e-3, 4: 1e-4}.get(a.dtype.itemsize, 1e-7)
    return bool(_bc_np.allclose(a.astype(float), b.astype(float), rtol=rtol, atol=rtol * 1e-2, equal_nan=True))


def _bc_define(src, name):
    namespace = dict(globals())
    exec(src, namespace)
    return namespace[name]


def _bc_differs(mistake_src, variant_src, name, arg_sets):
    """True when the mistake differs from the variant on some argument set (value, shape, dtype, exception,
    or a changed argument). An argument set on which the variant raises counts only when the mistake does not
    raise there (an input the exercise says to refuse, such as notebook 09's too long prompt)."""
    f_mistake, f_variant = _bc_define(mistake_src, name), _bc_define(variant_src, name)
    usable = 0
    for args in arg_sets:
        variant_args = _bc_copy.deepcopy(args)
        try:
            expected = f_variant(*variant_args)
        except Exception:
            try:
                f_mistake(*_bc_copy.deepcopy(args))
            except Exception:
                continue
            return True
        usable += 1
        mistake_args = _bc_copy.deepcopy(args)
        try:
            got = f_mistake(*mistake_args)
        except Exception:
            return True
        if not _bc_same(got, expected):
            return True
        for before, after in zip(args, mistake_args):
            if isinstance(before, (bool, int, float)):
                continue
            if not _bc_same(before, after):
                return True
    if usable == 0:
        raise RuntimeError("the first variant failed on every argument set")
    return False
'''

# Kernel-side random inputs, per exercise, of the shapes the exercise text allows. `_bc_rng` is a seeded
# NumPy generator; each snippet sets `_bc_args`, a list of argument tuples.
GENERATORS = {
    # 01 (PyTorch)
    "scores_for_query": '''
_t = lambda *s: torch.from_numpy(_bc_rng.normal(size=s)).float()
_bc_args = [(_t(3), _t(6, 3)), (_t(5), _t(4, 5)), (_t(2), _t(1, 2)), (_t(4) * 10, _t(7, 4))]
''',
    "softmax_stable": '''
_t = lambda *s: torch.from_numpy(_bc_rng.normal(size=s)).float()
_bc_args = [(_t(6),), (_t(3, 4) * 3,), (_t(2, 3, 5) * 1000,), (torch.tensor([[1.0, 2.0, 3.0], [1000.0, 1001.0, 1002.0]]),),
            (torch.from_numpy(_bc_rng.normal(size=(4, 4))),), (_t(2, 2),), (_t(5) * 3000,)]
''',
    "context_vector": '''
_t = lambda *s: torch.from_numpy(_bc_rng.normal(size=s)).float()
_bc_args = [(torch.softmax(_t(6), 0), _t(6, 3)), (torch.softmax(_t(4) * 3, 0), _t(4, 5)),
            (torch.softmax(_t(3), 0), _t(3, 3))]
''',
    "self_attention_no_weights": '''
_t = lambda *s: torch.from_numpy(_bc_rng.normal(size=s)).float()
_bc_args = [(_t(6, 3),), (_t(4, 5),), (_t(3, 3) * 3,), (_t(5, 2),)]
''',
    # 02 (NumPy)
    "project_qkv": '''
_n = lambda *s: _bc_rng.normal(size=s)
_bc_args = [(_n(4, 3), _n(3, 3), _n(3, 3), _n(3, 3)), (_n(5, 3), _n(3, 4), _n(3, 4), _n(3, 4)),
            (_n(2, 6), _n(6, 2), _n(6, 2), _n(6, 2)),
            (_bc_rng.integers(0, 3, (4, 3)),) + tuple(_bc_rng.integers(0, 3, (3, 3)) for _ in range(3))]
''',
    "state_weights": '''
_n = lambda *s: _bc_rng.normal(size=s)
_bc_args = [(_n(2), _n(5, 3), _n(2, 4), _n(3, 4)), (_n(3), _n(4, 3), _n(3, 3), _n(3, 3)),
            (_n(4), _n(6, 2), _n(4, 5), _n(2, 5)), (_n(2) * 30, _n(5, 3) * 30, _n(2, 4), _n(3, 4)),
            (_bc_rng.integers(0, 3, 3), _bc_rng.integers(0, 3, (4, 3)), _bc_rng.integers(0, 3, (3, 3)),
             _bc_rng.integers(0, 3, (3, 3)))]
''',
    "state_attention": '''
_n = lambda *s: _bc_rng.normal(size=s)
_bc_args = [(_n(2), _n(5, 3), _n(2, 4), _n(3, 4), _n(3, 6)), (_n(3), _n(4, 3), _n(3, 3), _n(3, 3), _n(3, 3)),
            (_n(4), _n(6, 2), _n(4, 5), _n(2, 5), _n(2, 2)), (_n(2) * 30, _n(5, 3) * 30, _n(2, 4), _n(3, 4), _n(3, 2)),
            (_bc_rng.integers(0, 3, 3), _bc_rng.integers(0, 3, (4, 3)), _bc_rng.integers(0, 3, (3, 3)),
             _bc_rng.integers(0, 3, (3, 3)), _bc_rng.integers(0, 3, (3, 3)))]
''',
    # 03 (TensorFlow)
    "scale_scores_tf": '''
_bc_args = [(tf.constant(_bc_rng.integers(-50, 90, (3, 5)), dtype=tf.int32), 3),
            (tf.constant(_bc_rng.integers(-50, 90, (4, 4)), dtype=tf.int32), 4),
            (tf.constant(_bc_rng.normal(size=(2, 3)), dtype=tf.float32), 7),
            (tf.constant(_bc_rng.normal(size=(3, 5)), dtype=tf.float64), 3),
            (tf.constant(_bc_rng.integers(0, 9, (2, 6)), dtype=tf.int32), 9)]
''',
    "float16_scores": '''
_q = _bc_np.array([[1, 2, 8, 8], [1, 1, 4, 4], [1, 1, 6, 6], [3, 4, 6, 6]], dtype=_bc_np.float16)
_k = _bc_np.array([[3, 2, 2, 4], [1, 1, 0, 4], [2, 2, 2, 4], [5, 4, 2, 7]], dtype=_bc_np.float16)
_h = lambda *s: tf.constant(_bc_rng.normal(size=s).astype(_bc_np.float16))
_bc_args = [(tf.constant(_q), tf.constant(_k)), (tf.constant(_q * 32), tf.constant(_k * 32)),
            (_h(3, 6), _h(5, 6)), (_h(2, 8) * 40, _h(3, 8) * 40)]
''',
    "float32_roundoff": '''
_d = lambda *s: tf.constant(_bc_rng.normal(size=s), dtype=tf.float64)
_bc_args = [(_d(3, 4),), (_d(5),), (_d(2, 3, 2) * 1e-3,),
            (tf.constant([1.8553905e-07, 1.8553907e-07, 0.1, 1 / 3], dtype=tf.float64),)]
''',
    # 04 (NumPy)
    "score_variance": '''
_n = lambda *s: _bc_rng.normal(size=s)
_bc_args = [(_n(3, 3), _n(3, 3)), (_n(4, 6), _n(5, 6)), (_n(2, 2), _n(3, 2)), (_n(10, 16), _n(7, 16))]
''',
    "width_sweep": '''
_n = lambda *s: _bc_rng.normal(size=s)
_q, _k = _n(4, 8), _n(5, 8)
_bc_args = [(_q, _k, _bc_np.array([1, 4, 8]), 0.0), (_q, _k, _bc_np.array([2, 8]), 1.0),
            (_q, _k, _bc_np.array([1, 2, 3]), 0.5), (_n(3, 5), _n(3, 5), _bc_np.array([5, 2]), 0.5)]
''',
    "attention_entropy": '''
_n = lambda *s: _bc_rng.normal(size=s)
_bc_args = [(_n(3, 3),), (_n(2, 4, 5) * 10,), (_bc_np.array([[0.0, -1000.0, 1.0], [1000.0, 1001.0, 1002.0]]),),
            (_n(6),), (_n(4, 7) * 500,)]
''',
    "softmax_jacobian": '''
_n = lambda *s: _bc_rng.normal(size=s)
_bc_args = [(_n(3),), (_n(5) * 3,), (_bc_np.array([0.0, 1000.0, 2000.0]),), (_n(4) * 2000,), (_n(2),)]
''',
    "gradient_norms": '''
_n = lambda *s: _bc_rng.normal(size=s)
_bc_args = [(_n(3, 3),), (_n(4, 5) * 2,), (_bc_np.array([[0.0, 0.0, 0.0, 0.0], [0.0, 1000.0, 2000.0, 0.0]]),),
            (_n(2, 6) * 1000,), (_n(5, 2),)]
''',
    # 05 (NumPy)
    "batched_attention": '''
_n = lambda *s: _bc_rng.normal(size=s)
_bc_args = [(_n(3, 3), _n(3, 3), _n(3, 2), True), (_n(3, 4), _n(5, 4), _n(5, 2), True),
            (_n(3, 4), _n(5, 4), _n(5, 2), False), (_n(2, 3, 4), _n(2, 5, 4), _n(2, 5, 3), True),
            (_n(2, 2, 3, 4), _n(2, 2, 3, 4), _n(2, 2, 3, 6), False), (_n(4, 8) * 100, _n(4, 8) * 100, _n(4, 3), True)]
''',
    "causal_mask": '''
_bc_args = [(1,), (4,), (7,)]
''',
    "masked_attention": '''
_n = lambda *s: _bc_rng.normal(size=s)
_causal = _bc_np.tril(_bc_np.ones((4, 4), dtype=bool))
_pad = _bc_np.array([[[True, True, False, False]], [[True, True, True, True]], [[True, False, False, False]]])
_rows = _bc_rng.random((3, 5)) < 0.6
_rows[:, 0] = True
_bc_args = [(_n(4, 3), _n(4, 3), _n(4, 2), _causal), (_n(3, 4, 3), _n(3, 4, 3), _n(3, 4, 5), _pad),
            (_n(3, 3), _n(5, 3), _n(5, 2), _rows), (_bc_np.array([[1.0]]), _bc_np.array([[0.0], [1000.0]]), _bc_np.eye(2),
             _bc_np.array([[True, False]])), (_n(2, 4, 3) * 100, _n(2, 4, 3) * 100, _n(2, 4, 2), _causal)]
''',
    "padding_mask": '''
_bc_args = [(_bc_np.array([2, 3]), 3), (_bc_np.array([1, 4, 2]), 4), (_bc_np.array([3, 1]), 5), (_bc_np.array([5]), 5)]
''',
    # 06 (NumPy)
    "split_heads": '''
_n = lambda *s: _bc_rng.normal(size=s)
_bc_args = [(_n(3, 4), 2), (_n(2, 3, 8), 4), (_n(2, 2, 5, 6), 3), (_n(4, 6), 1), (_n(3, 6), 3)]
''',
    "combine_heads": '''
_n = lambda *s: _bc_rng.normal(size=s)
_bc_args = [(_n(2, 3, 2),), (_n(2, 4, 3, 5),), (_n(8, 3, 4),), (_n(2, 2, 3, 3, 2),), (_n(1, 4, 3),)]
''',
    "head_weights": '''
_n = lambda *s: _bc_rng.normal(size=s)
_bc_args = [(_n(3, 8), _n(8, 8), _n(8, 8), 4), (_n(2, 5, 6), _n(6, 6), _n(6, 6), 3), (_n(3, 4), _n(4, 6), _n(4, 6), 2),
            (_n(3, 8) * 30, _n(8, 8) * 30, _n(8, 8), 2), (_n(2, 3, 4), _n(4, 4), _n(4, 4), 1)]
''',
    "multi_head_attention": '''
_n = lambda *s: _bc_rng.normal(size=s)
_bc_args = [(_n(3, 8), _n(8, 8), _n(8, 8), _n(8, 8), _n(8, 8), 4), (_n(2, 5, 6), _n(6, 6), _n(6, 6), _n(6, 6), _n(6, 6), 3),
            (_n(3, 4), _n(4, 6), _n(4, 6), _n(4, 6), _n(6, 5), 2), (_n(2, 3, 4), _n(4, 4), _n(4, 4), _n(4, 4), _n(4, 4), 1),
            (_n(3, 8) * 30, _n(8, 8), _n(8, 8), _n(8, 8), _n(8, 8), 2)]
''',
    "torch_attn_mask": '''
_bc_args = [(_bc_rng.random((2, 3, 3)) < 0.5, 4), (_bc_rng.random((3, 2, 5)) < 0.5, 3), (_bc_rng.random((1, 4, 4)) < 0.5, 1),
            (_bc_rng.random((2, 3, 3)) < 0.5, 2)]
''',
    # 07 (PyTorch)
    "mhsa_forward": '''
_f = lambda *s: torch.from_numpy(_bc_rng.normal(size=s).astype(_bc_np.float32))
_d = lambda *s: torch.from_numpy(_bc_rng.normal(size=s))
_bc_args = [(_f(2, 5, 6), _f(6, 4) / 2, _f(6, 4) / 2, _f(6, 4) / 2, _f(4, 4) / 2, 2, False),
            (_f(2, 5, 6), _f(6, 4) / 2, _f(6, 4) / 2, _f(6, 4) / 2, _f(4, 4) / 2, 2, True),
            (_d(1, 4, 3), _d(3, 6), _d(3, 6), _d(3, 6), _d(6, 6), 3, True),
            (_f(1, 6, 3), _f(3, 2), _f(3, 2), _f(3, 2), torch.eye(2), 1, True),
            (_f(2, 3, 8), _f(8, 8) / 3, _f(8, 8) / 3, _f(8, 8) / 3, _f(8, 8) / 3, 4, False)]
''',
    "sinusoidal_encoding": '''
_bc_args = [(4, 6), (10, 16), (1, 2), (7, 4), (64, 32)]
''',
    "rotary_embedding": '''
_f = lambda *s: torch.from_numpy(_bc_rng.uniform(-1, 1, size=s).astype(_bc_np.float32))
_bc_args = [(_f(5, 8), torch.tensor([3, 4, 5, 6, 7])), (_f(2, 2, 4, 6), torch.arange(4)),
            (torch.from_numpy(_bc_rng.normal(size=(3, 4))), torch.tensor([0, 9, 2])), (_f(1, 16), torch.tensor([30]))]
''',
    "kv_cache_step": '''
_f = lambda *s: torch.from_numpy(_bc_rng.normal(size=s).astype(_bc_np.float32))
_d = lambda *s: torch.from_numpy(_bc_rng.normal(size=s))
_bc_args = [(_f(1, 2, 1, 4), _f(1, 2, 1, 4), _f(1, 2, 1, 4), _f(1, 2, 5, 4), _f(1, 2, 5, 4)),
            (_f(2, 3, 4), _f(2, 3, 4), _f(2, 3, 2), _f(2, 4, 4), _f(2, 4, 2)),
            (_d(4, 3), _d(4, 3), _d(4, 3), _d(0, 3), _d(0, 3)),
            (_f(2, 2, 2, 4), _f(2, 2, 2, 4), _f(2, 2, 2, 3), _f(2, 2, 3, 4), _f(2, 2, 3, 3))]
''',
    # 08 (NumPy)
    "attention_matrices": '''
_bc_args = [tuple(_bc_rng.normal(size=(4, 6, 6))), tuple(_bc_rng.normal(size=(4, 4, 4)).astype(_bc_np.float32))]
''',
    "bert_embeddings": '''
_n = lambda *s: _bc_rng.normal(size=s)
_norm = _bc_np.stack([1 + 0.1 * _n(6), 0.1 * _n(6)])
_bc_args = [(_bc_rng.integers(0, 20, (2, 5)), _bc_rng.integers(0, 2, (2, 5)), _n(20, 6), _n(9, 6), _n(2, 6), _norm),
            (_bc_np.array([[3, 7, 7, 1, 0]]), _bc_np.array([[0, 0, 1, 1, 1]]), _n(20, 6), _n(9, 6), _n(2, 6), _norm)]
''',
    "bert_head_weights": '''
_n = lambda *s: _bc_rng.normal(size=s)
_mask = _bc_np.array([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]])
_bc_args = [(_n(2, 5, 8), _n(8, 8) / 3, _n(8), _n(8, 8) / 3, _n(8), _mask, 2),
            (_n(2, 5, 8), _n(8, 8) / 3, _n(8), _n(8, 8) / 3, _n(8), _mask, 4),
            (_n(1, 4, 6), _n(6, 6), _n(6), _n(6, 6), _n(6), _bc_np.ones((1, 4), dtype=_bc_np.int64), 3)]
''',
    "bert_layer": '''
_n = lambda *s: _bc_rng.normal(size=s)
def _layer(d, ff):
    return [_n(4, d, d) / _bc_np.sqrt(d), 0.3 * _n(4, d), 2 * _n(d, ff) / _bc_np.sqrt(d), 0.3 * _n(ff),
            _n(ff, d) / _bc_np.sqrt(ff), 0.3 * _n(d), _bc_np.array([1.0, 0.0])[:, None] + 0.2 * _n(2, 2, d)]
_mask = _bc_np.array([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]])
_bc_args = [(_n(2, 5, 8), _mask, *_layer(8, 16), 2), (_n(2, 5, 6), _mask, *_layer(6, 12), 3)]
''',
    "sentence_embedding": '''
_n = lambda *s: _bc_rng.normal(size=s)
def _model(layers, d, ff, vocab):
    tables = [_n(vocab, d), _n(7, d), _n(2, d), _bc_np.array([[1.0], [0.0]]) + 0.2 * _n(2, d)]
    stacks = [_n(layers, 4, d, d) / _bc_np.sqrt(d), 0.3 * _n(layers, 4, d), 2 * _n(layers, d, ff) / _bc_np.sqrt(d),
              0.3 * _n(layers, ff), _n(layers, ff, d) / _bc_np.sqrt(ff), 0.3 * _n(layers, d),
              _bc_np.array([1.0, 0.0])[:, None] + 0.2 * _n(layers, 2, 2, d)]
    return tables + stacks
_ids = _bc_np.array([[1, 5, 9, 3, 2], [1, 7, 2, 0, 0]])
_mask = _bc_np.array([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]])
_bc_args = [(_ids, _bc_np.zeros_like(_ids), _mask, *_model(2, 8, 16, 12), 2),
            (_ids, _bc_np.array([[0, 0, 0, 1, 1], [0, 1, 1, 0, 0]]), _mask, *_model(1, 6, 12, 12), 3),
            (_ids, _bc_np.zeros_like(_ids), _mask, *_model(3, 8, 16, 12), 4)]
''',
    "head_patterns": '''
_bc_args = [(_bc_rng.dirichlet(_bc_np.ones(5), size=(3, 2, 5)),), (_bc_rng.dirichlet(_bc_np.ones(4), size=4),),
            (_bc_rng.dirichlet(_bc_np.ones(6) * 0.3, size=(2, 6)),),
            (_bc_np.eye(4, k=-1) + _bc_np.diag([1.0, 0.0, 0.0, 0.0]),)]
''',
    # 09 (PyTorch)
    "encode": '''
_chars = list("abcdefghijXYZ .,;\\n")
_bc_args = []
for _n in (5, 12, 1, 30):
    _vocab = "".join(_chars[_i] for _i in _bc_rng.permutation(len(_chars)))
    _bc_args.append(("".join(_vocab[_i] for _i in _bc_rng.integers(0, len(_vocab) - 3, _n)), _vocab))
''',
    "decode": '''
_chars = list("abcdefghijXYZ .,;\\n")
_bc_args = []
for _n in (5, 12, 1, 30):
    _vocab = "".join(_chars[_i] for _i in _bc_rng.permutation(len(_chars)))
    _bc_args.append((torch.from_numpy(_bc_rng.integers(0, len(_vocab), _n)), _vocab))
''',
    "layer_norm": '''
_f = lambda *s: torch.from_numpy((_bc_rng.normal(size=s) * 3 + 1).astype(_bc_np.float32))
_d = lambda *s: torch.from_numpy(_bc_rng.normal(size=s) * 2 - 1)
_bc_args = [(_f(2, 3, 8), 1 + 0.3 * _f(8), 0.2 * _f(8)), (_d(4, 6), 1 + 0.3 * _d(6), 0.2 * _d(6)),
            (_f(5, 16), torch.ones(16), torch.zeros(16)), (torch.tensor([[5.0, 5.0, 5.0, 5.0], [1.0, 2.0, 3.0, 6.0]]),
            torch.ones(4), torch.zeros(4))]
''',
    "causal_attention": '''
_f = lambda *s: torch.from_numpy(_bc_rng.normal(size=s).astype(_bc_np.float32))
_d = lambda *s: torch.from_numpy(_bc_rng.normal(size=s))
_bc_args = [(_f(1, 2, 4, 4), _f(1, 2, 4, 4), _f(1, 2, 4, 4)), (_f(1, 2, 2, 4), _f(1, 2, 4, 4), _f(1, 2, 4, 4)),
            (_d(1, 3), _d(5, 3), _d(5, 2)), (_d(2, 3, 4), _d(2, 6, 4), _d(2, 6, 5)), (_f(2, 2, 1, 8), _f(2, 2, 7, 8), _f(2, 2, 7, 3))]
''',
    "block_forward": '''
def _block_args(d, heads, dtype):
    c = lambda a: a.astype(dtype)
    return (c(_bc_rng.normal(size=(2, 5, d))), c(_bc_rng.normal(size=(4, d, d)) / _bc_np.sqrt(d)),
            c(_bc_rng.normal(size=(d, 4 * d)) / _bc_np.sqrt(d)), c(0.3 * _bc_rng.normal(size=4 * d)),
            c(_bc_rng.normal(size=(4 * d, d)) / _bc_np.sqrt(4 * d)), c(0.3 * _bc_rng.normal(size=d)),
            c(_bc_np.array([1.0, 0.0])[:, None] + 0.2 * _bc_rng.normal(size=(2, 2, d))), heads)
_bc_args = [tuple(torch.from_numpy(a) if isinstance(a, _bc_np.ndarray) else a for a in _block_args(8, 2, _bc_np.float32)),
            tuple(torch.from_numpy(a) if isinstance(a, _bc_np.ndarray) else a for a in _block_args(12, 3, _bc_np.float64)),
            tuple(torch.from_numpy(a) if isinstance(a, _bc_np.ndarray) else a for a in _block_args(8, 1, _bc_np.float32))]
''',
    "count_parameters": '''
_bc_args = [(75, 128, 64, 2), (10, 8, 4, 1), (50, 16, 8, 3), (7, 5, 12, 4)]
''',
    "causal_lm_loss": '''
_f = lambda *s: torch.from_numpy(_bc_rng.normal(size=s).astype(_bc_np.float32))
_t = lambda high, *s: torch.from_numpy(_bc_rng.integers(0, high, size=s))
_bc_args = [(_f(2, 4, 6), _t(6, 2, 4)), (_f(1, 3, 5) * 1000, _t(5, 1, 3)), (_f(3, 2, 9), _t(9, 3, 2)),
            (torch.log(torch.tensor([[[0.5, 0.25, 0.25], [0.1, 0.8, 0.1]]])), torch.tensor([[0, 1]]))]
''',
    "next_token_probabilities": '''
_f = lambda *s: torch.from_numpy(_bc_rng.normal(size=s).astype(_bc_np.float32))
_bc_args = [(_f(3, 7), 1.5, 3), (_f(3, 7), 1.0, None), (_f(2, 5), 0.5, 1), (_f(1, 4), 2.0, 4),
            (torch.tensor([[2.0, 1.0, 0.0, -1.0]]), 0.5, 2)]
''',
    "generate": '''
_stand_in = [torch.from_numpy(_bc_rng.normal(size=(6, 4))), torch.from_numpy(_bc_rng.normal(size=(16, 4))),
             torch.from_numpy(_bc_rng.normal(size=(4, 6)) * 3)]
_model = lambda steps: StandInModel(*_stand_in, max_calls=steps + 1)
_bc_args = [(_model(5), torch.tensor([[1, 4, 2]]), 5, 0.0, None), (_model(4), torch.tensor([[0, 5], [3, 3]]), 4, 1.0, 1),
            (_model(15), torch.tensor([[2]]), 15, 0.0, None), (_model(6), torch.tensor([[3, 1, 4, 1], [5, 0, 2, 6 % 6]]), 6, 0.0, None),
            (_model(15), torch.tensor([[1, 2]]), 15, 0.0, None)]
''',
    # 10 (NumPy)
    "online_softmax": '''
_n = lambda *s: _bc_rng.normal(size=s)
_bc_args = [(_n(6), 4), (_n(3, 8) * 5, 3), (_bc_np.array([[1e4, -1e4, 0.0, 5e3, -5e3], [-3.0, 7.0, 1e4, 2.0, 1e4]]), 2),
            (_n(2, 3, 7), 10), (_n(5).astype(_bc_np.float32), 1), (_n(4, 9) * 50, 4),
            (_bc_np.array([[0.0, 1.0, 2.0, 10.0, 11.0, 12.0, 20.0, 21.0]]), 3)]
''',
    "blocked_attention": '''
_n = lambda *s: _bc_rng.normal(size=s)
_f = lambda *s: _bc_rng.normal(size=s).astype(_bc_np.float32)
_bc_args = [(_n(9, 4), _n(9, 4), _n(9, 3), 4, True), (_n(7, 4), _n(10, 4), _n(10, 3), 4, False),
            (_n(2, 6, 4), _n(2, 6, 4), _n(2, 6, 5), 4, True), (_f(3, 5, 8) * 30, _f(3, 5, 8) * 30, _f(3, 5, 2), 2, True),
            (_n(6, 4) * 100, _n(6, 4) * 100, _n(6, 3), 5, False), (_n(4, 3), _n(4, 3), _n(4, 3), 10, True),
            (_n(2, 2, 5, 4), _n(2, 2, 5, 4), _n(2, 2, 5, 2), 3, False)]
''',
    "grouped_query_attention": '''
_n = lambda *s: _bc_rng.normal(size=s)
_bc_args = [(_n(6, 5, 4), _n(2, 5, 4), _n(2, 5, 3)), (_n(2, 4, 3, 4), _n(2, 2, 5, 4), _n(2, 2, 5, 4)),
            (_n(3, 4, 2), _n(3, 4, 2), _n(3, 4, 2)), (_n(4, 3, 4), _n(1, 3, 4), _n(1, 3, 2)),
            (_n(2, 8, 3, 4), _n(2, 2, 4, 4), _n(2, 2, 4, 6))]
''',
}


def load_cases(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem.replace("-", "_"), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.MISTAKES, module.VARIANTS


def nbgrader(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {})


def exercises(nb) -> dict[str, tuple[int, list[int]]]:
    """grade_id -> (index of the solution code cell, indices of the graded code cells after it)."""
    found: dict[str, tuple[int, list[int]]] = {}
    current = None
    for index, cell in enumerate(nb.cells):
        meta = nbgrader(cell)
        if cell.cell_type != "code":
            continue
        if meta.get("solution") and meta.get("grade_id"):
            current = meta["grade_id"]
            found[current] = (index, [])
        elif meta.get("grade") and current is not None:
            found[current][1].append(index)
    return found


def has_error(cell) -> bool:
    """Whether the cell's outputs contain an error; the outputs are dropped unread."""
    error = any(output.get("output_type") == "error" for output in cell.get("outputs", []))
    cell["outputs"] = []
    return error


class Kernel:
    """One notebook's kernel, driven cell by cell."""

    def __init__(self, nb, workdir: str):
        self.nb = nb
        self.client = NotebookClient(nb, kernel_name="python3", timeout=900, allow_errors=True,
                                     resources={"metadata": {"path": workdir}})

    def run(self, source: str, index: int = 0) -> bool:
        """Execute `source` as a new cell; True when it raised (its output is not read)."""
        cell = nbformat.v4.new_code_cell(source)
        self.client.execute_cell(cell, index)
        return has_error(cell)

    def run_own(self, source: str) -> tuple[bool, str]:
        """Execute helper code written here and return (error, its own stdout)."""
        cell = nbformat.v4.new_code_cell(source)
        self.client.execute_cell(cell, 0)
        error = any(output.get("output_type") == "error" for output in cell.outputs)
        text = "".join(output.get("text", "") for output in cell.outputs if output.get("output_type") == "stream"
                       and output.get("name") == "stdout")
        cell["outputs"] = []
        return error, text

    def run_cell(self, index: int) -> bool:
        cell = self.nb.cells[index]
        self.client.execute_cell(cell, index)
        return has_error(cell)


def check_notebook(notebook: Path, case_file: Path) -> tuple[list[str], dict]:
    mistakes, variants = load_cases(case_file)
    nb = nbformat.read(notebook, as_version=4)
    found = exercises(nb)
    problems: list[str] = []
    counts = {"mistakes": 0, "variants": 0, "mistakes_failing_visible": 0, "mistakes_differing": 0,
              "variants_passing": 0}
    missing = sorted(set(found) - set(variants))
    if missing:
        problems.append(f"no variant for {missing}")
    unknown = sorted((set(mistakes) | set(variants)) - set(found))
    if unknown:
        problems.append(f"cases for unknown grade_ids {unknown}")
    first_variant = {gid: next(iter(variants[gid].values())) for gid in found if gid in variants}
    for gid, (solution, _) in found.items():
        if gid in first_variant:
            nb.cells[solution].source = first_variant[gid].strip("\n") + "\n"

    saved_path = os.environ.pop("PYTHONPATH", None)
    with tempfile.TemporaryDirectory(prefix="blindcheck_") as workdir:
        kernel = Kernel(nb, workdir)
        started = time.perf_counter()
        with kernel.client.setup_kernel(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
            # 1. the fully answered notebook
            test_cells = {index for _, tests in found.values() for index in tests}
            failed_tests, failed_other = [], []
            for index, cell in enumerate(nb.cells):
                if cell.cell_type != "code":
                    continue
                if kernel.run_cell(index):
                    (failed_tests if index in test_cells else failed_other).append(index)
            print(f"  step 1: notebook with first variants ran in {time.perf_counter() - started:.0f} s; "
                  f"visible test cells failing: {failed_tests or 'none'}; other cells raising: {failed_other or 'none'}")
            if failed_tests:
                problems.append(f"step 1: test cells {failed_tests} fail with the first variants")
            error, text = kernel.run_own(HELPERS + "\nprint('helpers ok')")
            if error or "helpers ok" not in text:
                problems.append("kernel helpers failed to load")

            # 2. and 3. every case
            for gid, (solution, tests) in found.items():
                names = names_of(gid)
                restore = first_variant.get(gid)
                cases = [("variant", tag, None, src) for tag, src in variants.get(gid, {}).items()]
                cases += [("mistake", tag, keys, src) for tag, (keys, src) in mistakes.get(gid, {}).items()]
                for kind, tag, _keys, src in cases:
                    counts[kind + "s"] += 1
                    kernel.run_own("".join(f"globals().pop({n!r}, None)\n" for n in names))
                    defined = not kernel.run(src, solution)
                    if defined:
                        _, text = kernel.run_own(f"print('DEFINED', all(n in globals() for n in {names!r}))")
                        defined = "DEFINED True" in text
                    passed = defined and not any(kernel.run_cell(index) for index in tests)
                    verdict = "PASS" if passed else "FAIL"
                    note = "" if defined else " (its cell did not define the function)"
                    if kind == "variant":
                        ok = passed
                        counts["variants_passing"] += passed
                        line = f"    {gid:27} variant {tag:30} {verdict}{note}"
                    else:
                        counts["mistakes_failing_visible"] += not passed
                        differs = None
                        if defined and restore is not None:
                            differs = False
                            for function in COMPARED.get(gid, [gid]):
                                code = ("_bc_rng = _bc_np.random.default_rng(20240601)\n" + GENERATORS[function]
                                        + f"\nprint('BLINDCHECK', _bc_differs({src!r}, {restore!r}, {function!r}, _bc_args))")
                                error, text = kernel.run_own(code)
                                if error or "BLINDCHECK" not in text:
                                    problems.append(f"{gid}/{tag}: the random-input comparison of {function} could not run")
                                    differs = None
                                    break
                                if "BLINDCHECK True" in text:
                                    differs = True
                                    break
                        counts["mistakes_differing"] += bool(differs)
                        ok = defined and (not passed or bool(differs))
                        line = (f"    {gid:27} mistake {tag:30} {verdict}  "
                                f"{'differs' if differs else 'SAME' if differs is False else '?'} on random inputs")
                    if not ok:
                        line += "   <-- PROBLEM"
                        problems.append(f"{gid}/{kind} {tag}")
                    print(line, flush=True)
                    # put the first variant back
                    if restore is not None:
                        kernel.run(restore, solution)
    if saved_path is not None:
        os.environ["PYTHONPATH"] = saved_path
    return problems, counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", help="notebook numbers, e.g. 01 07 (default: all)")
    parser.add_argument("--set", default="blind1", help="the case set's folder under tests/blind (default: blind1)")
    args = parser.parse_args()
    global CASES
    CASES = HERE / args.set
    case_files = sorted(CASES.glob("[0-9][0-9]_*.py"))
    if args.notebooks:
        case_files = [f for f in case_files if f.name[:2] in args.notebooks]
    all_problems: list[str] = []
    totals: dict[str, int] = {}
    for case_file in case_files:
        notebook = NOTEBOOKS / (case_file.stem + ".ipynb")
        print(f"{notebook.name}", flush=True)
        if not notebook.exists():
            print("  SKIPPED: this checkout has no such notebook yet", flush=True)
            all_problems.append(f"{case_file.stem}: not checked (no notebook {notebook.name})")
            continue
        try:
            problems, counts = check_notebook(notebook, case_file)
        except DeadKernelError:  # a shared machine may kill a kernel: try the notebook once more
            print("  the kernel died; running this notebook once more", flush=True)
            problems, counts = check_notebook(notebook, case_file)
        print(f"  {counts}", flush=True)
        for key, value in counts.items():
            totals[key] = totals.get(key, 0) + value
        all_problems += [f"{case_file.stem}: {p}" for p in problems]
    print("TOTAL", totals)
    if all_problems:
        print("PROBLEMS:")
        for problem in all_problems:
            print("  " + problem)
        return 1
    print("every variant passes; every mistake fails the visible check or differs on random inputs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
