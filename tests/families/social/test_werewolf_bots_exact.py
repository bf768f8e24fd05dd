"""An exact check of bot-vs-bot play: the village's win probability when a
:class:`~envsuite.families.social.werewolf_bots.BeliefBot` holds every seat, by dynamic
programming over game states, against the env's Monte Carlo estimate with the real bots.

Configuration: 5 players (a werewolf, a seer, three villagers; no doctor), no discussion,
so a game is nights and votes. The bots' only randomness is their tie-breaking, and
``BeliefBot.action_probabilities`` gives the exact distribution their ``choose`` draws
from (the same options list, so the two cannot drift apart). The solver
(:func:`tests.families.social.exact_play.solve`) plays every move with its probability on
the rules engine; a bot's choice depends on its belief, which depends on what its seat
has read (night deaths, the published votes, its own knowledge: the seer's visions), so
the state key holds those besides the engine's state. Everything the bots do is
symmetric in the seats (ties are drawn uniformly from the tied seats), so one deal
stands for all; a test checks that another deal gives the same value.

The env's estimate (envsuite.make, every seat a ``BeliefBot(env)`` acting on its own
seat's view, seeded, so this test is deterministic) must have the exact value inside its
99.9% Wilson interval (6000 games: about +-0.02), and the value of a deliberately wrong
model must fall outside it: the same bots when a tied vote exiles one of the tied at
random instead of nobody (0.323 against 0.360). Solving takes about 6 s (5,500 states),
the games about 10 s. Two more checks put the bots on one side only (a BeliefBot
werewolf against random villagers: 0.217; random werewolf against BeliefBot villagers:
0.356; ties drawn at random), 800 games each: intervals of about +-0.05, so the
swapped value (0.139 away) lands inside with probability below 1e-7 (normal
approximation). The bots-everywhere check keeps 6000 games: its wrong model is only
0.037 away, and at 2000 games it would land inside about 40% of the time.

The solver moves on the engine, so this checks the env's side (a uniform deal, each bot
acting for the seat to move on its own seat's view, its draws following
``action_probabilities``), not the rules, which ``test_werewolf_exact.py`` models
independently; and a win rate is blind to some slips (a bot that always takes the first
of its tied options still wins about 0.38 here).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Hashable

import pytest

import envsuite
from envsuite.families.social.werewolf_bots import BeliefBot, RandomLegalBot
from envsuite.families.social.werewolf_rules import WerewolfGame
from envsuite.families.social.werewolf_setup import NAMES, WerewolfSetup
from tests.families.social.exact_play import Outcome, frozen, solve, wilson_interval

N = 5
MAX_DAYS = 4
GAMES = 6000
#: The deal the solver plays (the env deals uniformly; the value is the same for all).
DEAL = ("werewolf", "seer", "villager", "villager", "villager")


def setup(tie_rule: str) -> WerewolfSetup:
    return WerewolfSetup(
        num_players=N,
        num_werewolves=1,
        doctor=False,
        discussion_rounds=0,
        tie_rule=tie_rule,  # type: ignore[arg-type]
        max_days=MAX_DAYS,
        names=NAMES[:N],
    )


def key(game: WerewolfGame) -> Hashable:
    """The engine's state and what the bots' beliefs rest on (night deaths)."""
    killed = frozenset(m.subject for m in game.log if m.kind == "killed")
    state = {k: v for k, v in vars(game).items() if k not in ("log", "game_log", "pair_changes")}
    return frozen({**state, "killed": killed, "setup": None, "words": None})


@functools.cache
def exact(
    tie_rule: str, deal: tuple[str, ...] = DEAL, wolf: type = BeliefBot, village: type = BeliefBot
) -> Outcome:
    """(P(village wins), P(werewolves win), P(undecided)) with ``wolf`` playing the
    werewolf and ``village`` every other seat (bot classes)."""
    bots = [(wolf if role == "werewolf" else village)() for role in deal]
    rules = setup(tie_rule)
    value, _ = solve(
        lambda: WerewolfGame(rules, deal),
        lambda game, seat: bots[seat].action_probabilities(game, seat),
        key,
        "village",
    )
    return value


def monte_carlo(
    tie_rule: str, games: int = GAMES, wolf: type = BeliefBot, village: type = BeliefBot
) -> int:
    """Village wins in ``games`` games through the env, the werewolf's seat played by a
    ``wolf`` and every other seat by a ``village`` (fresh each game, as the deal is)."""
    env = envsuite.make(
        "envsuite/Werewolf-v0",
        num_players=N,
        num_werewolves=1,
        doctor=False,
        discussion_rounds=0,
        tie_rule=tie_rule,
        max_days=MAX_DAYS,
        observation_mode="vector",
    )
    wins = 0
    for seed in range(games):
        env.reset(seed=seed)
        roles = env.unwrapped.game.roles
        bots = {
            agent: (wolf if roles[seat] == "werewolf" else village)(env)
            for seat, agent in enumerate(env.possible_agents)
        }
        for index, bot in enumerate(bots.values()):
            bot.reset(seed * 100 + index)
        for agent in env.agent_iter(1_000):
            observation, _, terminated, truncated, info = env.last(observe=False)
            env.step(None if terminated or truncated else bots[agent].act(observation, info))
        assert env.unwrapped.game.over
        wins += env.unwrapped.game.winner == "village"
    return wins


def test_the_bots_distribution_is_what_they_draw():
    game = WerewolfGame(setup("no_exile"), DEAL)
    bot = BeliefBot()
    probabilities = bot.action_probabilities(game, 0)  # the werewolf's first kill
    assert set(probabilities) == set(game.legal_actions(0))  # nobody is suspected yet
    assert math.isclose(sum(probabilities.values()), 1.0)
    counts: dict[object, int] = {}
    for seed in range(400):
        bot.reset(seed)
        action = bot.choose(game, 0)
        counts[action] = counts.get(action, 0) + 1
    assert set(counts) == set(probabilities) and min(counts.values()) > 60


def test_every_choice_has_its_probability_in_games_with_discussion():
    """Over whole bot games (claims, accusations, the doctor), ``choose`` draws from
    ``action_probabilities``: a distribution whose support holds the move made."""
    rules = WerewolfSetup(num_players=7, discussion_rounds=2, names=NAMES[:7])
    for seed in range(20):
        bots = [BeliefBot() for _ in range(7)]
        for index, bot in enumerate(bots):
            bot.reset(seed * 100 + index)
        roles = rules.base_roles()
        game = WerewolfGame(rules, tuple(roles[(i + seed) % 7] for i in range(7)))
        while not game.over:
            if game.to_move is None:
                game.apply_chance(game.chance_outcomes()[seed % len(game.chance_outcomes())])
                continue
            seat = game.to_move
            probabilities = bots[seat].action_probabilities(game, seat)
            action = bots[seat].choose(game, seat)
            assert math.isclose(sum(probabilities.values()), 1.0)
            assert probabilities.get(action, 0.0) > 0, (action, probabilities)
            game.apply(seat, action)


def test_the_exact_value_is_a_distribution_and_not_trivial():
    value = exact("no_exile")
    assert math.isclose(sum(value), 1.0) and 0.2 < value[0] < 0.6
    assert value[2] == 0.0  # decided within MAX_DAYS


def test_the_exact_value_does_not_depend_on_the_deal():
    other = ("villager", "villager", "seer", "villager", "werewolf")
    assert math.isclose(exact("random", other)[0], exact("random")[0], rel_tol=1e-9)


def test_monte_carlo_with_the_real_bots_agrees_with_the_exact_value():
    low, high = wilson_interval(monte_carlo("no_exile"), GAMES)
    assert low <= exact("no_exile")[0] <= high, (exact("no_exile"), low, high)
    # A wrong model falls outside: a tied vote that exiles one of the tied at random.
    assert not low <= exact("random")[0] <= high, (exact("random"), low, high)


MIXED_GAMES = 800


@pytest.mark.parametrize(
    ("wolf", "village"), [(BeliefBot, RandomLegalBot), (RandomLegalBot, BeliefBot)]
)
def test_monte_carlo_with_one_side_bots_agrees_with_the_exact_value(wolf, village):
    """A BeliefBot werewolf against random villagers and the reverse, ties drawn at random
    (so the solver also averages chance events): the exact value is inside the interval,
    the value with the bots on the other side outside it (an env that seated them by the
    wrong team would be caught)."""
    low, high = wilson_interval(monte_carlo("random", MIXED_GAMES, wolf, village), MIXED_GAMES)
    value = exact("random", DEAL, wolf, village)[0]
    assert low <= value <= high, (value, low, high)
    swapped = exact("random", DEAL, village, wolf)[0]
    assert not low <= swapped <= high, ("the sides swapped", swapped, low, high)
