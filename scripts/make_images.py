"""Regenerate the course's teaching diagrams in images/ with Matplotlib alone.

Run from the repository root:

    .venv/bin/python scripts/make_images.py          # rewrite images/*.png
    .venv/bin/python scripts/make_images.py --check  # exit 1 if images/ is out of date

Three diagrams are drawn with patches, arrows and text (no network, no other library):

* images/qkv_flow.png: inputs @ W_Q, W_K, W_V give queries, keys and values, with shapes.
* images/scores_weights_context.png: Q @ K^T -> scores -> / sqrt(d_k) -> softmax over each
  row -> weights -> weights @ V -> context, as small matrices with their shapes.
* images/multi_head.png: d_model split into h heads of d_head, attention in each head,
  concatenation (8 x 64 = 512), then W_O.

The output is deterministic: fixed size and dpi, Matplotlib's default style whatever the local
matplotlibrc says, and no "Software" or date metadata in the PNG, so the same Matplotlib and
FreeType give the same bytes on every run. --check regenerates into a temporary folder and
compares byte for byte with the committed files; a different Matplotlib version may rasterise
text slightly differently, in which case rerun the script and commit the new images.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.style  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Rectangle  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "images"
DPI = 100  # one data unit = one pixel: every layout below is written in pixels

# Okabe-Ito colours (distinguishable with colour-blindness), one per role.
INK = "#222222"
GREY = "#8a9bb0"
QUERY = "#E69F00"
KEY = "#009E73"
VALUE = "#CC79A7"
SCORE = "#0072B2"
HIGHLIGHT = "#D55E00"
HEADS = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999"]

MONO = "DejaVu Sans Mono"
TOKENS = ["the", "cat", "sat", "down"]


# --------------------------------------------------------------------------- drawing helpers


def tint(colour: str, amount: float) -> tuple[float, float, float]:
    """Mix `colour` with white: amount 0 gives white, 1 the colour itself."""
    r, g, b = to_rgb(colour)
    return (1 - amount * (1 - r), 1 - amount * (1 - g), 1 - amount * (1 - b))


def new_canvas(width: int, height: int):
    """A figure `width` x `height` pixels with one axes whose data units are pixels, y down."""
    fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, facecolor="white")
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.set_axis_off()
    return fig, ax


def text(ax, x, y, s, size=11, ha="center", va="center", colour=INK, **kwargs):
    return ax.text(x, y, s, fontsize=size, ha=ha, va=va, color=colour, **kwargs)


def arrow(ax, start, end, colour=INK, width=1.6, style="-|>", scale=16, **kwargs):
    patch = FancyArrowPatch(start, end, arrowstyle=style, mutation_scale=scale, linewidth=width,
                            color=colour, shrinkA=0, shrinkB=0, **kwargs)
    ax.add_patch(patch)
    return patch


def grid(ax, x, y, rows, cols, cell, colour, values: Sequence[Sequence[float]] | None = None,
         fmt="{:.2f}", size=9, shade: Callable[[int, int], float] | None = None):
    """Draw a rows x cols matrix with its top-left corner at (x, y); returns its bounding box.

    Cells are shaded with `colour`: by `shade(i, j)` in [0, 1] when given, else by a fixed
    pattern so that the matrix looks like numbers without showing any.
    """
    for i in range(rows):
        for j in range(cols):
            if shade is not None:
                amount = 0.12 + 0.6 * shade(i, j)
            else:
                amount = 0.25 + 0.08 * ((3 * i + 5 * j + i * j) % 5)
            ax.add_patch(Rectangle((x + j * cell, y + i * cell), cell, cell,
                                   facecolor=tint(colour, amount), edgecolor="white",
                                   linewidth=1.2))
            if values is not None:
                text(ax, x + (j + 0.5) * cell, y + (i + 0.5) * cell, fmt.format(values[i][j]),
                     size=size, family=MONO)
    ax.add_patch(Rectangle((x, y), cols * cell, rows * cell, facecolor="none",
                           edgecolor=tint(colour, 1.0), linewidth=1.6))
    return x, y, x + cols * cell, y + rows * cell


def name_and_shape(ax, box, name, shape, colour=INK, gap=8, name_size=12, shape_size=10):
    """The matrix's name above it and its shape (monospace) below it."""
    x0, y0, x1, y1 = box
    cx = (x0 + x1) / 2
    text(ax, cx, y0 - gap, name, size=name_size, va="bottom", colour=colour, weight="bold")
    text(ax, cx, y1 + gap, shape, size=shape_size, va="top", family=MONO, linespacing=1.4)


