"""Mistakes generated from the reference's own code: one small edit at one place (grading side).

The catalogue names only the mistakes someone wrote a mutant for. Most slips a learner makes beyond
them are ONE small edit of the reference: a transpose left out or added, ``>`` for ``>=``, the other
axis, a sign flipped, a term of a sum left out, one variable used where another belongs, two
arguments swapped, the epsilon outside the square root, ``keepdims`` dropped, ``-inf`` as a large
finite number, two steps in the other order. This module parses the NumPy function the mistakes are
derived from (``spec.mistakes_from or spec.reference``) and the functions of the key it calls, makes
each such edit at each place (Python's :mod:`ast`), compiles the result and returns it as a mutant
with a description in plain words, built from the operation and the quantity it touches.

The verdict tries these only when no catalogued mistake and no described slip explains a result, on
every probe, as it does catalogued mutants; a generated mutant's mistake id is its description with
the prefix :data:`PREFIX` (``attention_course.verdict.slips.GENERATED``), so two edits that give the
same description count as one explanation.

Keyword-only parameters of the key's functions are the steps a catalogued mistake replaces
(``activation=gelu``; the exercises' mutants replace them): no edit touches an expression that reads
one (a step's call), though the arguments a step is given may be edited, and the step each takes by
default is edited as any other function of the key is. A helper or a default step is edited where it
is held (its module's namespace, the defaults of the functions that take it) for the duration of one
call, under the lock that the shared mistakes use (:func:`autograder.key.mistakes.replaced`).
"""

from __future__ import annotations

import ast
import copy
import functools
import inspect
import sys
import textwrap
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from attention_course.verdict.slips import GENERATED as PREFIX

from .mistakes import _LOCK

# the key's modules whose functions are parsed and edited (not the mutants' or the exercises')
_EDITABLE = ("autograder.key.reference",)

# functions never edited: a lambda (no source of its own), the conversion every step starts with
_NOT_EDITED = {"<lambda>", "as_float"}

# readable names of the key's quantities: a variable or parameter -> what it is, in plain words
GLOSSARY: dict[str, str] = {
    "x": "the input x", "inputs": "the inputs",
    "normed": "the layer norm's output (the normalised input of a sub-layer)",
    "normalised": "the normalised values", "hidden": "h (the input plus the attention sub-layer's output, before the second layer norm)",
    "attended": "the attention's output", "base": "the value added back by the residual",
    "inner": "the MLP's hidden layer", "mean": "the mean", "var": "the variance", "squares": "the squared deviations",
    "eps": "the epsilon", "gamma": "the scale gamma", "beta": "the shift beta", "scores": "the scores",
    "weights": "the attention weights", "shifted": "the shifted scores", "exps": "the exponentials",
    "queries": "the queries", "keys": "the keys", "values": "the values", "query": "the query",
    "mask": "the mask", "allowed": "the mask of allowed positions", "logits": "the logits",
    "targets": "the targets", "w_query": "W_Q", "w_key": "W_K", "w_value": "W_V", "w_out": "W_O",
    "attention_w": "the attention's weights", "mlp_w_in": "the MLP's first weight",
    "mlp_w_out": "the MLP's second weight", "mlp_b_in": "the MLP's first bias", "mlp_b_out": "the MLP's second bias",
    "norms": "the layer norms' parameters", "probabilities": "the probabilities", "d_k": "d_k", "d": "the width d",
    "top": "the maximum", "picked": "the picked log-probabilities", "log_probabilities": "the log-probabilities",
    "scaled": "the scaled logits", "kth": "the k-th largest logit", "heads": "the heads", "context": "the context",
    "encoded": "the last layer's output", "embedded": "the embeddings",
}

# what a call's result is, in plain words
CALLS: dict[str, str] = {
    "sqrt": "a square root", "exp": "the exponentials", "log": "a logarithm", "mean": "a mean", "sum": "a sum",
    "max": "a maximum", "softmax": "a softmax", "tanh": "a tanh", "norm": "a layer norm's output",
    "mlp": "the MLP's output", "attend": "the attention sub-layer's output", "astype": "a converted array",
}

