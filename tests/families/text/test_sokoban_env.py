"""Sokoban-v0: move words, illegal moves named, deadlocks, info at the end, the oracle's bar."""

from __future__ import annotations

import numpy as np
import pytest

import envsuite
from envsuite.families.text.sokoban import SokobanEnv, _start_text
from envsuite.families.text.sokoban_oracle import sokoban_oracle
from envsuite.families.text.sokoban_rules import DIRECTIONS, layout_text
from envsuite.families.text.sokoban_solver import min_pushes, solve_moves
from envsuite.families.text.splits import split_of

SOKOBAN = "envsuite/Sokoban-v0"


def play_oracle(env, seed):
    oracle = sokoban_oracle(env)
    observation, info = env.reset(seed=seed)
    oracle.reset(seed)
    while True:
        observation, reward, terminated, truncated, info = env.step(oracle.act(observation, info))
        if terminated or truncated:
            return reward, info


def test_move_words_in_any_case():
    env = SokobanEnv()
    env.reset(seed=0)
    legal = env.board.legal()
    for k in legal:
        name = DIRECTIONS[k]
        for word in (name, name.upper(), name[0], ["north", "south", "west", "east"][k]):
            assert env.parse_action(word) == k
    assert env.step("jump")[4]["parse_error"] == (
        "expected a move (up, down, left or right); got 'jump'"
    )


def test_illegal_moves_name_the_rule_and_change_nothing():
    env = SokobanEnv()
    env.reset(seed=0, options={"level": "#######\n#     #\n#@$$ .#\n#    .#\n#######"})
    before = env.state_text()
    for move, message in (
        ("left", "left: a wall is in the way"),
        ("right", "right: a box cannot push another box"),
    ):
        _, reward, terminated, _, info = env.step(move)
        assert (info["parse_error"], reward, terminated) == (message, -0.1, False)
    assert env.state_text() == before
    env.reset(options={"level": "######\n#@$ .#\n#  $.#\n######"})
    env.step("right")
    env.step("right")
    assert env.step("right")[4]["parse_error"] == "right: the box would be pushed into a wall"


def test_legal_actions_and_mask_list_the_legal_moves():
    text, vector = SokobanEnv(), SokobanEnv(observation_mode="vector")
    _, info = text.reset(seed=5)
    observation, vinfo = vector.reset(seed=5)
    legal = text.board.legal()
    assert info["legal_actions"] == [DIRECTIONS[k] for k in legal]
    assert np.flatnonzero(vinfo["action_mask"]).tolist() == legal
    assert observation.shape == (4, 7, 7) and observation[3].sum() == 1
    assert observation[2].sum() == observation[1].sum() == 2


def test_the_text_is_the_standard_board_and_every_feedback_shows_it():
    env = SokobanEnv()
    observation, info = env.reset(seed=1)
    board_text = env.board.text()
    assert board_text in observation and set(board_text) <= set("#@+$*. \n")
    observation, *_ = env.step(info["legal_actions"][0])
    assert env.board.text() in observation and "moves: 1" in observation


def test_a_detected_deadlock_ends_the_episode_unless_asked_not_to():
    for end in (True, False):
        env = SokobanEnv(end_on_deadlock=end)
        env.reset(seed=0, options={"level": "#####\n#   #\n#@$.#\n#   #\n#####"})
        for move in ("up", "right"):
            env.step(move)
        observation, reward, terminated, _, info = env.step("down")
        assert terminated is end and reward == 0.0
        if end:
            assert "Deadlock" in observation and info["success"] is False
            assert info["score"] == 0.0


@pytest.mark.parametrize("split", ["train", "val", "test"])
def test_levels_fall_in_their_split_and_seeds_repeat(split):
    for seed in range(3):
        env, again = SokobanEnv(split=split), SokobanEnv(split=split)
        env.reset(seed=seed)
        again.reset(seed=seed)
        assert env.instance_key() == again.instance_key() == _start_text(env.certified)
        level = env.board.level
        assert split_of("sokoban", layout_text(level.width, level.height, level.walls)) == split


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"observation_mode": "vector"}, {"width": 6, "height": 6, "num_boxes": 1},
     {"width": 8, "height": 8, "num_boxes": 3, "history": "full"}],
    ids=str,
)  # fmt: skip
def test_oracle_solves_every_level_in_the_optimal_moves(kwargs):
    env = envsuite.make(SOKOBAN, **kwargs)
    for seed in range(15):
        reward, info = play_oracle(env, seed)
        assert reward == 1.0 and info["success"] and info["efficiency"] == 1.0
        assert info["moves"] == info["optimal_steps"]
        assert info["pushes"] >= info["optimal_pushes"] >= kwargs.get("num_boxes", 2) * 2
        level = env.unwrapped.certified.level
        assert len(solve_moves(level)) == info["optimal_steps"]
        assert min_pushes(level) == info["optimal_pushes"]


def test_oracle_recovers_from_a_detour():
    for seed in range(5):
        env = SokobanEnv()
        oracle = sokoban_oracle(env)
        observation, info = env.reset(seed=seed)
        oracle.reset(seed)
        board = env.board
        walk = next(
            k for k in board.legal() if board.player + board.level.step(k) not in board.boxes
        )
        observation, _, _, _, info = env.step(DIRECTIONS[walk])  # a step without a push
        for _ in range(100):
            observation, _, terminated, truncated, info = env.step(oracle.act(observation, info))
            if terminated or truncated:
                break
        # a step back undoes the detour, so the replanned play is at most two moves longer
        assert info["success"] and info["moves"] <= info["optimal_steps"] + 2


def test_a_level_of_your_own_is_certified_or_refused():
    env = SokobanEnv()
    env.reset(options={"level": "#######\n#@ $ .#\n#######"})
    assert env.optimal_steps == 3 and env.optimal_pushes == 2
    with pytest.raises(ValueError, match="no solution"):
        env.reset(options={"level": "#####\n#$ .#\n#@  #\n#####"})


def test_constructor_refuses_bad_sizes():
    for kwargs, message in (
        ({"width": 4}, "width must lie in"),
        ({"num_boxes": 5}, "num_boxes must lie in"),
        ({"height": 7.0}, "height must be an int"),
    ):
        with pytest.raises(ValueError, match=message):
            SokobanEnv(**kwargs)
