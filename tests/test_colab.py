"""A learner notebook runs in Colab, as far as that can be shown offline.

Each notebook, its answers filled in from ``solutions/``, is copied ALONE into an empty folder and run
top to bottom by a kernel whose Python is a fresh virtual environment holding only what Colab
preinstalls: the ``[colab]`` packages of ``course.toml`` (NumPy, SciPy, Matplotlib, PyTorch,
TensorFlow, Keras, and Colab's ipykernel/IPython to be a kernel). The course's own package is NOT
there: the notebook's install cell must install it, from a wheel built from this repository
(``ATTENTION_COURSE_INSTALL`` points the cell at it; in Colab it points at GitHub).

This is the suite's one run of each notebook top to bottom (the hidden tests run when the grader
grades the solutions, in ``tests/test_grading.py``). The test asserts that no cell fails, that no test
cell writes to stderr (nbgrader would score it 0), that every number the notebook's source printed
appears again in its source or outputs, that the install cell really installed ``attention-course``
(it was not importable before), and that nothing in the kernel or its subprocesses opened or listed a
file of this repository (a Python audit hook logs every ``open``/``listdir``/``scandir`` under it).

What it cannot show: Colab's Python is 3.12 (this runs .venv's Python), Colab's builds of PyTorch and
TensorFlow are the CUDA ones (this uses the CPU builds of the same versions), and the install from
GitHub itself (this installs a local wheel). The fresh environment is made once per pytest session
(about a minute; see the log line ``colab-like venv: ...``).

    python3 tasks.py test tests/test_colab.py                        # every notebook in notebooks/
    COLAB_NOTEBOOKS=01,06 python3 tasks.py test tests/test_colab.py   # those whose names start so
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import venv
from importlib import metadata
from pathlib import Path

import nbformat
import pytest
from conftest import REPO
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient

from autograder import NOTEBOOKS, SOLUTIONS
from autograder import notebooks as nbio
from autograder.build import GENERATED_TAG
from autograder.course import settings

pytestmark = pytest.mark.slow

COLAB_PACKAGES: list[str] = settings()["colab"]["packages"]
KERNEL_NAME = "colab-like"
# Environment variables the machine running the tests may set and a Colab runtime does not.
_NOT_IN_COLAB = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "CONDA_PREFIX",
                 "TF_CPP_MIN_LOG_LEVEL", "TF_ENABLE_ONEDNN_OPTS", "MPLBACKEND", "JUPYTER_PATH",
                 "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR")

# Loaded by a .pth file in the fresh environment, so by every Python process started from it: the
# kernel and the pip that the install cell runs. Inert unless both variables are set.
_AUDIT_MODULE = '''\
import os, sys

_root, _log_path = os.environ.get("COLAB_TEST_REPO"), os.environ.get("COLAB_TEST_AUDIT_LOG")
if _root and _log_path:
    _root = os.path.realpath(_root)
    _log = open(_log_path, "a", encoding="utf-8")
    _busy = [False]

    def _hook(event, args):
        if _busy[0] or event not in ("open", "os.listdir", "os.scandir", "glob.glob", "os.chdir"):
            return
        _busy[0] = True
        try:
            if args and isinstance(args[0], (str, bytes, os.PathLike)):
                path = os.path.abspath(os.fsdecode(os.fspath(args[0])))
                if path == _root or path.startswith(_root + os.sep):
                    _log.write(f"{event} {path}\\n")
                    _log.flush()
        except Exception:
            pass
        finally:
            _busy[0] = False

    sys.addaudithook(_hook)
'''


def _name(requirement: str) -> str:
    return re.split(r"[=<>!~\[; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def _selected() -> list[str]:
    names = sorted(path.stem for path in NOTEBOOKS.glob("*.ipynb"))
    wanted = os.environ.get("COLAB_NOTEBOOKS", "all").strip()
    if wanted.lower() == "all":
        return names
    prefixes = [p.strip() for p in wanted.split(",") if p.strip()]
    return [name for name in names if name.startswith(tuple(prefixes))]


def _bin(env_dir: Path) -> Path:
    return env_dir / ("Scripts" if os.name == "nt" else "bin")


def _run(*args, **kwargs) -> subprocess.CompletedProcess:
    completed = subprocess.run([str(a) for a in args], capture_output=True, text=True,
                               stdin=subprocess.DEVNULL, **kwargs)
    assert completed.returncode == 0, f"{args}\n{completed.stdout[-3000:]}\n{completed.stderr[-3000:]}"
    return completed


def _constraints() -> str:
    """The other packages at the versions .venv/ has (so pip takes them from its disk and cache),
    never the [colab] ones nor the course's package."""
    own = {_name(p) for p in COLAB_PACKAGES} | {"attention-course"}
    pins = {}
    for dist in metadata.distributions():
        name = (dist.metadata["Name"] or "").lower().replace("_", "-")
        if name and name not in own and not (dist.read_text("direct_url.json") or "").strip():
            pins[name] = dist.version
    return "".join(f"{name}=={version}\n" for name, version in sorted(pins.items()))


