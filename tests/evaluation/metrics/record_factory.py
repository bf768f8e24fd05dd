"""Builds EpisodeRecords for metric tests with only the fields a test cares about."""

from __future__ import annotations

from typing import Any

from envsuite.records import EpisodeRecord


def make_record(**overrides: Any) -> EpisodeRecord:
    fields: dict[str, Any] = dict(
        run_id="run-1",
        task_id="metrics-test",
        env_id="envsuite/Bandit-v0",
        env_kwargs={},
        spec_hash="a" * 64,
        envsuite_version="0.1.0",
        agent_id="agent",
        seed=0,
        attempt=0,
        episode_return=0.0,
        success=None,
        score=None,
        length=1,
        terminated=True,
        truncated=False,
        wall_time_s=0.0,
    )
    fields.update(overrides)
    return EpisodeRecord(**fields)
