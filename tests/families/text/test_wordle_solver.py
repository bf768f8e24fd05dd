"""The Wordle oracle's bar: every answer of the default 5-letter list within six guesses.

The whole-list run takes a few seconds on one core (the solver remembers its choices and
the candidates of each history, so games share the work of their common prefixes).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

import envsuite
from envsuite.families.text.wordle_oracle import wordle_oracle
from envsuite.families.text.wordle_rules import WordleGame, lexicon
from envsuite.families.text.wordle_solver import OPENINGS, WordleSolver, marks_codes, solver


def play_out(word_solver: WordleSolver, answer: str, *, hard_mode: bool = False) -> WordleGame:
    lex = word_solver.lex
    game = WordleGame(answer, lex.guess_index, 6, hard_mode)
    while not game.over:
        guess = word_solver.next_guess(
            list(zip(game.guesses, game.marks, strict=True)),
            hard_mode=hard_mode,
            guesses_left=game.max_guesses - len(game.guesses),
        )
        assert game.refusal(guess) is None, (answer, guess)
        game.guess(guess)
    return game


def test_the_solver_finds_every_five_letter_answer_within_six_guesses():
    five = solver(5)
    turns: Counter[int] = Counter()
    lost = []
    for answer in five.lex.answers:
        game = play_out(five, answer)
        if game.won:
            turns[len(game.guesses)] += 1
        else:
            lost.append(answer)
    assert not lost, f"not found within six guesses: {lost}"
    mean = sum(k * v for k, v in turns.items()) / len(five.lex.answers)
    print(f"\nWordle solver, 5 letters: mean {mean:.3f} guesses, {sorted(turns.items())}")
    assert max(turns) <= 6 and mean < 3.7


def test_the_opening_is_the_solvers_own_choice_over_the_whole_lists():
    lex = lexicon(5)
    codes = marks_codes(lex.letters, lex.answer_letters)
    counts = [np.bincount(row, minlength=243).astype(np.int64) for row in codes]
    squares = np.array([(c**2).sum() for c in counts])
    is_answer = np.isin(np.arange(len(lex.guesses)), [lex.guess_index[a] for a in lex.answers])
    score = squares - is_answer
    assert lex.guesses[int(np.lexsort((~is_answer, score))[0])] == OPENINGS[5]


def test_the_oracle_wins_through_the_env_in_text_and_vector_mode():
    for mode in ("text", "vector"):
        env = envsuite.make("envsuite/Wordle-v0", observation_mode=mode)
        oracle = wordle_oracle(env)
        for answer in ("abbey", "fuzzy", "mamma", "vivid"):
            observation, info = env.reset(seed=0, options={"answer": answer})
            oracle.reset(seed=0)
            for _ in range(6):
                observation, _, terminated, _, info = env.step(oracle.act(observation, info))
                assert info["parse_error"] is None
                if terminated:
                    break
            assert info["success"] is True
        env.close()


def test_in_hard_mode_the_solver_plays_only_legal_guesses():
    five = solver(5)
    won = sum(play_out(five, answer, hard_mode=True).won for answer in five.lex.answers[::20])
    assert won >= 0.95 * len(five.lex.answers[::20])
