"""Large test inputs (notebook 08's model weights) cross to each worker once, named by digest."""

from __future__ import annotations

import numpy as np
import pytest

from attention_course import convert


@pytest.fixture
def registry(monkeypatch):
    blobs: dict = {}
    monkeypatch.setattr(convert, "BLOBS", blobs)
    return blobs


def test_a_large_array_is_named_by_digest_and_found_again(registry):
    big, small = np.arange(70_000, dtype=np.float32).reshape(700, 100), np.ones(3)
    sent: dict = {}
    plain = convert.encode({"weights": big, "bias": small}, sent)
    assert "blob" in plain["weights"] and "b64" in plain["bias"]
    assert list(sent) == [plain["weights"]["blob"]] and sent[plain["weights"]["blob"]] is big
    registry.update(sent)  # what a worker does when the grader sends it the array once
    back = convert.decode(plain)
    assert np.array_equal(back["weights"], big) and back["weights"] is not big  # a copy: runs cannot share it


def test_a_name_the_worker_was_not_sent_is_refused(registry):
    plain = convert.encode(np.zeros((600, 600)), {})
    with pytest.raises(ValueError, match="missing"):
        convert.decode(plain)
    registry[plain["blob"]] = np.zeros((600, 601))
    with pytest.raises(ValueError, match="differs"):
        convert.decode(plain)


def test_with_the_registry_itself_only_arrays_it_holds_are_named(registry):
    known, unknown = np.ones((512, 512)), np.zeros((512, 512))
    registry[convert.blob_digest(known)] = known
    plain = convert.encode([known, unknown], convert.BLOBS)
    assert "blob" in plain[0] and "b64" in plain[1] and len(registry) == 1


def test_the_digest_is_of_contents_shape_and_dtype():
    a = np.arange(12.0)
    assert convert.blob_digest(a) == convert.blob_digest(a.copy())
    assert convert.blob_digest(a) != convert.blob_digest(a.reshape(3, 4))
    assert convert.blob_digest(a) != convert.blob_digest(a.astype(np.float32))


def test_the_workers_line_reader_splits_lines_whatever_the_chunks():
    """The zygote's stdin reader: lines split across reads, several in one read, a line far larger
    than a read (a model's weights), and a last line without its newline."""
    import os
    import threading

    from autograder.sandbox.zygote import LineReader

    big = b"w" * (3 << 20)
    data = b"first\n" + big + b"\nsecond\nthird\nlast"
    read_end, write_end = os.pipe()

    def write():
        for start in range(0, len(data), 1000 + 7):  # chunks that never line up with the lines
            os.write(write_end, data[start:start + 1007])
        os.close(write_end)

    writer = threading.Thread(target=write)
    writer.start()
    reader = LineReader(read_end)
    lines = [reader.readline() for _ in range(6)]
    writer.join()
    os.close(read_end)
    assert lines == [b"first\n", big + b"\n", b"second\n", b"third\n", b"last", b""]


def test_the_line_reader_knows_when_a_whole_line_is_waiting():
    import os

    from autograder.sandbox.zygote import LineReader

    read_end, write_end = os.pipe()
    os.write(write_end, b"one\ntw")
    reader = LineReader(read_end)
    assert not reader.has_line()
    assert reader.readline() == b"one\n"
    assert not reader.has_line()  # "tw" is buffered, with no newline yet
    os.write(write_end, b"o\n")
    os.close(write_end)
    assert reader.readline() == b"two\n"
    assert reader.readline() == b""
    os.close(read_end)
