"""Rollouts of multi-agent games: self-play and model vs bots, in-process and served."""

from __future__ import annotations

import sys
import time
from collections import Counter

import pytest

from envsuite.agents.scripted_endpoint import ScriptedEndpoint, cycle_valid_actions
from envsuite.evaluation.episode_runner import run_job
from envsuite.evaluation.rollout import (
    RolloutError,
    read_transcripts,
    rollout,
    rollout_agent,
    rollout_protocol,
)
from envsuite.evaluation.transcripts import transcripts_from_record
from tests.evaluation.test_rollout_resume import kill_midway

KUHN = ("envsuite/KuhnPoker-v0", {})
WEREWOLF = ("envsuite/Werewolf-v0", {"num_players": 5, "discussion_rounds": 0, "max_days": 2})
DILEMMA = ("envsuite/RepeatedGame-v0", {"game": "prisoners_dilemma", "horizon": 4})
WOLF_BOTS = "player_2=model,player_0=oracle,player_1=oracle,player_3=oracle,player_4=oracle"
#: Game, lineup, the chat seats it gives.
CASES = [
    pytest.param(KUHN, None, ["player_0", "player_1"], id="kuhn-self-play"),
    pytest.param(KUHN, "player_1=model,player_0=oracle", ["player_1"], id="kuhn-vs-oracle"),
    pytest.param(DILEMMA, None, ["player_0", "player_1"], id="parallel-self-play"),
    pytest.param(DILEMMA, "player_0=model,player_1=oracle", ["player_0"], id="parallel-vs-oracle"),
    pytest.param(WEREWOLF, None, [f"player_{i}" for i in range(5)], id="werewolf-self-play"),
    pytest.param(WEREWOLF, WOLF_BOTS, ["player_2"], id="werewolf-vs-bots"),
]
#: Both the rollout and envsuite eval send this prompt, so their requests are the same.
PROMPT = "Play the game. Answer with one valid action."


def _options(endpoint):
    return {"base_url": endpoint.base_url, "temperature": 0.7, "system_prompt": PROMPT}


def comparable(record):
    """A record without its run id, clock and per-request counters (retries, latency):
    its fields and each seat's token counts."""
    data = record.model_dump(mode="json")
    for key in ("run_id", "wall_time_s"):
        data.pop(key)
    info = data.pop("agent_info")
    data["tokens"] = {
        seat: (report.get("prompt_tokens"), report.get("completion_tokens"))
        for seat, report in info.items()
        if seat != "rollout"
    }
    return data


@pytest.mark.parametrize(("game", "lineup", "chat"), CASES)
def test_game_rollouts_record_what_eval_records_and_each_seat_its_view(
    tmp_path, game, lineup, chat
):
    env_id, kwargs = game
    protocol = rollout_protocol(env_id, kwargs, groups=2, group_size=2)
    with ScriptedEndpoint() as endpoint:
        options = _options(endpoint)
        result = rollout(protocol, "scripted", tmp_path, agent_options=options, lineup=lineup)
        agent = rollout_agent(protocol, "scripted", lineup)
        evaluated = [run_job(job) for job in protocol.jobs("eval", agent, options)]
    assert result.new == 4 and all(r.infra_error is None for r in result.records)
    assert {r.agent_id for r in result.records} == {agent}
    by_key = {r.key: r for r in result.records}
    assert [comparable(by_key[r.key]) for r in evaluated] == [comparable(r) for r in evaluated]

    lines = read_transcripts(result.transcripts_path)
    assert sorted(
        Counter((r.key, seat) for r in result.records for seat in chat).items()
    ) == sorted(Counter((tuple(_episode(line)), line["seat"]) for line in lines).items())
    for line in lines:
        record = by_key[tuple(_episode(line))]
        replayed = {t.agent: t for t in transcripts_from_record(record)}[line["seat"]]
        assert line["messages"][1:] == replayed.messages[1:]
        assert line["messages"][0] == {"role": "system", "content": PROMPT}
        assert line["rewards"] == replayed.rewards
        assert len(line["usage"]) == len(line["rewards"]) == record_turns(record, line["seat"])
        assert all(turn["completion_tokens"] > 0 for turn in line["usage"])
        assert line["episode_return"] == record.episode_return[line["seat"]]
        assert line["outcome"] == record.agents[line["seat"]].model_dump(mode="json")
        seat_info = record.agent_info["rollout"]
        assert line["sampling"] == seat_info["sampling"][line["seat"]]
        assert (line["group"], line["member"]) == (seat_info["group"], seat_info["member"])
    # group members: one seed, one seating, other sampling seeds
    for group in {line["group"] for line in lines}:
        members = [line for line in lines if line["group"] == group and line["seat"] == chat[0]]
        assert len({m["seed"] for m in members}) == 1
        assert len({m["sampling"]["seed"] for m in members}) == len(members) == 2


