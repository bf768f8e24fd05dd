"""Vote tallies and the documented tie rules.

A vote names one seat or abstains. The seat with the most votes is chosen; abstentions
count for nobody. When no vote was cast nobody is chosen. When several seats share the
most votes, the tie rule decides:

- ``"no_exile"``: nobody is chosen (Werewolf's common rule: a split village does not act);
- ``"random"``: one of the tied seats, uniformly at random (a chance event the env draws
  from its generator, so the engine stays free of randomness);
- ``"first_named"``: the tied seat that received a vote first (used for the werewolves'
  night choice, so their first choice wins a split).

A yes/no vote on a proposal (Avalon's team vote) passes with a strict majority of the
voters (:func:`strict_majority`); a tie rejects.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

TieRule = Literal["no_exile", "random", "first_named"]
TIE_RULES: tuple[TieRule, ...] = ("no_exile", "random", "first_named")


class Tally(NamedTuple):
    """The result of one vote (a named tuple: immutable, and quick to build).

    Attributes:
        counts: Votes received per seat (seats with none are left out).
        leaders: The seats with the most votes, in the order they first received a vote
            (empty when nobody voted).
        chosen: The seat the tie rule chooses, None when nobody is chosen, or None with
            ``needs_draw`` when the tie rule is ``"random"`` and the leaders tie.
        needs_draw: The leaders tie under ``"random"``: the caller draws one of them.

    """

    counts: dict[int, int]
    leaders: tuple[int, ...]
    chosen: int | None
    needs_draw: bool


def tally(votes: Sequence[int | None], tie_rule: TieRule) -> Tally:
    """Count ``votes`` (a seat, or None to abstain, in the order cast) under ``tie_rule``."""
    counts: dict[int, int] = {}
    for target in votes:
        if target is not None:
            counts[target] = counts.get(target, 0) + 1
    if not counts:
        return Tally(counts, (), None, False)
    best = max(counts.values())
    leaders = tuple(seat for seat, count in counts.items() if count == best)
    if len(leaders) == 1:
        return Tally(counts, leaders, leaders[0], False)
    if tie_rule == "first_named":
        return Tally(counts, leaders, leaders[0], False)
    if tie_rule == "random":
        return Tally(counts, leaders, None, True)
    return Tally(counts, leaders, None, False)


def strict_majority(approvals: Sequence[bool]) -> bool:
    """Whether more than half of ``approvals`` approve (a tie rejects: Avalon's team vote)."""
    return 2 * sum(approvals) > len(approvals)