@pytest.fixture(scope="session")
def colab_env(tmp_path_factory):
    """A fresh virtual environment with only Colab's preinstalled packages; made once a session."""
    root = tmp_path_factory.mktemp("colab-like")
    env_dir = root / "venv"
    started = time.perf_counter()
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = _bin(env_dir) / ("python.exe" if os.name == "nt" else "python")
    (root / "constraints.txt").write_text(_constraints(), encoding="utf-8")
    _run(python, "-m", "pip", "install", "-q", "--no-compile", "--disable-pip-version-check",
         "-c", root / "constraints.txt", *COLAB_PACKAGES)
    created = time.perf_counter() - started

    site = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))").stdout.strip())
    (site / "_colab_test_audit.py").write_text(_AUDIT_MODULE, encoding="utf-8")
    (site / "_colab_test_audit.pth").write_text("import _colab_test_audit\n", encoding="utf-8")

    kernels = root / "kernels"
    (kernels / KERNEL_NAME).mkdir(parents=True)
    (kernels / KERNEL_NAME / "kernel.json").write_text(json.dumps({
        "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Colab-like Python", "language": "python",
    }), encoding="utf-8")

    # The wheel a Colab user would get from GitHub, built from a copy of the package's sources (an
    # in-tree build would write build/ and *.egg-info into the repository).
    started_wheel = time.perf_counter()
    source = root / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    shutil.copytree(REPO / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    wheels = root / "wheels"
    _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         "--disable-pip-version-check", "-w", wheels, source)
    (wheel,) = wheels.glob("attention_course-*.whl")
    print(f"\ncolab-like venv: created in {created:.0f} s, wheel built in "
          f"{time.perf_counter() - started_wheel:.0f} s ({', '.join(COLAB_PACKAGES)})")
    return {"root": root, "python": python, "site": site, "kernels": kernels, "wheel": wheel}


def _kernel_env(colab_env, audit_log: Path, home: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in _NOT_IN_COLAB}
    env.update({
        "PATH": os.pathsep.join([str(colab_env["python"].parent), env.get("PATH", "")]),
        "HOME": str(home),  # a fresh machine: no ~/.keras, ~/.config/matplotlib, user site-packages
        "PYTHONNOUSERSITE": "1",
        "ATTENTION_COURSE_INSTALL": str(colab_env["wheel"]),
        "COLAB_TEST_REPO": str(REPO),
        "COLAB_TEST_AUDIT_LOG": str(audit_log),
    })
    return env


def _label(cell) -> str:
    return cell.metadata.get("nbgrader", {}).get("grade_id") or cell.get("id", "?")


# Numbers each source printed, as they appear in the notebook's source or outputs: a notebook that
# rebuilds a source prints every number of its walkthrough again.
SOURCE_NUMBERS = {
    "01_attention_without_weights": ["0.9544", "1.4950", "0.1455", "0.1385", "0.2379", "0.4419",
                                     "0.6515", "0.5683", "0.4421", "0.2098", "0.9995"],
    "02_general_attention_numpy": ["0.16199", "0.51402", "1.67601", "0.64798", "1.84696", "0.30608",
                                   "0.98522", "1.74174", "0.75652"],
    "03_attention_tensorflow": ["55", "35", "54", "85", "3.0590218e-07", "1.3887937e-11",
                                "1.8553905e-07", "5.0000005", "6.999999", "4.9999995", "5.0002036",
                                "[29 18 28 45]", "[41 26 40 63]", "[53 31 50 85]", "[5 7 5 5]",
                                "9.9946004e-01"],
    "04_why_scale_by_sqrt_dk": ["This", "is", "book"],
    "05_matrix_form_and_masks": ["1.93662106", "6.68310531", "1.59506841", "0.06337894",
                                 "0.46831053", "1.8638742"],
    "06_multi_head_attention": ["512", "64"],
    "07_trainable_attention": ["-0.4519", "0.2216", "-0.5874", "0.0058"],
    "08_pretrained_transformer": ["He took the hat and examined it carefully"],
    "09_gpt_from_scratch": ["answered by trainable weights"],
    "10_attention_at_length": ["0.1385", "0.2379", "0.2333", "0.1240", "0.1082", "0.1581"],
}


PROBE = ("import json, sys, attention_course\n"
         "print(json.dumps({'file': attention_course.__file__, 'path': sys.path, 'prefix': sys.prefix}))")


