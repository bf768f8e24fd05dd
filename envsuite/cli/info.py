"""``envsuite info ID``: a spec, its hash, its spaces and its documentation."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import json
import sys
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.rule import Rule
from rich.table import Table

from envsuite.cli.console import line, plain, stderr, stdout, write_json
from envsuite.cli.env_kwargs import SetOption, format_kwargs, parse_assignments
from envsuite.cli.exits import USAGE, exit_with, reports_errors
from envsuite.cli.extras import extra_installed, install_command
from envsuite.errors import MissingExtraError
from envsuite.jsonable import to_jsonable
from envsuite.registry import EnvSpec, registry

EnvIdArgument = Annotated[
    str, typer.Argument(metavar="ID", help="An environment id, e.g. envsuite/Bandit-v0.")
]


def register(app: typer.Typer) -> None:
    """Add ``info`` to ``app``."""
    app.command("info")(info)


def make_env(spec: EnvSpec, kwargs: dict[str, Any], **options: Any) -> Any:
    """Make ``spec``'s env, turning a rejected argument value into a usage error (exit 2).

    Envs validate their arguments in their constructors with ``ValueError``/``TypeError``;
    on the command line those come from ``--set``, so they are the user's to fix.
    """
    try:
        return spec.make(**kwargs, **options)
    except (ValueError, TypeError) as exc:
        shown = f" with {format_kwargs(kwargs)}" if kwargs else ""
        exit_with(f"could not make {spec.id}{shown}: {exc}", USAGE)


def describe_spaces(spec: EnvSpec, env: Any) -> dict[str, Any]:
    """Observation and action spaces: ``{"observation", "action"}`` or per agent."""
    if spec.multi_agent:
        return {
            "agents": {
                agent: {
                    "observation": str(env.observation_space(agent)),
                    "action": str(env.action_space(agent)),
                }
                for agent in env.possible_agents
            }
        }
    return {"observation": str(env.observation_space), "action": str(env.action_space)}


def describe(spec: EnvSpec, kwargs: dict[str, Any]) -> dict[str, Any]:
    """Everything ``info`` shows, as JSON-ready data."""
    env = make_env(spec, kwargs)
    try:
        spaces = describe_spaces(spec, env)
    finally:
        env.close()
    return {
        "spec": to_jsonable(dataclasses.asdict(spec)),
        "kwargs": to_jsonable(kwargs),
        "spec_hash": spec.hash_for(kwargs),
        "spaces": spaces,
        "extra_installed": None if spec.extra is None else extra_installed(spec.extra),
        "docstring": inspect.getdoc(spec.load()) or "",
    }


def _module_file(name: str) -> Path | None:
    """The source file of module ``name``, found without importing it or its packages."""
    locations: list[str] | None = list(sys.path)
    found = None
    for part in name.split("."):
        found = PathFinder.find_spec(part, locations)
        if found is None:
            return None
        locations = list(found.submodule_search_locations or [])
    origin = found.origin if found is not None else None
    return Path(origin) if origin and origin.endswith(".py") else None


def source_docstring(entry_point: str) -> str | None:
    """The docstring of an entry point's class or function, read from its source file.

    Nothing is imported, so this works when the env's optional dependencies are missing
    (which is when a user most wants to read what the env is before installing them).

    Returns:
        The cleaned docstring, or None when the source or the definition is not found
        (e.g. the entry point is assigned rather than defined, or the file is compiled).
    """
    module_name, _, attribute = entry_point.partition(":")
    path = _module_file(module_name)
    if path is None:
        return None
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None
    for node in tree.body:
        definitions = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
        if isinstance(node, definitions) and node.name == attribute:
            return ast.get_docstring(node)
    return None


def describe_without_extra(spec: EnvSpec, kwargs: dict[str, Any], missing: str) -> dict[str, Any]:
    """What ``info`` can show while the env's extra is missing: the spec and its docs.

    The spec hash (which needs the constructor's defaults) and the spaces (which need an
    env) are None; ``missing_extra`` holds the message naming the pip command.
    """
    return {
        "spec": to_jsonable(dataclasses.asdict(spec)),
        "kwargs": to_jsonable(kwargs),
        "spec_hash": None,
        "spaces": None,
        "extra_installed": False,  # whatever the metadata says, an import just failed
        "docstring": source_docstring(spec.entry_point) or "",
        "missing_extra": missing,
    }


@reports_errors
def info(
    env_id: EnvIdArgument,
    assignments: SetOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Show an environment's spec, spec hash, observation/action spaces and documentation.

    The env is made with its default keyword arguments, or with those given by --set, and
    the spec hash is that configuration's.
    """
    spec = registry[env_id]
    kwargs = parse_assignments(assignments)
    try:
        data = describe(spec, kwargs)
    except MissingExtraError as exc:
        data = describe_without_extra(spec, kwargs, str(exc))
        line(stderr(), f"{exc} (the spec and documentation follow)", "yellow")
    if as_json:
        write_json(data)
        return

    console = stdout()
    fields = Table(title=spec.id, title_justify="left", show_header=False)
    fields.add_column("field", style="bold")
    fields.add_column("value", overflow="fold")
    for name, value in data["spec"].items():
        shown = value if isinstance(value, str) else json.dumps(value)
        if name == "extra" and spec.extra is not None:
            status = {True: "installed", False: "missing", None: "unknown"}
            shown += f" ({status[data['extra_installed']]}; {install_command(spec.extra)})"
        fields.add_row(plain(name), plain(shown))
    console.print(fields)  # values fold at the console width: nothing is cut
    config = f"with {format_kwargs(kwargs)}" if kwargs else "default config"
    if data["spec_hash"] is None:
        needs = install_command(spec.extra) if spec.extra else "its dependencies"
        line(console, f"spec hash ({config}) and spaces: shown once installed ({needs})", "bold")
    else:
        line(console, f"spec hash ({config}): {data['spec_hash']}", "bold")
        _print_spaces(console, spec, data["spaces"])
    # The docstring is laid out already; re-wrapping it at the console width would break
    # its indented sections.
    console.print(Rule("documentation", align="left"))
    line(console, data["docstring"] or "(no documentation could be read from the source)")


def _print_spaces(console: Console, spec: EnvSpec, described: dict[str, Any]) -> None:
    spaces = Table(title="spaces", title_justify="left")
    spaces.add_column("agent" if spec.multi_agent else "", style="bold")
    spaces.add_column("observation space", overflow="fold")
    spaces.add_column("action space", overflow="fold")
    per_agent = described.get("agents", {"": described})
    for agent, agent_spaces in per_agent.items():
        spaces.add_row(
            plain(agent), plain(agent_spaces["observation"]), plain(agent_spaces["action"])
        )
    console.print(spaces)
