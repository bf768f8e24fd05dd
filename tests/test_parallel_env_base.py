from __future__ import annotations

import pickle
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import pytest
from gymnasium import spaces

from envsuite.action_errors import ParseActionBugWarning
from envsuite.env_base import EPISODE_OVER, InvalidAction
from envsuite.parallel_env_base import (
    MISSING_ACTION,
    NOT_STARTED,
    EnvsuiteParallelEnv,
    StepResult,
)

PENALTY = -5.0


class GuessEnv(EnvsuiteParallelEnv[Any, int, int]):
    """Each round both agents guess a secret number in [0, 10) drawn from np_random.

    A correct guess pays 1, a wrong one 0, a malformed or missing one PENALTY.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": [], "name": "guess_v0"}

    def __init__(self, horizon: int = 3) -> None:
        super().__init__()
        self.horizon = horizon
        self.possible_agents = ["a_0", "a_1"]
        self.observation_spaces = {
            a: spaces.Box(0, 1e9, (1,), np.float64) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(10) for a in self.possible_agents}
        self.t = 0
        self.secret = 0
        self.penalised: list[str] = []

    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        self.t = 0
        self.secret = int(self.np_random.integers(10))
        self.first_draw = float(self.np_random.integers(10**9))
        obs = {a: np.array([self.first_draw]) for a in self.agents}
        return obs, {a: {} for a in self.agents}

    def parse_action(self, agent: str, action: Any) -> int:
        if action == "boom":
            raise RuntimeError("kaboom")
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise InvalidAction("not an int")
        if not 0 <= action < 10:
            raise InvalidAction("out of range")
        return int(action)

    def apply_actions(self, parsed: Mapping[str, int], errors: Mapping[str, str]) -> StepResult:
        self.t += 1
        self.penalised = sorted(errors)
        rewards = {}
        for agent in self.agents:
            if agent in errors:
                rewards[agent] = PENALTY
            else:
                rewards[agent] = float(parsed[agent] == self.secret)
        done = self.t >= self.horizon
        obs = {a: np.array([float(self.t)]) for a in self.agents}
        infos = {a: {"secret": self.secret} for a in self.agents}
        self.secret = int(self.np_random.integers(10))
        return (
            obs,
            rewards,
            dict.fromkeys(self.agents, done),
            dict.fromkeys(self.agents, False),
            infos,
        )


def first_draws(env: GuessEnv, seeds: list[int | None]) -> list[float]:
    return [float(env.reset(seed=seed)[0]["a_0"][0]) for seed in seeds]


def test_reset_seeds_own_generator_and_keeps_it_when_seed_is_none() -> None:
    one, two = GuessEnv(), GuessEnv()
    assert first_draws(one, [3, None, None]) == first_draws(two, [3, None, None])
    draws = first_draws(GuessEnv(), [3, None, 3])
    assert draws[0] == draws[2]
    assert draws[1] != draws[0]  # the unseeded reset continued the generator
    assert first_draws(GuessEnv(), [4])[0] != draws[0]


def test_first_reset_without_seed_creates_a_generator() -> None:
    env = GuessEnv()
    assert env.np_random is None
    env.reset()
    assert isinstance(env.np_random, np.random.Generator)
    assert env.agents == ["a_0", "a_1"]


def test_well_formed_actions_have_parse_error_none_for_every_agent() -> None:
    env = GuessEnv()
    env.reset(seed=0)
    while env.agents:
        _, rewards, _, _, infos = env.step({"a_0": 1, "a_1": 2})
        assert set(infos) == {"a_0", "a_1"}
        assert all(info["parse_error"] is None for info in infos.values())
        assert all(r in (0.0, 1.0) for r in rewards.values())


@pytest.mark.parametrize("bad", [None, "seven", 3.5, True, 12, [1], {"x": 1}])
def test_malformed_action_penalises_only_that_agent(bad: Any) -> None:
    env = GuessEnv()
    env.reset(seed=0)
    secret = env.secret
    _, rewards, _, _, infos = env.step({"a_0": bad, "a_1": secret})
    assert rewards == {"a_0": PENALTY, "a_1": 1.0}
    assert isinstance(infos["a_0"]["parse_error"], str) and infos["a_0"]["parse_error"]
    assert infos["a_1"]["parse_error"] is None
    assert env.penalised == ["a_0"]


def test_a_parser_bug_is_the_agents_penalty_and_a_warning_naming_env_and_place() -> None:
    env = GuessEnv()
    env.reset(seed=0)
    with pytest.warns(ParseActionBugWarning) as caught:
        _, rewards, _, _, infos = env.step({"a_0": "boom", "a_1": 0})
    assert "RuntimeError" in infos["a_0"]["parse_error"]
    assert rewards["a_0"] == PENALTY
    assert infos["a_1"]["parse_error"] is None
    (warning,) = caught
    text = str(warning.message)
    assert text.startswith("GuessEnv's parse_action raised RuntimeError: kaboom at ")
    assert "test_parallel_env_base.py" in text and "in parse_action" in text


def test_an_invalid_action_warns_nobody(recwarn: pytest.WarningsRecorder) -> None:
    env = GuessEnv()
    env.reset(seed=0)
    _, _, _, _, infos = env.step({"a_0": 11, "a_1": "x"})
    assert infos["a_0"]["parse_error"] == "out of range"
    assert not [w for w in recwarn if issubclass(w.category, ParseActionBugWarning)]


def test_the_reset_seed_reaches_new_episode() -> None:
    seen: list[Any] = []

    class SeedSeeing(GuessEnv):
        def new_episode(
            self, seed: int | None, options: dict[str, Any] | None
        ) -> tuple[dict[str, Any], dict[str, Any]]:
            seen.append((seed, options))
            return super().new_episode(seed, options)

    env = SeedSeeing()
    env.reset(seed=7, options={"k": 1})
    env.reset()
    assert seen == [(7, {"k": 1}), (None, None)]


def test_hooks_are_abstract() -> None:
    class Unfinished(EnvsuiteParallelEnv[Any, int, int]):
        def new_episode(
            self, seed: int | None, options: dict[str, Any] | None
        ) -> tuple[dict[str, Any], dict[str, Any]]:
            return {}, {}

    with pytest.raises(TypeError, match="apply_actions, parse_action"):
        Unfinished()  # type: ignore[abstract]


def test_missing_action_counts_as_malformed() -> None:
    env = GuessEnv()
    env.reset(seed=0)
    _, rewards, _, _, infos = env.step({"a_1": 0})
    assert infos["a_0"]["parse_error"] == MISSING_ACTION
    assert rewards["a_0"] == PENALTY
    assert infos["a_1"]["parse_error"] is None


@pytest.mark.parametrize("actions", [None, "a_0", 3, ["a_0", "a_1"]])
def test_actions_that_are_not_a_mapping_leave_every_agent_without_action(actions: Any) -> None:
    env = GuessEnv()
    env.reset(seed=0)
    _, rewards, _, _, infos = env.step(actions)
    assert rewards == {"a_0": PENALTY, "a_1": PENALTY}
    assert all(info["parse_error"] == MISSING_ACTION for info in infos.values())


def test_actions_for_unknown_names_are_ignored() -> None:
    env = GuessEnv()
    env.reset(seed=0)
    observations, rewards, terminations, _, infos = env.step(
        {"a_0": 1, "a_1": 1, "ghost": 4, 7: "x"}
    )
    for result in (observations, rewards, terminations, infos):
        assert set(result) == {"a_0", "a_1"}
    assert env.penalised == []


def test_agents_leave_at_the_end_and_later_steps_change_nothing() -> None:
    env = GuessEnv(horizon=2)
    env.reset(seed=0)
    env.step({"a_0": 0, "a_1": 0})
    last_obs, _, terminations, _, _ = env.step({"a_0": 0, "a_1": 0})
    assert terminations == {"a_0": True, "a_1": True}
    assert env.agents == []
    rounds = env.t
    observations, rewards, terminations, truncations, infos = env.step({"a_0": 1, "ghost": 1})
    assert set(observations) == {"a_0"}
    np.testing.assert_array_equal(observations["a_0"], last_obs["a_0"])
    assert rewards == {"a_0": 0.0}
    assert terminations == {"a_0": True} and truncations == {"a_0": False}
    assert infos == {"a_0": {"parse_error": EPISODE_OVER}}
    assert env.t == rounds
    assert env.step({}) == ({}, {}, {}, {}, {})


def test_step_before_reset_is_answered_safely() -> None:
    env = GuessEnv()
    observations, rewards, _, _, infos = env.step({"a_0": 1, "a_1": 1})
    assert observations == {"a_0": None, "a_1": None}
    assert rewards == {"a_0": 0.0, "a_1": 0.0}
    assert all(info["parse_error"] == NOT_STARTED for info in infos.values())


def test_spaces_are_the_same_objects_and_spec_is_unset_without_make() -> None:
    env = GuessEnv()
    assert env.observation_space("a_0") is env.observation_space("a_0")
    assert env.action_space("a_1") is env.action_space("a_1")
    assert env.spec is None and env.spec_hash is None


def test_pickled_env_continues_identically() -> None:
    env = GuessEnv(horizon=5)
    env.reset(seed=1)
    env.step({"a_0": 1, "a_1": 2})
    twin = pickle.loads(pickle.dumps(env))
    for _ in range(3):
        a = env.step({"a_0": 3, "a_1": "bad"})
        b = twin.step({"a_0": 3, "a_1": "bad"})
        assert a[1] == b[1] and a[4] == b[4]
