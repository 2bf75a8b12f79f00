"""Run a notebook's cells in this process, the way a kernel would, and report as plain data.

Runs where submitted code runs (inside the sandbox, see :mod:`autograder.sandbox.zygote`), so it
decides nothing: it executes the cells with IPython, and at each test cell, instead of the cell's
code, it calls the learner's functions on the inputs the grader sent (the *probes*) and reports
what they returned. The grader judges those results in its own process.

In ``record`` mode (the course's own source notebooks, on the maintainers' side) test cells do run,
with the checks collecting their calls instead of judging them: that is how the grader learns each
test cell's inputs, and how the build precomputes the visible checks' answers.

Messages are JSON lines on a channel (see :class:`Channel`); arrays travel as
:func:`attention_course.convert.encode` data, never pickled.
"""

from __future__ import annotations

import json
import os
import signal
import time

import numpy as np

from attention_course import checks as learner_checks
from attention_course.convert import BLOBS, as_numpy_input, decode, encode, to_framework
from attention_course.verdict import run_probe

HIDDEN_BEGIN, HIDDEN_END = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
MAX_TEXT = 100_000  # characters of stdout/stderr kept per cell
MAX_DISPLAY = 1_000_000  # characters of rich display data kept per cell
MAX_RESULT = 16 << 20  # bytes of one probe's result


class Lines:
    """Bytes in, whole lines out. A line can be tens of MB (a model's weights): the buffer grows in
    place and only bytes not searched yet are searched for a newline, so the cost is linear."""

    def __init__(self):
        self.buffer, self.scanned = bytearray(), 0

    def feed(self, chunk: bytes) -> None:
        self.buffer += chunk

    def pop(self) -> bytes | None:
        """The next whole line, newline included, or None."""
        end = self.buffer.find(b"\n", self.scanned)
        if end < 0:
            self.scanned = len(self.buffer)
            return None
        line = bytes(self.buffer[:end + 1])
        del self.buffer[:end + 1]
        self.scanned = 0
        return line

    def has_line(self) -> bool:
        return self.buffer.find(b"\n", self.scanned) >= 0

    def rest(self) -> bytes:
        """What is left (a last line without its newline), emptying the buffer."""
        rest = bytes(self.buffer)
        self.buffer, self.scanned = bytearray(), 0
        return rest

    def __len__(self) -> int:
        return len(self.buffer)


class Channel:
    """Newline-delimited JSON over two file descriptors."""

    def __init__(self, read_fd: int, write_fd: int):
        self.reader = os.fdopen(read_fd, "rb", buffering=0) if read_fd >= 0 else None
        self.write_fd = write_fd
        self._lines = Lines()

    def send(self, message: dict) -> None:
        data = (json.dumps(message, allow_nan=True) + "\n").encode()
        view = memoryview(data)
        while view:
            written = os.write(self.write_fd, view)
            view = view[written:]

    def receive(self) -> dict:
        while (line := self._lines.pop()) is None:
            chunk = self.reader.read(1 << 20)
            if not chunk:
                raise EOFError("channel closed")
            self._lines.feed(chunk)
        return json.loads(line)

    def request(self, message: dict) -> dict:
        self.send(message)
        return self.receive()


class CellTimeout(KeyboardInterrupt):
    """Raised in a cell that runs past the time limit (a KeyboardInterrupt, as a kernel's interrupt)."""


def split_test_source(source: str) -> tuple[str, str]:
    """(visible part, hidden part) of a test cell's source."""
    if HIDDEN_BEGIN not in source:
        return source, ""
    before, _, rest = source.partition(HIDDEN_BEGIN)
    hidden, _, after = rest.partition(HIDDEN_END)
    return before, hidden + "\n" + after


def make_shell():
    """A fresh IPython shell that keeps no history (created once in the warm zygote)."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.enabled = False
    config.InteractiveShell.colors = "nocolor"
    config.InteractiveShell.xmode = "Plain"
    shell = InteractiveShell.instance(config=config)
    shell.showtraceback = lambda *args, **kwargs: None
    return shell


def _truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"\n[output truncated: {len(text) - limit} more characters]"


def _outputs(captured, error) -> list[dict]:
    outputs = []
    if captured.stdout:
        outputs.append({"output_type": "stream", "name": "stdout", "text": _truncate(captured.stdout, MAX_TEXT)})
    if captured.stderr:
        outputs.append({"output_type": "stream", "name": "stderr", "text": _truncate(captured.stderr, MAX_TEXT)})
    budget = MAX_DISPLAY
    for item in captured.outputs:
        data = {k: v for k, v in item.data.items() if isinstance(v, str)}
        size = sum(len(v) for v in data.values())
        if size > budget:
            data = {"text/plain": data.get("text/plain", "")[:1000] or "[display output too large]"}
        budget -= min(size, budget)
        outputs.append({"output_type": "display_data", "data": data, "metadata": {}})
    if error is not None:
        lines = str(error).splitlines()
        outputs.append({"output_type": "error", "ename": type(error).__name__,
                        "evalue": (lines[0] if lines else "")[:500], "traceback": []})
    return outputs


def run_source(shell, source: str, timeout: float) -> tuple[list[dict], BaseException | None]:
    """Run one cell's code with a time limit; its outputs (nbformat dicts) and error, if any."""
    from IPython.utils.capture import capture_output

    def interrupt(signum, frame):
        raise CellTimeout(f"the cell ran past the {timeout:g} s limit and was stopped")

    previous = signal.signal(signal.SIGALRM, interrupt)
    error: BaseException | None = None
    with capture_output(stdout=True, stderr=True, display=True) as captured:
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            result = shell.run_cell(source, store_history=False)
            error = result.error_before_exec or result.error_in_exec
        except CellTimeout as stopped:  # raised outside the cell's own code
            error = stopped
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    try:
        import matplotlib.pyplot as plt

        plt.close("all")
    except Exception:
        pass
    if isinstance(error, CellTimeout):
        error = _named("CellTimeoutError", str(error))
    return _outputs(captured, error), error


