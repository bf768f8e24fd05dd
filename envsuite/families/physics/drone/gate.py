"""DroneGate-v0: fly through a course of square gates, in order."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from envsuite.arguments import integer_in, real_in
from envsuite.families.physics.drone.actions import Guidance
from envsuite.families.physics.drone.crashes import GATE_FRAME
from envsuite.families.physics.drone.drone_env import CRASH_PENALTY, DroneEnv, State, StepOutcome
from envsuite.families.physics.drone.models import get_model
from envsuite.families.physics.drone.observations import DEFAULT_IMAGE_SIZE
from envsuite.families.physics.drone.rotations import quaternion_from_euler
from envsuite.families.physics.drone.vector_math import distance3, dot3, norm3

#: Reward per metre of progress towards the next gate.
PROGRESS_REWARD = 5.0
#: Reward for passing a gate.
GATE_REWARD = 10.0
#: Width of a gate's frame bars (m).
GATE_BAR = 0.05
#: Distance before a gate where the oracle lines up, and after it where it aims (m).
APPROACH = 0.6
EXIT = 0.5
#: Farthest the oracle's target lies from the drone (m): a carrot, so that a new target
#: after a gate never asks for a violent manoeuvre.
CARROT = 1.0
#: Gates stay this far inside the flight box (m).
COURSE_MARGIN = 1.5
#: Least horizontal distance between a gate and the start or any other gate (m).
GATE_SPACING = 1.2
#: Widest gate opening (m): two gates' frames (opening plus bars) then never touch.
MAX_GATE_OPENING = round(GATE_SPACING - 2.0 * GATE_BAR, 9)
#: Distance between consecutive gates (m).
STEP_RANGE = (1.5, 2.5)
#: Turn draws per gate (the first TURN_WIDENS up to ±45°, the rest up to ±90°).
TURN_DRAWS = 50
TURN_WIDENS = 20
#: Courses drawn before falling back to a ring course.
COURSE_ATTEMPTS = 200
#: Least radius of the fallback ring course (m).
RING_RADIUS = 2.5
#: Default time limit: BASE_SEC plus SEC_PER_GATE per gate (12 s for 3 gates).
BASE_SEC = 3.0
SEC_PER_GATE = 3.0
#: Most gates per course.
MAX_GATES = 10


def _clear(point: np.ndarray, placed: Sequence[np.ndarray]) -> bool:
    """Whether ``point`` lies :data:`GATE_SPACING` or more (horizontally) from all ``placed``."""
    return all(
        math.hypot(point[0] - other[0], point[1] - other[1]) >= GATE_SPACING for other in placed
    )


def _random_course(
    rng: np.random.Generator, start: np.ndarray, num_gates: int, limit: float
) -> tuple[np.ndarray, np.ndarray] | None:
    """One try at a random course (horizontal only); None when a gate finds no place."""
    heading = float(rng.uniform(-math.pi, math.pi))
    previous = start
    placed = [start]
    headings = []
    for gate in range(num_gates):
        previous_heading = heading
        for draw in range(TURN_DRAWS):
            widest = math.pi / 4 if draw < TURN_WIDENS else math.pi / 2
            turn = float(rng.uniform(-widest, widest)) if gate else 0.0
            heading = previous_heading + turn
            step = float(rng.uniform(*STEP_RANGE))
            point = previous + step * np.array([math.cos(heading), math.sin(heading), 0.0])
            if max(abs(point[0]), abs(point[1])) <= limit and _clear(point, placed):
                break
        else:
            return None
        placed.append(point)
        headings.append(heading)
        previous = point
    return np.array(placed[1:]), np.array(headings)


def _ring_course(
    rng: np.random.Generator, num_gates: int, limit: float
) -> tuple[np.ndarray, np.ndarray]:
    """Gates evenly around a circle about the box's middle, flown anticlockwise."""
    radius = max(RING_RADIUS, GATE_SPACING / (2.0 * math.sin(math.pi / max(num_gates, 2))))
    radius = min(radius, limit)
    first = float(rng.uniform(-math.pi, math.pi))
    angles = first + 2.0 * math.pi * np.arange(num_gates) / num_gates
    centres = np.stack([radius * np.cos(angles), radius * np.sin(angles), np.zeros(num_gates)], 1)
    return centres, angles + math.pi / 2


