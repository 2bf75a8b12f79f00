"""Moving values between NumPy, PyTorch, TensorFlow and plain data (no answers here).

``to_numpy`` and ``to_framework`` convert arrays between frameworks. Two exact formats for plain data
(numbers, booleans, strings, None, arrays of numbers or booleans, in lists and dicts; never pickle):

- ``encode``/``decode``: JSON-safe, arrays as base64 text (the grader's stored plans);
- ``pack``/``unpack``: a JSON header and the arrays' raw bytes after it, each distinct array once
  (the expected data the build ships, compressed; the messages between the grader and a sandbox,
  where ``unpack`` is the first line of defence against what a sandbox sends).
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import struct

import numpy as np

# dtypes that may be encoded: numbers and booleans only
_PLAIN_KINDS = "biuf"


def blob_digest(array: np.ndarray) -> str:
    """The name of an array's contents: dtype, shape and bytes."""
    digest = hashlib.sha256(f"{array.dtype.str}{array.shape}".encode())
    digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()[:32]


def to_numpy(value):
    """NumPy view of a result: accepts arrays, tensors of any framework, lists, numbers."""
    if hasattr(value, "detach"):  # torch
        return value.detach().cpu().numpy()
    if hasattr(value, "numpy") and not isinstance(value, np.ndarray):  # tensorflow
        return np.asarray(value.numpy())
    return np.asarray(value)


def to_framework(value, framework: str):
    """A fresh copy of ``value`` in the framework an exercise is written for."""
    if not hasattr(value, "shape") and not isinstance(value, (list, tuple)):
        return value  # ints, floats, bools, strings pass through
    array = np.array(to_numpy(value), copy=True)
    if framework == "torch":
        import torch

        return torch.from_numpy(array)
    if framework == "tensorflow":
        import tensorflow as tf

        return tf.constant(array)
    return array


def as_numpy_input(value):
    """An input as the checks keep it: arrays (from any framework or list) or plain scalars."""
    if hasattr(value, "shape") or isinstance(value, (list, tuple)):
        return np.array(to_numpy(value), copy=True)
    return value


def encode(value, blobs: dict | None = None, blob_bytes: int = 1 << 18):
    """JSON-safe plain data for an array, a number, a bool, a string or None (nested in lists/dicts).

    With ``blobs`` (a dict), an array of ``blob_bytes`` or more is put in it under its digest and
    encoded by that name only (to name large arrays by content, as a digest of a probe does);
    :func:`decode` then needs the same dict.
    """
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        array = np.asarray(value)  # not ascontiguousarray, which makes a 0-d array 1-d
        if array.dtype.kind not in _PLAIN_KINDS:
            raise TypeError(f"cannot encode an array of {array.dtype}")
        if blobs is not None and array.nbytes >= blob_bytes:
            digest = blob_digest(array)
            blobs[digest] = array
            return {"__array__": array.dtype.str, "shape": list(array.shape), "blob": digest}
        return {"__array__": array.dtype.str, "shape": list(array.shape),
                "b64": base64.b64encode(array.tobytes()).decode("ascii")}
    if isinstance(value, dict):
        return {str(k): encode(v, blobs, blob_bytes) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(v, blobs, blob_bytes) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"cannot encode {type(value).__name__}")


def decode(value, max_bytes: int = 64 << 20, blobs: dict | None = None):
    """The inverse of :func:`encode`; refuses anything but numbers, bools, strings and arrays of them."""
    if isinstance(value, dict):
        if "__array__" in value:
            dtype = np.dtype(str(value["__array__"]))
            if dtype.kind not in _PLAIN_KINDS:
                raise ValueError(f"refused dtype {dtype}")
            shape = tuple(int(n) for n in value["shape"])
            if "blob" in value:
                array = (blobs or {}).get(str(value["blob"]))
                if array is None or array.dtype != dtype or array.shape != shape or array.nbytes > max_bytes:
                    raise ValueError("an array named by digest is missing or differs")
                return array.copy()
            raw = base64.b64decode(str(value["b64"]), validate=True)
            if len(raw) > max_bytes or len(raw) != dtype.itemsize * int(np.prod(shape, dtype=np.int64)):
                raise ValueError("array data has the wrong size")
            return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()
        return {str(k): decode(v, max_bytes, blobs) for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v, max_bytes, blobs) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise ValueError(f"refused {type(value).__name__}")


# --- pack / unpack ------------------------------------------------------------------------------------

