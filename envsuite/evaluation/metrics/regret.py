"""Regret curves: bandits, online learning with experts, and repeated matrix games.

Every function returns a cumulative curve R_1, ..., R_T (index t − 1 holds R_t), the
input of the no-regret tests in :mod:`~envsuite.evaluation.metrics.sublinearity`. The
record adapters read the per-step series envs record in ``record.curves["regret"]``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from envsuite.evaluation.metrics.bootstrap import (
    DEFAULT_CONFIDENCE,
    DEFAULT_REPS,
    FloatArray,
    Interval,
    bootstrap_interval,
)
from envsuite.evaluation.metrics.record_groups import checked_records, split_infra_errors
from envsuite.evaluation.metrics.seed_means import per_seed_means
from envsuite.evaluation.metrics.sublinearity import SublinearityVerdict, sublinearity_verdict
from envsuite.records import EpisodeRecord


def _vector(values: ArrayLike, name: str) -> FloatArray:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence, got shape {array.shape}")
    return array


def _actions(actions: ArrayLike, size: int, name: str) -> np.ndarray:
    array = np.asarray(actions)
    if array.ndim != 1 or array.size == 0 or not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"{name} must be a non-empty 1-D sequence of integers")
    if array.min() < 0 or array.max() >= size:
        raise ValueError(
            f"{name} must lie in [0, {size}), got values in [{array.min()}, {array.max()}]"
        )
    return array


def cumulative_regret(per_step_regret: ArrayLike) -> FloatArray:
    """Cumulative regret from per-step regret.

    Formula:
        R_t = Σ_{s=1}^{t} r_s.

    Source:
        Lattimore & Szepesvári (2020), "Bandit Algorithms", section 4.5 (regret as a sum of
        per-round losses).

    Args:
        per_step_regret: r_1, ..., r_T.

    Returns:
        R_1, ..., R_T.

    Raises:
        ValueError: not a non-empty 1-D sequence.

    """
    return np.cumsum(_vector(per_step_regret, "per_step_regret"))


def bandit_pseudo_regret(arm_means: ArrayLike, actions: ArrayLike) -> FloatArray:
    """Cumulative pseudo-regret of a stochastic bandit run.

    Formula:
        R_t = Σ_{s=1}^{t} (μ* − μ_{a_s}), μ* = max_a μ_a: the expected reward lost against
        always pulling a best arm, whatever rewards were drawn.

    Source:
        Lattimore & Szepesvári (2020), chapter 4 (regret of a stochastic bandit policy);
        Bubeck & Cesa-Bianchi (2012), "Regret Analysis of Stochastic and Nonstochastic
        Multi-armed Bandit Problems", section 1 (pseudo-regret).

    Args:
        arm_means: μ_1, ..., μ_K.
        actions: The arm pulled at each step, integers in [0, K).

    Returns:
        R_1, ..., R_T.

    Raises:
        ValueError: bad means or actions.

    """
    means = _vector(arm_means, "arm_means")
    pulled = _actions(actions, means.size, "actions")
    return np.cumsum(means.max() - means[pulled])


def _online(losses: ArrayLike, played: ArrayLike) -> tuple[FloatArray, FloatArray]:
    loss = np.asarray(losses, dtype=np.float64)
    weights = np.asarray(played, dtype=np.float64)
    if loss.ndim != 2 or loss.size == 0 or loss.shape != weights.shape:
        raise ValueError(
            f"losses and played must be non-empty (T, N) matrices of one shape, got "
            f"{loss.shape} and {weights.shape}"
        )
    if np.any(weights < 0.0) or not np.allclose(weights.sum(axis=1), 1.0):
        raise ValueError("each row of played must be a probability distribution")
    return loss, np.cumsum(np.sum(loss * weights, axis=1))


def external_regret(losses: ArrayLike, played: ArrayLike) -> FloatArray:
    """External regret of an online learner against the best fixed expert in hindsight.

    Formula:
        R_t = Σ_{s≤t} ⟨p_s, ℓ_s⟩ − min_i Σ_{s≤t} ℓ_{s,i}, with ℓ_s the loss vector and p_s
        the distribution played at round s (the best expert is re-chosen for every t).

    Source:
        Cesa-Bianchi & Lugosi (2006), "Prediction, Learning, and Games", section 2.1;
        Freund & Schapire (1997) for Hedge, whose regret is O(√(T ln N)).

    Args:
        losses: Matrix (T, N): the loss of each of N experts at each round.
        played: Matrix (T, N): the learner's distribution over experts at each round.

    Returns:
        R_1, ..., R_T.

    Raises:
        ValueError: shapes differ or a row of ``played`` is not a distribution.

    """
    loss, learner = _online(losses, played)
    return learner - np.cumsum(loss, axis=0).min(axis=1)


def dynamic_regret(losses: ArrayLike, played: ArrayLike) -> FloatArray:
    """Dynamic regret: against the best expert of each round, not one fixed expert.

    Formula:
        R_t = Σ_{s≤t} ⟨p_s, ℓ_s⟩ − Σ_{s≤t} min_i ℓ_{s,i}; always >= the external regret.

    Source:
        Zinkevich (2003), "Online Convex Programming and Generalized Infinitesimal Gradient
        Ascent" (regret against a moving comparator); Herbster & Warmuth (1998), "Tracking
        the Best Expert".

    Args:
        losses: Matrix (T, N) of expert losses.
        played: Matrix (T, N) of the learner's distributions.

    Returns:
        R_1, ..., R_T.

    Raises:
        ValueError: shapes differ or a row of ``played`` is not a distribution.

    """
    loss, learner = _online(losses, played)
    return learner - np.cumsum(loss.min(axis=1))


def matrix_game_external_regret(
    row_payoffs: ArrayLike,
    row_actions: ArrayLike,
    col_actions: ArrayLike,
    col_payoffs: ArrayLike | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Each player's external regret in a repeated two-player matrix game.

    Formula:
        With payoffs (gains) A for the row player and B for the column player:
        R^row_t = max_i Σ_{s≤t} A[i, b_s] − Σ_{s≤t} A[a_s, b_s] and
        R^col_t = max_j Σ_{s≤t} B[a_s, j] − Σ_{s≤t} B[a_s, b_s]: what each player would
        have gained by one fixed action against the opponent's actual play.
        B defaults to −A (zero-sum).

    Source:
        Cesa-Bianchi & Lugosi (2006), section 7.4 (regret in repeated games); Hart &
        Mas-Colell (2000) on no-regret play and correlated equilibria.

    Args:
        row_payoffs: Matrix A (m, n) of the row player's payoffs.
        row_actions: The row player's action at each round, in [0, m).
        col_actions: The column player's action at each round, in [0, n).
        col_payoffs: Matrix B (m, n) of the column player's payoffs (default −A).

    Returns:
        ``(row player's curve, column player's curve)``.

    Raises:
        ValueError: bad matrices, actions out of range, or sequences of different lengths.

    """
    a_matrix = np.asarray(row_payoffs, dtype=np.float64)
    b_matrix = -a_matrix if col_payoffs is None else np.asarray(col_payoffs, dtype=np.float64)
    if a_matrix.ndim != 2 or a_matrix.size == 0 or a_matrix.shape != b_matrix.shape:
        raise ValueError(f"payoff matrices must be non-empty and (m, n), got {a_matrix.shape}")
    rows = _actions(row_actions, a_matrix.shape[0], "row_actions")
    cols = _actions(col_actions, a_matrix.shape[1], "col_actions")
    if rows.size != cols.size:
        raise ValueError(f"action sequences differ in length: {rows.size} vs {cols.size}")
    row_best = np.cumsum(a_matrix[:, cols].T, axis=0).max(axis=1)
    col_best = np.cumsum(b_matrix[rows, :], axis=0).max(axis=1)
    row_curve = row_best - np.cumsum(a_matrix[rows, cols])
    col_curve = col_best - np.cumsum(b_matrix[rows, cols])
    return row_curve, col_curve


