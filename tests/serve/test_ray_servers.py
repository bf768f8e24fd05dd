"""Many servers behind Ray: a rollout across them equals the in-process one, even when one dies.

One local Ray session (2 CPUs) for the module: starting Ray costs seconds.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("ray")


from envsuite.agents.scripted_endpoint import ScriptedEndpoint
from envsuite.evaluation.rollout import rollout, rollout_protocol
from envsuite.serve import ServeConfig
from envsuite.serve.ray_servers import RayServers, ServersNotStarted
from tests import helper_processes
from tests.evaluation.test_rollout import comparable, wordy_policy

WORDLE = "envsuite/Wordle-v0"
PROTOCOL = rollout_protocol(WORDLE, groups=4, group_size=4)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    with helper_processes.local_ray():
        yield


@pytest.fixture(scope="module")
def endpoint() -> Iterator[ScriptedEndpoint]:
    with ScriptedEndpoint(policy=wordy_policy) as running:
        yield running


@pytest.fixture(scope="module")
def in_process(endpoint, tmp_path_factory):
    out = tmp_path_factory.mktemp("local")
    return rollout(PROTOCOL, "scripted", out, agent_options=options(endpoint))


def options(endpoint: ScriptedEndpoint) -> dict[str, object]:
    return {"base_url": endpoint.base_url, "temperature": 0.5}


def same_records(remote, local) -> None:
    assert len(remote.records) == len({r.key for r in remote.records}) == len(local.records)
    assert all(r.infra_error is None for r in remote.records)
    key = lambda record: record.key  # noqa: E731
    assert [comparable(r) for r in sorted(remote.records, key=key)] == [
        comparable(r) for r in sorted(local.records, key=key)
    ]


def test_two_servers_give_the_in_process_records_even_when_one_dies(
    local_ray, endpoint, in_process, tmp_path
):
    with RayServers(ServeConfig((WORDLE,), port=0), count=2) as servers:
        assert len(set(servers.urls)) == 2
        assert all(url.startswith("http://127.0.0.1:") for url in servers.urls)
        pool = servers.pool()
        both = rollout(
            PROTOCOL,
            "scripted",
            tmp_path / "both",
            agent_options=options(endpoint),
            concurrency=8,
            env_factory=pool,
            env_calls_in_thread=True,
        )
        same_records(both, in_process)
        assert pool.sessions() == dict.fromkeys(servers.urls, 0)  # every env closed

        pool = servers.pool()
        made = []

        def factory(env_id, env_kwargs):
            made.append(pool(env_id, env_kwargs))
            return made[-1]

        done = []

        def kill_the_first_midway(record):
            done.append(record)
            if len(done) == 5:  # 8 episodes in flight, half of them on the first server
                servers.kill(0)

        one_dies = rollout(
            PROTOCOL,
            "scripted",
            tmp_path / "one-dies",
            agent_options=options(endpoint),
            concurrency=8,
            env_factory=factory,
            env_calls_in_thread=True,
            on_episode=kill_the_first_midway,
        )
    same_records(one_dies, in_process)
    assert pool.down == (servers.urls[0],)
    assert sum(env.moves for env in made) >= 1


def test_servers_ray_cannot_place_are_a_clear_error(local_ray):
    with pytest.raises(ServersNotStarted, match="3 envsuite servers did not all start within 2 s"):
        RayServers(ServeConfig((WORDLE,), port=0), count=3, start_timeout=2)


@pytest.mark.parametrize(
    ("count", "port", "message"), [(0, 0, "count must be an int >= 1"), (2, 8123, "cannot all")]
)
def test_bad_server_counts_and_ports_are_refused(count, port, message):
    with pytest.raises(ValueError, match=message):
        RayServers(ServeConfig((WORDLE,), port=port), count=count)
