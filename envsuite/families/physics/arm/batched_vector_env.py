"""A vector env of many arm simulations stepped together by ``mujoco.batch.Batch``.

``mujoco.batch.Batch`` (MuJoCo 4) keeps every simulation's state as one row of an array
and steps them on a thread pool, bit-identically to stepping one ``MjData`` each. This
vector env puts the arm tasks on it: one Python call steps every sub-environment, and
observations, rewards and infos are computed for all of them with numpy at once.

It behaves as Gymnasium's ``SyncVectorEnv`` over ``envsuite.make(id)`` envs (with their
``TimeLimit``) does, down to the bits: same per-env seeds, same observations, rewards,
terminations, truncations and infos, and the same next-step autoreset. A test holds it to
that, byte for byte, with float32, float64 and integer actions. An int seed becomes
per-env seeds with :func:`envsuite.seeding.derive_seeds` (key ``"vector"``), as
:func:`envsuite.make_vec` does.

A step writes the hand targets and grips into the state rows, makes one
``Batch.step(nstep=frame_skip, stage=mjSTAGE_POS)`` call, and computes everything else
from the arrays the batch fills. The single env runs ``mj_kinematics`` after its
``mj_step`` to observe the state it reached; the batch's smallest equivalent is the
position stage, ``mj_fwdPosition`` (collisions included, so several times the cost of
kinematics alone). A persistent batch (``persistent=True``) would not help: it skips work only when
the next step can continue from stages computed at the new state, which needs the
velocity stage and unchanged inputs, and the hand's mocap target moves every step. It
measured the same as the default batch, which is kept.

The common step (every action a finite numeric array, no episode to restart) takes a
short path of about forty numpy calls and no per-env Python: actions widened and clipped
into a preallocated buffer, targets and grips updated in place, the observations written
by :class:`~envsuite.families.physics.arm.observation.ObservationWriter` and the scores by
:class:`~envsuite.families.physics.arm.batch_scoring.BatchScorer` (both with
:meth:`ArmTask.evaluate`'s and the single env's bits), episode lengths kept as a step
count less each episode's first step (no array update, no truncation test before the
earliest episode can reach the limit), the infos' constant arrays copied from templates.
Its work arrays are coordinate-major (``(3, n)``; the env's ``(n, 3)`` arrays are their
transposes), because at a vector env's sizes numpy's per-call cost is the cost, and it is
two to three times higher on strided views (a ufunc writing or reading two-dimensional
strided views takes numpy's general iterator). The same cost shapes the rest: no array
is unpacked (that raises and catches an IndexError), outputs are positional (numpy
parses keywords), numpy's names are bound at import (numpy's module ``__getattr__``
keeps Python from caching ``np.add``), and finiteness is tested by flags compared as
bytes, not by a reduction. ``envsuite bench --rows arm-batch`` reports the step's
Python outside ``Batch.step`` on your machine, counted on the thread that runs it. In a
real episode that Python costs several times what it costs in a tight loop with the
physics left out: between two ``Batch.step`` calls the physics and the other processes
evict numpy's code and data from the caches, and every numpy call then pays for it;
fewer calls is what helps.

Threads: ``nthread=0`` (the default) takes :func:`free_cores`, the smaller of the cores
the load average leaves free and the cores idle over 50 ms (``/proc/stat``), so
that a machine whose other core is busy gets one thread: two threads then wait for each
other and lose to SyncVectorEnv. Pass ``nthread`` (``vector_kwargs={"nthread": 2}``
through ``make_vec``) to override.
"""

from __future__ import annotations

import functools
import math
import os
import time
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from envsuite.families.physics.arm import model, observation
from envsuite.families.physics.arm.base_env import (
    GOAL_MOCAP,
    HALF_GRIPPER_SPAN,
    HAND_MOCAP,
    NOT_FINITE,
    TCP_SITE,
    ArmEnv,
    gripper_control,
)
from envsuite.families.physics.arm.batch_scoring import BatchScorer
from envsuite.families.physics.arm.goal_reward import NOT_GOAL_CONDITIONED, TCP_KEY, goal_reward
from envsuite.families.physics.arm.observation import clip
from envsuite.families.physics.arm.pick_place import ArmPickPlaceEnv
from envsuite.families.physics.arm.push import ArmPushEnv
from envsuite.families.physics.arm.reach import ArmReachEnv
from envsuite.registry import import_optional
from envsuite.seeding import derive_seeds