def regret_curves(records: Iterable[EpisodeRecord], curve: str = "regret") -> FloatArray:
    """Cumulative regret curves of episodes, from the per-step series in their records.

    Formula:
        Row j is :func:`cumulative_regret` of ``records[j].curves[curve]``.
        Infrastructure errors are left out.

    Source:
        The envs' per-step ``info[curve]`` (e.g. the bandit's pseudo-regret μ* − μ_{a_t}),
        which the runner records in ``EpisodeRecord.curves``.

    Args:
        records: Episode records of one agent.
        curve: Name of the per-step series.

    Returns:
        Matrix (episodes, T).

    Raises:
        ValueError: bad records, a record without the curve, or curves of different lengths.

    """
    normal, _ = split_infra_errors(checked_records(records))
    missing = [record.seed for record in normal if curve not in record.curves]
    if missing:
        raise ValueError(f"records of seeds {missing[:5]} carry no {curve!r} curve")
    lengths = {len(record.curves[curve]) for record in normal}
    if len(lengths) != 1:
        raise ValueError(f"{curve!r} curves differ in length: {sorted(lengths)}")
    return np.array([cumulative_regret(record.curves[curve]) for record in normal])


def regret_curves_by_seed(records: Iterable[EpisodeRecord], curve: str = "regret") -> FloatArray:
    """:func:`regret_curves` averaged over the attempts at each seed.

    Args:
        records: Episode records of one agent on one env configuration.
        curve: Name of the per-step series.

    Returns:
        Matrix (seeds, T), seeds in ascending order.

    Raises:
        ValueError: as :func:`regret_curves`.

    """
    items = list(records)
    curves = regret_curves(items, curve)
    normal, _ = split_infra_errors(checked_records(items))
    return per_seed_means(curves, [record.seed for record in normal])


