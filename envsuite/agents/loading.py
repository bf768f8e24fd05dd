"""Turning an agent string into agents for a made env.

A ``module:Class`` agent is imported with the current working directory first on
``sys.path``, as ``python -m``, pytest and uvicorn find a project's own modules, so
``envsuite eval ... --agent my_pkg:MyAgent`` run beside ``my_pkg/`` finds it although the
``envsuite`` command's own path is the directory of its script. The working directory is
on ``sys.path`` only while that import runs (and is not added twice): imports the agent's
module makes at import time see it, later top-level imports of other modules from the
working directory do not (imports of the package's own submodules always work).
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import os
import sys
from collections.abc import Iterator, Mapping
from typing import Any

from envsuite.agent_protocol import Agent
from envsuite.agents.lineup import (
    LineupError,
    is_lineup,
    is_panel_agent,
    parse_lineup,
    seat_agents,
    unpanelled,
)
from envsuite.agents.random_agent import RandomAgent
from envsuite.errors import UsageError
from envsuite.registry import EnvSpec

#: What an agent string builds: one agent, or one per agent name for multi-agent envs.
AgentFactory = Agent | Mapping[str, Agent]

AGENT_FORMS = "'random', 'oracle', 'openai:MODEL', 'module:Class', or 'NAME=AGENT,...'"


class AgentLoadError(UsageError):
    """An agent string that names no agent, or an agent that does not fit the env."""


def load_agent(
    agent: str, spec: EnvSpec, env: Any, options: Mapping[str, Any] | None = None
) -> AgentFactory:
    """Build the agent(s) an agent string names, for ``env`` (made from ``spec``).

    Args:
        agent: ``random``, ``oracle``, ``openai:MODEL``, ``module:Class``; for multi-agent
            envs also ``player_0=oracle,player_1=random`` (agents not named play ``random``;
            a panel opponent ``panel:AGENT`` plays as ``AGENT``, without ``options``).
        spec: The env's spec.
        env: The made env (multi-agent specs: either PettingZoo form; both give
            ``possible_agents`` and ``action_space(agent)``).
        options: Keyword arguments for the chat agent (``base_url``, ``api_key``, ...) or
            the ``module:Class`` constructor (which gets those its signature names, plus
            ``env`` and ``spec`` when it asks for them).

    Returns:
        One agent for single-agent envs; a mapping from agent name to agent otherwise.
    """
    options = dict(options or {})
    if spec.multi_agent:
        return _load_multi_agent(agent, spec, env, options)
    if is_lineup(agent):
        raise AgentLoadError(
            f"{agent!r} seats agents by name, which multi-agent envs take; {spec.id} is "
            "single-agent: give one agent ('random', 'oracle', 'openai:MODEL' or 'module:Class')"
        )
    return _load_one(agent, spec, env, env.action_space, options)


def check_agent_string(agent: str) -> None:
    """Refuse an agent string that names no agent, before anything is made or written.

    Checks the form of every seat's agent and imports ``module:Class`` targets; whether the
    agent fits a given env (an oracle exists, the seat names are the env's) is checked when
    it is built (:func:`load_agent`).

    Raises:
        AgentLoadError: the string (or one seat's agent) is no agent string, or its
            ``module:Class`` cannot be imported.
    """
    if is_lineup(agent):
        try:
            values = list(parse_lineup(agent).values())
        except LineupError as exc:
            raise AgentLoadError(str(exc)) from exc
    else:
        values = [agent]
    for value in values:
        if value in ("random", "oracle") or value.startswith("openai:"):
            continue
        if ":" not in value:
            raise AgentLoadError(f"unknown agent {value!r}; an agent string is {AGENT_FORMS}")
        _import_attribute(value)


def _load_multi_agent(
    agent: str, spec: EnvSpec, env: Any, options: dict[str, Any]
) -> dict[str, Agent]:
    names = list(env.possible_agents)
    if is_lineup(agent):
        try:
            chosen = parse_lineup(agent)
        except LineupError as exc:
            raise AgentLoadError(f"{exc} (agents of {spec.id}: {', '.join(names)})") from exc
        unknown = [name for name in chosen if name not in names]
        if unknown:
            raise AgentLoadError(
                f"{unknown[0]!r} does not name an agent of {spec.id} (agents: {', '.join(names)})"
            )
    wanted = seat_agents(agent, names)
    oracles: AgentFactory | None = None
    built: dict[str, Agent] = {}
    for name, written in wanted.items():
        # A panel's reference opponent plays as its agent string, with no caller options.
        value = unpanelled(written)
        own_options = {} if is_panel_agent(written) else options
        if value == "oracle":
            if oracles is None:
                oracles = _oracle(spec, env)
            if not isinstance(oracles, Mapping):
                raise AgentLoadError(f"the oracle of {spec.id} is not a per-agent mapping")
            built[name] = oracles[name]
        else:
            one = _load_one(value, spec, env, env.action_space(name), own_options)
            if not isinstance(one, Agent):
                raise AgentLoadError(f"{value!r} built a per-agent mapping for one agent")
            built[name] = one
    return built


def _oracle(spec: EnvSpec, env: Any) -> AgentFactory:
    if spec.oracle is None:
        raise AgentLoadError(f"{spec.id} has no oracle")
    oracle: AgentFactory = spec.load_oracle()(env)
    return oracle


def _load_one(
    agent: str, spec: EnvSpec, env: Any, action_space: Any, options: dict[str, Any]
) -> AgentFactory:
    if agent == "random":
        return RandomAgent(action_space)
    if agent == "oracle":
        return _oracle(spec, env)
    if agent.startswith("openai:"):
        from envsuite.agents.chat_agent import ChatAgent

        return ChatAgent(model=agent.removeprefix("openai:"), **options)
    if ":" in agent:
        return _load_class(agent, spec, env, options)
    raise AgentLoadError(f"unknown agent {agent!r}; an agent string is {AGENT_FORMS}")


@contextlib.contextmanager
def _working_directory_importable() -> Iterator[str]:
    """The working directory first on ``sys.path`` for the duration (see the module doc)."""
    here = os.getcwd()
    if any(os.path.abspath(entry or os.curdir) == here for entry in sys.path):
        yield here
        return
    sys.path.insert(0, here)
    try:
        yield here
    finally:
        with contextlib.suppress(ValueError):  # the import may have removed it itself
            sys.path.remove(here)


def _import_attribute(agent: str) -> Any:
    """The object ``module:attribute`` names, the working directory importable.

    Raises:
        AgentLoadError: naming the module or attribute that could not be found (and where
            modules were looked for), or what importing the module raised.
    """
    module_name, _, attribute = agent.partition(":")
    if not module_name or not attribute:
        raise AgentLoadError(f"unknown agent {agent!r}; an agent string is {AGENT_FORMS}")
    with _working_directory_importable() as here:
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise AgentLoadError(
                f"cannot import agent {agent!r}: {exc} (looked in the working directory "
                f"{here} and on the Python path)"
            ) from exc
        except Exception as exc:  # the agent's own module failed while being imported
            raise AgentLoadError(
                f"cannot import agent {agent!r}: importing {module_name!r} raised "
                f"{type(exc).__name__}: {exc}"
            ) from exc
    try:
        return getattr(module, attribute)
    except AttributeError as exc:
        raise AgentLoadError(f"cannot import agent {agent!r}: {exc}") from exc


def _load_class(agent: str, spec: EnvSpec, env: Any, options: dict[str, Any]) -> Agent:
    target = _import_attribute(agent)
    try:
        parameters = inspect.signature(target).parameters
    except (TypeError, ValueError):  # builtins and some C types have no signature
        parameters = inspect.Signature().parameters
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    kwargs = {k: v for k, v in options.items() if takes_any or k in parameters}
    if "env" in parameters:
        kwargs["env"] = env
    if "spec" in parameters:
        kwargs["spec"] = spec
    try:
        built = target(**kwargs)
    except Exception as exc:
        raise AgentLoadError(f"cannot build agent {agent!r}: {type(exc).__name__}: {exc}") from exc
    if not isinstance(built, Agent):
        raise AgentLoadError(f"{agent!r} built {type(built).__name__}, which lacks reset/act")
    return built
