"""ArmPush-v0 against the raw MuJoCo loop doing the same physics.

One episode of recorded oracle actions (so the hand really pushes the cube) through
``envsuite.make`` (the wrappers users get), against the raw engine loop: the same model,
the same initial state and per step only the env's engine calls, ``mj_step(model, data,
nstep=frame_skip)`` and ``mj_kinematics(model, data)``, after writing the hand target and
the grip control the env produced into views bound once. Both end in the bit-identical
state. ``tests/benchmarks/test_arm_speed.py`` and ``envsuite bench --rows
arm-step`` time these loops, and the raw loop as the leanest ``gymnasium.Env``
(:mod:`envsuite.bench.arm_floor`), which ends there too. ``--rows arm-batch`` times the
batched vector env (8 envs) against the raw ``mujoco.batch.Batch`` doing the same physics,
and SyncVectorEnv.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mujoco
import numpy as np

import envsuite
from envsuite.families.physics.arm.scripted_oracle import arm_oracle
from envsuite.seeding import derive_seeds

ARM = "envsuite/ArmPush-v0"
STEPS = 150
SEED = 7
FRAME_SKIP = 10


@dataclass
class Recording:
    """One episode as the raw loop replays it: start state, per-step inputs, end state."""

    qpos: np.ndarray
    mocap_pos: np.ndarray
    actions: list[np.ndarray]
    hand: list[list[float]]
    ctrl: list[float]
    final_qpos: bytes


def record(seed: int, steps: int) -> Recording:
    """Run the oracle once (untimed) and record what the env fed MuJoCo each step."""
    env = envsuite.make(ARM)
    oracle = arm_oracle(env)
    obs, info = env.reset(seed=seed)
    data = env.unwrapped.data
    start = Recording(data.qpos.copy(), data.mocap_pos.copy(), [], [], [], b"")
    for _ in range(steps):
        action = oracle.act(obs, info)
        obs, _, _, _, info = env.step(action)
        start.actions.append(action)
        start.hand.append(data.mocap_pos[0].tolist())
        start.ctrl.append(float(data.ctrl[0]))
    start.final_qpos = data.qpos.tobytes()
    return start


def raw_start(model: Any, data: Any, recording: Recording) -> None:
    """The env's reset, as raw calls: home keyframe, the drawn layout, forward."""
    mujoco.mj_resetDataKeyframe(model, data, 0)
    data.qpos[:] = recording.qpos
    data.mocap_pos[:] = recording.mocap_pos
    mujoco.mj_forward(model, data)


def env_episode(env: Any, actions: list[np.ndarray]) -> bytes:
    """Reset with SEED and take ``actions``; the final joint positions."""
    env.reset(seed=SEED)
    for action in actions:
        env.step(action)
    return bytes(env.unwrapped.data.qpos.tobytes())


def raw_episode(model: Any, data: Any, recording: Recording) -> bytes:
    """Replay ``recording`` with the env's engine calls; the final joint positions.

    Per step, the env's calls and nothing more: the recorded inputs written into views
    bound once, ``mj_step(model, data, nstep=FRAME_SKIP)``, then ``mj_kinematics``, which
    the env runs to observe the hand at the state reached (``mj_step`` leaves the positions
    it derives one substep behind; see :mod:`envsuite.bench.arm_floor`).
    """
    raw_start(model, data, recording)
    hand, ctrl = data.mocap_pos[0], data.ctrl
    step, kinematics = mujoco.mj_step, mujoco.mj_kinematics
    for (x, y, z), grip in zip(recording.hand, recording.ctrl, strict=True):
        hand[0], hand[1], hand[2] = x, y, z
        ctrl[0] = grip
        step(model, data, FRAME_SKIP)
        kinematics(model, data)
    return bytes(data.qpos.tobytes())


# -- the batched vector env ---------------------------------------------------------------
VECTOR_STEPS = 100
NUM_ENVS = 8


def vector_recordings() -> list[Recording]:
    """One recorded episode per sub-env, at the seeds ``make_vec(ARM, NUM_ENVS)`` derives."""
    return [record(seed, VECTOR_STEPS) for seed in derive_seeds(SEED, NUM_ENVS, "vector")]


def vector_episode(env: Any, actions: np.ndarray) -> None:
    """Reset a vector env with SEED and take the stacked ``actions`` ``(steps, n, 4)``."""
    env.reset(seed=SEED)
    for action in actions:
        env.step(action)


def raw_batch_episode(
    batch: Any, recordings: list[Recording], stage: int = mujoco.mjtStage.mjSTAGE_POS
) -> bytes:
    """The batched env's physics as raw ``Batch`` calls: the same inputs, the position stage.

    ``stage=mjSTAGE_POS`` (the default) brings positions to the state reached, as the env
    must (the single env's ``mj_kinematics``); ``mjSTAGE_NONE`` only steps. The final joint
    positions of every simulation.
    """
    qpos, mocap, ctrl = batch.bind("qpos"), batch.bind("mocap_pos"), batch.bind("ctrl")
    batch.reset(keyframe=0, stage=mujoco.mjtStage.mjSTAGE_NONE)
    qpos[:] = np.stack([r.qpos for r in recordings])
    mocap[:] = np.stack([r.mocap_pos for r in recordings])
    batch.forward()
    hands = np.stack([np.stack(r.hand) for r in recordings], axis=1)
    ctrls = np.array([r.ctrl for r in recordings]).T
    for t in range(len(hands)):
        mocap[:, 0] = hands[t]
        ctrl[:, 0] = ctrls[t]
        batch.step(nstep=FRAME_SKIP, stage=stage)
    return bytes(qpos.tobytes())
