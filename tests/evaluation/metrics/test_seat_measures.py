from __future__ import annotations

import math

import pytest

from envsuite.evaluation.metrics.seat_measures import group_measures
from envsuite.records import AgentOutcome
from tests.evaluation.metrics.record_factory import make_record

ROLES = {
    "player_0": ("werewolf", "werewolves"),
    "player_1": ("seer", "village"),
    "player_2": ("villager", "village"),
}


def _game(seed, metrics, agent_id="player_0=a,player_1=b,player_2=b", **overrides):
    agents = {
        seat: AgentOutcome(episode_return=0.0, outcome="loss", role=role, team=team)
        for seat, (role, team) in ROLES.items()
    }
    return make_record(
        env_id="envsuite/Werewolf-v0",
        agent_id=agent_id,
        seed=seed,
        episode_return={seat: 0.0 for seat in ROLES},
        agents=agents,
        metrics=metrics,
        **overrides,
    )


def _rows(records, **kwargs):
    return {
        (row.key, row.dimension, row.group): row
        for row in group_measures(records, reps=200, **kwargs)
    }


def test_means_by_agent_role_and_team_are_ratio_means_over_seats():
    records = [
        _game(
            0,
            {
                "player_0/probe_brier": 0.1,
                "player_1/probe_brier": 0.2,
                "player_2/probe_brier": 0.4,
                "player_0/deception": 0.6,
            },
        ),
        _game(1, {"player_1/probe_brier": 0.3, "player_2/success": 1.0}),
    ]
    rows = _rows(records)
    assert rows["probe_brier", "agent", "a"].mean.estimate == pytest.approx(0.1)
    b = rows["probe_brier", "agent", "b"]
    assert b.mean.estimate == pytest.approx((0.2 + 0.4 + 0.3) / 3)
    assert (b.episodes, b.seats) == (2, 3)
    assert rows["probe_brier", "team", "village"].mean.estimate == pytest.approx(0.3)
    assert rows["probe_brier", "role", "seer"].mean.estimate == pytest.approx(0.25)
    assert rows["probe_brier", "agent_role", "b as villager"].seats == 1
    assert rows["deception", "role", "werewolf"].mean.estimate == pytest.approx(0.6)
    assert ("deception", "role", "seer") not in rows  # not recorded there: not counted
    assert not any(key == "success" for key, _, _ in rows)  # reported elsewhere
    keys = [row.key for row in group_measures(records, reps=10)]
    assert keys == sorted(keys)


def test_whole_episodes_are_resampled_and_the_interval_is_seeded():
    records = [
        _game(seed, {"player_1/speaking_reward": float(seed), "player_2/speaking_reward": -seed})
        for seed in range(6)
    ]
    village = _rows(records)["speaking_reward", "team", "village"].mean
    assert village.low == village.high == village.estimate == 0.0  # each episode sums to 0
    seer = _rows(records, seed=3)["speaking_reward", "role", "seer"].mean
    assert seer == _rows(records, seed=3)["speaking_reward", "role", "seer"].mean
    assert seer.low < seer.estimate == 2.5 < seer.high


def test_infra_errors_and_non_finite_values_are_left_out():
    records = [
        _game(0, {"player_1/probe_log": 0.5, "player_2/probe_log": math.inf}),
        _game(1, {"player_1/probe_log": 9.0}, infra_error="sandbox lost"),
    ]
    rows = _rows(records)
    assert rows["probe_log", "role", "seer"].mean.estimate == 0.5
    assert ("probe_log", "role", "villager") not in rows


def test_records_without_per_seat_metrics_give_no_rows():
    assert group_measures([_game(0, {"regret": 1.0})], reps=10) == []
    assert group_measures([make_record(metrics={"player_0/x": 1.0})], reps=10) == []