PREFIX = struct.Struct("!II")  # header bytes, payload bytes


class Malformed(ValueError):
    """Packed data that is not what :func:`pack` writes (or is over the limits it was read with)."""


def pack(value) -> bytes:
    """``PREFIX``, a JSON header, then the arrays' bytes; an array appears in the header as
    ``{"__array__": dtype, "shape": [...], "at": offset}``. Identical arrays are stored once."""
    chunks: list[bytes] = []
    offsets: dict[bytes, int] = {}
    size = 0

    def plain(item):
        nonlocal size
        if isinstance(item, (np.ndarray, np.generic)):
            array = np.asarray(item)
            if array.dtype.kind not in _PLAIN_KINDS:
                raise TypeError(f"cannot pack an array of {array.dtype}")
            data = np.ascontiguousarray(array).tobytes() if array.ndim else array.tobytes()
            key = hashlib.sha256(data).digest() + array.dtype.str.encode()
            if key not in offsets:
                offsets[key] = size
                chunks.append(data)
                size += len(data)
            return {"__array__": array.dtype.str, "shape": list(array.shape), "at": offsets[key]}
        if isinstance(item, dict):
            return {str(k): plain(v) for k, v in item.items()}
        if isinstance(item, (list, tuple)):
            return [plain(v) for v in item]
        if item is None or isinstance(item, (bool, int, str)):
            return item
        if isinstance(item, float):
            return item if math.isfinite(item) else {"__float__": repr(item)}
        raise TypeError(f"cannot pack {type(item).__name__}")

    header = json.dumps(plain(value), separators=(",", ":")).encode()
    return PREFIX.pack(len(header), size) + header + b"".join(chunks)


def unpack(data: bytes, max_depth: int = 64, max_items: int = 10_000_000, copy: bool = True):
    """The value :func:`pack` packed; :class:`Malformed` for anything else (arrays of other dtypes,
    bytes that are not there, nesting deeper than ``max_depth``, more than ``max_items`` values).
    With ``copy=False`` the arrays are read-only views of ``data``."""
    if len(data) < PREFIX.size:
        raise Malformed("too short")
    header_size, payload_size = PREFIX.unpack_from(data)
    if PREFIX.size + header_size + payload_size != len(data):
        raise Malformed("the sizes do not add up")
    view = memoryview(data)
    return unpack_parts(view[PREFIX.size:PREFIX.size + header_size], view[PREFIX.size + header_size:],
                        max_depth, max_items, copy)


def unpack_parts(header, payload, max_depth: int = 64, max_items: int = 10_000_000, copy: bool = True):
    """:func:`unpack` of a header and a payload already apart."""
    try:
        raw = json.loads(bytes(header))
    except (ValueError, RecursionError):
        raise Malformed("a header that is not JSON (or is nested too deep)") from None
    payload = memoryview(payload)
    counter = [0]

    def restore(item, depth: int):
        counter[0] += 1
        if counter[0] > max_items or depth > max_depth:
            raise Malformed("nested too deep or too long")
        if isinstance(item, dict):
            if "__array__" in item:
                return _array(item, payload, copy)
            if "__float__" in item:
                if set(item) != {"__float__"} or item["__float__"] not in ("nan", "inf", "-inf"):
                    raise Malformed("a malformed number")
                return float(item["__float__"])
            return {str(k): restore(v, depth + 1) for k, v in item.items()}
        if isinstance(item, list):
            return [restore(v, depth + 1) for v in item]
        return item

    return restore(raw, 0)


def _array(item: dict, payload: memoryview, copy: bool) -> np.ndarray:
    if set(item) != {"__array__", "shape", "at"}:
        raise Malformed("a malformed array")
    try:
        dtype = np.dtype(str(item["__array__"]))
    except TypeError:
        raise Malformed("an array of an unknown dtype") from None
    shape, at = item["shape"], item["at"]
    if (dtype.kind not in _PLAIN_KINDS or dtype.itemsize > 16 or not isinstance(shape, list) or len(shape) > 32
            or not all(type(n) is int and 0 <= n < 1 << 40 for n in shape) or type(at) is not int or at < 0):
        raise Malformed("a malformed array")
    nbytes = dtype.itemsize * math.prod(shape)
    if at + nbytes > len(payload):
        raise Malformed("an array whose bytes are not there")
    array = np.frombuffer(payload[at:at + nbytes], dtype=dtype).reshape(shape)
    return array.copy() if copy else array
