"""A pool of servers: sessions spread over them, an episode moved when its server goes."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

import envsuite
from envsuite.agents.scripted_endpoint import ScriptedEndpoint
from envsuite.evaluation.rollout import rollout, rollout_protocol
from envsuite.remote.server_pool import NoServerLeft, ServerPool
from envsuite.serve import RunningServer, ServeConfig
from tests.evaluation.test_rollout import comparable, wordy_policy

WORDLE = "envsuite/Wordle-v0"
GUESSES = ["crane", "slate", "pious", "ghoul"]


def two_servers() -> tuple[RunningServer, RunningServer]:
    config = ServeConfig((WORDLE, "envsuite/Bandit-v0"), port=0)
    return RunningServer(config), RunningServer(config)


def test_sessions_spread_over_the_servers_and_are_released():
    with (
        RunningServer(ServeConfig((WORDLE,), port=0)) as a,
        RunningServer(ServeConfig((WORDLE,), port=0)) as b,
    ):
        pool = ServerPool([a.url, b.url])
        envs = [pool.make(WORDLE) for _ in range(5)]
        assert [env.url for env in envs] == [a.url, b.url, a.url, b.url, a.url]
        assert pool.sessions() == {a.url: 3, b.url: 2}
        envs[0].close()
        envs[2].close()
        assert pool.sessions() == {a.url: 1, b.url: 2}
        assert pool(WORDLE, {}).url == a.url  # the rollout's env_factory form
        for env in envs:
            env.close()


def test_an_episode_goes_on_on_another_server_exactly_as_in_process():
    a, b = two_servers()
    try:
        pool = ServerPool([a.url, b.url])
        env = pool.make(WORDLE, max_episode_steps=10)
        assert env.url == a.url
        local = envsuite.make(WORDLE, max_episode_steps=10)
        assert repr(env.reset(seed=11)) == repr(local.reset(seed=11))
        for guess in GUESSES[:2]:
            assert repr(env.step(guess)) == repr(local.step(guess))
        a.stop()
        for guess in GUESSES[2:]:
            assert repr(env.step(guess)) == repr(local.step(guess))
        assert (env.url, env.moves, pool.down) == (b.url, 1, (a.url,))
        assert pool.sessions()[b.url] == 1
        assert repr(env.reset(seed=12)) == repr(local.reset(seed=12))
        env.close()
    finally:
        b.stop()


def test_no_server_left_is_a_clear_error():
    a, b = two_servers()
    pool = ServerPool([a.url, b.url])
    env = pool.make(WORDLE)
    env.reset(seed=0)
    a.stop()
    b.stop()
    with pytest.raises(NoServerLeft, match="no server of the pool answers"):
        env.step("crane")
    with pytest.raises(NoServerLeft):
        pool.make(WORDLE)
    assert set(pool.down) == {a.url, b.url}


@pytest.mark.parametrize(
    ("urls", "message"),
    [
        ([], "at least one"),
        (["http://127.0.0.1:1", "http://127.0.0.1:1/"], "twice"),
        (["ftp://x"], "not a server URL"),
    ],
)
def test_bad_server_lists_are_refused(urls, message):
    with pytest.raises(ValueError, match=message):
        ServerPool(urls)


def test_multi_agent_ids_are_refused():
    pool = ServerPool(["http://127.0.0.1:1"])
    with pytest.raises(envsuite.errors.WrongApiError, match="single-agent"):
        pool.make("envsuite/Nim-v0")


def test_a_rollout_over_servers_that_lose_one_records_every_episode_once(tmp_path):
    protocol = rollout_protocol(WORDLE, groups=4, group_size=4)
    a, b = two_servers()
    try:
        with ScriptedEndpoint(policy=wordy_policy) as endpoint:
            options = {"base_url": endpoint.base_url, "temperature": 0.5}
            local = rollout(protocol, "scripted", tmp_path / "local", agent_options=options)
            pool = ServerPool([a.url, b.url])
            made = []

            def factory(env_id, env_kwargs):
                made.append(pool(env_id, env_kwargs))
                return made[-1]

            done = []

            def stop_a_midway(record):
                done.append(record)
                if len(done) == 5:
                    a.stop()

            remote = rollout(
                protocol,
                "scripted",
                tmp_path / "remote",
                agent_options=options,
                concurrency=8,
                env_factory=factory,
                env_calls_in_thread=True,
                on_episode=stop_a_midway,
            )
    finally:
        a.stop()
        b.stop()
    assert pool.down == (a.url,)
    assert sum(env.moves for env in made) >= 1  # episodes in flight moved to b
    assert len(remote.records) == len({r.key for r in remote.records}) == 16
    assert all(r.infra_error is None for r in remote.records)
    key = lambda record: record.key  # noqa: E731
    assert [comparable(r) for r in sorted(remote.records, key=key)] == [
        comparable(r) for r in sorted(local.records, key=key)
    ]


def test_a_restarted_server_takes_the_episode_back():
    config = ServeConfig((WORDLE,), port=0)
    first = RunningServer(config)
    pool = ServerPool([first.url])
    env = pool.make(WORDLE)
    local = envsuite.make(WORDLE)
    assert repr(env.reset(seed=4)) == repr(local.reset(seed=4))
    assert repr(env.step("crane")) == repr(local.step("crane"))
    first.stop()
    again = RunningServer(dataclasses.replace(config, port=first.port))
    try:
        assert repr(env.step("slate")) == repr(local.step("slate"))
        assert (env.url, env.moves, pool.down) == (first.url, 0, ())
        env.close()
    finally:
        again.stop()


def test_a_pooled_env_pickles_mid_episode():
    with RunningServer(ServeConfig((WORDLE,), port=0)) as a:
        env = ServerPool([a.url]).make(WORDLE)
        local = envsuite.make(WORDLE)
        env.reset(seed=2)
        local.reset(seed=2)
        env.step("crane")
        local.step("crane")
        copy = pickle.loads(pickle.dumps(env))
        assert repr(copy.step("slate")) == repr(local.step("slate"))
        copy.close()
        env.close()
