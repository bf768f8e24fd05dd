"""Hangman-v0: the rules, both views of a game, splits, and the oracle's win rate."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import envsuite
from envsuite.families.text.hangman import VECTOR_SIZE, split_words
from envsuite.families.text.hangman_oracle import hangman_solver
from envsuite.families.text.hangman_rules import HangmanGame
from envsuite.families.text.splits import split_of

HANGMAN = "envsuite/Hangman-v0"


def test_a_letter_reveals_every_copy_and_a_miss_costs_a_life():
    game = HangmanGame("apple", 3)
    assert game.guess("p") and game.pattern == "_pp__" and game.lives == 3
    assert not game.guess("z") and game.lives == 2 and game.misses == ["z"]
    for letter in "ale":
        game.guess(letter)
    assert game.won and game.over and game.pattern == "apple"


def test_a_whole_word_wins_at_once_or_costs_a_life():
    game = HangmanGame("apple", 2)
    assert not game.guess("ample") and game.lives == 1 and game.wrong_words == ["ample"]
    assert game.guess("apple") and game.won and game.pattern == "apple"
    lost = HangmanGame("apple", 1)
    lost.guess("q")
    assert lost.over and not lost.won


def test_refusals_name_one_rule_in_a_fixed_order():
    game = HangmanGame("apple", 6)
    game.guess("e")
    game.guess("ample")
    assert game.refusal("3") == "'3' is not a letter or a word of letters a-z"
    assert game.refusal("e") == "the letter 'e' was already guessed"
    assert game.refusal("pear") == (
        "'pear' has 4 letters; the word has 5 (guess one letter or the whole word)"
    )
    assert game.refusal("ample") == "the word 'ample' was already guessed"
    assert game.refusal("q") is None and game.refusal("zzzzz") is None


def test_text_mode_lists_unguessed_letters_and_shows_the_board():
    env = envsuite.make(HANGMAN, history="summary")
    _, info = env.reset(seed=0, options={"word": "apple"})
    assert info["legal_actions"] == list("abcdefghijklmnopqrstuvwxyz")
    env.step("p")
    observation, reward, _, _, info = env.step("\\boxed{Z}")
    assert observation.endswith(
        "word: _ p p _ _ (5 letters) | lives: 5 of 6 | missed: z | guessed: p z\n\n"
        "z: not in the word -> _ p p _ _; 5 of 6 lives left"
    )
    assert "p" not in info["legal_actions"] and "z" not in info["legal_actions"]
    _, reward, _, _, info = env.step("p")
    assert reward == -0.1 and info["parse_error"] == "the letter 'p' was already guessed"
    _, reward, terminated, _, info = env.step("apple")
    assert terminated and reward == 1.0 and info["success"] is True


def test_the_vector_view_encodes_the_pattern_guesses_and_lives():
    env = envsuite.make(HANGMAN, observation_mode="vector")
    observation, info = env.reset(seed=0, options={"word": "apple"})
    assert observation.shape == (VECTOR_SIZE,) and info["action_mask"].sum() == 26
    observation, _, _, _, info = env.step(ord("p") - 97)
    observation, _, _, _, info = env.step(ord("z") - 97)
    slots = observation[: 7 * 28].reshape(7, 28)
    assert slots.argmax(axis=1).tolist() == [26, 15, 15, 26, 26, 27, 27]
    guessed = observation[7 * 28 : 7 * 28 + 26]
    assert np.flatnonzero(guessed).tolist() == [15, 25]
    assert observation[-1] == pytest.approx(5 / 6)
    assert info["action_mask"][15] == 0 and info["action_mask"].sum() == 24


@pytest.mark.parametrize("split", ["train", "val", "test"])
def test_each_split_draws_only_its_held_out_words(split):
    env = envsuite.make(HANGMAN, split=split)
    lengths = set()
    for seed in range(40):
        env.reset(seed=seed)
        word = env.unwrapped.game.word
        assert split_of("hangman", word) == split and word in split_words(None, split)
        lengths.add(len(word))
    assert len(lengths) >= 3
    assert not set(split_words(None, "test")) & set(split_words(None, "train"))


def test_the_oracle_wins_most_test_words_with_six_lives():
    """The candidate-filtering solver on every test-split word (all lengths), 6 lives."""
    results: dict[int, Counter[bool]] = {}
    for word in split_words(None, "test"):
        game = HangmanGame(word, 6)
        word_solver = hangman_solver(len(word))
        while not game.over:
            guess = word_solver.next_guess(game, words_allowed=True)
            assert game.refusal(guess) is None
            game.guess(guess)
        results.setdefault(len(word), Counter())[game.won] += 1
    rates = {n: c[True] / c.total() for n, c in sorted(results.items())}
    total = sum(c[True] for c in results.values()) / sum(c.total() for c in results.values())
    print(f"\nHangman oracle, test split, 6 lives: {total:.3f} overall, by length {rates}")
    assert total > 0.85 and rates[7] > rates[4]
