"""Regenerate every generated file from its one source.

- ``notebooks/NN_name.ipynb`` from ``solutions/NN_name.ipynb`` through ``nbgrader generate_assignment``,
  then stamped with the Colab badge (under the title) and the Colab install cell (after the title
  cell), with images embedded (a relative image link does not render in Colab); the source it was
  generated from is recorded in the notebook's metadata (``attention_course``), not in a cell;
- ``environment.yml`` from ``requirements.txt``;
- the table of notebooks in ``README.md``, and its table of versions covered (``requirements.txt``
  against the Colab-like ``[colab]`` packages of ``course.toml``);
- the sample class in ``autograder/samples/submissions/`` (full marks, untouched, partly wrong);
- ``src/attention_course/expected/NN_name.zip`` (one compressed member per exercise; and
  ``exercises.json``, which notebook holds which exercise): for every input a *visible* check of the notebook uses, the expected result and each
  catalogued mistake's result, computed with the answer key (``autograder/key``). This is what lets
  learners' checks name mistakes with no answer in the package: the source notebook runs once with
  the checks recording their calls.

``python -m autograder.build`` writes them; ``python -m autograder.build --check`` only compares and
exits 1 listing what is stale (the tests run the same comparison).
"""

from __future__ import annotations

import argparse
import base64
import re
import sys
import tempfile
from pathlib import Path

import nbformat
import numpy as np

from . import IMAGES, NOTEBOOKS, REPO, SOLUTIONS, plans
from . import notebooks as nbio
from .course import assignments, make_course, nbgrader, settings

GENERATED_TAG = "generated-header"
_IMAGE_LINK = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?:\.\./)?images/(?P<file>[^)\s]+)\)")


def badge(name: str) -> str:
    publish = settings()["publish"]
    url = (f"https://colab.research.google.com/github/{publish['repository']}/blob/"
           f"{publish['ref']}/notebooks/{name}.ipynb")
    return f"[![Open In Colab](https://colab.research.google.com/assets/colab-badge.svg)]({url})"


def install_spec() -> str:
    publish = settings()["publish"]
    return f"attention-course @ git+https://github.com/{publish['repository']}@{publish['ref']}"


def colab_extras(name: str) -> list[str]:
    """``name==version`` of what notebook ``name`` needs beyond Colab's packages (course.toml's
    ``[colab.install]``), at the versions of requirements.txt."""
    pins = _pins((REPO / "requirements.txt").read_text(encoding="utf-8").splitlines())
    extras = settings()["colab"].get("install", {}).get(name, [])
    missing = [package for package in extras if package.lower().replace("_", "-") not in pins]
    if missing:
        raise ValueError(f"course.toml [colab.install] {name}: {missing} not pinned in requirements.txt")
    return [f"{package}=={pins[package.lower().replace('_', '-')]}" for package in extras]


# Where a learner copy comes from, for maintainers: kept in the notebook's metadata, never in a cell
# (a learner must edit the copy they are given).
GENERATED_FROM = "attention_course"


def install_cell(name: str):
    """The Colab install cell, second in every learner copy (after the title)."""
    extras = colab_extras(name)
    lines = [
        "# Run this cell first. In Google Colab it installs the course's small helper package (about a",
        "# minute); on your own computer it does nothing.",
        "import os, subprocess, sys  # noqa: E401",
        "",
        f'_SPEC = os.environ.get("ATTENTION_COURSE_INSTALL") or ("{install_spec()}"',
        '                                                      if "google.colab" in sys.modules else "")',
        "if _SPEC:",
        '    subprocess.run([sys.executable, "-m", "pip", "install", "-q", _SPEC], check=True)',
    ]
    if extras:
        packages = ", ".join(f'"{extra}"' for extra in extras)
        lines += ["    # and what this notebook needs that Colab lacks (what that needs, Colab has)",
                  '    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-warn-conflicts",',
                  f"                    {packages}], check=True)"]
    cell = nbformat.v4.new_code_cell("\n".join(lines))
    cell.metadata["tags"] = [GENERATED_TAG]
    cell.id = f"{GENERATED_TAG}-install"
    return cell


