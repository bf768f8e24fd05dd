from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import envsuite
from envsuite.env_base import InvalidAction
from envsuite.families.decision.experts import (
    ExpertsEnv,
    action_names,
    hedge_bound,
    parse_text_play,
)
from envsuite.families.decision.hedge import HedgeAgent
from envsuite.families.decision.hedge_oracle import hedge_oracle

# Loss vectors of a fixed three-round, two-action sequence.
LOSSES = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]])


class FixedLosses(ExpertsEnv):
    def __init__(self, losses: np.ndarray = LOSSES, **kwargs: Any) -> None:
        self.fixed = np.asarray(losses, dtype=float)
        kwargs.setdefault("observation_mode", "vector")
        super().__init__(num_actions=self.fixed.shape[1], horizon=len(self.fixed), **kwargs)

    def draw_losses(self) -> np.ndarray:
        return self.fixed.copy()


def play(env: ExpertsEnv, actions: list[Any], seed: int = 0) -> list[tuple[float, bool, dict]]:
    env.reset(seed=seed)
    steps = []
    for action in actions:
        _, reward, terminated, _, info = env.step(action)
        steps.append((reward, terminated, info))
    return steps


def test_uniform_play_against_a_fixed_sequence() -> None:
    steps = play(FixedLosses(), [[0.5, 0.5]] * 3)
    # Agent loses 0.5 a round; the actions' totals end at (2, 1).
    assert [r for r, _, _ in steps] == [-0.5, -0.5, -0.5]
    assert [i["cumulative_regret"] for _, _, i in steps] == pytest.approx([0.5, 0.0, 0.5])
    assert [i["regret"] for _, _, i in steps] == pytest.approx([0.5, -0.5, 0.5])
    assert [i["dynamic_regret"] for _, _, i in steps] == pytest.approx([0.5, 1.0, 1.5])
    assert [i["best_action"] for _, _, i in steps] == [1, 0, 1]
    final = steps[-1][2]
    assert final["regret_bound"] == pytest.approx(math.sqrt(3 * math.log(2) / 2))
    assert final["success"] is True  # 0.5 <= 1.0196
    assert final["score"] == pytest.approx(1 - 0.5 / 3)
    assert [t for _, t, _ in steps] == [False, False, True]


def test_always_the_first_action_against_a_fixed_sequence() -> None:
    steps = play(FixedLosses(), [[1, 0]] * 3)
    assert [r for r, _, _ in steps] == [-1.0, 0.0, -1.0]
    final = steps[-1][2]
    assert final["cumulative_regret"] == pytest.approx(1.0)  # 2 - min(2, 1)
    assert final["dynamic_regret"] == pytest.approx(2.0)
    assert final["success"] is True
    longer = FixedLosses(np.tile(LOSSES[:1], (8, 1)))  # action A loses every round
    final = play(longer, [[1, 0]] * 8)[-1][2]
    assert final["cumulative_regret"] == pytest.approx(8.0)
    assert final["regret_bound"] == pytest.approx(math.sqrt(8 * math.log(2) / 2))
    assert final["success"] is False
    assert final["score"] == 0.0


def test_info_shows_the_losses_and_the_normalised_play() -> None:
    losses = np.array([[0.2, 0.4, 1.0], [0.0, 0.5, 0.5]])
    reward, _, info = play(FixedLosses(losses), [[2, 1, 1]])[0]
    assert info["loss_vector"] == [0.2, 0.4, 1.0]
    assert info["play"] == pytest.approx([0.5, 0.25, 0.25])
    assert info["expected_loss"] == pytest.approx(0.1 + 0.1 + 0.25)
    assert reward == pytest.approx(-0.45)
    assert info["parse_error"] is None


def test_vector_observation_is_last_losses_and_round_fraction() -> None:
    env = FixedLosses()
    observation, _ = env.reset(seed=0)
    np.testing.assert_array_equal(observation, np.float32([0, 0, 0]))
    observation, *_ = env.step(np.float32([0.3, 0.7]))
    np.testing.assert_allclose(observation, [1, 0, 1 / 3], rtol=1e-6)
    assert env.observation_space.contains(observation)


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("0.2, 0.3, 0.5", [0.2, 0.3, 0.5]),
        ("2 3 5", [0.2, 0.3, 0.5]),
        ("A: 1, B: 1, C: 2", [0.25, 0.25, 0.5]),
        ("1e-1, 1e-1, 2e-1.", [0.25, 0.25, 0.5]),
        ("B", [0, 1, 0]),
        (" 'c'. ", [0, 0, 1]),
        ("**b**", [0, 1, 0]),
        ("0", [1, 0, 0]),
        ("2", [0, 0, 1]),
    ],
)
def test_text_answers(answer: str, expected: list[float]) -> None:
    np.testing.assert_allclose(parse_text_play(answer, ("A", "B", "C")), expected)


