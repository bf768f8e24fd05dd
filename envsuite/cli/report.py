"""``envsuite report RUN_DIR [RUN_DIR ...]``: markdown, figures and tables of evaluation runs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from envsuite.cli.console import line, print_table, stderr, stdout
from envsuite.cli.exits import FAILURE, USAGE, exit_with, reports_errors

RunDirsArgument = Annotated[
    list[Path],
    typer.Argument(
        metavar="RUN_DIR",
        help="Run directories written by the runner (run.json and episodes.jsonl). Several "
        "runs of one task protocol are compared, one row per agent.",
        show_default=False,
    ),
]
OutOption = Annotated[
    Path | None,
    typer.Option(
        "--out",
        "-o",
        metavar="DIR",
        help="Where to write report.md and the figures (default: RUN_DIR/report for one "
        "run; required for several).",
        show_default=False,
    ),
]
SeedOption = Annotated[
    int, typer.Option("--seed", min=0, help="Seed of every bootstrap confidence interval.")
]


def register(app: typer.Typer) -> None:
    """Add ``report`` to ``app``."""
    app.command("report")(report)


@reports_errors
def report(run_dirs: RunDirsArgument, out: OutOption = None, seed: SeedOption = 0) -> None:
    """Write a report of evaluation runs: report.md, PNG figures, and the main tables here.

    Per env configuration: episodes, infrastructure errors (kept apart), success rate, mean
    return and mean score with 95% bootstrap intervals; pass@k over k when runs made
    several attempts; regret curves with their sublinearity verdicts where episodes record
    regret. Every number is computed from the records in episodes.jsonl.
    """
    # matplotlib takes about a second to import; other commands should not wait for it.
    from envsuite.evaluation.report import ReportError, main_tables, write_report

    try:
        result = write_report(run_dirs, out, seed=seed)
    except ReportError as exc:
        exit_with(str(exc), USAGE)
    except OSError as exc:
        exit_with(f"could not write the report: {exc}", FAILURE)
    errors = stderr()
    for warning in result.tables.warnings:
        line(errors, f"Warning: {warning}", "yellow")
    console = stdout()
    for table in main_tables(result.tables):
        print_table(console, table)
    shown = ", ".join(path.name for path in result.figures) or "no figures"
    line(console, f"wrote {result.markdown} ({shown})", "bold")
