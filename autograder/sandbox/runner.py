"""Inside the sandbox: run a notebook's cells and call the learner's functions, when asked.

The runner decides nothing and knows nothing ahead: it answers the grader's requests one at a time
(:func:`serve`), over the job's own socket:

- ``cell``: run one cell's code in the IPython shell; reply with its outputs;
- ``probe``: call the learner's function ``function`` on the inputs sent with the request; reply with
  what it returned (plain data). While it runs, the learner's earlier answers that it may call
  (``uses``) are stand-ins that ask the grader for the reference result (``standin``);
- ``record`` (the course's own source notebooks, when the grader learns a plan): run a test cell's
  visible and hidden parts with the checks collecting their calls instead of judging them;
- ``exit``.

Submitted code runs in this process and can rewrite any of it, so nothing here is a defence: the
grader times every request from outside, checks every reply against the schema of
:mod:`.protocol`, and kills the sandbox when it does not get what it asked for.
"""

from __future__ import annotations

import os
import signal
import sys

import numpy as np

from attention_course import checks as learner_checks
from attention_course.convert import as_numpy_input, to_framework
from attention_course.verdict import make_call, run_probe

from .channel import SandboxEnd
from .protocol import KEPT

HIDDEN_BEGIN, HIDDEN_END = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
MAX_TEXT = 100_000  # characters of stdout/stderr kept per cell (the grader cuts again)
MAX_DISPLAY = 1_000_000  # characters of rich display data kept per cell
MAX_RESULT = 16 << 20  # bytes of one probe's result


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


class _Alarm:
    """SIGALRM after ``seconds``, raising :class:`CellTimeout` in the running code."""

    def __init__(self, seconds: float, what: str):
        self.seconds, self.what = seconds, what

    def _ring(self, signum, frame):
        raise CellTimeout(f"{self.what} ran past the {self.seconds:g} s limit and was stopped")

    def __enter__(self):
        self.previous = signal.signal(signal.SIGALRM, self._ring)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def __exit__(self, *exc):
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.previous)


def run_source(shell, source: str, timeout: float) -> tuple[list[dict], BaseException | None]:
    """Run one cell's code with a time limit; its outputs (nbformat dicts) and error, if any."""
    from IPython.utils.capture import capture_output

    error: BaseException | None = None
    with capture_output(stdout=True, stderr=True, display=True) as captured:
        try:
            with _Alarm(timeout, "the cell"):
                result = shell.run_cell(source, store_history=False)
            error = result.error_before_exec or result.error_in_exec
        except CellTimeout as stopped:  # raised outside the cell's own code
            error = stopped
    try:
        import matplotlib.pyplot as plt

        plt.close("all")
    except Exception:  # noqa: BLE001 (the learner's code may have broken matplotlib: not our concern)
        pass
    if isinstance(error, CellTimeout):
        error = _named("CellTimeoutError", str(error))
    return _outputs(captured, error), error


def _named(name: str, message: str) -> BaseException:
    return type(name, (Exception,), {})(message)


def _standin(channel: SandboxEnd, name: str, framework: str):
    """The learner's earlier answer ``name``, computed by the grader for this probe."""

    def standin(*args, **kwargs):
        channel.send({"op": "standin", "name": name, "args": [as_numpy_input(a) for a in args],
                      "kwargs": {str(k): as_numpy_input(v) for k, v in kwargs.items()}})
        reply = channel.receive()
        if "error" in reply:
            raise RuntimeError(reply["error"])
        value = reply["value"]
        if isinstance(value, list):
            return tuple(to_framework(part, framework) for part in value)
        return to_framework(value, framework)

    standin.__name__ = name
    return standin


def with_kept(probe_inputs: dict, kept: dict) -> dict:
    """A probe's positional inputs with the large arrays it names (``{KEPT: name}``) put back from ``kept``. The
    learner's function gets a copy of each (:func:`attention_course.convert.to_framework`), so what an
    answer does to its inputs never reaches the next case."""

    def value(item):
        return kept[item[KEPT]] if isinstance(item, dict) and set(item) == {KEPT} else item

    return {**probe_inputs, "inputs": [value(v) for v in probe_inputs["inputs"]]}


