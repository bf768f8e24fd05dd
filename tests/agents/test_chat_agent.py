from __future__ import annotations

import hashlib

import pytest

from envsuite.agents.chat_agent import SYSTEM_PROMPT, ChatAgent, ChatAgentError, user_message
from envsuite.agents.scripted_endpoint import ScriptedEndpoint
from envsuite.evaluation.episode_runner import MAX_TRACE_ACTION_BYTES, TRACE_CUT_HEAD_CHARS
from envsuite.evaluation.protocol import adhoc_protocol
from envsuite.evaluation.run_directory import evaluate


def _agent(endpoint: ScriptedEndpoint, **options) -> ChatAgent:
    agent = ChatAgent("scripted", base_url=endpoint.base_url, backoff_s=0.001, **options)
    agent.reset(seed=1)
    return agent


def test_prompt_template_lists_valid_actions():
    assert (
        user_message("Pick one.", {"legal_actions": ["a", "b"]}) == "Pick one.\nValid actions: a, b"
    )
    assert user_message([1, 2], {}) == "Observation: [1,2]"


def test_conversation_and_request_body():
    with ScriptedEndpoint() as endpoint:
        agent = _agent(endpoint, api_key="secret-key", max_tokens=5)
        assert agent.act("first", {"legal_actions": ["x", "y"]}) == "x"
        assert agent.act("second", {"legal_actions": ["x", "y"]}) == "y"
        body = endpoint.requests[-1]
    assert body["model"] == "scripted" and body["max_tokens"] == 5 and body["temperature"] == 0.0
    roles = [m["role"] for m in body["messages"]]
    assert roles == ["system", "user", "assistant", "user"]
    assert body["messages"][0]["content"] == SYSTEM_PROMPT
    assert agent.episode_info()["requests"] == 2
    assert agent.episode_info()["total_tokens"] > 0


def test_history_turns_bounds_the_prompt():
    with ScriptedEndpoint() as endpoint:
        agent = _agent(endpoint, history_turns=1)
        for text in ("a", "b", "c"):
            agent.act(text, {})
        roles = [m["role"] for m in endpoint.requests[-1]["messages"]]
    assert roles == ["system", "user", "assistant", "user"]


def test_transient_failures_are_retried():
    with ScriptedEndpoint() as endpoint:
        endpoint.fail_next(2, status=503)
        endpoint.fail_next(1, status=429)
        agent = _agent(endpoint)
        assert agent.act("go", {"legal_actions": ["only"]}) == "only"
    assert agent.episode_info()["retries"] == 3
    assert agent.episode_info()["requests"] == 4


def test_timeouts_are_retried():
    with ScriptedEndpoint() as endpoint:
        endpoint.fail_next(1, status=500, delay_s=0.5)
        agent = _agent(endpoint, timeout_s=0.1)
        assert agent.act("go", {"legal_actions": ["ok"]}) == "ok"
    assert agent.episode_info()["retries"] >= 1


def test_giving_up_raises_a_clear_error():
    with ScriptedEndpoint() as endpoint:
        endpoint.fail_next(10, status=502)
        agent = _agent(endpoint, max_retries=2)
        with pytest.raises(ChatAgentError, match="failed 3 times; last problem: HTTP 502"):
            agent.act("go", {})


def test_client_errors_are_not_retried():
    with ScriptedEndpoint() as endpoint:
        endpoint.fail_next(1, status=401)
        agent = _agent(endpoint)
        with pytest.raises(ChatAgentError, match="HTTP 401"):
            agent.act("go", {})
        assert len(endpoint.requests) == 1


def test_unreachable_endpoint_is_an_error_not_a_hang():
    agent = ChatAgent("m", base_url="http://127.0.0.1:9/v1", max_retries=1, backoff_s=0.001)
    agent.reset(seed=0)
    with pytest.raises(ChatAgentError, match="ConnectError"):
        agent.act("go", {})


