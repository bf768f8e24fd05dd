"""Mastermind: feedback with repeated colours, the rules' order, splits, and the oracle's bar."""

from __future__ import annotations

import numpy as np
import pytest

import envsuite
from envsuite.families.text.mastermind import MastermindEnv, split_codes
from envsuite.families.text.mastermind_oracle import mastermind_oracle
from envsuite.families.text.mastermind_rules import (
    MastermindGame,
    MastermindRules,
    feedback,
    feedback_key,
)
from envsuite.families.text.mastermind_solver import guess_counts, strategy_for


def code(text):
    return tuple(int(c) - 1 for c in text)


@pytest.mark.parametrize(
    ("secret", "guess", "expected"),
    [
        ("1122", "1211", (1, 2)),  # the guess's third 1 finds no partner
        ("1234", "4321", (0, 4)),
        ("1111", "1122", (2, 0)),
        ("1122", "2211", (0, 4)),
        ("1234", "1234", (4, 0)),
        ("1234", "5656", (0, 0)),
        ("1123", "3111", (1, 2)),
    ],
)
def test_feedback_counts_each_peg_of_the_code_once(secret, guess, expected):
    assert feedback(code(secret), code(guess)) == expected
    assert feedback(code(guess), code(secret)) == expected  # feedback is symmetric


@pytest.mark.parametrize(
    "rules", [MastermindRules(), MastermindRules(4, 5, False), MastermindRules(5, 4, True)]
)
def test_the_code_table_feedback_agrees_with_the_definition(rules):
    table = rules.codes()
    rng = np.random.default_rng(0)
    guesses = rng.integers(len(table), size=30)
    answers = rng.integers(len(table), size=40)
    keys = table.feedback_keys(guesses, answers)
    for i, g in enumerate(guesses):
        for j, a in enumerate(answers):
            black, white = feedback(table.codes[a], table.codes[g])
            assert keys[i, j] == feedback_key(black, white, rules.code_length)


def test_settings_count_their_codes():
    assert MastermindRules().count == len(MastermindRules().codes()) == 1296
    assert MastermindRules(4, 6, False).count == len(MastermindRules(4, 6, False).codes()) == 360
    no_repeats = MastermindRules(3, 5, False).codes()
    assert all(len(set(c)) == 3 for c in no_repeats.codes)
    with pytest.raises(ValueError, match="needs at least as many colours"):
        MastermindRules(5, 4, False)
    with pytest.raises(ValueError, match="at most 100000 are supported"):
        MastermindRules(8, 9, True)


def test_knuth_minimax_solves_every_classic_code_in_at_most_five_guesses():
    rules = MastermindRules(4, 6, True)
    strategy = strategy_for(rules)
    assert strategy.table.codes[strategy.next_guess(())] == code("1122")  # Knuth's opening
    counts = guess_counts(rules)
    assert len(counts) == 1296 and max(counts) == 5
    # Knuth (1976): 5801 guesses in all, a mean of 4.476.
    assert sum(counts) == 5801
    print(f"Knuth minimax, 4 pegs 6 colours: max {max(counts)}, mean {sum(counts) / 1296:.4f}")


@pytest.mark.parametrize(
    ("rules", "worst"),
    [
        (MastermindRules(4, 6, False), 5),
        (MastermindRules(3, 5, True), 5),
        (MastermindRules(4, 8, False), 6),
        (MastermindRules(5, 4, True), 6),
        (MastermindRules(1, 9, True), 9),
    ],
)
def test_other_settings_are_solved_within_the_default_budget(rules, worst):
    counts = guess_counts(rules)
    assert max(counts) <= worst <= 10


def test_large_settings_use_consistent_candidates_within_the_budget():
    rules = MastermindRules(5, 8, True)
    secrets = np.random.default_rng(5).integers(rules.count, size=60).tolist()
    assert max(guess_counts(rules, secrets)) <= 10


