"""``envsuite list``: every registered environment, as a table or as JSON."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table

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
        stdout().print(spec_table(rows))
    if not rows:
        known = ", ".join(sorted({s.family for s in registry.values()})) or "none"
        message = f"No environments registered in family {family!r}. Families with "
        line(stderr(), message + f"environments: {known}.")


def spec_table(rows: list[dict[str, Any]]) -> Table:
    """Build the ``list`` table from :func:`spec_row` rows."""
    table = Table(
        title=f"envsuite environments ({len(rows)})",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("id", style="bold cyan", no_wrap=True)
    table.add_column("family")
    table.add_column("api")
    table.add_column("extra", no_wrap=True)
    table.add_column("description", overflow="fold", ratio=1)
    for row in rows:
        table.add_row(
            plain(row["id"], "bold cyan"),
            plain(row["family"]),
            plain(row["api"]),
            _extra_cell(row["extra"], row["extra_installed"]),
            plain(row["description"]),
        )
    return table
