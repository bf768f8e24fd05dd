"""Lineups: which agent sits in which seat of a multi-agent env, and seat-rotation schedules.

A *lineup* is the seat-assignment form of an agent string, ``player_0=oracle,player_1=random``:
seat (the env's agent name) -> agent string. Seats it does not name play ``random`` (see
:func:`envsuite.agents.loading.load_agent`); a plain agent string (``random``) sits in
every seat.

A *seating* is one lineup of a rotation schedule. A task protocol's ``seat_rotation``
(see :mod:`envsuite.evaluation.protocol`) plays every seed once per seating, so that
every agent plays every seat:

- ``none``: the lineup as written, once;
- ``cyclic``: n seatings for n named seats; in seating r the agent written for the i-th
  seat sits in seat (i + r) mod n (seats in :func:`seat_order`);
- ``all``: all n! permutations, in the lexicographic order of
  :func:`itertools.permutations` (seating 0 is the lineup as written).

Rotating seats rotates roles: where a game ties a role to a seat (``player_0`` moves
first), each agent plays each role; where it deals roles from the seed, every seating of a
seed gets the same deal, so under ``all`` each agent plays every role dealt that seed.

Seatings that repeat an earlier one (two seats with the same agent) are dropped, so a
self-play lineup has one seating. Only the seats the agent string names rotate; name
every seat to rotate them all. A rotated episode records its seating as its ``agent_id``,
in the canonical form :func:`format_lineup` writes (every named seat, in seat order).

A *panel* is a fixed list of reference opponents (a task protocol's ``opponents``): one
agent plays each of them from every seat (:func:`panel_seatings`): in a two-player game
once from each seat; in a game of n > 2 seats (a social-deduction game) the agent takes one
seat and the opponent fills the other n - 1, once per seat. In a lineup a panel opponent
is written ``panel:AGENT`` (``panel:random``), so the agent and its opponent stay two
players even when both are ``random``; it plays as ``AGENT`` does.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping, Sequence
from typing import Literal

#: The seat-rotation schedules a task protocol can ask for.
SeatRotation = Literal["none", "cyclic", "all"]

#: Most seatings one schedule may produce (``all`` grows as n!: 7 seats give 5040).
MAX_SEATINGS = 5040
#: How a lineup marks a reference opponent of a panel: ``panel:random``.
PANEL_PREFIX = "panel:"
#: Seats of a two-player panel game (a panel game of n seats has n plays per opponent).
PANEL_SEATS = 2


class LineupError(ValueError):
    """An agent string that is not a valid seat assignment."""


def seat_order(seat: str) -> tuple[object, ...]:
    """Sort key of seat names with their numbers compared as numbers (player_2 < player_10)."""
    return tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part)
        for part in re.split(r"(\d+)", seat)
        if part
    )


def is_lineup(agent: str) -> bool:
    """Whether an agent string assigns agents to seats (``NAME=AGENT,...``)."""
    return "=" in agent


def parse_lineup(agent: str) -> dict[str, str]:
    """The seats an agent string assigns, in the order written.

    Raises:
        LineupError: a part without ``NAME=AGENT``, an empty name or agent, or a seat
            named twice.
    """
    if not is_lineup(agent):
        raise LineupError(f"{agent!r} assigns no seats (a lineup is 'NAME=AGENT,...')")
    seats: dict[str, str] = {}
    for part in agent.split(","):
        name, sep, value = part.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            raise LineupError(f"{part!r} is not NAME=AGENT (in the agent string {agent!r})")
        if name in seats:
            raise LineupError(f"seat {name!r} is named twice in the agent string {agent!r}")
        seats[name] = value
    return seats


def format_lineup(seats: Mapping[str, str]) -> str:
    """The canonical agent string of a lineup: every seat as ``NAME=AGENT``, in seat order."""
    return ",".join(f"{name}={seats[name]}" for name in sorted(seats, key=seat_order))


def seat_agents(agent: str, seats: Sequence[str]) -> dict[str, str]:
    """Who sat in each of ``seats`` under an agent string (what a record's agent_id says).

    A plain agent string sits in every seat; a lineup's unnamed seats play ``random``.

    Raises:
        LineupError: a malformed lineup.
    """
    if not is_lineup(agent):
        return dict.fromkeys(seats, agent)
    named = parse_lineup(agent)
    return {seat: named.get(seat, "random") for seat in seats}


def seatings(agent: str, rotation: SeatRotation) -> list[str]:
    """The agent strings of a rotation schedule, seating 0 first (see the module doc).

    ``none`` and a plain agent string give ``[agent]`` unchanged, so runs without rotation
    record the agent string as typed.

    Raises:
        LineupError: a malformed lineup, or a schedule of more than :data:`MAX_SEATINGS`.
    """
    if rotation == "none" or not is_lineup(agent):
        return [agent]
    named = parse_lineup(agent)
    seats = sorted(named, key=seat_order)
    agents = [named[seat] for seat in seats]
    n = len(seats)
    if rotation == "cyclic":
        orders: Sequence[Sequence[int]] = [[(i - r) % n for i in range(n)] for r in range(n)]
    else:
        if math.factorial(n) > MAX_SEATINGS:
            raise LineupError(
                f"seat_rotation 'all' over {n} seats gives {math.factorial(n):,} seatings, over "
                f"the limit of {MAX_SEATINGS:,}; use 'cyclic'"
            )
        orders = list(itertools.permutations(range(n)))
    result: list[str] = []
    for order in orders:
        # order[i]: which written agent sits in seat i
        text = format_lineup({seat: agents[order[i]] for i, seat in enumerate(seats)})
        if text not in result:
            result.append(text)
    return result


def is_panel_agent(agent: str) -> bool:
    """Whether an agent string names a panel's reference opponent (``panel:AGENT``)."""
    return agent.startswith(PANEL_PREFIX)


def panel_agent(opponent: str) -> str:
    """The lineup form of a panel opponent: ``random`` -> ``panel:random``."""
    return opponent if is_panel_agent(opponent) else PANEL_PREFIX + opponent


def unpanelled(agent: str) -> str:
    """The agent string a panel opponent plays as: ``panel:random`` -> ``random``."""
    return agent.removeprefix(PANEL_PREFIX)


def panel_seatings(agent: str, opponents: Sequence[str], seats: Sequence[str]) -> list[str]:
    """The lineups of one agent against a panel: every opponent, from every seat.

    Play p (0-based) is opponent ``p // n`` for a game of n seats, with ``agent`` in the
    seat ``p % n`` (in :func:`seat_order`) and the opponent in every other seat (see
    :func:`panel_play`); in a two-player game that is the agent first in even plays and
    second in odd ones. Nothing is deduplicated, so the schedule has exactly
    ``n * len(opponents)`` plays whatever the names.

    Raises:
        LineupError: fewer than two seats, an agent string that is a lineup or names a
            panel opponent, or no opponents.
    """
    if len(seats) < PANEL_SEATS:
        raise LineupError(f"a panel plays games of two or more seats; this one has {list(seats)}")
    if is_lineup(agent) or is_panel_agent(agent):
        raise LineupError(
            f"against a panel, the agent string names one agent (not {agent!r}); the panel "
            "fills the other seats"
        )
    if not opponents:
        raise LineupError("a panel needs at least one opponent")
    ordered = sorted(seats, key=seat_order)
    lineups = []
    for opponent in opponents:
        other = panel_agent(opponent)
        for mine in ordered:
            lineups.append(format_lineup({s: agent if s == mine else other for s in ordered}))
    return lineups


def panel_play(play: int, num_seats: int = PANEL_SEATS) -> tuple[int, int]:
    """(opponent index, the agent's seat index) of play ``play`` of :func:`panel_seatings`.

    Args:
        play: The play's index in the schedule.
        num_seats: Seats of the game (2 for a two-player game).
    """
    opponent, seat = divmod(play, num_seats)
    return opponent, seat
