from __future__ import annotations

import itertools

import numpy as np
import pytest

import envsuite
from envsuite.agents.chat_agent import SYSTEM_PROMPT
from envsuite.agents.image_parts import ImageLimits
from envsuite.evaluation.protocol import adhoc_protocol
from envsuite.evaluation.run_directory import evaluate
from envsuite.evaluation.transcripts import (
    AECTranscriber,
    TranscriptError,
    TranscriptRecorder,
    TranscriptWrapper,
    transcript_rows,
    transcripts_from_record,
)
from envsuite.records import EpisodeRecord, nonzero_rewards
from envsuite.registry import EnvSpec, registry
from envsuite.version import __version__


def _run(tmp_path, env_id, kwargs, agent="random", episodes=2):
    protocol = adhoc_protocol(env_id, kwargs, episodes, 1)
    return evaluate(protocol, agent, tmp_path, progress=False).records


@pytest.fixture(scope="module")
def bandit_records(tmp_path_factory):
    return _run(tmp_path_factory.mktemp("bandit"), "envsuite/Bandit-v0", {"horizon": 4})


def test_a_run_record_gives_the_episode_as_chat_messages(bandit_records):
    for record in bandit_records:
        (transcript,) = transcripts_from_record(record)
        roles = [m["role"] for m in transcript.messages]
        assert roles == ["system", *["user", "assistant"] * 4, "user"]
        assert transcript.messages[0]["content"] == SYSTEM_PROMPT
        assert [m["content"] for m in transcript.messages if m["role"] == "assistant"] == [
            step.action for step in record.trace
        ]
        assert transcript.rewards == [step.reward for step in record.trace]
        assert transcript.messages[1]["content"].endswith(
            "Valid actions: blue, green, red, yellow, purple"
        )
        assert transcript.agent is None


def test_the_wrapper_live_equals_the_record(bandit_records):
    record = bandit_records[0]
    env = TranscriptWrapper(envsuite.make(record.env_id, **record.env_kwargs))
    env.reset(seed=record.seed)
    seen = [env.transcript]
    for step in record.trace:
        env.step(step.action)
        seen.append(env.transcript)
    assert seen[-1] == transcripts_from_record(record)[0]
    for before, after in itertools.pairwise(seen):
        assert after.messages[: len(before.messages)] == before.messages


def test_multi_agent_records_give_one_transcript_per_agent(tmp_path):
    (record,) = _run(tmp_path, "envsuite/RepeatedGame-v0", {"horizon": 3}, episodes=1)
    transcripts = transcripts_from_record(record)
    assert [t.agent for t in transcripts] == list(record.episode_return)
    for transcript in transcripts:
        assert len(transcript.rewards) == 3
        assert sum(transcript.rewards) == pytest.approx(record.episode_return[transcript.agent])
        actions = [m["content"] for m in transcript.messages if m["role"] == "assistant"]
        assert actions == [step.action[transcript.agent] for step in record.trace]


def test_rows_carry_the_episode_identity(bandit_records):
    rows = list(transcript_rows(bandit_records))
    assert [row["seed"] for row in rows] == [0, 1]
    assert rows[0]["env_id"] == "envsuite/Bandit-v0" and rows[0]["env_kwargs"] == {"horizon": 4}
    assert set(rows[0]) >= {"run_id", "attempt", "agent_id", "agent", "messages", "rewards"}


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"trace": []}, "without traces"),
        ({"infra_error": "boom", "stop_reason": "infra_error"}, "the episode failed"),
    ],
)
def test_records_that_cannot_replay_are_refused_clearly(bandit_records, change, problem):
    record = bandit_records[0].model_copy(update=change)
    with pytest.raises(TranscriptError, match=problem):
        transcripts_from_record(record)


def _with_step(record: EpisodeRecord, index: int, **change) -> EpisodeRecord:
    trace = list(record.trace)
    trace[index] = trace[index].model_copy(update=change)
    return record.model_copy(update={"trace": trace})


def test_a_cut_action_cannot_be_replayed(bandit_records):
    record = _with_step(bandit_records[0], 1, action={"trace_cut": {"bytes": 1 << 20}})
    with pytest.raises(TranscriptError, match="step 2's action was cut"):
        transcripts_from_record(record)