def draw_course(
    rng: np.random.Generator,
    start: np.ndarray,
    num_gates: int,
    half_width: float,
    attempts: int = COURSE_ATTEMPTS,
) -> tuple[np.ndarray, np.ndarray]:
    """Draw a course: gate centres ``(num_gates, 3)`` and headings ``(num_gates,)`` (rad).

    The first gate stands 1.5–2.5 m from ``start`` along a random heading, each next one
    1.5–2.5 m beyond the previous one, its heading turned by up to ±45° (±90° after 20
    draws). A turn is redrawn (up to 50 times) until its gate lies
    :data:`COURSE_MARGIN` inside the box and :data:`GATE_SPACING` (horizontally) from the
    start and every earlier gate; a gate that finds no place restarts the course. After
    ``attempts`` courses (practically never) the gates stand evenly on a ring of radius
    2.5 m about the box's middle. Heights are uniform in 0.7–1.6 m. Every draw comes
    from ``rng``.

    Args:
        rng: The env's generator.
        start: The drone's start position (within 0.43 m of the vertical axis).
        num_gates: Gates in the course, 1 to :data:`MAX_GATES`.
        half_width: Half the flight box's side (m).
        attempts: Random courses to try before the ring.

    Returns:
        The gates' centres and headings; every two centres, and each centre and the
        start, lie at least :data:`GATE_SPACING` apart horizontally.
    """
    limit = half_width - COURSE_MARGIN
    course = None
    for _ in range(attempts):
        course = _random_course(rng, start, num_gates, limit)
        if course is not None:
            break
    centres, headings = course if course is not None else _ring_course(rng, num_gates, limit)
    centres[:, 2] = rng.uniform(0.7, 1.6, num_gates)
    return centres, headings


