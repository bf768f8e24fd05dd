"""Nim, a turn-based two-player game (PettingZoo AEC), for text or vector agents."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces

from envsuite.action_parsing import capped_int, parse_index
from envsuite.aec_env_base import EnvsuiteAECEnv, Turn
from envsuite.env_base import InvalidAction
from envsuite.families.decision.nim_rules import (
    Move,
    NimState,
    apply_move,
    forfeit,
    illegal_reason,
    legal_moves,
    mover_wins,
)
from envsuite.rendering import TEXT_RENDER_MODES, checked_render_mode
from envsuite.spaces import UnicodeText

ObservationMode = Literal["text", "vector"]

AGENTS = ("player_0", "player_1")
ROLES = ("first", "second")
#: Most heaps, and most objects in one heap: text observations and legal-action lists
#: name every heap and every move.
MAX_HEAPS = 20
MAX_HEAP_SIZE = 1000
#: What a text move looks like (``take 2 from heap 3``); "remove" and a noun are accepted.
MOVE_EXAMPLE = "take 2 from heap 3"
_MOVE = re.compile(
    r"\b(?:take|remove)\s+(-?\d+)\s+(?:[^\W\d_]+\s+)?from\s+heap\s*(?:#|no\.?|number)?\s*(-?\d+)",
    re.IGNORECASE,
)
#: Digits read from a number in a text move; longer numbers are taken as this many nines.


def move_text(move: Move) -> str:
    """The text form of ``move`` (heaps numbered from 1)."""
    return f"take {move.count} from heap {move.heap + 1}"


class NimEnv(EnvsuiteAECEnv[Any, Any, Move]):
    """Nim: two players take turns taking objects from heaps.

    Description:
        ``player_0`` (role ``first``) and ``player_1`` (role ``second``) take turns. A move
        takes one or more objects from a single heap. Under normal play whoever takes the
        last object wins; under misère play (``misere=True``) whoever takes it loses. The
        game is solved (Bouton, 1901): the player to move wins with perfect play iff the
        nim-sum (XOR of the heap sizes) is not 0; in misère play the same, except that when
        no heap holds more than one object the player to move wins iff an even number of
        heaps are left. The oracle plays this strategy. The default start, heaps 3, 4, 5
        (nim-sum 2), is a win for ``player_0``. With ``random_start=True`` each heap's size
        is drawn uniformly from 1 to its entry in ``heaps`` with ``self.np_random`` on
        every reset, so the seed picks the position.

    Observation:
        ``observation_mode="text"``: a :class:`~envsuite.spaces.UnicodeText` message per
        player: the rules, the heaps, the opponent's last move, the reason the player's
        own last answer was refused (when it was), and whose turn it is (or the result).
        ``observation_mode="vector"``: ``Box(0, max(heaps), (len(heaps) + 1,))`` float32:
        the heap sizes, then 1.0 when it is this player's turn (else 0.0).

    Action:
        Text mode: a sentence naming one move, ``take N from heap H`` (heaps numbered from
        1; case is ignored, ``remove`` and a noun are accepted: ``Remove 2 objects from
        heap #3.``). Vector mode: ``Discrete(len(heaps) * max(heaps))``; action
        ``h * max(heaps) + (n - 1)`` takes ``n`` objects from heap ``h`` (0-based). The
        player to move finds ``info["legal_actions"]`` (text) or ``info["action_mask"]``
        (vector; all zeros for the other player). A refused action is checked in this
        order, one reason each: not text (vector: not an integer, or out of range); no
        move found; more than one move named; no such heap; fewer than one object; the
        heap is empty; the heap holds fewer objects. Its reason is the player's
        ``info["parse_error"]``, it costs ``invalid_move_penalty`` and the same player
        moves again. A player may make ``max_invalid_moves`` refused moves per game; its
        next one forfeits the game, so a player that never moves legally cannot stall.
        An action sent for the player whose turn it is not (``step(action,
        agent="player_1")`` while ``player_0`` moves) is refused the same way and counts
        as that player's refused move.

    Reward:
        0 per legal move; at the end +1 for the winner and -1 for the loser;
        ``-invalid_move_penalty`` for each refused move, to the player that sent it.

    Termination:
        Both players terminate when the last object is taken or a player forfeits. Their
        final infos hold ``outcome`` (``"win"`` / ``"loss"``), ``role``, ``forfeit``
        (whether the game ended by a forfeit) and ``invalid_moves``. The env-level
        ``success`` (:meth:`episode_success`) is that the game ended as perfect play from
        the start predicts: the player to move first won iff the start is a winning
        position. Oracle self-play always succeeds, and so does the oracle in the winning
        seat against any opponent. There is no truncation: every legal move takes an
        object and refused moves are bounded, so a game lasts at most
        ``sum(heaps) + 2 * (max_invalid_moves + 1)`` steps.

    Arguments:
        heaps: The heap sizes (1 to 20 heaps of 1 to 1000 objects); with
            ``random_start``, each heap's largest size.
        random_start: Draw each heap's size from 1 to its ``heaps`` entry on every reset.
        misere: Misère play: taking the last object loses.
        observation_mode: ``"text"`` for LLM agents or ``"vector"`` for classic agents.
        invalid_move_penalty: The cost of a refused move (>= 0).
        max_invalid_moves: Refused moves a player may make per game before the next one
            forfeits (>= 0).
        render_mode: ``"ansi"`` (the text), ``"rgb_array"`` (the text drawn on an
            image), ``"human"`` (the text printed on every reset and step) or None.

    Version history:
        v0: Initial version.

    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(TEXT_RENDER_MODES),
        "name": "nim_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        heaps: Sequence[int] = (3, 4, 5),
        random_start: bool = False,
        misere: bool = False,
        observation_mode: ObservationMode = "text",
        invalid_move_penalty: float = 0.1,
        max_invalid_moves: int = 3,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.heaps = _checked_heaps(heaps)
        for name, flag in (("random_start", random_start), ("misere", misere)):
            if not isinstance(flag, bool):
                raise ValueError(f"{name} must be True or False, got {flag!r}")
        if observation_mode not in ("text", "vector"):
            raise ValueError(
                f"observation_mode must be 'text' or 'vector', got {observation_mode!r}"
            )
        penalty_ok = isinstance(invalid_move_penalty, int | float) and invalid_move_penalty >= 0
        if isinstance(invalid_move_penalty, bool) or not penalty_ok:
            raise ValueError(
                f"invalid_move_penalty must be a number >= 0, got {invalid_move_penalty!r}"
            )
        limit_ok = isinstance(max_invalid_moves, int) and 0 <= max_invalid_moves <= 1000
        if isinstance(max_invalid_moves, bool) or not limit_ok:
            raise ValueError(
                f"max_invalid_moves must be an int in [0, 1000], got {max_invalid_moves!r}"
            )
        self.random_start = random_start
        self.misere = misere
        self.observation_mode = observation_mode
        self.invalid_move_penalty = float(invalid_move_penalty)
        self.max_invalid_moves = max_invalid_moves
        self.render_mode = checked_render_mode(render_mode, TEXT_RENDER_MODES)
        self.possible_agents = list(AGENTS)
        self.max_heap = max(self.heaps)
        count = len(self.heaps)
        if observation_mode == "text":
            observation: spaces.Space[Any] = UnicodeText(1200 + 40 * count)
            action: spaces.Space[Any] = UnicodeText(1024)
        else:
            observation = spaces.Box(0.0, float(self.max_heap), (count + 1,), np.float32)
            action = spaces.Discrete(count * self.max_heap)
        self.observation_spaces = dict.fromkeys(AGENTS, observation)
        self.action_spaces = dict.fromkeys(AGENTS, action)
        self.state = NimState(self.heaps, misere=misere)
        self.first_player_wins = mover_wins(self.heaps, misere)
        self.invalid_moves = dict.fromkeys(AGENTS, 0)
        self.forfeited: str | None = None
        self.last_move: tuple[str, Move] | None = None

    # -- episode -----------------------------------------------------------------------
    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[str, dict[str, dict[str, Any]]]:
        """Set up the heaps (drawn from ``np_random`` with ``random_start``)."""
        assert self.np_random is not None  # seeded by reset
        if self.random_start:
            heaps = tuple(int(self.np_random.integers(1, top + 1)) for top in self.heaps)
        else:
            heaps = self.heaps
        self.state = NimState(heaps, misere=self.misere)
        self.first_player_wins = mover_wins(heaps, self.misere)
        self.invalid_moves = dict.fromkeys(AGENTS, 0)
        self.forfeited = None
        self.last_move = None
        return AGENTS[0], {agent: self._info(agent) for agent in AGENTS}

    def _info(self, agent: str) -> dict[str, Any]:
        info: dict[str, Any] = {
            "role": ROLES[AGENTS.index(agent)],
            "heaps": list(self.state.heaps),
            "invalid_moves": self.invalid_moves[agent],
        }
        if self.state.over:
            won = self.state.winner == AGENTS.index(agent)
            info["outcome"] = "win" if won else "loss"
            info["forfeit"] = self.forfeited is not None
        return info

    # -- actions -----------------------------------------------------------------------
    def parse_action(self, agent: str, action: Any) -> Move:
        """A move from text (``take 2 from heap 3``) or an action index, checked legal."""
        if self.observation_mode == "text":
            move = self._parse_text(action)
        else:
            index = parse_index(action, len(self.heaps) * self.max_heap, "action")
            move = Move(index // self.max_heap, index % self.max_heap + 1)
        reason = illegal_reason(self.state, move)
        if reason is not None:
            raise InvalidAction(f"illegal move: {reason}")
        return move

    def _parse_text(self, action: Any) -> Move:
        if not isinstance(action, str):
            raise InvalidAction(
                f"expected a move as text like {MOVE_EXAMPLE!r}, got {type(action).__name__}"
            )
        pairs = _MOVE.findall(action)
        found = {Move(capped_int(heap) - 1, capped_int(count)) for count, heap in pairs}
        if not found:
            raise InvalidAction(f"no move found; answer like {MOVE_EXAMPLE!r}")
        if len(found) > 1:
            named = ", ".join(sorted(move_text(move) for move in found))
            raise InvalidAction(f"the answer names more than one move ({named}); name one")
        return found.pop()

    def encode_move(self, move: Move) -> Any:
        """``move`` as this env's action (text, or the action index)."""
        if self.observation_mode == "text":
            return move_text(move)
        return move.heap * self.max_heap + move.count - 1

    def legal_actions(self, agent: str) -> list[Any] | None:
        """The legal moves of the player to move, in the env's action form."""
        if AGENTS.index(agent) != self.state.to_move or self.state.over:
            return []
        return [self.encode_move(move) for move in legal_moves(self.state)]

    def apply_action(self, agent: str, parsed: Move) -> Turn:
        """Play a legal move; the game ends when the last object is taken."""
        self.state = apply_move(self.state, parsed)
        self.last_move = (agent, parsed)
        return self._turn({})

    def apply_invalid_action(self, agent: str, message: str) -> Turn:
        """The penalty; the refused player's next refusal past the limit forfeits."""
        self.invalid_moves[agent] += 1
        rewards = {agent: -self.invalid_move_penalty}
        if self.invalid_moves[agent] > self.max_invalid_moves:
            self.state = forfeit(self.state, AGENTS.index(agent))
            self.forfeited = agent
        return self._turn(rewards)

    def _turn(self, rewards: dict[str, float]) -> Turn:
        """The step's Turn: end-of-game rewards and outcomes, or the next player."""
        mover = AGENTS[self.state.to_move]
        if not self.state.over:
            return Turn(
                rewards=rewards,
                infos={agent: self._info(agent) for agent in AGENTS},
                next_agent=mover,
            )
        final = dict(rewards)
        for index, agent in enumerate(AGENTS):
            final[agent] = final.get(agent, 0.0) + (1.0 if self.state.winner == index else -1.0)
        return Turn(
            rewards=final,
            terminated=AGENTS,
            infos={agent: self._info(agent) for agent in AGENTS},
        )

    def episode_success(self, final_infos: Mapping[str, Mapping[str, Any]]) -> bool | None:
        """Whether the game ended as perfect play from the start predicts (see Termination)."""
        if not self.state.over:
            return None
        return (self.state.winner == 0) == self.first_player_wins

    # -- observations ------------------------------------------------------------------
    def observe(self, agent: str) -> Any:
        """The heaps and the turn, as text or as a vector (see Observation)."""
        index = AGENTS.index(agent)
        if self.observation_mode == "vector":
            vector = np.zeros(len(self.heaps) + 1, dtype=np.float32)
            vector[: len(self.heaps)] = self.state.heaps
            vector[-1] = float(self.state.to_move == index and not self.state.over)
            return vector
        return self._text(agent, index)

    def _text(self, agent: str, index: int) -> str:
        rule = "loses" if self.misere else "wins"
        play = "misère play" if self.misere else "normal play"
        order = "first" if index == 0 else "second"
        heaps = ", ".join(f"heap {i + 1}: {size}" for i, size in enumerate(self.state.heaps))
        lines = [
            f"Nim ({play}). Players take turns; a move takes one or more objects from one "
            f"heap. Whoever takes the last object {rule}.",
            f"You are {agent} and move {order}.",
            f"Heaps: {heaps}.",
        ]
        if self.last_move is not None:
            who, move = self.last_move
            actor = "You" if who == agent else "Your opponent"
            lines.append(f"Last move: {actor} took {move.count} from heap {move.heap + 1}.")
        error = self.infos.get(agent, {}).get("parse_error") if self.infos else None
        if error:
            used = self.invalid_moves[agent]
            lines.append(
                f"Your last answer was refused ({error}). Refused answers so far: {used}; "
                f"{self.max_invalid_moves + 1} forfeit the game."
            )
        if self.state.over:
            won = self.state.winner == index
            how = " by forfeit" if self.forfeited is not None else ""
            lines.append(f"The game is over: you {'won' if won else 'lost'}{how}.")
        elif self.state.to_move == index:
            lines.append(f"It is your turn. Answer with one move, like {MOVE_EXAMPLE!r}.")
        else:
            lines.append("It is your opponent's turn.")
        return "\n".join(lines)

    def render_text(self) -> str:
        """The ``ansi`` frame: one row of bars per heap, and whose turn it is."""
        width = len(str(self.max_heap))
        rows = [
            f"heap {i + 1:>2} ({size:>{width}}): {'|' * size}"
            for i, size in enumerate(self.state.heaps)
        ]
        if self.state.over:
            status = f"{AGENTS[self.state.winner or 0]} won"
        else:
            status = f"{AGENTS[self.state.to_move]} to move"
        return "\n".join([f"Nim ({'misère' if self.misere else 'normal'}): {status}", *rows])

    def state_digest(self) -> str:
        """sha256 of the position, the refused-move counts and how the game ended."""
        payload = {
            "state": json.loads(self.state.canonical()),
            "invalid_moves": self.invalid_moves,
            "forfeited": self.forfeited,
        }
        encoded = json.dumps(payload, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(encoded.encode("utf-8")).hexdigest()


def _checked_heaps(heaps: Any) -> tuple[int, ...]:
    """``heaps`` as a tuple of ints, or a ValueError naming what is wrong."""
    if isinstance(heaps, str | bytes) or not isinstance(heaps, Sequence):
        raise ValueError(f"heaps must be a sequence of ints, got {heaps!r}")
    if not 1 <= len(heaps) <= MAX_HEAPS:
        raise ValueError(f"heaps must hold 1 to {MAX_HEAPS} heaps, got {len(heaps)}")
    for size in heaps:
        if isinstance(size, bool) or not isinstance(size, int | np.integer):
            raise ValueError(f"heap sizes must be ints, got {size!r}")
        if not 1 <= size <= MAX_HEAP_SIZE:
            raise ValueError(f"heap sizes must lie in [1, {MAX_HEAP_SIZE}], got {size}")
    return tuple(int(size) for size in heaps)
