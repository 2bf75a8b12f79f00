"""Regenerate every generated file from its one source.

- ``notebooks/NN_name.ipynb`` from ``solutions/NN_name.ipynb`` through ``nbgrader generate_assignment``,
  then stamped with the Colab badge (under the title) and the Colab install cell (after the title
  cell), with images embedded (a relative image link does not render in Colab); the source it was
  generated from is recorded in the notebook's metadata (``attention_course``), not in a cell;
- ``environment.yml`` from ``requirements.txt``;
- the table of notebooks in ``README.md``, and its table of versions covered (``requirements.txt``
  against the Colab-like ``[colab]`` packages of ``course.toml``);
- the sample class in ``autograder/samples/submissions/`` (full marks, untouched, partly wrong);
- ``src/attention_course/expected/NN_name.json``: for every input a *visible* check of the notebook
  uses, the expected result and each catalogued mistake's result, computed with the answer key
  (``autograder/key``). This is what lets learners' checks name mistakes with no answer in the
  package: the source notebook runs once with the checks recording their calls.

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

from . import IMAGES, NOTEBOOKS, REPO, SOLUTIONS
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
        for name in assignments():
            code, output = nbgrader(root, "generate_assignment", name, "--force")
            release = root / "release" / name / f"{name}.ipynb"
            if code != 0 or not release.is_file():
                raise RuntimeError(f"nbgrader generate_assignment {name} failed:\n{output}")
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
        f"dependencies:\n  - python={python}\n  - pip\n  - pip:\n{body}\n      - -e .\n"
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


def sample_submissions(learner_texts: dict[str, str]) -> dict[Path, str]:
    """Three students' submissions of notebook 01: full marks, untouched, one exercise wrong."""
    name = SAMPLE_ASSIGNMENT
    learner = nbformat.reads(learner_texts[f"{name}.ipynb"], as_version=4)
    source = nbio.read(SOLUTIONS / f"{name}.ipynb")
    students = {
        "ada": nbio.fill_solutions(learner, source),
        "ben": learner,
        "cleo": nbio.fill_solutions(learner, source, {"softmax_stable": CLEO_SOFTMAX}),
    }
    return {SAMPLES / student / name / f"{name}.ipynb": nbio.dumps(nb) for student, nb in students.items()}


EXPECTED = REPO / "src" / "attention_course" / "expected"  # learner side: visible checks' answers
PLANS = REPO / "autograder" / "key" / "plans"  # grading side: every check call of every test cell
PLAN_LIMIT = 4 << 20  # a bigger plan is not stored: the grader records it itself (once, then cached)


def _generated_files() -> set[Path]:
    """Files of the generated kinds that exist now (those without a source are deleted by the build)."""
    return (set(NOTEBOOKS.glob("*.ipynb")) | set(SAMPLES.rglob("*.ipynb")) | set(EXPECTED.glob("*.json"))
            | set(PLANS.glob("*.json")))


def plan_text(name: str, plan: dict) -> str | None:
    """The stored plan of a source notebook: its check calls (no exercise metadata: the key adds it)."""
    import json

    from attention_course.convert import encode

    from .pipeline import source_digest

    bare = {grade_id: [{k: v for k, v in call.items() if k != "meta"} for call in calls]
            for grade_id, calls in plan.items()}
    text = json.dumps({"generated": f"by `python3 tasks.py build` from solutions/{name}.ipynb: edit that",
                       "source": source_digest(name), "plan": encode(bare)}, sort_keys=True, indent=0)
    return text + "\n" if len(text) <= PLAN_LIMIT else None


def recorded_calls(names: list[str]) -> dict[str, dict]:
    """{assignment: record-run result} of the source notebooks, on one warm zygote."""
    from .pipeline import limits, record_job
    from .workers import Zygote, run_job

    zygote = Zygote()
    try:
        results = {}
        for name in names:
            job = dict(record_job(nbio.read(SOLUTIONS / f"{name}.ipynb"), limits(cell_timeout=120)), isolate=False)
            results[name] = run_job(zygote, job, attempts=1)
        return results
    finally:
        zygote.close()


def expected_data(names: list[str]) -> dict[Path, str]:
    """The visible checks' answers, one JSON file per notebook (see the module doc)."""
    import json

    from attention_course.convert import encode

    from .key import analyse, meta
    from .pipeline import plan_from_records

    files = {}
    for name, result in recorded_calls(names).items():
        plan = plan_from_records(nbio.read(SOLUTIONS / f"{name}.ipynb"), result)
        exercises: dict[str, dict] = {}
        for calls in plan.values():
            for call in calls:
                if call["hidden"]:
                    continue
                entry = exercises.setdefault(call["exercise"], {"meta": meta(call["exercise"]), "probes": []})
                for probe in call["probes"]:
                    analysis = analyse(call["exercise"], probe)
                    analysis["mutants"]  # computed now: learners need them to name mistakes
                    entry["probes"].append({"probe": probe, "analysis": dict(analysis)})
        text = json.dumps({"generated": f"by `python3 tasks.py build` from solutions/{name}.ipynb and "
                           "autograder/key: edit those", "exercises": encode(exercises)},
                          sort_keys=True, indent=0, allow_nan=True)
        files[EXPECTED / f"{name}.json"] = text + "\n"
        stored = plan_text(name, plan)
        if stored is not None:
            files[PLANS / f"{name}.json"] = stored
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


def stale(files: dict[Path, str]) -> list[str]:
    problems = [str(path.relative_to(REPO)) for path, text in files.items()
                if not path.is_file() or path.read_text(encoding="utf-8") != text]
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
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    print(f"built {len(files)} files; {len(problems)} changed: {', '.join(problems) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
