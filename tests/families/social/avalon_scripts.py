"""Writes ``golden/Avalon.json``: belief-bot games with refused actions spliced in.

Run ``python -m tests.families.social.avalon_scripts`` only when Avalon's version is
bumped; the golden test then pins the new digests.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import envsuite
from envsuite.families.social.avalon_bots import BeliefBot
from envsuite.testing.golden import transcript_digest

ENV_ID = "envsuite/Avalon-v0"
#: (kwargs, seed, {step index: the action sent instead of the bot's}).
CASES: list[tuple[dict[str, Any], int, dict[int, Any]]] = [
    (
        {"num_players": 5},
        0,
        {1: "dance", 4: "[approve]", 6: None, 9: "propose Alice, Alice", 14: "say: " + "x" * 400},
    ),
    (
        {
            "num_players": 10,
            "special_roles": ["merlin", "percival", "morgana", "mordred", "oberon", "assassin"],
            "discussion_rounds": 0,
        },
        1,
        {0: "assassinate Bob", 3: "[Reject]", 5: "fail", 8: "propose Zed, Bob"},
    ),
    ({"num_players": 6, "observation_mode": "vector"}, 2, {2: 999, 7: -1, 11: "approve", 20: 1}),
]


def script(kwargs: dict[str, Any], seed: int, splices: dict[int, Any]) -> list[Any]:
    """The actions of one game: a belief bot's for each mover, with ``splices`` sent instead."""
    env = envsuite.make(ENV_ID, **kwargs)
    bots = {agent: BeliefBot(env) for agent in env.possible_agents}
    env.reset(seed=seed)
    for index, bot in enumerate(bots.values()):
        bot.reset(seed * 100 + index)
    actions: list[Any] = []
    while not env.unwrapped.game.over:
        agent = env.agent_selection
        index = len(actions)
        action = splices[index] if index in splices else bots[agent].act(None, {})
        if hasattr(action, "item"):
            action = action.item()
        actions.append(action)
        env.step(action)
    return actions


def main() -> None:
    cases = []
    for kwargs, seed, splices in CASES:
        actions = script(kwargs, seed, splices)
        digest = transcript_digest(ENV_ID, kwargs, seed, actions)
        cases.append({"kwargs": kwargs, "seed": seed, "actions": actions, "sha256": digest})
    path = Path(__file__).parent / "golden" / "Avalon.json"
    path.write_text(json.dumps({"env_id": ENV_ID, "cases": cases}, indent=1) + "\n")


if __name__ == "__main__":
    main()
