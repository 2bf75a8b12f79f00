"""The answers of the notebooks' visible checks, as the course's build computed them (data, no code).

``expected/<notebook>.zip`` holds one member per exercise, ``<exercise>.xz``: for every input a
visible check of that exercise uses, the expected result and each catalogued mistake's result
(:func:`attention_course.convert.pack`, every distinct array once, compressed with LZMA);
``expected/exercises.json`` says which notebook holds which exercise. An exercise's data is read
when its first check needs it, and nothing else is.
"""

from __future__ import annotations

import functools
import json
import lzma
import zipfile
from pathlib import Path

from .convert import unpack

FOLDER = Path(__file__).resolve().parent / "expected"


@functools.cache
def _index(folder: Path) -> dict[str, str]:
    path = folder / "exercises.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


@functools.cache
def _read(folder: Path, notebook: str, name: str) -> dict:
    with zipfile.ZipFile(folder / f"{notebook}.zip") as archive:
        return unpack(lzma.decompress(archive.read(f"{name}.xz")), copy=False)


def exercise(name: str, folder: Path = FOLDER) -> dict | None:
    """{"meta": ..., "probes": [{"probe": ..., "analysis": ...}]} of an exercise, or None."""
    notebook = _index(folder).get(name)
    return None if notebook is None else _read(folder, notebook, name)
