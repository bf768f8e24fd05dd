"""One game of a social env played by bots, through envsuite's own AEC loop."""

from __future__ import annotations

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
