"""MinFrac of bandit episodes from the arms recorded in their action traces.

MinFrac needs the index of the arm pulled at every step. Bandit envs record it as the
``arm`` curve (the arm actually pulled, including the penalty arm after a malformed answer),
which works in every observation mode; records without it fall back to integer trace
actions (vector mode). Text actions ("I press blue") are never mapped to arms here.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from envsuite.evaluation.metrics.bootstrap import FloatArray
from envsuite.evaluation.metrics.exploration import min_frac
from envsuite.evaluation.metrics.record_groups import checked_records, split_infra_errors
from envsuite.records import EpisodeRecord


def integer_actions(record: EpisodeRecord) -> list[int] | None:
    """The arms pulled: the env's ``arm`` curve, else integer trace actions; else None."""
    if "arm" in record.curves:
        return [int(arm) for arm in record.curves["arm"]]
    actions = [step.action for step in record.trace]
    arms = [a for a in actions if isinstance(a, int) and not isinstance(a, bool)]
    return arms if arms and len(arms) == len(actions) else None


def min_frac_from_records(
    records: Iterable[EpisodeRecord], num_arms: int, *, normalize: bool = True
) -> FloatArray:
    """MinFrac of each episode that ran, from the integer arms in its trace.

    Formula:
        Per episode, :func:`~envsuite.evaluation.metrics.exploration.min_frac` of the
        trace's actions: K · min_a N_a(T) / T when normalised.

    Source:
        Krishnamurthy et al. (2024), "Can Large Language Models Explore In-Context?";
        Nie et al. (2024), EVOLvE.

    Args:
        records: Episode records of one agent on one bandit configuration.
        num_arms: K, the number of arms of that configuration.
        normalize: Multiply by K (1: uniform pulls, 0: some arm never pulled).

    Returns:
        One value per episode that ran (infrastructure errors left out).

    Raises:
        ValueError: bad records, no episode that ran, a trace whose actions are not all
            integers, or an arm outside [0, K).

    """
    normal, _ = split_infra_errors(checked_records(records))
    if not normal:
        raise ValueError("need at least one episode that ran")
    values = []
    for record in normal:
        actions = integer_actions(record)
        if actions is None:
            raise ValueError(
                f"seed {record.seed} attempt {record.attempt}: no 'arm' curve and the trace "
                "actions are not integer arms"
            )
        values.append(min_frac(actions, num_arms, normalize=normalize))
    return np.asarray(values, dtype=np.float64)