def probe(shell, channel: SandboxEnd, request: dict) -> dict:
    """One call of the learner's function, stopped after the request's time limit like a cell."""
    candidate = shell.user_ns.get(request["function"]) if request["function"] else None
    replacements = {name: _standin(channel, name, request["framework"]) for name in request["uses"]}
    try:
        with _Alarm(float(request["timeout"]), "the function"):
            outcome = run_probe(candidate, request["probe"], request["framework"], replacements,
                                request["returns_tuple"])
    except BaseException as error:  # CellTimeout, or SystemExit and the like from the learner's code
        return {"status": "raised", "type": "CellTimeoutError" if isinstance(error, CellTimeout)
                else type(error).__name__, "message": str(error)[:300]}
    if outcome["status"] == "ok" and outcome["value"].nbytes > MAX_RESULT:
        outcome = {"status": "unreadable", "type": f"an array of {outcome['value'].nbytes} bytes"}
    return outcome


def record(shell, request: dict) -> tuple[list[dict], BaseException | None, list[dict]]:
    """Run a source test cell with the checks collecting their calls: (outputs, error, records)."""
    records: list[dict] = []
    outputs: list[dict] = []
    error = None
    original = learner_checks._run
    for hidden, part in enumerate((request["visible"], request["hidden"])):
        if not part.strip() or error is not None:
            continue

        def collect(kind, exercise, candidate, inputs, kwargs, hidden=bool(hidden), **options):
            records.append({"hidden": hidden, "call": make_call(kind, exercise, candidate, inputs, kwargs,
                                                                 **options)})

        learner_checks._run = collect
        try:
            part_outputs, error = run_source(shell, part, float(request["timeout"]))
        finally:
            learner_checks._run = original
        outputs += part_outputs
    return outputs, error, records


def serve(shell, channel: SandboxEnd) -> None:
    """Answer the grader's requests until it says ``exit`` (or goes away). The first request gives the
    notebook's file, which the learner's code may open (in the working folder, as in their own run)."""
    start = channel.receive()
    kept: dict = {}  # the large inputs the grader sent once (see autograder.run)
    if start.get("notebook_name"):
        with open(os.path.basename(start["notebook_name"]), "w", encoding="utf-8") as handle:
            handle.write(start.get("notebook_text", ""))
    channel.send({"op": "ready"})
    while True:
        request = channel.receive()
        op = request.get("op")
        if op == "cell":
            outputs, error = run_source(shell, request["source"], float(request["timeout"]))
            channel.send({"op": "cell_done", "index": request["index"], "outputs": outputs,
                          "error": type(error).__name__ if error is not None else None,
                          "memory_error": isinstance(error, MemoryError)})
        elif op == "record":
            outputs, error, records = record(shell, request)
            channel.send({"op": "cell_done", "index": request["index"], "outputs": outputs, "records": records,
                          "error": type(error).__name__ if error is not None else None,
                          "memory_error": isinstance(error, MemoryError)})
        elif op == "probe":
            kept.update(request.get("keep") or {})
            request["probe"] = with_kept(request["probe"], kept)
            channel.send({"op": "probe_done", "outcome": probe(shell, channel, request)})
        else:
            os._exit(0)


def warm_imports(threads: int = 0) -> None:
    """What the zygote imports once, so that no submission pays for it; ``threads`` > 0 sets how
    many threads PyTorch and TensorFlow use inside one run (before either has run anything)."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot  # noqa: F401
    import scipy.special  # noqa: F401
    import torch  # noqa: F401
    from IPython.utils.capture import capture_output  # noqa: F401

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
    except ImportError:
        print("TensorFlow is not installed: notebook 03 cannot be graded here", file=sys.stderr)
    np.zeros(1)