# readable names of the key's functions
FUNCTIONS: dict[str, str] = {
    "layer_norm": "the layer norm", "block": "the block", "mhsa": "the multi-head attention",
    "gelu": "the GELU", "softmax": "the softmax", "attention": "the attention", "dot_products": "the scores",
    "weighted_values": "the weighted sum of the values", "apply_mask": "the masking", "project": "the projections",
    "split_heads": "the split into heads", "combine_heads": "the heads' combination", "causal_mask": "the causal mask",
    "causal_lm_loss": "the loss", "next_token_probabilities": "the next token's probabilities",
    # the block's own steps
    "mlp": "the MLP", "norm": "the layer norm", "attend": "the attention sub-layer",
    # the steps of notebook 08's BERT
    "summed": "the sum of the embeddings", "normalised": "the embeddings' layer norm",
    "counted_positions": "the positions", "scaled_by_sqrt_d_head": "the scaling", "real_keys": "the padding mask",
    "hidden_keys_at_minus_inf": "the masking", "softmax_over_keys": "the softmax",
    "output_projection": "the output projection", "post_ln": "the residuals and layer norms",
    "every_layer_in_turn": "the loop over the layers", "mean_over_real_tokens": "the mean pooling",
    "previous_token": "the previous token's weights", "cls_and_sep": "the weights on [CLS] and [SEP]",
    "embed": "the embeddings", "added": "the sum of the embeddings", "types": "the token types",
    "projections": "the projections", "keep": "the padding mask", "masked": "the masking", "scaled": "the scaling",
    "value_weight": "the value weight", "arranged": "the residuals and layer norms", "pooled": "the mean pooling",
    "layers": "the loop over the layers", "attended": "the mask the layers attend with",
    # the steps that notebooks 07 and 09's references take by default: the functions, then the parameters
    "head_products": "the scores", "head_scaled": "the scaling of the scores", "masked_softmax": "the attention weights",
    "projected_context": "the output projection", "allowed_keys": "the mask", "cache_allowed": "the cache's mask",
    "appended": "the cache's append", "masked_attention": "the attention", "pair_power": "the frequencies' exponent",
    "pair_angles": "the angles", "positions_from_zero": "the positions", "interleaved": "the columns' layout",
    "given_positions": "the positions", "adjacent_pairs": "the pairs", "rotate_pairs": "the rotation",
    "interleaved_pairs": "the rotated pairs' layout", "place_in": "the token id", "character_of": "the id's character",
    "feature_moments": "the layer norm's mean and variance", "divided_by_std": "the layer norm", "pre_ln": "the block",
    "embedding_parameters": "the embeddings' count", "attention_parameters": "the attention's count",
    "mlp_parameters": "the MLP's count", "block_norm_parameters": "the blocks' layer norms' count",
    "final_norm_parameters": "the final layer norm's count", "head_parameters": "the head's count",
    "stable_log_softmax": "the log-softmax", "negative_mean": "the loss", "divided_by_temperature": "the temperature",
    "top_k_softmax": "the top-k softmax", "steps_to_draw": "the number of tokens drawn",
    "last_position_argmax": "the next token", "new_token_with_cache": "the model's call",
    "products": "the scores", "scale": "the scaling", "weights_of": "the softmax", "allowed": "the mask",
    "output": "the output projection", "append": "the cache's append", "power": "the frequencies' exponent",
    "angles": "the angles", "positions": "the positions", "positions_of": "the positions", "layout": "the columns' layout",
    "pairs": "the pairs", "rotate": "the rotation", "put_back": "the rotated pairs' layout", "joined": "the join",
    "token_id": "the token id", "character": "the id's character", "moments": "the mean and variance",
    "normalise": "the layer norm", "embeddings": "the embeddings' count", "block_norms": "the blocks' layer norms' count",
    "final_norm": "the final layer norm's count", "head": "the head's count", "log_softmax": "the log-softmax",
    "loss": "the loss", "tempered": "the temperature", "kept": "the top-k softmax", "rounds": "the number of tokens drawn",
    "next_token": "the next token", "feed": "the model's call",
}


@dataclass
class _Site:
    """One function of the key, parsed: where to edit it, and how to put an edited copy in place."""

    function: types.FunctionType
    source: str
    steps: frozenset[str]  # the keyword-only parameters: steps a mistake replaces, never edited
    locals: tuple[str, ...]
    operands: frozenset[tuple[int, int]]  # where the names that are a computation's operands stand
    callers: dict  # where a call's argument stands -> the function called


