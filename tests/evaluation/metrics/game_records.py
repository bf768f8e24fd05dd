"""Records of two-player and team games, as the runner writes them with per-seat outcomes."""

from __future__ import annotations

from typing import Any

from envsuite.records import AgentOutcome, EpisodeRecord
from tests.evaluation.metrics.record_factory import make_record

ROLES = {"player_0": "first", "player_1": "second"}


def duel(
    seed: int, attempt: int, agent_id: str, winner: str | None, **overrides: Any
) -> EpisodeRecord:
    """A two-player episode: ``winner`` (a seat) wins, the other loses; None is a draw."""
    agents = {
        seat: AgentOutcome(
            episode_return=0.0 if winner is None else (1.0 if seat == winner else -1.0),
            outcome="draw" if winner is None else ("win" if seat == winner else "loss"),
            role=role,
        )
        for seat, role in ROLES.items()
    }
    returns = {seat: outcome.episode_return for seat, outcome in agents.items()}
    fields: dict[str, Any] = dict(
        env_id="envsuite/Nim-v0",
        task_id="nim-duel",
        agent_id=agent_id,
        seed=seed,
        attempt=attempt,
        episode_return=returns,
        agents=agents,
    )
    fields.update(overrides)
    return make_record(**fields)


def rotated_duels(first_wins: list[bool]) -> list[EpisodeRecord]:
    """oracle vs random with seats swapped at every seed; the first seat wins when told."""
    records = []
    for seed, first in enumerate(first_wins):
        for attempt, lineup in enumerate(
            ["player_0=oracle,player_1=random", "player_0=random,player_1=oracle"]
        ):
            records.append(duel(seed, attempt, lineup, "player_0" if first else "player_1"))
    return records
