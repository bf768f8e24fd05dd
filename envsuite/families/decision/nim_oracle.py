"""The Nim oracle: perfect play by the nim-sum (Bouton, 1901), normal and misère.

From a winning position the oracle always moves to a losing one for its opponent, so it
wins whatever the opponent does. From a losing position every move loses against perfect
play; the oracle then takes one object from the largest heap (the lowest-numbered on
ties), which keeps the game long and leaves an imperfect opponent the most room to err.
It is deterministic: it needs no generator.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envsuite.families.decision.nim_rules import Move, NimState, nim_sum


def perfect_move(heaps: tuple[int, ...], misere: bool) -> Move:
    """A winning move from ``heaps`` when there is one, else the documented fallback.

    Raises:
        ValueError: every heap is empty (no move exists).
    """
    if not any(heaps):
        raise ValueError("every heap is empty: there is no move")
    big = [index for index, size in enumerate(heaps) if size > 1]
    if misere and len(big) <= 1:
        return _misere_endgame(heaps, big)
    total = nim_sum(heaps)
    if total != 0:
        for index, size in enumerate(heaps):
            if size ^ total < size:
                return Move(index, size - (size ^ total))
    largest = max(range(len(heaps)), key=lambda index: (heaps[index], -index))
    return Move(largest, 1)


def _misere_endgame(heaps: tuple[int, ...], big: list[int]) -> Move:
    """Misère play when at most one heap holds more than one object.

    Leave an odd number of one-object heaps (the opponent then takes the last object).
    """
    ones = sum(1 for size in heaps if size == 1)
    if big:
        heap = big[0]
        keep = 1 if ones % 2 == 0 else 0  # reduce the big heap to 1 or 0 to leave ones odd
        return Move(heap, heaps[heap] - keep)
    # Only one-object heaps: every move takes one; the first such heap.
    return Move(next(index for index, size in enumerate(heaps) if size == 1), 1)


class NimOracle:
    """Plays Nim perfectly for one player of a :class:`~envsuite.families.decision.nim.NimEnv`.

    It reads the position from the env (``env.unwrapped.state``), as oracles may; it
    answers in the env's action form (text or an action index).

    Args:
        env: The env it plays in (any wrapper of a NimEnv).

    """

    def __init__(self, env: Any) -> None:
        self.env = env.unwrapped

    def reset(self, seed: int | None = None) -> None:
        """Nothing to forget: the oracle reads the position on every move."""

    def act(self, observation: Any, info: Mapping[str, Any]) -> Any:
        """The perfect move in the current position, in the env's action form."""
        state: NimState = self.env.state
        move = perfect_move(state.heaps, state.misere)
        return self.env.encode_move(move)


def nim_oracle(env: Any) -> dict[str, NimOracle]:
    """Build the Nim-v0 oracle: a perfect player for each seat."""
    return {agent: NimOracle(env) for agent in env.unwrapped.possible_agents}
