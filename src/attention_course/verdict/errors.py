"""Reading the errors a learner's code raised: what kind, and which sizes did not match.

NumPy, PyTorch and TensorFlow word the same slip differently; these functions read what the
message says went wrong, so that an error can be compared with the error a mistake raises.
"""

from __future__ import annotations

import re

import numpy as np

from ..contracts import CONTRACTS
from .quantities import names_of, sizes_of


def error_kind(message: str) -> str:
    """What kind of error a message reports, the same in NumPy, PyTorch and TensorFlow wording:
    ``layout`` (a view of a non-contiguous tensor), ``length`` (more tokens than a model's context
    takes), ``calls`` (a model called more often than the steps need), ``dtype``, ``shape``, or ``other``."""
    text = message.lower()
    if "contiguous" in text or "stride" in text:
        return "layout"
    if "context" in text and any(word in text for word in ("more than", "exceed", "do not fit")):
        return "length"  # more tokens than a model takes: a loop's count, no two shapes that disagree
    if "was called" in text and "times" in text:
        return "calls"  # a model called once more than the steps need: a loop's count, no missing cache
    if any(word in text for word in ("dtype", "scalar type", "same type", "type (", "tensor but is a",
                                     "double !=", "float !=", "half !=")):
        return "dtype"
    if any(word in text for word in ("shape", "size", "dimension", "mismatch", "broadcast", "aligned",
                                     "cannot be multiplied", "incompatible", "rank")):
        return "shape"
    return "other"


def names_no_size(message: str) -> bool:
    """An error message without a single number (``np.stack``'s "all input arrays must have the same
    shape"): any slip in a loop's shapes raises it, so it is no evidence of one mistake."""
    return not re.search(r"\d", message)


_MISMATCH = (re.compile(r"size (\d+) is different from (\d+)"),  # matmul, @
             re.compile(r"(\d+) \(dim \d+\) != (\d+) \(dim \d+\)"),  # np.dot
             re.compile(r"mat1 and mat2 shapes cannot be multiplied \(\d+x(\d+) and (\d+)x\d+\)"))  # torch @


def error_signature(message: str):
    """What an error says went wrong, whichever function raised it: the two sizes that did not match
    in a product (``@``, ``np.matmul``, ``np.dot`` and PyTorch's ``@`` on matrices word the same
    mismatch differently), or else the message itself."""
    for pattern in _MISMATCH:
        found = pattern.search(message)
        if found:
            return ("mismatch", frozenset(found.groups()))
    return message


# --- the likely slip behind a library's error, in the exercise's terms ---------------------------


