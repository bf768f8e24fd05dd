"""A panel board's round robin: what it plays, the fixed panel ratings, and edits refused."""

from __future__ import annotations

import pytest

from envsuite.agents.lineup import parse_lineup
from envsuite.evaluation.metrics.ratings import bradley_terry_strengths
from envsuite.jsonable import canonical_json
from envsuite.leaderboard.board import load_board_version
from envsuite.leaderboard.board_admin import publish
from envsuite.leaderboard.errors import BoardError, FrozenBoardError
from envsuite.leaderboard.panel import (
    PANEL_FILE,
    panel_ratings,
    panel_strengths,
    round_robin_jobs,
)
from envsuite.records import read_records, write_records


def test_the_round_robin_plays_every_pair_from_both_seats(panel_copy):
    board = panel_copy
    jobs = round_robin_jobs(board.protocol)
    # one pair (random, oracle) x 2 envs x 3 seeds x 2 seat orders
    assert len(jobs) == 1 * 2 * 3 * 2
    assert len({job.key for job in jobs}) == len(jobs)
    for job in jobs:
        seats = parse_lineup(job.agent)
        first = "panel:random" if job.attempt == 0 else "panel:oracle"
        assert seats["player_0"] == first
        assert set(seats.values()) == {"panel:random", "panel:oracle"}
    keys = [(j.task_id, j.env_id, canonical_json(j.env_kwargs), j.seed, j.attempt) for j in jobs]
    assert [record.key for record in board.panel_records] == keys


def test_the_panel_strengths_are_the_bradley_terry_fit_of_its_games(panel_copy):
    board = panel_copy
    strengths = panel_strengths(board.panel_records, ["random", "oracle"])
    matches = []
    for record in board.panel_records:
        seats = parse_lineup(record.agent_id)
        a, b = seats["player_0"], seats["player_1"]
        points = {"win": 1.0, "draw": 0.5, "loss": 0.0}[str(record.agents["player_0"].outcome)]
        matches.append((a, b, points))
    fitted = bradley_terry_strengths(matches)
    assert strengths["oracle"] == pytest.approx(fitted["panel:oracle"], abs=1e-9)
    assert strengths["random"] == pytest.approx(fitted["panel:random"], abs=1e-9)
    assert strengths["oracle"] > strengths["random"]


def test_panel_ratings_are_anchored_at_the_first_opponent_and_reproducible(panel_copy):
    records = panel_copy.panel_records
    one = panel_ratings(records, ["random", "oracle"], reps=100, confidence=0.95, seed=0)
    two = panel_ratings(records, ["random", "oracle"], reps=100, confidence=0.95, seed=0)
    assert one == two
    assert one.ratings["random"].estimate == 1000.0
    assert one.ratings["oracle"].estimate == pytest.approx(one.to_rating(one.strengths["oracle"]))
    low, high = one.ratings["oracle"].low, one.ratings["oracle"].high
    assert low <= one.ratings["oracle"].estimate <= high


def test_a_draft_with_a_game_missing_from_its_round_robin_is_refused(panel_copy):
    path = panel_copy.path
    records = read_records(path / PANEL_FILE)
    write_records(path / PANEL_FILE, records[1:])
    with pytest.raises(BoardError, match="lacks 1 game"):
        load_board_version(path)


def test_a_round_robin_game_with_another_lineup_is_refused(panel_copy):
    path = panel_copy.path
    records = read_records(path / PANEL_FILE)
    data = records[0].model_dump()
    data["agent_id"] = "player_0=panel:oracle,player_1=panel:random"
    records[0] = type(records[0]).model_validate(data)
    write_records(path / PANEL_FILE, records)
    with pytest.raises(BoardError, match="not the game the round robin plays"):
        load_board_version(path)


def test_a_panel_board_without_its_games_is_refused(panel_copy):
    (panel_copy.path / PANEL_FILE).unlink()
    with pytest.raises(BoardError, match=f"holds no {PANEL_FILE}"):
        load_board_version(panel_copy.path)


def test_publishing_freezes_the_panels_games(panel_copy):
    root = panel_copy.path.parent.parent
    publish(root, "mini-2p")
    assert PANEL_FILE in (panel_copy.path / "FROZEN.sha256").read_text()
    records = read_records(panel_copy.path / PANEL_FILE)
    data = records[-1].model_dump()
    data["wall_time_s"] = 1.0  # even a field no check reads is frozen
    write_records(panel_copy.path / PANEL_FILE, [*records[:-1], type(records[-1])(**data)])
    with pytest.raises(FrozenBoardError, match=PANEL_FILE):
        load_board_version(panel_copy.path)
