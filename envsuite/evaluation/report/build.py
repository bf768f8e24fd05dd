"""Writing a report: load the runs, compute the tables, draw the figures, write the markdown."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from envsuite.evaluation.report.formatting import short_task
from envsuite.evaluation.report.game_plots import plot_games
from envsuite.evaluation.report.load import ReportError, Run, load_runs
from envsuite.evaluation.report.markdown import Figures, render_markdown
from envsuite.evaluation.report.plots import plot_outcomes, plot_pass_at_k, plot_regret
from envsuite.evaluation.report.screens import draw_screens, strip_file_name
from envsuite.evaluation.report.tables import ReportTables, Settings, build_tables

REPORT_FILE = "report.md"
OUTCOMES_FIGURE = "outcomes.png"
PASS_AT_K_FIGURE = "pass_at_k.png"
#: Default report directory inside a run directory, for a report of one run.
DEFAULT_DIR = "report"


@dataclass(frozen=True)
class Report:
    """What :func:`write_report` wrote.

    Attributes:
        out_dir: The report directory.
        markdown: Path of ``report.md``.
        figures: Paths of the PNG figures, in the order the markdown shows them.
        runs: The runs reported.
        tables: Every number of the report.

    """

    out_dir: Path
    markdown: Path
    figures: list[Path]
    runs: list[Run]
    tables: ReportTables


#: Longest file-name slug of a configuration, in characters (the index keeps names unique).
SLUG_CHARS = 60


def _slug(text: str) -> str:
    """``text`` as a file-name part: alphanumeric words joined by ``-``, cut between words."""
    words = [word for word in re.split(r"[^A-Za-z0-9]+", text) if word]
    kept: list[str] = []
    for word in words:
        if kept and len("-".join([*kept, word])) > SLUG_CHARS:
            break
        kept.append(word[:SLUG_CHARS])
    return "-".join(kept) or "env"


def default_out_dir(run_dirs: Sequence[str | Path]) -> Path:
    """``RUN_DIR/report`` for one run.

    Raises:
        ReportError: several runs (a comparison needs an explicit directory).

    """
    if len(run_dirs) != 1:
        raise ReportError("a comparison of several runs needs --out DIR for the report")
    return Path(run_dirs[0]) / DEFAULT_DIR


def write_report(
    run_dirs: Sequence[str | Path], out_dir: str | Path | None = None, *, seed: int = 0
) -> Report:
    """Report on one run, or compare several runs of one task protocol.

    Writes ``report.md`` and PNG figures into ``out_dir`` (created if needed): outcomes per
    env configuration with intervals, pass@k over k when runs have several attempts, and
    regret curves with their no-regret tests where records carry regret curves, win
    rates and ratings where players record wins, losses and draws, and a strip of screens
    of one replayed episode per configuration whose env draws pictures
    (:mod:`~envsuite.evaluation.report.screens`).

    Args:
        run_dirs: Run directories written by the runner.
        out_dir: The report directory (default: ``RUN_DIR/report`` for one run).
        seed: Seed of every bootstrap interval.

    Returns:
        The :class:`Report`.

    Raises:
        ReportError: runs that cannot be reported (see
            :func:`~envsuite.evaluation.report.load.load_runs`), or several runs without
            ``out_dir``.
        OSError: the report directory cannot be written.

    """
    target = default_out_dir(run_dirs) if out_dir is None else Path(out_dir)
    runs = load_runs(run_dirs)
    tables = build_tables(runs, Settings(seed=seed))
    target.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    outcomes = pass_at_k = None
    if plot_outcomes(tables, target / OUTCOMES_FIGURE):
        outcomes = OUTCOMES_FIGURE
        written.append(target / OUTCOMES_FIGURE)
    if plot_pass_at_k(tables, target / PASS_AT_K_FIGURE):
        pass_at_k = PASS_AT_K_FIGURE
        written.append(target / PASS_AT_K_FIGURE)
    regret = {}
    for index, task in enumerate(tables.tasks, start=1):
        rows = [row for row in tables.regret if row.task == task]
        if rows:
            name = f"regret-{index}-{_slug(short_task(task))}.png"
            plot_regret(rows, target / name)
            regret[task] = name
            written.append(target / name)
    ratings = {}
    for index, task in enumerate(tables.tasks, start=1):
        name = f"agents-{index}-{_slug(short_task(task))}.png"
        win_rates = [row for row in tables.games.win_rates if row.task == task]
        returns = [row for row in tables.games.returns if row.task == task]
        rated = [row for row in tables.games.ratings if row.task == task]
        if plot_games(win_rates, returns, rated, target / name):
            ratings[task] = name
            written.append(target / name)
    strips = draw_screens(runs, tables.tasks, target, strip_file_name)
    written += [target / strip.file for strip in strips if strip.file is not None]
    markdown = target / REPORT_FILE
    figures = Figures(
        outcomes=outcomes, pass_at_k=pass_at_k, regret=regret, ratings=ratings, screens=strips
    )
    markdown.write_text(render_markdown(runs, tables, figures), encoding="utf-8")
    return Report(target, markdown, written, runs, tables)
