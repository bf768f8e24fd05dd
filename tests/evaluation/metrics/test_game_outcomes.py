from __future__ import annotations

import pytest

from envsuite.evaluation.metrics.game_outcomes import seat_results, win_rates
from envsuite.evaluation.metrics.wilson import wilson_interval
from envsuite.records import AgentOutcome
from tests.evaluation.metrics.game_records import duel, rotated_duels
from tests.evaluation.metrics.record_factory import make_record


def _rows(records, dimension):
    return {row.group: row for row in win_rates(records, [dimension])}


def test_rates_follow_the_agent_across_seats_and_the_seat_across_agents():
    # the first player wins every game: each agent wins exactly the games it played first
    records = rotated_duels([True, True, True, True])
    agents, seats, roles = (_rows(records, d) for d in ("agent", "seat", "role"))
    assert {name: (r.wins, r.losses) for name, r in agents.items()} == {
        "oracle": (4, 4),
        "random": (4, 4),
    }
    assert (seats["player_0"].wins, seats["player_0"].trials) == (8, 8)
    assert seats["player_1"].wins == 0
    assert roles["first"].win_rate == wilson_interval(8, 8)
    by_agent_role = _rows(records, "agent_role")
    assert by_agent_role["oracle as first"].wins == 4
    assert by_agent_role["oracle as second"].wins == 0


def test_draws_are_counted_apart_and_are_not_wins():
    records = [
        duel(0, 0, "player_0=a,player_1=b", "player_0"),
        duel(1, 0, "player_0=a,player_1=b", None),
        duel(2, 0, "player_0=a,player_1=b", None),
        duel(3, 0, "player_0=a,player_1=b", "player_1"),
    ]
    row = _rows(records, "agent")["a"]
    assert (row.wins, row.draws, row.losses, row.trials) == (1, 2, 1, 4)
    assert row.win_rate == wilson_interval(1, 4)
    assert row.draw_rate == wilson_interval(2, 4)


def test_teams_group_seats_and_dimensions_without_groups_give_no_rows():
    agents = {
        "p0": AgentOutcome(episode_return=1.0, outcome="win", team="red"),
        "p1": AgentOutcome(episode_return=1.0, outcome="win", team="red"),
        "p2": AgentOutcome(episode_return=0.0, outcome="loss", team="blue"),
    }
    record = make_record(agent_id="p0=a,p1=b,p2=c", agents=agents, episode_return={})
    rows = win_rates([record])
    teams = {r.group: (r.wins, r.trials) for r in rows if r.dimension == "team"}
    assert teams == {"blue": (0, 1), "red": (2, 2)}
    assert not [r for r in rows if r.dimension in ("role", "agent_role")]


def test_goal_outcomes_infra_errors_and_seatless_records_count_nowhere():
    goal = make_record(
        agent_id="random",
        agents={"player_0": AgentOutcome(episode_return=1.0, outcome="success")},
        episode_return={"player_0": 1.0},
    )
    lost = duel(1, 0, "player_0=a,player_1=b", "player_0", infra_error="docker died")
    old = make_record(seed=2, agent_id="random", episode_return={"player_0": 0.0})
    for records in ([goal, old], [lost]):
        assert seat_results(records) == []
        assert win_rates(records) == []


def test_a_plain_agent_string_sits_in_every_seat():
    results = seat_results([duel(0, 0, "random", "player_1")])
    assert [(r.seat, r.agent, r.outcome) for r in results[0]] == [
        ("player_0", "random", "loss"),
        ("player_1", "random", "win"),
    ]


def test_records_of_other_lineups_are_refused():
    records = [
        duel(0, 0, "player_0=a,player_1=b", "player_0"),
        duel(1, 0, "player_0=a,player_1=c", None),
    ]
    with pytest.raises(ValueError, match="several agents"):
        win_rates(records)


def test_the_same_seed_in_two_seatings_is_two_episodes_but_twice_one_is_refused():
    assert len(seat_results(rotated_duels([True]))) == 2
    twice = [duel(0, 0, "player_0=a,player_1=b", "player_0")] * 2
    with pytest.raises(ValueError, match="recorded twice"):
        win_rates(twice)
