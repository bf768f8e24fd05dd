"""Replay turns JSON actions back into what the action space expects and requires exact rewards."""

from __future__ import annotations

import numpy as np
import pytest
import yaml
from gymnasium import spaces

from envsuite.episodes import from_json_action
from envsuite.evaluation.run_directory import evaluate
from envsuite.leaderboard import trace_replay as replay_module
from envsuite.leaderboard.board_admin import create_board
from envsuite.leaderboard.errors import TraceReplayError
from envsuite.leaderboard.submit import make_submission
from envsuite.leaderboard.trace_replay import replay_sample
from envsuite.leaderboard.verify import verify_submission
from envsuite.registry import EnvSpec, register, registry
from tests.leaderboard.helpers import DAY

BOX_ID = "envsuite/TestBoxTarget-v0"


def test_box_actions_become_arrays_of_the_spaces_dtype_and_shape():
    space = spaces.Box(-1, 1, (2, 2), np.float32)
    action = from_json_action([[0.5, -0.25], [1.0, 0.0]], space)
    assert isinstance(action, np.ndarray) and action.dtype == np.float32 and action.shape == (2, 2)


def test_discrete_tuple_and_dict_actions_are_converted_recursively():
    space = spaces.Dict(
        {
            "move": spaces.Discrete(3),
            "aim": spaces.Tuple((spaces.Box(0, 1, (1,)), spaces.Discrete(2))),
        }
    )
    action = from_json_action({"move": 2, "aim": [[0.5], 1]}, space)
    assert isinstance(action["move"], np.integer) and action["move"] == 2
    assert isinstance(action["aim"], tuple) and isinstance(action["aim"][0], np.ndarray)


def test_actions_that_do_not_fit_are_passed_on_as_recorded():
    assert from_json_action("north", spaces.Discrete(4)) == "north"
    assert from_json_action({"bad": 1}, spaces.Box(0, 1, (2,))) == {"bad": 1}
    assert from_json_action("I play rock", object()) == "I play rock"


@pytest.fixture
def box_board(tmp_path):
    register(
        EnvSpec(
            id=BOX_ID,
            entry_point="tests.leaderboard.box_target_env:BoxTargetEnv",
            family="test",
            api="gymnasium",
            description="Continuous-action test env.",
        )
    )
    protocol = tmp_path / "box.yaml"
    protocol.write_text(
        yaml.safe_dump({"id": "box", "envs": [{"id": BOX_ID}], "seeds": {"count": 3}})
    )
    try:
        yield create_board(tmp_path / "leaderboards", protocol, replay_per_env=3, today=DAY)
    finally:
        registry.unregister(BOX_ID)


def test_a_continuous_action_submission_replays_exactly(box_board, tmp_path):
    evaluate(box_board.protocol, "random", tmp_path / "run", progress=False)
    folder = make_submission(
        box_board, tmp_path / "run", name="random", authors=["T"], leakage="none", date=DAY
    )
    report = verify_submission(folder, replay="all")
    assert report.replayed == 3
    assert all(isinstance(step.action, list) for r in report.records for step in r.trace)


def test_without_the_conversion_the_replay_would_not_match(box_board, tmp_path, monkeypatch):
    evaluate(box_board.protocol, "random", tmp_path / "run", progress=False)
    folder = make_submission(
        box_board, tmp_path / "run", name="random", authors=["T"], leakage="none", date=DAY
    )
    monkeypatch.setattr(replay_module, "from_json_action", lambda value, space: value)
    with pytest.raises(TraceReplayError, match=r"step 1: recorded reward .*, the env gives -10.0"):
        verify_submission(folder, replay="all")


def test_the_sample_is_stratified_reproducible_and_tied_to_the_content(board_copy):
    board = board_copy()
    report = verify_submission(board.path / "submissions" / "20261201_random", replay="none")
    records = report.records
    first = replay_sample(board, records, "digest-a", per_env=2)
    assert [r.key for r in first] == [r.key for r in replay_sample(board, records, "digest-a", 2)]
    per_entry = {}
    for record in first:
        per_entry[(record.env_id, str(record.env_kwargs))] = (
            per_entry.get((record.env_id, str(record.env_kwargs)), 0) + 1
        )
    assert sorted(per_entry.values()) == [2, 2, 2]
    others = {tuple(r.key for r in replay_sample(board, records, f"d{i}", 2)) for i in range(8)}
    assert len(others) > 1
    assert len(replay_sample(board, records, "x", per_env=-1)) == len(records)
    assert replay_sample(board, records, "x", per_env=0) == []


def test_replays_of_opt_in_families_run_only_when_asked(board_copy):
    board = board_copy()
    board_file = board.path / "board.yaml"
    data = yaml.safe_load(board_file.read_text())
    data["replay"]["opt_in_families"] = ["decision"]
    board_file.write_text(yaml.safe_dump(data, sort_keys=False))
    folder = board.path / "submissions" / "20261201_random"
    skipped = verify_submission(folder)
    assert skipped.replayed == 0 and skipped.replay_skipped == 3  # one per env entry
    asked = verify_submission(folder, replay_opt_in=True)
    assert asked.replayed == 3 and asked.replay_skipped == 0
