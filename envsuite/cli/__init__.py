"""The ``envsuite`` command line (typer + rich).

Every core sub-command lives in its own module of this package, which exposes
``register(app: typer.Typer) -> None``; :data:`COMMAND_MODULES` lists them in the order
``envsuite --help`` shows them. To add a core command (``eval``, ``report``, ...) or a
command group (``leaderboard ...``: a ``typer.Typer`` added with ``app.add_typer``), write
its module and add its name here.

Families add their own commands without an edit here: a family package with a ``cli``
module (or package) exposing ``register(app)`` is found by listing
:mod:`envsuite.families`, as the registry finds ``specs``, and its commands follow the core
ones, family by family in alphabetical order. A family's ``cli`` must import nothing heavy at
import time (heavy imports go inside the commands), so its commands show in ``--help`` even
when its extra is missing; running one then prints which extra to install
(:func:`~envsuite.cli.exits.reports_errors` turns the ``MissingExtraError`` into that
message). A family's ``cli`` is the only module of a family that may import
``envsuite.cli``; nothing in the family imports its ``cli``.

``app`` (the ``envsuite`` command) is built on first access, so that a family's ``cli``
may be imported before or after this package. The root app and its global options are in
:mod:`envsuite.cli.root`. Shared pieces: :mod:`envsuite.cli.console` (output),
:mod:`envsuite.cli.exits` (exit codes and error reporting), :mod:`envsuite.cli.env_kwargs`
(``--set key=value`` parsing).
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil

import typer

import envsuite.families
from envsuite.cli.root import build_app

#: Modules (in this package) whose ``register(app)`` adds the core commands.
COMMAND_MODULES: tuple[str, ...] = (
    "list_envs",
    "info",
    "play",
    "evaluate",
    "rollout",
    "report",
    "transcript",
    "select_policy",
    "leaderboard",
    "serve",
    "bench",
)


def family_command_modules() -> tuple[str, ...]:
    """``envsuite.families.<family>.cli`` of every family that has one, alphabetically."""
    families = sorted(
        info.name for info in pkgutil.iter_modules(envsuite.families.__path__) if info.ispkg
    )
    names = (f"{envsuite.families.__name__}.{family}.cli" for family in families)
    return tuple(name for name in names if importlib.util.find_spec(name) is not None)


def create_app() -> typer.Typer:
    """Build the root app with the core commands, then every family's."""
    root = build_app()
    for name in COMMAND_MODULES:
        importlib.import_module(f"{__name__}.{name}").register(root)
    for name in family_command_modules():
        importlib.import_module(name).register(root)
    return root


_app: typer.Typer | None = None


def __getattr__(name: str) -> typer.Typer:
    # ``app`` (the ``envsuite`` command) is built on first use, not at import: a family's
    # cli imports this package's helpers (console, exits), and building the app then would
    # import that family's cli while it is still half-imported.
    global _app
    if name == "app":
        if _app is None:
            _app = create_app()
        return _app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Entry point of the ``envsuite`` console script."""
    __getattr__("app")()


__all__ = ["COMMAND_MODULES", "app", "create_app", "family_command_modules", "main"]
