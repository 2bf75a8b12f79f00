"""The grader's channel to a sandbox: exact arrays as bytes, and nothing malformed believed.

Every message from a sandbox is hostile (see autograder/sandbox/protocol.py): these are the
refusals the grader relies on, each one a submission ended as failed instead of a crashed run.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time

import numpy as np
import pytest

from autograder.sandbox import protocol
from autograder.sandbox.channel import Deadline, GraderEnd, SandboxEnd
from autograder.sandbox.protocol import FROM_SANDBOX, ProtocolError


def _frame(header: dict | bytes, payload: bytes = b"") -> bytes:
    data = header if isinstance(header, bytes) else json.dumps(header).encode()
    return struct.pack("!II", len(data), len(payload)) + data + payload


def _parse(frame: bytes, schema=FROM_SANDBOX) -> dict:
    header, payload = struct.unpack_from("!II", frame)
    return protocol.parse(frame[8:8 + header], frame[8 + header:8 + header + payload], schema)


def test_arrays_cross_exactly_as_bytes():
    values = {"a": np.arange(12, dtype=np.float32).reshape(3, 4), "b": np.array(2.5), "c": np.array([True, False]),
              "d": [np.int64(7), float("nan"), float("-inf")], "e": np.asfortranarray(np.ones((2, 3)))}
    back = _parse(protocol.pack(values), None)
    assert back["a"].dtype == np.float32 and np.array_equal(back["a"], values["a"])
    assert back["b"].shape == () and back["b"] == 2.5 and back["c"].dtype == bool
    assert back["d"][0] == 7 and np.isnan(back["d"][1]) and back["d"][2] == -np.inf
    assert np.array_equal(back["e"], values["e"])


@pytest.mark.parametrize("bad", [
    b"not json", b"[1, 2]", b"[" * 100_000 + b"]" * 100_000,
    json.dumps({"op": "probe_done", "outcome": {"x": {"__array__": "|O", "shape": [1], "at": 0}}}).encode(),
    json.dumps({"op": "probe_done", "outcome": {"x": {"__array__": "<f8", "shape": [1000], "at": 0}}}).encode(),
    json.dumps({"op": "probe_done", "outcome": {"x": {"__array__": "<f8", "shape": [-1], "at": 0}}}).encode(),
    json.dumps({"op": "done"}).encode(),  # not a message a sandbox may send
    json.dumps({"op": "cell_done", "index": 1, "outputs": [], "error": None}).encode(),  # a field missing
    json.dumps({"op": "cell_done", "index": "1", "outputs": [], "error": None, "memory_error": False}).encode(),
    json.dumps({"op": "ready", "extra": 1}).encode(),
])
def test_a_malformed_message_is_refused(bad):
    with pytest.raises(ProtocolError):
        _parse(_frame(bad, b"\0" * 8))


def test_deep_nesting_is_refused_before_it_costs_anything():
    nested: object = 0
    for _ in range(50):
        nested = [nested]
    with pytest.raises(ProtocolError, match="deep"):
        _parse(protocol.pack({"op": "probe_done", "outcome": {"status": "ok", "v": nested}}))


@pytest.mark.parametrize("outcome", [
    {"status": "ok", "value": "not an array", "changed_inputs": False},
    {"status": "ok", "value": np.ones(2)},
    {"status": "raised", "type": 3, "message": "x"},
    {"status": "something else"},
    "a string",
])
def test_a_malformed_probe_outcome_is_refused(outcome):
    with pytest.raises(ProtocolError):
        protocol.outcome(outcome)


def test_outcomes_are_bounded_and_outputs_cut_to_what_a_page_may_show():
    huge = protocol.outcome({"status": "ok", "value": np.zeros(3 << 20), "changed_inputs": False})
    assert huge["status"] == "unreadable"
    assert len(protocol.outcome({"status": "raised", "type": "E", "message": "x" * 10_000})["message"]) == 300
    outputs = protocol.outputs([
        {"output_type": "stream", "name": "stdout", "text": "y" * 5000},
        {"output_type": "display_data", "data": {"application/javascript": "alert(1)", "text/html": "<b>b</b>"}},
    ], max_bytes=1000)
    assert len(outputs[0]["text"]) < 1100 and "truncated" in outputs[0]["text"]
    assert set(outputs[1]["data"]) <= {"text/plain", "text/html"} and "application/javascript" not in outputs[1]["data"]
    with pytest.raises(ProtocolError):
        protocol.outputs([{"output_type": "stream", "name": "stdout", "text": 3}], 1000)


def _pair():
    ours, theirs = socket.socketpair()
    return GraderEnd(ours, max_header=1 << 16, max_payload=1 << 20), theirs


def test_an_oversized_frame_is_refused_before_its_bytes_are_read():
    grader, sandbox = _pair()
    sandbox.sendall(struct.pack("!II", 10, 1 << 30))
    with pytest.raises(ProtocolError, match="over the limit"):
        grader.receive(time.monotonic() + 5)


def test_a_flood_of_unasked_messages_is_refused():
    grader, sandbox = _pair()
    message = protocol.pack({"op": "ready"})

    def flood():
        try:
            while True:
                sandbox.sendall(message * 1000)
        except OSError:
            pass

    threading.Thread(target=flood, daemon=True).start()
    with pytest.raises(ProtocolError, match="more than it was asked"):
        grader.send({"op": "cell", "source": "x" * (8 << 20)}, time.monotonic() + 20)
    grader.close()
    sandbox.close()


def test_writing_while_the_sandbox_writes_and_never_reads_cannot_deadlock():
    """The grader sends a large request to a sandbox that is busy writing and never reads: the
    grader neither blocks nor waits past its deadline."""
    ours, theirs = socket.socketpair()
    grader = GraderEnd(ours)

    def stubborn():  # writes one large message, then sits
        try:
            theirs.sendall(protocol.pack({"op": "probe_done", "outcome": {"status": "ok", "value": np.zeros(1 << 20),
                                                                          "changed_inputs": False}}))
        except OSError:
            pass

    threading.Thread(target=stubborn, daemon=True).start()
    started = time.monotonic()
    with pytest.raises(Deadline):
        grader.send({"op": "cell", "source": "x" * (32 << 20)}, time.monotonic() + 2)
    assert time.monotonic() - started < 5
    theirs.close()


def test_the_sandbox_end_reads_what_the_grader_end_sends():
    ours, theirs = socket.socketpair()
    grader, sandbox = GraderEnd(ours), SandboxEnd(theirs.fileno())
    grader.send({"op": "probe", "inputs": [np.arange(5.0)]}, time.monotonic() + 5)
    assert np.array_equal(sandbox.receive()["inputs"][0], np.arange(5.0))
    sandbox.send({"op": "ready"})
    assert grader.receive(time.monotonic() + 5) == {"op": "ready"}


def test_large_inputs_cross_once_and_reach_every_case_unchanged(monkeypatch):
    """A sandbox keeps each large input it was sent (autograder.run.KEEP_BYTES) and is sent its name after
    that; an answer that zeroes its inputs in place changes nothing for the next answer, and the outcomes
    are those of inputs sent afresh every time."""
    from autograder import accuracy, plans, run
    from autograder.dispatch import LocalExecutor
    from autograder.key import ComputedKey

    name = "01_attention_without_weights"
    zeroing = "def scores_for_query(query, inputs):\n    inputs.mul_(0)\n    query.mul_(0)\n    return inputs @ query\n"
    right = "def scores_for_query(query, inputs):\n    return inputs @ query\n"
    monkeypatch.setattr(accuracy, "load_cases", lambda notebook, case_set: (
        {"scores_for_query": {"zeroing": ([], zeroing)}}, {"scores_for_query": {"right": right}}))
    job, about = accuracy.cases_job(name, ["in_place"], plans.stored(name))
    executor = LocalExecutor(1)
    try:
        afresh = executor.submit(job).result()
        monkeypatch.setattr(run, "KEEP_BYTES", 0)  # every array input is kept and named
        named = executor.submit(job).result()
    finally:
        executor.close()
    assert protocol.pack(named.cases) == protocol.pack(afresh.cases)
    outcomes = {o.case: o for o in accuracy.outcomes_of(name, job, named, about, ComputedKey())}
    assert outcomes["zeroing"].caught and outcomes["right"].ok, outcomes
