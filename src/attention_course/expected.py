"""The answers of the notebooks' visible checks, as the course's build computed them (data, no code).

``expected/<notebook>.xz`` holds, for every input a visible check of that notebook uses, the
expected result and each catalogued mistake's result (:func:`attention_course.convert.pack`,
compressed with LZMA; every distinct array once); ``expected/exercises.json`` says which notebook
holds which exercise. A notebook's file is read when one of its checks first needs it, never
another notebook's.
"""

from __future__ import annotations

import functools
import json
import lzma
from pathlib import Path

from .convert import unpack

FOLDER = Path(__file__).resolve().parent / "expected"


@functools.cache
def _index(folder: Path) -> dict[str, str]:
    path = folder / "exercises.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


@functools.cache
def _notebook(folder: Path, name: str) -> dict:
    return unpack(lzma.decompress((folder / f"{name}.xz").read_bytes()))["exercises"]


def exercise(name: str, folder: Path = FOLDER) -> dict | None:
    """{"meta": ..., "probes": [{"probe": ..., "analysis": ...}]} of an exercise, or None."""
    notebook = _index(folder).get(name)
    return None if notebook is None else _notebook(folder, notebook).get(name)
