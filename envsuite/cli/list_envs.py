"""``envsuite list``: every registered environment, as a table or as JSON."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from envsuite.cli.console import line, plain, stderr, stdout, write_json
from envsuite.cli.extras import extra_installed
from envsuite.registry import EnvSpec, registry


def register(app: typer.Typer) -> None:
    """Add ``list`` to ``app``."""
    app.command("list")(list_envs)


def spec_row(spec: EnvSpec) -> dict[str, Any]:
    """Return what ``list --json`` reports for one spec."""
    return {
        "id": spec.id,
        "family": spec.family,
        "api": spec.api,
        "extra": spec.extra,
        "extra_installed": None if spec.extra is None else extra_installed(spec.extra),
        "description": spec.description,
    }


def _extra_cell(extra: str | None, installed: bool | None) -> str:
    if extra is None:
        return "-"
    mark = {True: "[green]✓ installed[/]", False: "[red]✗ missing[/]", None: "[yellow]?[/]"}
    return f"{extra} {mark[installed]}"


def list_envs(
    family: Annotated[
        str | None,
        typer.Option("--family", "-f", help="Only environments of this family (e.g. decision)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print a JSON list instead of a table.")
    ] = False,
) -> None:
    """List every registered environment: id, family, API, extra needed and description.

    The extra column says which pip extra an environment needs ("-" for none) and whether
    it is installed; install a missing one with pip install 'envsuite[EXTRA]'.
    """
    specs = [s for s in registry.values() if family is None or s.family == family]
    rows = [spec_row(s) for s in specs]
    if as_json:
        write_json(rows)
    elif rows:
        console = stdout()
        console.print(spec_table(rows, wide=console.width >= WIDE_TABLE))
    if not rows:
        known = ", ".join(sorted({s.family for s in registry.values()})) or "none"
        message = f"No environments registered in family {family!r}. Families with "
        line(stderr(), message + f"environments: {known}.")


#: Narrower consoles (80 columns, or output piped) get each description under its id.
WIDE_TABLE = 120


def spec_table(rows: list[dict[str, Any]], *, wide: bool = True) -> Table:
    """Build the ``list`` table from :func:`spec_row` rows.

    Args:
        rows: What :func:`spec_row` returns, one per spec.
        wide: A description column; otherwise each description goes under its id, so
            that it keeps a readable width on a narrow console.
    """
    table = Table(
        title=f"envsuite environments ({len(rows)})",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("id" if wide else "id and description", ratio=None if wide else 1)
    table.add_column("family", no_wrap=True)
    table.add_column("api", no_wrap=True)
    table.add_column("extra", no_wrap=True)
    if wide:
        table.add_column("description", ratio=1)
    for row in rows:
        ident = plain(row["id"], "bold cyan")
        cells: list[Text | str] = [
            ident if wide else Text.assemble(ident, "\n", (row["description"], "dim")),
            plain(row["family"]),
            plain(row["api"]),
            _extra_cell(row["extra"], row["extra_installed"]),
        ]
        table.add_row(*cells, *([plain(row["description"])] if wide else []))
        if not wide:
            table.add_row()  # a blank line between environments
    return table
