"""The prose of the source notebooks quotes its sources verbatim and gathers their errors in one place.

Words: the documents a notebook rebuilds are its *sources*; "seed" means a random seed only. No
markdown cell names a source by number ("seed 004"), and none says "Seed erratum".

Quoting convention: a quotation from a source is written in double quotes, or as inline code,
followed by an HTML comment that names the source's file, ``"…"<!-- source 004 -->`` (the comment
does not render; the sentence around a quote says, in words, which source it quotes). Such a quote
must appear in ``../shared/seeds/00N_*.txt`` word for word, up to whitespace and the shape of the
quotation marks (curly or straight). A double-quoted span of three or more words without that
comment must still be verbatim text of one of the sources: prose that only names a phrase, or
paraphrases, uses italics, not quotation marks. Credit lines (titles of the sources) are exempt.

Errata: a notebook keeps at most two erratum boxes, ``> <a id="erratum-NN-…"></a>**Erratum: …**``
(NN: the notebook's number), all in its one section "## Where the source goes wrong" ("sources go
wrong" with two sources), and each is linked from the step it concerns, in another cell. Every link
to an erratum, in any notebook, resolves.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ASSIGNMENTS, REPO, SOLUTIONS, nbio

# The sources' text, beside the repository (../shared/seeds), or beside a folder of worktrees above it.
SOURCES = next((folder / "shared" / "seeds" for folder in REPO.parents if (folder / "shared" / "seeds").is_dir()),
               REPO.parent / "shared" / "seeds")
MAX_ERRATA = 2
ERRATA_SECTION = "## Where the source"  # "goes wrong", or "sources go wrong" with two sources

_MARK = r"\s*<!--\s*source (\d{3})\s*-->"
_ATTRIBUTED_CODE = re.compile(r"`([^`]+)`" + _MARK)
_QUOTE = re.compile(r'"([^"]+)"(' + _MARK + ")?")
_ANCHOR = re.compile(r'<a id="(erratum-[a-z0-9-]+)"></a>\*\*Erratum')
_LINK = re.compile(r"\]\((?P<file>\d\d_[a-z0-9_]+\.ipynb)?#(?P<anchor>erratum-[a-z0-9-]+)\)")
# A source named the old way, by its number or as a "seed"; random seeds keep their name.
_SEED_AS_DOCUMENT = re.compile(r"\bseed 0\d\d\b|\bseed erratum|\bseeds?['’]s?\b|\bthe seeds\b", re.I)


def normalise(text: str) -> str:
    """Whitespace collapsed, curly quotation marks made straight."""
    text = text.translate(str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"}))
    return " ".join(text.split())


def source_texts() -> dict[str, str]:
    if not SOURCES.is_dir():
        pytest.skip(f"the sources are not here: {SOURCES}")
    return {path.name[:3]: normalise(path.read_text(encoding="utf-8")) for path in sorted(SOURCES.glob("0*.txt"))}


def markdown(name: str) -> list[str]:
    nb = nbio.read(SOLUTIONS / f"{name}.ipynb")
    return [cell.source for cell in nb.cells if cell.cell_type == "markdown"]


def prose(source: str) -> str:
    """A markdown cell as running text: blockquote markers, HTML tags (not the source comments) and
    credit paragraphs removed."""
    text = "\n".join(re.sub(r"^\s*>\s?", "", line) for line in source.splitlines())
    text = re.sub(r"<(?!!--)[^>]+>", "", text)
    paragraphs = re.split(r"\n\s*\n", text)
    return "\n\n".join(p for p in paragraphs if not p.lstrip().startswith("**Credit.**"))


def quotes(source: str) -> list[tuple[str, str | None]]:
    """(quoted text, source number or None) for every quote in a markdown cell."""
    text = prose(source)
    found = [(m.group(1), m.group(2)) for m in _ATTRIBUTED_CODE.finditer(text)]
    without_code = re.sub(r"`[^`]*`", "`code`", text)
    found += [(m.group(1), m.group(3)) for m in _QUOTE.finditer(without_code)]
    return found


def test_the_quote_finder_reads_the_convention():
    cell = ('> The notebook says "Step 1 to 7\n> for inputs 1 to 3"<!-- source 003 -->, writes `k_d=1` '
            '<!-- source 003 -->, and\nits token is "journey". <a id="x"></a>\n\n**Credit.** After "A Title With Words".')
    assert quotes(cell) == [("k_d=1", "003"), ("Step 1 to 7\nfor inputs 1 to 3", "003"), ("journey", None)]


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_quotes_of_the_sources_are_verbatim(name):
    texts = source_texts()
    wrong = []
    for source in markdown(name):
        for text, number in quotes(source):
            if number is not None:
                assert number in texts, f"{name}: no source {number} in {SOURCES}"
                if normalise(text) not in texts[number]:
                    wrong.append(f"not in source {number}: {normalise(text)!r}")
            elif len(text.split()) >= 3 and not any(normalise(text) in s for s in texts.values()):
                wrong.append(f"quoted but in no source (use italics for a phrase that is not a quote): "
                             f"{normalise(text)!r}")
    assert not wrong, f"{name}:\n" + "\n".join(wrong)


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_learners_read_source_for_the_documents_and_seed_for_random_seeds(name):
    told = [m.group(0) for source in markdown(name) for m in _SEED_AS_DOCUMENT.finditer(prose(source))]
    assert not told, f"{name}: a source called a seed: {told}"


def _anchors(source: str) -> list[str]:
    return _ANCHOR.findall(source)


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_errata_are_few_gathered_in_one_section_and_linked_from_their_step(name):
    cells = markdown(name)
    sections = [s for s in cells if s.lstrip().startswith(ERRATA_SECTION)]
    assert len(sections) == 1, f"{name}: one cell starts with {ERRATA_SECTION!r}"
    boxes = sum(s.count("**Erratum") for s in cells)
    anchors = [a for s in cells for a in _anchors(s)]
    assert 1 <= boxes <= MAX_ERRATA, f"{name}: {boxes} erratum boxes (at most {MAX_ERRATA}, at least one)"
    assert len(anchors) == boxes, f"{name}: every `**Erratum` box starts with its anchor <a id=\"erratum-…\">"
    assert anchors == _anchors(sections[0]), f"{name}: every box is in the section {ERRATA_SECTION!r}"
    assert all(a.startswith(f"erratum-{name[:2]}-") for a in anchors), anchors
    assert len(set(anchors)) == len(anchors), f"{name}: duplicate anchors {anchors}"
    linked = {m["anchor"] for s in cells if s is not sections[0] for m in _LINK.finditer(s) if m["file"] is None}
    unlinked = [a for a in anchors if a not in linked]
    assert not unlinked, f"{name}: no step links to {unlinked}"


def test_every_link_to_an_erratum_resolves():
    anchors = {name: {a for s in markdown(name) for a in _anchors(s)} for name in ASSIGNMENTS}
    broken = []
    for name in ASSIGNMENTS:
        for source in markdown(name):
            for m in _LINK.finditer(source):
                target = Path(m["file"]).stem if m["file"] else name
                if m["anchor"] not in anchors.get(target, set()):
                    broken.append(f"{name} -> {m['file'] or ''}#{m['anchor']}")
    assert not broken, broken