def outline_row(ax, box, row, cell, colour=HIGHLIGHT):
    x0, y0, x1, _ = box
    ax.add_patch(Rectangle((x0 - 2, y0 + row * cell - 2), x1 - x0 + 4, cell + 4,
                           facecolor="none", edgecolor=colour, linewidth=2.4))


def save(fig, path: Path) -> None:
    # No "Software" key (it carries the Matplotlib version) and Agg writes no date: same bytes.
    fig.savefig(path, dpi=DPI, format="png", metadata={"Software": None},
                pil_kwargs={"optimize": True})


# --------------------------------------------------------------------------- 1. Q/K/V flow


def draw_qkv_flow(path: Path) -> None:
    width, height = 1060, 840
    fig, ax = new_canvas(width, height)
    text(ax, width / 2, 34, "Queries, keys and values: three learned projections of the same inputs",
         size=15, weight="bold")
    text(ax, width / 2, 62, "tokens = 4,  d_model = 6,  d_k = 3", size=11, family=MONO,
         colour="#555555")

    cell = 26
    tokens, d_model, d_k = 4, 6, 3
    centres = [200, 440, 680]

    # The inputs, once, on the left.
    xin = 110
    yin = centres[1] - tokens * cell / 2
    box = grid(ax, xin, yin, tokens, d_model, cell, GREY)
    name_and_shape(ax, box, "inputs X", "(tokens, d_model)\n= (4, 6)")
    for i, token in enumerate(TOKENS):
        text(ax, xin - 8, yin + (i + 0.5) * cell, token, size=10, ha="right", style="italic",
             colour="#555555")
    text(ax, (box[0] + box[2]) / 2, box[3] + 62, "one row per token", size=9.5,
         colour="#555555", style="italic")

    rows = [
        ("W_Q", "queries Q", QUERY, "what each token\nis looking for"),
        ("W_K", "keys K", KEY, "what each token\noffers to be found by"),
        ("W_V", "values V", VALUE, "what each token\npasses on when attended to"),
    ]
    x_w, x_out = 480, 650
    for centre, (weight, output, colour, hint) in zip(centres, rows, strict=True):
        # fan out from the inputs: top, middle and bottom of their right edge
        fan = (centre - centres[1]) / (centres[2] - centres[1])
        arrow(ax, (box[2] + 12, (box[1] + box[3]) / 2 + fan * cell), (x_w - 46, centre),
              colour=colour)
        text(ax, x_w - 24, centre, "@", size=17, weight="bold")
        wbox = grid(ax, x_w, centre - d_model * cell / 2, d_model, d_k, cell, colour)
        text(ax, (wbox[0] + wbox[2]) / 2, wbox[1] - 8, f"${weight[0]}_{weight[2]}$", size=15,
             va="bottom", colour=colour)
        text(ax, (wbox[0] + wbox[2]) / 2, wbox[3] + 8, "(d_model, d_k) = (6, 3)", size=10,
             va="top", family=MONO)
        text(ax, (wbox[2] + x_out) / 2, centre, "=", size=19, weight="bold")
        obox = grid(ax, x_out, centre - tokens * cell / 2, tokens, d_k, cell,
                    colour, shade=lambda i, j: 0.25 + 0.15 * ((2 * i + 3 * j) % 4))
        tx = obox[2] + 22
        text(ax, tx, centre - 34, output, size=13, ha="left", colour=colour, weight="bold")
        text(ax, tx, centre - 12, "(tokens, d_k) = (4, 3)", size=10, ha="left", family=MONO)
        text(ax, tx, centre + 10, hint, size=10, ha="left", va="top", style="italic",
             colour="#555555", linespacing=1.3)

    text(ax, width / 2, height - 22,
         "The same inputs X go through three different learned matrices; "
         "every row of Q, K and V still belongs to one token.",
         size=10.5, colour="#555555")
    save(fig, path)


