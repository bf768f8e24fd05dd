"""Werewolf's legal actions in one phase, as tuples kept across games.

The legal actions depend only on the phase, the seat, who lives, who the werewolves are
(at their night) and whether the doctor may save itself; :func:`legal_actions_in` keeps
the tuples of the most recent such states, so callers may cache what they derive from
one by its identity.
"""

from __future__ import annotations

from functools import lru_cache

from envsuite.families.social.werewolf_setup import BID_VALUES, CLAIM_VALUES, PASS, Action, Phase


@lru_cache(maxsize=4096)
def legal_actions_in(
    value: str, seat: int, alive: tuple[bool, ...], wolves: tuple[int, ...], self_save: bool
) -> tuple[Action, ...]:
    """The legal actions of ``seat``, to move in the phase of value ``value``.

    ``alive``: whether each seat lives; ``wolves``: the werewolves' seats (at their night,
    else empty); ``self_save``: whether the doctor may protect itself. The tuples are
    kept (the same object comes back for the same arguments): see
    :meth:`~envsuite.families.social.werewolf_rules.WerewolfGame.legal_tuple`.
    """
    phase = Phase(value)
    living = [s for s in range(len(alive)) if alive[s]]
    others = [s for s in living if s != seat]
    if phase is Phase.NIGHT_WOLVES:
        return tuple(Action("kill", s) for s in living if s not in wolves)
    if phase is Phase.NIGHT_SEER:
        return tuple(Action("check", s) for s in others)
    if phase is Phase.NIGHT_DOCTOR:
        return tuple(Action("save", s) for s in (living if self_save else others))
    if phase is Phase.VOTE:
        return (PASS, *(Action("vote", s) for s in others))
    if phase is Phase.BID:
        return tuple(Action("bid", None, value) for value in BID_VALUES)
    everyone_else = [s for s in range(len(alive)) if s != seat]
    return (
        PASS,
        Action("say", None, ""),
        *(Action("accuse", s) for s in others),
        *(Action("claim", s, value) for s in everyone_else for value in CLAIM_VALUES),
    )
