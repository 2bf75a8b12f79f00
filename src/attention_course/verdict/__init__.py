"""The verdict: from a check's call and the learner's results to pass or fail, with the mistake named.

The same code judges everywhere, on plain data only:

- a *call* (:func:`make_call`) is what a test cell asks: which exercise, which learner function (by
  name), the *probes* (inputs on which to run it) and the options (``expect``, ``what``, ...);
- an *outcome* is what running the learner's function on one probe gave: an array, or what went
  wrong (it raised, returned None, is missing, ...), as produced by :func:`run_probe`;
- a *key* answers, for one probe, the expected result and each catalogued mistake's result. The
  learner's package holds a :class:`StoredKey` of the notebooks' own visible inputs, precomputed by
  the build; the grader uses ``autograder.key.ComputedKey``, which runs the references and mutants
  on the grading side, out of the learner's reach.

:func:`judge` never calls learner code: when grading, outcomes come back from the sandbox as plain
data, and the verdict runs in the grader's own process. Tolerances depend on the dtype and are set
in one place, :data:`TOLERANCES`; the task sets the precision (:func:`task_dtype`), not the answer.

A ``check`` runs the learner's function on the check's input and on *evidence probes* derived from
it (:func:`attention_course.contracts.evidence_probes`: other values, other sizes, large values).
When the answer is wrong, a mistake is named only when its result matches the learner's on every
probe (and, if several do, when they are indistinguishable there); otherwise the message describes
the symptom: what is off, by what factor, on which kind of input.

The modules, one concern each:

- :mod:`.tolerances`: :data:`TOLERANCES`, the task's precision, ``close``;
- :mod:`.probing`: calls and probes, and running the learner's function on one probe (the only part
  that runs learner code);
- :mod:`.keys`: what a key answers, and the stored key of the notebooks' visible inputs;
- :mod:`.errors`: reading the errors learner code raised (their kind, the sizes that mismatched);
- :mod:`.naming`: which catalogued mistakes explain the results on every probe, and their names;
- :mod:`.symptoms`: what is wrong with a result no catalogued mistake explains;
- :mod:`.diagnosis`: the failure message of a wrong answer, from the evidence of every probe;
- :mod:`.judging`: the judge itself, :func:`judge`, and the verdict it returns.
"""

from __future__ import annotations

from .errors import error_kind, error_signature
from .judging import CheckFailed, Verdict, expect_lines, judge
from .keys import Key, StoredKey, same_probe
from .naming import diagnose
from .probing import KINDS, dependencies_replaced, make_call, quiet, run_probe
from .tolerances import TOLERANCES, close, close_on, task_dtype, tolerance

__all__ = ["KINDS", "TOLERANCES", "CheckFailed", "Key", "StoredKey", "Verdict", "close", "close_on",
           "dependencies_replaced", "diagnose", "error_kind", "error_signature", "expect_lines", "judge",
           "make_call", "quiet", "run_probe", "same_probe", "task_dtype", "tolerance"]