# --------------------------------------------------------------------------- 2. scores to context


def _example():
    """Small fixed Q, K, V (4 tokens, d_k = 3) and everything computed from them."""
    q = [[1.0, 0.5, -0.5], [0.0, 1.5, 0.5], [-1.0, 0.5, 1.0], [0.5, -0.5, 1.5]]
    k = [[0.5, 1.0, 0.0], [1.0, 0.0, 0.5], [0.0, 1.5, -0.5], [-0.5, 0.5, 1.0]]
    d_k = len(q[0])
    scores = [[sum(a * b for a, b in zip(qi, kj, strict=True)) for kj in k] for qi in q]
    scaled = [[s / math.sqrt(d_k) for s in row] for row in scores]
    weights = []
    for row in scaled:
        top = max(row)
        exps = [math.exp(s - top) for s in row]
        weights.append([e / sum(exps) for e in exps])
    return scores, scaled, weights


def draw_scores_weights_context(path: Path) -> None:
    width, height = 1240, 830
    fig, ax = new_canvas(width, height)
    text(ax, width / 2, 34, "From scores to weights to context (one sequence, one head)",
         size=15, weight="bold")
    text(ax, width / 2, 62, "tokens = 4,  d_k = 3", size=11, family=MONO, colour="#555555")

    scores, scaled, weights = _example()
    cell = 46
    row = 1  # the token whose row is outlined all the way through ("cat")

    def lo_hi(m):
        flat = [v for r in m for v in r]
        return min(flat), max(flat)

    def shade_of(m):
        lo, hi = lo_hi(m)
        return lambda i, j: (m[i][j] - lo) / (hi - lo)

    # Row 1: Q @ K^T = scores --/ sqrt(d_k)--> scaled scores
    y1 = 250  # centre line
    qbox = grid(ax, 70, y1 - 2 * cell, 4, 3, cell, QUERY)
    name_and_shape(ax, qbox, "queries Q", "(tokens, d_k)\n= (4, 3)", colour=QUERY)
    text(ax, qbox[2] + 24, y1, "@", size=18, weight="bold")
    kbox = grid(ax, qbox[2] + 48, y1 - 1.5 * cell, 3, 4, cell, KEY)
    name_and_shape(ax, kbox, "keys, transposed  $K^T$", "(d_k, tokens)\n= (3, 4)", colour=KEY)
    text(ax, kbox[2] + 24, y1, "=", size=20, weight="bold")
    sbox = grid(ax, kbox[2] + 48, y1 - 2 * cell, 4, 4, cell, SCORE, values=scores,
                shade=shade_of(scores))
    name_and_shape(ax, sbox, "scores", "(tokens, tokens)\n= (4, 4)", colour=SCORE)
    ax_from, ax_to = sbox[2] + 16, sbox[2] + 176
    arrow(ax, (ax_from, y1), (ax_to, y1))
    text(ax, (ax_from + ax_to) / 2, y1 - 12, r"$\div\ \sqrt{d_k}$", size=17, va="bottom")
    text(ax, (ax_from + ax_to) / 2, y1 + 12, "keeps scores from\ngrowing with d_k", size=9.5,
         va="top", style="italic", colour="#555555", linespacing=1.3)
    cbox = grid(ax, ax_to + 16, y1 - 2 * cell, 4, 4, cell, SCORE, values=scaled,
                shade=shade_of(scaled))
    name_and_shape(ax, cbox, "scaled scores", "(tokens, tokens)\n= (4, 4)", colour=SCORE)
    for box in (sbox, cbox):
        outline_row(ax, box, row, cell)
    text(ax, cbox[2] + 18, cbox[1] + (row + 0.5) * cell, "row of\n\u201ccat\u201d", size=10,
         ha="left", colour=HIGHLIGHT, linespacing=1.2)

    # The wrap-around arrow: softmax over each row.
    y2 = 635  # centre line of the second row
    channel = 440
    wx = 120
    start = ((cbox[0] + cbox[2]) / 2, cbox[3] + 50)
    ax.plot([start[0], start[0], wx + 2 * cell], [start[1], channel, channel], color=INK,
            linewidth=1.6, solid_capstyle="butt", solid_joinstyle="miter")
    arrow(ax, (wx + 2 * cell, channel), (wx + 2 * cell, y2 - 2 * cell - 52))
    text(ax, (wx + 2 * cell + start[0]) / 2, channel - 8,
         "softmax over each row (along the keys)", size=13, va="bottom", weight="bold")
    text(ax, (wx + 2 * cell + start[0]) / 2, channel + 8,
         "every row becomes positive numbers that sum to 1", size=10, va="top",
         style="italic", colour="#555555")

    # Row 2: weights @ V = context
    wbox = grid(ax, wx, y2 - 2 * cell, 4, 4, cell, SCORE, values=weights,
                shade=lambda i, j: weights[i][j])
    name_and_shape(ax, wbox, "", "(tokens, tokens)\n= (4, 4)")
    text(ax, (wbox[0] + wbox[2]) / 2, wbox[1] - 26, "weights", size=12, va="bottom",
         colour=SCORE, weight="bold")
    for i, token in enumerate(TOKENS):
        text(ax, wbox[0] - 8, wbox[1] + (i + 0.5) * cell, token, size=9.5, ha="right",
             style="italic", colour="#555555")
        text(ax, wbox[0] + (i + 0.5) * cell, wbox[1] - 6, token, size=9.5, va="bottom",
             style="italic", colour="#555555")
    outline_row(ax, wbox, row, cell)
    text(ax, wbox[2] + 24, y2, "@", size=18, weight="bold")
    vbox = grid(ax, wbox[2] + 48, y2 - 2 * cell, 4, 3, cell, VALUE)
    name_and_shape(ax, vbox, "values V", "(tokens, d_k)\n= (4, 3)", colour=VALUE)
    text(ax, vbox[2] + 24, y2, "=", size=20, weight="bold")
    xbox = grid(ax, vbox[2] + 48, y2 - 2 * cell, 4, 3, cell, INK,
                shade=lambda i, j: 0.15 + 0.12 * ((i + 2 * j) % 3))
    name_and_shape(ax, xbox, "context", "(tokens, d_k)\n= (4, 3)")
    outline_row(ax, xbox, row, cell)

    tx = xbox[2] + 40
    text(ax, tx, y2 - 70, "Each row of context is a weighted average\nof the rows of V.", size=11.5,
         ha="left", va="top", linespacing=1.4)
    text(ax, tx, y2 + 0, "The outlined row: how much \u201ccat\u201d attends\n"
         "to each token, and what it gets back.", size=11.5, ha="left", va="top",
         colour=HIGHLIGHT, linespacing=1.4)

    text(ax, width / 2, height - 22,
         r"context = softmax(Q @ K$^T$ / $\sqrt{d_k}$) @ V", size=13, family=MONO)
    save(fig, path)


