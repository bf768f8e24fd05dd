"""Error-bar plots of the standings (matplotlib, PNG), one point and interval per entry.

Figures are drawn on their own :class:`~matplotlib.figure.Figure` with the Agg canvas, so
rendering never touches pyplot's global state or needs a display.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from envsuite.evaluation.metrics.bootstrap import Interval


def interval_plot(
    labels: Sequence[str],
    intervals: Sequence[Interval],
    path: Path,
    *,
    title: str,
    xlabel: str,
    references: Sequence[tuple[str, float]] = (),
) -> Path:
    """Draw one horizontal error bar per entry (first label on top) and save a PNG.

    Args:
        labels: Entry labels, best first.
        intervals: Each entry's estimate and interval.
        path: Where the PNG goes.
        title: Figure title.
        xlabel: Label of the value axis.
        references: (label, value) of fixed reference values (a panel's ratings), drawn as
            labelled dotted vertical lines.
    """
    height = 1.2 + 0.45 * max(len(labels), 1)
    figure = Figure(figsize=(7.0, height), dpi=110, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    positions = list(range(len(labels)))[::-1]
    estimates = [value.estimate for value in intervals]
    below = [max(value.estimate - value.low, 0.0) for value in intervals]
    above = [max(value.high - value.estimate, 0.0) for value in intervals]
    axes.errorbar(
        estimates,
        positions,
        xerr=[below, above],
        fmt="o",
        color="#1f5fa8",
        ecolor="#6b8fc2",
        elinewidth=2.5,
        capsize=4,
    )
    for name, value in references:
        axes.axvline(value, color="#a0a0a0", linestyle=":", linewidth=1.2, zorder=0)
        axes.annotate(
            name,
            (value, 1.0),
            xycoords=("data", "axes fraction"),
            xytext=(2, -2),
            textcoords="offset points",
            fontsize=7,
            color="#606060",
            rotation=90,
            va="top",
        )
    axes.set_yticks(positions, labels=list(labels))
    axes.set_xlabel(xlabel)
    # Over the whole figure (long entry names push the axes right), wrapped to its width.
    figure.suptitle(textwrap.fill(title, 80), fontsize=11)
    axes.grid(axis="x", alpha=0.3)
    axes.set_ylim(-0.7, len(labels) - 0.3)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png", metadata={"Software": None})
    return path
