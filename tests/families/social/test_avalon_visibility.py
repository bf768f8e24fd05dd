"""What each Avalon role sees: no hidden role or quest card leaks into another player's view.

Non-interference: two games whose deals differ only in roles a player may not know (or
whose secret cards differ with the same number of fails), played with the same public
actions, give that player byte-identical text and vector observations at every step.
"""

from __future__ import annotations

import pytest

import envsuite
from envsuite.families.social.avalon_observation import text_view, vector_view
from envsuite.families.social.avalon_rules import AvalonGame
from envsuite.families.social.avalon_setup import NAMES, AvalonAction, AvalonSetup, Phase
from tests.families.social.env_checks import check_every_view_in_random_play

SPECIALS = ("merlin", "percival", "morgana", "mordred", "oberon", "assassin")
# Seven players; seat 6 is a loyal servant in every deal.
DEAL_A = ("merlin", "percival", "servant", "morgana", "mordred", "assassin", "servant")
DEAL_B = ("percival", "morgana", "assassin", "merlin", "servant", "mordred", "servant")


def views(game: AvalonGame, seat: int) -> tuple[str, bytes]:
    return text_view(game, seat, None, [], 60_000), vector_view(game, seat).tobytes()


def play(deal, observer, failer=4, specials=SPECIALS[:4] + SPECIALS[5:]):
    """Two quests: the first team (failer, 2) gets one fail card from ``failer``."""
    setup = AvalonSetup(7, specials, discussion_rounds=1, names=NAMES[:7])
    game = AvalonGame(setup, deal)
    game.apply_chance(0)
    seen = [views(game, observer)]
    script = iter([("say", ""), ("pass", "")] * 20)
    evil = {seat for seat in range(7) if game.teams[seat] == "evil"}
    for team in ((2, 4), (0, 1, 6)):
        while game.phase is Phase.DISCUSSION:
            kind, _ = next(script)
            game.apply(game.to_move, AvalonAction(kind, value=f"seat {game.to_move}"))
            seen.append(views(game, observer))
        game.apply(game.to_move, AvalonAction("propose", team))
        while game.phase is Phase.VOTE:
            game.apply(game.to_move, AvalonAction("approve" if game.to_move else "reject"))
        while game.phase is Phase.QUEST:
            mover = game.to_move
            fail = mover == failer and mover in evil
            game.apply(mover, AvalonAction("fail" if fail else "success"))
            seen.append(views(game, observer))
    return seen, game


def test_a_servant_cannot_tell_deals_apart_that_differ_in_hidden_roles():
    seen_a, game_a = play(DEAL_A, 6, failer=4)
    seen_b, game_b = play(DEAL_B, 6, failer=2)  # the same one fail card, from another seat
    assert game_a.results[0][1] == game_b.results[0][1] == 1
    assert seen_a == seen_b


def test_a_servant_cannot_tell_who_played_the_fail_card():
    # Seats 2 and 4 are both evil and both on the first team; either plays the fail card.
    deal = ("merlin", "percival", "morgana", "servant", "mordred", "assassin", "servant")
    first, _ = play(deal, 6, failer=4)
    second, _ = play(deal, 6, failer=2)
    assert first == second


def test_the_players_who_may_see_do_see():
    game = AvalonGame(AvalonSetup(7, SPECIALS[:4] + SPECIALS[5:], names=NAMES[:7]), DEAL_A)
    assert "You see these players as evil: Dave, Frank." in text_view(game, 0, None, [], 60_000)
    assert "You see Merlin and Morgana, one each: Alice, Dave." in text_view(
        game, 1, None, [], 60_000
    )
    assert "You see these players as evil: Dave, Frank." in text_view(game, 4, None, [], 60_000)
    servant = text_view(game, 6, None, [], 60_000)
    assert "You see" not in servant and "You know" not in servant


@pytest.mark.parametrize("mode", ["text", "vector"])
def test_no_info_or_observation_names_another_players_role_before_the_end(mode):
    def check(game, seat, info, text):
        assert set(info) >= {"role", "team"}
        assert info["role"] == game.roles[seat]
        if text is not None:
            assert "The roles were" not in text
            for hidden in range(7):
                if hidden != seat:
                    assert f"{game.names[hidden]} the {game.roles[hidden]}" not in text
                    assert f"{game.names[hidden]}, {game.roles[hidden]}" not in text
            assert "You played" not in text or seat in game.team or game.results

    env = envsuite.make("envsuite/Avalon-v0", num_players=7, observation_mode=mode)
    check_every_view_in_random_play(env, 3000, check)
