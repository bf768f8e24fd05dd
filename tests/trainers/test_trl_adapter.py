"""The TRL adapter without a trainer: dataset rows, the reward function, the tool env, remote."""

from __future__ import annotations

import json
import os

import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":  # opted out: skip without the extra
    pytest.importorskip("datasets")

import envsuite
import envsuite.remote
from envsuite.evaluation.transcripts import system_prompt_of
from envsuite.serve import RunningServer, ServeConfig
from envsuite.trainers.trl_adapter import (
    TOOL_INSTRUCTIONS,
    EnvReward,
    EpisodeOverError,
    EpisodeRowError,
    NotSingleTurnError,
    environment_factory,
    prompt_dataset,
)

SAT = ("envsuite/SAT-v0", {"num_vars": 3, "num_clauses": 6})
SUDOKU = ("envsuite/Sudoku-v0", {"mode": "single", "size": 4})
MAZE = ("envsuite/Maze-v0", {"width": 3, "height": 3})


def _rows(pair, seeds, **options):
    return prompt_dataset(pair[0], seeds, pair[1], **options)


def _score(reward: EnvReward, dataset, completions):
    return reward(
        dataset["prompt"],
        completions,
        env_id=dataset["env_id"],
        env_kwargs=dataset["env_kwargs"],
        seed=dataset["seed"],
    )


@pytest.mark.parametrize(("env_id", "kwargs"), [SAT, SUDOKU], ids=["SAT", "Sudoku-single"])
def test_rows_are_the_reset_observation_and_the_system_prompt(env_id, kwargs) -> None:
    dataset = prompt_dataset(env_id, [5, 7], kwargs)
    assert dataset.column_names == ["prompt", "env_id", "env_kwargs", "seed"]
    env = envsuite.make(env_id, **kwargs)
    for row, seed in zip(dataset, [5, 7], strict=True):
        observation, _ = env.reset(seed=seed)
        assert row["prompt"] == [
            {"role": "system", "content": system_prompt_of(env)},
            {"role": "user", "content": observation},
        ]
        assert (row["env_id"], json.loads(row["env_kwargs"]), row["seed"]) == (env_id, kwargs, seed)
    assert prompt_dataset(env_id, [5, 7], kwargs)[:] == dataset[:]  # deterministic


def test_the_reward_is_the_envs_including_its_penalty_for_malformed_answers() -> None:
    dataset = _rows(SAT, range(3))
    env = envsuite.make(SAT[0], **SAT[1])
    oracle = envsuite.spec(SAT[0]).load_oracle()(env)
    solved = []
    for seed in range(3):
        observation, info = env.reset(seed=seed)
        oracle.reset(seed=seed)
        solved.append(oracle.act(observation, info))
    reward = EnvReward()
    assert _score(reward, dataset, solved) == [1.0, 1.0, 1.0]
    conversational = [[{"role": "assistant", "content": text}] for text in solved]
    assert _score(reward, dataset, conversational) == [1.0, 1.0, 1.0]
    # no \boxed{}: SAT's documented -1; the same answer twice: the same reward
    assert _score(reward, dataset, ["no idea", None, [{"role": "user"}]]) == [-1.0] * 3
    sudoku = _rows(SUDOKU, [0, 1])
    assert _score(reward, sudoku, ["12", "not a grid"]) == [-0.1, -0.1]


def test_rows_that_name_no_episode_get_a_clear_error() -> None:
    reward = EnvReward()
    with pytest.raises(EpisodeRowError, match="no env_id"):
        reward(["p"], ["c"])
    with pytest.raises(EpisodeRowError, match="registered"):
        reward(["p"], ["c"], env_id=["envsuite/Nope-v0"], env_kwargs=["{}"], seed=[0])
    with pytest.raises(EpisodeRowError, match="seed"):
        reward(["p"], ["c"], env_id=[SAT[0]], env_kwargs=["{}"], seed=["0"])
    with pytest.raises(EpisodeRowError, match="JSON"):
        reward(["p"], ["c"], env_id=[SAT[0]], env_kwargs=["{"], seed=[0])
    with pytest.raises(EpisodeRowError, match="multi-agent"):
        prompt_dataset("envsuite/Nim-v0", [0])
    with pytest.raises(NotSingleTurnError, match="multi-turn"):
        _rows(MAZE, [0])


def test_the_tool_env_plays_the_rows_episode_and_returns_its_return() -> None:
    dataset = _rows(MAZE, [3], single_turn=False)
    assert dataset[0]["prompt"][0]["content"].endswith(TOOL_INSTRUCTIONS)
    slot = environment_factory()()
    assert slot.reset(**dataset[0]) is None  # the prompt already holds the observation
    env = envsuite.make(MAZE[0], **MAZE[1])
    env.reset(seed=3)
    total = 0.0
    for action in ["up", "left", "jump", "down"]:
        observation, reward, *_ = env.step(action)
        assert slot.act(action).startswith(observation)
        total += reward
    assert slot.get_reward() == pytest.approx(total) and total < 0
    # a row without the observation gets it back as text; a new reset starts over
    assert slot.reset(env_id=MAZE[0], env_kwargs=MAZE[1], seed=3).startswith("Find your way")
    assert slot.get_reward() == 0.0
    with pytest.raises(EpisodeRowError, match="seed"):
        slot.reset(env_id=MAZE[0])


def test_acting_after_the_end_is_an_error_trl_hands_to_the_model() -> None:
    slot = environment_factory(env_id=SUDOKU[0], env_kwargs=SUDOKU[1])()
    slot.reset(seed=0)
    assert slot.act("garbage").endswith("The episode is over.")
    with pytest.raises(EpisodeOverError, match="over"):
        slot.act("1234")
    assert slot.get_reward() == -0.1
    # the tools TRL exposes: every public method but reset and get_reward
    assert [n for n in vars(type(slot)) if not n.startswith("_")] == ["reset", "act", "get_reward"]


def test_served_envs_give_the_same_rows_rewards_and_episodes() -> None:
    with RunningServer(ServeConfig((SAT[0], MAZE[0]), port=0)) as server:

        def remote(env_id, kwargs):
            return envsuite.remote.make(server.url, env_id, **kwargs)

        local_rows = _rows(SAT, range(3))
        remote_rows = _rows(SAT, range(3), env_factory=remote)
        assert remote_rows[:] == local_rows[:]
        answers = ["\\boxed{101}", "\\boxed{000}", "nothing"]
        served = EnvReward(remote)
        assert _score(served, remote_rows, answers) == _score(EnvReward(), local_rows, answers)
        served.close()
        local, distant = environment_factory()(), environment_factory(remote)()
        row = _rows(MAZE, [1], single_turn=False)[0]
        assert local.reset(**row) == distant.reset(**row)
        for action in ["down", "left", "right", "up"]:
            assert local.act(action) == distant.act(action)
        assert local.get_reward() == distant.get_reward()
        distant._close()
