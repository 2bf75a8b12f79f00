"""The learner package's size and how long a notebook's first check waits for its data.

    python3 tasks.py bench-package

Builds the wheel from a clean copy of the package (as Colab's install cell does) and prints its size
(the goal: at most 3 MB), then, for every notebook, in a fresh Python that has only the wheel
installed, the time its first visible check spends reading the expected data (the goal: under
0.2 s): the data of that notebook alone is read. Figures, not a pass/fail test.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

FIRST_READ = r"""
import json, sys, time
sys.path[:0] = [TARGET]
from attention_course import expected
index = expected._index(expected.FOLDER)
times = {}
for notebook in sorted(set(index.values())):
    exercise = min(name for name, where in index.items() if where == notebook)
    started = time.perf_counter()
    expected.exercise(exercise)
    times[notebook] = time.perf_counter() - started
print(json.dumps(times))
"""


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(REPO / "src", root / "source" / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        for name in ("pyproject.toml", "README.md"):
            shutil.copy(REPO / name, root / "source" / name)
        pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
        subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(root / "dist"),
                        str(root / "source")], check=True, capture_output=True)
        (wheel,) = (root / "dist").glob("*.whl")
        print(f"wheel: {wheel.name}, {wheel.stat().st_size / 2**20:.2f} MB (goal: at most 3 MB)")
        subprocess.run([*pip, "install", "--no-deps", "--target", str(root / "env"), str(wheel)], check=True,
                       capture_output=True)
        site = sysconfig.get_paths()["purelib"]
        code = f"import sys; sys.path.append({site!r}); TARGET = {str(root / 'env')!r}\n" + FIRST_READ
        # one fresh process per notebook, so that each first read is a first read
        print(f"{'notebook':<34} first check's data read (goal: under 0.2 s)")
        for notebook, seconds in _first_reads(code).items():
            print(f"{notebook:<34} {seconds:.3f} s")
    return 0


def _first_reads(code: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-S", "-I", "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    sys.exit(main())
