"""The answer key: references, mistakes' mutants and the exercise registry. Grading side only.

Nothing here ships to learners (the ``attention-course`` package is ``src/attention_course``): the
notebooks' visible checks use results that the build precomputes from this key for the notebooks'
own inputs (``python3 tasks.py build`` writes ``src/attention_course/expected/``), and the grader
judges hidden tests with :class:`ComputedKey`, in its own process, never in the sandbox where
submitted code runs.
"""

from __future__ import annotations

import hashlib
import json
import threading

import numpy as np

from attention_course.convert import encode
from attention_course.verdict import Key, task_dtype

from .exercises import all_exercises, get_exercise, in_framework  # noqa: F401
from .table import Mutant, all_mutants


def _copies(inputs, precision=None):
    out = []
    for value in inputs:
        if isinstance(value, np.ndarray):
            value = value.copy()
            if precision is not None and np.issubdtype(value.dtype, np.floating):
                value = value.astype(precision)
        out.append(value)
    return out


def _plain(value):
    array = np.asarray(value)
    return array if array.dtype.kind in "biuf" else None


def _call(function, args, kwargs):
    """(result, None) or (None, the error's first line), with NumPy's warnings silenced."""
    from .mistakes import steps_unchanged

    with steps_unchanged(), np.errstate(all="ignore"):
        try:
            return _plain(function(*args, **kwargs)), None
        except Exception as error:
            lines = str(error).splitlines()
            return None, (lines[0] if lines else "")[:300]


def standin(exercise: str, name: str, args: list, kwargs: dict) -> dict:
    """The reply to a sandbox's request for ``name``, an earlier answer that ``exercise`` may call:
    the reference's result on the sandbox's arguments (the caller checked that ``exercise`` uses it)."""
    from .mistakes import steps_unchanged

    function = in_framework(get_exercise(exercise).uses[name], "numpy")
    try:
        with steps_unchanged(), np.errstate(all="ignore"):  # another thread may be computing a mutant
            value = function(*args, **kwargs)
    except Exception as error:  # noqa: BLE001 (the arguments came from the sandbox: any failure is theirs)
        return {"op": "standin_result", "error": f"{type(error).__name__}: {str(error)[:200]}"}
    return {"op": "standin_result", "value": list(value) if isinstance(value, tuple) else value}


def meta(exercise: str) -> dict:
    spec = get_exercise(exercise)
    return {"framework": spec.framework, "returns": spec.returns, "integers_ok": spec.integers_ok,
            "returns_tuple": spec.returns_tuple, "uses": sorted(spec.uses), "dtype": spec.dtype,
            "dtype_hint": spec.dtype_hint}


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a.shape == b.shape and bool(np.allclose(a.astype(np.float64), b.astype(np.float64), 1e-9, 1e-12,
                                                   equal_nan=True))


def mutant_outputs(exercise: str, probe: dict) -> list[dict]:
    """Every mistake's result on ``probe`` (the rows of :func:`.table.all_mutants`), in float32 and
    float64 where inputs are floats.

    A shared row that changes nothing on this probe (its step is not taken, or the mistake makes no
    difference here) is stored as giving the expected result; the generated rows are computed in the
    task's precision only. Where every float input is float16, the mistakes are made in float16 too
    (an overflow is one).
    """
    spec = get_exercise(exercise)
    floats = any(isinstance(v, np.ndarray) and np.issubdtype(v.dtype, np.floating) for v in probe["inputs"])
    half = ("float16",) if floats and task_dtype(probe) == np.float16 else ()  # the judge's own rule
    base = spec.mistakes_from or spec.reference
    table = all_mutants(exercise)
    rows = []
    for precision in ((*half, "float32", "float64") if floats else ("float64",)):
        args = _copies(probe["inputs"], precision if floats else None)
        for mutant in (m for m in table if m.source == "own"):
            value, error = _call(mutant.function, _copies(args), probe["kwargs"])
            rows.append({"mistake": mutant.mistake, "way": mutant.way, "precision": precision, "value": value,
                         "error": error})
        right, right_error = _call(base, _copies(args), probe["kwargs"])
        for mutant in (m for m in table if m.source == "shared"):
            value, error = _call(mutant.function, _copies(args), probe["kwargs"])
            if (error is not None and right_error is not None) or (error is None and _same(value, right)):
                # this step is not taken here, or the mistake changes nothing on this input: say
                # so without storing the value again (a verdict reads it as "gives the expected")
                rows.append({"mistake": mutant.mistake, "way": mutant.way, "precision": precision,
                             "value": None, "error": None, "as_expected": True})
                continue
            rows.append({"mistake": mutant.mistake, "way": mutant.way, "precision": precision, "value": value,
                         "error": error, **({"weak": True} if error and getattr(mutant.function, "weak_errors", False)
                                            else {})})
        if precision == task_dtype(probe).name or not floats:  # generated: in the task's precision only
            generated = [m for m in table if m.source == "generated"]
            rows.extend(_generated_rows(generated, args, probe["kwargs"], precision, right, rows))
    return rows


