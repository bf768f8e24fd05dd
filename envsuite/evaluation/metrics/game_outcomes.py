"""Win rates of games with winners: by agent, seat, role and team, with Wilson intervals.

A game's records carry per seat (``EpisodeRecord.agents``) its own outcome (``win``,
``loss`` or ``draw``), role and team; who sat in the seat comes from the record's
``agent_id`` (a lineup such as ``player_0=oracle,player_1=random``, or one agent string
for every seat; see :mod:`envsuite.agents.lineup`). So with seat rotation the numbers
are of the agents, whichever seat they sat in, and of the seats and roles, whoever sat
there.

Counting rules, the same in every table:

- a *trial* is one seat of one episode whose outcome is ``win``, ``loss`` or ``draw``;
  seats with ``success`` / ``failure`` or no outcome, and episodes lost to infrastructure
  errors, are in no count;
- win rate = wins / trials: a draw is a trial that was not won. Draws are reported apart
  (their count and rate), never as half a win; the Bradley–Terry ratings of
  :mod:`~envsuite.evaluation.metrics.game_ratings` count a draw as half a point;
- intervals are Wilson score intervals
  (:func:`~envsuite.evaluation.metrics.wilson.wilson_interval`),
  which treat trials as independent. Where one agent holds several seats of an episode
  (self-play, a team of copies) its trials in that episode are not independent and the
  interval is too narrow; the episode-bootstrap of the ratings has no such assumption.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from envsuite.agents.lineup import LineupError, seat_agents, seat_order
from envsuite.evaluation.metrics.bootstrap import DEFAULT_CONFIDENCE, Interval
from envsuite.evaluation.metrics.record_groups import checked_records, split_infra_errors
from envsuite.evaluation.metrics.wilson import wilson_interval
from envsuite.records import EpisodeRecord

#: The outcomes of a game (as opposed to ``success`` / ``failure`` of a goal).
GAME_OUTCOMES = ("win", "draw", "loss")
#: Points an outcome is worth when two seats are compared (a draw is half a point).
POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}

#: What win rates can be grouped by.
Dimension = Literal["agent", "seat", "role", "team", "agent_role"]
DIMENSIONS: tuple[Dimension, ...] = ("agent", "seat", "role", "team", "agent_role")
#: How each dimension is named in tables.
DIMENSION_TITLES = {
    "agent": "agent",
    "seat": "seat",
    "role": "role",
    "team": "team",
    "agent_role": "agent as role",
}


@dataclass(frozen=True)
class SeatResult:
    """One seat of one episode of a game.

    Attributes:
        episode: Index of the episode in the canonical record order.
        seat: The env's agent name (``player_0``).
        agent: The agent string that sat there (``oracle``).
        outcome: ``win``, ``draw`` or ``loss``.
        role: The seat's role, where the game has roles.
        team: The seat's team, where the game has teams.
    """

    episode: int
    seat: str
    agent: str
    outcome: str
    role: str | None
    team: str | None

    def group(self, dimension: Dimension) -> str | None:
        """The group this result counts in along ``dimension`` (None: in no group)."""
        if dimension == "agent":
            return self.agent
        if dimension == "seat":
            return self.seat
        if dimension == "role":
            return self.role
        if dimension == "team":
            return self.team
        return None if self.role is None else f"{self.agent} as {self.role}"


def seat_results(records: Iterable[EpisodeRecord]) -> list[list[SeatResult]]:
    """The game results of each episode that ran, one list per episode (seats in order).

    Records are checked and put in canonical order (``record_groups.checked_records``);
    episodes with infrastructure errors and seats without a game outcome are left out,
    and so are episodes left with no seat.

    Raises:
        ValueError: records that cannot be aggregated together, or an ``agent_id`` that
            is a malformed lineup.
    """
    normal, _ = split_infra_errors(checked_records(records))
    episodes: list[list[SeatResult]] = []
    for record in normal:
        seats = sorted(record.agents, key=seat_order)
        try:
            sitting = seat_agents(record.agent_id, seats)
        except LineupError as exc:
            raise ValueError(f"{record.env_id} seed {record.seed}: {exc}") from exc
        results = [
            SeatResult(
                episode=len(episodes),
                seat=seat,
                agent=sitting[seat],
                outcome=str(record.agents[seat].outcome),
                role=record.agents[seat].role,
                team=record.agents[seat].team,
            )
            for seat in seats
            if record.agents[seat].outcome in GAME_OUTCOMES
        ]
        if results:
            episodes.append(results)
    return episodes


@dataclass(frozen=True)
class WinRate:
    """The win rate of one group (an agent, a seat, a role, a team, an agent in a role).

    Attributes:
        dimension: What the group is (``agent``, ``seat``, ``role``, ``team``, ``agent_role``).
        group: The group's name.
        trials: Seats of episodes counted (wins + draws + losses).
        wins: Trials won.
        draws: Trials drawn.
        losses: Trials lost.
        win_rate: wins / trials with its Wilson interval.
        draw_rate: draws / trials with its Wilson interval.
    """

    dimension: Dimension
    group: str
    trials: int
    wins: int
    draws: int
    losses: int
    win_rate: Interval
    draw_rate: Interval


def win_rates(
    records: Iterable[EpisodeRecord],
    dimensions: Sequence[Dimension] = DIMENSIONS,
    *,
    confidence: float = DEFAULT_CONFIDENCE,
) -> list[WinRate]:
    """Win rate (and draw rate) per group along each dimension, with Wilson intervals.

    Formula:
        For a group g with W wins, D draws and L losses over n = W + D + L trials (see the
        module doc for what a trial is): win rate W/n, draw rate D/n, each with the Wilson
        score interval at ``confidence``.

    Source:
        Wilson (1927); Brown, Cai & DasGupta (2001).

    Args:
        records: Episode records of one run (one agent string, or the seatings of one
            lineup).
        dimensions: The dimensions to group by, in the order rows come out.
        confidence: Coverage of the intervals.

    Returns:
        One :class:`WinRate` per (dimension, group) with trials, dimensions in the order
        given and groups sorted (seats in seat order). A dimension no result has a group
        along (no roles, no teams) gives no row.

    Raises:
        ValueError: as :func:`seat_results`, or a bad ``confidence``.
    """
    results = [result for episode in seat_results(records) for result in episode]
    rows: list[WinRate] = []
    for dimension in dimensions:
        counts: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(GAME_OUTCOMES, 0))
        for result in results:
            group = result.group(dimension)
            if group is not None:
                counts[group][result.outcome] += 1
        for group in sorted(counts, key=seat_order):
            wins, draws, losses = (counts[group][o] for o in GAME_OUTCOMES)
            trials = wins + draws + losses
            rows.append(
                WinRate(
                    dimension=dimension,
                    group=group,
                    trials=trials,
                    wins=wins,
                    draws=draws,
                    losses=losses,
                    win_rate=wilson_interval(wins, trials, confidence=confidence),
                    draw_rate=wilson_interval(draws, trials, confidence=confidence),
                )
            )
    return rows