def _shape(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", text))


def _said_shape(shape: tuple[int, ...], sizes: dict[str, int]) -> str:
    """``(4, 3)`` with its sizes named where they are the exercise's: ``(4 = tokens, 3 = d_model)``."""
    parts = []
    for size in shape:
        names = names_of(size, sizes)
        parts.append(f"{size} = {' or '.join(names)}" if names else str(size))
    return f"({', '.join(parts)}{',' if len(parts) == 1 else ''})"


def _inputs(probe: dict) -> list[np.ndarray]:
    return [v for v in probe["inputs"] if isinstance(v, np.ndarray) and v.ndim]


def _batched(exercise: str) -> bool:
    """The exercise allows any number of leading (batch) axes."""
    return any(" ... " in f" {spec.lstrip('~%#')} " for spec in CONTRACTS.get(exercise, ()))


_LEADING = ("the exercise allows any number of leading (batch) axes, or none: take sizes and move axes counting "
            "from the end (x.shape[-1], swapaxes(x, -2, -3)), never from a fixed number of axes")


# the steps that read the first axes of an array unless told otherwise
_FIRST_AXES = ("np.diagonal and np.trace take axes 0 and 1 unless given axis1=-2, axis2=-1 (the last two axes); "
               ".T reverses every axis (swapaxes(x, -1, -2) swaps the last two); len(x) and x.shape[0] count the "
               "leading (batch) axis.")


def _or_first_axes(said: str, probe: dict) -> str:
    """``said``, and on an input with leading axes the steps that read the first axes."""
    if any(v.ndim > 2 for v in _inputs(probe)):
        return f"{said} Or a step works on the first axes where the last two are meant, which only a 2-D input hides: {_FIRST_AXES}"
    return said


def _broadcast(first: tuple, second: tuple, sizes: dict, probe: dict, axis: str) -> str:
    """Two shapes that do not broadcast: a reduction that lost its axis, axes of length 1 missing, or
    an element-wise product where a matrix product is asked."""
    mine = f"{_said_shape(first, sizes)} against {_said_shape(second, sizes)}"
    for big, small in ((first, second), (second, first)):
        if len(small) + 1 == len(big) and small == big[:-1]:
            return (f"{mine}: one value per row met a whole array, as after a sum or max that dropped its axis: keep "
                    f"it with keepdims=True (keepdim=True in PyTorch) so that it broadcasts across each row.")
    for big, small in ((first, second), (second, first)):
        it = iter(big)
        if len(small) < len(big) and all(size in it for size in small):
            return (f"{mine}: the smaller array's axes do not line up with the larger one's from the end; add axes "
                    f"of length 1 where it has none (x[:, None], np.expand_dims) so that each size meets its own.")
    if len(first) >= 2 and len(second) >= 2 and first[-1] == second[-2]:
        return (f"{mine}: an element-wise operation (*) between arrays whose sizes fit a matrix product: is a "
                f"matrix product (@, np.matmul) asked?")
    if len(first) == 1 and len(second) == 1:
        return (f"{mine}: to compare (or combine) every entry of one with every entry of the other, give one of "
                f"them an axis of length 1 (x[:, None]).")
    return f"{mine}: these shapes do not broadcast; compare them with the shapes the text gives each step."


def _torch_broadcast(a: int, b: int, dim: int, sizes: dict, probe: dict) -> str:
    for value in _inputs(probe):
        if value.ndim >= 2 and value.shape[-1] == a and value.shape[-2] == b and dim == value.ndim - 1:
            return _broadcast(value.shape, value.shape[:-1], sizes, probe, "dim")
    return (f"{_said_size(a, sizes)} against {_said_size(b, sizes)} on dim {dim}: two tensors whose axes do not "
            f"line up; check each step's shape against the text's.")


def _said_size(number: int, sizes: dict) -> str:
    names = names_of(number, sizes)
    return f"{number} ({' or '.join(names)})" if names else str(number)


def _product(left: int, right: int, sizes: dict) -> str:
    return (f"a matrix product pairs {_said_size(left, sizes)} with {_said_size(right, sizes)}: the last size of "
            f"the left factor must be the first (of the last two) of the right one. Are the factors in the wrong "
            f"order, is one of them not transposed (or transposed where it should not be), or is an input used "
            f"where its projection belongs?")


def _reshape(size: int, target: tuple, sizes: dict) -> str:
    wanted = int(np.prod([t for t in target if t > 0])) if target else 1
    return (f"the array holds {size} numbers but the shape {_said_shape(target, sizes)} needs {wanted}: a size in "
            f"the new shape is computed from the wrong width (d_model where the projected width belongs, or the "
            f"other way round), or the array is not the one you meant to reshape (leading batch axes left out?).")


def _dtype_mix(first: str, second: str, framework: str) -> str:
    cast = {"tensorflow": "tf.cast(x, tf.float32)", "torch": "x.to(torch.float32) (or .double())"}.get(
        framework, "x.astype(np.float32)")
    return (f"one operation got {first} and {second}: {framework if framework != 'numpy' else 'the library'} does "
            f"not mix dtypes; cast one of them first with {cast}, and bring the result back to the dtype the text "
            f"asks for.")


_FLOATS = {"float": "float32", "double": "float64", "half": "float16", "Float": "float32", "Double": "float64",
           "Half": "float16"}


def _float(word: str) -> str:
    return _FLOATS.get(word.removeprefix("tf."), word.removeprefix("tf."))


def explain_error(message: str, exercise: str, probe: dict, framework: str) -> str | None:
    """The likely slip behind an error, with the sizes of the input that raised it named; None when the
    error says nothing a learner could act on beyond its own words."""
    sizes = sizes_of(exercise, probe)
    if found := re.search(r"The size of tensor a \((\d+)\) must match the size of tensor b \((\d+)\) at "
                          r"non-singleton dimension (\d+)", message):
        return _torch_broadcast(*(int(g) for g in found.groups()), sizes, probe)
    if found := re.search(r"could not be broadcast together with (?:remapped )?shapes ((?:\[?\([\d,]*\)\]? ?)+)",
                          message):
        shapes = [_shape(s) for s in re.findall(r"\(([\d,]*)\)", found.group(1))]
        shapes = [s for s in shapes if s]
        if len(shapes) >= 2:
            return _broadcast(shapes[0], shapes[1], sizes, probe, "axis")
    if found := re.search(r"Incompatible shapes: \[([\d,]*)\] vs. \[([\d,]*)\]", message):
        return _broadcast(_shape(found.group(1)), _shape(found.group(2)), sizes, probe, "axis")
    for pattern, order in ((r"size (\d+) is different from (\d+)", (1, 2)),
                           (r"shapes cannot be multiplied \(\d+x(\d+) and (\d+)x\d+\)", (1, 2)),
                           (r"\(\d+,\d+\) and \(\d+,\d+\) not aligned: (\d+) \(dim \d+\) != (\d+)", (1, 2)),
                           (r"size mismatch, got input \((\d+)\), mat \(\d+x(\d+)\)", (2, 1)),
                           (r"Matrix size-incompatible: In\[0\]: \[\d+,(\d+)\], In\[1\]: \[(\d+),\d+\]", (1, 2))):
        if found := re.search(pattern, message):
            return _product(int(found.group(order[0])), int(found.group(order[1])), sizes)
    if "axes don't match array" in message or "number of dims don't match in permute" in message:
        return ("the transpose lists axes for another number of dimensions than the array has: "
                + (_LEADING if _batched(exercise) else "count the array's axes again") + ".")
    if found := re.search(r"cannot reshape array of size (\d+) into shape \(([-\d, ]*)\)", message):
        return _reshape(int(found.group(1)), _shape(found.group(2).replace("-1", "")), sizes)
    if found := re.search(r"shape '\[([-\d, ]*)\]' is invalid for input of size (\d+)", message):
        return _reshape(int(found.group(2)), _shape(found.group(1).replace("-1", "")), sizes)
    if found := re.search(r"(not enough|too many) values to unpack \(expected (\d+)", message):
        axes = "fewer" if found.group(1) == "not enough" else "more"
        return (f"a shape was unpacked into {found.group(2)} names, but the array has {axes} axes: "
                + (_LEADING if _batched(exercise) else "count the array's axes again") + ".")
    if found := re.search(r"torch\.return_types\.(\w+)", message):
        return (f"torch.{found.group(1)}(x, dim=...) returns a pair (values, indices), not a tensor: take its "
                f".values (or use torch.a{found.group(1)}, which returns the values alone).")
    if found := (re.search(r"expected to be a (\w+) tensor but is a (\w+) tensor", message)
                 or re.search(r"must have the same dtype, got (tf\.\w+) != (tf\.\w+)", message)
                 or re.search(r"same dtype, but got: (\w+) != (\w+)", message)
                 or re.search(r"expected scalar type (\w+) but found (\w+)", message)):
        return _dtype_mix(_float(found.group(1)), _float(found.group(2)), framework)
    if "Value for attr 'T' of int" in message:
        return ("a floating-point operation (sqrt, exp, a division) got an integer tensor: cast it to a float "
                "type first (tf.cast(x, tf.float32)).")
    if found := re.search(r"boolean index did not match indexed array along axis (\d+); size of axis is (\d+) but "
                          r"size of corresponding boolean axis is (\d+)", message):
        return (f"a boolean mask used as an index must have exactly the array's shape (axis {found.group(1)}: "
                f"{found.group(2)} against {found.group(3)}); it does not broadcast. Use np.where(mask, scores, "
                f"-np.inf), which broadcasts the mask.")
    if found := re.search(r"Sizes of tensors must match except in dimension (-?\d+)\. Expected size (\d+) but got "
                          r"size (\d+)", message):
        return (f"torch.cat joins along dim={found.group(1)}, and every other dim must match: here "
                f"{_said_size(int(found.group(2)), sizes)} against {_said_size(int(found.group(3)), sizes)}. Are you "
                f"joining along the right dim (the tokens are the second-to-last, dim=-2)?")
    if found := re.search(r"except for the concatenation axis must match exactly, but along dimension (\d+), the "
                          r"array at index \d+ has size (\d+) and the array at index \d+ has size (\d+)", message):
        return (f"np.concatenate joins along one axis, and every other axis must match: here "
                f"{_said_size(int(found.group(2)), sizes)} against {_said_size(int(found.group(3)), sizes)} on axis "
                f"{found.group(1)}. Are you joining along the right axis (the tokens are the second-to-last, "
                f"axis=-2)?")
    if "probability tensor contains either" in message:
        return ("torch.multinomial got probabilities with inf or nan in them: was something divided by zero, such as "
                "the logits by a temperature of 0? At temperature 0 the draw is the argmax (greedy decoding): take "
                "it instead of sampling, without dividing.")
    if "all input arrays must have the same shape" in message:
        return _or_first_axes("np.stack got arrays of different shapes: does each step of the loop slice or compute "
                              "something of another shape than the others (a slice of rows where one of columns is "
                              "meant)?", probe)
    if "cannot be broadcast to a single shape" in message:
        return _or_first_axes("the parts to be combined have shapes that do not broadcast: is one of them computed "
                              "over other axes than the others?", probe)
    if "array split does not result in an equal division" in message:
        return ("np.split cuts axis 0 unless told otherwise: split along the axis whose size the number of parts "
                "divides (the features, axis=-1)?")
    if "view size is not compatible with input tensor's size and stride" in message:
        return "view() needs a contiguous tensor: after a transpose, use .reshape() (or .contiguous().view())."
    if "'float' object cannot be interpreted as an integer" in message:
        return "a size computed with / is a float: compute sizes with // (d_model // n_heads)."
    if found := re.search(r"(?:Dimension out of range \(expected to be in range of \[-?\d+, (\d+)\], but got "
                          r"(-?\d+)\)|axis (-?\d+) is out of bounds for array of dimension (\d+))", message):
        return ("an axis that the array does not have: count its axes again (negative axes count from the end: -1 "
                "is the last).")
    if re.search(r"Expected target size \[[\d, ]*\], got \[[\d, ]*\]", message):
        return ("cross_entropy takes the classes on dim 1: logits of shape (N, C) and targets of shape (N,). "
                "Reshape the logits to (batch * tokens, vocab_size) and the targets to (batch * tokens,) first "
                "(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1)).")
    if "1D tensors expected" in message:
        return "torch.dot takes two 1-d tensors: for a matrix and a vector use @ (or torch.mv)."
    if found := re.search(r"name '(\w+)' is not defined", message):
        return (f"{found.group(1)} is not defined where your function runs: a variable of another cell, or a "
                f"typo? A graded function may use only its arguments, the notebook's imports and earlier exercises.")
    return None