def _generated_rows(generated: list[Mutant], args: list, kwargs: dict, precision: str, right,
                    known: list[dict]) -> list[dict]:
    """The generated mistakes' rows (:mod:`.generated`) on one input: only those whose result is a
    number that neither the reference nor a mistake already computed gives (a generated mutant that
    raises, or repeats a result, adds no evidence and would only swell the learner's data)."""
    if right is None:
        return []
    seen = [right, *(row["value"] for row in known if row["precision"] == precision and row["value"] is not None)]
    rows = []
    for mutant in generated:
        value, error = _call(mutant.function, _copies(args), kwargs)
        if error is not None or value is None or any(_same(value, other) for other in seen):
            continue
        rows.append({"mistake": mutant.mistake, "way": mutant.way, "precision": precision, "value": value,
                     "error": None})
    return rows


class _Analysis(dict):
    """An analysis whose mutants are computed only when a verdict asks for them (a wrong answer)."""

    def __init__(self, exercise: str, probe: dict, **known):
        super().__init__(**known)
        self._args = (exercise, probe)

    def __missing__(self, name):
        if name != "mutants":
            raise KeyError(name)
        self["mutants"] = mutant_outputs(*self._args)
        return self["mutants"]


def analyse(exercise: str, probe: dict) -> dict:
    spec = get_exercise(exercise)
    expected, error = _call(spec.reference, _copies(probe["inputs"], None), probe["kwargs"])
    if expected is not None:
        expected = expected.astype(np.float64)
    return _Analysis(exercise, probe, expected=expected, expected_error=error)


def _probe_digest(exercise: str, probe: dict) -> str:
    # arrays of 1 KiB or more enter by the digest of their bytes, not as base64 text: notebook 08's
    # probes carry a model's weights, whose JSON took half of each of its checks' time
    text = json.dumps([exercise, encode(probe, blobs={}, blob_bytes=1 << 10)], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


class ComputedKey(Key):
    """Answers computed from the references and mutants: the grader's key (and a maintainer's).

    Every student of a class is probed on the same inputs, so each analysis (the reference's result,
    and the mutants' once a wrong answer asks for them) is computed once per grading run.

    ``remember_probes``: digest each probe object once, holding it (the grader judges every
    submission on the plan's own probe objects). Off where every call makes new probes (a
    notebook's own checks): held for ever, they grew a kernel by tens of MB per re-run test cell.
    """

    def __init__(self, remember_probes: bool = True):
        self._analyses: dict[str, dict] = {}
        self._digests: dict[int, tuple[dict, str]] = {}  # id(probe) -> (probe, its digest)
        self._remember = remember_probes
        self._lock = threading.Lock()

    def meta(self, exercise: str) -> dict:
        return meta(exercise)

    def analyse(self, exercise: str, probe: dict) -> dict:
        # Every submission is judged on the plan's own probe objects: digest each once a run (the
        # probe is kept with it, so its id cannot be reused by another object).
        if not self._remember:
            digest = _probe_digest(exercise, probe)
        else:
            known = self._digests.get(id(probe))
            if known is None or known[0] is not probe:
                known = self._digests[id(probe)] = (probe, _probe_digest(exercise, probe))
            digest = known[1]
        with self._lock:
            if digest not in self._analyses:
                self._analyses[digest] = analyse(exercise, probe)
            return self._analyses[digest]

    def standins(self, exercise: str) -> dict:
        return get_exercise(exercise).replacements()
