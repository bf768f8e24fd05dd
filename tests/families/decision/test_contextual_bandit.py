from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import envsuite
from envsuite.families.decision.contextual_bandit import ContextualBanditEnv
from envsuite.families.decision.linucb import LinUCBAgent
from envsuite.families.decision.linucb_oracle import linucb_oracle
from envsuite.seeding import make_generator

# A hand-made instance: arm 0 pays the first coordinate, arm 1 the second.
THETA = np.array([[1.0, 0.0], [0.0, 1.0]])
CONTEXTS = np.array([[0.5, 0.2], [0.1, 0.9], [0.3, 0.3], [-0.4, 0.6]])
NOISE = np.array([[0.05, -0.05], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]])
# Uniform play's expected regret per round is max - mean: 0.15, 0.4, 0, 0.5 (total 1.05).


class HandMadeBandit(ContextualBanditEnv):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(num_arms=2, context_dim=2, horizon=4, **kwargs)

    def draw_instance(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return THETA.copy(), CONTEXTS.copy(), NOISE.copy()


def play(env: ContextualBanditEnv, actions: list[Any]) -> list[tuple[Any, float, bool, dict]]:
    env.reset(seed=0)
    steps = []
    for action in actions:
        observation, reward, terminated, _, info = env.step(action)
        steps.append((observation, reward, terminated, info))
    return steps


def test_info_reports_expected_rewards_and_regret_of_the_pulled_arm() -> None:
    steps = play(HandMadeBandit(), ["blue", "blue", "green", "green"])
    first = steps[0][3]
    assert first["arm"] == 0
    assert first["context"] == [0.5, 0.2]
    assert first["reward"] == pytest.approx(0.55)
    assert steps[0][1] == pytest.approx(0.55)
    assert first["expected_reward"] == pytest.approx(0.5)
    assert first["optimal_expected_reward"] == pytest.approx(0.5)
    assert first["regret"] == pytest.approx(0.0)
    assert first["next_context"] == [0.1, 0.9]
    second = steps[1][3]
    assert second["regret"] == pytest.approx(0.8)
    assert second["cumulative_regret"] == pytest.approx(0.8)
    assert [s[3]["cumulative_regret"] for s in steps] == pytest.approx([0.0, 0.8, 0.8, 0.8])
    assert [s[2] for s in steps] == [False, False, False, True]
    assert "next_context" not in steps[-1][3]


@pytest.mark.parametrize(
    ("actions", "regret", "score", "success"),
    [
        (["blue", "green", "blue", "green"], 0.0, 1.0, True),
        # Regret only in round 2: the final quarter (round 4) is regret-free.
        (["blue", "blue", "blue", "green"], 0.8, 1 - 0.8 / 1.05, True),
        # Regret 1.0 in round 4 exceeds 0.25 x uniform's 0.5 there.
        (["blue", "green", "blue", "blue"], 1.0, 1 - 1.0 / 1.05, False),
        # Worse than uniform play overall: score clips to 0.
        (["blue", "blue", "blue", "blue"], 1.8, 0.0, False),
    ],
)
def test_success_and_score_at_the_end(
    actions: list[str], regret: float, score: float, success: bool
) -> None:
    info = play(HandMadeBandit(), actions)[-1][3]
    assert info["cumulative_regret"] == pytest.approx(regret)
    assert info["uniform_regret"] == pytest.approx(1.05)
    assert info["score"] == pytest.approx(score)
    assert info["success"] is success


@pytest.mark.parametrize(("second_arm", "success"), [(0.92, True), (0.88, False)])
def test_success_threshold_is_a_quarter_of_uniform_regret(second_arm: float, success: bool) -> None:
    class ThreeArms(ContextualBanditEnv):
        def draw_instance(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            return np.array([[1.0], [second_arm], [0.0]]), np.ones((4, 1)), np.zeros((4, 3))

    env = ThreeArms(num_arms=3, context_dim=1, horizon=4, observation_mode="vector")
    # Final round: regret 1 - second_arm against uniform's 1 - (1 + second_arm) / 3.
    info = play(env, [0, 0, 0, 1])[-1][3]
    assert info["cumulative_regret"] == pytest.approx(1 - second_arm)
    assert info["success"] is success


def test_text_answers_name_one_arm_in_any_case_and_wording() -> None:
    steps = play(HandMadeBandit(), ["I press GREEN.", "Blue"])
    assert [s[3]["arm"] for s in steps] == [1, 0]
    assert all(s[3]["parse_error"] is None for s in steps)
    assert steps[0][3]["legal_actions"] == ["blue", "green"]


@pytest.mark.parametrize("answer", ["blue or green", "purple", "", 1])
def test_malformed_text_answer_pulls_the_worst_arm_for_the_context(answer: Any) -> None:
    env = HandMadeBandit()
    env.reset(seed=0)
    env.step("green")  # round 2's context (0.1, 0.9) makes arm 0 (blue) the worst
    observation, reward, terminated, _, info = env.step(answer)
    assert info["parse_error"]
    assert info["arm"] == 0
    assert reward == pytest.approx(0.1)
    assert info["regret"] == pytest.approx(0.8)
    assert not terminated
    assert "pressed for you: blue" in observation


@pytest.mark.parametrize("action", [2, -1, True, 1.0, "1", None, np.array([1])])
def test_malformed_vector_action_pulls_the_worst_arm(action: Any) -> None:
    env = HandMadeBandit(observation_mode="vector")
    env.reset(seed=0)
    _, reward, _, _, info = env.step(action)
    assert info["parse_error"]
    assert info["arm"] == 1  # context (0.5, 0.2): green pays 0.2 < 0.5
    assert reward == pytest.approx(0.2 - 0.05)


@pytest.mark.parametrize("action", [1, np.int64(1), np.array(1)])
def test_vector_mode_accepts_integer_arms(action: Any) -> None:
    env = HandMadeBandit(observation_mode="vector")
    env.reset(seed=0)
    assert env.step(action)[4]["arm"] == 1


def test_vector_observation_layout() -> None:
    env = HandMadeBandit(observation_mode="vector")
    observation, _ = env.reset(seed=0)
    np.testing.assert_allclose(observation, [0.5, 0.2, 0, 0, 0, 0], rtol=1e-6)
    observation, *_ = env.step(1)
    np.testing.assert_allclose(observation, [0.1, 0.9, 0, 1, 0.15, 0.25], rtol=1e-6)
    for arm in (0, 0):
        observation, *_ = env.step(arm)
    observation, _, terminated, _, _ = env.step(1)
    assert terminated
    np.testing.assert_allclose(observation, [0, 0, 0, 1, 0.6, 1], rtol=1e-6)


def test_text_shows_the_context_exactly() -> None:
    env = envsuite.make("envsuite/ContextualBandit-v0", horizon=5, context_dim=4)
    observation, info = env.reset(seed=3)
    for _ in range(4):
        shown = re.findall(r"the context is \[([^\]]*)\]", observation)[-1]
        assert [float(v) for v in shown.split(",")] == info["next_context"]
        observation, _, _, _, info = env.step("blue")


def test_contexts_and_rewards_depend_on_the_seed_only() -> None:
    first = envsuite.make("envsuite/ContextualBandit-v0", horizon=20, observation_mode="vector")
    second = envsuite.make("envsuite/ContextualBandit-v0", horizon=20, observation_mode="vector")
    first.reset(seed=5)
    second.reset(seed=5)
    for t in range(20):
        a = first.step(0)[4]
        b = second.step(t % 5)[4]
        assert a["context"] == b["context"]
        if t % 5 == 0:
            assert a["reward"] == b["reward"]
    other_seed = envsuite.make("envsuite/ContextualBandit-v0", horizon=20).reset(seed=6)[1]
    assert other_seed["next_context"] != first.reset(seed=5)[1]["next_context"]


def test_instance_is_drawn_as_documented() -> None:
    env = ContextualBanditEnv(num_arms=6, context_dim=8, horizon=4000)
    env.reset(seed=0)
    np.testing.assert_allclose(np.linalg.norm(env.theta, axis=1), 1.0)
    np.testing.assert_array_equal(env.contexts, np.round(env.contexts, 3))
    assert np.mean(np.sum(env.contexts**2, axis=1)) == pytest.approx(1.0, abs=0.05)
    assert np.std(env.noise) == pytest.approx(0.1, rel=0.05)


def test_linucb_learns_the_arm_parameters() -> None:
    agent = LinUCBAgent(num_arms=2, context_dim=2, alpha=0.0)
    rng = make_generator(0, "test-linucb")
    for _ in range(200):
        x = rng.normal(size=2)
        for arm in (0, 1):
            agent.update(arm, x, float(THETA[arm] @ x))
    theta_hat = np.einsum("kij,kj->ki", agent.a_inverse, agent.b)
    np.testing.assert_allclose(theta_hat, THETA, atol=0.02)
    assert agent.act(None, {"next_context": [0.3, -0.2]}) == 0
    assert agent.act(None, {"next_context": [-0.3, 0.2]}) == 1


def test_linucb_learns_from_the_arm_actually_pulled() -> None:
    env = HandMadeBandit()
    agent = linucb_oracle(env)
    observation, info = env.reset(seed=0)
    agent.reset(seed=0)
    agent.act(observation, info)
    observation, _, _, _, info = env.step("no idea")  # the env pulls green for the agent
    agent.act(observation, info)
    assert np.any(agent.b[1] != 0)
    assert np.all(agent.b[0] == 0)


def mean_regret(env: Any, act: Any, reset: Any, seeds: range) -> tuple[float, float]:
    regrets, successes = [], []
    for seed in seeds:
        observation, info = env.reset(seed=seed)
        reset(seed)
        terminated = False
        while not terminated:
            observation, _, terminated, _, info = env.step(act(observation, info))
        regrets.append(info["cumulative_regret"])
        successes.append(info["success"])
    return float(np.mean(regrets)), float(np.mean(successes))


def test_linucb_has_far_less_regret_than_uniform_random_play() -> None:
    env = envsuite.make("envsuite/ContextualBandit-v0", horizon=200, observation_mode="vector")
    oracle = linucb_oracle(env)
    linucb_regret, linucb_success = mean_regret(env, oracle.act, oracle.reset, range(20))
    rng = make_generator(0, "uniform-agent")
    random_regret, random_success = mean_regret(
        env, lambda observation, info: int(rng.integers(5)), lambda seed: None, range(20)
    )
    assert linucb_regret < 0.3 * random_regret
    assert linucb_success >= 0.9
    assert random_success == 0.0


def test_oracle_plays_the_same_arms_in_text_and_vector_mode() -> None:
    arms = {}
    for mode in ("text", "vector"):
        env = envsuite.make("envsuite/ContextualBandit-v0", horizon=60, observation_mode=mode)
        oracle = linucb_oracle(env)
        observation, info = env.reset(seed=4)
        oracle.reset(seed=4)
        arms[mode] = []
        for _ in range(60):
            action = oracle.act(observation, info)
            assert isinstance(action, str) == (mode == "text")
            observation, _, _, _, info = env.step(action)
            assert info["parse_error"] is None
            arms[mode].append(info["arm"])
    assert arms["text"] == arms["vector"]
    assert len(set(arms["text"])) > 1


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_arms": 1},
        {"context_dim": 0},
        {"horizon": 0},
        {"noise_std": -1.0},
        {"observation_mode": "image"},
        {"text_history": "summary"},
    ],
)
def test_bad_arguments_are_rejected(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        ContextualBanditEnv(**kwargs)
