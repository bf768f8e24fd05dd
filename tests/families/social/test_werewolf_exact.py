"""An exact check: the village's win probability under uniformly random play, by dynamic
programming over game states, against the env's Monte Carlo estimate.

Configuration: 5 players (a werewolf, a seer, a doctor, two villagers), no discussion, so
a game is nights and votes only. Uniformly random play means every player picks
uniformly among its legal actions (the env's action mask): the werewolf among the living
others, the doctor among the living (itself included), each voter among abstaining and
the living others; the seer's checks change nothing under random play. Random play is
symmetric in the seats, so one deal stands for all. The env's estimate (seeded, so this
test is deterministic) must have the exact value inside its 99.9% Wilson interval, for
both tie rules, and the other tie rule's exact value (a deliberately wrong rule: a tie
that exiles one of the tied at random where it should exile nobody, or the reverse;
0.324 against 0.265) outside it: 4000 games make the interval about +-0.023, so a rule
that wrong is caught (1000 games, about +-0.046, could not reliably tell them apart).
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pytest

import envsuite
from envsuite.families.social.voting import tally
from tests.families.social.exact_play import wilson_interval

N = 5
WOLF, DOCTOR = 0, 2  # seat 1 is the seer, seats 3 and 4 villagers
MAX_DAYS = 5
GAMES = 4000


def exact_outcome(tie_rule: str) -> tuple[float, float, float]:
    """(P(village wins), P(werewolves win), P(undecided)) from the first night."""

    def decided(alive: frozenset[int]) -> tuple[float, float, float] | None:
        wolves = int(WOLF in alive)
        if wolves == 0:
            return (1.0, 0.0, 0.0)
        if wolves >= len(alive) - wolves:
            return (0.0, 1.0, 0.0)
        return None

    @functools.cache
    def night(alive: frozenset[int], day: int) -> tuple[float, float, float]:
        victims = sorted(alive - {WOLF})
        saved = 1.0 / len(alive) if DOCTOR in alive else 0.0
        total = [0.0, 0.0, 0.0]
        for victim in victims:
            for dies, p in ((True, 1 - saved), (False, saved)):
                if p == 0.0:
                    continue
                after = alive - {victim} if dies else alive
                value = decided(after) or vote(after, day)
                for i in range(3):
                    total[i] += p / len(victims) * value[i]
        return (total[0], total[1], total[2])

    @functools.cache
    def vote(alive: frozenset[int], day: int) -> tuple[float, float, float]:
        voters = sorted(alive)
        options = [[None, *(s for s in voters if s != voter)] for voter in voters]
        weight = 1.0 / math.prod(len(o) for o in options)
        exiled: dict[int | None, float] = {}
        for ballots in itertools.product(*options):
            result = tally(list(ballots), tie_rule)
            if result.needs_draw:
                for seat in result.leaders:
                    exiled[seat] = exiled.get(seat, 0.0) + weight / len(result.leaders)
            else:
                exiled[result.chosen] = exiled.get(result.chosen, 0.0) + weight
        total = [0.0, 0.0, 0.0]
        for seat, p in exiled.items():
            after = alive if seat is None else alive - {seat}
            value = decided(after)
            if value is None:
                value = (0.0, 0.0, 1.0) if day >= MAX_DAYS else night(after, day + 1)
            for i in range(3):
                total[i] += p * value[i]
        return (total[0], total[1], total[2])

    return night(frozenset(range(N)), 1)


def monte_carlo(tie_rule: str) -> int:
    env = envsuite.make(
        "envsuite/Werewolf-v0",
        num_players=N,
        discussion_rounds=0,
        tie_rule=tie_rule,
        max_days=MAX_DAYS,
        observation_mode="vector",
    )
    rng = np.random.default_rng(2026)
    wins = 0
    for seed in range(GAMES):
        env.reset(seed=seed)
        for _ in env.agent_iter(10_000):
            _, _, terminated, truncated, info = env.last(observe=False)
            if terminated or truncated:
                env.step(None)
            else:
                legal = np.flatnonzero(info["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
        wins += env.unwrapped.game.winner == "village"
    return wins


def test_the_exact_values_are_a_distribution_and_not_trivial():
    for rule in ("no_exile", "random"):
        value = exact_outcome(rule)
        assert math.isclose(sum(value), 1.0) and 0.1 < value[0] < 0.9


@pytest.mark.parametrize("tie_rule", ["no_exile", "random"])
def test_monte_carlo_agrees_with_the_exact_value(tie_rule):
    low, high = wilson_interval(monte_carlo(tie_rule), GAMES)
    exact = exact_outcome(tie_rule)[0]
    assert low <= exact <= high, (tie_rule, exact, low, high)
    wrong = exact_outcome("random" if tie_rule == "no_exile" else "no_exile")[0]
    assert not low <= wrong <= high, ("the other tie rule", wrong, low, high)
