"""The base of every single-player text game: turns, history modes, splits, shared info keys.

A game fills in a handful of hooks and gets the rest from :class:`TextGameEnv`:

- ``new_game(seed, options)`` draws the instance from ``self.np_random`` (in
  ``self.split``, see :mod:`envsuite.families.text.splits`) and sets
  ``self.optimal_steps`` where its oracle knows it;
- ``instance_key()`` names the instance canonically (splits and ``state_hash`` use it);
- ``instructions()`` says the rules and how to answer; ``state_text()`` shows the state now
  (a fixed-width board where there is one; it is also the ``ansi`` frame);
- ``parse_move(answer)`` reads the answer that :func:`~.answer_grammar.extract_answer`
  found in the agent's text, raising :class:`~envsuite.env_base.InvalidAction` naming the
  rule it breaks (one reason per check, in a fixed order);
- ``play(move)`` applies a legal move and returns a :class:`MoveResult`.

Games with a vector mode for classic RL (``observation_modes`` holds ``"vector"``) add
``vector_spaces()``, ``vector_observation()`` and ``parse_vector_move(action)``, and
``legal_move_mask()`` where the action set is finite. Both observations come from the one
rules engine, so they cannot drift.

What the base does, the same in every game (the docstrings of the games refer here):

- **Text observations** (``history``): ``"last"`` gives the feedback on the last action
  only (for chat agents, which keep the conversation themselves); ``"summary"`` gives the
  instructions, the whole state now and the feedback on the last action (a Markov
  observation for stateless prompting);
  ``"full"`` gives the instructions, the first state and every action with its feedback
  so far. Every reset observation holds the instructions and the first state.
- **Turns**: every step is a turn, a malformed or illegal one too. After ``max_turns``
  turns the episode is truncated (``success`` False) unless the game ended it first.
- **Bad actions**: a malformed or illegal action leaves the game's state unchanged, costs
  ``invalid_penalty`` (reward ``-invalid_penalty``) and a turn, and its reason is in
  ``info["parse_error"]`` and in the observation.
- **Info**: every step has ``turn`` and ``invalid_actions`` (counts so far) and, where the
  action set is finite, ``legal_actions`` (text mode) or ``action_mask`` (vector mode).
  The last step adds ``success`` and ``score`` (the game's normalised score, by default
  1.0 for success and 0.0 otherwise) and, where the oracle knows the shortest win,
  ``optimal_steps`` and ``efficiency`` (``optimal_steps / turns`` when the game was won,
  else 0.0); the runner records these as the episode's metrics; a game adds its own keys
  with ``final_info()`` (last step) and ``step_info()`` (every step). Nothing in ``info``
  gives the answer away.
"""

from __future__ import annotations

import abc
import hashlib
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, TypeVar

import numpy as np
from gymnasium import spaces

from envsuite.env_base import EnvsuiteEnv, InvalidAction
from envsuite.families.text.answer_grammar import MAX_ANSWER_TEXT, extract_answer
from envsuite.families.text.splits import Split, checked_split
from envsuite.rendering import TEXT_RENDER_MODES, checked_render_mode
from envsuite.spaces import UnicodeText

MoveT = TypeVar("MoveT")
History = Literal["last", "summary", "full"]
HISTORIES: tuple[str, ...] = ("last", "summary", "full")

#: Longest piece of text (instructions, a state, one feedback) an observation holds;
#: longer pieces are cut, and the observation space's length is built from this.
TEXT_PIECE_LIMIT = 4096
#: How much of an agent's action the ``full`` history quotes back.
ECHO_LIMIT = 200


@dataclass(frozen=True)
class MoveResult:
    """What a legal move did.

    Attributes:
        feedback: What the player is told (e.g. ``"crane: G . Y . ."``); it should make
            sense on its own, as the ``last`` history shows nothing else.
        reward: The move's reward.
        done: Whether the game ended (won or lost).
        success: Whether the game was won; read only when ``done``.
    """

    feedback: str
    reward: float = 0.0
    done: bool = False
    success: bool = False