# The common step's numpy names, bound once: numpy has a module ``__getattr__``, so
# Python cannot cache ``np.add`` and looks it up in full on every use.
add, isfinite, multiply, subtract = np.add, np.isfinite, np.multiply, np.subtract
ndarray, zeros = np.ndarray, np.zeros
#: Action dtypes the common step takes: they widen to float64 without a new infinity
#: (floats of up to 64 bits, integers); a long double may overflow, and goes the long way.
WIDENED_EXACTLY = "efd" + np.typecodes["AllInteger"]

#: Seconds over which :func:`idle_cores` watches the cores (a few of Linux's 10 ms ticks).
IDLE_SAMPLE_SECONDS = 0.05


def _cpu_times(cpus: set[int]) -> dict[int, tuple[int, int]]:
    """(idle, total) ticks of each of ``cpus`` from ``/proc/stat``."""
    times: dict[int, tuple[int, int]] = {}
    with open("/proc/stat", encoding="ascii") as stat:
        for line in stat:
            name, *fields = line.split()
            if not name.startswith("cpu") or name == "cpu":
                if times:  # the cpuN lines come together, first
                    break
                continue
            cpu = int(name[3:])
            if cpu in cpus:
                ticks = [int(v) for v in fields[:8]]  # guest time is already in user
                times[cpu] = (ticks[3] + ticks[4], sum(ticks))  # idle + iowait
    return times


def idle_cores(cpus: set[int], seconds: float = IDLE_SAMPLE_SECONDS) -> float | None:
    """How many of ``cpus`` sat idle over the next ``seconds``, summed as fractions.

    Read from Linux's ``/proc/stat`` before and after a short sleep, so it sees the load
    of now, where the load average trails by a minute. None where that file is missing
    or unreadable (other platforms).
    """
    try:
        before = _cpu_times(cpus)
        time.sleep(seconds)
        after = _cpu_times(cpus)
    except (OSError, ValueError, IndexError):
        return None
    idle = 0.0
    for cpu, (idle_after, total_after) in after.items():
        if cpu not in before:
            return None
        idle_before, total_before = before[cpu]
        if total_after > total_before:
            idle += (idle_after - idle_before) / (total_after - total_before)
    return idle if after else None


def free_cores() -> int:
    """Cores this process may use that other work leaves free now (at least 1).

    The smaller of two estimates, each capped at the cores the process may run on:
    those cores less the one-minute load average beyond this process's own running
    thread, rounded (on an idle 2-core machine 2, with one other busy process 1, on a
    machine loaded past its cores 1); and the cores that sat idle over the last
    :data:`IDLE_SAMPLE_SECONDS` (:func:`idle_cores`; a core counts when it was idle
    three quarters of the time), which sees a machine that just got busy. Where
    neither is known, every usable core.
    """
    affinity = getattr(os, "sched_getaffinity", None)
    cpus = set(affinity(0)) if affinity is not None else set(range(os.cpu_count() or 1))
    usable = len(cpus)
    free = usable
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average on this platform
        pass
    else:
        free = min(free, math.floor(usable - max(load - 1.0, 0.0) + 0.5))
    if free > 1:
        idle = idle_cores(cpus)
        if idle is not None:
            free = min(free, math.floor(idle + 0.25))
    return max(1, free)


