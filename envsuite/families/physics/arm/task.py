"""What an arm task is: how it lays out an episode, and how it scores the state.

A task knows nothing of MuJoCo. It draws the cube's start and the goal from a generator,
and turns positions into ``(score, success, goal distance)``.

Positions are either ``(x, y, z)`` sequences of Python floats (one env: plain float
arithmetic is several times faster than numpy on 3-vectors) or ``(n, 3)`` numpy arrays
(the batched vector env). The scoring code is written once, on ``+ - * /`` and a square
root — all correctly rounded — with the operations that differ between the two forms
taken from a :class:`Numerics` backend that keeps the same order of operations, so both
forms compute the very same bits.

Progress is a shaped value in [0, 0.8] that grows as the task nears completion; the
reward and score are 1 exactly when the task succeeds and the progress otherwise, so a
reward of 1 always means success and success always gives a reward of 1.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

#: Distance at which the shaping terms are worth one half.
SHAPING_SCALE = 0.05

#: A point: a sequence of three floats, or an ``(n, 3)`` array of ``n`` points.
Point = Any


_sqrt = math.sqrt


def _scalar_distance(a: Point, b: Point) -> float:
    dx, dy, dz = a[0] - b[0], a[1] - b[1], a[2] - b[2]
    return math.sqrt(dx * dx + dy * dy + dz * dz)


def _array_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = a - b
    d *= d
    return np.sqrt(d[:, 0] + d[:, 1] + d[:, 2])  # (x² + y²) + z², as the scalar form


@dataclass(frozen=True)
class Numerics:
    """The operations scoring needs beyond arithmetic, for floats or for arrays.

    Attributes:
        distance: Euclidean distance between points, summed in the order x, y, z.
        height: The z coordinate of points.
        clip01: Clip values into [0, 1].
        select: ``select(condition, a, b)``: a where the condition holds, else b.
    """

    distance: Callable[[Point, Point], Any]
    height: Callable[[Point], Any]
    clip01: Callable[[Any], Any]
    select: Callable[[Any, Any, Any], Any]


#: Python floats (one env).
SCALAR = Numerics(
    distance=_scalar_distance,
    height=lambda point: point[2],
    clip01=lambda x: min(max(x, 0.0), 1.0),
    select=lambda condition, a, b: a if condition else b,
)
#: numpy arrays (a batch of envs).
ARRAY = Numerics(
    distance=_array_distance,
    height=lambda points: points[:, 2],
    clip01=lambda x: np.minimum(np.maximum(x, 0.0), 1.0),
    select=np.where,
)


def distance(a: Point, b: Point, xp: Numerics) -> Any:
    """Euclidean distance, summed in a fixed order (x, y, z)."""
    return xp.distance(a, b)


def planar_distance(a: Point, b: Point) -> float:
    """Euclidean distance in the table's plane (x, y), of two single points."""
    dx, dy = float(a[0] - b[0]), float(a[1] - b[1])
    return math.sqrt(dx * dx + dy * dy)


def nearness(d: Any) -> Any:
    """``s / (s + d)``: 1 at distance 0, one half at :data:`SHAPING_SCALE`, falling to 0."""
    return SHAPING_SCALE / (SHAPING_SCALE + d)


def uniform(rng: np.random.Generator, low: tuple[float, ...], high: tuple[float, ...]) -> Any:
    """A point drawn uniformly from the box ``[low, high]``."""
    return rng.uniform(np.array(low), np.array(high))


