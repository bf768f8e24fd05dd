"""Bradley–Terry ratings from pairwise results, on the Elo scale, with bootstrap intervals.

A match is ``(player_a, player_b, outcome)`` with outcome 1 when a wins, 0 when b wins
and 0.5 for a tie (any value in [0, 1] is read as a's share of the point). The model is
P(a beats b) = σ(θ_a − θ_b); ratings are reported as ``anchor_rating + 400/ln 10 · θ``,
so 400 rating points are a factor 10 in odds, as in Elo. Rank intervals and tied groups
built on these are in :mod:`~envsuite.evaluation.metrics.rating_ranks`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from envsuite.evaluation.metrics.bootstrap import (
    DEFAULT_CONFIDENCE,
    DEFAULT_REPS,
    FloatArray,
    Interval,
    check_bootstrap_args,
    percentile_interval,
)

#: Rating points per unit of log-strength: 400 / ln 10.
ELO_SCALE = 400.0 / math.log(10.0)
#: Rating the anchor (the mean player, or a chosen one) is given.
DEFAULT_ANCHOR_RATING = 1000.0
#: L2 penalty on log-strengths: small enough to leave ratings of players with both wins
#: and losses all but unchanged, large enough to keep an undefeated player finite.
DEFAULT_RIDGE = 1e-4

Match = tuple[str, str, float]


def _encode(matches: Iterable[Match]) -> tuple[list[str], np.ndarray, np.ndarray, FloatArray]:
    items = list(matches)
    if not items:
        raise ValueError("no matches to rate")
    players = sorted({name for a, b, _ in items for name in (a, b)})
    index = {name: i for i, name in enumerate(players)}
    for a, b, outcome in items:
        if a == b:
            raise ValueError(f"a player cannot play itself: {a!r}")
        if not 0.0 <= outcome <= 1.0:
            raise ValueError(f"outcome must be in [0, 1] (1: a wins, 0: b wins), got {outcome}")
    first = np.array([index[a] for a, _, _ in items])
    second = np.array([index[b] for _, b, _ in items])
    outcomes = np.array([float(o) for _, _, o in items])
    return players, first, second, outcomes


def _reaches_all(edges: np.ndarray, n: int) -> bool:
    seen = np.zeros(n, dtype=bool)
    seen[0] = True
    frontier = [0]
    while frontier:
        node = frontier.pop()
        for nxt in np.flatnonzero(edges[node] & ~seen):
            seen[nxt] = True
            frontier.append(int(nxt))
    return bool(seen.all())


def mle_exists(first: np.ndarray, second: np.ndarray, outcomes: FloatArray, n: int) -> bool:
    """Whether the unpenalised Bradley–Terry MLE exists (Zermelo's condition).

    Formula:
        The graph with an edge i → j whenever i took some share of a point from j (a win
        or a tie) must be strongly connected: otherwise a group that never loses to the
        rest can be pushed to +∞.

    Source:
        Zermelo (1929); Hunter (2004), "MM Algorithms for Generalized Bradley–Terry
        Models", Assumption 1.

    Args:
        first: Index of player a of each match.
        second: Index of player b of each match.
        outcomes: a's share of each match's point.
        n: Number of players.

    Returns:
        True when the MLE exists.

    """
    edges = np.zeros((n, n), dtype=bool)
    edges[first[outcomes > 0.0], second[outcomes > 0.0]] = True
    edges[second[outcomes < 1.0], first[outcomes < 1.0]] = True
    return _reaches_all(edges, n) and _reaches_all(edges.T, n)


def _log_likelihood(
    theta: FloatArray, first: np.ndarray, second: np.ndarray, y: FloatArray, ridge: float
) -> float:
    d = theta[first] - theta[second]
    fit = -(y * np.logaddexp(0.0, -d) + (1.0 - y) * np.logaddexp(0.0, d)).sum()
    return float(fit - 0.5 * ridge * np.dot(theta, theta))


def _fit(
    first: np.ndarray,
    second: np.ndarray,
    y: FloatArray,
    n: int,
    ridge: float,
    max_iter: int,
    tol: float,
) -> FloatArray:
    theta = np.zeros(n)
    gauge = np.full((n, n), 1.0 / n) if ridge == 0.0 else np.zeros((n, n))
    for _ in range(max_iter):
        d = theta[first] - theta[second]
        p = np.exp(-np.logaddexp(0.0, -d))
        residual = y - p
        gradient = (
            np.bincount(first, residual, n) - np.bincount(second, residual, n) - ridge * theta
        )
        weight = p * (1.0 - p)
        information = ridge * np.eye(n) + gauge
        np.add.at(information, (first, first), weight)
        np.add.at(information, (second, second), weight)
        np.add.at(information, (first, second), -weight)
        np.add.at(information, (second, first), -weight)
        step = np.linalg.solve(information, gradient)
        before = _log_likelihood(theta, first, second, y, ridge)
        size = 1.0
        while (
            size > 1e-10
            and _log_likelihood(theta + size * step, first, second, y, ridge) < before - 1e-12
        ):
            size /= 2.0
        theta = theta + size * step
        if np.max(np.abs(size * step)) < tol:
            break
    return theta - theta.mean()


def bradley_terry_strengths(
    matches: Iterable[Match],
    *,
    ridge: float = DEFAULT_RIDGE,
    max_iter: int = 200,
    tol: float = 1e-10,
) -> dict[str, float]:
    """Maximum (penalised) likelihood Bradley–Terry log-strengths, centred at 0.

    Formula:
        Maximise Σ_matches [y log σ(θ_a − θ_b) + (1 − y) log σ(θ_b − θ_a)] − (λ/2)‖θ‖² by
        Newton's method with step halving (the objective is concave; with λ > 0 strictly).
        Ties (y = 0.5) count as half a win for each side. The result is shifted to mean 0.

    Source:
        Bradley & Terry (1952), "Rank Analysis of Incomplete Block Designs"; Hunter (2004),
        "MM Algorithms for Generalized Bradley–Terry Models" (the likelihood and its
        existence condition); the ridge is a Gaussian prior on θ, as in LMSYS Chatbot
        Arena's logistic-regression fit.

    Args:
        matches: ``(player_a, player_b, outcome)`` triples.
        ridge: λ >= 0. With λ = 0 the plain MLE, which needs :func:`mle_exists`.
        max_iter: Newton iterations at most.
        tol: Stop when no log-strength moves by more than this.

    Returns:
        Player -> θ (natural-log strength), players sorted by name.

    Raises:
        ValueError: no matches, a self-match, an outcome outside [0, 1], a negative ridge,
            or ``ridge=0`` when the MLE does not exist.

    """
    if ridge < 0.0:
        raise ValueError(f"ridge must be >= 0, got {ridge}")
    players, first, second, y = _encode(matches)
    if ridge == 0.0 and not mle_exists(first, second, y, len(players)):
        raise ValueError(
            "the Bradley–Terry MLE does not exist: some players never lose (or never win) "
            "against the rest; use ridge > 0"
        )
    theta = _fit(first, second, y, len(players), ridge, max_iter, tol)
    return {name: float(value) for name, value in zip(players, theta, strict=True)}


def to_elo(
    strengths: Mapping[str, float],
    *,
    anchor: str | None = None,
    anchor_rating: float = DEFAULT_ANCHOR_RATING,
) -> dict[str, float]:
    """Convert log-strengths to Elo-scale ratings.

    Formula:
        r_i = anchor_rating + (400 / ln 10)(θ_i − θ_ref), θ_ref the mean θ (so the mean
        rating is ``anchor_rating``) or, with ``anchor``, that player's θ (so that player
        is rated ``anchor_rating``). A rating gap of D means odds of 10^(D/400).

    Source:
        Elo (1978), "The Rating of Chessplayers, Past and Present" (the 400-point scale);
        Bradley–Terry and Elo share the logistic model on this scale.

    Args:
        strengths: Player -> θ.
        anchor: Player pinned at ``anchor_rating`` (default: the mean is).
        anchor_rating: The anchor's rating.

    Returns:
        Player -> rating.

    Raises:
        ValueError: ``anchor`` is not a player, or no players.

    """
    if not strengths:
        raise ValueError("no players")
    if anchor is not None and anchor not in strengths:
        raise ValueError(f"anchor {anchor!r} is not among the players {sorted(strengths)}")
    reference = (
        strengths[anchor] if anchor is not None else float(np.mean(list(strengths.values())))
    )
    return {
        name: anchor_rating + ELO_SCALE * (value - reference) for name, value in strengths.items()
    }


def bradley_terry_ratings(
    matches: Iterable[Match],
    *,
    ridge: float = DEFAULT_RIDGE,
    anchor: str | None = None,
    anchor_rating: float = DEFAULT_ANCHOR_RATING,
) -> dict[str, float]:
    """Bradley–Terry ratings on the Elo scale: :func:`bradley_terry_strengths` then :func:`to_elo`.

    Formula:
        r_i = anchor_rating + (400 / ln 10)(θ̂_i − θ̂_ref); see the two functions.

    Source:
        Bradley & Terry (1952); Hunter (2004); Elo (1978).

    Args:
        matches: ``(player_a, player_b, outcome)`` triples.
        ridge: L2 penalty λ on θ.
        anchor: Player pinned at ``anchor_rating`` (default: the mean rating is).
        anchor_rating: The anchor's rating.

    Returns:
        Player -> rating, players sorted by name.

    Raises:
        ValueError: as the two functions.

    """
    strengths = bradley_terry_strengths(matches, ridge=ridge)
    return to_elo(strengths, anchor=anchor, anchor_rating=anchor_rating)


def bootstrap_rating_samples(
    matches: Sequence[Match],
    *,
    reps: int = DEFAULT_REPS,
    seed: int = 0,
    ridge: float = DEFAULT_RIDGE,
    anchor: str | None = None,
    anchor_rating: float = DEFAULT_ANCHOR_RATING,
) -> tuple[list[str], FloatArray]:
    """Ratings refitted on matches resampled with replacement.

    Formula:
        Each replicate draws len(matches) matches with replacement and refits
        :func:`bradley_terry_ratings` on the players that appear. A player absent from a
        replicate gets NaN there; so does every player when the anchor is absent, or when
        ``ridge=0`` and the replicate's MLE does not exist.

    Source:
        Efron & Tibshirani (1993), ch. 6; the match bootstrap of LMSYS Chatbot Arena
        (Chiang et al., 2024, "Chatbot Arena: An Open Platform for Evaluating LLMs by
        Human Preference").

    Args:
        matches: ``(player_a, player_b, outcome)`` triples.
        reps: Bootstrap resamples.
        seed: Seed of the :class:`numpy.random.Generator` drawing the resamples.
        ridge: L2 penalty λ on θ.
        anchor: Player pinned at ``anchor_rating`` (default: the mean rating is).
        anchor_rating: The anchor's rating.

    Returns:
        The players (sorted) and a (reps, players) matrix of ratings.

    Raises:
        ValueError: bad matches or ``reps < 1``.

    """
    check_bootstrap_args(reps, DEFAULT_CONFIDENCE)
    items = list(matches)
    players, _, _, _ = _encode(items)
    column = {name: i for i, name in enumerate(players)}
    rng = np.random.default_rng(seed)
    samples = np.full((reps, len(players)), np.nan)
    for rep in range(reps):
        resample = [items[i] for i in rng.integers(0, len(items), size=len(items))]
        names, first, second, y = _encode(resample)
        if (anchor is not None and anchor not in names) or (
            ridge == 0.0 and not mle_exists(first, second, y, len(names))
        ):
            continue
        ratings = bradley_terry_ratings(
            resample, ridge=ridge, anchor=anchor, anchor_rating=anchor_rating
        )
        for name, value in ratings.items():
            samples[rep, column[name]] = value
    return players, samples


def bootstrap_ratings(
    matches: Sequence[Match],
    *,
    reps: int = DEFAULT_REPS,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
    ridge: float = DEFAULT_RIDGE,
    anchor: str | None = None,
    anchor_rating: float = DEFAULT_ANCHOR_RATING,
) -> dict[str, Interval]:
    """Bradley–Terry ratings with percentile bootstrap intervals over matches.

    Formula:
        The estimate is :func:`bradley_terry_ratings` on all matches; the interval is the
        percentile interval of :func:`bootstrap_rating_samples` (NaN replicates ignored).

    Source:
        Efron & Tibshirani (1993), ch. 13; Chiang et al. (2024), Chatbot Arena.

    Args:
        matches: ``(player_a, player_b, outcome)`` triples.
        reps: Bootstrap resamples.
        confidence: Nominal coverage in (0, 1).
        seed: Seed of the bootstrap generator.
        ridge: L2 penalty λ on θ.
        anchor: Player pinned at ``anchor_rating`` (default: the mean rating is).
        anchor_rating: The anchor's rating.

    Returns:
        Player -> rating interval, players sorted by name.

    Raises:
        ValueError: bad matches, ``reps`` or ``confidence``.

    """
    check_bootstrap_args(reps, confidence)
    estimate = bradley_terry_ratings(
        matches, ridge=ridge, anchor=anchor, anchor_rating=anchor_rating
    )
    players, samples = bootstrap_rating_samples(
        matches, reps=reps, seed=seed, ridge=ridge, anchor=anchor, anchor_rating=anchor_rating
    )
    intervals = {}
    for i, name in enumerate(players):
        low, high = percentile_interval(samples[:, i], confidence)
        intervals[name] = Interval(estimate[name], low, high, confidence)
    return intervals
