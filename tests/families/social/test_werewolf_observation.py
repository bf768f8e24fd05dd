"""The kept-state observers give exactly the one-off views (text and vector)."""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.families.social.werewolf_observation import (
    TextObserver,
    VectorObserver,
    text_view,
    vector_view,
)
from envsuite.families.social.werewolf_rules import WerewolfGame
from envsuite.families.social.werewolf_setup import NAMES, WerewolfSetup


def random_games(count: int, seed: int):
    """Random 7-player games (speeches included), yielding the game after every move."""
    rng = np.random.default_rng(seed)
    setup = WerewolfSetup(num_players=7, num_werewolves=2, max_days=7, names=NAMES[:7])
    for _ in range(count):
        base = setup.base_roles()
        game = WerewolfGame(setup, tuple(base[int(i)] for i in rng.permutation(len(base))))
        while not game.over:
            options = game.chance_outcomes()
            if options:
                game.apply_chance(options[int(rng.integers(len(options)))])
            else:
                legal = game.legal_actions(game.to_move)
                action = legal[int(rng.integers(len(legal)))]
                if action.kind == "say":
                    action = type(action)("say", None, "I suspect someone " * 5)
                game.apply(game.to_move, action)
            yield game


@pytest.mark.parametrize("limit", [60_000, 1_800])  # 1,800: older events are dropped
def test_the_observer_matches_text_view_for_every_seat_at_every_step(limit):
    observer = TextObserver()  # one observer across games, as the env keeps it
    dropped = False
    for game in random_games(3, seed=limit):
        for seat in range(7):
            error = "a reason" if seat == 2 else None
            legal = ["pass", "vote Bob"] if game.to_move == seat else []
            expected = text_view(game, seat, error, legal, limit)
            assert observer.view(game, seat, error, legal, limit) == expected
            dropped |= "earlier events not shown" in expected
    assert dropped == (limit < 60_000)


def all_pairs(game: WerewolfGame) -> np.ndarray:
    """The four pairwise tables rebuilt from scratch (votes, accusations, claims)."""
    days = float(game.setup.max_days)
    claims = [value for row in game.claims for value in row]
    return np.stack(
        [
            np.minimum(np.asarray(game.vote_counts, dtype=np.float32).ravel() / days, 1),
            np.minimum(np.asarray(game.accusations, dtype=np.float32).ravel() / days, 1),
            np.asarray([value == "werewolf" for value in claims], dtype=np.float32),
            np.asarray([value == "village" for value in claims], dtype=np.float32),
        ]
    )


def test_the_vector_observer_keeps_the_pair_tables_as_a_rebuild_would():
    observer = VectorObserver(7)  # one observer across games, rows updated as they change
    changed = 0
    for game in random_games(3, seed=11):
        assert observer._pairs(game).tobytes() == all_pairs(game).tobytes()
        changed += game.pair_changes > 0
        for seat in range(7):
            assert observer.view(game, seat).tobytes() == vector_view(game, seat).tobytes()
    assert changed
