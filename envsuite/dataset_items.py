"""Which dataset item an episode poses: the one rule every dataset-backed env follows.

An env whose episodes each pose one item of a fixed, ordered list (SAT's dataset files,
SWE's tasks) picks the item in ``new_episode(seed, options)`` with :func:`pick_item`, which
decides in this order:

1. **An explicit index** (the env reads it from ``options``, e.g. SAT's
   ``options={"instance": i}``): item ``i``, which must be an int in ``[0, count)``.
2. **Rule** ``"seed_index"`` **and a seed**: item ``seed mod count``, so seeds
   ``0 .. count-1`` cover the list once, in order, and a report can name a seed's item
   without building the env.
3. **Otherwise** (rule ``"draw"``, or a reset without a seed): one draw
   ``rng.integers(count)`` from the env's generator. A reset with seed ``s`` therefore
   poses the item of the first draw of the generator ``reset(seed=s)`` makes, which
   :func:`item_for_seed` computes without an env; a reset without a seed continues the
   env's stream.

Every envsuite seed picks the same item it picked before this module existed: golden
transcripts and frozen leaderboards pin the rule, so it must not change.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from gymnasium.utils.seeding import np_random

#: How a seed picks an item when no explicit index is given (see the module docstring).
ItemRule = Literal["seed_index", "draw"]
ITEM_RULES: tuple[ItemRule, ...] = ("seed_index", "draw")


def pick_item(
    count: int,
    rng: np.random.Generator,
    seed: int | None,
    *,
    rule: ItemRule = "seed_index",
    index: Any = None,
    index_name: str = "index",
) -> int:
    """The index of the item an episode poses (the rule of the module docstring).

    Args:
        count: How many items there are.
        rng: The env's generator (``self.np_random``), already seeded by ``reset``; it is
            drawn from only under step 3 of the rule.
        seed: The seed ``reset`` was given, or None.
        rule: ``"seed_index"`` (a seed picks item ``seed mod count``) or ``"draw"``.
        index: An explicit index from the reset's options, or None.
        index_name: The option's name, for the error message.

    Returns:
        An int in ``[0, count)``.

    Raises:
        ValueError: ``count`` is not positive, ``rule`` is unknown, or ``index`` is not an
            int in ``[0, count)``.
    """
    if count < 1:
        raise ValueError(f"there are no items to pick from (count={count})")
    if rule not in ITEM_RULES:
        raise ValueError(f"rule must be one of {ITEM_RULES}, got {rule!r}")
    if index is not None:
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            raise ValueError(_bad_index(index_name, count, index))
        if not 0 <= int(index) < count:
            raise ValueError(_bad_index(index_name, count, index))
        return int(index)
    if rule == "seed_index" and seed is not None:
        return int(seed) % count
    return int(rng.integers(count))


def item_for_seed(count: int, seed: int, *, rule: ItemRule = "seed_index") -> int:
    """The index :func:`pick_item` gives a reset with ``seed`` and no explicit index.

    Lets a report label each seed with its item without building the env.
    """
    return pick_item(count, np_random(seed)[0], seed, rule=rule)


def _bad_index(name: str, count: int, value: Any) -> str:
    return f"options[{name!r}] must be an int in [0, {count}), got {value!r}"
