"""Per-agent outcomes of a multi-agent episode: role, team, own outcome and return.

A game with winners, teams or roles reports them in each agent's final ``info``:

- ``info["outcome"]``: ``"win"``, ``"loss"`` or ``"draw"`` (games), or ``"success"`` /
  ``"failure"`` (an agent with a goal of its own); when absent, a boolean
  ``info["success"]`` gives ``"success"`` / ``"failure"``;
- ``info["role"]`` and ``info["team"]``: strings, where the game has them.

:func:`agent_outcomes` reads them into the :class:`~envsuite.records.AgentOutcome` entries
an :class:`~envsuite.records.EpisodeRecord` keeps per agent. The env-level ``success`` of
a multi-agent episode is not derived from these: each env defines it in its
``episode_success`` hook (see the multi-agent bases), and documents it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, get_args

from envsuite.records import AgentOutcome, Outcome

#: The outcome words an env may put in ``info["outcome"]``.
OUTCOMES: tuple[str, ...] = get_args(Outcome)


def agent_outcome(episode_return: float, info: Mapping[str, Any]) -> AgentOutcome:
    """One agent's entry, from its return and its last ``info``.

    Raises:
        ValueError: ``info["outcome"]`` is not one of :data:`OUTCOMES`, or ``role`` /
            ``team`` is not a string (an env bug, which tests should see).
    """
    outcome = info.get("outcome")
    if outcome is None and info.get("success") is not None:
        outcome = "success" if bool(info["success"]) else "failure"
    if outcome is not None and outcome not in OUTCOMES:
        raise ValueError(f"info['outcome'] must be one of {OUTCOMES}, got {outcome!r}")
    for key in ("role", "team"):
        if info.get(key) is not None and not isinstance(info[key], str):
            raise ValueError(f"info[{key!r}] must be a string, got {info[key]!r}")
    return AgentOutcome(
        episode_return=float(episode_return),
        outcome=outcome,
        role=info.get("role"),
        team=info.get("team"),
    )


def agent_outcomes(
    agents: Iterable[str],
    returns: Mapping[str, float],
    final_infos: Mapping[str, Mapping[str, Any]],
) -> dict[str, AgentOutcome]:
    """Every agent's entry (``agents`` in order; a missing return or info counts as 0 / {})."""
    return {
        name: agent_outcome(returns.get(name, 0.0), final_infos.get(name, {})) for name in agents
    }


def episode_success(env: Any, final_infos: Mapping[str, Mapping[str, Any]]) -> bool | None:
    """The env-level success of a finished multi-agent episode, as the env defines it.

    Asks the raw env's ``episode_success(final_infos)`` hook (declared on the envsuite
    multi-agent bases, ``None`` by default); envs from elsewhere have no such hook and get
    ``None``.
    """
    hook = getattr(getattr(env, "unwrapped", env), "episode_success", None)
    if hook is None:
        return None
    value = hook(final_infos)
    return None if value is None else bool(value)
