"""The machinery every single-drone task shares: world, physics, actions, observations.

A task (hover, waypoints, gates) subclasses :class:`DroneEnv` and fills in four abstract hooks,
template-method style: ``task_reset`` (place the drone and draw the task), ``task_features``
(its part of the ``kin`` observation), ``task_step`` (reward, termination, info) and
``guidance`` (where the oracle should steer).
"""

from __future__ import annotations

import abc
import struct
from collections.abc import Sequence
from typing import Any

import numpy as np

from envsuite.env_base import EnvsuiteEnv
from envsuite.families.physics.drone.actions import ActionMapper, Guidance
from envsuite.families.physics.drone.arguments import action_buffer_length, episode_length
from envsuite.families.physics.drone.camera import chase_image, onboard_image
from envsuite.families.physics.drone.crashes import CrashRule
from envsuite.families.physics.drone.dynamics import FlightDynamics, validate_frequencies
from envsuite.families.physics.drone.models import QuadModel, get_model
from envsuite.families.physics.drone.observations import (
    KIN_SIZE,
    ActionBuffer,
    Float32Packer,
    euler,
    kinematic_vector,
    observation_space,
    validate_image_size,
    validate_observation_type,
)
from envsuite.families.physics.drone.randomization import (
    DroneParameters,
    randomization_config,
    sample_parameters,
)
from envsuite.families.physics.drone.rotations import quaternion_from_yaw
from envsuite.families.physics.drone.wind import wind_config
from envsuite.families.physics.drone.world import DroneWorld
from envsuite.seeding import make_generator

#: Reward subtracted for a malformed action (whose control step runs with motors stopped).
INVALID_ACTION_PENALTY = 1.0
#: Reward of the step on which the drone crashes.
CRASH_PENALTY = -10.0

_FLOAT32 = np.dtype(np.float32)

State = tuple[Sequence[float], Sequence[float], Sequence[float], Sequence[float]]
StepOutcome = tuple[float, bool, bool, dict[str, Any]]


