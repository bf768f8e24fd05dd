"""The Bradley–Terry strength of one new player against opponents of fixed strength.

A leaderboard with a fixed panel of reference opponents rates each entry from its own
games against the panel alone: the panel's strengths are held fixed, so rating a new
entry never moves the panel or any other entry, and no entry has to be re-run. The model
is that of :mod:`~envsuite.evaluation.metrics.ratings`: P(x beats p) = σ(θ_x − θ_p), a
draw counting as half a point. Against fixed opponents the likelihood depends on the
games only through, per opponent, the points scored and the games played, which is what
:func:`anchored_strength` takes (so a bootstrap replicate costs a few Newton steps).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from envsuite.evaluation.metrics.ratings import DEFAULT_RIDGE

#: Newton iterations at most (the objective is strictly concave in one variable).
MAX_ITER = 100
#: Stop when a Newton step moves the strength by less than this.
TOLERANCE = 1e-12


def anchored_strength(
    points: ArrayLike,
    games: ArrayLike,
    opponents: ArrayLike,
    *,
    ridge: float = DEFAULT_RIDGE,
    centre: float = 0.0,
) -> float:
    """Penalised maximum-likelihood strength θ of a player against fixed opponents.

    Formula:
        Maximise Σ_p [s_p log σ(θ − θ_p) + (n_p − s_p) log σ(θ_p − θ)] − (λ/2)(θ − c)²
        over θ, where opponent p has fixed strength θ_p and the player scored s_p points
        in n_p games against it (a win 1, a draw 1/2). The score equation
        Σ_p n_p σ(θ − θ_p) + λ(θ − c) = Σ_p s_p has one root (the left side increases
        strictly), found by Newton's method from c with step halving. With λ > 0 the
        root is finite even for a player that won (or lost) every game.

    Source:
        Bradley & Terry (1952), "Rank Analysis of Incomplete Block Designs"; holding the
        opponents' strengths fixed is the "performance rating" of Elo (1978), "The Rating
        of Chessplayers, Past and Present", section 1.6, fitted by maximum likelihood; the
        ridge is the Gaussian prior of :func:`~envsuite.evaluation.metrics.ratings.
        bradley_terry_strengths`.

    Args:
        points: s_p, the points scored against each opponent.
        games: n_p, the games played against each opponent.
        opponents: θ_p, each opponent's fixed strength (natural-log scale).
        ridge: λ > 0, the L2 penalty pulling θ towards ``centre``.
        centre: c, where the penalty is centred (the panel's mean strength).

    Returns:
        θ on the opponents' scale.

    Raises:
        ValueError: lengths differ, no games, points outside [0, n_p], or ``ridge <= 0``.
    """
    s = np.asarray(points, dtype=np.float64)
    n = np.asarray(games, dtype=np.float64)
    theta_p = np.asarray(opponents, dtype=np.float64)
    if not s.shape == n.shape == theta_p.shape or s.ndim != 1:
        raise ValueError("points, games and opponents must be equal-length sequences")
    if ridge <= 0.0:
        raise ValueError(f"ridge must be > 0 (an unbeaten player has no finite MLE), got {ridge}")
    if n.sum() <= 0 or (n < 0).any() or (s < 0).any() or (s > n + 1e-9).any():
        raise ValueError("each opponent needs 0 <= points <= games, and some games in all")

    def gradient(theta: float) -> float:
        expected = n / (1.0 + np.exp(theta_p - theta))
        return float((s - expected).sum() - ridge * (theta - centre))

    theta = centre
    for _ in range(MAX_ITER):
        p = 1.0 / (1.0 + np.exp(theta_p - theta))
        step = gradient(theta) / float((n * p * (1.0 - p)).sum() + ridge)
        size = 1.0
        # Halve a step that overshoots the root by more than it closed in on it.
        while size > 1e-12 and abs(gradient(theta + size * step)) > abs(gradient(theta)):
            size /= 2.0
        theta += size * step
        if abs(size * step) < TOLERANCE:
            break
    return theta
