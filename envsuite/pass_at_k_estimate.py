"""The unbiased per-problem estimates of pass@k and pass^k from n attempts with c successes.

They sit in the core because an env family (SAT's curriculum, which promotes on pass@k)
and the evaluation engine (:mod:`envsuite.evaluation.metrics.pass_at_k`, which averages
them over problems with intervals) both use them, and families may not import the
evaluation engine.
"""

from __future__ import annotations

import operator

import numpy as np


def _check_counts(n: int, c: int, k: int, name: str) -> tuple[int, int, int]:
    n, c, k = operator.index(n), operator.index(c), operator.index(k)
    if k < 1:
        raise ValueError(f"k must be at least 1, got k={k}")
    if not 0 <= c <= n:
        raise ValueError(f"need 0 <= c <= n, got n={n}, c={c}")
    if n < k:
        raise ValueError(
            f"{name} needs at least k attempts per problem: n={n} attempts recorded, k={k}"
        )
    return n, c, k


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased estimate of pass@k: the chance that at least one of k attempts succeeds.

    Formula:
        pass@k = 1 − C(n − c, k) / C(n, k), computed as the product
        1 − Π_{i = n − c + 1}^{n} (1 − k / i), which avoids huge binomials. It is 0 when
        c = 0 and exactly 1 when n − c < k (every k-subset holds a success).

    Source:
        Chen et al. (2021), "Evaluating Large Language Models Trained on Code", eq. 1 and
        the numerically stable numpy ``pass_at_k`` function of its Figure 3.

    Args:
        n: Attempts recorded for the problem.
        c: Attempts that succeeded, 0 <= c <= n.
        k: Attempts the metric grants, k >= 1.

    Returns:
        The estimate, in [0, 1].

    Raises:
        ValueError: ``n < k``, ``k < 1`` or ``c`` outside [0, n].

    """
    n, c, k = _check_counts(n, c, k, "pass@k")
    if n - c < k:
        return 1.0
    return 1.0 - float(np.prod(1.0 - k / np.arange(n - c + 1, n + 1, dtype=np.float64)))


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Unbiased estimate of pass^k ("pass hat k"): the chance that all k attempts succeed.

    Formula:
        pass^k = C(c, k) / C(n, k), computed as the product Π_{i=0}^{k−1} (c − i) / (n − i);
        0 when c < k, 1 when c = n.

    Source:
        Yao et al. (2024), "τ-bench: A Benchmark for Tool-Agent-User Interaction in
        Real-World Domains" (the pass^k reliability metric).

    Args:
        n: Attempts recorded for the problem.
        c: Attempts that succeeded, 0 <= c <= n.
        k: Attempts the metric asks to all succeed, k >= 1.

    Returns:
        The estimate, in [0, 1].

    Raises:
        ValueError: ``n < k``, ``k < 1`` or ``c`` outside [0, n].

    """
    n, c, k = _check_counts(n, c, k, "pass^k")
    if c < k:
        return 0.0
    steps = np.arange(k, dtype=np.float64)
    return float(np.prod((c - steps) / (n - steps)))