def test_an_altered_reward_is_caught(bandit_records):
    record = _with_step(bandit_records[0], 2, reward=bandit_records[0].trace[2].reward + 5)
    with pytest.raises(TranscriptError, match="step 3 replays with reward"):
        transcripts_from_record(record)


def test_an_env_prompt_becomes_the_system_message(bandit_records):
    record = bandit_records[0]
    env = envsuite.make(record.env_id, **record.env_kwargs)
    env.unwrapped.system_prompt = "You press buttons."
    (transcript,) = transcripts_from_record(record, env=env)
    assert transcript.messages[0] == {"role": "system", "content": "You press buttons."}


def test_image_observations_become_image_parts():
    recorder = TranscriptRecorder("sys", limits=ImageLimits(max_side=4))
    recorder.observe({"goal": "find red", "screen": np.zeros((8, 8, 3), np.uint8)}, {})
    content = recorder.transcript.messages[1]["content"]
    assert [part["type"] for part in content] == ["text", "image_url"]


def test_rewards_before_the_first_action_are_not_invented():
    recorder = TranscriptRecorder("sys")
    recorder.observe("start", {})
    recorder.reward(3.0)
    assert recorder.transcript.rewards == []


@pytest.fixture
def turn_echo_spec():
    spec = registry.register(
        EnvSpec(
            id="envsuite/TurnEchoTest-v0",
            entry_point="tests.evaluation.turn_echo_env:TurnEchoEnv",
            family="test",
            api="aec",
            description="two players say words in turn",
        )
    )
    yield spec
    registry.unregister(spec.id)


def test_turn_based_games_replay_per_agent(turn_echo_spec):
    env = turn_echo_spec.make()
    transcriber = AECTranscriber(env)
    env.reset(seed=0)
    transcriber.reset()
    words = iter(["yes", "no", "no", "yes"])
    trace, snapshots = [], []
    for agent in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        transcriber.observe(agent, observation, info)
        snapshots.append(transcriber.transcripts)
        if terminated or truncated:
            env.step(None)
            continue
        word = next(words)
        env.step(word)
        transcriber.act(agent, word, env.rewards)
        trace.append({"action": {agent: word}, "reward": dict(env.rewards)})
    live = transcriber.transcripts
    assert live["first"].rewards == [1.0, -0.5]  # its "yes", then second's "yes" after "no"
    # second's -0.5 for first's opening "yes" came before it acted: no turn of its own earned it
    assert live["second"].rewards == [0.0, 1.0]
    assert live["first"].messages[-1]["content"].startswith("You are first. Said so far: yes, no")
    for before, after in itertools.pairwise(snapshots):
        for agent in before:
            assert after[agent].messages[: len(before[agent].messages)] == before[agent].messages
    record = EpisodeRecord(
        run_id="r",
        env_id=turn_echo_spec.id,
        spec_hash="0" * 64,
        envsuite_version=__version__,
        agent_id="first=scripted+second=scripted",
        seed=0,
        episode_return={"first": 0.5, "second": 0.5},
        length=4,
        terminated=True,
        truncated=False,
        stop_reason="terminated",
        wall_time_s=0.0,
        trace=trace,
    )
    assert transcripts_from_record(record) == list(live.values())


def test_the_transcript_is_what_the_chat_agent_was_shown(tmp_path):
    """Trainer data and inference prompts agree: same system, user and assistant messages."""
    from envsuite.agents.scripted_endpoint import ScriptedEndpoint

    with ScriptedEndpoint() as endpoint:
        (record,) = evaluate(
            adhoc_protocol("envsuite/Bandit-v0", {"horizon": 4}, 1, 1),
            "openai:scripted",
            tmp_path,
            agent_options={"base_url": endpoint.base_url},
            progress=False,
        ).records
        last_request = endpoint.requests[-1]["messages"]
    (transcript,) = transcripts_from_record(record)
    assert transcript.messages[: len(last_request)] == last_request
    assert len(transcript.messages) == len(last_request) + 2  # the last reply, the last words


def test_an_env_failing_during_the_replay_is_a_transcript_error(bandit_records):
    record = bandit_records[0]
    env = envsuite.make(record.env_id, **record.env_kwargs)

    def broken_step(action):
        raise RuntimeError("the sandbox went away")

    env.step = broken_step
    with pytest.raises(TranscriptError, match="raised RuntimeError while replaying") as caught:
        transcripts_from_record(record, env=env)
    assert isinstance(caught.value.__cause__, RuntimeError)