def _quantity(node: ast.AST, depth: int = 0) -> str:
    if isinstance(node, ast.Name):
        return GLOSSARY.get(node.id, f"`{node.id}`")
    if isinstance(node, ast.Attribute) and node.attr == "T":
        return f"{_quantity(node.value)} transposed"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "as_float" and node.args:
        return _quantity(node.args[0])
    if isinstance(node, ast.Call):
        return CALLS.get(_callee(node), f"the result of `{_callee(node)}`")
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATIONS and depth < 2:
        return f"({_quantity(node.left, depth + 1)} {_OPERATIONS[type(node.op)]} {_quantity(node.right, depth + 1)})"
    return "a term"


_OPERATIONS = {ast.Add: "plus", ast.Sub: "minus", ast.Mult: "times", ast.Div: "divided by", ast.MatMult: "@"}


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else "a call"


def _reads(node: ast.AST, names: frozenset[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _swapaxes(node: ast.expr) -> ast.expr:
    return ast.Call(func=ast.Attribute(value=ast.Name("np", ast.Load()), attr="swapaxes", ctx=ast.Load()),
                    args=[node, ast.Constant(-1), ast.Constant(-2)], keywords=[])


def _call(dotted: str, *args: ast.expr) -> ast.Call:
    first, *rest = dotted.split(".")
    func: ast.expr = ast.Name(first, ast.Load())
    for attr in rest:
        func = ast.Attribute(func, attr, ast.Load())
    return ast.Call(func=func, args=list(args), keywords=[])


def _int_of(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) is int:
        return -node.operand.value
    return None


_OTHER_AXIS = {-1: -2, -2: -1, 0: 1, 1: 0}
_COMPARE = {ast.Gt: (ast.GtE, ">", ">="), ast.GtE: (ast.Gt, ">=", ">"), ast.Lt: (ast.LtE, "<", "<="),
            ast.LtE: (ast.Lt, "<=", "<")}
_SWAPPED_CALLS = {"mean": ("sum", "a sum where a mean (average) belongs"),
                  "sum": ("mean", "a mean (average) where a sum belongs"),
                  "sum ": ("max", "a maximum where a sum belongs"),
                  "tril": ("triu", "the upper triangle (np.triu) where the lower triangle (np.tril) belongs"),
                  "triu": ("tril", "the lower triangle (np.tril) where the upper triangle (np.triu) belongs"),
                  "max": ("min", "a minimum where a maximum belongs"), "min": ("max", "a maximum where a minimum belongs")}


def _edits(node: ast.AST, site: _Site) -> Iterator[tuple[ast.AST | list, str]]:
    """Each edit of ``node``: (what replaces it, the description)."""
    locals_ = site.locals
    if isinstance(node, ast.Attribute) and node.attr == "T" and isinstance(node.ctx, ast.Load):
        q = _quantity(node.value)
        yield node.value, f"{q} is used without its transpose (W where W.T belongs)"
        yield _call("np.linalg.inv", node.value), f"the inverse of {q} (np.linalg.inv) where its transpose belongs"
    if isinstance(node, ast.Call) and _callee(node) in ("swapaxes", "transpose") and node.args:
        q = _quantity(node.args[0])
        yield node.args[0], f"{q} is used without its transpose (W where W.T belongs)"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        for side in ("left", "right"):
            operand = getattr(node, side)
            edited = copy.copy(node)
            setattr(edited, side, _swapaxes(operand))
            yield edited, f"{_quantity(operand)} is used transposed where it belongs as it is (W.T where W belongs)"
        yield ast.BinOp(node.right, ast.MatMult(), node.left), "a matrix product with its two factors in the other order"
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
        other, was, now = _COMPARE[type(node.ops[0])]
        yield ast.Compare(node.left, [other()], node.comparators), \
            f"a comparison with {now} where {was} belongs (or the reverse): ties are decided the other way"
    if isinstance(node, ast.Call):
        yield from _call_edits(node, locals_)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        if isinstance(node.operand, ast.Attribute) and node.operand.attr == "inf":
            yield ast.Constant(-1e9), ("a large finite negative number where -inf belongs: masked weights are small "
                                       "but not exactly 0")
        else:
            yield node.operand, f"the sign of {_quantity(node.operand)} flipped (a minus sign left out)"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
        yield node.left, f"{_quantity(node.right)} not subtracted"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        yield node.left, f"{_quantity(node.right)} left out: a term missing from a sum (a residual or a bias?)"
        if isinstance(node.op, ast.Add):
            yield node.right, f"{_quantity(node.left)} left out: a term missing from a sum (a residual or a bias?)"
            yield ast.BinOp(node.left, ast.Sub(), node.right), f"{_quantity(node.right)} subtracted where it is added"
        else:
            yield ast.BinOp(node.left, ast.Add(), node.right), f"{_quantity(node.right)} added where it is subtracted"
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div)):
        word = "factor" if isinstance(node.op, ast.Mult) else "division by"
        yield node.left, f"the {word} {_quantity(node.right)} left out"
        if isinstance(node.op, ast.Div):
            yield ast.BinOp(node.left, ast.Mult(), node.right), f"multiplied by {_quantity(node.right)} where a division belongs"
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in locals_ \
            and _position(node) in site.operands:
        callee = site.callers.get(_position(node))
        into = f" given to {FUNCTIONS.get(callee, f'`{callee}`')}" if callee else " used"
        for other in locals_:
            if other != node.id:
                yield ast.Name(other, ast.Load()), \
                    f"{_quantity(ast.Name(other))}{into} where {_quantity(node)} belongs"
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple):
        for i, part in enumerate(node.slice.elts):
            if _int_of(part) in (0, 1):
                index = _int_of(part)
                elts = [*node.slice.elts[:i], ast.Constant(1 - index), *node.slice.elts[i + 1:]]
                yield ast.Subscript(node.value, ast.Tuple(elts, ast.Load()), node.ctx), \
                    (f"the other entry of {_quantity(node.value)} (index {1 - index} where {index} belongs, "
                     f"position {i + 1}): two of them mixed up")
    if isinstance(node, ast.Subscript) and _int_of(node.slice) in (0, 1):
        index = _int_of(node.slice)
        yield ast.Subscript(node.value, ast.Constant(1 - index), node.ctx), \
            f"the other entry of {_quantity(node.value)} (index {1 - index} where {index} belongs): two of them mixed up"