@pytest.mark.parametrize(
    "answer", ["0.5, 0.5", "-1, 1, 1", "0, 0, 0", "D", "3", "nan, 1, 1", "I choose B", ""]
)
def test_malformed_text_answers_are_rejected(answer: str) -> None:
    with pytest.raises(InvalidAction):
        parse_text_play(answer, ("A", "B", "C"))


def test_malformed_text_answer_costs_the_largest_loss() -> None:
    losses = np.array([[0.2, 0.9, 0.9], [0.5, 0.5, 0.0]])
    env = FixedLosses(losses, observation_mode="text")
    env.reset(seed=0)
    observation, reward, _, _, info = env.step("0.5, 0.5")
    assert reward == pytest.approx(-0.9)
    assert info["play"] == [0.0, 1.0, 0.0]  # the lowest index among the largest losses
    assert "expected 3 numbers" in info["parse_error"]
    assert "could not be used (expected 3 numbers" in observation
    _, reward, terminated, _, info = env.step("C")
    assert reward == 0.0
    assert terminated
    assert info["parse_error"] is None


@pytest.mark.parametrize(
    "action",
    [
        [-0.1, 1.1],
        [0.0, 0.0],
        [float("nan"), 1.0],
        [float("inf"), 1.0],
        [1.0, 0.0, 0.0],
        np.array([True, False]),
        "0.5, 0.5",
        0.5,
        None,
    ],
)
def test_malformed_vector_actions_cost_the_largest_loss(action: Any) -> None:
    reward, _, info = play(FixedLosses(), [action])[0]
    assert info["parse_error"]
    assert reward == -1.0
    assert info["play"] == [1.0, 0.0]


@pytest.mark.parametrize(
    ("weights", "expected"),
    [([3, 1], [0.75, 0.25]), ([1e308, 1e308], [0.5, 0.5]), ([5e-324, 0.0], [1.0, 0.0])],
)
def test_vector_weights_of_any_scale_are_normalised(
    weights: list[float], expected: list[float]
) -> None:
    _, _, info = play(FixedLosses(), [weights])[0]
    assert info["parse_error"] is None
    assert info["play"] == pytest.approx(expected)


def test_adversarial_hits_the_heaviest_action_of_the_last_round() -> None:
    env = ExpertsEnv(
        num_actions=3, horizon=5, loss_sequence="adversarial", observation_mode="vector"
    )
    steps = play(env, [[0.1, 0.7, 0.2], [0.4, 0.4, 0.2], [0.2, 0.2, 0.6], "bad", [1, 1, 1]])
    losses = [info["loss_vector"] for _, _, info in steps]
    assert losses[0] == [1.0, 0.0, 0.0]  # uniform play assumed before round 1
    assert losses[1] == [0.0, 1.0, 0.0]
    assert losses[2] == [1.0, 0.0, 0.0]  # a tie goes to the lowest index
    assert losses[3] == [0.0, 0.0, 1.0]
    assert steps[3][2]["play"] == [0.0, 0.0, 1.0]  # the penalty play counts as the play
    assert losses[4] == [0.0, 0.0, 1.0]


def test_oblivious_sequences_do_not_depend_on_the_play() -> None:
    for sequence in ("iid", "trend", "sinusoidal"):
        a = play(ExpertsEnv(loss_sequence=sequence, horizon=30), ["A"] * 30, seed=9)
        b = play(ExpertsEnv(loss_sequence=sequence, horizon=30), ["0.1, 2, 1, 0, 5"] * 30, seed=9)
        assert [s[2]["loss_vector"] for s in a] == [s[2]["loss_vector"] for s in b]
        c = play(ExpertsEnv(loss_sequence=sequence, horizon=30), ["A"] * 30, seed=10)
        assert [s[2]["loss_vector"] for s in a] != [s[2]["loss_vector"] for s in c]


def drawn_losses(seed: int, **kwargs: Any) -> np.ndarray:
    env = ExpertsEnv(observation_mode="vector", **kwargs)
    env.reset(seed=seed)
    return env.losses


