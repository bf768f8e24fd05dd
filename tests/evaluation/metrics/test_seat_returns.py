from __future__ import annotations

import pytest

from envsuite.evaluation.metrics.seat_returns import group_returns
from tests.evaluation.metrics.game_records import duel, rotated_duels
from tests.evaluation.metrics.record_factory import make_record


def _rows(records, dimension, **kwargs):
    return {row.group: row for row in group_returns(records, [dimension], reps=200, **kwargs)}


def test_returns_follow_the_agent_across_seats():
    # the first seat wins (+1) every game; each agent played first once per seed
    records = rotated_duels([True, True, True])
    agents, seats = _rows(records, "agent"), _rows(records, "seat")
    assert agents["oracle"].mean_return.estimate == 0.0
    assert (agents["oracle"].episodes, agents["oracle"].trials) == (6, 6)
    assert seats["player_0"].mean_return.estimate == 1.0
    assert seats["player_1"].mean_return.estimate == -1.0
    assert _rows(records, "agent_role")["random as first"].mean_return.estimate == 1.0


def test_records_without_per_agent_entries_use_their_per_agent_returns():
    records = [
        make_record(
            seed=s,
            agent_id="player_0=a,player_1=b",
            episode_return={"player_0": s, "player_1": 1.0},
        )
        for s in range(4)
    ]
    rows = _rows(records, "agent")
    assert rows["a"].mean_return.estimate == pytest.approx(1.5)
    assert rows["b"].mean_return.estimate == 1.0
    assert rows["b"].mean_return.low == rows["b"].mean_return.high == 1.0
    assert not _rows(records, "role")  # no roles recorded


def test_self_play_counts_both_seats_of_an_episode_and_resamples_whole_episodes():
    records = [duel(seed, 0, "random", "player_0") for seed in range(5)]
    row = _rows(records, "agent")["random"]
    assert (row.episodes, row.trials) == (5, 10)
    # every episode sums to 0 over its two seats: no resample can move the mean
    assert row.mean_return.low == row.mean_return.high == 0.0


def test_the_interval_is_seeded():
    records = [
        duel(seed, 0, "player_0=a,player_1=b", "player_0" if seed % 3 else "player_1")
        for seed in range(9)
    ]
    first = _rows(records, "agent", seed=1)["a"].mean_return
    assert first == _rows(records, "agent", seed=1)["a"].mean_return
    assert first.low < first.estimate < first.high


def test_single_agent_records_give_no_rows():
    assert group_returns([make_record()], reps=10) == []
