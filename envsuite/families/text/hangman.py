"""Hangman: find the hidden word one letter at a time before the lives run out."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces

from envsuite.action_parsing import parse_index
from envsuite.families.text.answer_grammar import GRAMMAR_HELP
from envsuite.families.text.hangman_rules import LETTERS, HangmanGame
from envsuite.families.text.splits import Split, split_members
from envsuite.families.text.text_game import History, InvalidAction, MoveResult, TextGameEnv
from envsuite.families.text.word_lists import WORD_LENGTHS, checked_length, load_words, word_file

GAME_NAME = "hangman"
#: Longest word: the vector observation has this many letter slots.
MAX_LENGTH = max(WORD_LENGTHS)
#: Channels of one letter slot: 26 letters, "hidden", "no letter here" (shorter words).
SLOT_CHANNELS = 26 + 2
#: Size of the vector observation: the slots, the guessed letters, the lives left.
VECTOR_SIZE = MAX_LENGTH * SLOT_CHANNELS + 26 + 1
MAX_LIVES = 26


@cache
def split_words(word_length: int | None, split: Split) -> tuple[str, ...]:
    """The answer words of ``word_length`` letters (None: 4 to 7) in ``split`` (salt "hangman")."""
    lengths = WORD_LENGTHS if word_length is None else (word_length,)
    words = [w for length in lengths for w in load_words("answers", length)]
    return tuple(split_members(GAME_NAME, words, split))


class HangmanEnv(TextGameEnv[str]):
    r"""Hangman on the shipped SCOWL lists of common English words, for language agents or RL.

    Description:
        A hidden word is drawn from the shipped answer lists (``datasets/text/words/v1/
        answers-N.txt``, common English words of 4 to 7 letters; see its README), of
        ``word_length`` letters or, by default, of any of those lengths, restricted to
        ``split``. Each turn the player guesses a letter or the whole word: a letter in the
        word reveals every copy of it, a letter not in the word costs a life; the right
        word wins at once, a wrong one costs a life.

        Splits hash the word: over all four lengths train / val / test hold 10,363 /
        1,264 / 1,283 words (5 letters alone: 1,879 / 220 / 219); val and test words are
        never drawn in training (held-out words). ``reset(options={"word": w})`` poses a
        given word of the answer lists (any split).

    Observation:
        ``observation_mode="text"``: the family base's history modes. The state reads
        ``word: _ p p _ e (5 letters) | lives: 4 of 6 | missed: x z | guessed: a e p x z``
        (``state_text``, also the ``ansi`` frame); each guess is answered with what it did
        and the new pattern. The word is shown when the game is lost.
        ``observation_mode="vector"``: ``Box(0, 1, (223,), float32)``: 7 letter slots of 28
        channels (a one-hot of the revealed letter, "hidden", or "no letter" past the
        word's end), then the 26 letters guessed (1 = guessed), then lives left / lives.

    Action:
        Text mode: one letter, or the whole word, read through the family's answer
        grammar (``[e]``, ``letter: e``, ``\boxed{apple}``, or bare); any case.
        ``info["legal_actions"]`` lists the letters not guessed yet (a word guess is legal
        too). Vector mode: ``Discrete(26)``, a letter (0 = a; no word guesses), with
        ``info["action_mask"]`` marking the unguessed letters. Anything but letters a-z,
        a letter already guessed, a word of the wrong length or a word already guessed is
        an invalid action naming that rule (checked in that order): it costs
        ``invalid_penalty`` and a turn, not a life.

    Reward:
        1 when the word is found, else 0; ``-invalid_penalty`` for an invalid action.

    Termination:
        Terminated when every letter is revealed or the word guessed (``success``), or
        when no life is left; truncated after ``max_turns`` turns. ``optimal_steps`` is
        None.

    Arguments:
        word_length: 4, 5, 6 or 7 letters, or None for any of them.
        lives: Misses allowed (default 6), 1 to 26.
        observation_mode: ``"text"`` or ``"vector"``.
        history: ``"last"``, ``"summary"`` or ``"full"`` (text mode; see the family base).
        max_turns: Turns before truncation (default ``lives + 20``).
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
        word_length: int | None = None,
        lives: int = 6,
        observation_mode: str = "text",
        history: History = "last",
        max_turns: int | None = None,
        split: Split = "train",
        invalid_penalty: float = 0.1,
        render_mode: str | None = None,
    ) -> None:
        self.word_length = None if word_length is None else checked_length(word_length)
        if isinstance(lives, bool) or not isinstance(lives, int) or not 1 <= lives <= MAX_LIVES:
            raise ValueError(f"lives must be an int in [1, {MAX_LIVES}]; got {lives!r}")
        self.lives = lives
        super().__init__(
            observation_mode=observation_mode,
            history=history,
            max_turns=lives + 20 if max_turns is None else max_turns,
            split=split,
            invalid_penalty=invalid_penalty,
            render_mode=render_mode,
        )
        self.words = split_words(self.word_length, self.split)
        self.game = HangmanGame(self.words[0], lives)

    @classmethod
    def dataset_files(cls, **config: Any) -> list[Path]:
        """The answer lists of the configured word length (every length for None)."""
        length = config.get("word_length")
        lengths = WORD_LENGTHS if length is None else (checked_length(length),)
        return [word_file("answers", n) for n in lengths]

    # -- the game's hooks --------------------------------------------------------------
    def new_game(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """Draw the word from the split (or take ``options["word"]``)."""
        chosen = (options or {}).get("word")
        if chosen is None:
            word = self.words[int(self.np_random.integers(len(self.words)))]
        elif (
            isinstance(chosen, str)
            and len(chosen) in WORD_LENGTHS
            and (self.word_length is None or len(chosen) == self.word_length)
            and chosen in load_words("answers", len(chosen))
        ):
            word = chosen
        else:
            raise ValueError(
                f"options['word'] must be a word of the answer lists of the env's length; "
                f"got {chosen!r}"
            )
        self.game = HangmanGame(word, self.lives)

    def instance_key(self) -> str:
        """The hidden word (splits hash it)."""
        return self.game.word

    def instructions(self) -> str:
        """The rules and how to answer."""
        length = f"{self.word_length}-letter" if self.word_length else "4- to 7-letter"
        return (
            f"Hangman: find the hidden {length} English word. Each turn guess one letter: "
            "every copy of it in the word is revealed, or, if it is not in the word, you "
            f"lose a life. You may also guess the whole word: right wins at once, wrong "
            f"costs a life. You have {self.lives} lives. Answer with one letter or the "
            f"word. {GRAMMAR_HELP}"
        )

    def state_text(self) -> str:
        """The board as the player sees it."""
        game = self.game
        missed = " ".join(game.misses + game.wrong_words) or "-"
        guessed = " ".join(sorted(game.letters)) or "-"
        return (
            f"word: {' '.join(game.pattern)} ({len(game.word)} letters) | "
            f"lives: {game.lives} of {game.max_lives} | missed: {missed} | guessed: {guessed}"
        )

    def parse_move(self, answer: str) -> str:
        """The guess ``answer`` names, or InvalidAction naming the rule it breaks."""
        guess = answer.strip().lower()
        reason = self.game.refusal(guess)
        if reason is not None:
            raise InvalidAction(reason)
        return guess

    def play(self, move: str) -> MoveResult:
        """Play a legal guess and say what it did."""
        game = self.game
        hit = game.guess(move)
        if len(move) == 1:
            copies = game.word.count(move)
            what = f"{move}: {copies} in the word" if hit else f"{move}: not in the word"
        else:
            what = f"{move}: the word" if hit else f"{move}: not the word"
        pattern = " ".join(game.pattern)
        if game.won:
            return MoveResult(f"{what}; solved: {game.word}", 1.0, True, True)
        if game.lives == 0:
            return MoveResult(f"{what}; no lives left, the word was {game.word}", 0.0, True)
        return MoveResult(f"{what} -> {pattern}; {game.lives} of {game.max_lives} lives left")

    def legal_moves(self) -> list[str]:
        """The letters not guessed yet."""
        return self.game.unguessed()

    # -- vector mode -------------------------------------------------------------------
    def vector_spaces(self) -> tuple[spaces.Space[Any], spaces.Space[Any]]:
        """The vector mode's observation and action spaces."""
        return spaces.Box(0.0, 1.0, (VECTOR_SIZE,), np.float32), spaces.Discrete(26)

    def vector_observation(self) -> np.ndarray:
        """The state now as the vector observation."""
        game = self.game
        out = np.zeros(VECTOR_SIZE, dtype=np.float32)
        slots = out[: MAX_LENGTH * SLOT_CHANNELS].reshape(MAX_LENGTH, SLOT_CHANNELS)
        for position, shown in enumerate(game.pattern):
            slots[position, 26 if shown == "_" else ord(shown) - ord("a")] = 1.0
        slots[len(game.word) :, 27] = 1.0
        for letter in game.letters:
            out[MAX_LENGTH * SLOT_CHANNELS + ord(letter) - ord("a")] = 1.0
        out[-1] = game.lives / game.max_lives
        return out

    def parse_vector_move(self, action: Any) -> str:
        """The guess a vector action names, or InvalidAction."""
        letter = LETTERS[parse_index(action, 26, "letter")]
        reason = self.game.refusal(letter)
        if reason is not None:
            raise InvalidAction(reason)
        return letter

    def legal_move_mask(self) -> np.ndarray:
        """1 for every guess still legal."""
        mask = np.ones(26, dtype=np.int8)
        for letter in self.game.letters:
            mask[ord(letter) - ord("a")] = 0
        return mask


__all__ = ["HangmanEnv", "split_words"]
