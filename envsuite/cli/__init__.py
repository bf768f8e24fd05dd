"""The ``envsuite`` command line (typer + rich).

Every sub-command lives in its own module of this package, which exposes
``register(app: typer.Typer) -> None``; :data:`COMMAND_MODULES` lists them in the order
``envsuite --help`` shows them. To add a command (``eval``, ``report``, ...) or a command
group (``leaderboard ...``: a ``typer.Typer`` added with ``app.add_typer``), write its
module and add its name here. Shared pieces: :mod:`envsuite.cli.console` (output),
:mod:`envsuite.cli.exits` (exit codes and error reporting), :mod:`envsuite.cli.env_kwargs`
(``--set key=value`` parsing).
"""

from __future__ import annotations

import importlib

import typer

from envsuite.cli.app import build_app

#: Modules (in this package) whose ``register(app)`` adds their commands.
COMMAND_MODULES: tuple[str, ...] = (
    "list_envs",
    "info",
    "play",
    "evaluate",
    "report",
    "transcript",
    "select_policy",
    "leaderboard",
    "curriculum",
    "datasets",
    "sandbox",
    "swe",
)


def create_app() -> typer.Typer:
    """Build the root app with every command module registered."""
    root = build_app()
    for name in COMMAND_MODULES:
        importlib.import_module(f"{__name__}.{name}").register(root)
    return root


#: The ``envsuite`` command.
app = create_app()


def main() -> None:
    """Entry point of the ``envsuite`` console script."""
    app()


__all__ = ["COMMAND_MODULES", "app", "create_app", "main"]
