"""The report's PNG figures, drawn with matplotlib's Agg canvas (no display, no pyplot).

Figures are built as :class:`~matplotlib.figure.Figure` objects on their own Agg canvas,
so drawing never touches pyplot's global state or the user's backend. The PNG metadata
carries no software version, so the same tables give the same bytes.

Configurations are named by :func:`~envsuite.evaluation.report.labels.short_labels` (the
env and only the kwargs that differ), figures are as wide as their labels need, and tick
labels that would still touch are turned; titles wrap at word boundaries.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path

import numpy as np
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from envsuite.evaluation.metrics.record_groups import TaskKey
from envsuite.evaluation.metrics.seed_means import SeedMean
from envsuite.evaluation.report.formatting import percent
from envsuite.evaluation.report.labels import (
    config_text,
    one_line_labels,
    shared_env,
    short_labels,
    wrap_words,
)
from envsuite.evaluation.report.tables import OutcomeRow, RegretRow, ReportTables

DPI = 100
#: Font size of tick labels and legends, in points.
SMALL = 8
#: Width of one character of SMALL text in inches (DejaVu Sans averages ~0.6 em), with slack.
CHAR_INCHES = 0.065
#: Height of one line of SMALL text in inches (DejaVu Sans at 8 pt, with line spacing).
LINE_INCHES = 0.17
#: Widest outcome figure, in inches; beyond it tick labels are turned instead (and the
#: figure grows past it only as far as upright labels need).
MAX_WIDTH = 24.0
#: Angle of tick labels that would overlap when level.
TURNED = 30.0
#: Angle of tick labels that would still overlap when turned (many configurations).
UPRIGHT = 90.0
#: Characters per line of a figure title per inch of figure width (10-pt text).
TITLE_CHARS_PER_INCH = 11

Colour = tuple[float, float, float, float]


def colour(index: int, count: int = 10) -> Colour:
    """The index-th of ``count`` distinct colours: tab10, tab20, then viridis."""
    if count <= 10:
        rgba = colormaps["tab10"](index % 10)
    elif count <= 20:
        rgba = colormaps["tab20"](index % 20)
    else:
        rgba = colormaps["viridis"](index / max(1, count - 1))
    return (float(rgba[0]), float(rgba[1]), float(rgba[2]), float(rgba[3]))


def save(figure: Figure, path: Path) -> None:
    """Write a laid-out figure as PNG without a software version (same tables, same bytes)."""
    figure.savefig(path, format="png", dpi=DPI, metadata={"Software": None})


def _labels(names: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(names))


def tick_labels(tasks: Sequence[TaskKey]) -> list[str]:
    """One multi-line label per task: :func:`short_labels`' lines."""
    labels = short_labels(tasks)
    return ["\n".join(labels[task]) for task in tasks]


def _longest_line(labels: Sequence[str]) -> int:
    return max((len(line) for label in labels for line in label.split("\n")), default=0)


def _ticks_touch(figure: Figure, axes: Axes) -> bool:
    """Whether any two tick labels of ``axes`` overlap, or one leaves the figure."""
    canvas = FigureCanvasAgg(figure)
    renderer = canvas.get_renderer()
    boxes = sorted(
        (label.get_window_extent(renderer) for label in axes.get_xticklabels() if label.get_text()),
        key=lambda box: box.x0,
    )
    inside = all(box.x0 >= 0 and box.x1 <= figure.bbox.width for box in boxes)
    return not inside or any(a.x1 > b.x0 for a, b in pairwise(boxes))


def _fit_ticks(figure: Figure, axes: Sequence[Axes]) -> None:
    """Lay the figure out; turn the tick labels of any axes whose labels still touch.

    Touching labels are turned by :data:`TURNED`, and upright if they touch even then.
    """
    FigureCanvasAgg(figure)
    figure.tight_layout()
    for angle in (TURNED, UPRIGHT):
        turned = False
        for panel in axes:
            if _ticks_touch(figure, panel):
                for label in panel.get_xticklabels():
                    label.set_rotation(angle)
                    label.set_horizontalalignment("right")
                    label.set_rotation_mode("anchor")
                turned = True
        if not turned:
            return
        figure.tight_layout()


OutcomeField = Callable[[OutcomeRow], "SeedMean | None"]

#: Panels of the outcome figure: y-axis label and the row field it shows.
OUTCOME_PANELS: tuple[tuple[str, OutcomeField], ...] = (
    ("success rate", lambda row: row.success),
    ("mean score", lambda row: row.score),
    ("mean return", lambda row: row.mean_return),
)