def _call_edits(node: ast.Call, locals_: tuple[str, ...]) -> Iterator[tuple[ast.AST, str]]:
    name = _callee(node)
    for i, keyword in enumerate(node.keywords):
        axis = _int_of(keyword.value)
        if keyword.arg == "axis" and axis in _OTHER_AXIS:
            edited = copy.copy(node)
            edited.keywords = [*node.keywords[:i], ast.keyword("axis", ast.Constant(_OTHER_AXIS[axis])),
                               *node.keywords[i + 1:]]
            yield edited, (f"`{name}` along the other axis (axis={_OTHER_AXIS[axis]} where axis={axis} belongs): "
                           "rows and columns mixed up")
        if keyword.arg == "keepdims":
            edited = copy.copy(node)
            edited.keywords = [*node.keywords[:i], *node.keywords[i + 1:]]
            yield edited, f"`{name}` without keepdims=True: the result no longer lines up with the rows it divides"
    for swapped, (other, words) in _SWAPPED_CALLS.items():
        if swapped.strip() == name and isinstance(node.func, ast.Attribute):
            edited = copy.copy(node)
            edited.func = ast.Attribute(node.func.value, other, ast.Load())
            yield edited, words
    if name == "sqrt" and len(node.args) == 1:
        argument = node.args[0]
        yield argument, f"the square root of {_quantity(argument)} left out"
        if isinstance(argument, ast.BinOp) and isinstance(argument.op, ast.Add):
            outside = copy.copy(node)
            outside.args = [argument.left]
            yield ast.BinOp(outside, ast.Add(), argument.right), (
                f"{_quantity(argument.right)} added outside the square root (std + eps where sqrt(var + eps) belongs)")
    if name == "sorted" and node.args:
        yield node.args[0], "sorted() left out: the items keep their original order"
    positional = [a for a in node.args if not isinstance(a, ast.Starred)]
    if len(positional) == len(node.args) >= 2:
        for i in range(len(node.args) - 1):
            a, b = node.args[i], node.args[i + 1]
            if ast.dump(a) != ast.dump(b):
                edited = copy.copy(node)
                edited.args = [*node.args[:i], b, a, *node.args[i + 2:]]
                yield edited, f"`{name}` given {_quantity(a)} and {_quantity(b)} the other way round (two arguments swapped)"


