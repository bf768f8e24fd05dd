"""The words a game shows for the engine's roles and teams: Werewolf's, or Mafia's.

The rules engine (:mod:`~envsuite.families.social.werewolf_rules`) keeps its own role ids
(``werewolf``, ``seer``, ``doctor``, ``villager``) and team ids (``werewolves``,
``village``); bots, vectors and logs use those. What players read (messages, role names
in infos and outcomes, claim words) comes from the :class:`Words` of the game, so Mafia
is the same engine with the mafia, a detective, a doctor and villagers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Words:
    """One game's words.

    Attributes:
        title: The game's name (``"Werewolf"``).
        roles: Engine role id -> the role's name in this game.
        teams: Engine team id -> the team's name in this game.
        killer: One member of the killing team, with its article (``"a werewolf"``).
        killers: The killing team as a subject (``"the werewolves"``).
        killers_win: The sentence announcing their win.
        vision: What the checking role's result is called (``"Your vision"``).
        claim_killer: The word a claim uses for the killing team (``"werewolf"``).
        descriptions: Engine role id -> the sentence shown to its holder.

    """

    title: str
    roles: Mapping[str, str]
    teams: Mapping[str, str]
    killer: str
    killers: str
    killers_win: str
    vision: str
    claim_killer: str
    descriptions: Mapping[str, str]

    def role(self, role_id: str) -> str:
        """The name of engine role ``role_id`` in this game."""
        return self.roles[role_id]

    def team(self, team_id: str) -> str:
        """The name of engine team ``team_id`` in this game."""
        return self.teams[team_id]

    def verdict(self, killer: bool) -> str:
        """``"a werewolf"`` or ``"not a werewolf"`` (this game's words)."""
        return self.killer if killer else f"not {self.killer}"


WEREWOLF_WORDS = Words(
    title="Werewolf",
    roles={"werewolf": "werewolf", "seer": "seer", "doctor": "doctor", "villager": "villager"},
    teams={"werewolves": "werewolves", "village": "village"},
    killer="a werewolf",
    killers="the werewolves",
    killers_win="The werewolves win.",
    vision="Your vision",
    claim_killer="werewolf",
    descriptions={
        "werewolf": "Each night you and the other werewolves kill.",
        "seer": "Each night you learn if one player is a werewolf.",
        "doctor": "Each night you protect one player from death.",
        "villager": "You have no night action; find the werewolves.",
    },
)

MAFIA_WORDS = Words(
    title="Mafia",
    roles={"werewolf": "mafia", "seer": "detective", "doctor": "doctor", "villager": "villager"},
    teams={"werewolves": "mafia", "village": "village"},
    killer="a mafia member",
    killers="the mafia",
    killers_win="The mafia wins.",
    vision="Your investigation",
    claim_killer="mafia",
    descriptions={
        "werewolf": "Each night you and the rest of the mafia eliminate a villager.",
        "seer": "Each night you investigate one player and learn if it is mafia.",
        "doctor": "Each night you protect one player from elimination.",
        "villager": "You have no night action; find the mafia.",
    },
)

#: The games of the engine, by the name a setup gives (``WerewolfSetup.game``).
GAME_WORDS: dict[str, Words] = {"werewolf": WEREWOLF_WORDS, "mafia": MAFIA_WORDS}
