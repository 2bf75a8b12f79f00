"""The model answers as the solution notebooks write them, callable on NumPy arrays.

Each graded function is read from its source notebook in ``solutions/`` (the instructor's code,
trusted): the notebook's code cells that define the exercises' functions and whatever those use
(found by :func:`autograder.slicing.needed_cells`, so a cell that trains a model or loads one for a
plot is not run unless an answer needs it) run once per notebook, in the grader's own process, in
one namespace. :func:`solution_function` wraps the function found there so that it takes and
returns NumPy arrays, as the key's references do.

``tests/test_answer_key.py`` checks that every reference of the key agrees with the solution
notebook's function on every probe of the stored plans: that is what keeps the two equal.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import importlib
import io
import os
import pkgutil
import threading
import warnings
from collections.abc import Callable
from pathlib import Path

import nbformat
import numpy as np

from .. import SOLUTIONS
from ..records import Cell
from ..slicing import _python, needed_cells
from . import exercises as _exercises_package

_RUNNING = threading.Lock()  # one thread runs a notebook's cells; the others wait for its functions


def notebook_of(exercise: str) -> Path:
    """The source notebook whose exercise module (``nNN_<name>``) defines ``exercise``."""
    for module in pkgutil.iter_modules(_exercises_package.__path__):
        names = {spec.name for spec in importlib.import_module(
            f"{_exercises_package.__name__}.{module.name}").EXERCISES}
        if exercise in names:
            number = module.name[1:3]
            found = sorted(SOLUTIONS.glob(f"{number}_*.ipynb"))
            if len(found) != 1:
                raise FileNotFoundError(f"no single solutions/{number}_*.ipynb for exercise {exercise!r}")
            return found[0]
    raise KeyError(f"unknown exercise {exercise!r}")


def _definition_cells(nb: nbformat.NotebookNode) -> list[Cell]:
    """The notebook's code cells, every one taken as the course's own (a solution cell too), so that
    only those binding a name the answers need are run (test cells never are)."""
    cells = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        meta = cell.metadata.get("nbgrader", {})
        test = bool(meta.get("grade")) and not meta.get("solution")
        grade_id = meta.get("grade_id")
        cells.append(Cell(index, "test" if test else "code", cell.source,
                          grade_id if grade_id == "setup" else None, False))
    return cells


@contextlib.contextmanager
def _process_state_kept():
    """Undo what a notebook's set-up cell sets for the whole process: the grader computes the
    mutants in the same process. ``torch.set_flush_denormal(True)`` (notebooks 07 and 09) flushes
    NumPy's tiny floats to zero too, turning a mistake's underflowing softmax into nan; thread
    counts, print options, floating-point error handling and random states are put back as well."""
    import random

    import torch  # imported before the cells, so that its settings before them can be read

    numpy_state, python_state, torch_state = np.random.get_state(), random.getstate(), torch.get_rng_state()
    threads, dtype = torch.get_num_threads(), torch.get_default_dtype()
    printing, errors = np.get_printoptions(), np.geterr()
    try:
        yield
    finally:
        torch.set_flush_denormal(False)  # the default; PyTorch offers no way to read it
        torch.set_num_threads(threads)
        torch.set_default_dtype(dtype)
        torch.set_rng_state(torch_state)
        np.random.set_state(numpy_state)
        random.setstate(python_state)
        np.set_printoptions(**printing)
        np.seterr(**errors)


@functools.cache
def namespace(path: Path, called: frozenset[str]) -> dict:
    """The globals of ``path``'s cells that define ``called`` and what those use, run once."""
    nb = nbformat.read(path, as_version=4)
    cells = _definition_cells(nb)
    released = {cell.source for cell in cells}
    needed = needed_cells(cells, set(called), released)
    if needed is None:
        raise ValueError(f"{path.name}: a cell the answers need cannot be sliced")
    names: dict = {"__name__": "__solution__"}
    here = os.getcwd()
    try:
        os.chdir(path.parent)  # a cell may read a file next to its notebook
        with _process_state_kept(), contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for cell in cells:
                if cell.index in needed:
                    exec(compile(_python(cell.source), f"{path.name}[{cell.index}]", "exec"), names)  # noqa: S102
    finally:
        os.chdir(here)
    return names


@functools.cache
def checked_function(exercise: str) -> str:
    """The name of the function the notebook's checks of ``exercise`` call: the exercise's own, or a
    helper of the notebook that wraps it (``generate_with_stand_in`` for ``generate``), read from the
    test cells' calls ``check("<exercise>", <function>, ...)``. Read from the source, not from the
    stored plan, so that it holds while a changed notebook's plan is being learnt again."""
    nb = nbformat.read(notebook_of(exercise), as_version=4)
    names = set()
    for cell in _definition_cells(nb):
        if cell.kind != "test":
            continue
        for node in ast.walk(ast.parse(_python(cell.source))):
            if (isinstance(node, ast.Call) and len(node.args) >= 2 and isinstance(node.args[0], ast.Constant)
                    and node.args[0].value == exercise and isinstance(node.args[1], ast.Name)):
                names.add(node.args[1].id)
    if len(names) > 1:
        raise ValueError(f"the checks of {exercise!r} call several functions: {sorted(names)}")
    return names.pop() if names else exercise


def _notebook_names(path: Path) -> frozenset[str]:
    """Every function the checks of ``path``'s notebook call, and what those use."""
    from .exercises import all_exercises

    called = set()
    for name, spec in all_exercises().items():
        if notebook_of(name) == path:
            called |= {checked_function(name), *spec.uses}
    return frozenset(called)


def solution_function(exercise: str, framework: str) -> Callable:
    """The function the checks of ``exercise`` call, from its solution notebook, taking and
    returning NumPy arrays (the notebook runs now, if it has not yet)."""
    from attention_course.convert import to_framework, to_numpy

    path = notebook_of(exercise)
    with _RUNNING:
        function = namespace(path, _notebook_names(path))[checked_function(exercise)]

    def numpy_answer(*args, **kwargs):
        given = [to_framework(a, framework) if isinstance(a, np.ndarray) else a for a in args]
        result = function(*given, **kwargs)
        if isinstance(result, tuple):
            return tuple(to_numpy(part) for part in result)
        return to_numpy(result)

    numpy_answer.__name__ = exercise
    return numpy_answer


def solution_answer(exercise: str, framework: str, computed_in_float64: bool = False) -> Callable:
    """:func:`solution_function`, read from the notebook on its first call only: registering the
    exercises runs no notebook (the build, the tests and a grading run that needs no key pay
    nothing). With ``computed_in_float64``, every array input is given as float64."""
    found: list[Callable] = []

    def reference(*args, **kwargs):
        if not found:
            found.append(solution_function(exercise, framework))
        if computed_in_float64:
            args = tuple(np.asarray(a, dtype=np.float64) if hasattr(a, "shape") else a for a in args)
        return found[0](*args, **kwargs)

    reference.__name__ = exercise
    return reference
