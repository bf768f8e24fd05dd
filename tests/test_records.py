from __future__ import annotations

import json
import math
import struct

import numpy as np
import pytest

from envsuite.jsonable import to_jsonable
from envsuite.records import (
    EpisodeRecord,
    RecordFileError,
    Step,
    json_schema,
    read_records,
    write_records,
)


def _record(**overrides) -> EpisodeRecord:
    fields = dict(
        run_id="run-1",
        task_id="decision-regret",
        env_id="envsuite/Bandit-v0",
        env_kwargs={"num_arms": np.int64(5), "means": np.array([0.1, 0.2])},
        spec_hash="a" * 64,
        envsuite_version="0.1.0",
        agent_id="oracle",
        seed=7,
        attempt=1,
        episode_return=12.5,
        success=True,
        score=0.75,
        length=3,
        terminated=True,
        truncated=False,
        wall_time_s=0.01,
        metrics={"cumulative_regret": 1.25},
        curves={"regret": [0.5, 0.0, 0.75]},
        agent_info={"tokens": np.int32(10)},
        trace=[
            Step(action=to_jsonable(np.int64(2)), reward=1.0),
            Step(action="blue", reward=0.0),
            Step(action=to_jsonable(np.array([0.1, 0.9])), reward=-0.1 + 0.2),
        ],
    )
    fields.update(overrides)
    return EpisodeRecord(**fields)


def test_json_round_trip_is_exact():
    record = _record()
    again = EpisodeRecord.from_json_line(record.to_json_line())
    assert again == record
    assert again.trace[2].reward == -0.1 + 0.2  # floats survive bit for bit
    assert again.env_kwargs == {"num_arms": 5, "means": [0.1, 0.2]}
    assert again.trace[0].action == 2 and again.trace[2].action == [0.1, 0.9]


def test_non_finite_numbers_are_valid_json_and_read_back_as_floats():
    nan, inf = float("nan"), float("inf")
    record = _record(
        episode_return={"a": nan},
        score=nan,
        metrics={"m": inf},
        curves={"c": [-inf]},
        trace=[Step(action=1, reward=nan)],
    )
    line = record.to_json_line()
    json.loads(line, parse_constant=pytest.fail)  # strict JSON: no NaN/Infinity literals
    again = EpisodeRecord.from_json_line(line)
    assert math.isnan(again.episode_return["a"]) and math.isnan(again.score)
    assert again.metrics == {"m": inf} and again.curves == {"c": [-inf]}
    assert math.isnan(again.trace[0].reward)


def test_multi_agent_returns_and_rewards():
    record = _record(
        episode_return={"player_0": 3.0, "player_1": -3.0},
        trace=[
            Step(action={"player_0": 1, "player_1": 0}, reward={"player_0": 1.0, "player_1": -1.0})
        ],
        length=1,
    )
    assert EpisodeRecord.from_json_line(record.to_json_line()) == record


def test_unknown_fields_and_bad_values_are_rejected():
    line = json.loads(_record().to_json_line())
    line["surprise"] = 1
    with pytest.raises(ValueError):
        EpisodeRecord.model_validate(line)
    with pytest.raises(ValueError):
        _record(length=-1)
    with pytest.raises(ValueError):
        _record(attempt=-1)


def test_file_round_trip_and_partial_last_line(tmp_path):
    path = tmp_path / "episodes.jsonl"
    records = [_record(seed=s) for s in range(3)]
    write_records(path, records)
    assert read_records(path) == records
    with open(path, "a") as handle:
        handle.write(_record(seed=9).to_json_line()[:40])  # killed mid-write
    assert read_records(path) == records
    with pytest.raises(RecordFileError):
        read_records(path, skip_partial_last_line=False)


def test_corrupt_line_names_the_file_and_line(tmp_path):
    path = tmp_path / "episodes.jsonl"
    path.write_text(_record().to_json_line() + "\n{not json}\n")
    with pytest.raises(RecordFileError, match=r"episodes.jsonl:2"):
        read_records(path)


def test_json_schema_is_valid_json():
    schema = json.loads(json_schema())
    assert "episode_return" in schema["properties"]


def test_trace_actions_must_be_json_values():
    with pytest.raises(ValueError):
        Step(action=object(), reward=0.0)


def test_a_multi_agent_step_is_stored_with_its_nonzero_rewards_and_read_either_way():
    from envsuite.records import nonzero_rewards, step_rewards

    assert nonzero_rewards({"a": 0.0, "b": -1.0, "c": -0.0, "d": np.float32(0.5)}) == {
        "b": -1.0,
        "d": 0.5,
    }
    assert step_rewards({"a": 0.0, "b": 1.0}) == step_rewards({"b": 1.0}) == {"b": 1.0}
    assert step_rewards({"a": 0.0}) == {}
    assert step_rewards(0.25) == 0.25
    nan = step_rewards({"a": float("nan")})["a"]
    assert math.isnan(nan)


