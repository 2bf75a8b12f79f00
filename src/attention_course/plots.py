"""Attention heatmaps labelled with tokens, the same in every notebook."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np

from .convert import to_numpy


def heatmap(
    weights,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    title: str = "attention weights",
    ax=None,
    annotate: bool = True,
    cmap: str = "viridis",
):
    """Draw a (queries, keys) weight matrix: rows are queries attending, columns the keys.

    Accepts NumPy arrays and PyTorch or TensorFlow tensors. Returns the Matplotlib Axes.
    """
    weights = to_numpy(weights).astype(np.float64)
    if weights.ndim != 2:
        raise ValueError(f"heatmap() draws one (queries, keys) matrix, got shape {weights.shape}")
    n_rows, n_cols = weights.shape
    row_labels = list(row_labels) if row_labels is not None else [str(i) for i in range(n_rows)]
    col_labels = list(col_labels) if col_labels is not None else row_labels[:n_cols]
    if ax is None:
        size = max(3.0, 0.7 * max(n_rows, n_cols) + 1.5)
        _, ax = plt.subplots(figsize=(size + 1.0, size))
    image = ax.imshow(weights, cmap=cmap, vmin=0.0, vmax=max(1e-12, float(np.nanmax(weights))))
    ax.set_xticks(range(n_cols), labels=col_labels, rotation=45, ha="right")
    ax.set_yticks(range(n_rows), labels=row_labels)
    ax.set_xlabel("key (attended to)")
    ax.set_ylabel("query (attending)")
    ax.set_title(title)
    if annotate and n_rows * n_cols <= 100:
        threshold = 0.6 * float(np.nanmax(weights))
        for i in range(n_rows):
            for j in range(n_cols):
                colour = "black" if weights[i, j] > threshold else "white"
                ax.text(j, i, f"{weights[i, j]:.2f}", ha="center", va="center", color=colour,
                        fontsize=8)
    ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    return ax


def heatmaps(weights_per_head, labels: Sequence[str] | None = None, title: str = "head"):
    """One heatmap per head of a (heads, queries, keys) array, side by side. Returns the Figure."""
    weights_per_head = to_numpy(weights_per_head)
    n_heads = weights_per_head.shape[0]
    columns = min(4, n_heads)
    rows = -(-n_heads // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(3.6 * columns, 3.2 * rows), squeeze=False)
    for h, ax in enumerate(axes.flat):
        if h < n_heads:
            heatmap(weights_per_head[h], labels, labels, title=f"{title} {h}", ax=ax,
                    annotate=weights_per_head.shape[-1] <= 6)
        else:
            ax.axis("off")
    fig.tight_layout()
    return fig
