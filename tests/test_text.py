"""The prose of the source notebooks quotes the seeds verbatim and states each erratum once.

Quoting convention: a quotation from a seed is written in double quotes, or as inline
code, followed by its source, ``"…" (seed 004)`` or ``` `…` (seed 003)```. Such a quote must appear in
``../shared/seeds/00N_*.txt`` word for word, up to whitespace and the shape of the quotation marks
(curly or straight). A double-quoted span of three or more words without a source must still be
verbatim text of one of the seeds: prose that only names a phrase, or paraphrases, uses italics, not
quotation marks. Credit lines (titles of the sources) are exempt.

Errata: every ``> **Seed erratum.**`` carries an anchor ``<a id="erratum-NN-…"></a>`` (NN: the
notebook's number), the closing list of its notebook links to it instead of repeating it, and every
link to an erratum, in any notebook, resolves.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ASSIGNMENTS, REPO, SOLUTIONS, nbio

SEEDS = REPO.parent / "shared" / "seeds"

_ATTRIBUTED_CODE = re.compile(r"`([^`]+)`\s*\(seed (\d{3})\b")
_QUOTE = re.compile(r'"([^"]+)"(\s*\(seed (\d{3})\b)?')
_ANCHOR = re.compile(r'<a id="(erratum-[a-z0-9-]+)"></a>\*\*Seed erratum\.\*\*')
_LINK = re.compile(r"\]\((?P<file>\d\d_[a-z0-9_]+\.ipynb)?#(?P<anchor>erratum-[a-z0-9-]+)\)")


def normalise(text: str) -> str:
    """Whitespace collapsed, curly quotation marks made straight."""
    text = text.translate(str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"}))
    return " ".join(text.split())


def seed_texts() -> dict[str, str]:
    if not SEEDS.is_dir():
        pytest.skip(f"the seeds are not here: {SEEDS}")
    return {path.name[:3]: normalise(path.read_text(encoding="utf-8")) for path in sorted(SEEDS.glob("0*.txt"))}


def markdown(name: str) -> list[str]:
    nb = nbio.read(SOLUTIONS / f"{name}.ipynb")
    return [cell.source for cell in nb.cells if cell.cell_type == "markdown"]


def prose(source: str) -> str:
    """A markdown cell as running text: blockquote markers, HTML tags and credit paragraphs removed."""
    text = "\n".join(re.sub(r"^\s*>\s?", "", line) for line in source.splitlines())
    text = re.sub(r"<[^>]+>", "", text)
    paragraphs = re.split(r"\n\s*\n", text)
    return "\n\n".join(p for p in paragraphs if not p.lstrip().startswith("**Credit.**"))


def quotes(source: str) -> list[tuple[str, str | None]]:
    """(quoted text, seed number or None) for every quote in a markdown cell."""
    text = prose(source)
    found = [(m.group(1), m.group(2)) for m in _ATTRIBUTED_CODE.finditer(text)]
    without_code = re.sub(r"`[^`]*`", "`code`", text)
    found += [(m.group(1), m.group(3)) for m in _QUOTE.finditer(without_code)]
    return found


def test_the_quote_finder_reads_the_convention():
    cell = ('> The seed says "Step 1 to 7\n> for inputs 1 to 3" (seed 003), writes `k_d=1` (seed 003), and\n'
            'its token is "journey". <a id="x"></a>\n\n**Credit.** After "A Title With Words".')
    assert quotes(cell) == [("k_d=1", "003"), ("Step 1 to 7\nfor inputs 1 to 3", "003"), ("journey", None)]


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_quotes_of_the_seeds_are_verbatim(name):
    seeds = seed_texts()
    wrong = []
    for source in markdown(name):
        for text, seed in quotes(source):
            if seed is not None:
                assert seed in seeds, f"{name}: no seed {seed} in {SEEDS}"
                if normalise(text) not in seeds[seed]:
                    wrong.append(f"not in seed {seed}: {normalise(text)!r}")
            elif len(text.split()) >= 3 and not any(normalise(text) in s for s in seeds.values()):
                wrong.append(f"quoted but in no seed (use italics for a phrase that is not a quote): "
                             f"{normalise(text)!r}")
    assert not wrong, f"{name}:\n" + "\n".join(wrong)


def _anchors(name: str) -> list[str]:
    return [anchor for source in markdown(name) for anchor in _ANCHOR.findall(source)]


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_every_erratum_has_an_anchor_linked_from_the_closing_list(name):
    cells = markdown(name)
    boxes = sum(source.count("**Seed erratum.**") for source in cells)
    anchors = _anchors(name)
    assert len(anchors) == boxes, f"{name}: every `**Seed erratum.**` starts with its anchor <a id=\"erratum-…\">"
    assert all(a.startswith(f"erratum-{name[:2]}-") for a in anchors), anchors
    assert len(set(anchors)) == len(anchors), f"{name}: duplicate anchors {anchors}"
    closing = next((s for s in reversed(cells) if re.match(r"\s*## (\d+\. )?What the seed", s)), None)
    assert closing is not None, f"{name}: no closing list (## What the seed…)"
    assert "**Seed erratum.**" not in closing, f"{name}: the closing list links to the errata, not repeats them"
    linked = {m["anchor"] for m in _LINK.finditer(closing) if m["file"] is None}
    missing = [a for a in anchors if a not in linked]
    assert not missing, f"{name}: the closing list does not link to {missing}"


def test_every_link_to_an_erratum_resolves():
    anchors = {name: set(_anchors(name)) for name in ASSIGNMENTS}
    broken = []
    for name in ASSIGNMENTS:
        for source in markdown(name):
            for m in _LINK.finditer(source):
                target = Path(m["file"]).stem if m["file"] else name
                if m["anchor"] not in anchors.get(target, set()):
                    broken.append(f"{name} -> {m['file'] or ''}#{m['anchor']}")
    assert not broken, broken
