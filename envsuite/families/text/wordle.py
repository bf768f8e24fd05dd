"""Wordle: guess the hidden word; each letter is marked green, yellow or grey."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces

from envsuite.action_parsing import parse_index
from envsuite.families.text.answer_grammar import GRAMMAR_HELP
from envsuite.families.text.splits import Split, split_members
from envsuite.families.text.text_game import History, InvalidAction, MoveResult, TextGameEnv
from envsuite.families.text.word_lists import checked_length, word_file
from envsuite.families.text.wordle_rules import (
    GREEN,
    GREY,
    MARK_NAMES,
    MARK_SYMBOLS,
    Lexicon,
    Marks,
    WordleGame,
    lexicon,
)

GAME_NAME = "wordle"
#: Channels of one cell of the vector board: 26 letters, then grey / yellow / green.
CELL_CHANNELS = 26 + 3
MAX_GUESSES_LIMIT = 100


@cache
def split_answers(word_length: int, split: Split) -> tuple[str, ...]:
    """The answers of ``word_length`` letters in ``split`` (hashing the word, salt "wordle")."""
    return tuple(split_members(GAME_NAME, lexicon(word_length).answers, split))


class WordleEnv(TextGameEnv[str]):
    r"""Wordle on SCOWL word lists of 4 to 7 letters, for language agents or classic RL.

    Description:
        A hidden word is drawn from the shipped list of common English words of
        ``word_length`` letters (``datasets/text/words/v1/answers-N.txt``; see its README
        for the source, SCOWL, and the filters), restricted to ``split``. Each guess must
        be a word of the allowed list (``guesses-N.txt``, two to three times as many words,
        every answer among them). Each letter of a guess is marked green (right letter,
        right place), yellow (in the word elsewhere) or grey, with the standard rule for
        repeated letters (greens first, then yellows left to right while the word has
        unmatched copies; see :mod:`.wordle_rules`). In hard mode every revealed hint must
        be used: green letters stay in place and every letter marked green or yellow
        appears at least as often as it was marked.

        Splits hash the answer word: with the default lists, train / val / test hold
        1,206 / 152 / 154 four-letter, 1,850 / 234 / 234 five-letter, 3,197 / 420 / 382
        six-letter and 4,041 / 517 / 523 seven-letter answers; the val and test words
        are never drawn in training (held-out words). ``reset(options={"answer": w})``
        poses a given word of the answer list (any split).

    Observation:
        ``observation_mode="text"``: the family base's history modes. Reset shows the
        rules and the board; each guess is answered with its marks first, then in words,
        e.g. ``ariel -> . Y . G .  (a grey, r yellow, i grey, e green, l grey); 5 guesses
        left``; the board (``state_text``, the ``ansi`` frame) lists every guess with its
        marks and the letters known green, yellow and absent. The word is shown when the
        game is lost.
        ``observation_mode="vector"``: ``Box(0, 1, (max_guesses, word_length, 29), int8)``:
        row r is guess r (zeros until played), each cell a one-hot of its letter (26)
        followed by a one-hot of its mark (grey, yellow, green).

    Action:
        Text mode: one word (any case), read through the family's answer grammar
        (``\boxed{crane}``, ``[crane]``, ``guess: crane`` or the bare word). Vector mode:
        ``Discrete(len(allowed guesses))``, the word's index in the sorted allowed list;
        ``info["action_mask"]`` marks the guesses not yet played (and, in hard mode, those
        keeping every hint). A word with other characters than letters, of the wrong
        length, not in the allowed list, already guessed, or (hard mode) ignoring a hint
        is an invalid action naming that rule (checked in that order): it costs
        ``invalid_penalty`` and a turn, not a guess. Text mode has no ``legal_actions``
        (thousands of words).

    Reward:
        1 when the word is found, else 0; ``-invalid_penalty`` for an invalid action.

    Termination:
        Terminated when the word is found or ``max_guesses`` guesses were played;
        truncated after ``max_turns`` turns (invalid actions count as turns).
        ``info["success"]`` says whether the word was found; ``optimal_steps`` is None
        (no certified optimum per word).

    Arguments:
        word_length: 4, 5, 6 or 7 letters.
        max_guesses: Guesses allowed (default 6).
        hard_mode: Whether revealed hints must be used.
        observation_mode: ``"text"`` or ``"vector"``.
        history: ``"last"``, ``"summary"`` or ``"full"`` (text mode; see the family base).
        max_turns: Turns before truncation (default ``max_guesses + 10``).
        split: ``"train"``, ``"val"`` or ``"test"``.
        invalid_penalty: Cost of an invalid action.
        render_mode: ``"ansi"``, ``"rgb_array"``, ``"human"`` or None.

    Version history:
        v0: Initial version (word lists ``datasets/text/words/v1``).
    """

    game_name = GAME_NAME
    observation_modes = ("text", "vector")

    def __init__(
        self,
        *,
        word_length: int = 5,
        max_guesses: int = 6,
        hard_mode: bool = False,
        observation_mode: str = "text",
        history: History = "last",
        max_turns: int | None = None,
        split: Split = "train",
        invalid_penalty: float = 0.1,
        render_mode: str | None = None,
    ) -> None:
        self.word_length = checked_length(word_length)
        if (
            isinstance(max_guesses, bool)
            or not isinstance(max_guesses, int)
            or not 1 <= max_guesses <= MAX_GUESSES_LIMIT
        ):
            raise ValueError(
                f"max_guesses must be an int in [1, {MAX_GUESSES_LIMIT}]; got {max_guesses!r}"
            )
        if not isinstance(hard_mode, bool):
            raise ValueError(f"hard_mode must be a bool; got {hard_mode!r}")
        self.max_guesses = max_guesses
        self.hard_mode = hard_mode
        self.lex: Lexicon = lexicon(self.word_length)
        super().__init__(
            observation_mode=observation_mode,
            history=history,
            max_turns=max_guesses + 10 if max_turns is None else max_turns,
            split=split,
            invalid_penalty=invalid_penalty,
            render_mode=render_mode,
        )
        self.answers = split_answers(self.word_length, self.split)
        if not self.answers:  # pragma: no cover - every shipped list has every split
            raise ValueError(f"no {self.word_length}-letter answer in the {split!r} split")
        self.game = WordleGame(self.answers[0], self.lex.guess_index, max_guesses, hard_mode)
        self._board = np.zeros((max_guesses, self.word_length, CELL_CHANNELS), dtype=np.int8)
        self._mask = np.ones(len(self.lex.guesses), dtype=np.int8)

    @classmethod
    def dataset_files(cls, **config: Any) -> list[Path]:
        """The answer and guess lists of the configured word length."""
        length = checked_length(config.get("word_length", 5))
        return [word_file("answers", length), word_file("guesses", length)]

    # -- the game's hooks --------------------------------------------------------------
    def new_game(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """Draw the answer from the split (or take ``options["answer"]``)."""
        chosen = (options or {}).get("answer")
        if chosen is None:
            answer = self.answers[int(self.np_random.integers(len(self.answers)))]
        elif isinstance(chosen, str) and chosen in self.lex.answers:
            answer = chosen
        else:
            raise ValueError(
                f"options['answer'] must be a word of the {self.word_length}-letter answer "
                f"list; got {chosen!r}"
            )
        self.game = WordleGame(answer, self.lex.guess_index, self.max_guesses, self.hard_mode)
        if not self.text_mode:
            self._board[:] = 0
            self._mask[:] = 1

    def instance_key(self) -> str:
        """The hidden word (splits hash it)."""
        return self.game.answer

    def instructions(self) -> str:
        """The rules and how to answer."""
        hard = (
            "Hard mode: every hint must be used: a green letter stays in its place, and "
            "each letter marked green or yellow must appear in later guesses at least as "
            "often as it was marked. "
            if self.hard_mode
            else ""
        )
        return (
            f"Wordle: find the hidden {self.word_length}-letter English word in "
            f"{self.max_guesses} guesses. Each guess must be a {self.word_length}-letter word "
            f"of the game's list ({len(self.lex.guesses)} words). After each guess every "
            "letter is marked: G = right letter in the right place, Y = in the word but in "
            "another place, . = not in the word (a letter guessed twice is marked Y only as "
            f"often as the word has further copies of it). {hard}"
            f"Answer with one word. {GRAMMAR_HELP}"
        )

    def state_text(self) -> str:
        """The board as the player sees it."""
        game = self.game
        left = game.max_guesses - len(game.guesses)
        lines = [f"guesses left: {left} of {game.max_guesses}"]
        for number, (word, marks) in enumerate(zip(game.guesses, game.marks, strict=True), 1):
            lines.append(f"{number}. {word}  {_symbols(marks)}")
        if game.guesses:
            lines.append(_known_letters(game))
        return "\n".join(lines)

    def parse_move(self, answer: str) -> str:
        """The guess ``answer`` names, or InvalidAction naming the rule it breaks."""
        word = answer.strip().lower()
        reason = self.game.refusal(word)
        if reason is not None:
            raise InvalidAction(reason)
        return word

    def play(self, move: str) -> MoveResult:
        """Play a legal guess and say what it did."""
        game = self.game
        marks = game.guess(move)
        if not self.text_mode:  # the vector observation is the board: no text to write
            self._record_vector(move, marks)
            return MoveResult("", float(game.won), game.over, game.won)
        words = ", ".join(
            f"{letter} {MARK_NAMES[mark]}" for letter, mark in zip(move, marks, strict=True)
        )
        feedback = f"{move} -> {_symbols(marks)}  ({words})"
        if game.won:
            count = len(game.guesses)
            plural = "guess" if count == 1 else "guesses"
            return MoveResult(f"{feedback}; solved in {count} {plural}", 1.0, True, True)
        left = game.max_guesses - len(game.guesses)
        if left == 0:
            return MoveResult(f"{feedback}; out of guesses, the word was {game.answer}", 0.0, True)
        return MoveResult(f"{feedback}; {left} guess{'es' if left > 1 else ''} left")

    # -- vector mode -------------------------------------------------------------------
    def vector_spaces(self) -> tuple[spaces.Space[Any], spaces.Space[Any]]:
        """The vector mode's observation and action spaces."""
        shape = (self.max_guesses, self.word_length, CELL_CHANNELS)
        return spaces.Box(0, 1, shape, np.int8), spaces.Discrete(len(self.lex.guesses))

    def vector_observation(self) -> np.ndarray:
        """The state now as the vector observation."""
        return self._board.copy()

    def parse_vector_move(self, action: Any) -> str:
        """The guess a vector action names, or InvalidAction."""
        word = self.lex.guesses[parse_index(action, len(self.lex.guesses), "guess")]
        reason = self.game.refusal(word)
        if reason is not None:
            raise InvalidAction(reason)
        return word

    def legal_move_mask(self) -> np.ndarray:
        """1 for every guess still legal."""
        return self._mask.copy()

    def _record_vector(self, word: str, marks: Marks) -> None:
        row = self._board[len(self.game.guesses) - 1]
        for position, (letter, mark) in enumerate(zip(word, marks, strict=True)):
            row[position, ord(letter) - 97] = 1
            row[position, 26 + mark] = 1
        self._mask[self.lex.guess_index[word]] = 0
        if self.hard_mode:
            self._mask &= self.game.hints.mask(self.lex)


def _symbols(marks: Marks) -> str:
    return " ".join(MARK_SYMBOLS[mark] for mark in marks)


def _known_letters(game: WordleGame) -> str:
    """One line: the green letters by position, the yellow letters, the absent letters."""
    greens = sorted(game.hints.greens.items())
    present = {
        letter
        for word, marks in zip(game.guesses, game.marks, strict=True)
        for letter, mark in zip(word, marks, strict=True)
        if mark != GREY
    }
    yellow = sorted(present - {letter for _, letter in greens})
    absent = sorted(
        {
            letter
            for word, marks in zip(game.guesses, game.marks, strict=True)
            for letter, mark in zip(word, marks, strict=True)
            if mark == GREY
        }
        - present
    )
    green_text = " ".join(f"{letter}@{position + 1}" for position, letter in greens) or "-"
    return (
        f"green: {green_text} | yellow: {' '.join(yellow) or '-'} | "
        f"absent: {' '.join(absent) or '-'}"
    )


__all__ = ["GREEN", "WordleEnv", "split_answers"]