@pytest.mark.parametrize("name", _selected())
def test_learner_notebook_runs_in_a_colab_like_environment(name, colab_env, tmp_path):
    python = colab_env["python"]
    work, home = tmp_path / "content", tmp_path / "home"
    work.mkdir()
    home.mkdir()
    audit_log = tmp_path / "audit.log"
    env = _kernel_env(colab_env, audit_log, home)

    # The environment is shared by the session: take the package out that an earlier notebook installed.
    _run(python, "-m", "pip", "uninstall", "-y", "-q", "--disable-pip-version-check", "attention-course",
         cwd=work, env=env)
    before = subprocess.run([str(python), "-c", "import attention_course"], cwd=work, env=env,
                            capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert before.returncode != 0, "attention_course is importable before the install cell ran"
    # The audit hook is live: a read of the repository by this Python is logged.
    _run(python, "-c", f"open({str(REPO / 'pyproject.toml')!r}).close()", cwd=work,
         env={**env, "COLAB_TEST_AUDIT_LOG": str(tmp_path / "control.log")})
    assert "pyproject.toml" in (tmp_path / "control.log").read_text(encoding="utf-8")

    learner = nbio.read(NOTEBOOKS / f"{name}.ipynb")
    nb = nbio.fill_solutions(learner, nbio.read(SOLUTIONS / f"{name}.ipynb"))
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            links = re.findall(r"!\[[^\]]*\]\(([^)\s]+)", cell.source) + re.findall(r"<img[^>]+src=\"([^\"]+)", cell.source)
            assert all(link.startswith(("attachment:", "https://")) for link in links), (
                f"{name}: an image that Colab cannot show: {links}")
    bootstrap = next(c for c in nb.cells if c.cell_type == "code" and GENERATED_TAG in c.metadata.get("tags", []))
    assert "ATTENTION_COURSE_INSTALL" in bootstrap.source
    nb.cells.append(nbformat.v4.new_code_cell(PROBE, id="colab-test-probe"))
    path = work / f"{name}.ipynb"
    nbformat.write(nb, str(path))
    assert sorted(p.name for p in work.iterdir()) == [path.name]

    ksm = KernelSpecManager(kernel_dirs=[str(colab_env["kernels"])])
    km = AsyncKernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=ksm)
    client = NotebookClient(nb, km=km, timeout=180, startup_timeout=120,
                            resources={"metadata": {"path": str(work)}})
    started = time.perf_counter()
    # The kernel process's own stderr (debugpy's notes, warnings at exit) goes to a file, not to the
    # test's output: a learner does not see it; the notebook's outputs are what is checked.
    with open(tmp_path / "kernel.log", "w", encoding="utf-8") as kernel_log:
        try:  # cleanup_kc: shut the kernel down afterwards, although this test made its manager
            client.execute(env=env, cwd=str(work), cleanup_kc=True, stdout=kernel_log, stderr=kernel_log)
        finally:
            nbformat.write(nb, str(tmp_path / f"{name}.executed.ipynb"))  # to read when it fails
    print(f"\n{name}: ran in the colab-like kernel in {time.perf_counter() - started:.0f} s")

    errors, stderr = [], []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                errors.append(f"{_label(cell)}: {output.ename}: {output.evalue}")
            graded = cell.metadata.get("nbgrader", {}).get("grade")
            if output.output_type == "stream" and output.name == "stderr" and graded:
                stderr.append(f"{_label(cell)}: {output.text[:300]}")
    assert not errors, f"{name}: {errors}"
    assert not stderr, f"{name}: nbgrader scores a test cell with stderr output as 0: {stderr}"
    text = "\n".join(cell.source + "".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", ""))
                                          for o in cell.get("outputs", [])) for cell in nb.cells)
    missing = [number for number in SOURCE_NUMBERS[name] if number not in text]
    assert not missing, f"{name}: numbers the source printed, not in the executed notebook: {missing}"

    probe = json.loads(next(o.text for o in nb.cells[-1].outputs if o.output_type == "stream" and o.name == "stdout"))
    assert Path(probe["prefix"]).resolve() == colab_env["python"].parent.parent.resolve()
    assert Path(probe["file"]).resolve().is_relative_to(colab_env["site"].resolve()), probe["file"]
    assert not [p for p in probe["path"] if p and Path(p).resolve().is_relative_to(REPO)], probe["path"]
    installed = metadata.Distribution.at(next(colab_env["site"].glob("attention_course-*.dist-info")))
    assert json.loads(installed.read_text("direct_url.json"))["url"].endswith(colab_env["wheel"].name)
    assert installed.version == metadata.version("attention-course")

    reads = audit_log.read_text(encoding="utf-8").splitlines() if audit_log.exists() else []
    assert not reads, f"{name} touched files of the repository at run time: {sorted(set(reads))[:20]}"