def _outcome_panel(
    axes: Axes, tables: ReportTables, runs: list[str], getter: OutcomeField, name: str
) -> None:
    rows = {(row.task, row.run): row for row in tables.outcomes}
    width = 0.8 / len(runs)
    for j, run in enumerate(runs):
        xs: list[float] = []
        ys: list[float] = []
        below: list[float] = []
        above: list[float] = []
        for i, task in enumerate(tables.tasks):
            row = rows.get((task, run))
            value = None if row is None else getter(row)
            if value is None:
                continue
            estimate = value.interval.estimate
            xs.append(i - 0.4 + width * (j + 0.5))
            ys.append(estimate)
            below.append(max(0.0, estimate - value.interval.low))
            above.append(max(0.0, value.interval.high - estimate))
        if xs:
            axes.bar(xs, ys, width, yerr=[below, above], capsize=3, label=run, color=colour(j))
    axes.set_xticks(range(len(tables.tasks)), tick_labels(tables.tasks), fontsize=SMALL)
    axes.set_xlim(-0.6, len(tables.tasks) - 0.4)
    axes.set_ylabel(name)
    axes.axhline(0.0, color="black", linewidth=0.6)


def outcomes_figure(tables: ReportTables) -> Figure | None:
    """The outcome figure, laid out (see :func:`plot_outcomes`); None when it has no panel."""
    panels = [(n, g) for n, g in OUTCOME_PANELS if any(g(row) for row in tables.outcomes)]
    if not panels:
        return None
    runs = _labels([row.run for row in tables.outcomes])
    labels = tick_labels(tables.tasks)
    group = max(0.35 * len(runs) + 0.3, CHAR_INCHES * _longest_line(labels) + 0.3)
    legend = CHAR_INCHES * max(len(run) for run in runs) + 0.8
    lines = max(label.count("\n") + 1 for label in labels)
    # capped, the labels are turned; upright ones need their lines' height per configuration
    upright = LINE_INCHES * lines + 0.15
    width = max(
        min(MAX_WIDTH, max(6.0, 1.0 + legend + group * len(tables.tasks))),
        1.0 + legend + upright * len(tables.tasks),
    )
    height = 2.4 * len(panels) + 0.14 * lines + 0.8
    figure = Figure(figsize=(width, height), dpi=DPI)
    # one x axis: the configurations are named once, under the bottom panel
    axes = figure.subplots(len(panels), 1, squeeze=False, sharex=True)[:, 0]
    for panel, (name, getter) in zip(axes, panels, strict=True):
        _outcome_panel(panel, tables, runs, getter, name)
    env = shared_env(tables.tasks)
    if env is not None and len(tables.tasks) > 1:
        axes[-1].set_xlabel(env)
    axes[0].legend(fontsize=SMALL, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    title = (
        f"per env configuration, {percent(tables.settings.confidence)} bootstrap intervals "
        f"(seed {tables.settings.seed})"
    )
    # the figure's title, not the panel's: a long legend leaves the panel too narrow for it
    figure.suptitle(wrap_words(title, int(width * TITLE_CHARS_PER_INCH)), fontsize=9)
    _fit_ticks(figure, list(axes))
    return figure


def plot_outcomes(tables: ReportTables, path: Path) -> bool:
    """Bar chart of success rate, mean score and mean return per env and run, with CIs.

    One panel per quantity some row defines; bars grouped by env configuration (named by
    its env and the kwargs that differ), one colour per run; error bars are the rows'
    intervals.

    Returns:
        Whether a figure was written (False when no row defines any of them).

    """
    figure = outcomes_figure(tables)
    if figure is None:
        return False
    save(figure, path)
    return True


#: Above this many configurations pass@k draws no bands (they would hide each other; the
#: intervals are in report.md).
BANDED_TASKS = 3


def pass_at_k_figure(tables: ReportTables) -> Figure | None:
    """The pass@k figure, laid out (see :func:`plot_pass_at_k`); None without pass@k rows."""
    if not tables.pass_at_k:
        return None
    runs = _labels([row.run for row in tables.pass_at_k])
    tasks = [task for task in tables.tasks if any(r.task == task for r in tables.pass_at_k)]
    names = one_line_labels(tasks)
    banded = len(tasks) <= BANDED_TASKS
    legend = CHAR_INCHES * max(len(name) for name in names.values()) + 0.8
    figure = Figure(figsize=(4.2 * len(runs) + legend + 0.6, 4.4), dpi=DPI)
    axes = figure.subplots(1, len(runs), sharey=True, squeeze=False)[0]
    for panel, run in zip(axes, runs, strict=True):
        for j, task in enumerate(tasks):
            rows = [r for r in tables.pass_at_k if r.run == run and r.task == task]
            if not rows:
                continue
            tint = colour(j, len(tasks))
            ks = [row.result.k for row in rows]
            at_k = [row.result.pass_at_k for row in rows]
            panel.plot(ks, [i.estimate for i in at_k], marker="o", color=tint, label=names[task])
            if banded:
                low, high = [i.low for i in at_k], [i.high for i in at_k]
                panel.fill_between(ks, low, high, color=tint, alpha=0.2)
            hat = [row.result.pass_hat_k.estimate for row in rows]
            panel.plot(ks, hat, linestyle="--", marker=".", color=tint)
        panel.set_xticks(range(1, tables.max_attempts + 1))
        panel.set_ylim(-0.02, 1.02)
        panel.set_xlabel("k (attempts)")
        panel.set_title(run, fontsize=9)
    axes[0].set_ylabel("pass@k (solid), pass^k (dashed)")
    handles, labels = axes[0].get_legend_handles_labels()
    for panel in axes[1:]:
        more_handles, more = panel.get_legend_handles_labels()
        for handle, label in zip(more_handles, more, strict=True):
            if label not in labels:
                handles.append(handle)
                labels.append(label)
    axes[-1].legend(handles, labels, fontsize=SMALL, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    coverage = percent(tables.settings.confidence)
    figure.suptitle(
        f"bands: {coverage} bootstrap over problems (seed {tables.settings.seed})"
        if banded
        else f"{coverage} intervals (bootstrap over problems) in report.md",
        fontsize=9,
    )
    FigureCanvasAgg(figure)
    figure.tight_layout()
    return figure


def plot_pass_at_k(tables: ReportTables, path: Path) -> bool:
    """pass@k (solid) and pass^k (dashed) over k: one panel per run, one line per task.

    With a few configurations pass@k carries its interval as a band.

    Returns:
        Whether a figure was written (False without pass@k rows).

    """
    figure = pass_at_k_figure(tables)
    if figure is None:
        return False
    save(figure, path)
    return True


#: Width of a regret figure, in inches.
REGRET_WIDTH = 11.0


def regret_title(task: TaskKey) -> str:
    """A regret figure's title: the configuration in words, wrapped between words to fit."""
    return wrap_words(config_text(task), int(REGRET_WIDTH * TITLE_CHARS_PER_INCH))


def regret_figure(rows: Sequence[RegretRow]) -> Figure:
    """The regret figure of one env configuration, laid out (see :func:`plot_regret`)."""
    figure = Figure(figsize=(REGRET_WIDTH, 4.4), dpi=DPI)
    linear, loglog = figure.subplots(1, 2)
    confidence = rows[0].band.confidence
    positive_any = False
    for j, row in enumerate(rows):
        tint = colour(j, len(rows))
        band = row.band
        linear.plot(band.steps, band.mean, color=tint, label=row.who)
        linear.fill_between(band.steps, band.low, band.high, color=tint, alpha=0.2)
        curve = row.summary.mean_curve
        steps = np.arange(1, curve.size + 1)
        positive = curve > 0.0
        if positive.any():
            positive_any = True
            verdict = row.summary.sublinearity
            loglog.loglog(
                steps[positive],
                curve[positive],
                color=tint,
                # + 0.0 turns a slope rounded to -0.00 into 0.00
                label=f"{row.who} (slope {round(verdict.slope, 2) + 0.0:.2f}: {verdict.verdict})",
            )
    if positive_any:
        final = max(float(row.summary.mean_curve[-1]) for row in rows)
        horizon = max(row.summary.mean_curve.size for row in rows)
        exponent = rows[0].summary.sublinearity.linear_exponent
        ts = np.geomspace(1.0, float(horizon), 50)
        loglog.loglog(ts, final * ts / horizon, "k:", linewidth=1, label="∝ t (linear)")
        loglog.loglog(
            ts,
            final * (ts / horizon) ** exponent,
            color="grey",
            linestyle="--",
            linewidth=1,
            label=f"∝ t^{exponent:g} (verdict threshold)",
        )
        loglog.legend(fontsize=SMALL)
    else:
        loglog.text(0.5, 0.5, "no positive regret", ha="center", transform=loglog.transAxes)
    linear.set_xlabel("t")
    linear.set_ylabel("mean cumulative regret R_t")
    linear.set_title(f"band: pointwise {percent(confidence)} bootstrap over seeds", fontsize=9)
    linear.legend(fontsize=SMALL)
    loglog.set_xlabel("t (log)")
    loglog.set_ylabel("R_t (log)")
    loglog.set_title("mean curve, log-log", fontsize=9)
    figure.suptitle(regret_title(rows[0].task), fontsize=10)
    FigureCanvasAgg(figure)
    figure.tight_layout()
    return figure


def plot_regret(rows: Sequence[RegretRow], path: Path) -> None:
    """Mean cumulative regret over t with its band, and the mean curve on log-log axes.

    The log-log panel shows the verdict's threshold t^0.9 next to t, both through the
    largest final regret, so a curve's slope can be read against them.

    Args:
        rows: The regret rows of one env configuration (one line per run and player).
        path: Where the PNG goes.

    """
    save(regret_figure(rows), path)