# --------------------------------------------------------------------------- 3. multi-head


def draw_multi_head(path: Path) -> None:
    width, height = 1300, 770
    fig, ax = new_canvas(width, height)
    text(ax, width / 2, 34, "Multi-head attention: split, attend, concatenate, $W_O$", size=15,
         weight="bold")
    text(ax, width / 2, 62, "d_model = 512,  h = 8 heads,  d_head = d_model / h = 64  (= d_k in "
         "each head)", size=11, family=MONO, colour="#555555")

    n_heads = 8
    x0, x1 = 250, 1260
    seg = (x1 - x0) / n_heads
    label_x = 20

    def left_label(y, name, shape, colour=INK):
        text(ax, label_x, y - 9, name, size=12, ha="left", weight="bold", colour=colour)
        text(ax, label_x, y + 10, shape, size=9.5, ha="left", family=MONO)

    # inputs
    yi, hi = 96, 30
    ax.add_patch(Rectangle((x0, yi), x1 - x0, hi, facecolor=tint(GREY, 0.45),
                           edgecolor=GREY, linewidth=1.6))
    text(ax, (x0 + x1) / 2, yi + hi / 2, "512 columns", size=10, family=MONO)
    left_label(yi + hi / 2, "inputs X", "(tokens, d_model)")

    # projections
    arrow(ax, ((x0 + x1) / 2, yi + hi + 4), ((x0 + x1) / 2, 186))
    text(ax, (x0 + x1) / 2 + 14, 160,
         "@ $W_Q$, $W_K$, $W_V$   each (d_model, d_model) = (512, 512)", size=11.5, ha="left")

    # Q, K, V split into heads
    top, bar, gap = 214, 26, 4
    for h in range(n_heads):
        text(ax, x0 + (h + 0.5) * seg, top - 8, f"head {h + 1}", size=10.5, va="bottom",
             weight="bold", colour=tint(HEADS[h], 1.0) if HEADS[h] != "#F0E442" else "#9a8c00")
    for r, (name, colour) in enumerate((("queries Q", QUERY), ("keys K", KEY),
                                       ("values V", VALUE))):
        y = top + r * (bar + gap)
        for h in range(n_heads):
            ax.add_patch(Rectangle((x0 + h * seg, y), seg, bar,
                                   facecolor=tint(HEADS[h], 0.35 + 0.1 * r), edgecolor="white",
                                   linewidth=2))
        ax.add_patch(Rectangle((x0, y), x1 - x0, bar, facecolor="none", edgecolor=colour,
                               linewidth=1.6))
        text(ax, label_x, y + bar / 2, name, size=11.5, ha="left", weight="bold", colour=colour)
        text(ax, x0 - 10, y + bar / 2, "(tokens, 512)", size=9.5, ha="right", family=MONO)
    bottom = top + 3 * bar + 2 * gap
    text(ax, (x0 + x1) / 2, bottom + 8,
         "split the last axis: d_model = 512  \u2192  h = 8 heads of d_head = 64 columns",
         size=11, va="top", style="italic", colour="#555555")

    # one attention per head
    hy0, hy1 = bottom + 72, bottom + 182
    for h in range(n_heads):
        cx = x0 + (h + 0.5) * seg
        arrow(ax, (cx, bottom + 34), (cx, hy0 - 2), colour="#555555", width=1.3, scale=12)
        ax.add_patch(FancyBboxPatch((x0 + h * seg + 8, hy0), seg - 16, hy1 - hy0,
                                    boxstyle="round,pad=0,rounding_size=10",
                                    facecolor=tint(HEADS[h], 0.22), edgecolor=HEADS[h],
                                    linewidth=1.8))
        text(ax, cx, hy0 + 26, "attention", size=11, weight="bold")
        text(ax, cx, hy0 + 54, f"${{Q_{h + 1}, K_{h + 1}, V_{h + 1}}}$", size=10.5)
        text(ax, cx, hy0 + 82, "(tokens, 64)", size=9, family=MONO)
    text(ax, label_x, (hy0 + hy1) / 2 - 20, "attention in\neach head", size=12, ha="left",
         weight="bold", linespacing=1.3)
    text(ax, label_x, (hy0 + hy1) / 2 + 24,
         r"softmax($Q_i K_i^T / \sqrt{d_k}$) $V_i$", size=11, ha="left")

    # concatenation
    cy = hy1 + 64
    for h in range(n_heads):
        cx = x0 + (h + 0.5) * seg
        arrow(ax, (cx, hy1 + 4), (cx, cy - 2), colour="#555555", width=1.3, scale=12)
        ax.add_patch(Rectangle((x0 + h * seg, cy), seg, bar + 6, facecolor=tint(HEADS[h], 0.55),
                               edgecolor="white", linewidth=2))
        text(ax, x0 + (h + 0.5) * seg, cy + (bar + 6) / 2, f"context {h + 1}", size=9.5,
             family=MONO)
    ax.add_patch(Rectangle((x0, cy), x1 - x0, bar + 6, facecolor="none", edgecolor=INK,
                           linewidth=1.6))
    left_label(cy + (bar + 6) / 2, "concatenate", "(tokens, 8 \u00d7 64)")
    text(ax, (x0 + x1) / 2, cy + bar + 14,
         "side by side again: 8 \u00d7 64 = 512 = d_model columns", size=11, va="top",
         style="italic", colour="#555555")

    # output projection
    oy = cy + bar + 6 + 110
    arrow(ax, ((x0 + x1) / 2, cy + bar + 44), ((x0 + x1) / 2, oy - 4))
    text(ax, (x0 + x1) / 2 + 14, (cy + bar + 44 + oy) / 2 - 10,
         "@ $W_O$   (d_model, d_model) = (512, 512)", size=11.5, ha="left")
    text(ax, (x0 + x1) / 2 + 14, (cy + bar + 44 + oy) / 2 + 12,
         "mixes what the heads found", size=10.5, ha="left", style="italic", colour="#555555")
    ax.add_patch(Rectangle((x0, oy), x1 - x0, 30, facecolor=tint(SCORE, 0.3),
                           edgecolor=SCORE, linewidth=1.6))
    text(ax, (x0 + x1) / 2, oy + 15, "512 columns", size=10, family=MONO)
    left_label(oy + 15, "output", "(tokens, d_model)", colour=SCORE)

    text(ax, width / 2, height - 22,
         "Same shape in and out. Each head attends with its own 64 columns of Q, K and V.",
         size=10.5, colour="#555555")
    save(fig, path)


