"""Every text env (by its observation space), every test variant: chat transcripts hold.

A text env is one whose observation space is, or holds, a text space; new envs are covered
by registering them. For each, a few steps of oracle and random legal actions are played
with a live transcriber; then the transcript must

- grow by appending only: the messages after turn t are a prefix of those after turn t + 1;
- come back identical from the episode's record (replayed in a freshly made env).
"""

from __future__ import annotations

import itertools
import os
from typing import Any

import pytest

import envsuite
from envsuite.evaluation.transcripts import (
    AECTranscriber,
    GymnasiumTranscriber,
    ParallelTranscriber,
    make_env,
    transcripts_from_record,
)
from envsuite.jsonable import to_jsonable
from envsuite.records import EpisodeRecord
from envsuite.registry import EnvSpec, registry
from envsuite.spaces import contains_text_space
from envsuite.testing.rollout import ActionChooser, MixedPolicy
from envsuite.testing.suite import variants_of
from envsuite.version import __version__

#: Steps played per case: enough for several turns, short enough for every env.
STEPS = 6
SEED = 3


def _observation_space(spec: EnvSpec, env: Any) -> Any:
    if spec.multi_agent:
        return env.observation_space(env.possible_agents[0])
    return env.observation_space


def _text_cases() -> list[Any]:
    cases = []
    for spec in registry.values():
        for label, variant in variants_of(spec):
            case_id = f"{spec.id}[{label}]"
            try:
                env = make_env(variant, variant.test_kwargs)
            except envsuite.MissingExtraError as exc:
                # Unknown until made; listed, so that the test reports the missing extra.
                cases.append(pytest.param(variant, str(exc), id=case_id))
                continue
            try:
                if contains_text_space(_observation_space(spec, env)):
                    cases.append(pytest.param(variant, None, id=case_id))
            finally:
                env.close()
    return cases


CASES = _text_cases()


def _assert_prefixes(snapshots: list[dict[Any, Any]]) -> None:
    for before, after in itertools.pairwise(snapshots):
        for agent, transcript in before.items():
            messages = transcript.messages
            grown = after[agent].messages
            assert grown[: len(messages)] == messages, f"turn rewrote {agent}'s earlier messages"
            assert after[agent].rewards[: len(transcript.rewards) - 1] == transcript.rewards[:-1]


def _play(spec: EnvSpec, env: Any) -> tuple[list[dict[Any, Any]], list[dict[str, Any]]]:
    """Play a few steps live; return the transcripts after each turn and the trace."""
    policy = MixedPolicy(spec, env, ActionChooser(SEED))
    policy.reset(SEED)
    trace: list[dict[str, Any]] = []
    snapshots = []
    if spec.api == "gymnasium":
        transcriber: Any = GymnasiumTranscriber(env)
        observation, info = env.reset(seed=SEED)
        transcriber.reset(observation, info)
        snapshots.append(transcriber.transcripts)
        for _ in range(STEPS):
            action = policy(observation, info)
            observation, reward, terminated, truncated, info = env.step(action)
            transcriber.step(action, observation, reward, terminated, truncated, info)
            trace.append({"action": to_jsonable(action), "reward": float(reward)})
            snapshots.append(transcriber.transcripts)
            if terminated or truncated:
                break
    elif spec.api == "parallel":
        transcriber = ParallelTranscriber(env)
        observations, infos = env.reset(seed=SEED)
        transcriber.reset(observations, infos)
        snapshots.append(transcriber.transcripts)
        for _ in range(STEPS):
            if not env.agents:
                break
            actions = {a: policy(a, observations[a], infos.get(a, {})) for a in env.agents}
            observations, rewards, terminations, truncations, infos = env.step(actions)
            transcriber.step(actions, observations, rewards, terminations, truncations, infos)
            trace.append(
                {
                    "action": to_jsonable(actions),
                    "reward": {a: float(r) for a, r in rewards.items()},
                }
            )
            snapshots.append(transcriber.transcripts)
    else:
        transcriber = AECTranscriber(env)
        env.reset(seed=SEED)
        transcriber.reset()
        for agent in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            transcriber.observe(agent, observation, info)
            snapshots.append(transcriber.transcripts)
            if terminated or truncated:
                env.step(None)
                continue
            if len(trace) == STEPS:
                break
            action = policy(agent, observation, info)
            env.step(action)
            transcriber.act(agent, action, env.rewards)
            trace.append(
                {
                    "action": {agent: to_jsonable(action)},
                    "reward": {a: float(r) for a, r in env.rewards.items()},
                }
            )
            snapshots.append(transcriber.transcripts)
    return snapshots, trace


def _record(spec: EnvSpec, trace: list[dict[str, Any]]) -> EpisodeRecord:
    return EpisodeRecord(
        run_id="transcript-test",
        env_id=spec.id,
        env_kwargs=dict(spec.test_kwargs),
        spec_hash="0" * 64,
        envsuite_version=__version__,
        agent_id="mixed",
        seed=SEED,
        episode_return=0.0,
        length=len(trace),
        terminated=False,
        truncated=False,
        stop_reason="step_limit",
        wall_time_s=0.0,
        trace=trace,
    )


def _is_chat_content(content: Any) -> bool:
    """A message's content as chat APIs take it: text, or text and image parts (GUI envs)."""
    if isinstance(content, str):
        return True
    return isinstance(content, list) and all(
        (part.get("type") == "text" and isinstance(part.get("text"), str))
        or (
            part.get("type") == "image_url"
            and str(part.get("image_url", {}).get("url", "")).startswith("data:image/png;base64,")
        )
        for part in content
    )


@pytest.mark.parametrize(("spec", "missing"), CASES)
def test_transcripts_are_prefix_stable_and_replay_from_records(spec: EnvSpec, missing: str | None):
    if missing is not None:
        if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") == "1":
            pytest.fail(missing)
        pytest.skip(missing)
    env = make_env(spec, spec.test_kwargs)
    try:
        snapshots, trace = _play(spec, env)
    finally:
        env.close()
    assert trace, "no step was played"
    _assert_prefixes(snapshots)
    live = snapshots[-1]
    # In a turn-based game with many seats (Werewolf), some seats may not have acted in
    # the steps played (or not yet been asked at all); every other seat must have.
    waiting = 0
    for transcript in live.values():
        roles = [message["role"] for message in transcript.messages]
        assert roles[0] == "system" and roles[1:2] in (["user"], [])
        assert roles.count("assistant") == len(transcript.rewards)
        waiting += not transcript.rewards
        assert all(_is_chat_content(m["content"]) for m in transcript.messages)
    assert waiting == 0 or (spec.api == "aec" and waiting < len(live))
    replayed = transcripts_from_record(_record(spec, trace))
    assert [t.to_json() for t in replayed] == [t.to_json() for t in live.values()]


def test_every_kind_of_text_env_is_covered():
    """The registry holds single-agent, Parallel and turn-based (AEC) text envs: all are cases."""
    apis = {case.values[0].api for case in CASES}
    assert {"gymnasium", "parallel", "aec"} <= apis
    ids = {case.values[0].id for case in CASES}
    assert {"envsuite/RepeatedGame-v0", "envsuite/Nim-v0"} <= ids