class DroneGateEnv(DroneEnv):
    """Fly a quadcopter through a course of gates, in order.

    Description:
        Each episode draws a course of ``num_gates`` square gates (orange frames with
        ``gate_opening``-wide openings): the drone starts at rest near (0, 0, 1) m, the
        first gate stands 1.5–2.5 m ahead along a random heading, and each next gate
        1.5–2.5 m beyond the previous one, its heading turned by up to 45°, at a height
        of 0.7–1.6 m. A turn is redrawn (up to ±90° after 20 draws) until its gate lies
        1.5 m inside the flight box and 1.2 m from the start and every earlier gate; when
        50 draws find no place, the whole course is redrawn. Every two gates (and each
        gate and the start) therefore stand at least 1.2 m apart horizontally, and gate
        frames never touch. (After 200 redrawn courses, which practically never happens,
        the gates stand evenly on a ring of radius 2.5 m about the box's middle.) See
        :func:`draw_course`.
        Gates face along their heading and must be flown through in that
        direction. The gates are static PyBullet bodies (the drone can hit them), and
        crossings are judged geometrically in every physics mode: the drone's centre must
        cross a gate's plane at least its collision radius inside the opening; crossing
        the frame is a crash.

    Observation:
        ``kin``: the 16 kinematic values, then the next gate's centre minus the position
        (3), the next gate's heading as a unit vector (3), the gate after it minus the
        position (3; zeros when there is none) and the fraction of gates passed (1); then
        the last ``action_buffer`` actions. ``rgb`` / ``kin_rgb``: the onboard camera sees
        the gates.

    Action:
        As DroneHover-v0 (``rpm``, ``one_d_rpm``, ``pid``, ``vel`` or ``ctbr``); a
        malformed action stops the motors for the step, costs 1 reward and sets
        ``info["parse_error"]``.

    Reward:
        5 per metre of progress towards the next gate's centre (negative when moving away),
        +10 for each gate passed, −10 on the step of a crash. ``info`` holds
        ``gates_passed`` and ``gate_distance``.

    Termination:
        Terminates when every gate is passed (``info["success"]`` True) or on a crash
        (touching the ground or a gate's frame, tilting past 75°, leaving
        ``|x|, |y| ≤ 8 m, z ≤ 2.5 m``). Truncates after ``episode_len_sec`` (not a
        success). The last info holds ``score`` (fraction of gates passed) and ``crash``.

    Arguments:
        drone_model: ``"cf2x"``, ``"cf2p"`` or ``"racer"``.
        physics: A physics mode (see DroneHover-v0).
        physics_freq: Physics steps per second (a multiple of ``ctrl_freq``).
        ctrl_freq: Actions per second.
        action_type: ``"rpm"``, ``"pid"``, ``"vel"`` or ``"ctbr"`` (``"one_d_rpm"``
            cannot steer through gates and is refused).
        observation_type: ``"kin"``, ``"rgb"`` or ``"kin_rgb"``.
        action_buffer: Number of past actions appended to ``kin`` observations, an int
            in [0, 100].
        image_size: Onboard camera ``(width, height)``, ints in [8, 1024].
        num_gates: Gates per course, an int in [1, 10].
        gate_opening: Side of the square openings, from 2.5 collision radii to 1.1 m (so
            that frames 1.2 m apart never touch); None: 0.5 m, or five collision radii if
            larger (0.85 m for the racer).
        episode_len_sec: Time limit, in [1 / ctrl_freq, 3600] s; None (the default):
            3 s plus 3 s per gate (12 s for 3 gates, 33 s for 10), enough for the oracle
            to fly any course. A shorter limit is allowed but may truncate the course.
        domain_randomization: As DroneHover-v0.
        wind: As DroneHover-v0.
        render_mode: ``"rgb_array"`` (a chase camera) or None.

    Version history:
        v0: Initial version.
    """

    task_size = 10
    half_width = 8.0
    record_curves = ("gate_distance",)
    record_metrics = ("gates_passed",)

    def __init__(
        self,
        drone_model: str = "cf2x",
        physics: str = "pyb",
        physics_freq: int = 240,
        ctrl_freq: int = 30,
        action_type: str = "rpm",
        observation_type: str = "kin",
        action_buffer: int = 0,
        image_size: Sequence[int] = DEFAULT_IMAGE_SIZE,
        num_gates: int = 3,
        gate_opening: float | None = None,
        episode_len_sec: float | None = None,
        domain_randomization: Any = None,
        wind: Any = None,
        render_mode: str | None = None,
    ) -> None:
        num_gates = integer_in("num_gates", num_gates, 1, MAX_GATES)
        if action_type == "one_d_rpm":
            raise ValueError("DroneGate-v0 needs lateral control; one_d_rpm cannot steer")
        radius = get_model(drone_model).collision_radius
        if gate_opening is None:
            opening = min(max(0.5, 5.0 * radius), MAX_GATE_OPENING)
        else:
            opening = real_in(
                "gate_opening",
                gate_opening,
                2.5 * radius,
                MAX_GATE_OPENING,
                unit=f"m for {drone_model}",
            )
        if episode_len_sec is None:
            episode_len_sec = BASE_SEC + SEC_PER_GATE * num_gates
        super().__init__(
            drone_model=drone_model,
            physics=physics,
            physics_freq=physics_freq,
            ctrl_freq=ctrl_freq,
            action_type=action_type,
            observation_type=observation_type,
            action_buffer=action_buffer,
            image_size=image_size,
            episode_len_sec=episode_len_sec,
            domain_randomization=domain_randomization,
            wind=wind,
            render_mode=render_mode,
            num_gates=num_gates,
            gate_opening=opening,
        )
        self.num_gates = num_gates
        self.gate_opening = opening
        self.centres = np.zeros((num_gates, 3))
        self.headings = np.zeros(num_gates)
        self.normals = np.zeros((num_gates, 3))
        self.passed = 0
        self.previous_position = np.zeros(3)
        self.previous_distance = 0.0
        self.start_yaw = 0.0

    # -- the course --------------------------------------------------------------------
    def task_reset(self) -> tuple[np.ndarray, float]:
        """Draw the course and put the gates in place."""
        rng = self.np_random
        start = np.array([rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3), rng.uniform(0.9, 1.1)])
        centres, headings = draw_course(rng, start, self.num_gates, self.half_width)
        for gate, (point, heading) in enumerate(zip(centres, headings, strict=True)):
            self.centres[gate] = point
            self.headings[gate] = heading
            self.normals[gate] = (math.cos(heading), math.sin(heading), 0.0)
            # The gate's URDF opening faces its +y axis: yaw it by heading − 90°.
            quaternion = quaternion_from_euler(0.0, 0.0, float(heading) - math.pi / 2)
            self.world.place(self.world.gates[gate], point.tolist(), quaternion)
        self.passed = 0
        self.previous_position = start.copy()
        self.previous_distance = distance3(self.centres[0], start)
        self.start_yaw = float(self.headings[0])
        return start, self.start_yaw

    def task_info(self) -> dict[str, Any]:
        """The gates' centres and headings."""
        return {
            "gate_centres": self.centres.tolist(),
            "gate_headings": self.headings.tolist(),
            "gate_opening": self.gate_opening,
        }

    def task_features(self, state: State) -> Sequence[float]:
        """Next gate, its heading, the gate after it, the fraction passed."""
        position = np.asarray(state[0])
        index = min(self.passed, self.num_gates - 1)
        following = (
            self.centres[index + 1] - position if index + 1 < self.num_gates else np.zeros(3)
        )
        return (
            *(self.centres[index] - position),
            *self.normals[index],
            *following,
            self.passed / self.num_gates,
        )

    # -- crossings ---------------------------------------------------------------------
    def _crossing(self, gate: int, start: np.ndarray, end: np.ndarray) -> str | None:
        """``"pass"``, ``"frame"`` or None for the segment start→end and one gate."""
        centre, normal = self.centres[gate], self.normals[gate]
        before = float(dot3(start - centre, normal))
        after = float(dot3(end - centre, normal))
        if (before < 0.0) == (after < 0.0):
            return None
        point = start + (end - start) * (before / (before - after))
        lateral = abs(float(dot3(point - centre, (-normal[1], normal[0], 0.0))))
        vertical = abs(float(point[2] - centre[2]))
        radius = self.model.collision_radius
        inner = 0.5 * self.gate_opening - radius
        outer = 0.5 * self.gate_opening + GATE_BAR + radius
        if lateral <= inner and vertical <= inner:
            return "pass" if before < 0.0 else None
        if lateral <= outer and vertical <= outer:
            return "frame"
        return None

    def task_step(self, state: State) -> StepOutcome:
        """Progress and gate rewards; end on the last gate, a crash, or the time limit."""
        position = np.asarray(state[0], dtype=np.float64)
        reward = 0.0
        frame_hit = False
        for gate in range(self.num_gates):
            crossing = self._crossing(gate, self.previous_position, position)
            if crossing == "frame":
                frame_hit = True
            elif crossing == "pass" and gate == self.passed:
                self.passed += 1
                reward += GATE_REWARD
                if self.passed < self.num_gates:
                    self.previous_distance = distance3(self.centres[self.passed], position)
        self.previous_position = position
        index = min(self.passed, self.num_gates - 1)
        distance = distance3(self.centres[index], position)
        if self.passed < self.num_gates:
            reward += PROGRESS_REWARD * (self.previous_distance - distance)
            self.previous_distance = distance
        info: dict[str, Any] = {"gates_passed": self.passed, "gate_distance": distance}
        crash = self.crashed(state)
        if crash is None and frame_hit:
            crash = self.crash = GATE_FRAME
        if crash is not None:
            info.update(self._final(success=False))
            return CRASH_PENALTY, True, False, info
        if self.passed == self.num_gates:
            info.update(self._final(success=True))
            return reward, True, False, info
        if self.steps >= self.episode_steps:
            info.update(self._final(success=False))
            return reward, False, True, info
        return reward, False, False, info

    def _final(self, success: bool) -> dict[str, Any]:
        return {"success": success, "score": self.passed / self.num_gates, "crash": self.crash}

    def guidance(self, drone: int = 0) -> Guidance:
        """Line up on the next gate, then fly through its centre to a point beyond it.

        Aims beyond the gate when the straight line there crosses the gate plane within a
        quarter of the opening from the centre; otherwise at the lining-up point before
        the gate.
        """
        index = min(self.passed, self.num_gates - 1)
        centre, normal = self.centres[index], self.normals[index]
        position = self.previous_position
        along = float(dot3(position - centre, normal))
        offset = norm3((position - centre) - along * normal)
        beyond = centre + EXIT * normal
        if along < 0.0 and offset * EXIT / (EXIT - along) < 0.25 * self.gate_opening:
            target = beyond
        else:
            target = centre - APPROACH * normal
        reach = distance3(target, position)
        if reach > CARROT:
            target = position + (target - position) * (CARROT / reach)
        # The heading is held: a drone flies sideways as well as forwards.
        return Guidance((float(target[0]), float(target[1]), float(target[2])), yaw=self.start_yaw)
