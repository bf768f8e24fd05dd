"""Run directories of a two-player game with per-seat outcomes, written as the runner would.

The runner fills ``EpisodeRecord.agents`` once the per-API episode loops land, and the
turn-based games that record win / loss / draw come with them; until then these run
directories hold records built here, for a protocol on a registered game.
"""

from __future__ import annotations

import json
from pathlib import Path

from envsuite.evaluation.protocol import TaskProtocol
from envsuite.evaluation.record_store import RECORDS_FILE
from envsuite.evaluation.run_directory import RUN_FILE
from envsuite.records import EpisodeRecord, write_records
from tests.evaluation.metrics.game_records import duel

GAME = {"id": "envsuite/RepeatedGame-v0", "kwargs": {"game": "matching_pennies", "horizon": 4}}
LINEUP = "player_0=oracle,player_1=random"
SWAPPED = "player_0=random,player_1=oracle"


def write_run(path: Path, agent: str, records: list[EpisodeRecord], seeds: int) -> Path:
    protocol = TaskProtocol.model_validate(
        {
            "id": "duel",
            "envs": [GAME],
            "seeds": {"count": seeds},
            "seat_rotation": "all",
            "metrics": ["win_rate", "bradley_terry", "elo"],
        }
    )
    path.mkdir(parents=True)
    meta = {
        "run_id": path.name,
        "envsuite_version": "0.1.0",
        "agent": agent,
        "agent_options": {},
        "protocol": protocol.model_dump(mode="json"),
    }
    (path / RUN_FILE).write_text(json.dumps(meta), encoding="utf-8")
    write_records(path / RECORDS_FILE, records)
    return path


def oracle_duels(seeds: int, oracle_loses: set[int] = frozenset()) -> list[EpisodeRecord]:
    """oracle vs random, seats swapped per seed; the oracle wins unless its seed is listed."""
    records = []
    for seed in range(seeds):
        for attempt, lineup in enumerate([LINEUP, SWAPPED]):
            oracle_seat = "player_0" if lineup == LINEUP else "player_1"
            other = "player_1" if oracle_seat == "player_0" else "player_0"
            winner = other if seed in oracle_loses and attempt == 1 else oracle_seat
            if seed == 0 and attempt == 0:
                winner = None  # one draw
            records.append(
                duel(
                    seed,
                    attempt,
                    lineup,
                    winner,
                    task_id="duel",
                    env_id=GAME["id"],
                    env_kwargs=GAME["kwargs"],
                )
            )
    return records