class DroneEnv(EnvsuiteEnv[Any, Any, list[float]]):
    """Base class of the single-drone tasks (its docstring template is the tasks').

    Checks the shared arguments (every error a ValueError naming the argument):
    ``episode_len_sec`` in ``[1 / ctrl_freq, 3600]`` s, ``action_buffer`` an int in
    ``[0, 100]``, ``image_size`` two ints in ``[8, 1024]``, ``domain_randomization`` and
    ``wind`` as their modules document, plus the model, physics and frequencies.
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 30}
    #: Length of the task's part of the ``kin`` observation.
    task_size = 0
    #: The flight box: ``|x|, |y| <= half_width`` and ``z <= ceiling`` (m).
    half_width = 2.0
    ceiling = 2.5

    def __init__(
        self,
        *,
        drone_model: str,
        physics: str,
        physics_freq: int,
        ctrl_freq: int,
        action_type: str,
        observation_type: str,
        action_buffer: int,
        image_size: Sequence[int],
        episode_len_sec: float,
        domain_randomization: Any,
        wind: Any,
        render_mode: str | None,
        num_gates: int = 0,
        gate_opening: float = 0.5,
    ) -> None:
        super().__init__()
        self.model: QuadModel = get_model(drone_model)
        validate_frequencies(physics_freq, ctrl_freq)
        self.observation_type = validate_observation_type(observation_type)
        self.image_size = validate_image_size(image_size)
        self.episode_len_sec = episode_length(episode_len_sec, int(ctrl_freq))
        action_buffer = action_buffer_length(action_buffer)
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self.randomization = randomization_config(domain_randomization)
        wind_settings = wind_config(wind)
        self.render_mode = render_mode
        self.ctrl_freq = int(ctrl_freq)
        self.episode_steps = max(1, round(self.episode_len_sec * self.ctrl_freq))
        self.world = DroneWorld(self.model, 1, int(physics_freq), num_gates, gate_opening)
        self.dynamics = FlightDynamics(self.world, physics, self.ctrl_freq, wind_settings)
        self.actions = ActionMapper(action_type, self.model, self.ctrl_freq, 1)
        self.buffer = ActionBuffer(action_buffer, self.actions.size)
        self.action_space = self.actions.space
        self.observation_space = observation_space(
            self.observation_type,
            self.task_size,
            action_buffer,
            self.actions.size,
            self.image_size,
        )
        self.steps = 0
        self.crash: str | None = None
        self.parameters = DroneParameters.nominal(self.model, 1)
        self._hover, self._above = self.actions.hover, self.actions.above
        self._crash_rule = CrashRule(self.model, self.half_width, self.ceiling)
        # The mapper's parser is the env's: bound here, it saves a call on every step.
        self.parse_action = self.actions.parse  # type: ignore[method-assign]
        self._fast = self._fast_rates = False
        # The per-step hot path reads these once built (a lookup each saved per step).
        # Methods are not bound here: Python 3.11 calls ``self.dynamics.advance_single``
        # faster than a bound method kept in the instance's dict (about 150 instructions
        # less a call, measured with callgrind), as it specializes only the former.
        self._buffered = bool(action_buffer)
        self._rate_loop = self.actions.rate_loop
        self._kin_packer = Float32Packer(KIN_SIZE + self.task_size + len(self.buffer.values))
        if self.observation_type == "kin":
            self._observe = self._observe_kin  # type: ignore[method-assign]

    # -- task hooks --------------------------------------------------------------------
    @abc.abstractmethod
    def task_reset(self) -> tuple[Sequence[float] | np.ndarray, float]:
        """Draw the task from ``self.np_random``; return the start position and yaw."""
        raise NotImplementedError

    @abc.abstractmethod
    def task_features(self, state: State) -> Sequence[float]:
        """The task's part of the ``kin`` observation."""
        raise NotImplementedError

    @abc.abstractmethod
    def task_step(self, state: State) -> StepOutcome:
        """Reward, terminated, truncated and info after a control step."""
        raise NotImplementedError

    @abc.abstractmethod
    def guidance(self, drone: int = 0) -> Guidance:
        """Where the oracle should steer ``drone`` now (the drone oracles read this)."""
        raise NotImplementedError

    def task_info(self) -> dict[str, Any]:
        """Extra keys of the reset info."""
        return {}

    # -- episodes ----------------------------------------------------------------------
    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[Any, dict[str, Any]]:
        """Restore the saved world, draw dynamics, wind and task, and place the drone."""
        self.world.restore()
        if self.randomization is not None:
            seed = int(self.np_random.integers(2**63))
            self.parameters = sample_parameters(
                self.model, self.randomization, 1, make_generator(seed, "dynamics")
            )
            self.dynamics.set_parameters(self.parameters)
            self.dynamics.apply_inertials()
        if self.dynamics.wind is not None:
            seed = int(self.np_random.integers(2**63))
            self.dynamics.wind.reset(make_generator(seed, "wind"))
        position, yaw = self.task_reset()
        start = list(map(float, position))
        quaternion = quaternion_from_yaw(yaw)
        self.dynamics.start_single(start, quaternion)
        self.actions.reset()
        if self.buffer.length:
            self.buffer.clear()
        self.steps = 0
        self.crash = None
        self._fast = self.dynamics.fast and self.actions.kind in ("rpm", "one_d_rpm")
        self._fast_rates = self.dynamics.fast and self.actions.kind == "ctbr"
        # The drone is at rest where it was just put: no need to ask the engine (a state
        # read costs PyBullet about three physics steps).
        state = (start, quaternion, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
        info = self.task_info()
        if self.randomization is not None:
            info["dynamics"] = self.parameters.as_info(0)
        return self._observe(state), info

    def parse_action(self, action: Any) -> list[float]:
        """Validate the action (see the Action section)."""
        return self.actions.parse(action)

    def apply_action(
        self, parsed: list[float] | None, penalty: float = 0.0
    ) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Fly one control step with the action (None: motors stopped), less ``penalty``."""
        if self._buffered:
            self.buffer.push(parsed)
        if parsed is not None and self._fast:
            # ActionMapper.rpm_of, inlined: this is the per-step hot path.
            hover, above = self._hover, self._above
            if len(parsed) == 4:
                a0, a1, a2, a3 = parsed
                state = self.dynamics.advance_single(
                    (a0 + 1.0) * hover if a0 <= 0.0 else hover + above * a0,
                    (a1 + 1.0) * hover if a1 <= 0.0 else hover + above * a1,
                    (a2 + 1.0) * hover if a2 <= 0.0 else hover + above * a2,
                    (a3 + 1.0) * hover if a3 <= 0.0 else hover + above * a3,
                )
            else:
                speed = self.actions.rpm_of(parsed[0])
                state = self.dynamics.advance_single(speed, speed, speed, speed)
        elif parsed is not None and self._fast_rates:
            thrust, desired = self.actions.ctbr_targets(parsed)
            state = self.dynamics.advance_single_rates(thrust, desired, self._rate_loop)
        else:
            flight = self.dynamics.states() if self.actions.needs_state else None
            rpm, onboard = self.actions.command([parsed], flight)
            self.dynamics.advance(rpm, onboard)
            state = self.dynamics.single_state()
        self.steps += 1
        reward, terminated, truncated, info = self.task_step(state)
        return self._observe(state), reward - penalty, terminated, truncated, info

    def apply_invalid_action(self, message: str) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Penalty: the motors stop for the control step and the reward loses 1."""
        return self.apply_action(None, INVALID_ACTION_PENALTY)

    def crashed(self, state: State) -> str | None:
        """Why the drone has crashed (None if it flies on); remembered in ``self.crash``."""
        self.crash = crash = self._crash_rule.reason(state[0], state[1])
        return crash

    # -- observations ------------------------------------------------------------------
    def _observe_kin(self, state: State) -> np.ndarray:
        """A ``kin`` observation: :func:`kinematic_vector` with this env's packer, inlined.

        Every call returns a fresh array (observations handed out are never written again).
        """
        position, quaternion, velocity, angular = state
        values = (*position, *quaternion, *euler(quaternion), *velocity, *angular,
                  *self.task_features(state), *self.buffer.values)  # fmt: skip
        try:
            return np.frombuffer(bytearray(self._kin_packer.pack(*values)), _FLOAT32)
        except (OverflowError, struct.error):  # beyond float32: numpy's cast, to infinity
            return np.array(values, np.float32)

    def _observe(self, state: State) -> Any:
        kind = self.observation_type
        if kind == "kin":
            return kinematic_vector(*state, self.task_features(state), self.buffer.values)
        image = onboard_image(
            self.world.p, self.world.client, state[0], state[1], self.image_size, self.model.arm
        )
        if kind == "rgb":
            return image
        return {
            "kin": kinematic_vector(*state, self.task_features(state), self.buffer.values),
            "rgb": image,
        }

    def drone_state(self, drone: int = 0) -> State:
        """The true state of the drone (position, quaternion, velocity, angular velocity)."""
        return self.dynamics.single_state(drone)

    def render(self) -> np.ndarray | None:
        """``"rgb_array"``: a chase-camera view of the drone."""
        if self.render_mode != "rgb_array":
            return None
        position = self.dynamics.single_state()[0]
        distance = max(0.5, 10.0 * self.model.arm)
        return chase_image(self.world.p, self.world.client, position, distance)

    def close(self) -> None:
        """Disconnect from PyBullet."""
        self.world.close()
        super().close()
