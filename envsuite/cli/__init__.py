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
may be imported before or after this package. :func:`main` (the console script) builds only
the command its arguments name when that is a core command (:data:`COMMANDS`): ``envsuite
eval ...`` then imports the evaluation modules and none of the other commands' (the chat
agents' HTTP stack, the server, the leaderboard, the family commands); ``envsuite --help``
(or no arguments) lists the core commands from :data:`COMMAND_SUMMARIES` without importing
them (:func:`create_help_app`). Any other arguments (a family's command, ``--version``, a
typo) build the whole app.

The root app and its global options are in :mod:`envsuite.cli.root`. Shared pieces:
:mod:`envsuite.cli.console` (output), :mod:`envsuite.cli.exits` (exit codes and error
reporting), :mod:`envsuite.cli.env_kwargs` (``--set key=value`` parsing).
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import sys

import typer

import envsuite.families
from envsuite.cli.root import build_app

#: Core command name -> the module (in this package) whose ``register(app)`` adds it.
COMMANDS: dict[str, str] = {
    "list": "list_envs",
    "info": "info",
    "play": "play",
    "eval": "evaluate",
    "rollout": "rollout",
    "report": "report",
    "transcript": "transcript",
    "select": "select_policy",
    "leaderboard": "leaderboard",
    "serve": "serve",
    "bench": "bench",
}
#: Modules (in this package) whose ``register(app)`` adds the core commands.
COMMAND_MODULES: tuple[str, ...] = tuple(COMMANDS.values())
#: Core command groups (``app.add_typer``), listed after the plain commands.
COMMAND_GROUPS = frozenset({"leaderboard"})
#: What the root help lists for each core command: the first paragraph of its help. The
#: root help is shown from these, without importing the commands' modules (a test checks
#: that they are the commands' own words).
COMMAND_SUMMARIES: dict[str, str] = {
    "list": "List every registered environment: id, family, API, extra needed and description.",
    "info": "Show an environment's spec, spec hash, observation/action spaces and documentation.",
    "play": "Play a text environment yourself: type one action per line.",
    "eval": "Run AGENT on TARGET, writing one record per episode to OUT/episodes.jsonl.",
    "rollout": "Roll out MODEL on TARGET in groups sharing a seed; write records and transcripts.",
    "report": "Write a report of evaluation runs: report.md, PNG figures, and the main tables "
    "here.",
    "transcript": "Print a run's episodes as chat transcripts (system, user and assistant "
    "messages).",
    "select": "Rank candidate policies by cheap value estimates and score each estimator's top-k.",
    "leaderboard": "Versioned leaderboards: boards pin a task protocol; submissions are "
    "verified by recomputing every metric from their records and replaying a sample of "
    "their traces.",
    "serve": "Serve envs to trainers: OpenEnv's HTTP and WebSocket API, one env per session.",
    "bench": "Time envsuite against the raw loop doing the same work (and a peer where one "
    "installs).",
}


def family_command_modules() -> tuple[str, ...]:
    """``envsuite.families.<family>.cli`` of every family that has one, alphabetically."""
    families = sorted(
        info.name for info in pkgutil.iter_modules(envsuite.families.__path__) if info.ispkg
    )
    names = (f"{envsuite.families.__name__}.{family}.cli" for family in families)
    return tuple(name for name in names if importlib.util.find_spec(name) is not None)


def create_app(only: str | None = None) -> typer.Typer:
    """Build the root app with the core commands, then every family's.

    Args:
        only: A core command's name (a key of :data:`COMMANDS`): build the root app with
            that command alone. None: every command.
    """
    root = build_app()
    if only is not None:
        importlib.import_module(f"{__name__}.{COMMANDS[only]}").register(root)
        return root
    for name in COMMAND_MODULES:
        importlib.import_module(f"{__name__}.{name}").register(root)
    for name in family_command_modules():
        importlib.import_module(name).register(root)
    return root


def create_help_app() -> typer.Typer:
    """The root app as ``envsuite --help`` shows it, without importing the core commands.

    The core commands are stand-ins carrying their :data:`COMMAND_SUMMARIES`; the family
    commands are the real ones (their modules import nothing heavy).
    """
    root = build_app()
    for name in COMMANDS:
        if name in COMMAND_GROUPS:
            root.add_typer(typer.Typer(help=COMMAND_SUMMARIES[name]), name=name)
        else:
            root.command(name, help=COMMAND_SUMMARIES[name])(_stand_in)
    for name in family_command_modules():
        importlib.import_module(name).register(root)
    return root


def _stand_in() -> None:
    """A core command of :func:`create_help_app`, which never runs one."""


def _named_command(arguments: list[str]) -> str | None:
    """The core command ``arguments`` run (None: no command, or not a core one).

    The root's only options (``--version``, ``--help``) take no value, so the first
    argument that is not an option is the command.
    """
    for argument in arguments:
        if not argument.startswith("-"):
            return argument if argument in COMMANDS else None
        if argument == "--":
            return None
    return None


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
    """Entry point of the ``envsuite`` console script (see the module docstring)."""
    arguments = sys.argv[1:]
    only = _named_command(arguments)
    if only is not None:
        create_app(only)()
    elif arguments in ([], ["--help"], ["-h"]):
        create_help_app()()
    else:
        __getattr__("app")()


__all__ = [
    "COMMANDS",
    "COMMAND_MODULES",
    "COMMAND_SUMMARIES",
    "app",
    "create_app",
    "create_help_app",
    "family_command_modules",
    "main",
]
