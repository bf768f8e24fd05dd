"""Seats mix a chat agent on a loopback endpoint, a user class and the scripted bots."""

from __future__ import annotations

from typing import Any

import pytest

from envsuite.agents.scripted_endpoint import ScriptedEndpoint
from envsuite.evaluation.protocol import adhoc_protocol
from envsuite.evaluation.run_directory import evaluate


class FirstLegalAgent:
    """A user's own agent class: always the first legal action it is offered."""

    def __init__(self, action_space: Any = None) -> None:
        self.calls = 0

    def reset(self, seed: int | None = None) -> None:
        """Nothing to forget between games."""

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        """The first of ``info["legal_actions"]`` (None when the seat has nothing to do)."""
        legal = info.get("legal_actions") or []
        return legal[0] if legal else None


@pytest.mark.parametrize(
    ("env_id", "kwargs", "bots"),
    [
        (
            "envsuite/Werewolf-v0",
            {"num_players": 7},
            "envsuite.families.social.werewolf_bots:BeliefBot",
        ),
        (
            "envsuite/Avalon-v0",
            {"num_players": 5},
            "envsuite.families.social.avalon_bots:BeliefBot",
        ),
        (
            "envsuite/Mafia-v0",
            {"num_players": 6},
            "envsuite.families.social.werewolf_bots:BeliefBot",
        ),
        (
            "envsuite/AmongUs-v0",
            {"num_players": 5},
            "envsuite.families.social.amongus_bots:BeliefBot",
        ),
    ],
)
def test_a_chat_agent_a_user_class_and_bots_play_one_game(tmp_path, env_id, kwargs, bots):
    agent = f"player_0=openai:scripted,player_1={__name__}:FirstLegalAgent," + ",".join(
        f"player_{seat}={bots}" for seat in range(2, kwargs["num_players"])
    )
    with ScriptedEndpoint() as endpoint:
        result = evaluate(
            adhoc_protocol(env_id, kwargs, episodes=3, attempts=1),
            agent,
            tmp_path,
            agent_options={"base_url": endpoint.base_url},
            progress=False,
        )
        requests = list(endpoint.requests)
    assert len(result.records) == 3
    assert requests, "the chat seat never asked its endpoint"
    seats_that_acted: set[str] = set()
    for record in result.records:
        assert record.infra_error is None
        assert set(record.agents) == {f"player_{seat}" for seat in range(kwargs["num_players"])}
        outcomes = {outcome.outcome for outcome in record.agents.values()}
        # one team won, or the game ran out of time undecided (a draw for every seat)
        assert outcomes in ({"win", "loss"}, {"draw"})
        seats_that_acted |= {seat for step in record.trace for seat in step.action}
    # a seat killed on the first night never acts in that game; over the run both did
    assert {"player_0", "player_1"} <= seats_that_acted
