"""Small Among Us games for the tests: a setup on the default map and a stepping helper."""

from __future__ import annotations

from typing import Any

from envsuite.families.social.amongus_rules import AmongUsGame
from envsuite.families.social.amongus_setup import DEFAULT_ROOMS, Action, AmongUsSetup

ROOM = {name: index for index, name in enumerate(DEFAULT_ROOMS)}


def setup(n: int = 5, **kwargs: Any) -> AmongUsSetup:
    """A game of ``n`` players, one task of two steps each, a one-round kill cooldown."""
    values = {"tasks_per_player": 1, "task_steps": 2, "kill_cooldown": 1, **kwargs}
    return AmongUsSetup(num_players=n, names=AmongUsSetup().names[:0] + _names(n), **values)


def _names(n: int) -> tuple[str, ...]:
    return ("Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace", "Heidi", "Ivan", "Judy")[:n]


def game(
    impostors: tuple[int, ...], tasks: dict[int, str], n: int = 5, **kwargs: Any
) -> AmongUsGame:
    """A game with ``impostors`` and each crewmate's one task room (by name)."""
    the_setup = setup(n, num_impostors=len(impostors), **kwargs)
    roles = ["impostor" if seat in impostors else "crewmate" for seat in range(n)]
    rooms = [
        () if seat in impostors else tuple(ROOM[r] for r in tasks[seat].split())
        for seat in range(n)
    ]
    return AmongUsGame(the_setup, roles, rooms)


def act(game: AmongUsGame, seat: int, kind: str, target: Any = None, value: str = "") -> None:
    """Play ``seat``'s action, checking it is that seat's turn (rooms may be given by name)."""
    assert game.to_move == seat, f"seat {game.to_move} is to move, not {seat}"
    if kind == "go":
        target = ROOM[target]
    game.apply(seat, Action(kind, target, value))
