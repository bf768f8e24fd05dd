"""DroneSwarm-v0: N quadcopters flying in formation (PettingZoo Parallel)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from envsuite.arguments import integer_in, real_in
from envsuite.families.physics.drone.actions import ActionMapper, Guidance
from envsuite.families.physics.drone.arguments import action_buffer_length, episode_length
from envsuite.families.physics.drone.camera import chase_image, onboard_image
from envsuite.families.physics.drone.crashes import (
    COLLISION,
    CrashRule,
    colliding_pairs,
    pairwise_distances,
)
from envsuite.families.physics.drone.drone_env import CRASH_PENALTY, INVALID_ACTION_PENALTY
from envsuite.families.physics.drone.dynamics import FlightDynamics, validate_frequencies
from envsuite.families.physics.drone.formations import FORMATIONS, formation_offsets
from envsuite.families.physics.drone.models import get_model
from envsuite.families.physics.drone.observations import (
    DEFAULT_IMAGE_SIZE,
    ActionBuffer,
    kinematic_vector,
    neighbour_features,
    observation_space,
    validate_image_size,
    validate_observation_type,
)
from envsuite.families.physics.drone.randomization import (
    DroneParameters,
    randomization_config,
    sample_parameters,
)
from envsuite.families.physics.drone.rotations import quaternion_from_euler
from envsuite.families.physics.drone.trajectories import MinimumJerkPath, random_waypoints
from envsuite.families.physics.drone.wind import wind_config
from envsuite.families.physics.drone.world import DroneWorld
from envsuite.parallel_env_base import EnvsuiteParallelEnv, StepResult
from envsuite.rendering import FrameWindow, checked_render_mode
from envsuite.seeding import make_generator

TASKS = ("formation", "leader")
#: Rate at which the per-step reward falls with the slot error (1/m).
REWARD_SHARPNESS = 4.0
#: Leader-path waypoints per episode.
LEADER_WAYPOINTS = 3
#: Time the reference holds at each leader waypoint (s).
LEADER_HOLD = 0.5
#: How far ahead the oracle takes the reference acceleration (s).
ACCELERATION_LEAD = 0.15
#: Most drones per swarm.
MAX_DRONES = 64
#: Largest ``success_radius`` (m).
MAX_SUCCESS_RADIUS = 4.0
#: Widest ``spacing`` between neighbouring slots (m).
MAX_SPACING = 5.0
#: Bounds of ``leader_speed`` (m/s).
MIN_LEADER_SPEED, MAX_LEADER_SPEED = 0.05, 10.0


class DroneSwarmEnv(EnvsuiteParallelEnv[Any, Any, list[float]]):
    """N quadcopters keeping a formation around a moving reference.

    Description:
        ``num_drones`` quadcopters (agents ``drone_0`` ... ``drone_{N-1}``) share one
        PyBullet world, where they can collide and, with a ``_dw`` physics mode, push one
        another down with their downwash. A reference point flies a minimum-jerk path
        through three random waypoints (peak speed ``leader_speed``, 0.5 s holds), and
        each drone has a slot at a fixed offset from it (``formation``: ``ring``,
        ``line``, ``v`` or ``grid``, neighbouring slots ``spacing`` apart). Drones start
        at rest near their slots. With ``task="formation"`` every slot follows the
        reference. With ``task="leader"`` only ``drone_0`` (the leader) follows it, and
        every other slot follows the leader's actual position (or the reference again
        once the leader has crashed).

    Observation:
        Per agent. ``kin``: the 16 kinematic values, the slot minus the position (3), the
        slot's velocity (3), then for the ``num_neighbours`` nearest other drones, nearest
        first, their position and velocity relative to this drone (6 each); then the last
        ``action_buffer`` actions. ``rgb`` / ``kin_rgb``: the agent's onboard camera (the
        other drones are visible).

    Action:
        Per agent, as DroneHover-v0 (``rpm``, ``one_d_rpm``, ``pid``, ``vel`` or ``ctbr``).
        A malformed or missing action stops that drone's motors for the step, costs it
        1 reward and sets its ``info["parse_error"]``.

    Reward:
        Per agent, ``exp(−4·e)`` per step, ``e`` its distance to its slot (m); −10 on the
        step it crashes. ``info["slot_error"]`` holds ``e``.

    Termination:
        An agent terminates when its drone crashes: it touches the ground, tilts past 75°,
        leaves the flight box (``|x|, |y|`` within 2 m plus the formation's radius,
        ``z ≤ 2.5 m``), or comes within two collision radii of another flying drone (both
        terminate, ``crash="collision"``). A crashed drone's motors stop; its body stays in
        the world. Every agent still flying truncates after ``episode_len_sec``, with
        ``info["success"]`` True when it stayed within ``success_radius`` of its slot for
        the last ``hold_sec`` seconds. Final infos hold ``success``, ``score`` (the mean
        per-step reward over the whole episode length) and ``crash``.

    Arguments:
        num_drones: Number of drones (agents), 1 to 64.
        formation: ``"ring"``, ``"line"``, ``"v"`` or ``"grid"``.
        task: ``"formation"`` or ``"leader"``.
        drone_model: ``"cf2x"``, ``"cf2p"`` or ``"racer"``.
        physics: A physics mode (see DroneHover-v0); ``"pyb_dw"`` adds downwash.
        physics_freq: Physics steps per second (a multiple of ``ctrl_freq``).
        ctrl_freq: Actions per second.
        action_type: ``"rpm"``, ``"one_d_rpm"``, ``"pid"``, ``"vel"`` or ``"ctbr"``.
        observation_type: ``"kin"``, ``"rgb"`` or ``"kin_rgb"``.
        action_buffer: Number of past actions appended to ``kin`` observations, an int
            in [0, 100].
        image_size: Onboard camera ``(width, height)``, ints in [8, 1024].
        episode_len_sec: Episode length, in [1 / ctrl_freq, 3600] s.
        spacing: Distance between neighbouring slots, from 2.5 collision radii to 5 m;
            None: 0.4 m, or five collision radii if larger.
        leader_speed: Peak speed of the reference, in [0.05, 10] m/s; None: half the
            model's speed limit.
        num_neighbours: Other drones in each observation, an int in [0, 63]; more than
            ``num_drones − 1`` means all the others.
        success_radius: Slot distance counted as in formation, in (0, 4] m.
        hold_sec: How long a drone must stay in formation at the end, in
            (0, ``episode_len_sec``] s.
        domain_randomization: As DroneHover-v0, drawn per drone.
        wind: As DroneHover-v0 (one wind field for all drones).
        render_mode: ``"rgb_array"`` (a chase camera on the formation), ``"human"`` (its
            frames shown in a matplotlib window after every reset and step; nothing is
            shown, with one warning, where matplotlib has no interactive backend) or None.

    Version history:
        v0: Initial version.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["rgb_array", "human"],
        "name": "drone_swarm_v0",
        "is_parallelizable": True,
        "render_fps": 30,
    }
    record_curves = ("slot_error",)
    record_metrics = ("score",)

    def __init__(
        self,
        num_drones: int = 4,
        formation: str = "ring",
        task: str = "formation",
        drone_model: str = "cf2x",
        physics: str = "pyb",
        physics_freq: int = 240,
        ctrl_freq: int = 30,
        action_type: str = "rpm",
        observation_type: str = "kin",
        action_buffer: int = 0,
        image_size: Sequence[int] = DEFAULT_IMAGE_SIZE,
        episode_len_sec: float = 8.0,
        spacing: float | None = None,
        leader_speed: float | None = None,
        num_neighbours: int = 3,
        success_radius: float = 0.1,
        hold_sec: float = 1.0,
        domain_randomization: Any = None,
        wind: Any = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        num_drones = integer_in("num_drones", num_drones, 1, MAX_DRONES)
        if formation not in FORMATIONS:
            raise ValueError(f"formation must be one of {FORMATIONS}, got {formation!r}")
        if task not in TASKS:
            raise ValueError(f"task must be one of {TASKS}, got {task!r}")
        render_mode = checked_render_mode(render_mode, self.metadata["render_modes"])
        validate_frequencies(physics_freq, ctrl_freq)
        episode_len_sec = episode_length(episode_len_sec, int(ctrl_freq))
        success_radius = real_in(
            "success_radius", success_radius, 0.0, MAX_SUCCESS_RADIUS, low_open=True, unit="m"
        )
        hold_sec = real_in(
            "hold_sec",
            hold_sec,
            0.0,
            episode_len_sec,
            low_open=True,
            unit="s (at most episode_len_sec)",
        )
        num_neighbours = integer_in("num_neighbours", num_neighbours, 0, MAX_DRONES - 1)
        action_buffer = action_buffer_length(action_buffer)
        collision_radius = get_model(drone_model).collision_radius
        spacing = (
            max(0.4, 5.0 * collision_radius)
            if spacing is None
            else real_in("spacing", spacing, 2.5 * collision_radius, MAX_SPACING, unit="m")
        )
        leader_speed = (
            0.5 * get_model(drone_model).speed_limit
            if leader_speed is None
            else real_in(
                "leader_speed", leader_speed, MIN_LEADER_SPEED, MAX_LEADER_SPEED, unit="m/s"
            )
        )
        self.model = get_model(drone_model)
        self.observation_type = validate_observation_type(observation_type)
        self.image_size = validate_image_size(image_size)
        self.randomization = randomization_config(domain_randomization)
        self.render_mode = render_mode
        self.window = FrameWindow("envsuite/DroneSwarm-v0")
        self.count = num_drones
        self.task = task
        self.formation = formation
        self.ctrl_freq = int(ctrl_freq)
        self.episode_steps = max(1, round(episode_len_sec * ctrl_freq))
        self.hold_steps = max(1, round(hold_sec * ctrl_freq))
        self.success_radius = float(success_radius)
        self.spacing = spacing
        self.leader_speed = leader_speed
        self.neighbours = min(num_neighbours, num_drones - 1)
        self.offsets = formation_offsets(formation, num_drones, self.spacing)
        self.half_width = 2.0 + float(np.abs(self.offsets[:, :2]).max())
        self.ceiling = 2.5

        self.world = DroneWorld(self.model, num_drones, int(physics_freq))
        self.dynamics = FlightDynamics(self.world, physics, self.ctrl_freq, wind_config(wind))
        self.actions = ActionMapper(action_type, self.model, self.ctrl_freq, num_drones)
        self.possible_agents = [f"drone_{index}" for index in range(num_drones)]
        self.agent_index = {agent: index for index, agent in enumerate(self.possible_agents)}
        self.buffers = [ActionBuffer(action_buffer, self.actions.size) for _ in range(num_drones)]
        task_size = 6 + 6 * self.neighbours
        self.observation_spaces = {
            agent: observation_space(
                self.observation_type, task_size, action_buffer, self.actions.size, self.image_size
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: self.actions.space for agent in self.possible_agents}
        self.path = MinimumJerkPath([[0.0, 0.0, 1.0], [1.0, 0.0, 1.0]], 1.0, LEADER_HOLD)
        self.parameters = DroneParameters.nominal(self.model, num_drones)
        self.steps = 0
        self.active = np.ones(num_drones, dtype=bool)
        self.streaks = np.zeros(num_drones, dtype=np.int64)
        self.reward_sums = np.zeros(num_drones)
        self.crashes: list[str | None] = [None] * num_drones
        self.flight = self.dynamics.states()

    # -- episodes ----------------------------------------------------------------------
    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Restore the world; draw dynamics, wind, the reference path and the start."""
        assert self.np_random is not None
        rng = self.np_random
        self.world.restore()
        if self.randomization is not None:
            generator = make_generator(int(rng.integers(2**63)), "dynamics")
            self.parameters = sample_parameters(
                self.model, self.randomization, self.count, generator
            )
            self.dynamics.set_parameters(self.parameters)
            self.dynamics.apply_inertials()
        if self.dynamics.wind is not None:
            self.dynamics.wind.reset(make_generator(int(rng.integers(2**63)), "wind"))
        centre = np.array([rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(1.0, 1.3)])
        waypoints = random_waypoints(rng, centre, LEADER_WAYPOINTS, 1.0, (0.9, 1.5), 0.5, 1.0)
        self.path = MinimumJerkPath(np.vstack([centre, waypoints]), self.leader_speed, LEADER_HOLD)
        jitter = rng.uniform(-0.05, 0.05, (self.count, 3))
        yaws = rng.uniform(-math.pi, math.pi, self.count)
        self.start_yaws = yaws
        positions = centre + self.offsets + jitter
        quaternions = np.array([quaternion_from_euler(0.0, 0.0, float(yaw)) for yaw in yaws])
        self.dynamics.start(positions, quaternions)
        self.actions.reset()
        for buffer in self.buffers:
            buffer.clear()
        self.steps = 0
        self.active = np.ones(self.count, dtype=bool)
        self.streaks = np.zeros(self.count, dtype=np.int64)
        self.reward_sums = np.zeros(self.count)
        self.crashes = [None] * self.count
        self.flight = self.dynamics.states()
        observations = self._observe_all(self.agents)
        infos: dict[str, dict[str, Any]] = {}
        for index, agent in enumerate(self.agents):
            infos[agent] = {"slot_offset": self.offsets[index].tolist()}
            if self.randomization is not None:
                infos[agent]["dynamics"] = self.parameters.as_info(index)
        return observations, infos

    def slots(self, steps: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Every drone's slot position and velocity ``(N, 3)`` at a control step."""
        reference, velocity, _ = self.path.sample(
            (self.steps if steps is None else steps) / self.ctrl_freq
        )
        positions = reference + self.offsets
        velocities = np.tile(velocity, (self.count, 1))
        if self.task == "leader" and self.active[0] and self.count > 1:
            leader = self.flight.position[0]
            positions[1:] = leader + (self.offsets[1:] - self.offsets[0])
            velocities[1:] = self.flight.velocity[0]
        return positions, velocities

    # -- actions -----------------------------------------------------------------------
    def parse_action(self, agent: str, action: Any) -> list[float]:
        """Validate one agent's action (see the Action section)."""
        return self.actions.parse(action)

    def apply_actions(
        self, parsed: Mapping[str, list[float]], errors: Mapping[str, str]
    ) -> StepResult:
        """Fly every drone one control step; judge crashes, collisions and the time limit."""
        live = list(self.agents)
        commands: list[list[float] | None] = [None] * self.count
        for agent in live:
            index = self.agent_index[agent]
            commands[index] = parsed.get(agent)
            self.buffers[index].push(commands[index])
        state = self.flight if self.actions.needs_state else None
        rpm, onboard = self.actions.command(commands, state)
        self.dynamics.advance(rpm, onboard)
        self.steps += 1
        self.flight = flight = self.dynamics.states()
        slot_state = self.slots()
        slots = slot_state[0]
        errors_m = np.linalg.norm(slots - flight.position, axis=1).tolist()
        positions, quaternions = flight.position.tolist(), flight.quaternion.tolist()
        crashed: dict[int, str] = {}
        crash_reason = CrashRule(self.model, self.half_width, self.ceiling).reason
        for agent in live:
            index = self.agent_index[agent]
            reason = crash_reason(positions[index], quaternions[index])
            if reason is not None:
                crashed[index] = reason
        distance = pairwise_distances(flight.position)
        for index in colliding_pairs(self.model, flight.position, self.active, distance):
            crashed.setdefault(index, COLLISION)
        out_of_time = self.steps >= self.episode_steps
        rewards: dict[str, float] = {}
        terminations: dict[str, bool] = {}
        truncations: dict[str, bool] = {}
        infos: dict[str, dict[str, Any]] = {}
        for agent in live:
            index = self.agent_index[agent]
            error = errors_m[index]
            info: dict[str, Any] = {"slot_error": error}
            if index in crashed:
                self.crashes[index] = crashed[index]
                reward = CRASH_PENALTY
                terminations[agent], truncations[agent] = True, False
                info.update(self._final(index, success=False))
            else:
                reward = math.exp(-REWARD_SHARPNESS * error)
                self.reward_sums[index] += reward
                self.streaks[index] = self.streaks[index] + 1 if error <= self.success_radius else 0
                terminations[agent], truncations[agent] = False, out_of_time
                if out_of_time:
                    info.update(
                        self._final(index, success=bool(self.streaks[index] >= self.hold_steps))
                    )
            if agent in errors:
                reward -= INVALID_ACTION_PENALTY
            rewards[agent] = reward
            infos[agent] = info
        for index in crashed:
            self.active[index] = False
        # The slots move with the leader only while it flies.
        same_slots = not (self.task == "leader" and 0 in crashed)
        observations = self._observe_all(live, slot_state if same_slots else None, distance)
        return observations, rewards, terminations, truncations, infos

    def episode_success(self, final_infos: Mapping[str, Mapping[str, Any]]) -> bool | None:
        """Env-level success: every agent ended with ``info["success"]`` True (None if unset)."""
        reported = [final_infos.get(agent, {}).get("success") for agent in self.possible_agents]
        if any(value is None for value in reported):
            return None
        return all(bool(value) for value in reported)

    def _final(self, index: int, success: bool) -> dict[str, Any]:
        score = min(max(float(self.reward_sums[index]) / self.episode_steps, 0.0), 1.0)
        return {"success": success, "score": score, "crash": self.crashes[index]}

    # -- observations ------------------------------------------------------------------
    def _observe_all(
        self,
        agents: list[str],
        known_slots: tuple[np.ndarray, np.ndarray] | None = None,
        distance: np.ndarray | None = None,
    ) -> dict[str, Any]:
        """Every listed agent's observation of the current state.

        ``known_slots`` (:meth:`slots`) and ``distance`` (the drones' pairwise distances) are
        passed when already computed for this state.
        """
        flight = self.flight
        kind = self.observation_type
        if kind == "rgb":
            return {agent: self._image(self.agent_index[agent]) for agent in agents}
        slots, slot_velocities = self.slots() if known_slots is None else known_slots
        positions, velocities = flight.position.tolist(), flight.velocity.tolist()
        quaternions, angular = flight.quaternion.tolist(), flight.angular_velocity.tolist()
        targets = (slots - flight.position).tolist()
        slot_velocity = slot_velocities.tolist()
        neighbours = neighbour_features(flight.position, flight.velocity, self.neighbours, distance)
        observations: dict[str, Any] = {}
        for agent in agents:
            index = self.agent_index[agent]
            vector = kinematic_vector(
                positions[index],
                quaternions[index],
                velocities[index],
                angular[index],
                (*targets[index], *slot_velocity[index], *neighbours[index]),
                self.buffers[index].values,
            )
            observations[agent] = (
                vector if kind == "kin" else {"kin": vector, "rgb": self._image(index)}
            )
        return observations

    def _image(self, index: int) -> np.ndarray:
        return onboard_image(
            self.world.p,
            self.world.client,
            self.flight.position[index],
            self.flight.quaternion[index],
            self.image_size,
            self.model.arm,
        )

    # -- oracle and rendering ----------------------------------------------------------
    def drone_state(self, drone: int) -> tuple[Any, Any, Any, Any]:
        """The true state of drone ``drone`` (position, quaternion, velocity, angular velocity)."""
        flight = self.flight
        return (
            flight.position[drone],
            flight.quaternion[drone],
            flight.velocity[drone],
            flight.angular_velocity[drone],
        )

    def guidance(self, drone: int) -> Guidance:
        """The drone's slot one control step ahead (acceleration a little further)."""
        slots, velocities = self.slots(self.steps + 1)
        lead = self.steps + 1 + round(ACCELERATION_LEAD * self.ctrl_freq)
        _, _, acceleration = self.path.sample(lead / self.ctrl_freq)
        if self.task == "leader" and drone > 0 and self.active[0]:
            acceleration = np.zeros(3)
        return Guidance(
            tuple(float(v) for v in slots[drone]),  # type: ignore[arg-type]
            tuple(float(v) for v in velocities[drone]),  # type: ignore[arg-type]
            float(self.start_yaws[drone]),
            tuple(float(v) for v in acceleration),  # type: ignore[arg-type]
        )

    def state(self) -> np.ndarray:
        """The global state: every drone's position and velocity, flattened (float32)."""
        return (
            np.concatenate([self.flight.position, self.flight.velocity], axis=1)
            .ravel()
            .astype(np.float32)
        )

    def render(self) -> np.ndarray | None:
        """``"rgb_array"``: a chase camera on the formation's centre; ``"human"``: shows it."""
        if self.render_mode is None or (
            self.render_mode == "human" and not self.window.available()
        ):
            return None
        centre = self.flight.position.mean(axis=0)
        distance = max(1.5, 2.5 * self.half_width - 3.0)
        frame: np.ndarray = chase_image(self.world.p, self.world.client, centre, distance)
        if self.render_mode == "human":
            self.window.show(frame)
            return None
        return frame

    def close(self) -> None:
        """Disconnect from PyBullet and close the window (human mode)."""
        self.window.close()
        self.world.close()