def final_metric(records: Iterable[EpisodeRecord], name: str) -> FloatArray:
    """One final per-episode number (``record.metrics[name]``) for each episode that ran.

    Args:
        records: Episode records of one agent.
        name: Metric name, e.g. ``"cumulative_regret"`` or ``"opt_frac"``.

    Returns:
        One value per episode (infrastructure errors left out).

    Raises:
        ValueError: bad records or a record without the metric.

    """
    normal, _ = split_infra_errors(checked_records(records))
    missing = [record.seed for record in normal if name not in record.metrics]
    if missing:
        raise ValueError(f"records of seeds {missing[:5]} carry no {name!r} metric")
    return np.array([record.metrics[name] for record in normal], dtype=np.float64)


@dataclass(frozen=True)
class RegretSummary:
    """Regret of one agent's episodes of one configuration.

    Attributes:
        n_episodes: Episodes that ran.
        final_regret: Mean R_T over seeds (attempts at a seed averaged first), with a
            bootstrap interval over seeds.
        mean_curve: Mean cumulative regret curve over seeds.
        sublinearity: The no-regret tests on the mean curve.
        opt_frac: Mean ``metrics["opt_frac"]`` (over seeds) with a bootstrap interval,
            when every episode records it (bandit envs); else None.
        n_seeds: Seeds the episodes cover (the units the bootstrap redraws).

    """

    n_episodes: int
    final_regret: Interval
    mean_curve: FloatArray
    sublinearity: SublinearityVerdict
    opt_frac: Interval | None
    n_seeds: int = 0


def regret_summary(
    records: Iterable[EpisodeRecord],
    curve: str = "regret",
    *,
    reps: int = DEFAULT_REPS,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
) -> RegretSummary:
    """Summarise regret: the final regret with an interval, the mean curve, its verdict.

    Formula:
        Curves from :func:`regret_curves`, averaged first over the attempts at each seed
        (they share a problem instance, so they are not independent draws); the mean
        curve and R_T are means over seeds, R_T's interval an IID bootstrap over seeds;
        :func:`~envsuite.evaluation.metrics.sublinearity.sublinearity_verdict` of the mean
        curve; the mean of the recorded OptFrac (likewise over seeds), where every episode
        has one. With one attempt per seed, seeds and episodes are the same thing.

    Source:
        See :func:`regret_curves` and the sublinearity module.

    Args:
        records: Episode records of one agent on one env configuration.
        curve: Name of the per-step series.
        reps: Bootstrap resamples.
        confidence: Nominal coverage in (0, 1).
        seed: Seed of the bootstrap generator.

    Returns:
        A :class:`RegretSummary`.

    Raises:
        ValueError: as :func:`regret_curves`.

    """
    items = list(records)
    curves = regret_curves(items, curve)
    normal, _ = split_infra_errors(checked_records(items))
    seeds = [record.seed for record in normal]
    by_seed = per_seed_means(curves, seeds)
    mean_curve = by_seed.mean(axis=0)
    opt_frac = None
    if all("opt_frac" in record.metrics for record in normal):
        opt_frac = bootstrap_interval(
            per_seed_means(final_metric(items, "opt_frac"), seeds),
            reps=reps,
            confidence=confidence,
            seed=seed,
        )
    return RegretSummary(
        n_episodes=curves.shape[0],
        final_regret=bootstrap_interval(
            by_seed[:, -1], reps=reps, confidence=confidence, seed=seed
        ),
        mean_curve=mean_curve,
        sublinearity=sublinearity_verdict(mean_curve),
        opt_frac=opt_frac,
        n_seeds=by_seed.shape[0],
    )
