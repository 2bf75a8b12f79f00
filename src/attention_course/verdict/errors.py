"""Reading the errors a learner's code raised: what kind, and which sizes did not match.

NumPy, PyTorch and TensorFlow word the same slip differently; these functions read what the
message says went wrong, so that an error can be compared with the error a mistake raises.
"""

from __future__ import annotations

import re


def error_kind(message: str) -> str:
    """What kind of error a message reports, the same in NumPy, PyTorch and TensorFlow wording:
    ``layout`` (a view of a non-contiguous tensor), ``dtype``, ``shape``, or ``other``."""
    text = message.lower()
    if "contiguous" in text or "stride" in text:
        return "layout"
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