def with_badge(title, name: str) -> None:
    """The "Open in Colab" badge right under the notebook's title (the first line of its first cell)."""
    first, _, rest = title.source.partition("\n")
    title.source = f"{first}\n\n{badge(name)}\n{rest}"


def embed_images(cell) -> None:
    """Turn ``![alt](../images/x.png)`` into a cell attachment, which renders everywhere."""
    if cell.cell_type != "markdown":
        return

    def attach(match: re.Match) -> str:
        path = IMAGES / match["file"]
        if not path.is_file():
            raise FileNotFoundError(f"{path} is linked from a notebook but does not exist")
        mime = "image/svg+xml" if path.suffix == ".svg" else f"image/{path.suffix.lstrip('.')}"
        cell.setdefault("attachments", {})[path.name] = {
            mime: base64.b64encode(path.read_bytes()).decode("ascii")
        }
        return f"![{match['alt']}](attachment:{path.name})"

    cell.source = _IMAGE_LINK.sub(attach, cell.source)


def learner_copy(release: nbformat.NotebookNode, name: str) -> nbformat.NotebookNode:
    """The title first (with the Colab badge), then the install cell, then the rest of the release."""
    title, *rest = release.cells
    if title.cell_type != "markdown" or not title.source.startswith("# "):
        raise ValueError(f"{name}: the first cell of a source notebook is its title")
    with_badge(title, name)
    release.cells = [title, install_cell(name), *rest]
    nbio.clean(release)
    release.metadata[GENERATED_FROM] = {
        "generated_from": f"solutions/{name}.ipynb",
        "note": "generated by `python3 tasks.py build`; maintainers edit the source notebook",
    }
    for cell in release.cells:
        embed_images(cell)
    return release


def generate_notebooks(out_dir: Path) -> dict[str, str]:
    """Generate the learner copies into ``out_dir``; return {file name: canonical text}."""
    texts = {}
    with tempfile.TemporaryDirectory(prefix="attention-build-") as tmp:
        root = make_course(Path(tmp) / "course")
        # one nbgrader process for every assignment: its start-up costs more than a notebook
        code, output = nbgrader(root, "generate_assignment", "*", "--force")
        for name in assignments():
            release = root / "release" / name / f"{name}.ipynb"
            if code != 0 or not release.is_file():
                raise RuntimeError(f"nbgrader generate_assignment failed for {name}:\n{output[-3000:]}")
            nb = learner_copy(nbio.read(release), name)
            nbformat.validate(nb)
            texts[f"{name}.ipynb"] = nbio.dumps(nb)
    return texts


def environment_yml() -> str:
    pins = [line.split("#")[0].strip() for line in (REPO / "requirements.txt").read_text().splitlines()]
    pins = [pin for pin in pins if pin]
    python = settings().get("python", {}).get("version", "3.11")
    body = "\n".join(f"      - {pin}" for pin in pins)
    return (
        "# Generated from requirements.txt by `python3 tasks.py build`: edit that file, not this one.\n"
        "name: attention-from-scratch\n"
        "channels:\n  - conda-forge\n"
        f"dependencies:\n  - python={python}\n  - pip\n  - pip:\n{body}\n      - -e .\n      - -e ./autograder\n"
    )


def readme_table() -> str:
    rows = ["| # | Notebook | Open in Colab |", "|---|---|---|"]
    for name in assignments():
        nb = nbio.read(SOLUTIONS / f"{name}.ipynb")
        title = next((c.source.splitlines()[0].lstrip("# ").strip() for c in nb.cells
                      if c.cell_type == "markdown" and c.source.startswith("# ")), name)
        number, _, _ = name.partition("_")
        rows.append(f"| {number} | [{title}](notebooks/{name}.ipynb) | {badge(name)} |")
    return "\n".join(rows)


_TABLE = re.compile(r"(<!-- notebooks:start -->\n).*?(<!-- notebooks:end -->)", re.S)


