"""One game of a social env played by bots, through envsuite's own AEC loop."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from envsuite.episodes import TERMINATED, TRUNCATED, run_aec_episode


def play(env: Any, seats: dict[str, Any], seed: int, limit: int = 20_000) -> dict[str, Any]:
    """Play one game of ``env`` with ``seats`` (agent -> bot); return each agent's last info.

    Bot ``i`` (in ``seats`` order) is reset with seed ``seed * 100 + i``; more than ``limit``
    actions fail the test (a game that never ends).
    """
    for index, bot in enumerate(seats.values()):
        bot.reset(seed * 100 + index)

    def too_long(steps: int) -> str | None:
        return f"the game did not end within {limit} actions" if steps >= limit else None

    result = run_aec_episode(
        env,
        seed,
        lambda agent, observation, info: seats[agent].act(observation, info),
        stop=too_long,
    )
    assert result.stop_reason in (TERMINATED, TRUNCATED), result.stop_reason
    return dict(result.final_info)


def play_probed(
    env: Any,
    seats: dict[str, Any],
    seed: int,
    on_probe: Callable[[str, dict[str, Any], Any], None] | None = None,
    answer: Callable[[str, dict[str, Any]], Any] | None = None,
    limit: int = 20_000,
) -> tuple[dict[str, Any], dict[str, float]]:
    """Play one game of ``env`` with ``seats``; return each agent's final info and reward.

    Bot ``i`` is reset with seed ``seed * 100 + i``. ``on_probe(agent, info, action)`` sees
    every belief probe and its answer; ``answer(agent, info)``, when given, answers the
    probes instead of the seat's bot. At most ``limit`` agent-steps are played.
    """
    env.reset(seed=seed)
    for index, bot in enumerate(seats.values()):
        bot.reset(seed * 100 + index)
    final, rewards = {}, {}
    for agent in env.agent_iter(limit):
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent], rewards[agent] = info, reward
            env.step(None)
            continue
        probe = bool(info.get("probe"))
        action = (
            answer(agent, info)
            if probe and answer is not None
            else seats[agent].act(observation, info)
        )
        if probe and on_probe is not None:
            on_probe(agent, info, action)
        env.step(action)
    return final, rewards


def measured_discussion(game: Any, measures: Any, script: dict[int, Any], idle: Any) -> dict:
    """Play ``game``'s discussion phase from ``script`` (seat -> action; ``idle`` otherwise).

    ``measures`` hears every action as the env tells it. Returns each speaker's
    :class:`~envsuite.families.social.social_measures.SpeechReward` by seat.
    """
    discussion = game.phase
    while game.phase is discussion:
        seat = game.to_move
        action = script.get(seat, idle)
        measures.before_action(game, seat, action)
        game.apply(seat, action)
        measures.after_action(game, seat, action)
        measures.after_change(game)
    return {speech.seat: speech for speech in measures.speeches}
