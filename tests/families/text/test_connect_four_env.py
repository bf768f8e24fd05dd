"""ConnectFour-v0 as players use it: text and vector moves, refusals, outcomes, splits, oracle."""

from __future__ import annotations

import numpy as np
import pytest

import envsuite
from envsuite.families.text.connect_four import ConnectFourEnv
from envsuite.families.text.connect_four_oracle import connect_four_oracle
from envsuite.families.text.splits import split_of


def play(env, actions):
    for action in actions:
        env.step(action)


def test_text_moves_in_several_phrasings():
    env = ConnectFourEnv()
    env.reset(seed=0)
    play(env, ["column 4", "Col. 3", "I drop it in column #5.", " 2 "])
    assert env.unwrapped.board.moves == [3, 2, 4, 1]
    assert all(env.infos[agent]["parse_error"] is None for agent in env.agents)


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (7, "expected a move as text like 'column 4', got int"),
        ("somewhere in the middle", "no column found; answer like 'column 4'"),
        ("column 3 or column 5", "the answer names more than one column (column 3, column 5)"),
        ("column 8", "illegal move: there is no column 8 (columns are numbered 1 to 7)"),
    ],
)
def test_refused_text_moves_name_their_reason(action, reason):
    env = ConnectFourEnv()
    env.reset(seed=0)
    env.step(action)
    assert env.agent_selection == "player_0"
    assert env.infos["player_0"]["parse_error"].startswith(reason)
    assert env.rewards["player_0"] == pytest.approx(-0.1)
    assert reason.split(";")[0] in env.observe("player_0")


def test_a_full_column_is_an_invalid_action_naming_it():
    env = ConnectFourEnv(rows=4, cols=4)
    env.reset(seed=0)
    play(env, ["column 2"] * 4)
    env.step("column 2")
    assert env.infos["player_0"]["parse_error"] == "illegal move: column 2 is full"
    assert "column 2" not in env.infos["player_0"]["legal_actions"]


def test_a_win_pays_both_players_and_names_the_outcomes():
    env = ConnectFourEnv()
    env.reset(seed=0)
    play(env, ["column 1", "column 2"] * 3 + ["column 1"])
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert env.infos["player_0"]["outcome"] == "win"
    assert env.infos["player_1"]["outcome"] == "loss"
    assert "you won" in env.observe("player_0") and "you lost" in env.observe("player_1")


def test_a_full_board_is_a_draw():
    env = ConnectFourEnv(rows=2, cols=4, connect=3)
    env.reset(seed=0)
    play(env, [f"column {c + 1}" for c in (0, 1, 1, 0, 2, 2, 3, 3)])
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert {env.infos[a]["outcome"] for a in env.agents} == {"draw"}


def test_the_fourth_refusal_forfeits():
    env = ConnectFourEnv(max_invalid_moves=3)
    env.reset(seed=0)
    play(env, ["x"] * 4)
    assert env.infos["player_0"]["outcome"] == "loss" and env.infos["player_0"]["forfeit"]
    assert env.rewards["player_0"] == pytest.approx(-1.1)


def test_vector_planes_are_mine_then_the_opponents_for_both_seats():
    env = ConnectFourEnv(rows=4, cols=5, observation_mode="vector")
    env.reset(seed=0)
    play(env, [2, 2, 0])
    first, second = env.observe("player_0"), env.observe("player_1")
    assert first.shape == (3, 4, 5) and first.dtype == np.float32
    # Top row first: the bottom row is index 3.
    assert first[0, 3, 2] == 1 and first[0, 3, 0] == 1 and first[1, 2, 2] == 1
    assert np.array_equal(first[0], second[1]) and np.array_equal(first[1], second[0])
    assert first[2].sum() == 0 and second[2].all()  # player_1 to move
    assert env.infos["player_1"]["action_mask"].tolist() == [1, 1, 1, 1, 1]
    assert env.infos["player_0"]["action_mask"].tolist() == [0, 0, 0, 0, 0]


def test_the_text_board_is_fixed_width():
    env = ConnectFourEnv()
    env.reset(seed=0)
    play(env, ["column 4", "column 4"])
    text = env.observe("player_0")
    assert " 1 2 3 4 5 6 7\n|. . . . . . .|" in text
    assert "|. . . O . . .|\n|. . . X . . .|\n+-------------+" in text
    assert "Legal columns: 1, 2, 3, 4, 5, 6, 7." in text
    assert all(len(line) == 15 for line in env.board_rows()[1:])


def test_random_openings_follow_the_seed_and_the_split():
    env = ConnectFourEnv(rows=5, cols=6, random_opening_moves=6, split="val")
    keys = set()
    for seed in range(30):
        env.reset(seed=seed)
        key = env.instance_key()
        assert split_of("ConnectFour", key) == "val"
        assert len(env.board.moves) == 6 and not env.board.over
        keys.add(key)
        env.reset(seed=seed)
        assert env.instance_key() == key
    assert len(keys) >= 25


def test_an_odd_opening_gives_player_1_the_first_move():
    env = ConnectFourEnv(random_opening_moves=3)
    env.reset(seed=0)
    assert env.agent_selection == "player_1"
    assert env.infos["player_1"]["legal_actions"] and env.infos["player_0"]["legal_actions"] == []


def play_oracles(env, seed, seats):
    """Play one game; ``seats`` maps each agent to a function of (observation, info)."""
    env.reset(seed=seed)
    final = {}
    for agent in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = info
            env.step(None)
        else:
            env.step(seats[agent](observation, info))
    return final


@pytest.mark.parametrize("mode", ["text", "vector"])
def test_perfect_oracle_self_play_ends_as_the_solver_predicts(mode):
    env = envsuite.make(
        "envsuite/ConnectFour-v0", rows=4, cols=5, random_opening_moves=3, observation_mode=mode
    )
    oracle = connect_four_oracle(env)
    seats = {agent: seat.act for agent, seat in oracle.items()}
    for seed in range(12):
        final = play_oracles(env, seed, seats)
        assert env.unwrapped.episode_success(final) is True


def test_the_perfect_oracle_never_loses_to_random_play_from_a_won_or_drawn_start():
    env = ConnectFourEnv(rows=4, cols=5, random_opening_moves=2)
    oracle = connect_four_oracle(env)
    rng = np.random.default_rng(0)

    def random_seat(observation, info):
        legal = info["legal_actions"]
        return legal[int(rng.integers(len(legal)))]

    for seed in range(12):
        for oracle_seat in env.possible_agents:
            seats = {agent: random_seat for agent in env.possible_agents}
            seats[oracle_seat] = oracle[oracle_seat].act
            final = play_oracles(env, seed, seats)
            assert final[oracle_seat]["outcome"] in ("win", "draw")


def test_the_bot_plays_6x7_and_success_is_unknown_there():
    env = ConnectFourEnv(oracle_depth=2)
    oracle = connect_four_oracle(env)
    final = play_oracles(env, 0, {agent: seat.act for agent, seat in oracle.items()})
    assert {info["outcome"] for info in final.values()} <= {"win", "loss", "draw"}
    assert env.episode_success(final) is None


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rows": 10},
        {"connect": 9},
        {"random_opening_moves": 42},
        {"split": "test"},
        {"oracle_depth": 9},
        {"observation_mode": "grid"},
        {"max_invalid_moves": -1},
    ],
)
def test_bad_arguments_are_refused(kwargs):
    with pytest.raises(ValueError):
        ConnectFourEnv(**kwargs)
