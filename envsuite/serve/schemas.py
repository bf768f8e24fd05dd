"""OpenEnv's ``GET /schema``: JSON schemas of a served env's actions, observations and state."""

from __future__ import annotations

from typing import Any

from envsuite.registry import EnvSpec

_VALUE = {"description": "a value encoded by envsuite.remote.wire (exact JSON)"}
_FLAGS = {"type": "object", "additionalProperties": {"type": "boolean"}}
_PER_AGENT = {"type": "object", "additionalProperties": _VALUE}


def _action(spec: EnvSpec) -> dict[str, Any]:
    if spec.api == "parallel":
        properties: dict[str, Any] = {
            "actions": {"type": "object", "description": "each live agent's action"}
        }
        return {"title": "Action", "type": "object", "properties": properties}
    properties = {"action": _VALUE}
    required = ["action"]
    if spec.multi_agent:
        properties["agent"] = {
            "type": "string",
            "description": "who acts (default: the agent to move)",
        }
    return {"title": "Action", "type": "object", "properties": properties, "required": required}


def _observation(spec: EnvSpec) -> dict[str, Any]:
    if not spec.multi_agent:
        properties: dict[str, Any] = {
            "observation": _VALUE,
            "info": {"type": "object"},
            "terminated": {"type": "boolean"},
            "truncated": {"type": "boolean"},
        }
    else:
        properties = {
            "agents": {"type": "array", "items": {"type": "string"}},
            "observations": _PER_AGENT,
            "rewards": _PER_AGENT,
            "terminations": _FLAGS,
            "truncations": _FLAGS,
            "infos": _PER_AGENT,
        }
        if spec.api == "aec":
            properties["agent_selection"] = {"type": ["string", "null"]}
            properties["cumulative_rewards"] = _PER_AGENT
    return {"title": "Observation", "type": "object", "properties": properties}


def openenv_schemas(spec: EnvSpec) -> dict[str, Any]:
    """``{"action", "observation", "state"}`` schemas of ``spec``'s served form."""
    state = {
        "title": "State",
        "type": "object",
        "properties": {
            "episode_id": {"type": ["string", "null"]},
            "step_count": {"type": "integer", "minimum": 0},
            "session_id": {"type": "string"},
            "env_id": {"type": "string"},
            "spec_hash": {"type": ["string", "null"]},
        },
    }
    return {"action": _action(spec), "observation": _observation(spec), "state": state}
