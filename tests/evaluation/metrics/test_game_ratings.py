from __future__ import annotations

import math

import pytest

from envsuite.evaluation.metrics.game_outcomes import SeatResult
from envsuite.evaluation.metrics.game_ratings import (
    agent_ratings,
    bootstrap_episode_ratings,
    elo_ratings,
    episode_matches,
    game_matches,
)
from tests.evaluation.metrics.game_records import duel, rotated_duels


def _seat(seat, agent, outcome, team=None):
    return SeatResult(0, seat, agent, outcome, None, team)


def test_a_duel_is_one_match_between_agents_never_seats():
    records = rotated_duels([True, False])
    assert game_matches(records) == [
        [("oracle", "random", 1.0)],  # seed 0, oracle first and the first seat wins
        [("random", "oracle", 1.0)],
        [("oracle", "random", 0.0)],  # seed 1, the second seat wins
        [("random", "oracle", 0.0)],
    ]


def test_draws_are_half_a_point_and_self_play_gives_no_match():
    assert episode_matches([_seat("p0", "a", "draw"), _seat("p1", "b", "draw")]) == [
        ("a", "b", 0.5)
    ]
    assert episode_matches([_seat("p0", "a", "win"), _seat("p1", "a", "loss")]) == []
    assert game_matches([duel(0, 0, "random", "player_0")]) == []


def test_team_mates_are_not_matched_and_each_member_meets_each_opponent():
    seats = [
        _seat("p0", "a", "win", "red"),
        _seat("p1", "b", "win", "red"),
        _seat("p2", "c", "loss", "blue"),
    ]
    assert episode_matches(seats) == [("a", "c", 1.0), ("b", "c", 1.0)]


def test_the_rating_is_of_the_agent_whatever_seat_it_sat_in():
    # oracle wins 3 of 4 games in each seat: a 3:1 record, a gap of 400·log10(3)
    wins = [("player_0", "player_1"), ("player_1", "player_0")]
    records = []
    for seed in range(4):
        for attempt, (oracle_seat, _) in enumerate(wins):
            lineup = (
                "player_0=oracle,player_1=random"
                if oracle_seat == "player_0"
                else "player_0=random,player_1=oracle"
            )
            other = "player_1" if oracle_seat == "player_0" else "player_0"
            records.append(duel(seed, attempt, lineup, oracle_seat if seed < 3 else other))
    rows = agent_ratings(records, reps=50)
    assert [row.agent for row in rows] == ["oracle", "random"]
    oracle, random = rows
    assert (oracle.matches, oracle.score) == (8, 0.75)
    gap = oracle.bradley_terry.estimate - random.bradley_terry.estimate
    assert gap == pytest.approx(400 * math.log10(3), abs=0.5)
    assert oracle.elo > 1000.0 > random.elo
    assert oracle.bradley_terry.low <= oracle.bradley_terry.estimate <= oracle.bradley_terry.high


def test_records_without_matches_are_a_clear_error():
    with pytest.raises(ValueError, match="no matches between different agents"):
        agent_ratings([duel(0, 0, "random", "player_0")])


def test_elo_follows_the_textbook_update():
    # equal ratings: expected score 1/2, the winner gains k/2
    assert elo_ratings([("a", "b", 1.0)], k=32) == {"a": 1016.0, "b": 984.0}
    after = elo_ratings([("a", "b", 1.0), ("a", "b", 1.0)], k=32)
    expected = 1.0 / (1.0 + 10 ** ((984.0 - 1016.0) / 400.0))
    assert after["a"] == pytest.approx(1016.0 + 32 * (1.0 - expected))
    assert sum(after.values()) == pytest.approx(2000.0)
    with pytest.raises(ValueError, match="K-factor"):
        elo_ratings([("a", "b", 1.0)], k=0)
    with pytest.raises(ValueError, match="play itself"):
        elo_ratings([("a", "a", 1.0)])


def test_the_episode_bootstrap_is_seeded_and_moves_whole_episodes():
    episodes = [[("a", "b", 1.0)]] * 6 + [[("a", "b", 0.0)]] * 3 + [[("b", "c", 0.5)]] * 4
    first = bootstrap_episode_ratings(episodes, reps=300, seed=3, ridge=0.0)
    assert first == bootstrap_episode_ratings(episodes, reps=300, seed=3, ridge=0.0)
    assert first != bootstrap_episode_ratings(episodes, reps=300, seed=4, ridge=0.0)
    assert all(i.low < i.estimate < i.high for i in first.values())
    # every match played twice within its episode: the same fit, and the same intervals,
    # since the bootstrap draws episodes, not matches (a match bootstrap would narrow them)
    doubled = bootstrap_episode_ratings(
        [matches * 2 for matches in episodes], reps=300, seed=3, ridge=0.0
    )
    for name, interval in first.items():
        assert doubled[name].estimate == pytest.approx(interval.estimate, abs=1e-6)
        assert doubled[name].low == pytest.approx(interval.low, abs=1e-6)
        assert doubled[name].high == pytest.approx(interval.high, abs=1e-6)
