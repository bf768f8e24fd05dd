"""``envsuite info ID``: a spec, its hash, its spaces and its documentation."""

from __future__ import annotations

import dataclasses
import inspect
import json
from typing import Annotated, Any

import typer
from rich.rule import Rule
from rich.table import Table

from envsuite.cli.console import line, plain, print_table, stdout, write_json
from envsuite.cli.env_kwargs import SetOption, format_kwargs, parse_assignments
from envsuite.cli.exits import USAGE, exit_with, reports_errors
from envsuite.cli.extras import extra_installed, install_command
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
    spec.load()  # a missing extra is reported before anything else
    data = describe(spec, kwargs)
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
    print_table(console, fields)
    config = f"with {format_kwargs(kwargs)}" if kwargs else "default config"
    line(console, f"spec hash ({config}): {data['spec_hash']}", "bold")

    spaces = Table(title="spaces", title_justify="left")
    spaces.add_column("agent" if spec.multi_agent else "", style="bold")
    spaces.add_column("observation space", overflow="fold")
    spaces.add_column("action space", overflow="fold")
    per_agent = data["spaces"].get("agents", {"": data["spaces"]})
    for agent, agent_spaces in per_agent.items():
        spaces.add_row(
            plain(agent), plain(agent_spaces["observation"]), plain(agent_spaces["action"])
        )
    print_table(console, spaces)
    # The docstring is laid out already; re-wrapping it at the console width would break
    # its indented sections.
    console.print(Rule("documentation", align="left"))
    line(console, data["docstring"])
