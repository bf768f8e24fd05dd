"""pass@k and pass^k: the chance that some (or every one) of k attempts at a problem succeeds.

Both are estimated per problem from n recorded attempts with c successes, averaged over
problems, and given a bootstrap interval by resampling problems.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from envsuite.evaluation.metrics.bootstrap import (
    DEFAULT_CONFIDENCE,
    DEFAULT_REPS,
    FloatArray,
    Interval,
    check_bootstrap_args,
    percentile_interval,
    seeded_mean_replicates,
)
from envsuite.evaluation.metrics.record_groups import (
    ProblemKey,
    checked_records,
    problem_key,
    split_infra_errors,
)
from envsuite.pass_at_k_estimate import pass_at_k, pass_hat_k
from envsuite.records import EpisodeRecord

Estimator = Literal["pass@k", "pass^k"]


def _estimator(name: Estimator) -> Callable[[int, int, int], float]:
    if name == "pass@k":
        return pass_at_k
    if name == "pass^k":
        return pass_hat_k
    raise ValueError(f"estimator must be 'pass@k' or 'pass^k', got {name!r}")


def per_problem(
    n: ArrayLike, c: ArrayLike, k: int, *, estimator: Estimator = "pass@k"
) -> FloatArray:
    """Compute the chosen estimator for each problem.

    Formula:
        Element-wise :func:`pass_at_k` (or :func:`pass_hat_k`) of (n_j, c_j, k).

    Source:
        Chen et al. (2021), section 2.1 (pass@k is computed per problem, then averaged).

    Args:
        n: Attempts per problem.
        c: Successes per problem.
        k: Attempts granted.
        estimator: ``"pass@k"`` or ``"pass^k"``.

    Returns:
        A float array with one estimate per problem.

    Raises:
        ValueError: mismatched shapes, no problems, or any per-problem error.

    """
    attempts = np.asarray(n).ravel()
    successes = np.asarray(c).ravel()
    if attempts.shape != successes.shape:
        raise ValueError(f"n and c differ in length: {attempts.size} vs {successes.size}")
    if attempts.size == 0:
        raise ValueError("no problems to average over")
    function = _estimator(estimator)
    return np.array(
        [function(int(a), int(s), k) for a, s in zip(attempts, successes, strict=True)],
        dtype=np.float64,
    )


def mean_pass_at_k(n: ArrayLike, c: ArrayLike, k: int, *, estimator: Estimator = "pass@k") -> float:
    """pass@k (or pass^k) averaged over problems.

    Formula:
        (1 / P) Σ_j estimate(n_j, c_j, k) over the P problems.

    Source:
        Chen et al. (2021), eq. 1 (the expectation over problems).

    Args:
        n: Attempts per problem.
        c: Successes per problem.
        k: Attempts granted.
        estimator: ``"pass@k"`` or ``"pass^k"``.

    Returns:
        The mean estimate, in [0, 1].

    Raises:
        ValueError: as :func:`per_problem`.

    """
    return float(np.mean(per_problem(n, c, k, estimator=estimator)))


def pass_at_k_interval(
    n: ArrayLike,
    c: ArrayLike,
    k: int,
    *,
    estimator: Estimator = "pass@k",
    reps: int = DEFAULT_REPS,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
) -> Interval:
    """Mean pass@k (or pass^k) over problems with a bootstrap interval over problems.

    Formula:
        Resample the P problems with replacement ``reps`` times, average the per-problem
        estimates of each resample, and take the percentile interval. The attempts within
        a problem are not resampled: the per-problem estimator is already unbiased.

    Source:
        Efron & Tibshirani (1993), ch. 13 (percentile bootstrap); the per-problem
        estimator of Chen et al. (2021), eq. 1.

    Args:
        n: Attempts per problem.
        c: Successes per problem.
        k: Attempts granted.
        estimator: ``"pass@k"`` or ``"pass^k"``.
        reps: Bootstrap resamples.
        confidence: Nominal coverage in (0, 1).
        seed: Seed of the :class:`numpy.random.Generator` drawing the resamples.

    Returns:
        The mean over problems and its interval.

    Raises:
        ValueError: as :func:`per_problem`, or bad ``reps`` / ``confidence``.

    """
    check_bootstrap_args(reps, confidence)
    values = per_problem(n, c, k, estimator=estimator)
    # The resamples' means as one (reps, P) draw would give them, drawn in blocks.
    replicates = seeded_mean_replicates(values, seed, reps)
    low, high = percentile_interval(replicates, confidence)
    return Interval(float(values.mean()), low, high, confidence)


@dataclass(frozen=True)
class ProblemAttempts:
    """What the records say about one problem.

    Attributes:
        problem: ``(task_id, env_id, canonical env_kwargs, seed)``.
        n: Attempts that ran (infrastructure errors excluded).
        c: Of those, attempts with ``success`` True.
        infra_errors: Attempts lost to infrastructure errors (in neither n nor c).

    """

    problem: ProblemKey
    n: int
    c: int
    infra_errors: int


def count_attempts(records: Iterable[EpisodeRecord]) -> list[ProblemAttempts]:
    """Count attempts and successes per problem, sorted by problem.

    A problem is ``(task_id, env_id, canonical env_kwargs, seed)``; each record is one
    attempt (its ``attempt`` index tells them apart). An attempt succeeds when its
    ``success`` is True; False and None (success undefined) both count as not succeeding.
    Records with ``infra_error`` set are left out of n and c and counted in
    ``infra_errors``: an infrastructure failure says nothing about the agent.

    Args:
        records: Episode records of one agent.

    Returns:
        One :class:`ProblemAttempts` per problem seen, infra-error-only problems included.

    Raises:
        ValueError: see :func:`~envsuite.evaluation.metrics.record_groups.checked_records`.

    """
    items = checked_records(records)
    normal, errors = split_infra_errors(items)
    attempts: dict[ProblemKey, int] = defaultdict(int)
    successes: dict[ProblemKey, int] = defaultdict(int)
    lost: dict[ProblemKey, int] = defaultdict(int)
    for record in normal:
        attempts[problem_key(record)] += 1
        successes[problem_key(record)] += int(record.success is True)
    for record in errors:
        lost[problem_key(record)] += 1
    problems = sorted(set(attempts) | set(lost))
    return [ProblemAttempts(p, attempts[p], successes[p], lost[p]) for p in problems]


@dataclass(frozen=True)
class PassAtKResult:
    """pass@k and pass^k of one agent's records.

    Attributes:
        k: Attempts granted.
        pass_at_k: Mean pass@k over problems, with its bootstrap interval.
        pass_hat_k: Mean pass^k over problems, with its bootstrap interval.
        n_problems: Problems averaged over.
        n_attempts: Attempts that ran, summed over problems.
        n_successes: Successful attempts, summed over problems.
        n_infra_errors: Attempts lost to infrastructure errors (excluded everywhere).

    """

    k: int
    pass_at_k: Interval
    pass_hat_k: Interval
    n_problems: int
    n_attempts: int
    n_successes: int
    n_infra_errors: int


def pass_at_k_from_records(
    records: Iterable[EpisodeRecord],
    k: int,
    *,
    reps: int = DEFAULT_REPS,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
) -> PassAtKResult:
    """pass@k and pass^k of one agent, computed from its episode records only.

    Formula:
        Per problem (see :func:`count_attempts`) the estimators of :func:`pass_at_k` and
        :func:`pass_hat_k`, averaged over problems, with bootstrap intervals over problems
        (:func:`pass_at_k_interval`, same seed for both).

    Source:
        Chen et al. (2021), eq. 1 and Figure 3; Yao et al. (2024).

    Args:
        records: Episode records of one agent.
        k: Attempts granted.
        reps: Bootstrap resamples.
        confidence: Nominal coverage in (0, 1).
        seed: Seed of the bootstrap generator.

    Returns:
        A :class:`PassAtKResult`.

    Raises:
        ValueError: a problem with fewer than k attempts that ran (named in the message),
            no problem with an attempt that ran, or bad records (see :func:`count_attempts`).

    """
    counts = count_attempts(records)
    ran = [problem for problem in counts if problem.n > 0]
    if not ran:
        raise ValueError("every attempt hit an infrastructure error; nothing to score")
    short = [problem for problem in counts if problem.n < k]
    if short:
        first = short[0]
        raise ValueError(
            f"pass@{k} needs at least {k} attempts per problem that ran, but "
            f"{len(short)} problem(s) have fewer, e.g. {first.problem} with n={first.n} "
            f"({first.infra_errors} infrastructure errors)"
        )
    n = [problem.n for problem in counts]
    c = [problem.c for problem in counts]

    def interval(estimator: Estimator) -> Interval:
        return pass_at_k_interval(
            n, c, k, estimator=estimator, reps=reps, confidence=confidence, seed=seed
        )

    return PassAtKResult(
        k=k,
        pass_at_k=interval("pass@k"),
        pass_hat_k=interval("pass^k"),
        n_problems=len(counts),
        n_attempts=sum(n),
        n_successes=sum(c),
        n_infra_errors=sum(problem.infra_errors for problem in counts),
    )
