"""Bradley–Terry and Elo ratings of the agents of a game, from its records' per-seat outcomes.

Each episode gives matches between the agents that sat in it (see :func:`episode_matches`);
the players rated are agents (the names in the agent string: ``oracle``, ``random``), not
seats, so with a protocol's ``seat_rotation`` an agent's rating averages over the seats
it played. Seat and role advantages show in the win rates of
:mod:`~envsuite.evaluation.metrics.game_outcomes`.

- Bradley–Terry: :func:`~envsuite.evaluation.metrics.ratings.bradley_terry_ratings` on
  every match (a draw is half a point), on the Elo scale (mean rating 1000); its interval
  resamples *episodes* (all matches of a drawn episode go together), since the matches of
  one episode are not independent.
- Elo: the sequential update, over episodes in canonical record order (task, seed,
  attempt); it depends on that order and is shown beside the order-free Bradley–Terry fit
  for readers used to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from envsuite.evaluation.metrics.bootstrap import (
    DEFAULT_CONFIDENCE,
    DEFAULT_REPS,
    FloatArray,
    Interval,
    check_bootstrap_args,
    percentile_interval,
)
from envsuite.evaluation.metrics.game_outcomes import POINTS, SeatResult, seat_results
from envsuite.evaluation.metrics.ratings import (
    DEFAULT_ANCHOR_RATING,
    DEFAULT_RIDGE,
    Match,
    bradley_terry_ratings,
)
from envsuite.records import EpisodeRecord

#: K-factor of the sequential Elo update: the most one game moves a rating (FIDE uses 10
#: to 40; 16 is the classic USCF value for established players).
DEFAULT_ELO_K = 16.0


def episode_matches(results: Sequence[SeatResult]) -> list[Match]:
    """The matches one episode gives, between the agents that sat in it.

    Formula:
        Every pair of seats (i before j in seat order) held by *different* agents and not
        on one team is one match (agent_i, agent_j, y), with y = 1 when seat i did better
        (win > draw > loss), 0 when seat j did, and 0.5 when both did the same. In a
        two-player game that is one match per episode; in a team game, each member against
        each opponent.

    Source:
        The reduction of multiplayer results to pairwise comparisons of the Bradley–Terry
        model, as in Hunter (2004), "MM Algorithms for Generalized Bradley–Terry Models",
        section 5 (rankings reduced to pairs).

    Args:
        results: One episode's :class:`SeatResult` list.

    Returns:
        The matches, in seat order (none in self-play).
    """
    matches: list[Match] = []
    for i, first in enumerate(results):
        for second in results[i + 1 :]:
            if first.agent == second.agent:
                continue
            if first.team is not None and first.team == second.team:
                continue
            a, b = POINTS[first.outcome], POINTS[second.outcome]
            matches.append((first.agent, second.agent, 1.0 if a > b else 0.0 if a < b else 0.5))
    return matches


def game_matches(records: Iterable[EpisodeRecord]) -> list[list[Match]]:
    """The matches of each episode, in canonical record order (episodes without any left out).

    Raises:
        ValueError: as :func:`~envsuite.evaluation.metrics.game_outcomes.seat_results`.
    """
    episodes = [episode_matches(results) for results in seat_results(records)]
    return [matches for matches in episodes if matches]


def elo_ratings(
    matches: Iterable[Match],
    *,
    k: float = DEFAULT_ELO_K,
    initial: float = DEFAULT_ANCHOR_RATING,
) -> dict[str, float]:
    """Sequential Elo ratings after playing ``matches`` in order.

    Formula:
        Every player starts at ``initial``. For a match (a, b, y): E = 1 / (1 + 10^((r_b −
        r_a)/400)), then r_a += k (y − E) and r_b −= k (y − E).

    Source:
        Elo (1978), "The Rating of Chessplayers, Past and Present", ch. 1.

    Args:
        matches: ``(player_a, player_b, outcome)`` triples, in the order played.
        k: The K-factor.
        initial: Every player's starting rating.

    Returns:
        Player -> rating, players sorted by name.

    Raises:
        ValueError: a self-match, an outcome outside [0, 1], or ``k <= 0``.
    """
    if k <= 0.0:
        raise ValueError(f"the K-factor must be positive, got {k}")
    ratings: dict[str, float] = {}
    for a, b, outcome in matches:
        if a == b:
            raise ValueError(f"a player cannot play itself: {a!r}")
        if not 0.0 <= outcome <= 1.0:
            raise ValueError(f"outcome must be in [0, 1] (1: a wins, 0: b wins), got {outcome}")
        ra, rb = ratings.setdefault(a, initial), ratings.setdefault(b, initial)
        expected = 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0))
        ratings[a] = ra + k * (outcome - expected)
        ratings[b] = rb - k * (outcome - expected)
    return dict(sorted(ratings.items()))


def bootstrap_episode_ratings(
    episodes: Sequence[Sequence[Match]],
    *,
    reps: int = DEFAULT_REPS,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
    ridge: float = DEFAULT_RIDGE,
) -> dict[str, Interval]:
    """Bradley–Terry ratings with percentile intervals that resample episodes.

    Formula:
        The estimate is :func:`~envsuite.evaluation.metrics.ratings.bradley_terry_ratings`
        on every match of every episode. Each replicate draws len(episodes) episodes with
        replacement and refits on their matches; a player absent from a replicate is NaN
        there, and so is every player of a replicate whose fit does not exist (``ridge=0``);
        the percentile interval ignores NaN.

    Source:
        Efron & Tibshirani (1993), ch. 6 and 13 (a cluster bootstrap with episodes as the
        clusters); Bradley & Terry (1952).

    Args:
        episodes: The matches of each episode (see :func:`game_matches`).
        reps: Bootstrap resamples.
        confidence: Nominal coverage in (0, 1).
        seed: Seed of the :class:`numpy.random.Generator` drawing the resamples.
        ridge: L2 penalty on log-strengths (keeps an undefeated agent finite).

    Returns:
        Agent -> rating interval, agents sorted by name.

    Raises:
        ValueError: no matches, bad ``reps`` or ``confidence``, or ``ridge=0`` when the
            fit on all matches does not exist.
    """
    check_bootstrap_args(reps, confidence)
    flat = [match for episode in episodes for match in episode]
    estimate = bradley_terry_ratings(flat, ridge=ridge)
    players = sorted(estimate)
    column = {name: i for i, name in enumerate(players)}
    rng = np.random.default_rng(seed)
    samples: FloatArray = np.full((reps, len(players)), np.nan)
    for rep in range(reps):
        drawn = rng.integers(0, len(episodes), size=len(episodes))
        resample = [match for i in drawn for match in episodes[i]]
        try:
            ratings = bradley_terry_ratings(resample, ridge=ridge)
        except ValueError:  # with ridge=0, a replicate whose MLE does not exist
            continue
        for name, value in ratings.items():
            samples[rep, column[name]] = value
    intervals = {}
    for name in players:
        low, high = percentile_interval(samples[:, column[name]], confidence)
        intervals[name] = Interval(estimate[name], low, high, confidence)
    return intervals


@dataclass(frozen=True)
class AgentRating:
    """One agent's ratings from a game's records.

    Attributes:
        agent: The agent string.
        matches: Matches it played (see :func:`episode_matches`).
        score: Its share of the points of those matches (a draw is half a point).
        bradley_terry: Bradley–Terry rating (Elo scale) with its episode-bootstrap interval.
        elo: Sequential Elo rating after every match, in canonical record order.
    """

    agent: str
    matches: int
    score: float
    bradley_terry: Interval
    elo: float


def agent_ratings(
    records: Iterable[EpisodeRecord],
    *,
    reps: int = DEFAULT_REPS,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
    ridge: float = DEFAULT_RIDGE,
    k: float = DEFAULT_ELO_K,
) -> list[AgentRating]:
    """Bradley–Terry and Elo ratings of every agent of a game's records, best first.

    Formula:
        See :func:`game_matches`, :func:`bootstrap_episode_ratings` and :func:`elo_ratings`.

    Source:
        Bradley & Terry (1952); Elo (1978).

    Args:
        records: Records of one run (one agent string, or the seatings of one lineup).
        reps: Bootstrap resamples of the Bradley–Terry interval.
        confidence: Its coverage.
        seed: Seed of its generator.
        ridge: L2 penalty on log-strengths.
        k: Elo K-factor.

    Returns:
        One :class:`AgentRating` per agent, by Bradley–Terry rating (then name).

    Raises:
        ValueError: records that give no match (no game outcomes, or every episode a
            self-play), or as :func:`game_matches`.
    """
    episodes = game_matches(records)
    if not episodes:
        raise ValueError(
            "no matches between different agents: the records hold no win / loss / draw "
            "outcomes of two agents (self-play gives none)"
        )
    return episode_ratings(episodes, reps=reps, confidence=confidence, seed=seed, ridge=ridge, k=k)


def episode_ratings(
    episodes: Sequence[Sequence[Match]],
    *,
    reps: int = DEFAULT_REPS,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
    ridge: float = DEFAULT_RIDGE,
    k: float = DEFAULT_ELO_K,
) -> list[AgentRating]:
    """:func:`agent_ratings` from the matches of each episode (e.g. of several runs pooled).

    Raises:
        ValueError: no matches, or bad arguments.
    """
    flat = [match for episode in episodes for match in episode]
    bradley_terry = bootstrap_episode_ratings(
        episodes, reps=reps, confidence=confidence, seed=seed, ridge=ridge
    )
    elo = elo_ratings(flat, k=k)
    played = dict.fromkeys(bradley_terry, 0)
    points = dict.fromkeys(bradley_terry, 0.0)
    for a, b, outcome in flat:
        played[a] += 1
        played[b] += 1
        points[a] += outcome
        points[b] += 1.0 - outcome
    rows = [
        AgentRating(name, played[name], points[name] / played[name], bradley_terry[name], elo[name])
        for name in bradley_terry
    ]
    return sorted(rows, key=lambda row: (-row.bradley_terry.estimate, row.agent))
