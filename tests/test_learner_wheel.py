"""The package learners install answers no graded exercise.

The wheel that Colab's install cell builds (``pip install git+...``) is built here, installed alone
into an empty folder, and imported by a Python that sees that folder and NumPy/SciPy/Matplotlib but
not the repository (no ``autograder``, no editable install). There, for inputs a visible check never
uses, we look for an answer every way the wheel allows: every function of every module of the
package called on the inputs, and the precomputed data of the visible checks. None may give the
grading side's answer.
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO

from attention_course.convert import encode
from attention_course.verdict import same_probe
from autograder.key import ComputedKey
from autograder.key.exercises import all_exercises

pytestmark = pytest.mark.slow

SEARCH = r"""
import importlib, inspect, json, pkgutil, signal, sys
sys.path[:0] = [TARGET]
import numpy as np
import attention_course
assert attention_course.__file__.startswith(TARGET), attention_course.__file__
try:
    import autograder  # noqa: F401
    sys.exit("autograder is importable: the search would not be in a learner's environment")
except ImportError:
    pass
from attention_course.convert import decode
from attention_course.verdict import StoredKey, close

cases = decode(json.loads(sys.stdin.read()))
functions = []
for info in pkgutil.walk_packages(attention_course.__path__, "attention_course."):
    module = importlib.import_module(info.name)
    for name, value in vars(module).items():
        if callable(value) and getattr(value, "__module__", "").startswith("attention_course"):
            functions.append((f"{info.name}.{name}", value))

def alarm(*_):
    raise TimeoutError
signal.signal(signal.SIGALRM, alarm)
found, stored = [], []
for case in cases:
    for label, function in functions:
        signal.alarm(2)
        try:
            result = function(*case["inputs"])
            if close(np.asarray(result, dtype=np.float64), case["expected"], np.float32):
                found.append(f"{case['exercise']}: {label}")
        except BaseException:
            pass
        finally:
            signal.alarm(0)
    try:
        StoredKey().analyse(case["exercise"], {"inputs": case["inputs"], "kwargs": {}})
        stored.append(case["exercise"])
    except LookupError:
        pass
print(json.dumps({"functions": len(functions), "found": found, "stored": stored}))
"""


@pytest.fixture(scope="module")
def wheel_target(tmp_path_factory):
    import shutil

    root = tmp_path_factory.mktemp("wheel")
    # built from a clean copy of what the package is made of, as Colab's pip builds a fresh clone (a
    # checkout's own build/ folder may hold files of an earlier build)
    source = root / "source"
    shutil.copytree(REPO / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(root / "dist"), str(source)],
                   check=True, capture_output=True, cwd=root)
    (wheel,) = (root / "dist").glob("attention_course-*.whl")
    target = root / "env"
    subprocess.run([*pip, "install", "--no-deps", "--target", str(target), str(wheel)], check=True,
                   capture_output=True, cwd=root)
    return wheel, target


def test_wheel_holds_only_the_learner_package(wheel_target):
    wheel, _ = wheel_target
    names = zipfile.ZipFile(wheel).namelist()
    modules = {Path(n).stem for n in names if n.endswith(".py")}
    assert {"__init__", "checks", "contracts", "convert", "data", "expected", "minilm", "mistakes", "plots"} <= modules, modules
    assert "attention_course/verdict/__init__.py" in names and "attention_course/verdict/judging.py" in names, names
    assert not [n for n in names if n.startswith("autograder") or "reference" in n or "mutant" in n]
    data = [n for n in names if n.endswith((".json", ".xz"))]
    assert data and all(n.startswith("attention_course/expected/") for n in data)


def test_wheel_is_small_and_imports_nothing_of_the_grader(wheel_target):
    """At most 3 MB; no module of it imports the grading side or keeps a hook for it to set."""
    import ast

    wheel, _ = wheel_target
    assert wheel.stat().st_size <= 3 * 2**20, f"{wheel.stat().st_size / 2**20:.2f} MB"
    with zipfile.ZipFile(wheel) as archive:
        for name in (n for n in archive.namelist() if n.endswith(".py")):
            tree = ast.parse(archive.read(name).decode())
            imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
            imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
            assert not [m for m in imported if m.split(".")[0] == "autograder"], name
            assert "_RECORDER" not in archive.read(name).decode() and "BLOBS" not in archive.read(name).decode()


def _nudged(value, rng, step=1):
    """A nearby input: floats moved, integers (sizes, counts) increased by about ``step``."""
    if isinstance(value, np.ndarray) and np.issubdtype(value.dtype, np.floating):
        return value + rng.normal(0, 0.5, value.shape).astype(value.dtype)
    if isinstance(value, np.ndarray) and np.issubdtype(value.dtype, np.integer):
        return value + rng.integers(step, step + 2, value.shape).astype(value.dtype)
    if isinstance(value, int) and not isinstance(value, bool):
        return value + step
    if isinstance(value, str) and len(value) > 1:  # a text or a vocabulary: the same characters reversed
        return value[::-1] if step % 2 else value[1:] + value[0]
    return value


def _unseen_cases() -> list[dict]:
    """For every exercise with stored visible inputs: those inputs, nudged, with the key's answer."""
    rng = np.random.default_rng(9)
    from attention_course import expected

    stored = {name: expected.exercise(name) for name in expected._index(expected.FOLDER)}
    key, cases = ComputedKey(), []
    for exercise in all_exercises():
        if exercise not in stored:
            continue
        seen = [c["probe"] for c in stored[exercise]["probes"]]
        for case in stored[exercise]["probes"]:
            # visible checks include their evidence probes (other sizes, ...): step past those too
            for step in range(1, 12):
                inputs = [_nudged(x, rng, step) for x in case["probe"]["inputs"]]
                probe = {"inputs": inputs, "kwargs": case["probe"]["kwargs"]}
                if not any(same_probe(probe, other) for other in seen):
                    break
            analysis = key.analyse(exercise, probe)
            if analysis["expected"] is None or case["probe"]["kwargs"]:
                continue
            cases.append({"exercise": exercise, "inputs": inputs,
                          "expected": np.asarray(analysis["expected"], dtype=np.float64)})
            break
    return cases


def test_no_graded_exercise_can_be_answered_from_the_wheel(wheel_target):
    _, target = wheel_target
    cases = _unseen_cases()
    assert len({c["exercise"] for c in cases}) >= 20  # nearly every exercise of the course is searched
    site = sysconfig.get_paths()["purelib"]  # NumPy & co., but -S: no .pth, so no editable install
    code = f"import sys; sys.path.append({site!r}); TARGET = {str(target)!r}\n" + SEARCH
    completed = subprocess.run([sys.executable, "-S", "-I", "-c", code], input=json.dumps(encode(cases)),
                               capture_output=True, text=True, cwd=target, timeout=600)
    assert completed.returncode == 0, completed.stderr[-3000:]
    report = json.loads(completed.stdout.strip().splitlines()[-1])
    assert report["functions"] >= 20  # the search did look at the package
    assert report["found"] == [], "functions of the learner package answer graded exercises"
    assert report["stored"] == [], "the shipped data answers inputs no visible check uses"