def _named(name: str, message: str) -> BaseException:
    return type(name, (Exception,), {})(message)


def _oracle(channel: Channel, exercise: str, dependency: str, framework: str):
    """A stand-in for the learner's earlier answer ``dependency``: computed by the grader, not here."""

    def standin(*args, **kwargs):
        arrays = [as_numpy_input(a) for a in args]
        reply = channel.request({"event": "oracle", "exercise": exercise, "dependency": dependency,
                                 "args": encode(arrays, BLOBS), "kwargs": encode(kwargs, BLOBS)})
        if "error" in reply:
            raise RuntimeError(reply["error"])
        value = decode(reply["value"])
        if isinstance(value, list):
            return tuple(to_framework(part, framework) for part in value)
        return to_framework(value, framework)

    standin.__name__ = dependency
    return standin


def _timed_probe(candidate, probe: dict, meta: dict, replacements: dict, timeout: float) -> dict:
    """One probe, stopped after ``timeout`` seconds like a cell."""

    def interrupt(signum, frame):
        raise CellTimeout(f"the function ran past the {timeout:g} s limit and was stopped")

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        return run_probe(candidate, probe, meta["framework"], replacements, meta.get("returns_tuple", False))
    except BaseException as error:  # CellTimeout, or SystemExit and the like from the learner's code
        return {"status": "raised", "type": "CellTimeoutError" if isinstance(error, CellTimeout)
                else type(error).__name__, "message": str(error)[:300]}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _probe_cell(shell, channel: Channel, cell: dict, timeout: float) -> None:
    for number, call in enumerate(decode(cell["calls"])):
        meta = call["meta"]
        candidate = shell.user_ns.get(call["function"]) if call["function"] else None
        replacements = {name: _oracle(channel, call["exercise"], name, meta["framework"]) for name in meta["uses"]}
        outcomes = []
        for probe in call["probes"]:
            outcome = _timed_probe(candidate, probe, meta, replacements, timeout)
            if outcome["status"] == "ok" and outcome["value"].nbytes > MAX_RESULT:
                outcome = {"status": "unreadable", "type": f"an array of {outcome['value'].nbytes} bytes"}
            outcomes.append(outcome)
        channel.send({"event": "probe", "index": cell["index"], "call": number, "outcomes": encode(outcomes)})


def _record_cell(shell, channel: Channel, cell: dict, timeout: float) -> tuple[list[dict], BaseException | None]:
    outputs, error = [], None
    for hidden, part in enumerate(split_test_source(cell["source"])):
        if not part.strip() or error is not None:
            continue

        def record(call, hidden=bool(hidden)):
            channel.send({"event": "record", "index": cell["index"], "hidden": hidden, "call": encode(call)})

        learner_checks._RECORDER = record
        try:
            part_outputs, error = run_source(shell, part, timeout)
        finally:
            learner_checks._RECORDER = None
        outputs += part_outputs
    return outputs, error


def run_cells(shell, channel: Channel, cells: list[dict], mode: str, cell_timeout: float,
              unneeded: frozenset[int] = frozenset()) -> None:
    """Run every cell in order, reporting each; test cells are probed (grade) or recorded (record).

    Cells in ``unneeded`` (no graded function depends on them, see :mod:`autograder.slicing`) are
    passed over without a word."""
    for cell in cells:
        if cell["index"] in unneeded:
            continue
        started = time.perf_counter()
        channel.send({"event": "cell_start", "index": cell["index"]})
        error = None
        if cell["kind"] == "skip":
            outputs = _outputs(_Nothing(), _named("CellSkipped", f"this cell was not run: {cell['reason']}"))
        elif cell["kind"] == "test" and mode == "grade":
            _probe_cell(shell, channel, cell, cell_timeout)
            outputs = []
        elif cell["kind"] == "test" and mode == "record":
            outputs, error = _record_cell(shell, channel, cell, cell_timeout)
        else:
            outputs, error = run_source(shell, cell["source"], cell_timeout)
        channel.send({"event": "cell_end", "index": cell["index"], "outputs": outputs,
                      "seconds": time.perf_counter() - started,
                      "error": type(error).__name__ if error is not None else None,
                      "memory_error": isinstance(error, MemoryError)})


class _Nothing:
    stdout = stderr = ""
    outputs: list = []


def warm_imports(threads: int = 0) -> None:
    """What the zygote imports once, so that no submission pays for it; ``threads`` > 0 sets how
    many threads PyTorch and TensorFlow use inside one run (before either has run anything)."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot  # noqa: F401
    import scipy.special  # noqa: F401
    import torch  # noqa: F401

    import attention_course.data  # noqa: F401
    import attention_course.plots  # noqa: F401

    if threads > 0:
        torch.set_num_threads(threads)
        torch.set_num_interop_threads(threads)
    try:
        import keras  # noqa: F401
        import tensorflow

        if threads > 0:
            tensorflow.config.threading.set_intra_op_parallelism_threads(threads)
            tensorflow.config.threading.set_inter_op_parallelism_threads(threads)
    except Exception:
        pass
    np.zeros(1)