def _pins(lines: list[str]) -> dict[str, str]:
    """{normalised name: version} of ``name==version`` lines (comments and blanks skipped)."""
    pins = {}
    for line in lines:
        line = line.split("#")[0].strip()
        if "==" in line:
            name, version = line.split("==", 1)
            pins[name.strip().lower().replace("_", "-")] = version.strip()
    return pins


def versions_table() -> str:
    """README's versions covered: the local pins against the Colab-like ones of ``course.toml``."""
    local = _pins((REPO / "requirements.txt").read_text(encoding="utf-8").splitlines())
    colab_settings = settings()["colab"]
    colab = _pins(colab_settings["packages"])
    python = settings().get("python", {}).get("version", "3.11")
    rows = ["| Package | Local: `requirements.txt` (`python3 tasks.py test`) "
            "| Colab-like: `course.toml` (`tests/test_colab.py`) |",
            "|---|---|---|",
            f"| Python | {python} or newer | {colab_settings['python']} (the test runs .venv's Python) |"]
    for name, version in colab.items():
        rows.append(f"| {name} | {local.get(name, '(not pinned)')} | {version} |")
    return "\n".join(rows)


_VERSIONS = re.compile(r"(<!-- versions:start -->\n).*?(<!-- versions:end -->)", re.S)


SAMPLES = REPO / "autograder" / "samples" / "submissions"
SAMPLE_ASSIGNMENT = "01_attention_without_weights"
# cleo's softmax sums down the columns: right for one vector of scores, wrong for a matrix.
CLEO_SOFTMAX = '''def softmax_stable(scores: torch.Tensor) -> torch.Tensor:
    """Softmax along the last dimension that cannot overflow."""
    exps = torch.exp(scores - scores.max())
    return exps / exps.sum(dim=0, keepdim=True)
'''


# cleo's written answer, as a learner writes it: (a) right and reasoned, (b) names what decides the
# weights but no capability of trained projections (1 point of 2 by the rubric).
CLEO_WRITTEN = r"""(a) No. A token's score with itself is only its squared length $\lVert x^{(i)} \rVert^2$, and a longer
vector that points roughly the same way gets a bigger dot product, so "journey", the longest vector,
takes the largest weight in most rows. Only 2 of the 6 rows put their largest weight on the token itself.

(b) Only the dot products $x^{(i)} \cdot x^{(j)}$ of the fixed embeddings decide the weights, so nothing is learned.
"""


def _written_answers(source) -> list[str]:
    return [cell.metadata["nbgrader"]["grade_id"] for cell in source.cells if cell.cell_type == "markdown"
            and cell.metadata.get("nbgrader", {}).get("solution") and cell.metadata["nbgrader"].get("grade")]


def _without_rubric(source, grade_id: str) -> str:
    """A written answer's model answer, without the rubric that follows it in the source notebook."""
    text = next(cell.source for cell in source.cells if cell.metadata.get("nbgrader", {}).get("grade_id") == grade_id)
    return text.split("**Rubric")[0].rstrip() + "\n"


def sample_submissions(learner_texts: dict[str, str]) -> dict[Path, str]:
    """Three students' submissions of notebook 01: full marks with the model's written answer, untouched,
    and one exercise wrong with a written answer of their own (graded by hand in the formgrader)."""
    name = SAMPLE_ASSIGNMENT
    learner = nbformat.reads(learner_texts[f"{name}.ipynb"], as_version=4)
    source = nbio.read(SOLUTIONS / f"{name}.ipynb")
    written = _written_answers(source)
    students = {
        "ada": nbio.fill_solutions(learner, source, {w: _without_rubric(source, w) for w in written}),
        "ben": learner,
        "cleo": nbio.fill_solutions(learner, source, {"softmax_stable": CLEO_SOFTMAX, written[0]: CLEO_WRITTEN}),
    }
    return {SAMPLES / student / name / f"{name}.ipynb": nbio.dumps(nb) for student, nb in students.items()}