# --------------------------------------------------------------------------- entry point

DRAWINGS: dict[str, Callable[[Path], None]] = {
    "qkv_flow.png": draw_qkv_flow,
    "scores_weights_context.png": draw_scores_weights_context,
    "multi_head.png": draw_multi_head,
}


def generate(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    # Matplotlib's defaults, whatever the local matplotlibrc or environment say.
    with matplotlib.style.context("default"), matplotlib.rc_context({"text.usetex": False}):
        for name, draw in DRAWINGS.items():
            draw(folder / name)
            written.append(folder / name)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="regenerate into a temporary folder and exit 1 if any image "
                             "differs from the one in images/")
    args = parser.parse_args(argv)

    if not args.check:
        for path in generate(IMAGES):
            print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size / 1024:.1f} KiB)")
        return 0

    with tempfile.TemporaryDirectory() as tmp:
        stale = []
        for fresh in generate(Path(tmp)):
            committed = IMAGES / fresh.name
            if not committed.is_file() or committed.read_bytes() != fresh.read_bytes():
                stale.append(committed.relative_to(ROOT))
    if stale:
        print("out of date (run .venv/bin/python scripts/make_images.py):")
        for path in stale:
            print(f"  {path}")
        return 1
    print(f"images/ is up to date ({len(DRAWINGS)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
