"""The report's PNG figures, drawn with matplotlib's Agg canvas (no display, no pyplot).

Figures are built as :class:`~matplotlib.figure.Figure` objects on their own Agg canvas,
so drawing never touches pyplot's global state or the user's backend. The PNG metadata
carries no software version, so the same tables give the same bytes.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from envsuite.evaluation.metrics.record_groups import TaskKey
from envsuite.evaluation.metrics.seed_means import SeedMean
from envsuite.evaluation.report.formatting import percent, short_task
from envsuite.evaluation.report.tables import OutcomeRow, RegretRow, ReportTables

DPI = 100
LABEL_WIDTH = 28
#: Lines of an env configuration's label at most (long kwargs, such as an SWE run's list of
#: task ids, would run into the next panel); the markdown tables name it in full.
LABEL_LINES = 3

Colour = tuple[float, float, float, float]


def colour(index: int) -> Colour:
    """The index-th colour of the tab10 cycle."""
    rgba = colormaps["tab10"](index % 10)
    return (float(rgba[0]), float(rgba[1]), float(rgba[2]), float(rgba[3]))


def _save(figure: Figure, path: Path) -> None:
    FigureCanvasAgg(figure)
    figure.tight_layout()
    figure.savefig(path, format="png", dpi=DPI, metadata={"Software": None})


def _wrapped(task: TaskKey) -> str:
    lines = textwrap.wrap(short_task(task), LABEL_WIDTH, max_lines=LABEL_LINES, placeholder=" …")
    return "\n".join(lines) or short_task(task)


def _labels(names: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(names))


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
    axes.set_xticks(range(len(tables.tasks)), [_wrapped(t) for t in tables.tasks], fontsize=8)
    axes.set_ylabel(name)
    axes.axhline(0.0, color="black", linewidth=0.6)


def plot_outcomes(tables: ReportTables, path: Path) -> bool:
    """Bar chart of success rate, mean score and mean return per env and run, with CIs.

    One panel per quantity some row defines; bars grouped by env configuration, one
    colour per run; error bars are the rows' intervals.

    Returns:
        Whether a figure was written (False when no row defines any of them).

    """
    panels = [(n, g) for n, g in OUTCOME_PANELS if any(g(row) for row in tables.outcomes)]
    if not panels:
        return False
    runs = _labels([row.run for row in tables.outcomes])
    width = max(6.0, 1.2 + 0.6 * len(tables.tasks) * len(runs))
    figure = Figure(figsize=(width, 2.8 * len(panels) + 0.6), dpi=DPI)
    axes = figure.subplots(len(panels), 1, squeeze=False)[:, 0]
    for panel, (name, getter) in zip(axes, panels, strict=True):
        _outcome_panel(panel, tables, runs, getter, name)
    axes[0].legend(fontsize=8)
    axes[0].set_title(
        f"per env configuration, {percent(tables.settings.confidence)} bootstrap intervals "
        f"(seed {tables.settings.seed})",
        fontsize=9,
    )
    _save(figure, path)
    return True


def plot_pass_at_k(tables: ReportTables, path: Path) -> bool:
    """pass@k (solid, with its interval as a band) and pass^k (dashed) over k.

    Returns:
        Whether a figure was written (False without pass@k rows).

    """
    if not tables.pass_at_k:
        return False
    series = _labels([f"{row.run} · {short_task(row.task)}" for row in tables.pass_at_k])
    figure = Figure(figsize=(7.0, 4.2), dpi=DPI)
    axes = figure.subplots()
    for j, name in enumerate(series):
        rows = [r for r in tables.pass_at_k if f"{r.run} · {short_task(r.task)}" == name]
        ks = [row.result.k for row in rows]
        at_k = [row.result.pass_at_k for row in rows]
        axes.plot(ks, [i.estimate for i in at_k], marker="o", color=colour(j), label=name)
        axes.fill_between(
            ks, [i.low for i in at_k], [i.high for i in at_k], color=colour(j), alpha=0.2
        )
        hat = [row.result.pass_hat_k.estimate for row in rows]
        axes.plot(ks, hat, linestyle="--", marker=".", color=colour(j))
    axes.set_xticks(range(1, tables.max_attempts + 1))
    axes.set_ylim(-0.02, 1.02)
    axes.set_xlabel("k (attempts)")
    axes.set_ylabel("pass@k (solid), pass^k (dashed)")
    axes.set_title(
        f"band: {percent(tables.settings.confidence)} bootstrap over problems "
        f"(seed {tables.settings.seed})",
        fontsize=9,
    )
    axes.legend(fontsize=8)
    _save(figure, path)
    return True


def plot_regret(rows: Sequence[RegretRow], path: Path) -> None:
    """Mean cumulative regret over t with its band, and the mean curve on log-log axes.

    Args:
        rows: The regret rows of one env configuration (one line per run and player).
        path: Where the PNG goes.

    """
    figure = Figure(figsize=(11.0, 4.2), dpi=DPI)
    linear, loglog = figure.subplots(1, 2)
    confidence = rows[0].band.confidence
    positive_any = False
    for j, row in enumerate(rows):
        band = row.band
        linear.plot(band.steps, band.mean, color=colour(j), label=row.who)
        linear.fill_between(band.steps, band.low, band.high, color=colour(j), alpha=0.2)
        curve = row.summary.mean_curve
        steps = np.arange(1, curve.size + 1)
        positive = curve > 0.0
        if positive.any():
            positive_any = True
            slope = row.summary.sublinearity.slope
            loglog.loglog(
                steps[positive],
                curve[positive],
                color=colour(j),
                label=f"{row.who} (slope {slope:.2f})",
            )
    if positive_any:
        final = max(float(row.summary.mean_curve[-1]) for row in rows)
        horizon = max(row.summary.mean_curve.size for row in rows)
        ts = np.array([1.0, float(horizon)])
        loglog.loglog(ts, final * ts / horizon, "k:", linewidth=1, label="∝ t (linear)")
        loglog.legend(fontsize=8)
    else:
        loglog.text(0.5, 0.5, "no positive regret", ha="center", transform=loglog.transAxes)
    linear.set_xlabel("t")
    linear.set_ylabel("mean cumulative regret R_t")
    linear.set_title(f"band: pointwise {percent(confidence)} bootstrap over seeds", fontsize=9)
    linear.legend(fontsize=8)
    loglog.set_xlabel("t (log)")
    loglog.set_ylabel("R_t (log)")
    loglog.set_title("mean curve, log-log", fontsize=9)
    figure.suptitle(_wrapped(rows[0].task).replace("\n", " "), fontsize=10)
    _save(figure, path)
