"""What a check asks and what running the learner's function gave, as plain data.

A *call* (:func:`make_call`) says which exercise, which learner function (by name), the *probes*
(inputs on which to run it: the check's own and the evidence probes of
:func:`attention_course.contracts.evidence_probes`) and the options. :func:`run_probe` runs the
function on one probe and returns its *outcome*: an array, or what went wrong, never raising. This
is the only part of the verdict that runs learner code; when grading, it runs in the sandbox.
"""

from __future__ import annotations

import contextlib
import sys
import warnings
from collections.abc import Callable

import numpy as np

from ..contracts import evidence_probes
from ..convert import as_numpy_input, to_framework, to_numpy

KINDS = ("check", "rows_sum_to_one", "shift_invariance", "permutation_equivariance", "raises")


def make_call(kind: str, exercise: str, candidate, inputs: tuple, kwargs: dict | None = None,
              **options) -> dict:
    """The plain-data description of one check: what to run, on what, and how to judge it."""
    if kind not in KINDS:
        raise ValueError(f"unknown check kind {kind!r}")
    kwargs = dict(kwargs or {})
    arrays = tuple(as_numpy_input(v) for v in inputs)
    probes = [{"inputs": list(arrays), "kwargs": kwargs}]
    if options.pop("loose", False):  # inputs in the thousands: judged to 1e-3 of the result's scale
        probes[0]["loose"] = True
    if kind == "check":
        probes += evidence_probes(exercise, list(arrays), kwargs)
    if kind == "shift_invariance":
        shifted = (np.asarray(arrays[0]) + options["shift"], *arrays[1:])
        probes.append({"inputs": list(shifted), "kwargs": kwargs})
    elif kind == "permutation_equivariance":
        token_args = tuple(options.get("token_args", (0,)))
        n_tokens = arrays[token_args[0]].shape[-2]
        order = np.random.default_rng(options.get("seed", 0)).permutation(n_tokens)
        permuted = tuple(v[..., order, :] if i in token_args else v for i, v in enumerate(arrays))
        probes.append({"inputs": list(permuted), "kwargs": kwargs})
        options = {**options, "order": order.tolist(), "token_args": list(token_args)}
    function = getattr(candidate, "__name__", None) if callable(candidate) else None
    return {"kind": kind, "exercise": exercise, "function": function, "probes": probes,
            "options": {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in options.items()}}


@contextlib.contextmanager
def quiet():
    """No warning and nothing on stderr while learner code runs (stderr goes to stdout)."""
    with warnings.catch_warnings(), contextlib.redirect_stderr(sys.stdout):
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            yield


@contextlib.contextmanager
def dependencies_replaced(candidate: Callable, replacements: dict[str, Callable]):
    """Swap names the learner's function calls (their own earlier answers) for stand-ins.

    Each exercise is graded on its own: a wrong ``softmax`` loses the softmax exercise's points
    only, not those of every later function that calls it.
    """
    namespace = getattr(candidate, "__globals__", None)
    saved = {}
    if namespace is not None:
        for name, function in replacements.items():
            if name in namespace:
                saved[name] = namespace[name]
                namespace[name] = function
    try:
        yield
    finally:
        if namespace is not None:
            namespace.update(saved)


def _unchanged(now: np.ndarray, before: np.ndarray) -> bool:
    """Equal, nan for nan: one comparison pass where there is no nan (notebook 08 passes a model's
    weights, whose three-pass ``array_equal(equal_nan=True)`` was a third of its checks' time)."""
    if np.shape(now) != before.shape:
        return False
    with np.errstate(invalid="ignore"):
        if bool(np.all(now == before)):
            return True
    return np.array_equal(now, before, equal_nan=True)


def run_probe(candidate, probe: dict, framework: str, replacements: dict | None = None,
              tuple_ok: bool = False) -> dict:
    """Run the learner's function on one probe; the outcome as plain data (never raises)."""
    if candidate is None:
        return {"status": "missing"}
    if not callable(candidate):
        return {"status": "not_callable", "type": type(candidate).__name__}
    try:
        inputs = [to_framework(value, framework) for value in probe["inputs"]]
        before = [np.array(to_numpy(v), copy=True) if hasattr(v, "shape") else None for v in inputs]
        with quiet(), dependencies_replaced(candidate, replacements or {}):
            result = candidate(*inputs, **probe["kwargs"])
    except NotImplementedError:
        return {"status": "not_implemented"}
    except Exception as error:  # the learner's code raised: keep what and why, in one line
        lines = str(error).splitlines()
        return {"status": "raised", "type": type(error).__name__, "message": (lines[0] if lines else "")[:300]}
    try:
        changed = any(copy is not None and not _unchanged(to_numpy(v), copy)
                      for v, copy in zip(inputs, before, strict=True))
    except Exception:
        changed = False
    if result is None:
        return {"status": "none"}
    if isinstance(result, tuple) and not tuple_ok:
        return {"status": "tuple", "length": len(result)}
    if isinstance(result, list) and not tuple_ok:  # right numbers, maybe, but no array: the next step breaks
        return {"status": "list", "length": len(result)}
    try:
        with quiet():
            value = np.array(to_numpy(result), copy=True)
        if value.dtype.kind not in "biuf":
            raise TypeError(value.dtype)
    except Exception:
        return {"status": "unreadable", "type": type(result).__name__}
    return {"status": "ok", "value": value, "changed_inputs": bool(changed)}
