"""Put every source notebook in ``solutions/`` in canonical form (see ``autograder.notebooks``).

``python -m autograder.fmt --check`` lists the ones that are not, and exits 1. Paths given as
arguments limit it to those notebooks.
"""

from __future__ import annotations

import sys
from pathlib import Path

from . import SOLUTIONS
from . import notebooks as nbio


def main(argv: list[str]) -> int:
    changed = []
    named = [Path(a) for a in argv if a.endswith(".ipynb")]
    for path in named or sorted(SOLUTIONS.glob("*.ipynb")):
        text = path.read_text(encoding="utf-8")
        try:
            canonical = nbio.dumps(nbio.clean(nbio.read(path)))
        except Exception as error:  # one unreadable notebook must not stop the others
            print(f"{path.name}: cannot be read ({type(error).__name__}: {error})")
            changed.append(path.name)
            continue
        if text != canonical:
            changed.append(path.name)
            if "--check" not in argv:
                path.write_text(canonical, encoding="utf-8")
    verb = "not canonical (run `python3 tasks.py fmt`)" if "--check" in argv else "rewritten"
    for name in changed:
        print(f"{name}: {verb}")
    return 1 if changed and "--check" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