def test_loss_sequences_have_their_documented_shape() -> None:
    iid = drawn_losses(0, loss_sequence="iid", horizon=2000)
    assert set(np.unique(iid)) <= {0.0, 1.0}
    assert iid.mean(axis=0).std() > 0.1  # each action has its own mean
    for seed in range(20):
        trend = drawn_losses(seed, loss_sequence="trend", horizon=50, num_actions=4)
        steps = np.diff(trend, axis=0)
        np.testing.assert_allclose(steps, np.broadcast_to(steps[0], steps.shape), atol=1e-12)
        assert np.argmin(trend[0]) != np.argmin(trend[-1])
    sine = drawn_losses(1, loss_sequence="sinusoidal", horizon=120, period=40)
    np.testing.assert_allclose(sine[40:], sine[:-40], atol=1e-12)
    assert sine.min() >= 0.0
    assert sine.max() <= 1.0


def test_hedge_plays_exponential_weights() -> None:
    agent = HedgeAgent(num_actions=2, horizon=8)
    eta = math.sqrt(8 * math.log(2) / 8)
    np.testing.assert_allclose(agent.act(None, {}), [0.5, 0.5])
    play_ = agent.act(None, {"loss_vector": [1.0, 0.0]})
    expected = np.array([math.exp(-eta), 1.0]) / (1 + math.exp(-eta))
    np.testing.assert_allclose(play_, expected, rtol=1e-6)
    agent.reset()
    np.testing.assert_allclose(agent.act(None, {}), [0.5, 0.5])


def final_info(env: Any, agent: Any, seed: int) -> dict:
    observation, info = env.reset(seed=seed)
    agent.reset(seed)
    terminated = False
    while not terminated:
        observation, _, terminated, _, info = env.step(agent.act(observation, info))
    return info


class FollowTheLeader:
    def __init__(self, num_actions: int) -> None:
        self.totals = np.zeros(num_actions)

    def reset(self, seed: int | None = None) -> None:
        self.totals[:] = 0

    def act(self, observation: Any, info: dict) -> np.ndarray:
        if "loss_vector" in info:
            self.totals += info["loss_vector"]
        return np.eye(len(self.totals), dtype=np.float32)[np.argmin(self.totals)]


@pytest.mark.parametrize(("num_actions", "horizon"), [(2, 100), (5, 300), (10, 200)])
def test_hedge_stays_below_its_bound_where_follow_the_leader_does_not(
    num_actions: int, horizon: int
) -> None:
    env = envsuite.make(
        "envsuite/Experts-v0",
        num_actions=num_actions,
        horizon=horizon,
        loss_sequence="adversarial",
        observation_mode="vector",
    )
    info = final_info(env, hedge_oracle(env), seed=0)
    assert info["cumulative_regret"] <= hedge_bound(horizon, num_actions)
    assert info["success"] is True
    info = final_info(env, FollowTheLeader(num_actions), seed=0)
    assert info["cumulative_regret"] > 2 * hedge_bound(horizon, num_actions)
    assert info["success"] is False


@pytest.mark.parametrize("sequence", ["iid", "trend", "sinusoidal", "adversarial"])
def test_hedge_succeeds_in_text_mode_on_every_sequence(sequence: str) -> None:
    env = envsuite.make("envsuite/Experts-v0", horizon=100, loss_sequence=sequence)
    for seed in range(3):
        info = final_info(env, hedge_oracle(env), seed)
        assert info["parse_error"] is None
        assert info["success"] is True
        assert 0.0 <= info["score"] <= 1.0


def test_uniform_play_fails_on_iid_losses() -> None:
    env = envsuite.make("envsuite/Experts-v0", horizon=300, observation_mode="vector")
    uniform = np.full(5, 0.2, dtype=np.float32)
    results = [play(env, [uniform] * 300, seed=seed)[-1][2]["success"] for seed in range(10)]
    assert not any(results)


def test_action_names_continue_past_z() -> None:
    assert action_names(3) == ("A", "B", "C")
    assert action_names(28)[-3:] == ("Z", "AA", "AB")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_actions": 1},
        {"horizon": 0},
        {"loss_sequence": "random"},
        {"period": 1},
        {"observation_mode": "image"},
    ],
)
def test_bad_arguments_are_rejected(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        ExpertsEnv(**kwargs)
