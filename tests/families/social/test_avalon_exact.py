"""An exact check: good's win probability under uniformly random play, by dynamic
programming over the quest board, against the engine's Monte Carlo estimate.

Configuration: 7 players with Merlin, Oberon and the assassin (4 good; Oberon, the
assassin and a minion evil), no discussion. Uniformly random play means every player
picks uniformly among its legal actions: the leader among all C(7, k) teams, each voter
approve or reject (so a strict majority of 7 approves with probability 1/2), an evil
team member success or fail (good ones must play success), the assassin among the five
players it does not know to be evil (the four good and Oberon). Under random play the
leader and the seats do not matter: the number of evil players on a team is
hypergeometric, so the state is (quest, good wins, evil wins, rejections), and the
fourth quest needs two fail cards. The Monte Carlo estimate (seeded, so this test is
deterministic) must have the exact value (0.402) inside its 99.9% Wilson interval (1500
games: about +-0.04), and the value under a deliberately wrong rule, a fourth quest that
one fail card fails (0.276), outside it. Smaller slips are below this resolution: an
assassin choosing among 4 or 6 (0.377, 0.419), a sixth rejection needed to lose (0.429).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from envsuite.families.social.avalon_rules import AvalonGame
from envsuite.families.social.avalon_setup import NAMES, TEAM_SIZES, AvalonSetup
from tests.families.social.exact_play import wilson_interval

N, EVIL = 7, 3
SPECIALS = ("merlin", "oberon", "assassin")
GAMES = 1500


@functools.cache
def good_wins(quest: int, good: int, evil: int, rejections: int, fourth_needs: int = 2) -> float:
    """P(good wins) from this board under uniformly random play (``fourth_needs`` fail
    cards fail the fourth quest: 2 is the rule for 7 players, 1 a deliberately wrong rule)."""
    if evil == 3 or rejections == 5:
        return 0.0
    if good == 3:
        return 1.0 - 1.0 / 5  # the assassin names Merlin among 5 candidates
    size = TEAM_SIZES[N][quest]
    need = fourth_needs if quest == 3 else 1
    quest_value = 0.0
    for on_team in range(min(size, EVIL) + 1):
        teams = math.comb(EVIL, on_team) * math.comb(N - EVIL, size - on_team)
        weight = teams / math.comb(N, size)
        fails = sum(math.comb(on_team, f) for f in range(need, on_team + 1)) / 2**on_team
        quest_value += weight * (
            fails * good_wins(quest + 1, good, evil + 1, 0, fourth_needs)
            + (1 - fails) * good_wins(quest + 1, good + 1, evil, 0, fourth_needs)
        )
    return 0.5 * quest_value + 0.5 * good_wins(quest, good, evil, rejections + 1, fourth_needs)


def monte_carlo(games: int) -> int:
    setup = AvalonSetup(N, SPECIALS, discussion_rounds=0, names=NAMES[:N])
    rng = np.random.default_rng(16)
    base = setup.base_roles()
    wins = 0
    for _ in range(games):
        game = AvalonGame(setup, tuple(base[int(i)] for i in rng.permutation(N)))
        game.apply_chance(int(rng.integers(N)))
        while not game.over:
            legal = game.legal_actions(game.to_move)
            game.apply(game.to_move, legal[int(rng.integers(len(legal)))])
        wins += game.winner == "good"
    return wins


def test_the_exact_value_is_a_probability_and_not_trivial():
    value = good_wins(0, 0, 0, 0)
    assert 0.05 < value < 0.5
    assert good_wins(0, 0, 0, 4) < value  # a hammer at the start is worse for good


def test_monte_carlo_agrees_with_the_exact_value():
    low, high = wilson_interval(monte_carlo(GAMES), GAMES)
    assert low <= good_wins(0, 0, 0, 0) <= high, (good_wins(0, 0, 0, 0), low, high)
    wrong = good_wins(0, 0, 0, 0, fourth_needs=1)
    assert not low <= wrong <= high, ("one fail on the fourth quest", wrong, low, high)
