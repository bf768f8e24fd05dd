from __future__ import annotations

import pytest

from envsuite.evaluation.metrics.env_summary import summarize_by_env
from tests.evaluation.metrics.record_factory import make_record


def _records() -> list:
    records = []
    for seed, (ret_a, ret_b) in enumerate([(1.0, 10.0), (3.0, 20.0)]):
        records.append(
            make_record(
                env_id="envsuite/A-v0", seed=seed, episode_return=ret_a, success=True, score=0.5
            )
        )
        records.append(
            make_record(
                env_id="envsuite/B-v0",
                seed=seed + 10,
                episode_return=ret_b,
                success=seed == 0,
                score=1.0,
            )
        )
    # a second attempt on A seed 0, averaged with the first
    records.append(
        make_record(
            env_id="envsuite/A-v0", seed=0, attempt=1, episode_return=2.0, success=False, score=0.0
        )
    )
    records.append(
        make_record(env_id="envsuite/B-v0", seed=12, infra_error="env crash", episode_return=0.0)
    )
    return records


def test_summarize_by_env() -> None:
    summaries = summarize_by_env(_records(), reps=200)
    a, b = (summaries[key] for key in sorted(summaries))
    assert (a.n_episodes, a.n_infra_errors, b.n_episodes, b.n_infra_errors) == (3, 0, 2, 1)
    # A: seed 0's two attempts average to success 0.5 and score 0.25; seed 1 has 1 and 0.5.
    assert a.success_rate is not None and a.success_rate.estimate == pytest.approx(0.75)
    assert b.mean_return is not None and b.mean_return.estimate == 15.0
    assert a.mean_score is not None and a.mean_score.estimate == pytest.approx(0.375)
    assert b.mean_return.low <= 15.0 <= b.mean_return.high


def test_attempts_at_one_seed_are_not_independent_draws() -> None:
    """Ten seeds, five identical attempts each: the interval is that of ten values."""
    returns = [float(seed % 3) for seed in range(10)]
    once = [make_record(seed=seed, episode_return=value) for seed, value in enumerate(returns)]
    repeated = [
        make_record(seed=seed, attempt=attempt, episode_return=value)
        for seed, value in enumerate(returns)
        for attempt in range(5)
    ]
    single = next(iter(summarize_by_env(once, reps=500).values())).mean_return
    fivefold = next(iter(summarize_by_env(repeated, reps=500).values())).mean_return
    assert single is not None and fivefold is not None
    # Resampling the 50 episodes would give an interval about sqrt(5) times narrower.
    assert (fivefold.low, fivefold.estimate, fivefold.high) == (
        single.low,
        single.estimate,
        single.high,
    )


def test_summarize_by_env_needs_an_agent_for_per_agent_returns() -> None:
    record = make_record(episode_return={"p0": 1.0, "p1": -1.0})
    with pytest.raises(ValueError, match="agent="):
        summarize_by_env([record])
    summary = next(iter(summarize_by_env([record], agent="p1", reps=10).values()))
    assert summary.mean_return is not None and summary.mean_return.estimate == -1.0
