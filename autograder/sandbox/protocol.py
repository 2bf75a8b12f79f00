"""The messages between the grader and a sandbox: framed, size-capped, checked against a schema.

A frame is ``!II`` (header length, payload length), a JSON header, then the raw bytes of the arrays the
header names: ``{"__array__": "<f8", "shape": [3, 4], "at": 0}`` is 96 bytes of the payload from
offset 0. Arrays cross as bytes, never pickled, and never as base64 text (notebook 08's checks pass a
model's 92 MB of weights).

Everything a sandbox sends is hostile. :func:`parse` refuses a frame over its caps before reading
it, JSON nested deeper than :data:`MAX_DEPTH`, arrays of anything but numbers and booleans or whose
bytes do not fit, and any message whose fields are not exactly those of its ``op``
(:data:`FROM_SANDBOX`). A refusal is a :class:`ProtocolError`; the grader ends that submission as
failed with its one line, and never trusts the sandbox again.
"""

from __future__ import annotations

import numpy as np

from attention_course import convert

MAX_HEADER = 8 << 20  # bytes of JSON in one frame from a sandbox
MAX_PAYLOAD = 64 << 20  # bytes of arrays in one frame from a sandbox
MAX_DEPTH = 24
MAX_ITEMS = 200_000  # JSON values in one header


class ProtocolError(ValueError):
    """A sandbox sent something that is not a well-formed message of the kind expected."""


# --- frames -----------------------------------------------------------------------------------------


def pack(message: dict) -> bytes:
    """One frame (see :func:`attention_course.convert.pack`)."""
    return convert.pack(message)


def parse(header: bytes, payload: bytes, schema: dict | None = None) -> dict:
    """A message from a frame's parts, checked against ``schema`` ({op: fields}) when given."""
    try:
        message = convert.unpack_parts(header, payload, max_depth=MAX_DEPTH, max_items=MAX_ITEMS)
    except convert.Malformed as error:
        raise ProtocolError(f"a malformed message ({error})") from None
    if not isinstance(message, dict):
        raise ProtocolError("a message that is not an object")
    if schema is not None:
        check(message, schema)
    return message


# --- the schema -------------------------------------------------------------------------------------

# A field's kind: a Python type, a tuple of kinds (any of them), or one of the names below.
PLAIN = "plain"  # numbers, strings, booleans, None, arrays, and lists/objects of them
OUTPUTS = "outputs"  # a cell's outputs, as nbformat dicts of the kinds a sandbox may send
OPTIONAL = "?"  # prefix of a field name that may be missing


def _is_plain(value) -> bool:
    return value is None or isinstance(value, (bool, int, float, str, np.ndarray)) or (
        isinstance(value, list) and all(_is_plain(v) for v in value)) or (
        isinstance(value, dict) and all(_is_plain(v) for v in value.values()))


def _is(value, kind) -> bool:
    if kind == PLAIN:
        return _is_plain(value)
    if kind == OUTPUTS:
        return isinstance(value, list) and all(isinstance(o, dict) for o in value)
    if isinstance(kind, tuple):
        return any(_is(value, k) for k in kind)
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def check(message: dict, schema: dict) -> None:
    """``message`` has an ``op`` of ``schema`` and exactly its fields, each of its kind."""
    op = message.get("op")
    if op not in schema:
        raise ProtocolError(f"an unexpected message ({str(op)[:40]!r})")
    fields = schema[op]
    required = {name for name in fields if not name.startswith(OPTIONAL)}
    allowed = {name.lstrip(OPTIONAL): kind for name, kind in fields.items()}
    present = set(message) - {"op"}
    if not required <= present or not present <= set(allowed):
        raise ProtocolError(f"a {op!r} message with the wrong fields")
    for name in present:
        if not _is(message[name], allowed[name]):
            raise ProtocolError(f"a {op!r} message whose {name!r} is malformed")


# In a probe request from the grader, a large input the sandbox already holds: {KEPT: its name}. The
# request's "keep" ({name: array}) gives the ones it is sent for the first time.
KEPT = "__kept__"


# What a sandbox may send, by op. The grader also checks that each comes when it asked for it.
FROM_SANDBOX = {
    "ready": {},
    "cell_done": {"index": int, "outputs": OUTPUTS, "error": (str, type(None)), "memory_error": bool,
                  "?records": list},
    "probe_done": {"outcome": dict},
    "standin": {"name": str, "args": list, "kwargs": dict},
}


# --- what a reply carries ---------------------------------------------------------------------------

DISPLAY_TYPES = ("text/plain", "text/html", "text/markdown", "text/latex", "image/png", "image/jpeg",
                 "image/svg+xml")  # what a cell's display may keep (no script, no widget state)
_OUTCOMES = {"missing": {}, "not_implemented": {}, "none": {}, "not_callable": {"type": str},
             "unreadable": {"type": str}, "raised": {"type": str, "message": str},
             "tuple": {"length": int}, "list": {"length": int},
             "ok": {"value": np.ndarray, "changed_inputs": bool}}
MAX_RESULT = 16 << 20  # bytes of one probe's result


def outcome(value) -> dict:
    """A probe's outcome as the judge reads it, checked: its status's fields, of their kinds, bounded."""
    if not isinstance(value, dict) or value.get("status") not in _OUTCOMES:
        raise ProtocolError("a malformed probe outcome")
    fields = _OUTCOMES[value["status"]]
    if set(value) != {"status", *fields} or not all(_is(value[name], kind) for name, kind in fields.items()):
        raise ProtocolError(f"a malformed probe outcome ({value['status']!r})")
    clean = dict(value)
    for name in ("type", "message"):
        if name in clean:
            clean[name] = clean[name][:300]
    if "length" in clean:
        clean["length"] = max(0, min(clean["length"], 1 << 31))
    if clean["status"] == "ok":
        array = clean["value"]
        if array.nbytes > MAX_RESULT or array.ndim > 16:
            return {"status": "unreadable", "type": f"an array of {array.nbytes} bytes"}
    return clean


def _cut(text: str, budget: list[int]) -> str:
    keep = max(0, min(len(text), budget[0]))
    budget[0] -= keep
    return text if keep == len(text) else text[:keep] + f"\n[output truncated: {len(text) - keep} more characters]"


def outputs(values: list, max_bytes: int) -> list[dict]:
    """A cell's outputs as the notebook will store them: only streams, displays of
    :data:`DISPLAY_TYPES` and errors, with at most ``max_bytes`` of text and images."""
    budget = [max_bytes]
    clean = []
    for output in values[:1000]:
        kind = output.get("output_type")
        if kind == "stream" and output.get("name") in ("stdout", "stderr") and isinstance(output.get("text"), str):
            clean.append({"output_type": "stream", "name": output["name"], "text": _cut(output["text"], budget)})
        elif kind in ("display_data", "execute_result") and isinstance(output.get("data"), dict):
            data = {mime: _cut(text, budget) for mime, text in output["data"].items()
                    if mime in DISPLAY_TYPES and isinstance(text, str)}
            clean.append({"output_type": "display_data", "data": data or {"text/plain": ""}, "metadata": {}})
        elif kind == "error" and isinstance(output.get("ename"), str) and isinstance(output.get("evalue"), str):
            clean.append({"output_type": "error", "ename": output["ename"][:100], "evalue": output["evalue"][:500],
                          "traceback": []})
        else:
            raise ProtocolError("a malformed cell output")
    return clean
