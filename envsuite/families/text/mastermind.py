"""``envsuite/Mastermind-v0``: crack a secret code from (black, white) feedback."""

from __future__ import annotations

import functools
import re
from typing import Any

import numpy as np
from gymnasium import spaces

from envsuite.action_parsing import parse_index
from envsuite.families.text.answer_grammar import GRAMMAR_HELP
from envsuite.families.text.mastermind_rules import (
    Code,
    CodeTable,
    MastermindGame,
    MastermindRules,
)
from envsuite.families.text.mastermind_solver import strategy_for
from envsuite.families.text.splits import Split, split_of
from envsuite.families.text.text_game import History, InvalidAction, MoveResult, TextGameEnv

_TOKENS = re.compile(r"[^\s,;|/()\[\]-]+")


def code_text(code: Code) -> str:
    """A code as the player writes it: colours 1 to n, separated by spaces."""
    return " ".join(str(c + 1) for c in code)


@functools.cache
def _code_texts(rules: MastermindRules) -> dict[Code, str]:
    """Every code of ``rules`` as the player writes it (computed once per process)."""
    return {code: code_text(code) for code in rules.codes().codes}


@functools.cache
def _codes_by_text(rules: MastermindRules) -> dict[str, Code]:
    """Every code of ``rules`` by its text as :func:`code_text` writes it."""
    return {text: code for code, text in _code_texts(rules).items()}


@functools.cache
def _oracle_guesses(rules: MastermindRules, secret_index: int) -> int:
    """How many guesses the minimax oracle makes against a secret (its tree is fixed)."""
    return len(strategy_for(rules).play(secret_index))


@functools.cache
def split_codes(game: str, rules: MastermindRules, split: Split) -> np.ndarray:
    """Indices of the codes of ``rules`` in ``split`` (computed once per process)."""
    table = rules.codes()
    keys = (f"{rules.name}:{''.join(str(c + 1) for c in code)}" for code in table.codes)
    return np.array([i for i, key in enumerate(keys) if split_of(game, key) == split], np.int64)


