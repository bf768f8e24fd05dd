"""The rules of Nim, apart from any env: positions, legal moves, playing a move, the winner.

Two players take turns; a move takes one or more objects from one heap. Under normal
play whoever takes the last object wins; under misère play whoever takes it loses. This
module knows nothing of Gymnasium, text or random generators: the env, its oracle and
the tests use the same functions.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, replace

#: Number of players; player 0 moves first.
PLAYERS = 2


@dataclass(frozen=True)
class Move:
    """Take ``count`` objects from heap ``heap`` (0-based)."""

    heap: int
    count: int


@dataclass(frozen=True)
class NimState:
    """A Nim position: heap sizes, the player to move and the winner once decided.

    Attributes:
        heaps: Objects left in each heap.
        to_move: The player (0 or 1) whose turn it is.
        misere: Misère play (taking the last object loses) instead of normal play.
        winner: The winning player once the game is over, else None.

    """

    heaps: tuple[int, ...]
    to_move: int = 0
    misere: bool = False
    winner: int | None = None

    @property
    def over(self) -> bool:
        """Whether the game has been decided."""
        return self.winner is not None

    def canonical(self) -> str:
        """A canonical text encoding of the position (what :meth:`digest` hashes)."""
        return json.dumps(
            {
                "heaps": list(self.heaps),
                "to_move": self.to_move,
                "misere": self.misere,
                "winner": self.winner,
            },
            sort_keys=True,
            separators=(",", ":"),
        )

    def digest(self) -> str:
        """sha256 hex of :meth:`canonical`."""
        return hashlib.sha256(self.canonical().encode("utf-8")).hexdigest()


def illegal_reason(state: NimState, move: Move) -> str | None:
    """Why ``move`` is illegal in ``state`` (heaps numbered from 1 in the text), or None.

    The checks run in a fixed order, one reason each: the game is over, the heap does not
    exist, the count is not positive, the heap is empty, the heap holds fewer objects.
    """
    if state.over:
        return "the game is over"
    if not 0 <= move.heap < len(state.heaps):
        return f"there is no heap {move.heap + 1} (heaps are numbered 1 to {len(state.heaps)})"
    if move.count < 1:
        return "a move must take at least one object"
    size = state.heaps[move.heap]
    if size == 0:
        return f"heap {move.heap + 1} is empty"
    if move.count > size:
        plural = "object" if size == 1 else "objects"
        return f"heap {move.heap + 1} has only {size} {plural}; cannot take {move.count}"
    return None


def legal_moves(state: NimState) -> list[Move]:
    """Every legal move, by heap and then by count (both ascending)."""
    if state.over:
        return []
    return [
        Move(heap, count) for heap, size in enumerate(state.heaps) for count in range(1, size + 1)
    ]


def apply_move(state: NimState, move: Move) -> NimState:
    """The position after ``move`` (which must be legal: a ValueError otherwise)."""
    reason = illegal_reason(state, move)
    if reason is not None:
        raise ValueError(f"illegal move {move}: {reason}")
    heaps = list(state.heaps)
    heaps[move.heap] -= move.count
    mover, following = state.to_move, 1 - state.to_move
    winner = None
    if not any(heaps):
        winner = following if state.misere else mover
    return replace(state, heaps=tuple(heaps), to_move=following, winner=winner)


def forfeit(state: NimState, player: int) -> NimState:
    """The position after ``player`` forfeits: the other player wins."""
    return replace(state, winner=1 - player)


def nim_sum(heaps: tuple[int, ...]) -> int:
    """The XOR of the heap sizes."""
    return functools.reduce(lambda a, b: a ^ b, heaps, 0)


def mover_wins(heaps: tuple[int, ...], misere: bool) -> bool:
    """Whether the player to move wins with perfect play (Bouton's theorem).

    Normal play: the nim-sum is not 0. Misère play: the same, unless no heap holds more
    than one object, when the player to move wins iff an even number of heaps are left.
    """
    if misere and all(size <= 1 for size in heaps):
        return sum(heaps) % 2 == 0
    return nim_sum(heaps) != 0