@functools.cache
def _source(function: types.FunctionType) -> str:
    return textwrap.dedent(inspect.getsource(function))


def _parsed(function: types.FunctionType) -> tuple[ast.Module, ast.FunctionDef]:
    tree = ast.parse(_source(function))
    definition = tree.body[0]
    assert isinstance(definition, ast.FunctionDef)
    definition.decorator_list = []
    return tree, definition


@functools.cache
def _site(function: types.FunctionType) -> _Site:
    _, definition = _parsed(function)
    steps = frozenset(a.arg for d in ast.walk(definition) if isinstance(d, (ast.FunctionDef, ast.Lambda))
                      for a in d.args.kwonlyargs)
    nested = {d.name for d in ast.walk(definition) if isinstance(d, ast.FunctionDef) and d is not definition}
    assigned = [n.id for n in ast.walk(definition) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    params = [a.arg for a in (*definition.args.posonlyargs, *definition.args.args)]
    # the quantities one may be used for another: what the function computes, and its main input
    names = tuple(dict.fromkeys(n for n in (*params[:1], *assigned)
                                if n not in steps and n not in nested and (n not in params or n == params[0])))
    operands = frozenset(_position(child) for node in ast.walk(definition) for child in _operands_of(node)
                         if isinstance(child, ast.Name))
    callers = {_position(arg): _callee(node) for node in ast.walk(definition) if isinstance(node, ast.Call)
               for arg in node.args if hasattr(arg, "lineno")}
    return _Site(function, _source(function), steps, names, operands, callers)


def _position(node: ast.AST) -> tuple[int, int]:
    return node.lineno, node.col_offset


def _operands_of(node: ast.AST) -> list[ast.AST]:
    """What a computation takes: both sides of an arithmetic operation, a call's arguments."""
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.Call) and _callee(node) != "as_float":
        return list(node.args)
    return []


def _editable(value) -> bool:
    return (isinstance(value, types.FunctionType) and value.__module__.startswith(_EDITABLE)
            and value.__name__ not in _NOT_EDITED)


