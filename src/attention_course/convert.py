"""Moving values between NumPy, PyTorch, TensorFlow and plain data (no answers here).

``to_numpy`` and ``to_framework`` convert arrays between frameworks; ``encode`` and ``decode`` turn
arrays and numbers into JSON-safe plain data and back, exactly (raw bytes in base64, never pickle):
the format of the expected data the build ships and of the grader's stored plans.
"""

from __future__ import annotations

import base64
import hashlib

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
