"""Task rules: layouts from the seed, reward 1 exactly on success, scalar = batched bits."""

from __future__ import annotations

import os

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("mujoco")

from envsuite.families.physics.arm import observation
from envsuite.families.physics.arm.batch_scoring import BatchScorer
from envsuite.families.physics.arm.pick_place import PickPlaceTask
from envsuite.families.physics.arm.push import PushTask
from envsuite.families.physics.arm.reach import ReachTask
from envsuite.families.physics.arm.task import ARRAY, SCALAR, ArmTask, planar_distance
from envsuite.seeding import make_generator

TASKS = [ReachTask(), PushTask(), PickPlaceTask()]
IDS = [t.name for t in TASKS]


def random_states(seed: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = make_generator(seed, "task-states")
    tcp = rng.uniform([0.2, -0.4, 0.0], [0.7, 0.4, 0.35], (n, 3))
    cube = rng.uniform([0.2, -0.4, 0.0], [0.7, 0.4, 0.3], (n, 3))
    goal = rng.uniform(observation.GOAL_LOW, observation.GOAL_HIGH, (n, 3))
    # Put some states on or near the goal so both sides of success are covered.
    near = goal + rng.normal(0.0, 0.03, (n, 3))
    tcp[: n // 3] = near[: n // 3]
    cube[n // 3 : 2 * n // 3] = near[n // 3 : 2 * n // 3]
    return tcp, cube, goal


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_layouts_come_from_the_generator_and_respect_the_ranges(task: ArmTask):
    layouts = [task.sample(make_generator(seed, "layout")) for seed in range(200)]
    again = [task.sample(make_generator(seed, "layout")) for seed in range(200)]
    for (cube, goal), (cube2, goal2) in zip(layouts, again, strict=True):
        assert cube.tobytes() == cube2.tobytes() and goal.tobytes() == goal2.tobytes()
        assert np.all(cube >= task.cube_low) and np.all(cube <= task.cube_high)
        assert np.all(goal >= observation.GOAL_LOW) and np.all(goal <= observation.GOAL_HIGH)
        if task.name != "reach":
            assert planar_distance(cube, goal) >= task.min_travel
    assert len({goal.tobytes() for _, goal in layouts}) == len(layouts)


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_score_is_one_exactly_on_success(task: ArmTask):
    tcp, cube, goal = random_states(1, 3000)
    score, success, goal_distance = task.evaluate(tcp, cube, goal, ARRAY)
    assert success.any() and not success.all()
    assert np.array_equal(score == 1.0, success)
    assert np.all((score >= 0.0) & (score <= 1.0))
    assert np.all(score[~success] <= 0.8)
    achieved = tcp if task.name == "reach" else cube
    assert np.array_equal(success, np.linalg.norm(achieved - goal, axis=1) < 0.05)
    assert np.allclose(goal_distance, np.linalg.norm(achieved - goal, axis=1))


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_scalar_and_array_scoring_give_the_same_bits(task: ArmTask):
    tcp, cube, goal = random_states(2, 500)
    batched = task.evaluate(tcp, cube, goal, ARRAY)
    for i in range(len(tcp)):
        one = task.evaluate(tcp[i].tolist(), cube[i].tolist(), goal[i].tolist(), SCALAR)
        assert [type(v) for v in one] == [float, bool, float]
        assert one[0] == batched[0][i] and one[1] == batched[1][i] and one[2] == batched[2][i]


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_the_batch_scorer_gives_the_bits_of_evaluate(task: ArmTask):
    tcp, cube, goal = random_states(3, 300)
    heights = [0.02, 0.05, 0.5, -0.01, 0.07, 0.1, 0.2, 1.0, 0.021, 0.0, 3.0, 0.03]
    cube[: len(heights), 2] = heights  # lifts below, inside and beyond the lift's range
    scorer = BatchScorer(task, tcp, cube, goal)
    for _ in range(2):  # buffers reused: the second call must not see the first's values
        ours = scorer.evaluate()
        expected = task.evaluate(tcp, cube, goal, ARRAY)
        for mine, theirs in zip(ours, expected, strict=True):
            assert mine.dtype == theirs.dtype and mine.tobytes() == theirs.tobytes()
        tcp += 0.01
        cube -= 0.005


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_the_batch_scorer_returns_new_arrays_that_later_calls_leave_alone(task: ArmTask):
    tcp, cube, goal = random_states(4, 60)
    scorer = BatchScorer(task, tcp, cube, goal)
    first = scorer.evaluate()
    kept = [a.copy() for a in first]
    assert first[1].any() and not first[1].all()  # both sides of success
    tcp += 0.02
    cube -= 0.01
    second = scorer.evaluate()
    for mine, before in zip(first, kept, strict=True):
        assert mine.tobytes() == before.tobytes()
    assert second[0].tobytes() != kept[0].tobytes()


def test_shaping_rewards_getting_closer():
    task = PushTask()
    goal = np.array([[0.5, 0.2, 0.02]])
    far = task.evaluate(np.array([[0.4, 0.0, 0.1]]), np.array([[0.4, 0.0, 0.02]]), goal, ARRAY)
    nearer = task.evaluate(np.array([[0.45, 0.1, 0.1]]), np.array([[0.45, 0.1, 0.02]]), goal, ARRAY)
    assert nearer[0][0] > far[0][0]
    lifted = PickPlaceTask().evaluate(
        np.array([[0.4, 0.0, 0.08]]), np.array([[0.4, 0.0, 0.08]]), goal, ARRAY
    )
    resting = PickPlaceTask().evaluate(
        np.array([[0.4, 0.0, 0.08]]), np.array([[0.4, 0.0, 0.02]]), goal, ARRAY
    )
    assert lifted[0][0] > resting[0][0]


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_evaluate_point_is_scalar_evaluate_to_the_bit(task: ArmTask):
    tcp, cube, goal = random_states(4, 3000)
    cube[:50, 2] = np.linspace(-0.1, 0.5, 50)  # lifts below 0, inside [0, 1] and above 1
    tcp[50:60] = np.nan  # NaN distances score as evaluate scores them
    successes = 0
    for t, c, g in zip(tcp.tolist(), cube.tolist(), goal.tolist(), strict=True):
        score, success, goal_distance = task.evaluate_point(t, c, g)
        expected = task.evaluate(t, c, g, SCALAR)
        assert (type(score), type(success), type(goal_distance)) == (float, bool, float)
        assert np.array([score, goal_distance]).tobytes() == np.array(expected[::2]).tobytes()
        assert success == expected[1]
        successes += success
    assert 0 < successes < len(tcp)