def _episode(line):
    from envsuite.records import episode_key

    return episode_key(
        line["task_id"], line["env_id"], line["env_kwargs"], line["seed"], line["attempt"]
    )


def record_turns(record, seat):
    """How many actions ``seat`` took in the record's trace."""
    return sum(1 for step in record.trace if seat in step.action)


def test_rotation_makes_a_group_per_seating_with_the_model_in_one_seat(tmp_path):
    protocol = rollout_protocol(*KUHN, groups=2, group_size=2, seat_rotation="cyclic")
    with ScriptedEndpoint() as endpoint:
        result = rollout(
            protocol,
            "scripted",
            tmp_path,
            agent_options=_options(endpoint),
            lineup="player_0=model,player_1=random",
        )
    assert result.new == 8
    lines = read_transcripts(result.transcripts_path)
    groups: dict[int, set[tuple[int, str]]] = {}
    for line in lines:
        groups.setdefault(line["group"], set()).add((line["seed"], line["seat"]))
    # 2 seeds x 2 seatings; each group one seed and one model seat, both seats played
    assert sorted(groups) == [0, 1, 2, 3] and all(len(v) == 1 for v in groups.values())
    assert {seat for v in groups.values() for _, seat in v} == {"player_0", "player_1"}
    assert [g.size for g in result.groups] == [2, 2, 2, 2]


@pytest.mark.parametrize(
    ("lineup", "message"),
    [
        ("player_0=random,player_1=oracle", "seats no chat model"),
        ("player_0=model,player_0=random", "named twice"),
        ("random", "not SEAT=AGENT"),
    ],
)
def test_bad_lineups_are_clear_errors(tmp_path, lineup, message):
    protocol = rollout_protocol(*KUHN, groups=1, group_size=1)
    with pytest.raises(RolloutError, match=message):
        rollout(protocol, "scripted", tmp_path, lineup=lineup)


def test_a_lineup_for_a_single_agent_env_is_refused(tmp_path):
    protocol = rollout_protocol("envsuite/Bandit-v0", {}, groups=1, group_size=1)
    with pytest.raises(RolloutError, match="multi-agent games only"):
        rollout(protocol, "scripted", tmp_path, lineup="player_0=model")


