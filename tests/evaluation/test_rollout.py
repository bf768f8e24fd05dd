"""Rollouts: concurrent GRPO groups against the loopback scripted endpoint."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from envsuite.agents.async_chat_agent import AsyncChatAgent
from envsuite.agents.chat_agent import ChatAgent
from envsuite.agents.scripted_endpoint import ScriptedEndpoint, cycle_valid_actions
from envsuite.evaluation.episode_runner import run_job
from envsuite.evaluation.protocol import TaskProtocol
from envsuite.evaluation.rollout import (
    RolloutError,
    local_env,
    read_transcripts,
    rollout,
    rollout_protocol,
)
from envsuite.evaluation.transcripts import transcripts_from_record

#: Three text envs; the scripted policy cycles Bandit's legal actions and answers the others
#: with replies they must parse (or penalise).
ENVS = [
    {"id": "envsuite/Bandit-v0", "kwargs": {"horizon": 6}},
    {"id": "envsuite/Wordle-v0", "kwargs": {}},
    {"id": "envsuite/SAT-v0", "kwargs": {}},
]


def wordy_policy(messages):
    """Valid actions when listed, else a real word (Wordle) that SAT cannot parse."""
    reply = cycle_valid_actions(messages)
    if reply != "pass":
        return reply
    turn = sum(1 for m in messages if m.get("role") == "assistant")
    return ["crane", "slate", "pious", "ghoul", "tramp", "wreck"][turn % 6]


def three_env_protocol(groups: int, group_size: int) -> TaskProtocol:
    return TaskProtocol.model_validate(
        {
            "id": "rollout-three",
            "envs": ENVS,
            "seeds": {"start": 5, "count": groups},
            "attempts": group_size,
            "metrics": ["mean_return"],
        }
    )


def comparable(record, keep_tokens=True):
    """A record without what legitimately differs between runs: ids, clocks, and the
    requests a busy loopback server made the agent retry (token counts are of answers)."""
    data = record.model_dump(mode="json")
    data.pop("run_id")
    data.pop("wall_time_s")
    info = data.pop("agent_info")
    info.pop("rollout", None)
    for key in ("latency_s", "retry_wait_s", "requests", "retries"):
        info.pop(key, None)
    if not keep_tokens:  # another system prompt: other prompt tokens
        info = {"completion_tokens": info.get("completion_tokens")}
    data["agent_info"] = info
    return data


@pytest.fixture(scope="module")
def big_run(tmp_path_factory):
    """216 episodes (3 envs x 9 groups x 8 members), 256 in flight at once."""
    out = tmp_path_factory.mktemp("big")
    with ScriptedEndpoint(policy=wordy_policy) as endpoint:
        result = rollout(
            three_env_protocol(groups=9, group_size=8),
            "scripted",
            out,
            agent_options={"base_url": endpoint.base_url, "temperature": 0.7},
            concurrency=256,
        )
        requests = list(endpoint.requests)
    return result, requests


def test_every_episode_is_recorded_once_in_both_files(big_run):
    result, _ = big_run
    assert result.new == 216 and result.resumed == 0
    keys = [record.key for record in result.records]
    assert len(set(keys)) == 216
    lines = read_transcripts(result.transcripts_path)
    assert len(lines) == 216
    assert {(line["env_id"], line["seed"], line["attempt"]) for line in lines} == {
        (key[1], key[3], key[4]) for key in keys
    }
    assert all(record.infra_error is None for record in result.records)
    assert {record.env_id for record in result.records} == {env["id"] for env in ENVS}


def test_members_of_a_group_share_the_seed_and_first_observation(big_run):
    result, _ = big_run
    lines = read_transcripts(result.transcripts_path)
    groups: dict[tuple[str, int], list[dict]] = {}
    for line in lines:
        groups.setdefault((line["env_id"], line["group"]), []).append(line)
    assert len(groups) == 3 * 9
    for (env_id, group), members in groups.items():
        assert sorted(m["member"] for m in members) == list(range(8))
        assert {m["seed"] for m in members} == {5 + group}
        first = {json.dumps(m["messages"][:2]) for m in members}
        assert len(first) == 1, f"{env_id} group {group}: members start differently"
        # members differ by the sampling seed sent, at the temperature given
        assert len({m["sampling"]["seed"] for m in members}) == 8
        assert {m["sampling"]["temperature"] for m in members} == {0.7}
    # different groups are different problems (Wordle's first words hide theirs)
    sat_starts = {
        json.dumps(ms[0]["messages"][1]) for (e, _), ms in groups.items() if e.endswith("SAT-v0")
    }
    assert len(sat_starts) == 9


def test_requests_carry_the_recorded_sampling_seed(big_run):
    result, requests = big_run
    sent = {(body["seed"], body["temperature"]) for body in requests}
    recorded = {
        (
            r.agent_info["rollout"]["sampling"]["seed"],
            r.agent_info["rollout"]["sampling"]["temperature"],
        )
        for r in result.records
    }
    assert sent == recorded


def test_transcripts_are_prefixes_with_per_turn_rewards_and_usage(big_run):
    result, _ = big_run
    by_key = {record.key[1:]: record for record in result.records}
    for line in read_transcripts(result.transcripts_path):
        record = by_key[
            (
                line["env_id"],
                json.dumps(line["env_kwargs"], sort_keys=True, separators=(",", ":")),
                line["seed"],
                line["attempt"],
            )
        ]
        messages = line["messages"]
        roles = [m["role"] for m in messages]
        assert roles[0] == "system"
        assert roles[1:] == ["user", "assistant"] * record.length + ["user"]
        assert len(line["rewards"]) == len(line["usage"]) == record.length
        assert line["rewards"] == [step.reward for step in record.trace]
        assert (
            sum(u["completion_tokens"] for u in line["usage"])
            == record.agent_info["completion_tokens"]
        )
        assert sum(u["prompt_tokens"] for u in line["usage"]) == record.agent_info["prompt_tokens"]
        assert all(u["requests"] == 1 + u["retries"] for u in line["usage"])


def test_transcripts_equal_the_replay_of_their_records(big_run):
    result, _ = big_run
    lines = {
        (x["env_id"], x["seed"], x["attempt"]): x for x in read_transcripts(result.transcripts_path)
    }
    for record in result.records[::9]:
        replayed = transcripts_from_record(record)[0]
        line = lines[(record.env_id, record.seed, record.attempt)]
        assert line["messages"] == replayed.messages
        assert line["rewards"] == replayed.rewards


def test_the_model_sees_what_the_transcript_holds(big_run):
    result, requests = big_run
    lines = read_transcripts(result.transcripts_path)
    prompts = {json.dumps(body["messages"]) for body in requests}
    for line in lines[:20]:
        messages = line["messages"]
        for turn in range(line["rewards"].__len__()):
            # the request of turn t: system, then every message up to its user message
            assert json.dumps(messages[: 2 + 2 * turn]) in prompts


def test_records_equal_a_sequential_run_with_the_same_replies(tmp_path):
    protocol = three_env_protocol(groups=2, group_size=3)
    with ScriptedEndpoint(policy=wordy_policy) as endpoint:
        options = {"base_url": endpoint.base_url, "temperature": 0.0}
        wide = rollout(
            protocol, "scripted", tmp_path / "wide", agent_options=options, concurrency=64
        )
        narrow = rollout(
            protocol, "scripted", tmp_path / "one", agent_options=options, concurrency=1
        )
        sequential = [run_job(job) for job in protocol.jobs("seq", "openai:scripted", options)]
    order = sorted(record.key for record in sequential)

    def by_key(records, **kw):
        return [comparable(r, **kw) for r in sorted(records, key=lambda r: r.key)]

    assert [r.key for r in sorted(wide.records, key=lambda r: r.key)] == order
    assert by_key(wide.records) == by_key(narrow.records)
    # the sync agent sends a generic system prompt (other prompt tokens), all else is equal
    assert by_key(wide.records, keep_tokens=False) == by_key(sequential, keep_tokens=False)


def test_injected_500s_and_timeouts_are_retried(tmp_path):
    protocol = rollout_protocol("envsuite/Bandit-v0", {"horizon": 4}, groups=3, group_size=4)
    with ScriptedEndpoint() as endpoint:
        endpoint.fail_next(5, status=500)
        endpoint.fail_next(2, status=503, delay_s=3.0)
        options = {"base_url": endpoint.base_url, "backoff_s": 0.0, "timeout_s": 1.0}
        result = rollout(protocol, "scripted", tmp_path, agent_options=options, concurrency=8)
    assert all(record.infra_error is None for record in result.records)
    assert all(record.length == 4 for record in result.records)
    # 7 injected failures, each retried (a loaded machine may add a timeout of its own)
    assert sum(record.agent_info["retries"] for record in result.records) >= 7
    assert any(record.agent_info["latency_s"] >= 1.0 for record in result.records)


def test_an_endpoint_that_stays_down_is_an_infra_error_and_the_rest_run(tmp_path):
    protocol = rollout_protocol("envsuite/Bandit-v0", {"horizon": 3}, groups=2, group_size=3)
    with ScriptedEndpoint() as endpoint:
        # the first episode's every try: (1 + max_retries) requests, 3 tries
        endpoint.fail_next(2 * 3, status=500)
        options = {"base_url": endpoint.base_url, "backoff_s": 0.0, "max_retries": 1}
        result = rollout(protocol, "scripted", tmp_path, agent_options=options, concurrency=1)
    failed = [record for record in result.records if record.infra_error is not None]
    assert len(failed) == 1
    assert "HTTP 500" in failed[0].infra_error and failed[0].stop_reason == "infra_error"
    assert failed[0].agent_info["requests"] == 6
    assert sum(record.length == 3 for record in result.records) == 5
    lines = read_transcripts(result.transcripts_path)
    assert len(lines) == 6
    assert sum(line["infra_error"] is not None for line in lines) == 1


def test_a_transcript_line_without_its_record_is_dropped_and_rerun(tmp_path):
    protocol = rollout_protocol("envsuite/Bandit-v0", {"horizon": 3}, groups=2, group_size=2)
    with ScriptedEndpoint() as endpoint:
        options = {"base_url": endpoint.base_url}
        first = rollout(protocol, "scripted", tmp_path, agent_options=options)
        records = (tmp_path / "episodes.jsonl").read_text().splitlines(keepends=True)
        # a kill between the transcript write and the record write, mid-line too
        (tmp_path / "episodes.jsonl").write_text("".join(records[:-1]) + records[-1][:30])
        with open(first.transcripts_path, "a") as handle:
            handle.write('{"partial": ')
        again = rollout(protocol, "scripted", tmp_path, agent_options=options)
    assert again.new == 1 and again.resumed == 3
    lines = read_transcripts(again.transcripts_path)
    assert len(lines) == 4
    assert len({(line["seed"], line["attempt"]) for line in lines}) == 4


def test_single_and_multi_agent_envs_in_one_protocol_are_refused(tmp_path):
    envs = [{"id": "envsuite/ConnectFour-v0"}, {"id": "envsuite/Bandit-v0"}]
    protocol = TaskProtocol.model_validate(
        {"id": "x", "envs": envs, "seeds": {"start": 0, "count": 1}}
    )
    with pytest.raises(RolloutError, match="all single-agent or all multi-agent"):
        rollout(protocol, "m", tmp_path, agent_options={"base_url": "http://127.0.0.1:9/v1"})
    assert not (tmp_path / "episodes.jsonl").exists()


def test_the_async_and_sync_agents_send_the_same_request(tmp_path):
    """Same seed and observation: the same body, so members are seeded as eval's attempts."""
    with ScriptedEndpoint() as endpoint:
        sync = ChatAgent("m", base_url=endpoint.base_url, temperature=0.5)
        sync.reset(seed=11)
        sync.act("hello", {"legal_actions": ["a", "b"]})
        sync.close()

        async def one() -> str:
            agent = AsyncChatAgent("m", base_url=endpoint.base_url, temperature=0.5)
            agent.reset(seed=11)
            reply = await agent.act("hello", {"legal_actions": ["a", "b"]})
            await agent.aclose()
            return reply

        assert asyncio.run(one()) == "a"
        assert endpoint.requests[0] == endpoint.requests[1]


