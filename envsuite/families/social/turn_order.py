"""Speaking orders: who speaks when in a discussion, and the speaking budget.

Round-robin order (``speaking_order="round_robin"``, the default): the living seats in
seat order, starting at a first speaker (a chance event the env draws uniformly among the
living, so no seat always opens), repeated once per discussion round. Each turn is one
message of at most the game's character budget.

Bidding order (``speaking_order="bidding"``), the dynamic turn-taking of Werewolf Arena
(Bailis, Friedhoff and Chen, 2024, "Werewolf Arena: A Case Study in LLM Evaluation via
Social Deduction", arXiv:2407.13943; the reference code is ``get_next_speaker`` in
google/werewolf_arena's ``werewolf/game.py``, the bid scale its ``BIDDING`` prompt in
``werewolf/prompts.py``): before each speech every living seat but
the one that spoke last bids its urgency to speak, 0 to 4 (0 "I would like to observe and
listen for now", 1 "I have some general thoughts to share", 2 "I have something critical
and specific to contribute", 3 "it is absolutely urgent for me to speak next", 4
"someone has addressed me directly and I must respond"). The highest bidder speaks; a tie
is drawn at random among the highest bidders, each one the previous speech mentioned
counting twice (Werewolf Arena's rule: its code lists mentioned bidders a second time
before drawing uniformly). The day has the same number of speeches as round-robin would
give it: ``discussion_rounds`` times the living seats when the discussion opens (Werewolf
Arena's own budget is a fixed 8 debate turns a day for 8 players). Werewolf Arena keeps
the bids in its round log and shows the players only the debate, so here too a bid is
secret: each player reads its own bid, everyone reads who has the floor and how many
speeches are left, and only the game log (the moderator's record) holds every bid.
"""

from __future__ import annotations

import re
from collections.abc import Sequence


def round_robin(living: Sequence[int], first: int, rounds: int) -> list[int]:
    """The seats in speaking order: ``living`` rotated to start at ``first``, ``rounds`` times.

    Raises:
        ValueError: ``first`` is not one of ``living``.
    """
    if first not in living:
        raise ValueError(f"the first speaker {first} is not a living seat {list(living)}")
    start = list(living).index(first)
    once = list(living[start:]) + list(living[:start])
    return once * rounds


def within_budget(text: str, budget: int) -> str:
    """``text`` cut to ``budget`` characters (a speech longer than the budget is truncated)."""
    return text if len(text) <= budget else text[:budget]


def speech_budget(living: int, rounds: int) -> int:
    """Speeches in a bidding day: as many as ``rounds`` round-robin rounds of ``living`` seats."""
    return living * rounds


def floor_draw(bids: Sequence[tuple[int, int]], mentioned: Sequence[int]) -> tuple[int, ...]:
    """The equally likely entries of the draw for the floor (one entry: no draw needed).

    Description:
        The highest bidders, in seat order; each one in ``mentioned`` appears twice (it is
        twice as likely to be drawn), as in Werewolf Arena.

    Args:
        bids: ``(seat, bid)`` of every bidder.
        mentioned: The seats the previous speech mentioned.

    Returns:
        The seats to draw from, uniformly by entry (a single entry when one bid is highest).

    Raises:
        ValueError: no bids.
    """
    if not bids:
        raise ValueError("no bids to choose a speaker from")
    top = max(bid for _, bid in bids)
    leaders = sorted(seat for seat, bid in bids if bid == top)
    if len(leaders) == 1:
        return (leaders[0],)
    return tuple(sorted(leaders + [seat for seat in leaders if seat in mentioned]))


def mentioned_seats(text: str, names: Sequence[str]) -> tuple[int, ...]:
    """The seats whose name (any case) or ``player_K`` appears as a word in ``text``."""
    words = {word.lower() for word in re.findall(r"\w+", text)}
    return tuple(
        seat
        for seat, name in enumerate(names)
        if name.lower() in words or f"player_{seat}" in words
    )
