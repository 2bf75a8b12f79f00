"""Put every source notebook in ``solutions/`` in canonical form (see ``autograder.notebooks``).

``python -m autograder.fmt --check`` lists the ones that are not, and exits 1.
"""

from __future__ import annotations

import sys

from . import SOLUTIONS
from . import notebooks as nbio


def main(argv: list[str]) -> int:
    changed = []
    for path in sorted(SOLUTIONS.glob("*.ipynb")):
        text = path.read_text(encoding="utf-8")
        canonical = nbio.dumps(nbio.clean(nbio.read(path)))
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