def test_an_env_factory_in_threads_gives_the_same_records(tmp_path):
    """The factory slot a remote env fills: made through it, stepped in worker threads."""
    made, stepped_in = [], set()

    def factory(env_id, env_kwargs):
        env = local_env(env_id, env_kwargs)
        made.append(env_id)
        step = env.step

        def step_noting_thread(action):
            stepped_in.add(threading.current_thread() is threading.main_thread())
            return step(action)

        env.step = step_noting_thread
        return env

    protocol = rollout_protocol("envsuite/Bandit-v0", {"horizon": 4}, groups=3, group_size=3)
    with ScriptedEndpoint() as endpoint:
        options = {"base_url": endpoint.base_url}
        plain = rollout(protocol, "scripted", tmp_path / "plain", agent_options=options)
        threaded = rollout(
            protocol,
            "scripted",
            tmp_path / "threaded",
            agent_options=options,
            concurrency=4,
            env_factory=factory,
            env_calls_in_thread=True,
        )
    assert 1 <= len(made) <= 4  # envs are reused across episodes, one per slot at most
    assert stepped_in == {False}

    def key(record):
        return record.key

    assert [comparable(r) for r in sorted(plain.records, key=key)] == [
        comparable(r) for r in sorted(threaded.records, key=key)
    ]


def test_an_env_that_raises_is_an_infra_error_and_the_rest_run(tmp_path):
    def factory(env_id, env_kwargs):
        env = local_env(env_id, env_kwargs)
        reset = env.reset

        def reset_failing_on_seed_1(*, seed=None, options=None):
            if seed == 1:
                raise RuntimeError("sandbox lost")
            return reset(seed=seed, options=options)

        env.reset = reset_failing_on_seed_1
        return env

    protocol = rollout_protocol("envsuite/Bandit-v0", {"horizon": 3}, groups=3, group_size=2)
    with ScriptedEndpoint() as endpoint:
        result = rollout(
            protocol,
            "scripted",
            tmp_path,
            agent_options={"base_url": endpoint.base_url},
            env_factory=factory,
        )
    failed = sorted((r.seed, r.attempt) for r in result.records if r.infra_error is not None)
    assert failed == [(1, 0), (1, 1)]
    assert all("sandbox lost" in r.infra_error for r in result.records if r.infra_error)
    assert [g.infra_errors for g in result.groups] == [0, 2, 0]
    assert result.groups[1].mean_return is None
