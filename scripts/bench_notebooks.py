"""Time every solution notebook, top to bottom, and print a table.

    python3 tasks.py bench            # all notebooks
    python3 tasks.py bench 03 05      # the notebooks whose names start with 03 or 05

"setup" is the locked first code cell (framework imports: about 5 s for TensorFlow, 2.5 s for
PyTorch); "rest" is everything after it, which the course keeps under 10 s per notebook on the
development machine (2 cores). Kernel start-up is excluded. Figures, not a pass/fail test.
"""

from __future__ import annotations

import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import nbformat
from nbclient import NotebookClient

SOLUTIONS = Path(__file__).resolve().parent.parent / "solutions"
TARGET_REST_SECONDS = 10.0


def cell_seconds(cell) -> float:
    """A cell's run time from the timing nbclient records in its metadata (0 when absent)."""
    timing = cell.metadata.get("execution", {})
    start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
    if not (start and end):
        return 0.0
    parse = lambda text: datetime.fromisoformat(text.replace("Z", "+00:00"))  # noqa: E731
    return (parse(end) - parse(start)).total_seconds()


def bench(path: Path) -> tuple[float, float, float]:
    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory() as tmp:
        client = NotebookClient(nb, timeout=300, kernel_name="python3", record_timing=True,
                                resources={"metadata": {"path": tmp}})
        started = time.perf_counter()
        client.execute()
        wall = time.perf_counter() - started
    code = [c for c in nb.cells if c.cell_type == "code"]
    setup = next((c for c in code if c.metadata.get("nbgrader", {}).get("grade_id") == "setup"), code[0])
    setup_s = cell_seconds(setup)
    rest_s = sum(cell_seconds(c) for c in code if c is not setup)
    return setup_s, rest_s, wall


def main(prefixes: list[str]) -> int:
    paths = [p for p in sorted(SOLUTIONS.glob("*.ipynb")) if not prefixes or p.name.startswith(tuple(prefixes))]
    print(f"{'notebook':<40} {'setup s':>8} {'rest s':>8} {'wall s':>8}  rest < {TARGET_REST_SECONDS:g} s")
    slow = 0
    for path in paths:
        setup_s, rest_s, wall = bench(path)
        ok = rest_s < TARGET_REST_SECONDS
        slow += not ok
        print(f"{path.stem:<40} {setup_s:8.2f} {rest_s:8.2f} {wall:8.2f}  {'yes' if ok else 'NO'}", flush=True)
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
