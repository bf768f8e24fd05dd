"""Speaking orders: who speaks when in a discussion, and the speaking budget.

Round-robin order: the living seats in seat order, starting at a first speaker (a chance
event the env draws uniformly among the living, so no seat always opens), repeated once
per discussion round. Each turn is one message of at most the game's character budget.
"""

from __future__ import annotations

from collections.abc import Sequence


def round_robin(living: Sequence[int], first: int, rounds: int) -> list[int]:
    """The seats in speaking order: ``living`` rotated to start at ``first``, ``rounds`` times.

    Raises:
        ValueError: ``first`` is not one of ``living``.
    """
    if first not in living:
        raise ValueError(f"the first speaker {first} is not a living seat {list(living)}")
    start = list(living).index(first)
    once = list(living[start:]) + list(living[:start])
    return once * rounds


def within_budget(text: str, budget: int) -> str:
    """``text`` cut to ``budget`` characters (a speech longer than the budget is truncated)."""
    return text if len(text) <= budget else text[:budget]
