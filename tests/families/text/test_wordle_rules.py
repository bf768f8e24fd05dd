"""Wordle's rules: marks with repeated letters, the order of refusals, hard mode."""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.families.text.word_lists import letter_array
from envsuite.families.text.wordle_rules import (
    GREEN,
    GREY,
    YELLOW,
    Hints,
    WordleGame,
    lexicon,
    marks_code,
    marks_of,
)
from envsuite.families.text.wordle_solver import marks_codes

G, Y, _ = GREEN, YELLOW, GREY


@pytest.mark.parametrize(
    ("guess", "answer", "marks"),
    [
        ("crane", "crane", (G, G, G, G, G)),
        ("babes", "abbey", (Y, Y, G, G, _)),  # the yellow b goes to the first b
        ("kebab", "abbey", (_, Y, G, Y, Y)),
        ("eerie", "abbey", (Y, _, _, _, _)),  # one e in the answer: one yellow
        ("speed", "abide", (_, _, Y, _, Y)),  # the first e takes the only yellow
        ("geese", "those", (_, _, _, G, G)),  # greens first: no yellow e left over
        ("allee", "eagle", (Y, Y, _, Y, G)),
        ("sassy", "assay", (Y, Y, G, _, G)),
        ("abbey", "kebab", (Y, Y, G, Y, _)),
    ],
)
def test_marks_follow_the_repeated_letter_rule(guess, answer, marks):
    assert marks_of(guess, answer) == marks


def test_vectorised_marks_agree_with_the_rule_everywhere():
    tricky = ["eerie", "abbey", "babes", "kebab", "speed", "geese", "sassy", "assay", "eagle"]
    codes = marks_codes(letter_array(tricky), letter_array(tricky))
    assert all(
        codes[i, j] == marks_code(marks_of(g, a))
        for i, g in enumerate(tricky)
        for j, a in enumerate(tricky)
    )
    lex = lexicon(5)
    rng = np.random.default_rng(0)
    guesses = rng.choice(len(lex.guesses), 300, replace=False)
    answers = rng.choice(len(lex.answers), 200, replace=False)
    codes = marks_codes(lex.letters[guesses], lex.answer_letters[answers])
    for x, g in enumerate(guesses):
        for y, a in enumerate(answers):
            assert codes[x, y] == marks_code(marks_of(lex.guesses[g], lex.answers[a]))


def new_game(answer="abbey", hard_mode=False, max_guesses=6):
    return WordleGame(answer, lexicon(5).guess_index, max_guesses, hard_mode)


def test_refusals_name_one_rule_in_a_fixed_order():
    game = new_game()
    game.guess("crane")
    assert game.refusal("cr4ne") == "'cr4ne' is not a word of letters a-z"
    assert game.refusal("cat") == "'cat' has 3 letters; the word has 5"
    assert game.refusal("qwxyz") == "'qwxyz' is not in the word list"
    assert game.refusal("crane") == "'crane' was already guessed"
    assert game.refusal("ariel") is None


def test_hard_mode_keeps_greens_in_place_and_revealed_letters_in_use():
    game = new_game("abbey", hard_mode=True)
    assert game.guess("babes") == (Y, Y, G, G, _)
    # b twice (one green, one yellow), a once, e in place 4.
    assert game.refusal("abyss") == "hard mode: letter 3 must be 'b' (it was green)"
    assert game.refusal("rebel") == "hard mode: the guess must use 'a' at least once (revealed)"
    assert game.refusal("tabes") == "hard mode: the guess must use 'b' at least 2 times (revealed)"
    assert game.refusal("hobby") == "hard mode: letter 4 must be 'e' (it was green)"
    assert game.refusal("abbey") is None
    # Grey letters and yellow positions may be reused.
    assert game.refusal("babel") is None
    not_hard = new_game("abbey")
    not_hard.guess("babes")
    assert not_hard.refusal("rebel") is None


def test_the_hard_mode_mask_agrees_with_the_refusals():
    game = new_game("those", hard_mode=True)
    for word in ("geese", "shone"):
        game.guess(word)
    lex = lexicon(5)
    mask = game.hints.mask(lex)
    hints_only = Hints()
    for word, marks in zip(game.guesses, game.marks, strict=True):
        hints_only.add(word, marks)
    assert [hints_only.refusal(w) is None for w in lex.guesses] == mask.tolist()
    assert 0 < mask.sum() < len(lex.guesses)


def test_the_game_ends_on_the_answer_or_after_the_last_guess():
    game = new_game("abbey", max_guesses=2)
    game.guess("crane")
    assert not game.over
    game.guess("abbey")
    assert game.won and game.over
    lost = new_game("abbey", max_guesses=1)
    lost.guess("crane")
    assert lost.over and not lost.won