EXPECTED = REPO / "src" / "attention_course" / "expected"  # learner side: visible checks' answers
PLANS = plans.STORED  # grading side: every check call of every test cell


def _generated_files() -> set[Path]:
    """Files of the generated kinds that exist now (those without a source are deleted by the build)."""
    return (set(NOTEBOOKS.glob("*.ipynb")) | set(SAMPLES.rglob("*.ipynb")) | set(EXPECTED.glob("*"))
            | set(PLANS.glob("*.json")))


def recorded_plans(names: list[str]) -> dict[str, dict]:
    """{assignment: plan} of the source notebooks, learnt on one warm zygote."""
    from .records import Limits
    from .run import run_job
    from .sandbox.zygote import Zygote

    zygote = Zygote()
    try:
        learnt = {}
        for name in names:
            source = nbio.read(SOLUTIONS / f"{name}.ipynb")
            result = run_job(plans.record_job(source, Limits(cell_timeout=120)), zygote, attempts=1)
            learnt[name] = plans.from_records(source, result)
            plans.validate(source, learnt[name])
        return learnt
    finally:
        zygote.close()


def _stored_analysis(probe: dict, analysis: dict) -> dict:
    """What the learner package keeps of an analysis. A mistake's result judged at float32 (every
    float input float32) is kept in float32: the judge compares it at float32's tolerance, so the
    float64 digits beyond it never decide, and they are half of the package's size."""
    from attention_course.verdict import task_dtype

    rows = analysis["mutants"]
    if task_dtype(probe) == np.float32:
        rows = [dict(row, value=row["value"].astype(np.float32))
                if row.get("value") is not None and row["value"].dtype == np.float64 else row for row in rows]
    rows = [_sampled(row, analysis["expected"]) for row in rows]
    return {**analysis, "mutants": rows}


_SAMPLED_ENTRIES = 16  # entries kept of a generated mistake's result


def _sampled(row: dict, expected) -> dict:
    """A generated mistake's row (``attention_course.verdict.slips.GENERATED``) keeps, of its
    result, only the entries that differ most from the expected result: there are hundreds of
    them, and their full arrays would not fit the learner's package. The verdict matches a
    learner's result on those entries (``naming.matches``); catalogued mistakes keep theirs whole."""
    from attention_course.verdict.slips import GENERATED

    value = row.get("value")
    if not row["mistake"].startswith(GENERATED) or value is None or value.size <= _SAMPLED_ENTRIES \
            or expected is None or np.shape(expected) != value.shape:
        return row
    with np.errstate(invalid="ignore"):
        difference = np.abs(value.astype(np.float64).reshape(-1) - np.asarray(expected, np.float64).reshape(-1))
    difference = np.where(np.isnan(difference), np.inf, difference)
    at = np.sort(np.argsort(-difference, kind="stable")[:_SAMPLED_ENTRIES]).astype(np.int32)
    return {**row, "value": None, "at": at, "sample": value.reshape(-1)[at], "shape": list(value.shape)}


def _archive(members: dict[str, bytes]) -> bytes:
    """A zip of already compressed members, stored as they are, with fixed dates (the same bytes each
    build)."""
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, data in members.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data)
    return buffer.getvalue()


def expected_data(names: list[str]) -> dict[Path, str | bytes]:
    """The visible checks' answers, one compressed file per notebook and an index (see the module doc)."""
    import json
    import lzma

    from attention_course.convert import pack

    from .key import analyse, meta

    files: dict[Path, str | bytes] = {}
    index: dict[str, str] = {}
    for name, plan in recorded_plans(names).items():
        exercises: dict[str, dict] = {}
        for calls in plan.values():
            for call in calls:
                if call["hidden"]:
                    continue
                index[call["exercise"]] = name
                entry = exercises.setdefault(call["exercise"], {"meta": meta(call["exercise"]), "probes": []})
                for probe in call["probes"]:
                    analysis = analyse(call["exercise"], probe)
                    analysis["mutants"]  # computed now: learners need them to name mistakes
                    entry["probes"].append({"probe": probe, "analysis": _stored_analysis(probe, dict(analysis))})
        files[EXPECTED / f"{name}.zip"] = _archive({f"{exercise}.xz": lzma.compress(pack(entry), preset=9 | lzma.PRESET_EXTREME)
                                                    for exercise, entry in sorted(exercises.items())})
        stored = plans.stored_text(name, plan)
        if stored is not None:
            files[PLANS / f"{name}.json"] = stored
    files[EXPECTED / "exercises.json"] = json.dumps(dict(sorted(index.items())), indent=1) + "\n"
    return files