class MastermindEnv(TextGameEnv[Code]):
    """Crack a secret code of coloured pegs from black-and-white feedback.

    Description:
        A secret code of ``code_length`` pegs, each one of ``num_colours`` colours
        (numbered 1 to ``num_colours``; with ``repeats=False`` no colour occurs twice) is
        drawn uniformly from the split. Each guess is a code; the feedback is the number of
        black pegs (right colour, right place) and of white pegs (a colour of the secret in
        the wrong place; each peg of the secret matches at most once, so with secret
        1 1 2 2 the guess 1 2 1 1 gets 1 black and 2 white). The code must be found within
        ``max_guesses`` guesses. ``optimal_steps`` is the number of guesses the minimax
        oracle needs for this secret (a reference, not a lower bound: a lucky agent may
        need fewer, so ``efficiency`` can exceed 1).

        Splits: the secret's key (settings and code) is hashed. The classic 4 pegs,
        6 colours with repeats has 1,296 codes: 1,020 train, 125 val, 151 test; every
        setting has ``num_colours ** code_length`` codes (with repeats) or
        ``num_colours! / (num_colours - code_length)!`` (without), at most 100,000, about
        80 / 10 / 10% per split. Settings beyond the default (more pegs or colours, say
        5 pegs and 8 colours) serve as held-out settings for out-of-distribution tests.

    Observation:
        Text (see the family base for the history modes): each guess's feedback as
        ``Guess 2: 1 1 2 2 -> 1 black, 2 white. 8 guesses left.``; the state is the table
        of guesses so far. Vector mode: an int8 array ``(max_guesses, code_length + 2)``,
        one row per guess so far (its colours 1 to n, then black, then white), zeros for
        the guesses not yet made.

    Action:
        Text: the code as colour numbers, e.g. ``1 1 2 2``, ``1,1,2,2`` or ``1122``.
        Vector: ``Discrete(number of codes)``, the code's index in lexicographic order
        (only codes the settings allow are numbered), with ``action_mask`` (0 for codes
        already guessed). In fixed order, a guess is illegal when a peg is not a number,
        has the wrong number of pegs, names an unknown colour, repeats a colour when
        ``repeats=False``, or repeats an earlier guess (repeated guesses are not allowed:
        they tell nothing new). An illegal guess costs the penalty and a turn, not a guess.

    Reward:
        1.0 for cracking the code, 0 for other guesses, ``-invalid_penalty`` for a
        malformed or illegal action.

    Termination:
        Terminated when the code is cracked (success) or the guesses are spent (failure;
        the last feedback reveals the code); truncated after ``max_turns``.

    Arguments:
        code_length: Pegs per code (1 to 8).
        num_colours: Colours (2 to 9).
        repeats: Whether a colour may occur more than once in a code (and in a guess).
        max_guesses: Guesses allowed (default 10; the oracle needs at most 5 in the
            classic setting).
        max_turns: Turns (guesses and bad actions) before truncation; None for
            ``2 * max_guesses``.
        observation_mode, history, split, invalid_penalty, render_mode: see the family
            base (:class:`~envsuite.families.text.text_game.TextGameEnv`).

    Version history:
        v0: Initial version.
    """

    game_name = "mastermind"
    observation_modes = ("text", "vector")

    def __init__(
        self,
        *,
        code_length: int = 4,
        num_colours: int = 6,
        repeats: bool = True,
        max_guesses: int = 10,
        observation_mode: str = "text",
        history: History = "last",
        max_turns: int | None = None,
        split: Any = "train",
        invalid_penalty: float = 0.1,
        render_mode: str | None = None,
    ) -> None:
        for name, value in (
            ("code_length", code_length),
            ("num_colours", num_colours),
            ("max_guesses", max_guesses),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive int; got {value!r}")
        if not isinstance(repeats, bool):
            raise ValueError(f"repeats must be True or False; got {repeats!r}")
        self.rules = MastermindRules(code_length, num_colours, repeats)
        #: Every code of the settings (one table per process, shared by its envs).
        self.table: CodeTable = self.rules.codes()
        self.max_guesses = max_guesses
        super().__init__(
            observation_mode=observation_mode,
            history=history,
            max_turns=2 * max_guesses if max_turns is None else max_turns,
            split=split,
            invalid_penalty=invalid_penalty,
            render_mode=render_mode,
        )
        self._members = split_codes(self.game_name, self.rules, self.split)
        if len(self._members) == 0:
            raise ValueError(
                f"the {self.split!r} split holds no code of {self.rules.name} "
                f"({self.rules.count} codes in all); choose more pegs or colours"
            )
        self.secret_index = int(self._members[0])
        self.game = MastermindGame(self.rules, self.table.codes[self.secret_index], max_guesses)
        self._texts = _code_texts(self.rules)
        self._by_text = _codes_by_text(self.rules)
        self._mask = np.ones(0, dtype=np.int8)
        self._board = np.zeros((max_guesses, code_length + 2), dtype=np.int8)

    # -- drawing the instance ------------------------------------------------------------
    def new_game(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """Draw a secret of the split; the oracle's guess count is ``optimal_steps``."""
        self.secret_index = int(self._members[self.np_random.integers(len(self._members))])
        self.game = MastermindGame(
            self.rules, self.table.codes[self.secret_index], self.max_guesses
        )
        self.optimal_steps = _oracle_guesses(self.rules, self.secret_index)
        if not self.text_mode:
            self._mask = np.ones(self.rules.count, dtype=np.int8)
            self._board[:] = 0

    def instance_key(self) -> str:
        """The settings and the secret, e.g. ``4x6r:1122``."""
        return f"{self.rules.name}:{''.join(str(c + 1) for c in self.game.secret)}"

    # -- text ----------------------------------------------------------------------------
    def _setting_text(self) -> str:
        rules = self.rules
        return (
            f"{rules.code_length} pegs, colours 1 to {rules.num_colours}, "
            f"{'colours may repeat' if rules.repeats else 'no colour repeats'}"
        )

    def instructions(self) -> str:
        """The rules of the code, the feedback and the answer format."""
        rules = self.rules
        example = code_text(tuple(range(rules.code_length)))
        return (
            f"Crack the secret code ({self._setting_text()}) in at most {self.max_guesses} "
            f"guesses. Guess a code of {rules.code_length} colour numbers, e.g. {example}. "
            "Each guess is answered with black pegs (right colour in the right place) and "
            "white pegs (right colour in the wrong place; each peg of the code counts once). "
            f"Repeating an earlier guess is not allowed. {GRAMMAR_HELP}"
        )

    def state_text(self) -> str:
        """The table of guesses so far and the guesses left."""
        lines = [
            f"Mastermind ({self._setting_text()}). "
            f"Guesses left: {self.max_guesses - len(self.game.guesses)} of {self.max_guesses}."
        ]
        for number, (code, (black, white)) in enumerate(self.game.guesses, start=1):
            lines.append(f"{number:>2}. {code_text(code)} -> {black} black, {white} white")
        return "\n".join(lines)

    def parse_move(self, answer: str) -> Code:
        """A code as colour numbers; its rules checked in the documented order."""
        rules = self.rules
        code = self._by_text.get(answer)
        if code is not None:  # written as code_text writes it: a code of the settings
            return self._checked(code)
        tokens = _TOKENS.findall(answer)
        if len(tokens) == 1 and rules.code_length > 1 and tokens[0].isdecimal():
            tokens = list(tokens[0])  # "1122"
        for token in tokens:
            if not (token.isascii() and token.isdecimal()):
                raise InvalidAction(
                    f"{token[:20]!r} is not a colour; colours are the numbers 1 to "
                    f"{rules.num_colours}"
                )
        if len(tokens) != rules.code_length:
            raise InvalidAction(f"a code has {rules.code_length} pegs; the guess has {len(tokens)}")
        colours = [int(token) for token in tokens]
        for colour in colours:
            if not 1 <= colour <= rules.num_colours:
                raise InvalidAction(
                    f"there is no colour {colour}; colours are 1 to {rules.num_colours}"
                )
        code = tuple(c - 1 for c in colours)
        return self._checked(code)

    def _checked(self, code: Code) -> Code:
        if not self.rules.repeats and len(set(code)) < len(code):
            twice = next(c for c in code if code.count(c) > 1)
            raise InvalidAction(
                f"colour {twice + 1} appears more than once; colours may not repeat in this game"
            )
        if self.game.guessed(code):
            raise InvalidAction(f"you already guessed {code_text(code)}; each guess must be new")
        return code

    def play(self, move: Code) -> MoveResult:
        """Score the guess; the game ends when it is right or the guesses are spent."""
        black, white = self.game.guess(move)
        number = len(self.game.guesses)
        if not self.text_mode:
            row = self._board[number - 1]
            row[:-2] = move
            row[:-2] += 1
            row[-2] = black
            row[-1] = white
            self._mask[self.table.index[move]] = 0
            if self.game.won or number == self.max_guesses:
                return MoveResult("", float(self.game.won), done=True, success=self.game.won)
            return MoveResult("")
        said = f"Guess {number}: {self._texts[move]} -> {black} black, {white} white."
        if self.game.won:
            return MoveResult(f"{said} You cracked the code!", 1.0, done=True, success=True)
        left = self.max_guesses - number
        if left == 0:
            return MoveResult(
                f"{said} No guesses left; the code was {code_text(self.game.secret)}.", done=True
            )
        return MoveResult(f"{said} {left} guess{'' if left == 1 else 'es'} left.")

    # -- vector --------------------------------------------------------------------------
    def vector_spaces(self) -> tuple[spaces.Space[Any], spaces.Space[Any]]:
        """The guess table as int8 and ``Discrete(number of codes)``."""
        rules = self.rules
        high = max(rules.num_colours, rules.code_length)
        shape = (self.max_guesses, rules.code_length + 2)
        return spaces.Box(0, high, shape, np.int8), spaces.Discrete(rules.count)

    def vector_observation(self) -> np.ndarray:
        """Each guess so far (colours 1 to n), its black and white; zero rows after."""
        return self._board.copy()

    def parse_vector_move(self, action: Any) -> Code:
        """The code of an index; a repeated guess is illegal."""
        index = parse_index(action, self.rules.count, "code")
        return self._checked(self.table.codes[index])

    def legal_move_mask(self) -> np.ndarray:
        """1 for every code not yet guessed."""
        return self._mask.copy()
