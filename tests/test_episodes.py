"""The episode loops of envsuite.episodes: one per API, with policy, observer and stop check."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest
from gymnasium import spaces

import envsuite
from envsuite.episodes import (
    EnvCallError,
    StopEpisode,
    arun_episode,
    env_kind,
    from_json_action,
    native_kind,
    run_aec_episode,
    run_episode,
    run_gymnasium_episode,
    run_parallel_episode,
)
from tests.turn_taking_env import TurnGame

BANDIT = "envsuite/Bandit-v0"
GAME = "envsuite/RepeatedGame-v0"


def first_legal(agent: Any, observation: Any, info: Mapping[str, Any]) -> Any:
    return info["legal_actions"][0]


# -- Gymnasium ----------------------------------------------------------------------------------
def test_gymnasium_loop_matches_a_hand_written_loop() -> None:
    answers = ["red", "blue", "green", "nonsense", "red"]
    env = envsuite.make(BANDIT, horizon=5)
    env.reset(seed=3)
    expected = [float(env.step(answer)[1]) for answer in answers]
    seen: list[tuple[Any, Any, float]] = []
    actions = iter(answers)
    result = run_gymnasium_episode(
        env,
        3,
        lambda agent, observation, info: next(actions),
        observer=lambda agent, action, _, reward, *rest: seen.append((agent, action, reward)),
    )
    assert seen == [(None, a, r) for a, r in zip(answers, expected, strict=True)]
    assert result.episode_return == sum(expected)
    assert result.length == 5
    assert (result.terminated or result.truncated) and result.stop_reason in (
        "terminated",
        "truncated",
    )
    assert "score" in result.final_info


def test_the_observer_sees_what_each_step_returned() -> None:
    steps: list[tuple[Any, ...]] = []
    env = envsuite.make(BANDIT, horizon=2)
    result = run_gymnasium_episode(env, 1, first_legal, observer=lambda *step: steps.append(step))
    first = envsuite.make(BANDIT, horizon=2).reset(seed=1)
    assert result.reset_observation == first[0] and result.reset_info == first[1]
    agent, _, observation, reward, terminated, truncated, info = steps[-1]
    assert agent is None
    assert observation == result.final_observation and info is result.final_info
    assert (terminated or truncated) and isinstance(reward, float)

    turns: list[tuple[Any, ...]] = []
    run_aec_episode(
        TurnGame(turns=1),
        0,
        first_legal,
        observer=lambda *step: turns.append((step[0], step[2], dict(step[4]))),
    )
    assert turns == [
        ("first", None, {"first": False, "second": False}),
        ("second", None, {"first": True, "second": True}),
    ]


class _NumpyRewards:
    """A bare env whose rewards are numpy numbers and a plain int, one per step."""

    rewards = (np.float64(0.5), np.float32(0.25), 2, 1.0)

    def reset(self, seed: int | None = None) -> tuple[Any, dict[str, Any]]:
        self.t = 0
        return 0, {}

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        self.t += 1
        return self.t, self.rewards[self.t - 1], self.t == len(self.rewards), False, {}


def test_the_observer_and_the_return_get_every_reward_as_an_exact_float() -> None:
    seen: list[Any] = []
    result = run_gymnasium_episode(
        _NumpyRewards(), 0, lambda *_: 0, observer=lambda *step: seen.append(step[3])
    )
    assert seen == [0.5, 0.25, 2.0, 1.0]
    assert [type(reward) for reward in seen] == [float] * 4  # np.float64 is a float subclass
    assert type(result.episode_return) is float and result.episode_return == 3.75


def test_gymnasium_stop_check_ends_the_episode_with_its_reason() -> None:
    env = envsuite.make(BANDIT, horizon=50)
    asked: list[int] = []

    def stop(steps: int) -> str | None:
        asked.append(steps)
        return "budget" if steps >= 3 else None

    result = run_gymnasium_episode(env, 0, first_legal, stop=stop)
    assert result.length == 3
    assert result.stop_reason == "budget"
    assert not result.terminated and not result.truncated  # the env did not end it
    assert asked == [0, 1, 2, 3]


def test_stop_episode_from_the_policy_ends_the_loop() -> None:
    env = envsuite.make(BANDIT, horizon=50)
    calls = 0

    def policy(agent: Any, observation: Any, info: Mapping[str, Any]) -> Any:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise StopEpisode("stdin_closed")
        return "red"

    result = run_gymnasium_episode(env, 0, policy)
    assert (result.length, result.stop_reason) == (2, "stdin_closed")


class BrokenStep:
    """A Gymnasium-shaped env whose step fails."""

    def reset(self, seed: int | None = None) -> tuple[int, dict[str, Any]]:
        return 0, {}

    def step(self, action: Any) -> Any:
        raise RuntimeError("sandbox lost")


def test_env_failures_are_told_apart_from_policy_failures() -> None:
    with pytest.raises(EnvCallError, match=r"env\.step raised RuntimeError: sandbox lost") as info:
        run_gymnasium_episode(BrokenStep(), 0, lambda *args: 1)
    assert info.value.call == "env.step"
    assert isinstance(info.value.__cause__, RuntimeError)

    def failing_policy(*args: Any) -> Any:
        raise KeyError("the agent's own bug")

    with pytest.raises(KeyError, match="the agent's own bug"):
        run_gymnasium_episode(BrokenStep(), 0, failing_policy)


# -- Parallel -----------------------------------------------------------------------------------
def test_parallel_loop_sums_each_agents_rewards() -> None:
    env = envsuite.make(GAME, horizon=3, parallel=True)
    steps: list[dict[str, float]] = []
    result = run_parallel_episode(
        env,
        0,
        first_legal,
        observer=lambda agent, actions, _, rewards, *rest: steps.append(dict(rewards)),
    )
    assert result.length == len(steps) == 3
    assert result.agents == ["player_0", "player_1"]
    assert result.episode_return == {
        name: sum(step[name] for step in steps) for name in result.agents
    }
    assert result.terminated and result.stop_reason == "terminated"
    assert set(result.final_info) == {"player_0", "player_1"}


# -- AEC ----------------------------------------------------------------------------------------
def test_aec_loop_asks_only_the_agent_whose_turn_it_is() -> None:
    asked: list[str] = []
    acted: list[tuple[str, Any]] = []

    def policy(agent: str, observation: Any, info: Mapping[str, Any]) -> str:
        asked.append(agent)
        return "2" if agent == "first" else "oops"

    result = run_aec_episode(
        TurnGame(turns=2),
        0,
        policy,
        observer=lambda agent, action, *rest: acted.append((agent, action)),
    )
    assert asked == ["first", "second", "first", "second"]
    assert acted == [("first", "2"), ("second", "oops")] * 2
    assert result.length == 4  # agent actions; the two dead steps are not counted
    assert result.episode_return == {"first": 4.0, "second": -2.0}
    assert result.final_info["first"]["outcome"] == "win"
    assert result.final_info["second"]["outcome"] == "loss"
    assert result.terminated and result.stop_reason == "terminated"


def test_aec_loop_gives_an_agent_that_leaves_early_its_dead_step() -> None:
    asked: list[str] = []

    def policy(agent: str, observation: Any, info: Mapping[str, Any]) -> str:
        asked.append(agent)
        return "1"

    env = TurnGame(turns=3, first_leaves=1)
    result = run_aec_episode(env, 0, policy)
    assert asked == ["first", "second", "second", "second"]
    assert result.length == 4
    assert result.episode_return == {"first": 1.0, "second": 3.0}
    assert env.agents == []  # every agent, the early leaver too, was stepped out


class _StayingGame(TurnGame):
    """A TurnGame whose dead step forgets to remove the finished agent."""

    def step(self, action: Any) -> None:
        if action is None and self.terminations.get(self.agent_selection):
            return  # the bug
        super().step(action)


def test_aec_dead_step_that_keeps_the_agent_is_an_env_error_not_a_hang() -> None:
    with pytest.raises(EnvCallError, match=r"left 'first' in env\.agents") as caught:
        run_aec_episode(_StayingGame(turns=1), 0, first_legal)
    assert caught.value.call == "env.step"


def test_aec_stop_check_counts_agent_actions() -> None:
    result = run_aec_episode(
        TurnGame(turns=5), 0, first_legal, stop=lambda steps: "budget" if steps >= 3 else None
    )
    assert (result.length, result.stop_reason) == (3, "budget")
    assert result.episode_return == {"first": 2.0, "second": 1.0}


def test_aec_form_of_a_parallel_game_gives_the_parallel_returns() -> None:
    def policy(agent: str, observation: Any, info: Mapping[str, Any]) -> str:
        return "defect" if agent == "player_0" else "cooperate"

    parallel = run_parallel_episode(envsuite.make(GAME, horizon=4, parallel=True), 5, policy)
    turns = run_aec_episode(envsuite.make(GAME, horizon=4), 5, policy)
    assert turns.episode_return == parallel.episode_return
    assert turns.length == 2 * parallel.length  # one step per agent action
    assert turns.terminated and turns.stop_reason == "terminated"


# -- choosing the loop ----------------------------------------------------------------------------
def test_the_loop_is_chosen_from_the_spec_never_from_the_env() -> None:
    assert env_kind("gymnasium", parallel=False) == "gymnasium"
    assert env_kind("parallel", parallel=True) == "parallel"
    assert env_kind("parallel", parallel=False) == "aec"
    assert env_kind("aec", parallel=False) == "aec"
    assert [native_kind(api) for api in ("gymnasium", "parallel", "aec")] == [
        "gymnasium",
        "parallel",
        "aec",
    ]
    with pytest.raises(ValueError, match="unknown api"):
        env_kind("openspiel", parallel=False)
    with pytest.raises(ValueError, match="kind must be one of"):
        run_episode("vector", envsuite.make(BANDIT), 0, first_legal)  # type: ignore[arg-type]
    result = run_episode("aec", envsuite.make(GAME, horizon=2), 0, first_legal)
    assert result.length == 4


# -- Recorded actions ----------------------------------------------------------------------------


def test_json_actions_come_back_in_the_type_their_space_expects() -> None:
    box = from_json_action([[0.5, -0.25]], spaces.Box(-1.0, 1.0, (1, 2), np.float32))
    assert box.dtype == np.float32 and box.shape == (1, 2)
    assert isinstance(from_json_action(2, spaces.Discrete(4)), np.int64)
    nested = spaces.Dict({"move": spaces.Discrete(3), "aim": spaces.Tuple([spaces.Discrete(2)])})
    back = from_json_action({"move": 1, "aim": [0]}, nested)
    assert isinstance(back["move"], np.int64) and back["aim"] == (np.int64(0),)
    # What does not fit the space is the env's to penalise: passed on as recorded.
    assert from_json_action("north", spaces.Discrete(4)) == "north"
    assert from_json_action({"bad": 1}, spaces.Box(0, 1, (2,))) == {"bad": 1}
    assert from_json_action(True, spaces.Discrete(2)) is True


# -- coroutine policies -------------------------------------------------------------------------
def _steps_of(kind: str, env: Any, seed: int, play: Any) -> tuple[Any, list[Any]]:
    seen: list[Any] = []
    result = play(kind, env, seed, observer=lambda *step: seen.append(repr(step[:2])))
    return result, seen


@pytest.mark.parametrize(
    ("kind", "make"),
    [
        ("gymnasium", lambda: envsuite.make(BANDIT, horizon=5)),
        ("parallel", lambda: envsuite.make(GAME, horizon=4, parallel=True)),
        ("aec", lambda: TurnGame(turns=5)),
    ],
)
def test_arun_episode_plays_the_same_loop_as_run_episode(kind: str, make: Any) -> None:
    async def first_legal_later(agent: Any, observation: Any, info: Mapping[str, Any]) -> Any:
        await asyncio.sleep(0)
        return info["legal_actions"][0]

    def sync(kind: str, env: Any, seed: int, **kw: Any) -> Any:
        return run_episode(kind, env, seed, first_legal, **kw)  # type: ignore[arg-type]

    def in_loop(kind: str, env: Any, seed: int, **kw: Any) -> Any:
        return asyncio.run(arun_episode(kind, env, seed, first_legal_later, **kw))  # type: ignore[arg-type]

    expected, expected_steps = _steps_of(kind, make(), 3, sync)
    got, got_steps = _steps_of(kind, make(), 3, in_loop)
    assert (got.episode_return, got.length, got.stop_reason) == (
        expected.episode_return,
        expected.length,
        expected.stop_reason,
    )
    assert got_steps == expected_steps and got_steps


def test_arun_episode_asks_the_agents_of_a_parallel_step_at_once() -> None:
    waiting: set[str] = set()
    most = 0

    async def policy(agent: str, observation: Any, info: Mapping[str, Any]) -> str:
        nonlocal most
        waiting.add(agent)
        most = max(most, len(waiting))
        await asyncio.sleep(0.001)
        waiting.discard(agent)
        return "cooperate"

    env = envsuite.make(GAME, horizon=3, parallel=True)
    result = asyncio.run(arun_episode("parallel", env, 0, policy))
    assert most == 2  # both players of each step were asked before either answered
    assert result.length == 3


def test_a_stop_from_a_coroutine_policy_ends_the_episode() -> None:
    async def policy(agent: Any, observation: Any, info: Mapping[str, Any]) -> Any:
        raise StopEpisode("human left")

    result = asyncio.run(arun_episode("aec", TurnGame(turns=5), 0, policy))
    assert (result.length, result.stop_reason) == (0, "human left")
