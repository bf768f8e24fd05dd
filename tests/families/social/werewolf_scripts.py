"""Helpers for the Werewolf tests: fixed deals and playing rule actions by role."""

from __future__ import annotations

from envsuite.families.social.werewolf_rules import WerewolfGame
from envsuite.families.social.werewolf_setup import NAMES, Action, Phase, WerewolfSetup


def setup(n: int = 6, **kwargs) -> WerewolfSetup:
    wolves = kwargs.pop("num_werewolves", 1)
    return WerewolfSetup(num_players=n, num_werewolves=wolves, names=NAMES[:n], **kwargs)


def night(game: WerewolfGame, kill: int, check: int | None = None, save: int | None = None):
    """Play one night: every living wolf names ``kill``; the seer checks; the doctor saves."""
    assert game.phase is Phase.NIGHT_WOLVES
    while game.phase is Phase.NIGHT_WOLVES:
        game.apply(game.to_move, Action("kill", kill))
    if game.phase is Phase.NIGHT_SEER:
        game.apply(game.to_move, Action("check", check))
    if game.phase is Phase.NIGHT_DOCTOR:
        game.apply(game.to_move, Action("save", save))


def vote(game: WerewolfGame, ballots: dict[int, int | None]):
    """Every living seat votes as ``ballots`` says (missing: abstain)."""
    assert game.phase is Phase.VOTE
    while game.phase is Phase.VOTE:
        seat = game.to_move
        target = ballots.get(seat)
        game.apply(seat, Action("pass") if target is None else Action("vote", target))
