"""Checks of the turn rules every turn-based (``aec``) env keeps (see :mod:`envsuite.aec_env_base`).

- An action sent for an agent whose turn it is not (``step(action, agent=name)``) is
  refused with that agent's ``parse_error``, and does not pass the turn.
- PettingZoo's dead-step rule: a finished agent is stepped with None; any other action for
  it is refused with its ``parse_error``, never raised, and leaves it in ``env.agents``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from envsuite.registry import EnvSpec
from envsuite.testing.failures import fail
from envsuite.testing.rollout import MAX_ROLLOUT_STEPS, ActionChooser, make_for_test


def _legal_action(env: Any, agent: str, chooser: ActionChooser) -> Any:
    """A legal action of ``agent`` (from its ``action_mask`` or ``legal_actions``), or a sample."""
    info = env.infos.get(agent, {})
    mask = info.get("action_mask")
    if mask is not None and np.any(mask):
        return int(np.flatnonzero(mask)[0])
    return chooser.choose(env.action_space(agent), info)


def check_off_turn_action(spec: EnvSpec) -> None:
    """An action sent for an agent whose turn it is not is refused, without raising.

    The action is a legal one of the agent to move, sent in another agent's name, so
    only whose turn it is makes it wrong.
    """
    env = make_for_test(spec)
    env.reset(seed=0)
    mover = env.agent_selection
    others = [agent for agent in env.agents if agent != mover]
    if not others:
        env.close()
        return  # a one-agent game: every action is the mover's
    other = others[0]
    action = _legal_action(env, mover, ActionChooser(2))
    try:
        env.step(action, agent=other)
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise fail(
            spec, f"step(action, agent={other!r}) off-turn raised {type(exc).__name__}: {exc}"
        ) from exc
    if other in env.infos and not env.infos[other].get("parse_error"):
        raise fail(spec, f"an action sent for {other!r} while {mover!r} is to move was not refused")
    still_live = mover in env.agents and not (env.terminations[mover] or env.truncations[mover])
    if still_live and env.agent_selection != mover:
        raise fail(spec, f"a refused off-turn action passed the turn away from {mover!r}")
    env.close()


def check_dead_steps(spec: EnvSpec, cases: list[tuple[str, Callable[[], Any], bool]]) -> None:
    """PettingZoo's dead-step rule: a finished agent takes None; anything else is refused.

    Plays random actions until the agent to move is terminated or truncated (a game that
    does not finish an agent within ``MAX_ROLLOUT_STEPS`` steps is not checked here), then
    steps it with each malformed action (each must set its ``parse_error`` and keep it
    in ``env.agents``) and finally with None, which must remove it.
    """
    env = make_for_test(spec)
    env.reset(seed=0)
    chooser = ActionChooser(4)
    for _ in range(MAX_ROLLOUT_STEPS):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        if env.truncations[env.agent_selection]:
            break
        agent = env.agent_selection
        env.step(chooser.choose(env.action_space(agent), env.infos[agent]))
    if not env.agents:
        raise fail(spec, "every agent left the game without a dead step (step(None))")
    dead = env.agent_selection
    if not (env.terminations[dead] or env.truncations[dead]):
        env.close()
        return
    for name, make, _ in cases:
        if name == "None":
            continue  # None is the dead step itself, taken last
        try:
            env.step(make())
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            raise fail(
                spec, f"stepping finished agent {dead!r} with {name} raised {type(exc).__name__}"
            ) from exc
        if dead not in env.agents:
            raise fail(spec, f"stepping finished agent {dead!r} with {name} removed it")
        if not env.infos[dead].get("parse_error"):
            raise fail(spec, f"stepping finished agent {dead!r} with {name} set no parse_error")
    env.step(None)
    if dead in env.agents:
        raise fail(spec, f"step(None) did not remove finished agent {dead!r}")
    env.close()