def test_malformed_completion_is_an_error():
    with ScriptedEndpoint(policy=lambda messages: "fine") as endpoint:
        agent = _agent(endpoint)
        agent.url = endpoint.base_url + "/not-chat"  # answers 404 JSON without choices
        with pytest.raises(ChatAgentError, match="HTTP 404"):
            agent.act("go", {})


def test_unparseable_replies_are_the_envs_business(tmp_path):
    with ScriptedEndpoint(policy=lambda messages: "I refuse to choose") as endpoint:
        result = evaluate(
            adhoc_protocol("envsuite/Bandit-v0", {"horizon": 4}, 1, 1),
            "openai:scripted",
            tmp_path,
            agent_options={"base_url": endpoint.base_url},
            progress=False,
        )
    record = result.records[0]
    assert record.infra_error is None and record.length == 4
    assert [step.action for step in record.trace] == ["I refuse to choose"] * 4


def test_a_run_through_the_endpoint_records_usage(tmp_path):
    with ScriptedEndpoint() as endpoint:
        result = evaluate(
            adhoc_protocol("envsuite/Bandit-v0", {"horizon": 6}, 2, 1),
            "openai:scripted",
            tmp_path,
            agent_options={"base_url": endpoint.base_url},
            progress=False,
        )
    for record in result.records:
        assert [s.action for s in record.trace] == [
            "blue",
            "green",
            "red",
            "yellow",
            "purple",
            "blue",
        ]
        assert record.agent_info["requests"] == 6
        assert record.agent_info["latency_s"] > 0


def test_an_infra_error_record_keeps_request_retry_and_latency_counts(tmp_path):
    with ScriptedEndpoint() as endpoint:
        endpoint.fail_next(100, status=503)
        result = evaluate(
            adhoc_protocol("envsuite/Bandit-v0", {"horizon": 4}, 1, 1),
            "openai:scripted",
            tmp_path,
            agent_options={"base_url": endpoint.base_url, "max_retries": 2, "backoff_s": 0.001},
            progress=False,
        )
    record = result.records[0]
    assert record.infra_error is not None
    assert "HTTP 503" in record.infra_error and "every one of 3 tries failed" in record.infra_error
    # three episode tries (max_infra_retries=2), each of three requests (max_retries=2)
    assert record.agent_info["requests"] == 9
    assert record.agent_info["retries"] == 6
    assert record.agent_info["latency_s"] > 0 and record.agent_info["retry_wait_s"] > 0


def test_a_huge_reply_is_stored_cut_in_the_trace(tmp_path):
    huge = "x" * (1 << 20)  # under the agent's 4 MiB response cap, over the trace's cap
    with ScriptedEndpoint(policy=lambda messages: huge) as endpoint:
        result = evaluate(
            adhoc_protocol("envsuite/Bandit-v0", {"horizon": 9}, 1, 1),
            "openai:scripted",
            tmp_path,
            agent_options={"base_url": endpoint.base_url},
            progress=False,
        )
    record = result.records[0]
    assert record.infra_error is None and record.length == 9
    for step in record.trace:
        cut = step.action["trace_cut"]
        assert cut["bytes"] == len(huge) and cut["head"] == huge[:TRACE_CUT_HEAD_CHARS]
        assert cut["sha256"] == hashlib.sha256(huge.encode()).hexdigest()
    assert len(record.to_json_line()) < 9 * MAX_TRACE_ACTION_BYTES


def test_a_reply_within_the_trace_cap_is_stored_whole(tmp_path):
    reply = "é" * (MAX_TRACE_ACTION_BYTES // 2)  # two UTF-8 bytes each: exactly the cap
    with ScriptedEndpoint(policy=lambda messages: reply) as endpoint:
        result = evaluate(
            adhoc_protocol("envsuite/Bandit-v0", {"horizon": 2}, 1, 1),
            "openai:scripted",
            tmp_path,
            agent_options={"base_url": endpoint.base_url},
            progress=False,
        )
    assert [step.action for step in result.records[0].trace] == [reply, reply]
