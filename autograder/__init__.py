"""Build and grading tools of the course, on top of nbgrader.

- ``python -m autograder.build``: regenerate ``notebooks/`` (learner copies) from ``solutions/``;
- ``python -m autograder.grade``: grade a class's submissions into feedback HTML and a grades CSV.

Both are wrapped by ``tasks.py`` (``python3 tasks.py build`` / ``python3 tasks.py grade``).
"""

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SOLUTIONS = REPO / "solutions"
NOTEBOOKS = REPO / "notebooks"
IMAGES = REPO / "images"
CONFIG = Path(__file__).resolve().parent / "nbgrader_config.py"