def test_the_runner_stores_a_many_seat_games_trace_rewards_sparsely():
    from envsuite.evaluation.episode_runner import run_job
    from envsuite.evaluation.jobs import EpisodeJob

    job = EpisodeJob(
        run_id="r",
        task_id="",
        env_id="envsuite/Werewolf-v0",
        env_kwargs={"num_players": 5, "discussion_rounds": 0},
        seed=3,
        attempt=0,
        agent="random",
    )
    record = run_job(job)
    rewards = [step.reward for step in record.trace]
    assert all(isinstance(r, dict) and 0.0 not in r.values() for r in rewards)
    assert sum(1 for r in rewards if r) < len(rewards)  # most steps reward nobody
    totals = dict.fromkeys(record.episode_return, 0.0)
    for r in rewards:
        for name, value in r.items():
            totals[name] += value
    assert totals == pytest.approx(record.episode_return)


def test_trusted_steps_are_the_validated_steps() -> None:
    """The runner's unvalidated steps equal validated ones and serialise to the same bytes."""
    from envsuite.records import Step, trusted_step

    for action, reward, probability in [
        ("button-2", 1.0, None),
        ({"a": [1, 2.5, None], "b": "x"}, float("nan"), 0.25),
        (3, -0.5, 1.0),
    ]:
        trusted = trusted_step(action, reward, probability)
        checked = Step(action=action, reward=reward, probability=probability)
        assert trusted.model_dump_json() == checked.model_dump_json()
        assert trusted.model_fields_set == checked.model_fields_set
        record = EpisodeRecord(
            run_id="r", env_id="envsuite/Bandit-v0", spec_hash="h", envsuite_version="0",
            agent_id="random", seed=0, episode_return=reward, length=1, terminated=True,
            truncated=False, wall_time_s=0.0, trace=[trusted],
        )  # fmt: skip
        again = EpisodeRecord.from_json_line(record.to_json_line())
        assert again.to_json_line() == record.to_json_line()
    copied = trusted.model_copy(update={"reward": 2.0})
    assert copied.reward == 2.0 and trusted.reward == -0.5
    assert trusted_step("a", 0.0, None).model_fields_set == {"action", "reward", "probability"}


def test_a_trace_of_shared_steps_is_written_as_pydantic_writes_it() -> None:
    """``to_json_line`` joins a shared trace's steps itself: the bytes must not change."""
    from envsuite.records import AgentOutcome, shared_steps

    actions = ['é\u2028"x', "b", None, 3] * 8
    rewards = [float("nan"), float("inf"), -1e300, 0.5] * 8
    for agents in ({}, {"p0": AgentOutcome(episode_return=float("nan"), outcome="win")}):
        record = _record(trace=shared_steps(actions, rewards), agents=agents)
        assert len({id(step) for step in record.trace}) == 4  # the shared form is taken
        assert record.to_json_line() == record.model_dump_json()
        again = EpisodeRecord.from_json_line(record.to_json_line())  # its steps not shared
        assert again.to_json_line() == record.to_json_line()


def test_shared_steps_write_what_a_step_by_step_trace_writes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Shared, interned or not, a trace's steps are the steps built one by one, in JSON."""
    from envsuite import records
    from envsuite.records import MAX_INTERNED_ACTION_CHARS, shared_steps, trusted_step

    # The kept steps of a fresh process: earlier tests may have filled the process's table
    # (it stops keeping steps at MAX_INTERNED_STEPS), and the last check needs room.
    monkeypatch.setattr(records, "_interned", {})
    monkeypatch.setattr(records, "_interned_json", {})

    long = "x" * (MAX_INTERNED_ACTION_CHARS + 1)
    # Two rewards whose bytes hold -0.0's (seven zero bytes, then 0x80) across them.
    tricky = struct.unpack("<d", b"\x80" + struct.pack("<d", 1.0)[1:])[0]
    assert (struct.pack("<d", 5e-324) + struct.pack("<d", tricky)).find(
        struct.pack("<d", -0.0)
    ) == 1
    cases = [
        (["a", "b", "a", None, 3], [0.0, 1.0, 0.0, 0.5, 1.0]),
        (["a", "b", "a"], [0.0, -0.0, 0.0]),  # -0.0 is written apart from 0.0
        (["a", "b", "a", "b"], [0.0, 5e-324, tricky, 0.0]),
        ([long, long, "a", "a"], [float("nan"), float("nan"), 0.0, 0.0]),
        ([1, True, 1], [0.0, 0.0, 0.0]),  # a bool action is never shared with an int
    ]
    for actions, rewards in cases:
        for _ in range(2):  # the second call takes the steps kept by the first
            shared = shared_steps(actions, rewards)
            one_by_one = [trusted_step(a, r, None) for a, r in zip(actions, rewards, strict=True)]
            assert [s.model_dump_json() for s in shared] == [
                s.model_dump_json() for s in one_by_one
            ]
            record = _record(trace=shared)
            assert record.to_json_line() == record.model_dump_json()
    assert shared_steps(["a"], [0.5])[0] is shared_steps(["a", "b"], [0.5, 0.0])[0]


def test_to_jsonable_converts_a_dict_and_a_mapping_alike() -> None:
    from types import MappingProxyType

    value = {1: np.int64(2), "a": (np.float32(0.5), {"b": np.array([1, 2])})}
    expected = {"1": 2, "a": [0.5, {"b": [1, 2]}]}
    assert to_jsonable(value) == expected == to_jsonable(MappingProxyType(value))
    assert type(to_jsonable(value)["1"]) is int
    empty: dict[str, object] = {}
    assert to_jsonable(empty) == {} and to_jsonable(empty) is not empty  # a copy, as before