class TextGameEnv(EnvsuiteEnv[Any, Any, MoveT], Generic[MoveT]):
    """A single-player text game (see the module docstring for what the base provides).

    Args:
        observation_mode: ``"text"`` or, for games that offer it, ``"vector"``.
        history: ``"last"``, ``"summary"`` or ``"full"`` (text mode; see the module).
        max_turns: Turns before the episode is truncated.
        split: ``"train"``, ``"val"`` or ``"test"``: which instances are drawn.
        invalid_penalty: What a malformed or illegal action costs (a non-negative number).
        render_mode: ``"ansi"``, ``"rgb_array"``, ``"human"`` or None.
    """

    metadata: dict[str, Any] = {"render_modes": list(TEXT_RENDER_MODES), "render_fps": 4}
    record_metrics: ClassVar[tuple[str, ...]] = (
        "turns",
        "invalid_actions",
        "optimal_steps",
        "efficiency",
    )

    #: The name that salts the game's split hashes (never change it: it moves instances
    #: between splits).
    game_name: ClassVar[str] = ""
    #: The observation modes the game offers.
    observation_modes: ClassVar[tuple[str, ...]] = ("text",)

    def __init__(
        self,
        *,
        observation_mode: str = "text",
        history: History = "last",
        max_turns: int = 50,
        split: Split = "train",
        invalid_penalty: float = 0.1,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if observation_mode not in self.observation_modes:
            raise ValueError(
                f"observation_mode must be one of {self.observation_modes}; "
                f"got {observation_mode!r}"
            )
        if history not in HISTORIES:
            raise ValueError(f"history must be one of {HISTORIES}; got {history!r}")
        if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1:
            raise ValueError(f"max_turns must be a positive int; got {max_turns!r}")
        if not isinstance(invalid_penalty, int | float) or not 0 <= invalid_penalty < np.inf:
            raise ValueError(
                f"invalid_penalty must be a non-negative number; got {invalid_penalty!r}"
            )
        self.observation_mode = observation_mode
        self.history: History = history
        self.max_turns = max_turns
        self.split: Split = checked_split(split)
        self.invalid_penalty = float(invalid_penalty)
        self.render_mode = checked_render_mode(render_mode, self.metadata["render_modes"])
        self.text_mode = observation_mode == "text"
        if self.text_mode:
            pieces = 2 + 2 * max_turns if history == "full" else 2
            self.observation_space: spaces.Space[Any] = UnicodeText(
                pieces * (TEXT_PIECE_LIMIT + ECHO_LIMIT + 8)
            )
            self.action_space: spaces.Space[Any] = UnicodeText(MAX_ANSWER_TEXT)
        else:
            self.observation_space, self.action_space = self.vector_spaces()
        #: The shortest number of moves that wins the current instance, where known.
        self.optimal_steps: int | None = None
        self.turns = 0
        self.invalid_actions = 0
        self._transcript: list[str] = []
        self._echo = ""
        self._instructions = ""

    # -- the game's hooks --------------------------------------------------------------
    @abc.abstractmethod
    def new_game(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """Draw the instance from ``self.np_random`` (in ``self.split``); reset the state."""

    @abc.abstractmethod
    def instance_key(self) -> str:
        """The current instance's canonical key (its split is a hash of it)."""

    @abc.abstractmethod
    def instructions(self) -> str:
        """The rules and how to answer, shown at every reset."""

    @abc.abstractmethod
    def state_text(self) -> str:
        """The state now, as the player may see it (also the ``ansi`` frame)."""

    @abc.abstractmethod
    def parse_move(self, answer: str) -> MoveT:
        """The move ``answer`` names, or InvalidAction naming the rule it breaks."""

    @abc.abstractmethod
    def play(self, move: MoveT) -> MoveResult:
        """Apply a legal move."""

    def legal_moves(self) -> list[str] | None:
        """Every legal move as text, where the set is finite and small; else None."""
        return None

    def score(self, success: bool) -> float:
        """The game's normalised score in [0, 1] at the end (default: 1.0 for a win)."""
        return 1.0 if success else 0.0

    def final_info(self) -> dict[str, Any]:
        """Game-specific keys added to the last step's info (default: none)."""
        return {}

    def step_info(self, info: dict[str, Any]) -> dict[str, Any]:
        """Game-specific keys added to every info, reset's included (default: none).

        ``info`` is what the base has put in it so far (``turn``, ``legal_actions``, ...),
        for keys derived from those; return only the keys to add.
        """
        return {}

    def vector_spaces(self) -> tuple[spaces.Space[Any], spaces.Space[Any]]:
        """Observation and action spaces of the vector mode."""
        raise NotImplementedError(f"{type(self).__name__} has no vector mode")

    def vector_observation(self) -> np.ndarray:
        """The state now as the vector mode's observation."""
        raise NotImplementedError(f"{type(self).__name__} has no vector mode")

    def parse_vector_move(self, action: Any) -> MoveT:
        """The move a vector-mode action names, or InvalidAction."""
        raise NotImplementedError(f"{type(self).__name__} has no vector mode")

    def legal_move_mask(self) -> np.ndarray | None:
        """The vector mode's action mask (int8, 1 = legal), where the set is finite."""
        return None

    # -- the base's hooks --------------------------------------------------------------
    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[Any, dict[str, Any]]:
        """Start a game and show the instructions and the first state."""
        self.optimal_steps = None
        self.new_game(seed, options)
        self.turns = 0
        self.invalid_actions = 0
        if not self.text_mode:  # no text is shown: none is built
            return self.vector_observation(), self._info()
        self._instructions = _cut(self.instructions())
        first = self._instructions + "\n\n" + _cut(self.state_text())
        self._transcript = [first]
        return first, self._info()  # every history starts with the instructions and state

    def parse_action(self, action: Any) -> MoveT:
        """Read the agent's text through the answer grammar (or a vector action)."""
        if not self.text_mode:
            # Only the text mode's ``full`` history quotes actions; never ``repr`` an
            # agent's object (a hostile one raises from its ``__repr__``).
            self._echo = ""
            return self.parse_vector_move(action)
        if self.history != "full":  # only the full history quotes the action
            return self.parse_move(extract_answer(action))
        self._echo = _clip(action, ECHO_LIMIT) if isinstance(action, str) else "?"
        answer = extract_answer(action)
        self._echo = _clip(answer, ECHO_LIMIT)
        return self.parse_move(answer)

    def apply_action(self, parsed: MoveT) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play the move; end the game when it ends or the turns run out."""
        self.turns += 1
        result = self.play(parsed)
        return self._after(result.feedback, result.reward, result.done, result.success)

    def apply_invalid_action(self, message: str) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Charge the penalty and a turn; the state stays as it was."""
        self.turns += 1
        self.invalid_actions += 1
        feedback = f"Invalid action: {message}"
        return self._after(feedback, -self.invalid_penalty, False, False)

    def render_text(self) -> str:
        """The ``ansi`` frame: the state now."""
        return self.state_text()

    def state_hash(self) -> str:
        """sha256 of the instance, the visible state and the turn counters."""
        text = f"{self.instance_key()}\n{self.state_text()}\n{self.turns}/{self.invalid_actions}"
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    # -- assembling observations and infos ---------------------------------------------
    def _after(
        self, feedback: str, reward: float, done: bool, success: bool
    ) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        truncated = not done and self.turns >= self.max_turns
        feedback = _cut(feedback)
        if self.text_mode and self.history == "full":
            self._transcript.append(f"> {self._echo}\n{feedback}")
        info = self._info()
        if done or truncated:
            won = bool(done and success)
            info["success"] = won
            info["score"] = float(self.score(won))
            if self.optimal_steps is not None:
                info["optimal_steps"] = self.optimal_steps
                info["efficiency"] = self.optimal_steps / self.turns if won else 0.0
            info.update(self.final_info())
        return self._observation(feedback), float(reward), bool(done), truncated, info

    def _observation(self, feedback: str) -> Any:
        if not self.text_mode:
            return self.vector_observation()
        if self.history == "last":
            return feedback
        if self.history == "summary":  # the instructions as this episode's reset made them
            return self._instructions + "\n\n" + _cut(self.state_text()) + "\n\n" + feedback
        return "\n\n".join(self._transcript)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"turn": self.turns, "invalid_actions": self.invalid_actions}
        if self.text_mode:
            legal = self.legal_moves()
            if legal is not None:
                info["legal_actions"] = legal
        else:
            mask = self.legal_move_mask()
            if mask is not None:
                info["action_mask"] = mask
        info.update(self.step_info(info))
        return info


def _clip(text: str, limit: int) -> str:
    """``text``, cut to ``limit`` characters (the cut marked with ``...``)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _cut(text: str) -> str:
    """``text``, cut to :data:`TEXT_PIECE_LIMIT` characters."""
    return _clip(text, TEXT_PIECE_LIMIT)


__all__ = ["HISTORIES", "InvalidAction", "MoveResult", "TextGameEnv"]
