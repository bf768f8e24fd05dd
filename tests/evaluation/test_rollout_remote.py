"""A rollout whose envs run behind ``envsuite serve`` equals the in-process rollout."""

from __future__ import annotations

import pytest

pytest.importorskip("uvicorn")

import envsuite.remote
from envsuite.agents.scripted_endpoint import ScriptedEndpoint
from envsuite.evaluation.rollout import read_transcripts, rollout
from envsuite.serve import RunningServer, ServeConfig
from tests.evaluation.test_rollout import (
    comparable,
    three_env_protocol,
    wordy_policy,
)


def test_served_envs_give_the_same_records_and_transcripts(tmp_path):
    protocol = three_env_protocol(groups=3, group_size=3)
    served = tuple(entry.id for entry in protocol.envs)
    with (
        ScriptedEndpoint(policy=wordy_policy) as endpoint,
        RunningServer(ServeConfig(served, port=0)) as server,
    ):
        options = {"base_url": endpoint.base_url, "temperature": 0.5}
        local = rollout(protocol, "scripted", tmp_path / "local", agent_options=options)

        def remote_env(env_id, env_kwargs):
            return envsuite.remote.make(server.url, env_id, **env_kwargs)

        remote = rollout(
            protocol,
            "scripted",
            tmp_path / "remote",
            agent_options=options,
            concurrency=16,
            env_factory=remote_env,
            env_calls_in_thread=True,
        )

    def key(record):
        return record.key

    assert all(r.infra_error is None for r in remote.records)
    assert [comparable(r) for r in sorted(remote.records, key=key)] == [
        comparable(r) for r in sorted(local.records, key=key)
    ]

    def lines(result):
        rows = read_transcripts(result.transcripts_path)
        return sorted(
            ((r["env_id"], r["seed"], r["attempt"]), r["messages"], r["rewards"]) for r in rows
        )

    assert lines(remote) == lines(local)
