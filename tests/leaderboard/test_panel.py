"""A panel board's round robin: what it plays, the fixed panel ratings, and edits refused."""

from __future__ import annotations

import pytest
import yaml

import envsuite
from envsuite.agents.lineup import parse_lineup
from envsuite.evaluation.metrics.ratings import bradley_terry_strengths
from envsuite.jsonable import canonical_json
from envsuite.leaderboard.baseline_agents import HalfOracle
from envsuite.leaderboard.board import load_board_version
from envsuite.leaderboard.board_admin import create_board, publish
from envsuite.leaderboard.errors import BoardError, FrozenBoardError
from envsuite.leaderboard.panel import (
    PANEL_FILE,
    panel_ratings,
    panel_strengths,
    round_robin_jobs,
)
from envsuite.records import read_records, write_records
from envsuite.registry import registry
from tests.leaderboard.helpers import PANEL_PROTOCOL


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
    strengths = panel_strengths(board.panel_records, board.protocol)
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
    protocol = panel_copy.protocol
    one = panel_ratings(records, protocol, reps=100, confidence=0.95, seed=0)
    two = panel_ratings(records, protocol, reps=100, confidence=0.95, seed=0)
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


def test_a_panel_board_ranks_by_its_rating_only(tmp_path):
    protocol = tmp_path / "mini-2p.yaml"
    protocol.write_text(yaml.safe_dump(PANEL_PROTOCOL), encoding="utf-8")
    with pytest.raises(BoardError, match="ranks by bradley_terry, not success_rate"):
        create_board(tmp_path / "leaderboards", protocol, metric="success_rate")
    assert not (tmp_path / "leaderboards" / "mini-2p").exists()


def test_half_oracle_plays_the_oracles_move_about_half_the_time():
    env = envsuite.make("envsuite/ConnectFour-v0", rows=3, cols=4, connect=3)
    spec = registry["envsuite/ConnectFour-v0"]
    half = HalfOracle(env, spec)
    oracle = spec.load_oracle()(env)
    agree = total = 0
    for seed in range(40):
        env.reset(seed=seed)
        half.reset(seed)
        seat = env.agent_selection
        info = env.infos[seat]
        move = half.act(env.observe(seat), info)
        assert move in info["legal_actions"]
        agree += move == oracle[seat].act(env.observe(seat), info)
        total += 1
    # the oracle's move, or a random one of 4 columns that is the oracle's 1 time in 4
    assert 0.45 < agree / total < 0.95
    env.close()