def _names(code: types.CodeType) -> set[str]:
    """Every global or attribute name a code object (and those nested in it) reads."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


def _callees(function: types.FunctionType) -> list[types.FunctionType]:
    """The key's functions that ``function`` may call by name (``softmax``, ``ref.attention``): read
    from its compiled code, so that a lambda or a closure is followed as a ``def`` is."""
    names = sorted(_names(function.__code__))  # sorted: the same mutants in the same order every run
    namespace = {**function.__globals__, **inspect.getclosurevars(function).nonlocals}
    values = [namespace[n] for n in names if n in namespace]
    values += [getattr(v, n, None) for v in values if isinstance(v, types.ModuleType) for n in names]
    # the steps a function takes by default (``split=ref.split_heads``), and those a partial binds
    values += [*(function.__defaults__ or ()), *(function.__kwdefaults__ or {}).values()]
    values += [v.func for v in inspect.getclosurevars(function).nonlocals.values() if isinstance(v, functools.partial)]
    return [v for v in values if _editable(v)]


def called_functions(root: Callable) -> list[types.FunctionType]:
    """``root`` (unwrapped from a partial) and every function of the key it calls, directly or not."""
    start = root.func if isinstance(root, functools.partial) else root
    seen: dict[types.FunctionType, None] = {}
    todo = [start]
    while todo:
        function = todo.pop()
        if function in seen or not isinstance(function, types.FunctionType):
            continue
        seen[function] = None
        todo.extend(_callees(function))
    return list(seen)


def _edited_function(function: types.FunctionType, index: int, edit: int):
    """``function`` compiled with the ``edit``-th edit of its ``index``-th node made; None if no such edit."""
    site = _site(function)
    tree, definition = _parsed(function)
    nodes = list(ast.walk(definition))
    if index >= len(nodes):
        return None
    target = nodes[index]
    replacements = list(_edits(target, site))
    if edit >= len(replacements):
        return None
    replacement, _ = replacements[edit]
    if not _replace(definition, target, replacement):
        return None
    for node in ast.walk(replacement):
        if "lineno" in node._attributes and not hasattr(node, "lineno"):
            ast.copy_location(node, target)
    namespace: dict = {}
    exec(compile(tree, f"<generated {function.__name__}>", "exec"), function.__globals__, namespace)  # noqa: S102
    edited = namespace[definition.name]
    edited.__defaults__, edited.__kwdefaults__ = function.__defaults__, function.__kwdefaults__
    return edited


def _replace(tree: ast.AST, target: ast.AST, replacement) -> bool:
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is target:
                setattr(parent, field, replacement)
                return True
            if isinstance(value, list) and any(v is target for v in value):
                setattr(parent, field, [replacement if v is target else v for v in value])
                return True
    return False


def _candidate_sites(function: types.FunctionType) -> list[tuple[int, int, str]]:
    """(node index, edit index, description) of every edit of ``function`` that reads no step it takes as a keyword."""
    site = _site(function)
    _, definition = _parsed(function)
    docstring = ast.get_docstring(definition, clean=False)
    found = []
    for index, node in enumerate(ast.walk(definition)):
        if isinstance(node, ast.Constant) and node.value == docstring:
            continue
        if _reads(node, site.steps) or isinstance(node, ast.arg):
            continue
        for edit, (_, description) in enumerate(_edits(node, site)):
            where = FUNCTIONS.get(function.__name__, f"`{function.__name__}`")
            found.append((index, edit, f"{description} (in {where})"))
    return found


def _bindings(function: types.FunctionType) -> list[tuple[object, str | int]]:
    """Every place of the key that holds ``function``, where an edited copy must be put: a module's
    name, or a default of one of the key's functions (a step it takes by default, ``activation=gelu``):
    ``(module, name)``, ``(holder, keyword)`` or ``(holder, index of its positional default)``."""
    modules = [module for module_name, module in list(sys.modules.items())
               if module_name.startswith("autograder.key") and module is not None]
    names = [(module, name) for module in modules for name, value in list(vars(module).items()) if value is function]
    holders = {id(v): v for module in modules for v in list(vars(module).values()) if isinstance(v, types.FunctionType)}
    defaults = [(holder, key) for holder in holders.values()
                for key, value in [*(holder.__kwdefaults__ or {}).items(), *enumerate(holder.__defaults__ or ())]
                if value is function]
    return [*names, *defaults]


def _put(place: object, key: str | int, value: types.FunctionType) -> None:
    if isinstance(place, types.ModuleType):
        setattr(place, key, value)
    elif isinstance(key, str):
        place.__kwdefaults__ = {**place.__kwdefaults__, key: value}
    else:
        place.__defaults__ = tuple(value if i == key else d for i, d in enumerate(place.__defaults__))


def _with_edited(root: Callable, function: types.FunctionType, edited: types.FunctionType) -> Callable:
    start = root.func if isinstance(root, functools.partial) else root
    if function is start:
        return functools.partial(edited, *root.args, **root.keywords) if isinstance(root, functools.partial) else edited
    bindings = _bindings(function)

    def mutant(*args, **kwargs):
        with _LOCK:
            for place, key in bindings:
                _put(place, key, edited)
            try:
                return root(*args, **kwargs)
            finally:
                for place, key in bindings:
                    _put(place, key, function)

    return mutant


@functools.cache
def generated_mutants(root: Callable) -> dict[str, list[Callable]]:
    """Every one-edit mutant of ``root`` and the key's functions it calls: mistake id -> its mutants.

    The mistake id is :data:`PREFIX` followed by the description; the caller drops the mutants whose
    result is the reference's (an edit in a branch not taken) or that raise where it does."""
    table: dict[str, list[Callable]] = {}
    for function in called_functions(root):
        if not _editable(function):
            continue  # an exercise's wrapper (its steps bound): the key's functions it calls are edited
        try:
            sites = _candidate_sites(function)
        except (OSError, TypeError, SyntaxError, AssertionError):
            continue  # no source to parse (a builtin, a library function)
        for index, edit, description in sites:
            try:
                edited = _edited_function(function, index, edit)
            except (SyntaxError, TypeError, ValueError):
                continue
            if edited is not None:
                table.setdefault(PREFIX + description, []).append(_with_edited(root, function, edited))
    return table
