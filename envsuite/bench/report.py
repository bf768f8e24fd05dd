"""The bench table as markdown or JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from envsuite.bench.rows import RowResult


def as_json(machine: dict[str, Any], results: Sequence[RowResult]) -> str:
    """The machine and every row's result, as one JSON document."""
    return json.dumps({"machine": machine, "rows": [r.as_dict() for r in results]}, indent=2)


def _ratio(ratio: dict[str, float] | None) -> str:
    if not ratio:
        return "-"
    low, high = sorted((ratio["best"], ratio["median"]))
    return f"{low:.2f}-{high:.2f}x"


def _rate(result: RowResult, loop: str) -> str:
    seconds = result.seconds.get(loop)
    if not seconds:
        return "-"
    rate = result.units / seconds["best"]
    return f"{rate:,.0f} {result.unit}/s"


def _figure(value: float) -> str:
    """Three significant digits; whole numbers with separators from 1,000 (no exponent)."""
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3g}"


def _figures(result: RowResult) -> str:
    return "; ".join(f"{key} {_figure(value)}" for key, value in result.figures.items())


def as_markdown(machine: dict[str, Any], results: Sequence[RowResult]) -> str:
    """A header naming the machine, then one table row per bench row.

    Ratios are envsuite's CPU time over the other loop's, best round to median round
    (rounds interleaved); rates are the best round's.
    """
    versions = ", ".join(f"{name} {version}" for name, version in machine["versions"].items())
    load = " ".join(str(value) for value in machine["load_average"]) or "unknown"
    lines = [
        f"Machine: {machine['cpu']}, {machine['cores']} cores ({machine['usable_cores']} "
        f"usable), load average {load}; Python {machine['python']} on {machine['platform']}",
        f"Versions: {versions}",
        "",
        "| row | work | envsuite | vs raw | vs peer | goal | more |",
        "|---|---|---|---|---|---|---|",
    ]
    for result in results:
        if result.skipped:
            lines.append(
                f"| {result.name} | {result.work} | skipped: {result.skipped} | - | - | "
                f"{result.goal} | |"
            )
            continue
        lines.append(
            f"| {result.name} | {result.work} | {_rate(result, 'envsuite')} | "
            f"{_ratio(result.ratios.get('envsuite/raw'))} | "
            f"{_ratio(result.ratios.get('envsuite/peer'))} | {result.goal} | "
            f"{_figures(result)} |"
        )
    lines.append("")
    lines.append(
        "Ratios: envsuite's CPU time over the other loop's, best round to median round of "
        "interleaved rounds (below 1: envsuite is faster)."
    )
    return "\n".join(lines)
