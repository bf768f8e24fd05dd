"""Duplicate scoring for panel boards of many-seat games: a seat against the panel's own play of it.

In a game of n > 2 seats (a social-deduction game), an entry takes one seat and a panel
opponent fills the other n - 1 (:func:`~envsuite.agents.lineup.panel_seatings`). Counting
that game's win against the opponent would mostly measure the seat: in 7-player Werewolf
the werewolf's seat wins far more often than a villager's whoever plays it. So the entry's
seat is compared with the *opponent's own play of the same seat*: the panel's round robin
(:mod:`envsuite.leaderboard.panel`) holds, for every seed and repeat, the opponent's
*self-play game* (the opponent in every seat), dealt the same roles since the seed deals
them. The match of a play is (entry, opponent, y) with y = 1 when the entry's outcome in
seat s beats the opponent's outcome in seat s of the self-play game, 0 when it is worse
and 1/2 when the same (win > draw > loss). An entry that plays exactly as the opponent
scores 1/2 in expectation whatever the seat's role, and the Bradley–Terry model then
reads P(y = 1) = σ(θ_entry − θ_opponent).

The round robin of such a game (:func:`field_plays`): for every ordered pair (i, j) of
distinct opponents and every seat s, opponent i alone in seat s with j in the others,
then every opponent's self-play game; the matches among the panel come from the same
comparison (:func:`round_robin_matches`), so the panel's strengths and an entry's are on
one scale.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from envsuite.agents.lineup import format_lineup, panel_agent, seat_order
from envsuite.evaluation.metrics.game_outcomes import POINTS
from envsuite.evaluation.metrics.ratings import Match
from envsuite.evaluation.protocol import EnvEntry, TaskProtocol
from envsuite.jsonable import canonical_json
from envsuite.records import EpisodeRecord

#: (env id, canonical kwargs, seed, opponent index, repeat): a self-play game's key.
SelfPlayKey = tuple[str, str, int, int, int]


@dataclass(frozen=True)
class FieldPlay:
    """One play of a many-seat round robin: ``solo`` in ``seat``, ``field`` elsewhere.

    Attributes:
        solo: Index (in the protocol's opponents) of the opponent alone in its seat.
        field: Index of the opponent in every other seat.
        seat: The solo opponent's seat index (seat order), or None for the self-play
            game of ``field`` (``solo == field``, every seat the same opponent).
    """

    solo: int
    field: int
    seat: int | None


@functools.lru_cache(maxsize=64)
def ordered_seats(env_id: str, kwargs_json: str) -> tuple[str, ...]:
    """The seats of an env entry in :func:`~envsuite.agents.lineup.seat_order`."""
    entry = EnvEntry(id=env_id, kwargs=json.loads(kwargs_json))
    protocol = TaskProtocol(id="seats", envs=[entry], seeds=[0])
    return tuple(sorted(protocol.entry_seats(entry), key=seat_order))


def entry_seats(entry: EnvEntry) -> tuple[str, ...]:
    """:func:`ordered_seats` of a protocol's env entry."""
    return ordered_seats(entry.id, canonical_json(entry.kwargs))


def record_seats(record: EpisodeRecord) -> tuple[str, ...]:
    """:func:`ordered_seats` of the env a record played."""
    return ordered_seats(record.env_id, canonical_json(record.env_kwargs))


def field_plays(num_opponents: int, num_seats: int) -> list[FieldPlay]:
    """The plays of a many-seat round robin, in order (play q is attempt ``q * attempts + a``).

    Ordered pairs (i, j), i != j, with i the outer loop, each over seats 0 .. n-1; then the
    self-play game of each opponent in protocol order.
    """
    plays = [
        FieldPlay(solo, field, seat)
        for solo in range(num_opponents)
        for field in range(num_opponents)
        if field != solo
        for seat in range(num_seats)
    ]
    plays.extend(FieldPlay(o, o, None) for o in range(num_opponents))
    return plays


def field_lineup(play: FieldPlay, opponents: Sequence[str], seats: Sequence[str]) -> str:
    """The lineup (agent string) of one round-robin play."""
    solo, field = panel_agent(opponents[play.solo]), panel_agent(opponents[play.field])
    return format_lineup(
        {seat: solo if index == play.seat else field for index, seat in enumerate(seats)}
    )


def duplicate_points(outcome: object, reference: object) -> float:
    """Y of the module doc: 1, 1/2 or 0 as ``outcome`` beats, equals or trails ``reference``.

    Raises:
        ValueError: either is not ``win``, ``draw`` or ``loss``.
    """
    if outcome not in POINTS or reference not in POINTS:
        raise ValueError(f"outcomes {outcome!r} and {reference!r} must be win, draw or loss")
    mine, theirs = POINTS[str(outcome)], POINTS[str(reference)]
    return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5


def self_play_outcomes(
    protocol: TaskProtocol, panel_records: Iterable[EpisodeRecord]
) -> dict[SelfPlayKey, dict[str, str | None]]:
    """Seat -> outcome of every self-play game of the round robin, by :data:`SelfPlayKey`."""
    found: dict[SelfPlayKey, dict[str, str | None]] = {}
    for record in panel_records:
        seats = record_seats(record)
        if len(seats) <= 2:
            continue
        plays = field_plays(len(protocol.opponents), len(seats))
        play = plays[record.attempt // protocol.attempts]
        if play.seat is not None:
            continue
        key = (
            record.env_id,
            canonical_json(record.env_kwargs),
            record.seed,
            play.field,
            record.attempt % protocol.attempts,
        )
        found[key] = {seat: record.agents[seat].outcome for seat in seats if seat in record.agents}
    return found


def reference_outcome(
    references: dict[SelfPlayKey, dict[str, str | None]],
    record: EpisodeRecord,
    opponent: int,
    seat: str,
    attempts: int,
) -> str | None:
    """The outcome of ``seat`` in ``opponent``'s self-play game of the record's deal.

    Raises:
        ValueError: the round robin holds no such game.
    """
    key = (
        record.env_id,
        canonical_json(record.env_kwargs),
        record.seed,
        opponent,
        record.attempt % attempts,
    )
    if key not in references:
        raise ValueError(
            f"{record.env_id} seed {record.seed}: the panel's round robin has no self-play "
            f"game of opponent {opponent} to compare seat {seat} with"
        )
    return references[key].get(seat)


def round_robin_matches(
    protocol: TaskProtocol, panel_records: Sequence[EpisodeRecord]
) -> list[list[Match]]:
    """One match per solo game of the many-seat round robin (self-play games give none).

    Raises:
        ValueError: a game without a win / draw / loss outcome in a compared seat.
    """
    references = self_play_outcomes(protocol, panel_records)
    names = [panel_agent(o) for o in protocol.opponents]
    episodes = []
    for record in panel_records:
        seats = record_seats(record)
        if len(seats) <= 2:
            continue
        play = field_plays(len(names), len(seats))[record.attempt // protocol.attempts]
        if play.seat is None:
            continue
        seat = seats[play.seat]
        outcome = record.agents[seat].outcome if seat in record.agents else None
        reference = reference_outcome(references, record, play.field, seat, protocol.attempts)
        y = duplicate_points(outcome, reference)
        episodes.append([(names[play.solo], names[play.field], y)])
    return episodes
