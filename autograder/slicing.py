"""Which cells grading needs: the learner's code and the course's cells it depends on.

A test cell is graded by calling the learner's functions on the plan's fixed inputs (see
the grader), never on what an earlier cell computed. So the score depends only on
the functions the tests call, on the cells that define them (the learner's solution cells and any
cell the learner added) and on the course's cells whose names those use: the set-up cell's
imports, a constant, a helper. A cell that trains a model for a plot, or prints a demonstration,
changes no score: skipping it is how a class of notebook 07 is graded in seconds rather than minutes.

The analysis is conservative, by names (Python's ``ast``, after IPython's own input transforms):
- every cell the learner wrote runs: solution cells, cells the learner added or changed (any code
  cell whose source is not one of the released notebook's), and the ``setup`` cell;
- a cell as released runs when it binds (assigns, imports, defines, or changes in place: ``x[i] = ...``,
  ``x.attr = ...``, ``x.method(...)``) a name that a running cell uses anywhere, even inside a
  function body, wherever that cell is in the notebook (a function reads a global when it
  is called, at the test cell, so a later rebinding counts too); repeated until nothing changes;
- any use of ``globals``, ``locals``, ``vars``, ``eval``, ``exec``, ``__import__``, ``get_ipython``,
  ``sys.modules`` or a star import in the learner's code, or a cell Python cannot parse, means every
  cell runs (the course's own cells are checked by ``tests/test_grading.py`` to need no such thing,
  the Colab install cell aside, which binds nothing the learner's code uses).

The grader re-runs a notebook in full when a sliced run's probes or cells meet a ``NameError``
(see :func:`autograder.run.run_job`), so a dependency this misses costs time, never points.
"""

from __future__ import annotations

import ast
import functools
import symtable

# Ways to reach a global by a name the code does not spell: builtins called by name, and attributes
# (sys.modules, a module's __dict__, a function's __globals__, a frame's f_globals). ``model.eval()``
# is a method, not the builtin, so attributes are matched only against the second set.
DYNAMIC_NAMES = {"globals", "locals", "vars", "eval", "exec", "__import__", "get_ipython", "__builtins__"}
DYNAMIC_ATTRIBUTES = {"modules", "__dict__", "__globals__", "f_globals", "f_locals", "__builtins__", "user_ns"}


def _python(source: str) -> str:
    from IPython.core.inputtransformer2 import TransformerManager

    return TransformerManager().transform_cell(source)


class _Names(ast.NodeVisitor):
    """What a cell's top level changes in place (and whether it reaches names dynamically)."""

    def __init__(self):
        self.changes: set[str] = set()  # x[i] = ..., x.attr = ..., x.method(...) at the top level
        self.dynamic = False
        self._depth = 0

    def visit_Name(self, node: ast.Name):
        if node.id in DYNAMIC_NAMES:
            self.dynamic = True

    def visit_Attribute(self, node: ast.Attribute):
        if node.attr in DYNAMIC_ATTRIBUTES:
            self.dynamic = True
        if not isinstance(node.ctx, ast.Load):
            self._changes(node.value)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript):
        if not isinstance(node.ctx, ast.Load):
            self._changes(node.value)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call):
        if isinstance(node.func, ast.Attribute):  # x.append(...), model.fit(...): may change x in place
            self._changes(node.func.value)
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom):
        if any(alias.name == "*" for alias in node.names):
            self.dynamic = True

    def _scope(self, node):  # what a function's body changes happens when it is called: see the uses
        self._depth += 1
        self.generic_visit(node)
        self._depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _scope

    def _changes(self, target: ast.AST):
        while isinstance(target, (ast.Attribute, ast.Subscript)):
            target = target.value
        if isinstance(target, ast.Name) and not self._depth:
            self.changes.add(target.id)


class Names:
    """A cell's global names: those it binds, those it changes in place, those its code reads."""

    def __init__(self, tree: ast.Module, source: str):
        visitor = _Names()
        visitor.visit(tree)
        self.changes, self.dynamic = visitor.changes, visitor.dynamic
        self.binds: set[str] = set()
        self.modules: set[str] = set()
        self.uses: set[str] = set()
        self._read(symtable.symtable(source, "<cell>", "exec"), top=True)

    def _read(self, table: symtable.SymbolTable, top: bool) -> None:
        for symbol in table.get_symbols():
            name = symbol.get_name()
            if top:
                if symbol.is_referenced():
                    self.uses.add(name)
                if symbol.is_assigned() or symbol.is_imported():
                    self.binds.add(name)
                if symbol.is_imported():
                    self.modules.add(name)
            elif symbol.is_global():  # read (or, declared global, bound) inside a function or class
                if symbol.is_referenced():
                    self.uses.add(name)
                if symbol.is_declared_global() and symbol.is_assigned():
                    self.binds.add(name)
        for child in table.get_children():
            self._read(child, top=False)


@functools.lru_cache(maxsize=4096)
def names(source: str) -> Names | None:
    """What a cell binds and uses; None when it cannot be read (then nothing is skipped).

    Remembered by source: every submission of a class repeats the course's cells, and the grader
    slices each submission (the result is only read, never changed)."""
    try:
        python = _python(source)
        return Names(ast.parse(python), python)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # not Python we can read: run everything
        return None


def needed_cells(cells: list, called: set[str], released: set[str], record: bool = False) -> set[int] | None:
    """The indices of ``cells`` (a job's :class:`~autograder.records.Cell` list) that grading must run.

    ``called``: the names the test cells call; ``released``: the sources of the released notebook's
    code cells. A cell the learner wrote (a solution cell, or any cell not as released) always runs;
    a cell as released runs when the learner's code needs it. None means: run them all. With
    ``record`` (the source notebook's run that records the test cells' inputs), the test cells run
    too, and so does every cell whose names they use.
    """
    found: dict[int, Names] = {}
    needed: set[int] = set()
    for cell in cells:
        if cell.kind == "test" and not record:
            continue
        parsed = names(cell.source)
        course_cell = (cell.source in released and not cell.solution and cell.kind != "test"
                       and cell.grade_id != "setup")
        if parsed is None or (parsed.dynamic and not course_cell):
            return None
        found[cell.index] = parsed
        if not course_cell:
            needed.add(cell.index)
    # Calling a module's function (np.random.seed, plt.plot) is not taken for changing the module:
    # else every cell would be needed. Modules are bound by import statements, which run.
    modules = set().union(*(parsed.modules for parsed in found.values()))
    binds = {index: parsed.binds | (parsed.changes - modules) for index, parsed in found.items()}
    wanted = set(called)
    for index in needed:
        wanted |= found[index].uses
    changed = True
    while changed:
        changed = False
        for index, parsed in found.items():
            if index not in needed and binds[index] & wanted:
                needed.add(index)
                wanted |= parsed.uses
                changed = True
    return needed
