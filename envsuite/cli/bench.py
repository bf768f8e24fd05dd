"""``envsuite bench``: envsuite's speed as ratios to raw loops and peers, on this machine."""

from __future__ import annotations

from typing import Annotated

import typer

from envsuite.cli.exits import USAGE, exit_with, reports_errors


def register(app: typer.Typer) -> None:
    """Add ``bench`` to ``app``."""
    app.command("bench")(bench_command)


@reports_errors
def bench_command(
    rows: Annotated[
        str | None,
        typer.Option("--rows", metavar="NAME[,NAME]", help="Rows to run (default: all)."),
    ] = None,
    quick: Annotated[
        bool, typer.Option("--quick", help="Fewer rounds and less work per round (rougher).")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON instead of markdown.")
    ] = False,
) -> None:
    """Time envsuite against the raw loop doing the same work (and a peer where one installs).

    Each row runs envsuite's loop and the raw loop in turns, round after round, and reports
    the ratio of their CPU times (best round to median round), with the machine's cores,
    load average and package versions, so a figure can be checked on any machine. Rows whose
    package is missing are listed as skipped, with the extra to install.
    """
    from envsuite.bench.machine import machine
    from envsuite.bench.report import as_json as to_json
    from envsuite.bench.report import as_markdown
    from envsuite.bench.rows import BY_NAME, ROWS, run_row

    chosen = list(ROWS)
    if rows is not None:
        names = [name.strip() for name in rows.split(",") if name.strip()]
        unknown = [name for name in names if name not in BY_NAME]
        if unknown or not names:
            exit_with(
                f"unknown row {', '.join(map(repr, unknown)) or '(none given)'}; rows: "
                f"{', '.join(BY_NAME)}",
                USAGE,
            )
        chosen = [BY_NAME[name] for name in names]
    results = [run_row(row, quick) for row in chosen]
    about = machine()
    typer.echo(to_json(about, results) if as_json else as_markdown(about, results))
