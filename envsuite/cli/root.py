"""The root ``envsuite`` app: global options and the help text every command sits under."""

from __future__ import annotations

from typing import Annotated

import typer

from envsuite.version import __version__

HELP = (
    "envsuite: one registry of RL and LLM-agent environments behind Gymnasium and "
    "PettingZoo, an evaluation engine and versioned leaderboards.\n\n"
    "Find an environment with `envsuite list` and `envsuite info ID`; try a text one with "
    "`envsuite play ID`. Evaluate an agent on an env or a task protocol with "
    "`envsuite eval TARGET --agent AGENT --out RUN`, then `envsuite report RUN` writes "
    "tables with confidence intervals and plots, computed from the episode records. "
    "`envsuite leaderboard` verifies, ranks and renders submissions. Every command has "
    "--help."
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"envsuite {__version__}")
        raise typer.Exit()


def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            "-V",
            callback=_print_version,
            is_eager=True,
            help="Show the envsuite version and exit.",
        ),
    ] = False,
) -> None:
    """envsuite: environments for RL and LLM agents."""


def build_app() -> typer.Typer:
    """Build the root app: help text and ``--version``, no commands yet."""
    app = typer.Typer(
        name="envsuite",
        help=HELP,
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode="markdown",
        pretty_exceptions_show_locals=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    app.callback()(_root)
    return app
