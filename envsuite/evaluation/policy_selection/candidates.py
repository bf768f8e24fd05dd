"""Candidate policies for selection: how they are written, checked and built.

On the command line a candidate (or the behaviour agent) is one string::

    [NAME=]AGENT[?KEY=VALUE[&KEY=VALUE...]]

``AGENT`` is any single-agent agent string (``random``, ``oracle``, ``openai:MODEL``,
``module:Class``); ``KEY=VALUE`` pairs are keyword arguments of the class (VALUE is read as
JSON when it parses, else as a string, as for ``--set``); ``NAME`` labels the candidate in
tables and defaults to ``Class(key=value, ...)``. Quote the string in a shell (``?`` and
``&`` are special)::

    'eps0.1=envsuite.families.decision.candidate_policies:EpsilonGreedy?epsilon=0.1'

A YAML file (``--candidates FILE``) holds a list of the same, as strings or mappings::

    - name: eps0.1
      agent: envsuite.families.decision.candidate_policies:EpsilonGreedy
      options: {epsilon: 0.1}
    - envsuite.families.decision.candidate_policies:Softmax?temperature=0.2
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from envsuite.agents.loading import load_agent
from envsuite.errors import EnvsuiteError
from envsuite.jsonable import to_jsonable
from envsuite.registry import EnvSpec
from envsuite.safe_load import MAX_DEPTH, DataFileError, check_depth, read_yaml

NAME = re.compile(r"^[A-Za-z0-9_.+-]+$")
#: Constructor parameters the agent loader fills in itself.
LOADER_PARAMETERS = frozenset({"env", "spec"})


class CandidateError(EnvsuiteError, ValueError):
    """A candidate string or file that cannot be used, with the reason."""


@dataclass(frozen=True)
class Candidate:
    """A policy to evaluate: a label, an agent string and its keyword options.

    Attributes:
        name: Label in tables and JSON.
        agent: Agent string (see :func:`envsuite.agents.loading.load_agent`).
        options: Keyword arguments for the agent.
    """

    name: str
    agent: str
    options: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``{"name", "agent", "options"}``."""
        return {"name": self.name, "agent": self.agent, "options": to_jsonable(self.options)}


def _value(text: str) -> Any:
    try:
        value = json.loads(text)
    except RecursionError as exc:
        raise DataFileError(f"a candidate option nests more than {MAX_DEPTH} levels deep") from exc
    except ValueError:
        return text
    return check_depth(value, "a candidate option")


def default_name(agent: str, options: dict[str, Any]) -> str:
    """``Class(key=value, ...)`` for ``module:Class`` agents, else the agent string."""
    base = agent.rpartition(":")[2] if ":" in agent and not agent.startswith("openai:") else agent
    if not options:
        return base
    shown = ", ".join(f"{key}={json.dumps(value)}" for key, value in options.items())
    return f"{base}({shown})"


def parse_candidate(text: str) -> Candidate:
    """Parse ``[NAME=]AGENT[?KEY=VALUE&...]`` (see the module doc).

    Raises:
        CandidateError: an empty agent, a malformed option or name.
    """
    text = text.strip()
    name = ""
    head, equals, rest = text.partition("=")
    if equals and not any(mark in head for mark in ":?&"):
        if not NAME.match(head):
            raise CandidateError(f"{text!r}: candidate name {head!r} must match {NAME.pattern}")
        name, text = head, rest
    agent, _, query = text.partition("?")
    agent = agent.strip()
    if not agent:
        raise CandidateError(f"{text!r} names no agent; expected [NAME=]AGENT[?KEY=VALUE&...]")
    options: dict[str, Any] = {}
    for item in filter(None, query.split("&")):
        key, equals, value = item.partition("=")
        if not equals or not key.strip().isidentifier():
            raise CandidateError(f"{text!r}: option {item!r} is not KEY=VALUE")
        options[key.strip()] = _value(value)
    return Candidate(name or default_name(agent, options), agent, options)


def _from_entry(entry: Any, where: str) -> Candidate:
    if isinstance(entry, str):
        return parse_candidate(entry)
    if not isinstance(entry, dict) or not isinstance(entry.get("agent"), str):
        raise CandidateError(f"{where}: expected a string or a mapping with 'agent'")
    unknown = set(entry) - {"name", "agent", "options"}
    options = entry.get("options") or {}
    if unknown or not isinstance(options, dict):
        raise CandidateError(f"{where}: keys are name, agent and options (a mapping)")
    name = str(entry.get("name") or default_name(entry["agent"], options))
    if not NAME.match(name) and "name" in entry:
        raise CandidateError(f"{where}: candidate name {name!r} must match {NAME.pattern}")
    return Candidate(name, entry["agent"], dict(options))


def load_candidates_file(path: str | Path) -> list[Candidate]:
    """Read a YAML list of candidates (see the module doc).

    Raises:
        CandidateError: unreadable, not YAML, or not a list of candidates.
    """
    try:
        data = read_yaml(path)
    except OSError as exc:
        raise CandidateError(f"cannot read candidates file {path}: {exc.strerror}") from exc
    except DataFileError as exc:
        raise CandidateError(str(exc)) from exc
    if not isinstance(data, list) or not data:
        raise CandidateError(f"{path} must hold a non-empty list of candidates")
    return [_from_entry(entry, f"{path}, entry {i + 1}") for i, entry in enumerate(data)]


def check_unique(candidates: list[Candidate]) -> None:
    """Raise :class:`CandidateError` when two candidates share a name."""
    seen: set[str] = set()
    for candidate in candidates:
        if candidate.name in seen:
            raise CandidateError(
                f"two candidates are named {candidate.name!r}; name them with NAME=AGENT"
            )
        seen.add(candidate.name)


def check_options(candidate: Candidate) -> None:
    """Reject options the agent would silently ignore.

    The agent loader passes a ``module:Class`` only the options its constructor names, so a
    misspelt option would otherwise be dropped without a word.

    Raises:
        CandidateError: options for ``random``/``oracle``, or names the class does not take.
    """
    if not candidate.options or candidate.agent.startswith("openai:"):
        return
    if ":" not in candidate.agent:
        raise CandidateError(f"candidate {candidate.name!r}: {candidate.agent!r} takes no options")
    module_name, _, attribute = candidate.agent.partition(":")
    try:
        target = getattr(importlib.import_module(module_name), attribute)
        parameters = inspect.signature(target).parameters
    except (ImportError, AttributeError, TypeError, ValueError):
        return  # the loader reports what cannot be imported
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return
    accepted = sorted(set(parameters) - LOADER_PARAMETERS)
    unknown = sorted(set(candidate.options) - set(accepted))
    if unknown:
        raise CandidateError(
            f"candidate {candidate.name!r}: {attribute} does not take {', '.join(unknown)} "
            f"(it takes: {', '.join(accepted) or 'no options'})"
        )


def build(candidate: Candidate, spec: EnvSpec, env: Any) -> Any:
    """Build the candidate's agent for ``env`` (made from ``spec``).

    Raises:
        CandidateError: unknown options.
        AgentLoadError: an agent string that names no agent, or a class that fails to build.
    """
    check_options(candidate)
    return load_agent(candidate.agent, spec, env, candidate.options)