class ArmBatchedVectorEnv(VectorEnv[Any, np.ndarray, np.ndarray]):
    """``num_envs`` copies of one arm task, simulated by one ``mujoco.batch.Batch``.

    Args:
        num_envs: Number of sub-environments.
        max_episode_steps: Steps after which an episode is truncated (the spec's limit when
            made through the registry), or None for no limit.
        nthread: Threads stepping the simulations, the caller's included (0: as many as
            :func:`free_cores` finds free when the env is made). On a machine whose cores
            are busy with other work, 1 is faster: the threads wait for each other. More
            threads than cores is slower.
        env_kwargs: The single env's keyword arguments (``frame_skip``, ``reward_type``,
            ``observation_mode``, ``goal_observable``, ``terminate_on_success``, ...).
    """

    env_class: ClassVar[type[ArmEnv]]
    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
        *,
        max_episode_steps: int | None = None,
        nthread: int = 0,
        **env_kwargs: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise ValueError(f"num_envs must be an int >= 1, got {num_envs!r}")
        num_envs = int(num_envs)
        if env_kwargs.get("render_mode") is not None:
            raise ValueError("the batched arm vector env does not render; use make_vec(sync)")
        mujoco = import_optional("mujoco", extra="physics")
        batch_module = import_optional("mujoco.batch", extra="physics")
        self.mujoco = mujoco
        self.template = self.env_class(**env_kwargs)  # validates the kwargs, holds spaces
        self.task = self.env_class.task
        self.num_envs = num_envs
        self.max_episode_steps = max_episode_steps
        self.single_observation_space = self.template.observation_space
        self.single_action_space = self.template.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None

        t = self.template
        self.frame_skip, self.control_dt, self.scale = t.frame_skip, t.control_dt, t.action_scale
        if isinstance(nthread, bool) or not isinstance(nthread, int | np.integer) or nthread < 0:
            raise ValueError(f"nthread must be an int >= 0, got {nthread!r}")
        #: Threads stepping the simulations.
        self.nthread = int(nthread) or (1 if num_envs == 1 else min(free_cores(), num_envs))
        self.batch = batch_module.Batch(t.model, num_envs, self.nthread)
        # Live views of the batch's arrays, which never move: state rows (written before a
        # step, read after it) and the site positions the step copies out.
        self._qpos = self.batch.bind("qpos")
        self._qvel = self.batch.bind("qvel")
        self._ctrl = self.batch.bind("ctrl")
        self._mocap = self.batch.bind("mocap_pos")
        self._site_xpos = self.batch.bind("site_xpos")
        self._hand = self._mocap[:, HAND_MOCAP]
        self._grip = self._ctrl[:, 0]
        self._tcp = self._site_xpos[:, TCP_SITE]
        self._cube = self._qpos[:, model.CUBE_POS]
        self._tcp_low = np.array(model.TCP_LOW)
        self._tcp_high = np.array(model.TCP_HIGH)
        self._tcp_to_hand = np.array([0.0, 0.0, model.WRIST_TO_TCP])
        self._action_shape = (num_envs, 4)
        # The common step's arrays hold one row per coordinate and one column per env
        # (the env's (n, 3) arrays are their transposes): numpy's call costs more than its
        # arithmetic at these sizes, and much more on strided views. Its constants are
        # arrays of its shapes: numpy converts a Python float on every call.
        n = num_envs
        self._action_rows = np.zeros((4, n))
        self._moves, self._grips = self._action_rows[:3], self._action_rows[3]
        self._action_values = self._action_rows.reshape(-1)
        self._finite = np.zeros(4 * n, dtype=bool)
        self._all_finite = np.ones(4 * n, dtype=bool).tobytes()
        self._minus_ones, self._ones = np.full((4, n), -1.0), np.ones((4, n))
        self._target_rows, self._scaled = np.zeros((3, n)), np.zeros((3, n))
        self._scales = np.full((3, n), self.scale)
        self._box_low = np.repeat(self._tcp_low[:, None], n, axis=1)
        self._box_high = np.repeat(self._tcp_high[:, None], n, axis=1)
        self._tcp_to_hands = np.repeat(self._tcp_to_hand[:, None], n, axis=1)
        self._hand_buffer = np.zeros((3, n))
        self._hands = self._hand_buffer.T
        self._grip_targets = np.zeros(n)
        self._grip_ones = np.ones(n)
        self._half_spans = np.full(n, HALF_GRIPPER_SPAN)
        self._margins = np.full(n, model.FINGER_LIMIT_MARGIN)
        self._goal_rows, self._previous_rows = np.zeros((3, n)), np.zeros((3, n))

        # The infos' constant arrays, copied each step (a copy is cheaper than a new array).
        self._every = np.ones(num_envs, dtype=bool)
        self._none = np.zeros(num_envs, dtype=bool)
        self._no_errors = np.full(num_envs, None, dtype=object)

        self.rngs: list[np.random.Generator | None] = [None] * num_envs
        self.goals = self._goal_rows.T
        self.targets = self._target_rows.T
        self.previous_tcp = self._previous_rows.T
        self._writer = observation.ObservationWriter(
            self._tcp, self.previous_tcp, self._qpos, self._qvel, self.control_dt, t.low, t.high
        )
        # The scorer reads the positions the writer copied out, as contiguous rows.
        self._scorer = BatchScorer(self.task, self._writer.tcp.T, self._writer.cube.T, self.goals)
        # Episode lengths as the step count less each episode's first step: one Python
        # int a step instead of an array update, and no truncation test before the
        # earliest episode can reach the limit.
        self._steps = 0
        self._started = np.zeros(num_envs, dtype=np.int64)
        self._first_truncation = math.inf
        self._stage = int(mujoco.mjtStage.mjSTAGE_POS)
        self._autoreset = self._none
        self._any_autoreset = False
        self._dense = t.reward_type == "dense"
        self._vector = t.observation_mode == "vector"

    # -- reset -------------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        """Reset every sub-environment (or those in ``options["reset_mask"]``).

        Args:
            seed: None, an int (per-env seeds derived from it), or one seed per env.
            options: ``{"reset_mask": bool array}`` resets only the masked envs.
        """
        seeds: list[int | None]
        if seed is None:
            seeds = [None] * self.num_envs
        elif isinstance(seed, list | tuple | np.ndarray):
            seeds = list(seed)
        else:  # one int (Python or numpy)
            seeds = list(derive_seeds(int(seed), self.num_envs, "vector"))
        if len(seeds) != self.num_envs:
            raise ValueError(f"expected {self.num_envs} seeds, got {len(seeds)}")
        mask = np.ones(self.num_envs, dtype=bool)
        if options is not None and "reset_mask" in options:
            mask = np.array(options["reset_mask"], dtype=bool)
            if mask.shape != (self.num_envs,) or not mask.any():
                raise ValueError("options['reset_mask'] must be a bool array with a True entry")
        for i in np.flatnonzero(mask):
            if seeds[i] is not None or self.rngs[i] is None:
                self.rngs[i], _ = seeding.np_random(seeds[i])
        ids = np.flatnonzero(mask)
        self._start_episodes(ids)
        self._autoreset[ids] = False
        self._any_autoreset = bool(self._autoreset.any())
        observations, _, _, infos = self._outcome(None)
        for key in [k for k in infos if k.startswith("_")]:
            infos[key] = mask  # as SyncVectorEnv: infos of the envs reset
        return observations, infos

    def _start_episodes(self, ids: np.ndarray) -> None:
        """Draw layouts for ``ids`` from their generators and put their arms home."""
        if ids.size == 0:
            return
        mujoco = self.mujoco
        cube_xy = np.zeros((ids.size, 2))
        for row, i in enumerate(ids):
            rng = self.rngs[i]
            assert rng is not None
            cube_xy[row], self.goals[i] = self.task.sample(rng)
        self.batch.reset(ids, keyframe=0, stage=mujoco.mjtStage.mjSTAGE_NONE)
        self._qpos[ids, 0:2] = cube_xy
        self._mocap[ids, GOAL_MOCAP] = self.goals[ids]
        self.targets[ids] = model.HOME_TCP
        self._mocap[ids, HAND_MOCAP] = self.targets[ids] + self._tcp_to_hand
        self.batch.forward(ids)
        self.previous_tcp[ids] = self._site_xpos[ids, TCP_SITE]
        if self.template.goal_observable:
            self._writer.set_goals(ids, self.goals[ids])
        self._started[ids] = self._steps
        if self.max_episode_steps is not None:
            self._first_truncation = int(self._started.min()) + self.max_episode_steps

    @property
    def elapsed(self) -> np.ndarray:
        """Steps taken in each env's episode."""
        elapsed: np.ndarray = self._steps - self._started
        return elapsed

    # -- step --------------------------------------------------------------------------
    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every sub-environment; those whose episode ended last step are reset.

        A finite numeric ``(num_envs, 4)`` array with no episode to restart (nearly every
        step) skips the per-row parsing that other actions get.
        """
        if (
            not self._any_autoreset
            and type(actions) is ndarray
            and actions.shape == self._action_shape
            and actions.dtype.char in WIDENED_EXACTLY
        ):
            rows = self._action_rows
            rows[...] = actions.T  # widened to float64, then clipped
            # Every value finite: the flags compared as bytes, a fraction of what a
            # reduction (np.all, a sum) costs at this size, and never a warning.
            isfinite(self._action_values, self._finite)
            if self._finite.tobytes() == self._all_finite:
                clip(rows, self._minus_ones, self._ones, rows)
                return self._step_every_env()
        values, errors = self._parse(actions)
        if errors is None and not self._any_autoreset:
            self._action_rows[...] = values.T
            return self._step_every_env()
        return self._step_some_envs(values, errors)

    def _step_every_env(self) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """The common case: every action well formed, no episode to restart.

        The clipped actions are in ``self._action_rows``. Every operation writes in
        place, in the single env's order: target + move × scale, clipped into the box.
        """
        targets, scaled, grip = self._target_rows, self._scaled, self._grip_targets
        # Outputs given as positional arguments: numpy parses keywords on every call.
        multiply(self._moves, self._scales, scaled)
        add(targets, scaled, targets)
        clip(targets, self._box_low, self._box_high, targets)
        # The hands through a contiguous buffer: a ufunc writing the strided mocap rows
        # would take numpy's general iterator, which costs more than this copy.
        add(targets, self._tcp_to_hands, self._hand_buffer)
        self._hand[...] = self._hands
        # gripper_control, in place: margin + half span × (1 - command)
        subtract(self._grip_ones, self._grips, grip)
        multiply(self._half_spans, grip, grip)
        add(self._margins, grip, self._grip)
        # Every batch call is followed by a write, so the writer holds the TCP positions.
        self._previous_rows[...] = self._writer.tcp
        self.batch.step(None, self.frame_skip, self._stage)
        self._steps += 1
        observations, rewards, success, infos = self._outcome(None)
        terminated, truncated = self._episode_ends(success, None)
        return observations, rewards, terminated, truncated, infos

    def _step_some_envs(
        self, values: np.ndarray, errors: list[str | None] | None
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Malformed actions hold still with a penalty; ended episodes restart instead."""
        resetting = self._autoreset
        valid = ~resetting
        if errors is not None:
            valid &= np.array([e is None for e in errors])
        a = values[valid]
        targets = self.targets[valid] + a[:, :3] * self.scale
        np.minimum(np.maximum(targets, self._tcp_low, out=targets), self._tcp_high, out=targets)
        self.targets[valid] = targets
        self._mocap[valid, HAND_MOCAP] = targets + self._tcp_to_hand
        self._ctrl[valid, 0] = gripper_control(a[:, 3])

        step_ids = np.flatnonzero(~resetting)
        self.previous_tcp[step_ids] = self._site_xpos[step_ids, TCP_SITE]
        if step_ids.size:
            self.batch.step(step_ids, nstep=self.frame_skip, stage=self._stage)
        self._steps += 1
        self._start_episodes(np.flatnonzero(resetting))

        penalty = np.where(valid | resetting, 0.0, self.template.invalid_action_penalty)
        observations, rewards, success, infos = self._outcome(penalty)
        rewards[resetting] = 0.0
        if errors is not None:
            infos["parse_error"] = np.array(
                [None if reset else error for reset, error in zip(resetting, errors, strict=True)],
                dtype=object,
            )
        terminated, truncated = self._episode_ends(success, resetting)
        return observations, rewards, terminated, truncated, infos

    def _episode_ends(
        self, success: np.ndarray, resetting: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Terminations and truncations (none for envs that were just reset)."""
        terminate = self.template.terminate_on_success
        truncate = self._steps >= self._first_truncation
        if not (terminate or truncate):  # the common step: one new array for both
            # Its rows by index: unpacking an array raises and catches an IndexError.
            both = zeros((2, self.num_envs), dtype=bool)
            terminated, truncated = both[0], both[1]
            self._autoreset, self._any_autoreset = self._none, False
            return terminated, truncated
        if terminate:
            terminated = success.copy()
            if resetting is not None:
                terminated &= ~resetting
        else:
            terminated = self._none.copy()
        if truncate:
            # As Gymnasium's TimeLimit: the limit truncates even a step that also terminates.
            assert self.max_episode_steps is not None
            truncated = self.elapsed >= self.max_episode_steps
            if resetting is not None:
                truncated &= ~resetting
        else:
            truncated = self._none.copy()
        self._autoreset = np.logical_or(terminated, truncated)
        self._any_autoreset = bool(np.count_nonzero(self._autoreset))
        return terminated, truncated

    def _parse(self, actions: Any) -> tuple[np.ndarray, list[str | None] | None]:
        """Actions as float64 rows clipped to [-1, 1], and each row's parse error.

        The errors are None when every row is well formed.
        """
        n = self.num_envs
        array = actions if isinstance(actions, np.ndarray) else None
        if array is None:
            try:
                array = np.asarray(actions)
            except Exception:  # anything numpy cannot hold is malformed
                array = np.empty(0, dtype=object)
        if array.shape != (n, 4) or array.dtype.kind not in "fiu":
            message = f"expected numeric actions of shape ({n}, 4), got {array.dtype} {array.shape}"
            return np.zeros((n, 4)), [message] * n
        values = array.astype(np.float64)
        finite = np.isfinite(values)
        np.minimum(np.maximum(values, -1.0, out=values), 1.0, out=values)
        if finite.all():
            return values, None
        rows: Any = finite.all(axis=1).tolist()
        return values, [None if ok else NOT_FINITE for ok in rows]

    # -- observations and rewards ------------------------------------------------------
    def _outcome(
        self, penalty: np.ndarray | None
    ) -> tuple[Any, np.ndarray, np.ndarray, dict[str, Any]]:
        """Observations, rewards, successes and infos of every env, at the current state."""
        tcp, t = self._tcp, self.template
        vectors = self._writer.write()
        score, success, goal_distance = self._scorer.evaluate()
        rewards = score.copy() if self._dense else success.astype(np.float64)
        if penalty is not None:
            rewards -= penalty
        every = self._every.copy()  # each env reports every key
        infos: dict[str, Any] = {
            "success": success,
            "_success": every,
            "score": score,
            "_score": every,
            "goal_distance": goal_distance,
            "_goal_distance": every,
            "parse_error": self._no_errors.copy(),
            "_parse_error": every,
        }
        if self._vector:
            return vectors, rewards, success, infos
        infos[TCP_KEY] = tcp.copy()
        infos[f"_{TCP_KEY}"] = every
        achieved = np.array(self.task.achieved(tcp, self._cube))
        np.clip(achieved, t.achieved_low, t.achieved_high, out=achieved)  # as the single env
        goal_dicts = {
            "observation": vectors[:, : observation.STATE_SIZE].copy(),
            "achieved_goal": achieved,
            "desired_goal": self.goals.copy(),
        }
        return goal_dicts, rewards, success, infos

    @property
    def compute_reward(self) -> Callable[[Any, Any, Any], Any]:
        """The step reward of goal pairs, as :attr:`ArmEnv.compute_reward` (goal_dict only).

        ``info`` may also be this env's infos (a dict of per-env arrays).
        """
        t = self.template
        if t.observation_mode != "goal_dict":
            raise AttributeError(NOT_GOAL_CONDITIONED)
        return functools.partial(goal_reward, self.task, t.reward_type, t.invalid_action_penalty)

    def close_extras(self, **kwargs: Any) -> None:
        """Release the template env."""
        self.template.close()


class ArmReachBatchedVectorEnv(ArmBatchedVectorEnv):
    """Batched ``envsuite/ArmReach-v0``."""

    env_class = ArmReachEnv


class ArmPushBatchedVectorEnv(ArmBatchedVectorEnv):
    """Batched ``envsuite/ArmPush-v0``."""

    env_class = ArmPushEnv


class ArmPickPlaceBatchedVectorEnv(ArmBatchedVectorEnv):
    """Batched ``envsuite/ArmPickPlace-v0``."""

    env_class = ArmPickPlaceEnv
