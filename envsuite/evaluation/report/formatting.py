"""How report numbers are written, the same in markdown, on the terminal and in plots."""

from __future__ import annotations

import math
from collections.abc import Sequence

from envsuite.evaluation.metrics.bootstrap import Interval
from envsuite.evaluation.metrics.record_groups import TaskKey
from envsuite.evaluation.metrics.seed_means import SeedMean

#: Shown where a number is undefined (no episode defines it).
MISSING = "—"
ENV_PREFIX = "envsuite/"


def number(value: float) -> str:
    """A number with three decimals ("n/a" for NaN)."""
    return "n/a" if math.isnan(value) else f"{value:.3f}"


def interval(value: Interval | None) -> str:
    """``estimate [low, high]``, or :data:`MISSING`."""
    if value is None:
        return MISSING
    return f"{number(value.estimate)} [{number(value.low)}, {number(value.high)}]"


def seed_mean(value: SeedMean | None, n_ran: int) -> str:
    """A :class:`SeedMean`, with its episode count when fewer than the row's episodes."""
    if value is None:
        return MISSING
    shown = interval(value.interval)
    return shown if value.n_episodes == n_ran else f"{shown} (n={value.n_episodes})"


def short_task(task: TaskKey) -> str:
    """An env configuration without the task id or the ``envsuite/`` prefix."""
    _, env_id, kwargs = task
    name = env_id.removeprefix(ENV_PREFIX)
    return name if kwargs == "{}" else f"{name} {kwargs}"


def percent(confidence: float) -> str:
    """A coverage as a percentage: ``95%``."""
    return f"{100.0 * confidence:g}%"


def _cell(value: object) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    """The lines of a markdown table (cells escaped), and a blank line after it."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows]
    return [*lines, ""]