@pytest.mark.parametrize(
    ("game", "lineup"),
    [
        (KUHN, None),
        (KUHN, "player_0=random,player_1=model"),
        (DILEMMA, "player_1=model"),
        (DILEMMA, "player_0=oracle,player_1=model"),
        (WEREWOLF, None),
        (WEREWOLF, "player_3=model"),
        (WEREWOLF, WOLF_BOTS),
    ],
    ids=[
        "kuhn-self-play",
        "kuhn-vs-random",
        "parallel-vs-random",
        "parallel-vs-oracle",
        "werewolf-self-play",
        "werewolf-vs-random",
        "werewolf-vs-bots",
    ],
)
def test_served_games_give_the_same_records_and_transcripts(tmp_path, game, lineup):
    """Oracle seats of a served game ask the server's oracle (``--allow-oracle``)."""
    pytest.importorskip("uvicorn")
    import envsuite.remote
    from envsuite.registry import registry
    from envsuite.serve import RunningServer, ServeConfig

    env_id, kwargs = game
    protocol = rollout_protocol(env_id, kwargs, groups=2, group_size=2)
    with (
        ScriptedEndpoint() as endpoint,
        RunningServer(ServeConfig((env_id,), port=0, allow_oracle=True)) as server,
    ):
        options = _options(endpoint)
        local = rollout(
            protocol, "scripted", tmp_path / "local", agent_options=options, lineup=lineup
        )

        def served(env_id, env_kwargs):
            parallel = registry[env_id].api == "parallel"
            return envsuite.remote.make(server.url, env_id, parallel=parallel, **env_kwargs)

        remote = rollout(
            protocol,
            "scripted",
            tmp_path / "remote",
            agent_options=options,
            lineup=lineup,
            env_factory=served,
            env_calls_in_thread=True,
        )
    assert all(r.infra_error is None for r in remote.records)

    def records(result):
        return sorted(
            (comparable(r) for r in result.records), key=lambda d: d["attempt"] + 10 * d["seed"]
        )

    assert records(remote) == records(local)

    def lines(result):
        rows = read_transcripts(result.transcripts_path)
        return sorted(
            ((r["seed"], r["attempt"], r["seat"]), r["messages"], r["rewards"], r["outcome"])
            for r in rows
        )

    assert lines(remote) == lines(local)


def slow_policy(messages):
    time.sleep(0.01)
    return cycle_valid_actions(messages)


def test_a_killed_game_rollout_resumes_with_each_episode_and_seat_once(tmp_path):
    groups, size = 6, 2
    out = tmp_path / "killed"
    with ScriptedEndpoint(policy=slow_policy) as endpoint:
        command = [
            sys.executable, "-m", "envsuite", "rollout", "envsuite/KuhnPoker-v0",
            "--model", "scripted", "--base-url", endpoint.base_url, "--groups", str(groups),
            "--group-size", str(size), "--concurrency", "2", "--out", str(out),
            "--temperature", "0.7", "--no-progress",
        ]  # fmt: skip
        done_before = kill_midway(command, out / "episodes.jsonl", 3)
        assert 3 <= done_before < groups * size

        protocol = rollout_protocol(*KUHN, groups=groups, group_size=size)
        options = {"base_url": endpoint.base_url, "temperature": 0.7}
        resumed = rollout(protocol, "scripted", out, agent_options=options)
        whole = rollout(protocol, "scripted", tmp_path / "whole", agent_options=options)
    assert resumed.resumed == done_before and resumed.new == groups * size - done_before
    lines = read_transcripts(resumed.transcripts_path)
    keys = [(tuple(_episode(line)), line["seat"]) for line in lines]
    assert len(keys) == len(set(keys)) == 2 * groups * size

    def everything(result):
        rows = read_transcripts(result.transcripts_path)
        return sorted(
            ((r["seed"], r["attempt"], r["seat"]), r["messages"], r["rewards"]) for r in rows
        )

    assert everything(resumed) == everything(whole)
    assert by_episode(resumed) == by_episode(whole)


def by_episode(result):
    """The result's records, comparable, in key order."""
    return [comparable(r) | {"run_id": None} for r in sorted(result.records, key=lambda r: r.key)]


def test_a_game_whose_endpoint_stays_down_is_an_infra_error_with_a_line_per_seat(tmp_path):
    protocol = rollout_protocol(*KUHN, groups=2, group_size=1)
    with ScriptedEndpoint() as endpoint:
        endpoint.fail_next(2 * 3, status=500)  # the first game's every try (2 requests each)
        options = {"base_url": endpoint.base_url, "backoff_s": 0.0, "max_retries": 1}
        result = rollout(protocol, "scripted", tmp_path, agent_options=options, concurrency=1)
    failed = [record for record in result.records if record.infra_error is not None]
    assert len(failed) == 1 and "HTTP 500" in failed[0].infra_error
    assert failed[0].agent_info["player_0"]["requests"] == 6
    lines = read_transcripts(result.transcripts_path)
    broken = [line for line in lines if line["infra_error"] is not None]
    assert sorted(line["seat"] for line in broken) == ["player_0", "player_1"]
    assert all(line["messages"] == [] and line["sampling"]["seed"] for line in broken)
    assert len(lines) == 4
