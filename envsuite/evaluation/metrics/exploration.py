"""Exploration statistics of bandit runs: OptFrac, MinFrac and the suffix failure frequency.

They diagnose exploration failures long before regret curves can: an agent that stops
pulling the best arm early (suffix failure) or never tries some arm (MinFrac near 0). The
definitions are those of Krishnamurthy et al. (2024), "Can Large Language Models Explore
In-Context?", which EVOLvE (Nie et al., 2024, "EVOLvE: Evaluating and Optimizing
LLMs For Exploration") reports for its bandit benchmark. The released EVOLvE code
(``allenanie/EVOLvE``, ``banditbench/``) ships no implementation of them, so these follow
the papers' text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from envsuite.evaluation.metrics.record_groups import checked_records, split_infra_errors
from envsuite.records import EpisodeRecord

#: Per-step pseudo-regret at or below this counts as a pull of an optimal arm.
OPTIMAL_ATOL = 1e-12


def _pulls(actions: ArrayLike) -> np.ndarray:
    array = np.asarray(actions)
    if array.ndim != 1 or array.size == 0 or not np.issubdtype(array.dtype, np.integer):
        raise ValueError("actions must be a non-empty 1-D sequence of integer arms")
    return array


def opt_frac(actions: ArrayLike, optimal_arms: Iterable[int]) -> float:
    """OptFrac: the fraction of pulls that went to an optimal arm.

    Formula:
        (1 / T) Σ_{t=1}^{T} 1[a_t ∈ A*], A* the set of arms with the highest mean.

    Source:
        Nie et al. (2024), EVOLvE (OptFrac, the exploitation measure it reports);
        Krishnamurthy et al. (2024) (the histogram of best-arm pulls).

    Args:
        actions: The arm pulled at each step.
        optimal_arms: Indices of the optimal arm(s).

    Returns:
        The fraction, in [0, 1].

    Raises:
        ValueError: no actions, non-integer actions, or no optimal arm given.

    """
    pulls = _pulls(actions)
    best = np.asarray(sorted(set(optimal_arms)), dtype=np.int64)
    if best.size == 0:
        raise ValueError("optimal_arms must name at least one arm")
    return float(np.mean(np.isin(pulls, best)))


def min_frac(actions: ArrayLike, num_arms: int, *, normalize: bool = True) -> float:
    """MinFrac: how often the least-pulled arm was pulled.

    Formula:
        MinFrac = min_a N_a(T) / T with N_a(T) the pulls of arm a in T steps. With
        ``normalize`` (the default) it is reported as K · MinFrac, so 1 means every arm
        was pulled equally often and 0 that some arm was never tried.

    Source:
        Krishnamurthy et al. (2024) (MinFrac(t), reported rescaled by K);
        Nie et al. (2024), EVOLvE.

    Args:
        actions: The arm pulled at each step, integers in [0, K).
        num_arms: K, the number of arms (arms never pulled count with N_a = 0).
        normalize: Multiply by K.

    Returns:
        The fraction: in [0, 1] when normalised, in [0, 1/K] otherwise.

    Raises:
        ValueError: bad actions or ``num_arms``.

    """
    pulls = _pulls(actions)
    if num_arms < 1 or pulls.min() < 0 or pulls.max() >= num_arms:
        raise ValueError(f"actions must lie in [0, {num_arms}) with num_arms >= 1")
    fraction = float(np.bincount(pulls, minlength=num_arms).min()) / pulls.size
    return num_arms * fraction if normalize else fraction


def suffix_failure(actions: ArrayLike, optimal_arms: Iterable[int], *, start: float = 0.5) -> bool:
    """Whether an episode suffix-failed: no optimal arm was pulled from step ⌊start · T⌋ on.

    Formula:
        SuffFail = 1[a_t ∉ A* for every t in the suffix], the suffix being the steps with
        0-based index >= ⌊start · T⌋; with start = 0.5, the last ⌈T/2⌉ steps.

    Source:
        Krishnamurthy et al. (2024) (SuffFailFreq(t): the best arm is never chosen in
        rounds t, ..., T; they report t = T/2); Nie et al. (2024), EVOLvE.

    Args:
        actions: The arm pulled at each step.
        optimal_arms: Indices of the optimal arm(s).
        start: Where the suffix starts, as a fraction of T in [0, 1).

    Returns:
        True when the episode suffix-failed.

    Raises:
        ValueError: bad actions, no optimal arm, or ``start`` outside [0, 1).

    """
    pulls = _pulls(actions)
    if not 0.0 <= start < 1.0:
        raise ValueError(f"start must be in [0, 1), got {start}")
    suffix = pulls[int(start * pulls.size) :]
    return opt_frac(suffix, optimal_arms) == 0.0


def suffix_failure_frequency(
    episodes: Sequence[ArrayLike], optimal_arms: Iterable[int], *, start: float = 0.5
) -> float:
    """SuffFailFreq: the fraction of episodes that suffix-failed (see :func:`suffix_failure`).

    Formula:
        (1 / E) Σ_e SuffFail_e over E episodes of one bandit instance.

    Source:
        Krishnamurthy et al. (2024) (SuffFailFreq(T/2)); Nie et al. (2024).

    Args:
        episodes: The action sequence of each episode.
        optimal_arms: Indices of the optimal arm(s), shared by the episodes.
        start: Where the suffix starts, as a fraction of T.

    Returns:
        The frequency, in [0, 1].

    Raises:
        ValueError: no episodes, or as :func:`suffix_failure`.

    """
    if len(episodes) == 0:
        raise ValueError("no episodes")
    best = list(optimal_arms)
    return float(np.mean([suffix_failure(e, best, start=start) for e in episodes]))


def optimal_pulls_from_records(
    records: Iterable[EpisodeRecord], curve: str = "regret", *, atol: float = OPTIMAL_ATOL
) -> list[np.ndarray]:
    """Which steps pulled an optimal arm, per episode, read from per-step pseudo-regret.

    A step's pseudo-regret μ* − μ_{a_t} is 0 exactly when the arm pulled is optimal, so
    the recorded ``curves[curve]`` tells optimal pulls apart without knowing the arms.
    This holds for the bandit envs' pseudo-regret (plain and contextual); it does not for
    curves of realised regret or of online-learning regret increments.

    Args:
        records: Episode records of one agent on one bandit configuration.
        curve: Name of the per-step pseudo-regret series.
        atol: Pseudo-regret up to which a pull counts as optimal.

    Returns:
        One boolean array per episode that ran (infrastructure errors left out).

    Raises:
        ValueError: bad records or a record without the curve.

    """
    normal, _ = split_infra_errors(checked_records(records))
    missing = [record.seed for record in normal if curve not in record.curves]
    if missing:
        raise ValueError(f"records of seeds {missing[:5]} carry no {curve!r} curve")
    return [np.asarray(record.curves[curve], dtype=np.float64) <= atol for record in normal]


def exploration_from_records(
    records: Iterable[EpisodeRecord], curve: str = "regret", *, start: float = 0.5
) -> tuple[float, float]:
    """Mean OptFrac and SuffFailFreq of bandit episodes, from their records only.

    Formula:
        Per episode, OptFrac = mean of the optimal-pull indicators and SuffFail = no
        optimal pull from step ⌊start · T⌋ on (:func:`optimal_pulls_from_records`);
        OptFrac averaged over episodes, SuffFailFreq the fraction of failed episodes.

    Source:
        Krishnamurthy et al. (2024); Nie et al. (2024), EVOLvE.

    Args:
        records: Episode records of one agent on one bandit configuration.
        curve: Name of the per-step pseudo-regret series.
        start: Where the suffix starts, as a fraction of T.

    Returns:
        ``(mean OptFrac, SuffFailFreq)``.

    Raises:
        ValueError: as :func:`optimal_pulls_from_records`, no episode that ran, or an
            empty curve.

    """
    if not 0.0 <= start < 1.0:
        raise ValueError(f"start must be in [0, 1), got {start}")
    episodes = optimal_pulls_from_records(records, curve)
    if not episodes or any(e.size == 0 for e in episodes):
        raise ValueError("need at least one episode that ran, with a non-empty curve")
    fractions = [float(e.mean()) for e in episodes]
    failures = [not e[int(start * e.size) :].any() for e in episodes]
    return float(np.mean(fractions)), float(np.mean(failures))
