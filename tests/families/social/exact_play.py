"""Exact outcome probabilities of small social games, and the interval a Monte Carlo
estimate is checked with.

:func:`solve` is dynamic programming over the states of a real rules engine
(:class:`~envsuite.families.social.werewolf_rules.WerewolfGame`,
:class:`~envsuite.families.social.amongus_rules.AmongUsGame`): from a state it takes every
move with its probability (a chance event's outcomes equally likely, as the envs draw
them; a player's from a policy's exact distribution), plays each on a fresh copy of the
game (rebuilt from its entries) and averages the values of the results. States are
merged by a key the caller gives, which must hold everything the rest of the game
depends on (a key that leaves something out gives a wrong value, which the Monte Carlo
checks catch).

:func:`wilson_interval` is the Wilson score interval of a binomial proportion.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import Any

#: (P(the first team wins), P(the other team wins), P(undecided)).
Outcome = tuple[float, float, float]
#: A move as played on the engine: ("chance", outcome) or ("act", seat, action).
Entry = tuple[Any, ...]
#: A player's exact action distribution: (game, seat) -> {action: probability}.
Policy = Callable[[Any, int], dict[Any, float]]
#: 99.9% two-sided.
Z = 3.29


def solve(
    new_game: Callable[[], Any],
    policy: Policy,
    key: Callable[[Any], Hashable],
    first_team: str,
) -> tuple[Outcome, int]:
    """The exact outcome of the game ``new_game()`` starts, with every seat playing
    ``policy``; also how many distinct states were solved."""
    memo: dict[Hashable, Outcome] = {}

    def value(entries: tuple[Entry, ...]) -> Outcome:
        game = new_game()
        for entry in entries:
            if entry[0] == "chance":
                game.apply_chance(entry[1])
            else:
                game.apply(entry[1], entry[2])
        if game.over:
            if game.winner is None:
                return (0.0, 0.0, 1.0)
            return (1.0, 0.0, 0.0) if game.winner == first_team else (0.0, 1.0, 0.0)
        state = key(game)
        if state in memo:
            return memo[state]
        if game.to_move is None:
            outcomes = game.chance_outcomes()
            moves = [(("chance", o), 1.0 / len(outcomes)) for o in outcomes]
        else:
            seat = game.to_move
            moves = [(("act", seat, a), p) for a, p in policy(game, seat).items() if p > 0]
        total = [0.0, 0.0, 0.0]
        for move, p in moves:
            result = value((*entries, move))
            for i in range(3):
                total[i] += p * result[i]
        memo[state] = (total[0], total[1], total[2])
        return memo[state]

    return value(()), len(memo)


def wilson_interval(wins: int, games: int, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval of ``wins`` successes in ``games`` trials."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


#: Types :func:`frozen` returns as they are (checked first: most of a state is these).
ATOMS = frozenset({str, int, float, bool, type(None)})


def frozen(value: Any) -> Hashable:
    """``value`` with its lists, sets and dicts made hashable (for state keys)."""
    if type(value) in ATOMS:
        return value
    if isinstance(value, dict):
        return tuple(sorted([(k, frozen(v)) for k, v in value.items()]))
    if isinstance(value, set | frozenset):
        return frozenset(value)
    if isinstance(value, list | tuple):
        return tuple([v if type(v) in ATOMS else frozen(v) for v in value])
    return value
