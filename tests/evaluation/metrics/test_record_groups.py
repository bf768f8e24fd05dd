from __future__ import annotations

import pytest

from envsuite.evaluation.metrics.record_groups import (
    checked_records,
    problem_key,
    scalar_return,
    split_infra_errors,
    task_key,
    task_label,
)
from tests.evaluation.metrics.record_factory import make_record


def test_keys_use_canonical_kwargs() -> None:
    one = make_record(env_kwargs={"b": 2, "a": 1}, seed=3)
    other = make_record(env_kwargs={"a": 1, "b": 2}, seed=3, attempt=1)
    assert (
        task_key(one) == task_key(other) == ("metrics-test", "envsuite/Bandit-v0", '{"a":1,"b":2}')
    )
    assert problem_key(one) == (*task_key(one), 3)


def test_task_label() -> None:
    assert task_label(("", "envsuite/Bandit-v0", "{}")) == "envsuite/Bandit-v0"
    assert task_label(("t", "envsuite/Bandit-v0", '{"a":1}')) == 't: envsuite/Bandit-v0 {"a":1}'


def test_checked_records_refuses_what_cannot_be_aggregated() -> None:
    with pytest.raises(ValueError, match="no records"):
        checked_records([])
    with pytest.raises(ValueError, match="several agents"):
        checked_records([make_record(agent_id="x"), make_record(agent_id="y", seed=1)])
    with pytest.raises(ValueError, match="recorded twice"):
        checked_records([make_record(), make_record()])
    kinds = [make_record(), make_record(env_kwargs={"a": 1})]
    assert checked_records(kinds) == kinds[::-1]  # '{"a":1}' sorts before '{}'


def test_checked_records_come_back_in_task_seed_attempt_order() -> None:
    records = [
        make_record(task_id=task, seed=seed, attempt=attempt)
        for task in ("b", "a")
        for seed in (2, 0, 1)
        for attempt in (1, 0)
    ]
    expected = sorted(records, key=lambda r: (r.task_id, r.seed, r.attempt))
    assert checked_records(records) == expected
    assert checked_records(records[::-1]) == expected


def test_split_infra_errors() -> None:
    ok, lost = make_record(), make_record(seed=1, infra_error="sandbox lost")
    assert split_infra_errors([ok, lost]) == ([ok], [lost])


def test_scalar_return() -> None:
    assert scalar_return(make_record(episode_return=2.5)) == 2.5
    multi = make_record(episode_return={"p0": 1.0, "p1": 3.0})
    assert scalar_return(multi, "p1") == 3.0
    with pytest.raises(ValueError, match="agent="):
        scalar_return(multi)
    with pytest.raises(ValueError, match="not among"):
        scalar_return(multi, "p2")