def expected_files() -> dict[Path, str]:
    """Every generated file with the text it should have."""
    with tempfile.TemporaryDirectory() as tmp:
        texts = generate_notebooks(Path(tmp))
    files = {NOTEBOOKS / name: text for name, text in texts.items()}
    files.update(expected_data(assignments()))
    files.update(sample_submissions(texts))
    files[REPO / "environment.yml"] = environment_yml()
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    readme = _TABLE.sub(lambda m: m[1] + readme_table() + "\n" + m[2], readme)
    files[REPO / "README.md"] = _VERSIONS.sub(lambda m: m[1] + versions_table() + "\n" + m[2], readme)
    return files


def _numbers_close(stored, built) -> bool:
    """Equal structures whose arrays are equal to within float32's rounding.

    The recorded inputs come from the source notebooks' own computations (PyTorch, TensorFlow), whose
    last bit depends on the processor's vector instructions: a build on another machine may differ
    there, and that is not a change of the course."""
    if isinstance(stored, np.ndarray) and isinstance(built, np.ndarray):
        if stored.dtype != built.dtype or stored.shape != built.shape:
            return False
        if stored.dtype.kind != "f":
            return bool(np.array_equal(stored, built))
        return bool(np.allclose(stored, built, rtol=1e-5, atol=1e-8, equal_nan=True))
    if isinstance(stored, dict) and isinstance(built, dict):
        if "__array__" in stored and "__array__" in built:
            from attention_course.convert import decode

            return _numbers_close(decode(stored), decode(built))
        return stored.keys() == built.keys() and all(_numbers_close(stored[k], built[k]) for k in stored)
    if isinstance(stored, list) and isinstance(built, list):
        return len(stored) == len(built) and all(_numbers_close(a, b) for a, b in zip(stored, built, strict=True))
    return type(stored) is type(built) and stored == built


def _data(path: Path, content: str | bytes):
    """Generated data decoded for comparison: a plan's JSON, a notebook's packed answers."""
    import json
    import lzma

    from attention_course.convert import unpack

    if path.suffix == ".zip":
        import io
        import zipfile

        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            return {name: unpack(lzma.decompress(archive.read(name))) for name in archive.namelist()}
    return json.loads(content)


def up_to_date(path: Path, content: str | bytes) -> bool:
    """Whether ``path`` holds ``content`` (generated data: the same numbers, to within rounding)."""
    if not path.is_file():
        return False
    current = path.read_bytes() if isinstance(content, bytes) else path.read_text(encoding="utf-8")
    if current == content:
        return True
    if path.parent in (EXPECTED, PLANS) and path.suffix in (".json", ".zip"):
        return _numbers_close(_data(path, current), _data(path, content))
    return False


def stale(files: dict[Path, str]) -> list[str]:
    problems = [str(path.relative_to(REPO)) for path, text in files.items() if not up_to_date(path, text)]
    extra = _generated_files() - set(files)
    return problems + [f"{p.relative_to(REPO)} (no source in solutions/)" for p in sorted(extra)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only report stale files; exit 1 if any")
    args = parser.parse_args(argv)
    files = expected_files()
    problems = stale(files)
    if args.check:
        for problem in problems:
            print(f"stale: {problem} (run `python3 tasks.py build`)")
        return 1 if problems else 0
    for extra in _generated_files() - set(files):
        extra.unlink()
    for path, content in files.items():
        if not up_to_date(path, content):
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
    print(f"built {len(files)} files; {len(problems)} changed: {', '.join(problems) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
