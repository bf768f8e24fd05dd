"""Seat rotation: every agent plays every seat, each seating an episode of its own."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from envsuite.errors import UnknownEnvError
from envsuite.evaluation.protocol import ProtocolError, TaskProtocol
from envsuite.evaluation.record_store import RECORDS_FILE
from envsuite.evaluation.run_directory import RunDirError, evaluate
from envsuite.records import read_records
from envsuite.registry import registry

GAME = {"id": "envsuite/RepeatedGame-v0", "kwargs": {"game": "prisoners_dilemma", "horizon": 6}}
LINEUP = "player_0=oracle,player_1=random"
SWAPPED = "player_0=random,player_1=oracle"
NIM_DUEL = Path(__file__).resolve().parents[2] / "tasks" / "nim-duel.yaml"


def _protocol(**fields):
    data = {"id": "rotation", "envs": [GAME], "seeds": {"count": 3}, **fields}
    return TaskProtocol.model_validate(data)


def test_every_seed_is_played_once_per_seating_with_keys_of_its_own():
    protocol = _protocol(seat_rotation="all", attempts=2)
    jobs = protocol.jobs("run", "player_1=random,player_0=oracle")
    assert [(j.seed, j.attempt, j.agent) for j in jobs if j.seed == 0] == [
        (0, 0, LINEUP),
        (0, 1, LINEUP),
        (0, 2, SWAPPED),
        (0, 3, SWAPPED),
    ]
    assert len({job.key for job in jobs}) == len(jobs) == 12
    assert protocol.plays_per_seed(LINEUP) == 4


def test_without_rotation_the_agent_string_is_kept_as_typed():
    jobs = _protocol().jobs("run", "player_1=random,player_0=oracle")
    assert {job.agent for job in jobs} == {"player_1=random,player_0=oracle"}
    assert [job.attempt for job in jobs] == [0, 0, 0]


def test_self_play_has_one_seating():
    assert len(_protocol(seat_rotation="all").jobs("run", "random")) == 3


def test_the_default_rotation_is_not_written_so_older_run_files_still_match():
    assert "seat_rotation" not in _protocol().model_dump(mode="json")
    assert _protocol(seat_rotation="cyclic").model_dump(mode="json")["seat_rotation"] == "cyclic"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"seat_rotation": "all", "metrics": ["pass@1"]}, "not repeated attempts"),
        ({"seat_rotation": "sometimes"}, "seat_rotation"),
    ],
)
def test_bad_rotations_are_clear_errors(fields, message):
    with pytest.raises(ValueError, match=message):
        _protocol(**fields)


def test_a_malformed_lineup_is_a_protocol_error():
    with pytest.raises(ProtocolError, match="named twice"):
        _protocol(seat_rotation="all").jobs("run", "player_0=oracle,player_0=random")


def test_a_rotated_run_resumes_each_seating_exactly_once(tmp_path):
    protocol = _protocol(seat_rotation="all")
    clean = evaluate(protocol, LINEUP, tmp_path / "clean", progress=False)
    assert clean.new == 6
    path = tmp_path / "run" / RECORDS_FILE
    evaluate(protocol, LINEUP, tmp_path / "run", progress=False)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:3]) + lines[3][: len(lines[3]) // 2])  # killed mid-write
    again = evaluate(protocol, LINEUP, tmp_path / "run", progress=False)
    assert (again.resumed, again.new) == (3, 3)
    records = read_records(path)
    assert sorted((r.seed, r.attempt, r.agent_id) for r in records) == [
        (seed, attempt, lineup)
        for seed in range(3)
        for attempt, lineup in enumerate([LINEUP, SWAPPED])
    ]

    def comparable(items):
        return {r.key: r.model_dump(exclude={"wall_time_s", "run_id"}) for r in items}

    assert comparable(records) == comparable(clean.records)
    # the seating was played as recorded: the prisoner's-dilemma oracle always defects
    for record in records:
        oracle_seat = "player_0" if record.agent_id == LINEUP else "player_1"
        assert {step.action[oracle_seat] for step in record.trace} == {"defect"}


def test_resuming_with_another_rotation_is_refused(tmp_path):
    evaluate(_protocol(seat_rotation="all"), LINEUP, tmp_path, progress=False)
    with pytest.raises(RunDirError, match="different run"):
        evaluate(_protocol(), LINEUP, tmp_path, progress=False)


def _nim_registered() -> bool:
    try:
        registry["envsuite/Nim-v0"]
    except UnknownEnvError:
        return False
    return True


def test_the_nim_duel_protocol_rotates_seats_and_asks_for_game_metrics():
    data = yaml.safe_load(NIM_DUEL.read_text(encoding="utf-8"))
    if _nim_registered():
        protocol = TaskProtocol.load(NIM_DUEL)
    else:
        with pytest.raises(ProtocolError, match="envsuite/Nim-v0"):
            TaskProtocol.load(NIM_DUEL)
        # the rest of the protocol, checked on a registered game
        protocol = TaskProtocol.model_validate({**data, "envs": [GAME]})
    assert protocol.id == "nim-duel"
    assert protocol.seat_rotation == "all"
    assert {"win_rate", "bradley_terry", "elo"} <= set(protocol.metrics)
    jobs = protocol.jobs("run", LINEUP)
    assert len(jobs) == 2 * len(protocol.seed_values())
    assert {job.agent for job in jobs} == {LINEUP, SWAPPED}
