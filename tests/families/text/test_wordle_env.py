"""Wordle-v0 as an env: seeds, splits, bad guesses, text and vector views of one game."""

from __future__ import annotations

import numpy as np
import pytest

import envsuite
from envsuite.families.text.splits import split_of
from envsuite.families.text.wordle import split_answers
from envsuite.families.text.wordle_rules import lexicon

WORDLE = "envsuite/Wordle-v0"


def answer_of(env) -> str:
    return env.unwrapped.game.answer


def test_a_seed_names_one_answer_and_seeds_draw_independently():
    env, again = envsuite.make(WORDLE), envsuite.make(WORDLE)
    answers = []
    for seed in range(30):
        env.reset(seed=seed)
        again.reset(seed=seed)
        assert answer_of(env) == answer_of(again)
        answers.append(answer_of(env))
    assert len(set(answers)) > 25


@pytest.mark.parametrize("split", ["train", "val", "test"])
def test_each_split_draws_only_its_held_out_answers(split):
    env = envsuite.make(WORDLE, split=split, word_length=6)
    for seed in range(40):
        env.reset(seed=seed)
        assert split_of("wordle", answer_of(env)) == split
        assert answer_of(env) in split_answers(6, split)
    sizes = [len(split_answers(5, s)) for s in ("train", "val", "test")]
    assert sizes == [1850, 234, 234] and sum(sizes) == len(lexicon(5).answers)


def test_an_invalid_guess_costs_the_penalty_and_a_turn_but_no_guess():
    env = envsuite.make(WORDLE, max_guesses=2)
    env.reset(seed=0, options={"answer": "abbey"})
    for bad in ("zzzzz", "cat", "crane", "crane"):
        observation, reward, terminated, truncated, info = env.step(bad)
    assert info["parse_error"] == "'crane' was already guessed" and reward == -0.1
    assert (terminated, truncated) == (False, False)
    observation, reward, terminated, _, info = env.step("guess: Fuzzy")
    assert terminated and reward == 0.0 and info["success"] is False
    assert observation.endswith("out of guesses, the word was abbey")


def test_the_text_shows_marks_first_then_words_and_a_board():
    env = envsuite.make(WORDLE, history="summary")
    env.reset(seed=0, options={"answer": "abbey"})
    observation, *_ = env.step("babes")
    assert observation.endswith(
        "guesses left: 5 of 6\n1. babes  Y Y G G .\ngreen: b@3 e@4 | yellow: a | absent: s\n\n"
        "babes -> Y Y G G .  (b yellow, a yellow, b green, e green, s grey); 5 guesses left"
    )
    last = envsuite.make(WORDLE)
    last.reset(seed=0, options={"answer": "abbey"})
    observation, *_ = last.step("[babes]")
    assert observation == (
        "babes -> Y Y G G .  (b yellow, a yellow, b green, e green, s grey); 5 guesses left"
    )
    observation, reward, terminated, _, info = last.step("abbey")
    assert observation.endswith("solved in 2 guesses") and reward == 1.0 and terminated
    assert info["success"] is True


def test_the_vector_board_holds_letters_and_marks_and_the_mask_drops_played_guesses():
    env = envsuite.make(WORDLE, observation_mode="vector")
    lex = lexicon(5)
    observation, info = env.reset(seed=0, options={"answer": "abbey"})
    assert observation.shape == (6, 5, 29) and not observation.any()
    assert info["action_mask"].sum() == len(lex.guesses)
    observation, _, _, _, info = env.step(lex.guess_index["babes"])
    row = observation[0]
    assert ["".join(chr(97 + int(np.argmax(c[:26]))) for c in row)] == ["babes"]
    assert row[:, 26:].argmax(axis=1).tolist() == [1, 1, 2, 2, 0]
    assert not observation[1:].any()
    assert info["action_mask"][lex.guess_index["babes"]] == 0
    assert info["action_mask"].sum() == len(lex.guesses) - 1


def test_in_hard_mode_the_mask_is_exactly_the_guesses_the_env_accepts():
    env = envsuite.make(WORDLE, observation_mode="vector", hard_mode=True, word_length=4)
    lex = lexicon(4)
    env.reset(seed=3)
    _, _, _, _, info = env.step(lex.guess_index["tale"])
    game = env.unwrapped.game
    accepted = np.array([game.refusal(w) is None for w in lex.guesses], dtype=np.int8)
    assert np.array_equal(info["action_mask"], accepted)


def test_bad_settings_are_refused_by_name():
    with pytest.raises(ValueError, match="word_length must be one of 4, 5, 6, 7"):
        envsuite.make(WORDLE, word_length=8)
    with pytest.raises(ValueError, match="max_guesses must be an int"):
        envsuite.make(WORDLE, max_guesses=0)
    with pytest.raises(ValueError, match="hard_mode must be a bool"):
        envsuite.make(WORDLE, hard_mode="yes")
    env = envsuite.make(WORDLE)
    with pytest.raises(ValueError, match="options\\['answer'\\] must be a word"):
        env.reset(seed=0, options={"answer": "zzzzz"})