# --- A turn-based game run by the runner -------------------------------------------------------

NIM = "envsuite/Nim-v0"


@pytest.fixture(scope="module")
def nim_record(tmp_path_factory):
    (record,) = _run(tmp_path_factory.mktemp("nim"), NIM, {}, episodes=1)
    return record


def _live_aec_transcripts(record: EpisodeRecord):
    """Transcripts fed by hand, turn by turn, while the recorded moves are played again."""
    env = envsuite.make(record.env_id, **record.env_kwargs)
    transcriber = AECTranscriber(env)
    env.reset(seed=record.seed)
    transcriber.reset()
    steps = iter(record.trace)
    snapshots = [transcriber.transcripts]
    for agent in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        transcriber.observe(agent, observation, info)
        snapshots.append(transcriber.transcripts)
        if terminated or truncated:
            env.step(None)
            continue
        step = next(steps)
        assert list(step.action) == [agent]  # the runner records one mover per trace step
        env.step(step.action[agent])
        assert nonzero_rewards(env.rewards) == step.reward  # zero rewards are left out
        transcriber.act(agent, step.action[agent], env.rewards)
        snapshots.append(transcriber.transcripts)
    assert next(steps, None) is None
    env.close()
    return snapshots


def test_a_nim_run_gives_each_player_its_transcript_as_played(nim_record):
    assert nim_record.terminated and len(nim_record.trace) == nim_record.length >= 2
    replayed = transcripts_from_record(nim_record)
    snapshots = _live_aec_transcripts(nim_record)
    assert replayed == list(snapshots[-1].values())
    for before, after in itertools.pairwise(snapshots):
        for agent in before:
            assert after[agent].messages[: len(before[agent].messages)] == before[agent].messages
    assert [t.agent for t in replayed] == ["player_0", "player_1"]
    for transcript in replayed:
        moves = [m["content"] for m in transcript.messages if m["role"] == "assistant"]
        assert moves == [
            s.action[transcript.agent] for s in nim_record.trace if transcript.agent in s.action
        ]
        # Nim pays only at the end, after both have moved: every reward belongs to a turn.
        assert sum(transcript.rewards) == nim_record.episode_return[transcript.agent]
        assert transcript.messages[-1]["role"] == "user"  # the game's last words, at its dead step
        assert "The game is over" in transcript.messages[-1]["content"]


def test_nim_transcripts_are_what_each_chat_player_was_shown(tmp_path):
    from envsuite.agents.scripted_endpoint import ScriptedEndpoint

    with ScriptedEndpoint() as endpoint:
        (record,) = evaluate(
            adhoc_protocol(NIM, {}, 1, 1),
            "openai:scripted",
            tmp_path,
            agent_options={"base_url": endpoint.base_url},
            progress=False,
        ).records
        requests = [request["messages"] for request in endpoint.requests]
    for transcript in transcripts_from_record(record):
        shown = [r for r in requests if transcript.messages[: len(r)] == r]
        moves = sum(transcript.agent in step.action for step in record.trace)
        assert len(shown) == moves  # every prompt this player was sent, none of the other's
        assert len(transcript.messages) == len(shown[-1]) + 2  # its last move, its last words


def test_an_altered_turn_reward_is_caught(nim_record):
    step = nim_record.trace[-1]
    changed = {name: reward + 1.0 for name, reward in step.reward.items()}
    record = _with_step(nim_record, len(nim_record.trace) - 1, reward=changed)
    number = len(nim_record.trace)
    with pytest.raises(TranscriptError, match=f"step {number} replays with reward"):
        transcripts_from_record(record)


def test_a_turn_trace_longer_than_the_game_is_refused(nim_record):
    extra = nim_record.trace[-2]  # a move for the player who just lost
    record = nim_record.model_copy(
        update={"trace": [*nim_record.trace, extra], "length": nim_record.length + 1}
    )
    with pytest.raises(TranscriptError, match=r"the env ends at step \d+, before the trace"):
        transcripts_from_record(record)


def test_a_turn_step_for_the_wrong_player_is_refused(nim_record):
    first = nim_record.trace[0]
    (mover,) = first.action
    other = "player_1" if mover == "player_0" else "player_0"
    record = _with_step(nim_record, 0, action={other: first.action[mover]})
    with pytest.raises(TranscriptError, match=f"step 1 holds no action for {mover}"):
        transcripts_from_record(record)
