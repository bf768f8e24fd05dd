"""Roles and teams as data: a game is a set of roles plus a phase schedule.

A :class:`Role` says which team a player is on, what it may do at night and how it is
described to the player; the rules of each game read these fields instead of testing
role names, so a new role is a new entry, not new code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: What a role may do at night (``None``: nothing).
NightAbility = Literal["kill", "check", "save"] | None


@dataclass(frozen=True)
class Role:
    """One role of a social-deduction game.

    Attributes:
        name: The role's name (``"werewolf"``, ``"seer"``, ...), as agents see it.
        team: The team whose win is the role's win (``"werewolves"``, ``"village"``).
        night_ability: What the role does at night, or None.
        knows_team: Whether players of this role learn each other at the start (the
            werewolves do).
        description: One sentence shown to the player who holds the role.

    """

    name: str
    team: str
    night_ability: NightAbility
    knows_team: bool
    description: str


def role_counts(roles: tuple[str, ...]) -> dict[str, int]:
    """How many seats hold each role, in first-seen order."""
    counts: dict[str, int] = {}
    for name in roles:
        counts[name] = counts.get(name, 0) + 1
    return counts
