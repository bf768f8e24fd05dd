"""The async chat agent: bounded in time and bytes, retries, per-turn usage."""

from __future__ import annotations

import asyncio
import time

import pytest

from envsuite.agents.async_chat_agent import AsyncChatAgent
from envsuite.agents.chat_agent import ChatAgentError
from envsuite.agents.scripted_endpoint import ScriptedEndpoint
from tests.agents.hostile_endpoints import (
    RawEndpoint,
    completion,
    endless_chunks,
    gzip_body,
    response,
    send,
    trickle,
)


def act_once(base_url: str, **options) -> tuple[str | Exception, AsyncChatAgent]:
    async def go() -> tuple[str | Exception, AsyncChatAgent]:
        agent = AsyncChatAgent("m", base_url=base_url, backoff_s=0.0, **options)
        agent.reset(seed=3)
        try:
            return await agent.act("observe", {}), agent
        except ChatAgentError as exc:
            return exc, agent
        finally:
            await agent.aclose()

    return asyncio.run(go())


def test_per_turn_usage_adds_up_to_the_episode():
    async def go(base_url: str) -> AsyncChatAgent:
        agent = AsyncChatAgent("m", base_url=base_url, backoff_s=0.0)
        agent.reset(seed=0)
        for turn in range(3):
            await agent.act(f"turn {turn}", {"legal_actions": ["a", "b"]})
        await agent.aclose()
        return agent

    with ScriptedEndpoint() as endpoint:
        endpoint.fail_next(1, status=429)
        agent = asyncio.run(go(endpoint.base_url))
    assert [turn["requests"] for turn in agent.turn_usage] == [2, 1, 1]
    assert [turn["retries"] for turn in agent.turn_usage] == [1, 0, 0]
    total = agent.episode_info()
    for key in ("prompt_tokens", "completion_tokens", "requests", "retries"):
        assert sum(turn[key] for turn in agent.turn_usage) == total[key]
    # the prompt grows each turn: later turns cost more prompt tokens
    prompts = [turn["prompt_tokens"] for turn in agent.turn_usage]
    assert prompts == sorted(prompts) and prompts[0] < prompts[-1]


def test_a_trickling_endpoint_is_cut_at_the_total_deadline():
    with RawEndpoint(trickle(response(completion("late")), every_s=0.05)) as endpoint:
        started = time.perf_counter()
        result, agent = act_once(endpoint.base_url, timeout_s=0.5, max_retries=1)
        elapsed = time.perf_counter() - started
    assert isinstance(result, ChatAgentError)
    assert "timeout_s=0.5" in str(result)
    assert agent.usage["requests"] == 2
    assert elapsed < 5  # two deadlines, not the trickle's minutes


def test_a_client_error_is_not_retried():
    body = b'{"error": {"message": "unknown model"}}'
    with RawEndpoint(send(response(body, "404 Not Found"))) as endpoint:
        result, agent = act_once(endpoint.base_url, max_retries=3)
    assert isinstance(result, ChatAgentError) and "HTTP 404" in str(result)
    assert "unknown model" in str(result)
    assert agent.usage["requests"] == 1


def test_an_endless_body_is_refused_at_the_cap():
    with RawEndpoint(endless_chunks()) as endpoint:
        result, _ = act_once(endpoint.base_url, max_response_bytes=1 << 20, max_retries=0)
    assert isinstance(result, ChatAgentError) and "cap" in str(result)


def test_a_gzip_bomb_is_refused_at_the_cap():
    bomb = gzip_body(bytes(8 << 20))
    headers = {"Content-Encoding": "gzip"}
    with RawEndpoint(send(response(bomb, headers=headers))) as endpoint:
        result, _ = act_once(endpoint.base_url, max_response_bytes=1 << 20, max_retries=0)
    assert isinstance(result, ChatAgentError) and "cap" in str(result)


def test_a_malformed_completion_is_an_error_not_a_crash():
    with RawEndpoint(send(response(b'{"choices": []}'))) as endpoint:
        result, _ = act_once(endpoint.base_url, max_retries=0)
    assert isinstance(result, ChatAgentError) and "malformed" in str(result)


@pytest.mark.parametrize("timeout_s", [0, -1, float("nan")])
def test_bad_arguments_are_refused(timeout_s):
    with pytest.raises(ValueError, match="timeout_s"):
        AsyncChatAgent("m", timeout_s=timeout_s)
