from __future__ import annotations

import pytest

from envsuite.agents.lineup import (
    LineupError,
    format_lineup,
    is_panel_agent,
    panel_agent,
    panel_play,
    panel_seatings,
    parse_lineup,
    seat_agents,
    seat_order,
    seatings,
    unpanelled,
)


def test_seats_sort_with_numbers_as_numbers():
    assert sorted(["player_10", "player_2", "player_1"], key=seat_order) == [
        "player_1",
        "player_2",
        "player_10",
    ]


def test_format_is_canonical_whatever_order_the_seats_were_written_in():
    assert format_lineup(parse_lineup("player_1=random, player_0=oracle")) == (
        "player_0=oracle,player_1=random"
    )


@pytest.mark.parametrize(
    ("agent", "message"),
    [
        ("player_0=oracle,player_0=random", "named twice"),
        ("player_0=", "is not NAME=AGENT"),
        ("player_0=oracle,random", "is not NAME=AGENT"),
        ("random", "assigns no seats"),
    ],
)
def test_bad_lineups_are_clear_errors(agent, message):
    with pytest.raises(LineupError, match=message):
        parse_lineup(agent)


def test_seat_agents_fills_unnamed_seats_with_random_and_plain_strings_everywhere():
    assert seat_agents("player_1=oracle", ["player_0", "player_1"]) == {
        "player_0": "random",
        "player_1": "oracle",
    }
    assert seat_agents("oracle", ["a", "b"]) == {"a": "oracle", "b": "oracle"}


def test_two_seats_swap_under_every_schedule():
    swapped = ["player_0=oracle,player_1=random", "player_0=random,player_1=oracle"]
    assert seatings("player_1=random,player_0=oracle", "cyclic") == swapped
    assert seatings("player_0=oracle,player_1=random", "all") == swapped


def test_cyclic_shifts_every_agent_one_seat_per_seating():
    assert seatings("s0=a,s1=b,s2=c", "cyclic") == [
        "s0=a,s1=b,s2=c",
        "s0=c,s1=a,s2=b",
        "s0=b,s1=c,s2=a",
    ]


def test_all_gives_every_permutation_once_in_a_fixed_order():
    result = seatings("s0=a,s1=b,s2=c", "all")
    assert len(result) == len(set(result)) == 6
    assert result[0] == "s0=a,s1=b,s2=c"
    assert result == seatings("s2=c,s0=a,s1=b", "all")  # written order does not matter
    # each agent sits in each seat twice
    for seat in ("s0", "s1", "s2"):
        assert sorted(parse_lineup(r)[seat] for r in result) == ["a", "a", "b", "b", "c", "c"]


def test_repeated_seatings_are_dropped_and_no_rotation_keeps_the_string():
    assert seatings("player_0=random,player_1=random", "all") == ["player_0=random,player_1=random"]
    assert seatings("s0=a,s1=a,s2=b", "all") == [
        "s0=a,s1=a,s2=b",
        "s0=a,s1=b,s2=a",
        "s0=b,s1=a,s2=a",
    ]
    assert seatings("random", "all") == ["random"]
    assert seatings("player_1=random,player_0=oracle", "none") == [
        "player_1=random,player_0=oracle"
    ]


def test_all_over_too_many_seats_is_refused():
    agent = ",".join(f"p{i}=a{i}" for i in range(8))
    with pytest.raises(LineupError, match="use 'cyclic'"):
        seatings(agent, "all")
    assert len(seatings(agent, "cyclic")) == 8


def test_a_panel_plays_each_opponent_from_both_seats_in_a_fixed_order():
    lineups = panel_seatings("mine", ["random", "oracle"], ["player_1", "player_0"])
    assert lineups == [
        "player_0=mine,player_1=panel:random",
        "player_0=panel:random,player_1=mine",
        "player_0=mine,player_1=panel:oracle",
        "player_0=panel:oracle,player_1=mine",
    ]
    assert [panel_play(p) for p in range(4)] == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_a_panel_keeps_an_agent_named_like_an_opponent_apart():
    lineups = panel_seatings("random", ["random"], ["player_0", "player_1"])
    assert lineups == [
        "player_0=random,player_1=panel:random",
        "player_0=panel:random,player_1=random",
    ]
    assert is_panel_agent("panel:random") and not is_panel_agent("random")
    assert unpanelled("panel:oracle") == "oracle" and panel_agent("oracle") == "panel:oracle"


def test_a_panel_of_a_many_seat_game_seats_the_agent_once_in_every_seat():
    seats = ["player_2", "player_0", "player_1"]
    lineups = panel_seatings("mine", ["random", "oracle"], seats)
    assert lineups[:3] == [
        "player_0=mine,player_1=panel:random,player_2=panel:random",
        "player_0=panel:random,player_1=mine,player_2=panel:random",
        "player_0=panel:random,player_1=panel:random,player_2=mine",
    ]
    assert lineups[5] == "player_0=panel:oracle,player_1=panel:oracle,player_2=mine"
    assert [panel_play(p, 3) for p in (0, 2, 3, 5)] == [(0, 0), (0, 2), (1, 0), (1, 2)]


@pytest.mark.parametrize(
    ("agent", "opponents", "seats", "message"),
    [
        ("mine", ["random"], ["a"], "two or more seats"),
        ("player_0=mine", ["random"], ["player_0", "player_1"], "names one agent"),
        ("panel:random", ["random"], ["player_0", "player_1"], "names one agent"),
        ("mine", [], ["player_0", "player_1"], "at least one opponent"),
    ],
)
def test_bad_panels_are_clear_errors(agent, opponents, seats, message):
    with pytest.raises(LineupError, match=message):
        panel_seatings(agent, opponents, seats)
