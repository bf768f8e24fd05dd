"""What each role sees: no hidden role or night action leaks into another player's view.

The strong form (non-interference): two games whose deals differ only in roles a player
may not know, played with the same public actions, give that player byte-identical
text and vector observations at every step.
"""

from __future__ import annotations

import pytest

import envsuite
from envsuite.families.social.werewolf_observation import text_view, vector_view
from envsuite.families.social.werewolf_rules import WerewolfGame
from envsuite.families.social.werewolf_setup import Action, Phase
from tests.families.social.env_checks import check_every_view_in_random_play
from tests.families.social.werewolf_scripts import setup

# Seat 5 is a villager in both deals; who is the werewolf, the seer and the doctor differs.
DEAL_A = ("werewolf", "seer", "doctor", "villager", "villager", "villager")
DEAL_B = ("doctor", "villager", "villager", "werewolf", "seer", "villager")
OBSERVER = 5


def views(game: WerewolfGame, seat: int) -> tuple[str, bytes]:
    return text_view(game, seat, None, [], 60_000), vector_view(game, seat).tobytes()


def play_same_public_script(
    deal: tuple[str, ...], check: int = 0, save: int = 2, kill: int = 1
) -> list[tuple[str, bytes]]:
    """Night: ``kill``, ``check``, ``save``; a discussion; a vote exiling seat 2."""
    game = WerewolfGame(setup(6, discussion_rounds=1), deal)
    seen = [views(game, OBSERVER)]
    night = {Phase.NIGHT_WOLVES: Action("kill", kill), Phase.NIGHT_SEER: Action("check", check)}
    while game.phase in (Phase.NIGHT_WOLVES, Phase.NIGHT_SEER, Phase.NIGHT_DOCTOR):
        game.apply(game.to_move, night.get(game.phase, Action("save", save)))
        seen.append(views(game, OBSERVER))
    game.apply_chance(4)
    while game.phase is Phase.DISCUSSION:
        seat = game.to_move
        game.apply(
            seat,
            Action("say", None, f"I am seat {seat}")
            if seat % 2
            else Action("accuse", 4 if seat == 2 else 2),
        )
        seen.append(views(game, OBSERVER))
    while game.phase is Phase.VOTE:
        seat = game.to_move
        game.apply(seat, Action("vote", 2 if seat != 2 else 0))
        seen.append(views(game, OBSERVER))
    assert not game.alive[2] and not game.over
    return seen


def test_a_villager_cannot_tell_deals_apart_that_differ_in_hidden_roles():
    # The seer checks seat 0: a werewolf in deal A, the doctor in deal B.
    assert play_same_public_script(DEAL_A) == play_same_public_script(DEAL_B)


def test_a_villager_cannot_tell_what_the_seer_and_doctor_did():
    assert play_same_public_script(DEAL_A, 0, 2) == play_same_public_script(DEAL_A, 3, 4)


def test_a_villager_cannot_tell_whom_the_werewolves_chose_when_the_doctor_saved_them():
    assert play_same_public_script(DEAL_A, 0, 1, 1) == play_same_public_script(DEAL_A, 0, 3, 3)


def test_the_script_does_reach_private_information():
    # The seer and the werewolves did see something the villager did not.
    game = WerewolfGame(setup(6, discussion_rounds=0), DEAL_A)
    game.apply(0, Action("kill", 1))
    game.apply(1, Action("check", 0))
    game.apply(2, Action("save", 3))
    assert "Your vision: Alice is a werewolf." in text_view(game, 1, None, [], 60_000)
    assert "wants to kill Bob" in text_view(game, 0, None, [], 60_000)
    for seat in (2, 3, 4, 5):
        text = text_view(game, seat, None, [], 60_000)
        assert "vision" not in text and "wants to kill" not in text and "werewolves are" not in text


@pytest.mark.parametrize("mode", ["text", "vector"])
def test_no_info_or_observation_names_another_players_role_before_the_end(mode):
    def check(game, seat, info, text):
        assert info["role"] == game.roles[seat]
        if text is not None:
            names = game.names
            for hidden in range(len(names)):
                if game.known[seat][hidden] is None:
                    assert f"{names[hidden]}, the" not in text
                    assert f"{names[hidden]} the {game.roles[hidden]}" not in text

    env = envsuite.make("envsuite/Werewolf-v0", num_players=7, observation_mode=mode)
    check_every_view_in_random_play(env, 2000, check)