class ArmTask:
    """Base of the arm tasks: episode layout and scoring.

    Attributes:
        name: Short name (``reach``, ``push``, ``pick_place``).
        success_distance: The goal distance under which the task counts as solved.
        cube_low: Low corner (x, y) of the cube's start region.
        cube_high: High corner (x, y) of the cube's start region.
        min_travel: Least planar distance between the cube's start and the goal.
        tcp_cube_weight: Weight of the nearness of the TCP to the cube in the progress.
        lift_weight: Weight of the cube's lift (:meth:`lift`) in the progress.
        goal_weight: Weight of the nearness of the achieved goal to the goal.

    Every task's progress is ``tcp_cube_weight × nearness(TCP, cube) + lift_weight × lift
    + goal_weight × nearness(goal distance)``, summed in that order, without the terms
    whose weight is 0: the batched vector env's scorer
    (:class:`~envsuite.families.physics.arm.batch_scoring.BatchScorer`) computes it so,
    and a test holds it to :meth:`evaluate`'s bits.
    """

    name = ""
    success_distance = 0.05
    cube_low: tuple[float, float] = (0.35, -0.15)
    cube_high: tuple[float, float] = (0.55, 0.15)
    min_travel = 0.1
    #: Draws of a layout before giving up (rejections are rare; this never happens).
    max_draws = 1000
    tcp_cube_weight = 0.0
    lift_weight = 0.0
    goal_weight = 0.0

    def sample(self, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Draw the cube's start (x, y) and the goal (x, y, z) from ``rng``.

        Layouts whose goal is too close to its start are drawn again from the same
        generator, so the layout depends on the seed alone.
        """
        for _ in range(self.max_draws):
            cube = uniform(rng, self.cube_low, self.cube_high)
            goal = self.draw_goal(rng)
            if self.acceptable(cube, goal):
                return cube, goal
        raise RuntimeError(f"{self.name}: no acceptable goal in {self.max_draws} draws")

    def draw_goal(self, rng: np.random.Generator) -> np.ndarray:
        """Draw one candidate goal."""
        raise NotImplementedError

    def acceptable(self, cube_xy: np.ndarray, goal: np.ndarray) -> bool:
        """Whether a drawn (cube start, goal) pair makes a real task."""
        return planar_distance(cube_xy, goal) >= self.min_travel

    def achieved(self, tcp: Point, cube: Point) -> Point:
        """What is compared with the goal: the cube's position (the TCP's for Reach)."""
        return cube

    def lift(self, cube: Point, xp: Numerics) -> Any:
        """The cube's lift as a fraction in [0, 1] (tasks with a ``lift_weight``)."""
        raise NotImplementedError

    def progress(self, tcp: Point, cube: Point, goal_distance: Any, xp: Numerics) -> Any:
        """Shaped progress in [0, 0.8] (exactly 0.8 only at the goal itself).

        ``goal_distance`` is the distance from the achieved goal to the goal.
        """
        raise NotImplementedError

    def evaluate(self, tcp: Point, cube: Point, goal: Point, xp: Numerics) -> tuple[Any, Any, Any]:
        """``(score, success, goal distance)`` of the state; the score is 1 iff success."""
        goal_distance = xp.distance(self.achieved(tcp, cube), goal)
        success = goal_distance < self.success_distance
        score = xp.select(success, 1.0, self.progress(tcp, cube, goal_distance, xp))
        return score, success, goal_distance

    def evaluate_point(
        self, tcp: list[float], cube: list[float], goal: list[float]
    ) -> tuple[float, bool, float]:
        """``evaluate(tcp, cube, goal, SCALAR)`` for one env's floats, written out.

        The single env's step scores with this: the same operations in the same order as
        :meth:`evaluate` with the progress every task has (see the class docstring; the
        lift is the task's own :meth:`lift`), so the same bits, without a call per
        distance, nearness and weighted term. A test holds it to :meth:`evaluate`.
        """
        tx, ty, tz = tcp
        cx, cy, cz = cube
        gx, gy, gz = goal
        ax, ay, az = self.achieved(tcp, cube)
        dx, dy, dz = ax - gx, ay - gy, az - gz
        goal_distance = _sqrt(dx * dx + dy * dy + dz * dz)
        if goal_distance < self.success_distance:
            return 1.0, True, goal_distance
        progress: Any = None
        if self.tcp_cube_weight:
            dx, dy, dz = tx - cx, ty - cy, tz - cz
            near_cube = SHAPING_SCALE / (SHAPING_SCALE + _sqrt(dx * dx + dy * dy + dz * dz))
            progress = self.tcp_cube_weight * near_cube
        if self.lift_weight:
            lift = self.lift_weight * self.lift(cube, SCALAR)
            progress = lift if progress is None else progress + lift
        if self.goal_weight:
            near_goal = self.goal_weight * (SHAPING_SCALE / (SHAPING_SCALE + goal_distance))
            progress = near_goal if progress is None else progress + near_goal
        if progress is None:  # a task without weights: its own progress, as evaluate's
            progress = self.progress(tcp, cube, goal_distance, SCALAR)
        return progress, False, goal_distance