def test_a_game_records_guesses_and_ends():
    game = MastermindGame(MastermindRules(2, 3), code("12"), max_guesses=2)
    assert game.guess(code("21")) == (0, 2) and not game.over
    assert game.guessed(code("21")) and not game.guessed(code("12"))
    assert game.guess(code("33")) == (0, 0) and game.over and not game.won
    with pytest.raises(ValueError, match="the game is over"):
        game.guess(code("12"))


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("1 2 x 4", "'x' is not a colour; colours are the numbers 1 to 6"),
        ("1 2 3", "a code has 4 pegs; the guess has 3"),
        ("12345", "a code has 4 pegs; the guess has 5"),
        ("1 2 3 7", "there is no colour 7; colours are 1 to 6"),
        ("0 1 2 3", "there is no colour 0; colours are 1 to 6"),
        ("1 1 2 3", "colour 1 appears more than once; colours may not repeat in this game"),
        ("1 2 3 4", "you already guessed 1 2 3 4; each guess must be new"),
    ],
)
def test_each_rule_is_named_and_checked_in_order(answer, message):
    env = MastermindEnv(repeats=False)
    env.reset(seed=0)
    if env.game.secret == code("1234"):
        env.reset(seed=1)
    assert env.step("[1,2,3,4]")[4]["parse_error"] is None
    observation, reward, _, _, info = env.step(answer)
    assert info["parse_error"] == message and reward == -0.1
    assert observation == f"Invalid action: {message}" and len(env.game.guesses) == 1


def test_guesses_run_out_into_a_loss_that_reveals_the_code():
    env = MastermindEnv(code_length=2, num_colours=9, max_guesses=2)
    env.reset(seed=3)
    wrong = [c for c in ("1 1", "2 2", "3 3") if code(c.replace(" ", "")) != env.game.secret]
    env.step(wrong[0])
    observation, reward, terminated, truncated, info = env.step(wrong[1])
    secret = " ".join(str(c + 1) for c in env.game.secret)
    assert (reward, terminated, truncated, info["success"]) == (0.0, True, False, False)
    assert observation.endswith(f"No guesses left; the code was {secret}.")


def test_the_vector_board_and_mask_follow_the_text():
    env = MastermindEnv(observation_mode="vector")
    board, info = env.reset(seed=4)
    assert board.shape == (10, 6) and not board.any() and info["action_mask"].all()
    index = env.table.index[code("1122")]
    board, _, _, _, info = env.step(index)
    black, white = env.game.guesses[0][1]
    assert board[0].tolist() == [1, 1, 2, 2, black, white] and not board[1:].any()
    assert info["action_mask"][index] == 0 and info["action_mask"].sum() == 1295
    assert (
        env.step(index)[4]["parse_error"] == "you already guessed 1 1 2 2; each guess must be new"
    )
    assert env.step("1122")[4]["parse_error"].startswith("expected code index (int)")


def test_secrets_come_from_their_split_only():
    counts = {
        split: len(split_codes("mastermind", MastermindRules(), split))
        for split in ("train", "val", "test")
    }
    assert sum(counts.values()) == 1296 and counts == {"train": 1020, "val": 125, "test": 151}
    for split in ("train", "val", "test"):
        env = MastermindEnv(split=split)
        members = set(split_codes("mastermind", MastermindRules(), split).tolist())
        for seed in range(30):
            env.reset(seed=seed)
            assert env.secret_index in members


def test_a_split_without_codes_is_refused_by_name():
    with pytest.raises(ValueError, match="holds no code of 1x2r"):
        for split in ("train", "val", "test"):
            MastermindEnv(code_length=1, num_colours=2, split=split)


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"observation_mode": "vector"}, {"repeats": False}, {"code_length": 5, "num_colours": 7}],
)
def test_the_oracle_cracks_every_seed_in_its_own_count(kwargs):
    env = envsuite.make("envsuite/Mastermind-v0", **kwargs)
    oracle = mastermind_oracle(env)
    for seed in range(25):
        observation, info = env.reset(seed=seed)
        oracle.reset(seed=seed)
        done = False
        while not done:
            observation, _, done, truncated, info = env.step(oracle.act(observation, info))
            assert info["parse_error"] is None and not truncated
        assert info["success"] and info["turn"] == env.unwrapped.optimal_steps
        assert info["efficiency"] == 1.0
    if not kwargs:
        assert env.unwrapped.optimal_steps <= 5


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"code_length": 0}, "code_length must be a positive int"),
        ({"num_colours": 10}, "num_colours must be from 2 to 9"),
        ({"repeats": 1}, "repeats must be True or False"),
        ({"max_guesses": True}, "max_guesses must be a positive int"),
    ],
)
def test_bad_settings_are_refused_by_name(kwargs, message):
    with pytest.raises(ValueError, match=message):
        MastermindEnv(**kwargs)
