"""The arm's observation: its layout, its bounds, and how it is written from the state.

Every arm task has the same 26 numbers, so one policy (or one multi-task learner) can run
on all of them. The bounds are real bounds: each value is clipped into its declared range
before it is returned, so an observation is always inside ``observation_space`` — the
clip is a safety net; in normal play the values stay well inside (a test checks this).

The writer works on one env (arrays of shape ``(k,)``) and on a batch (``(n, k)``) alike,
with the same elementwise operations in the same order, so the batched vector env gives
the very bytes the single env gives.
"""

from __future__ import annotations

import importlib
import struct
from collections.abc import Mapping
from typing import Any

import numpy as np

from envsuite.families.physics.arm import model

try:
    _umath = importlib.import_module("numpy._core.umath")
except ImportError:  # numpy 1.x
    _umath = importlib.import_module("numpy.core.umath")
#: numpy's clip ufunc: ``np.clip``'s work in one call, without its Python wrapper.
clip: Any = _umath.clip
# The writer's numpy names, bound once: numpy has a module ``__getattr__``, so Python
# cannot cache ``np.add`` and looks it up in full on every use.
add, divide, subtract, float32 = np.add, np.divide, np.subtract, np.float32

#: (name, size) of each observation field, in order.
FIELDS: tuple[tuple[str, int], ...] = (
    ("tcp_pos", 3),
    ("tcp_vel", 3),
    ("gripper_gap", 1),
    ("cube_pos", 3),
    ("cube_quat", 4),
    ("cube_linvel", 3),
    ("cube_angvel", 3),
    ("cube_from_tcp", 3),
    ("goal", 3),
)


def _slices() -> dict[str, slice]:
    out: dict[str, slice] = {}
    start = 0
    for name, size in FIELDS:
        out[name] = slice(start, start + size)
        start += size
    return out


#: Where each field sits in the vector observation.
SLICES: Mapping[str, slice] = _slices()
#: Length of the vector observation.
SIZE = sum(size for _, size in FIELDS)
#: Length of the goal-free part (the ``observation`` entry in goal-dict mode).
STATE_SIZE = SLICES["goal"].start

#: Largest TCP speed and cube speeds reported (m/s and rad/s).
MAX_TCP_SPEED = 4.0
MAX_CUBE_SPEED = 5.0
MAX_CUBE_SPIN = 200.0
#: Margin around the TCP target box that the hand may lag or overshoot into.
TCP_MARGIN = 0.05
#: Margin around the gripper gap's range: MuJoCo's joint limits are soft constraints.
GAP_MARGIN = 0.01
#: Region the cube's centre is reported in (x, y, z): far beyond the arm's reach.
CUBE_LOW = (-0.2, -0.8, -0.05)
CUBE_HIGH = (1.1, 0.8, 0.8)
#: Box every task's goals are drawn from (x, y, z).
GOAL_LOW = (0.3, -0.25, model.CUBE_HALF)
GOAL_HIGH = (0.6, 0.25, 0.3)


def bounds(goal_observable: bool) -> tuple[np.ndarray, np.ndarray]:
    """Low and high bounds of the vector observation (float32, as the space holds them).

    With ``goal_observable=False`` the goal field is always zero; its bounds are then the
    goal box stretched to hold zero (equal low and high bounds upset Gymnasium's checker).
    """
    tcp_low = np.array(model.TCP_LOW) - TCP_MARGIN
    tcp_high = np.array(model.TCP_HIGH) + TCP_MARGIN
    cube_low, cube_high = np.array(CUBE_LOW), np.array(CUBE_HIGH)
    low = np.empty(SIZE)
    high = np.empty(SIZE)
    parts: dict[str, tuple[Any, Any]] = {
        "tcp_pos": (tcp_low, tcp_high),
        "tcp_vel": (-MAX_TCP_SPEED, MAX_TCP_SPEED),
        "gripper_gap": (-GAP_MARGIN, model.MAX_GRIPPER_GAP + GAP_MARGIN),
        "cube_pos": (cube_low, cube_high),
        "cube_quat": (-1.0, 1.0),
        "cube_linvel": (-MAX_CUBE_SPEED, MAX_CUBE_SPEED),
        "cube_angvel": (-MAX_CUBE_SPIN, MAX_CUBE_SPIN),
        "cube_from_tcp": (cube_low - tcp_high, cube_high - tcp_low),
        "goal": (np.array(GOAL_LOW), np.array(GOAL_HIGH)),
    }
    for name, (lo, hi) in parts.items():
        low[SLICES[name]] = lo
        high[SLICES[name]] = hi
    if not goal_observable:
        goal = SLICES["goal"]
        low[goal] = np.minimum(low[goal], 0.0)
        high[goal] = np.maximum(high[goal], 0.0)
    return low.astype(np.float32), high.astype(np.float32)


def observation_row(
    tcp: list[float],
    previous_tcp: list[float],
    qpos: list[float],
    qvel: list[float],
    goal: list[float] | None,
    control_dt: float,
    low: np.ndarray,
    high: np.ndarray,
) -> np.ndarray:
    """One env's observation (float32) from its state, as Python floats, clipped.

    The values are rounded to float32 and then clipped to the float32 bounds, which is
    the same as clipping first: rounding is monotonic.

    Args:
        tcp: TCP position now.
        previous_tcp: TCP position one control step ago (the velocity is the difference
            over ``control_dt``).
        qpos: All joint positions.
        qvel: Joint velocities (at least the cube's six).
        goal: The goal, or None to show zeros.
        control_dt: Seconds per env step.
        low: Lower bounds from :func:`bounds`, as float32.
        high: Upper bounds from :func:`bounds`, as float32.
    """
    tx, ty, tz = tcp
    px, py, pz = previous_tcp
    cx, cy, cz = qpos[0], qpos[1], qpos[2]
    finger = model.FINGER_QPOS.start
    row = (
        tx, ty, tz,
        (tx - px) / control_dt, (ty - py) / control_dt, (tz - pz) / control_dt,
        qpos[finger] + qpos[finger + 1],
        cx, cy, cz, qpos[3], qpos[4], qpos[5], qpos[6],
        qvel[0], qvel[1], qvel[2], qvel[3], qvel[4], qvel[5],
        cx - tx, cy - ty, cz - tz,
        *(goal if goal is not None else (0.0, 0.0, 0.0)),
    )  # fmt: skip
    try:
        # One C call rounding to float32 as numpy's cast does; the clip writes a new array.
        values = np.frombuffer(_ROW.pack(*row), np.float32)
    except (OverflowError, struct.error):  # beyond float32 (struct refuses; numpy gives inf)
        values = np.array(row, dtype=np.float32)
    clipped: np.ndarray = clip(values, low, high)
    return clipped


#: Packs one observation row as native float32.
_ROW = struct.Struct(f"={SIZE}f")


class ObservationWriter:
    """Writes the observations of ``n`` envs from state arrays that never move.

    The batched vector env's state arrays (``mujoco.batch`` bindings) and its previous
    TCP positions stay where they are for the env's life, so the writer binds every
    view it needs once. Its float64 work array holds one row per observation entry and
    one column per env, so that every field is a contiguous block: numpy's call costs
    more than its arithmetic at a vector env's sizes, and much more on strided views.
    A call copies the state in (three copies), runs four operations, clips and returns
    the transposed float32 copy: the same operations as :func:`observation_row`, entry
    by entry, so every value has the same bits. (Clipping in float64 then rounding to
    float32 gives what rounding then clipping gives: rounding is monotonic and the
    bounds are float32 numbers.) Scalars are given as arrays of the operands' shape:
    numpy converts a Python float on every call.

    The goal rows are not read from the state: :meth:`set_goals` writes them (they
    change only when an episode starts), and they stay zero when the goal is hidden.

    Attributes:
        tcp: The TCP positions the last :meth:`write` read, ``(3, n)`` float64.
        cube: The cube positions it read, ``(3, n)`` float64.
    """

    def __init__(
        self,
        tcp: np.ndarray,
        previous_tcp: np.ndarray,
        qpos: np.ndarray,
        qvel: np.ndarray,
        control_dt: float,
        low: np.ndarray,
        high: np.ndarray,
    ) -> None:
        """Bind the views.

        Args:
            tcp: TCP positions, ``(n, 3)``.
            previous_tcp: TCP positions one control step ago, ``(n, 3)`` (fastest as the
                transpose of a ``(3, n)`` array).
            qpos: Joint positions, ``(n, nq)``.
            qvel: Joint velocities, ``(n, nv)``.
            control_dt: Seconds per env step.
            low: Lower bounds from :func:`bounds`, as float32.
            high: Upper bounds from :func:`bounds`, as float32.
        """
        n = tcp.shape[0]
        finger = model.FINGER_QPOS.start
        self.work = np.zeros((SIZE, n))
        self._clipped = np.zeros((SIZE, n))
        w = self.work
        self.tcp = w[SLICES["tcp_pos"]]
        self.cube = w[SLICES["cube_pos"]]
        self._copies = (
            (self.tcp, tcp.T),
            (
                w[SLICES["cube_pos"].start : SLICES["cube_quat"].stop],
                qpos[:, model.CUBE_POS.start : model.CUBE_QUAT.stop].T,
            ),
            (
                w[SLICES["cube_linvel"].start : SLICES["cube_angvel"].stop],
                qvel[:, model.CUBE_LINVEL.start : model.CUBE_ANGVEL.stop].T,
            ),
        )
        self._previous = previous_tcp.T
        self._velocity = w[SLICES["tcp_vel"]]
        self._control_dt = np.full((3, n), control_dt)
        self._fingers = (qpos[:, finger], qpos[:, finger + 1], w[SLICES["gripper_gap"].start])
        self._relative = w[SLICES["cube_from_tcp"]]
        self._goal = w[SLICES["goal"]]
        self._low = np.repeat(low.astype(np.float64)[:, None], n, axis=1)
        self._high = np.repeat(high.astype(np.float64)[:, None], n, axis=1)
        self._clipped_rows = self._clipped.T  # (n, SIZE), as the observations are laid out

    def set_goals(self, ids: Any, goals: np.ndarray) -> None:
        """Show ``goals`` (``(len(ids), 3)``) in the observations of envs ``ids``."""
        self._goal[:, ids] = goals.T

    def write(self) -> np.ndarray:
        """The observations (float32, ``(n, SIZE)``) of the current state, clipped."""
        for target, source in self._copies:
            target[...] = source
        # Outputs given as positional arguments: numpy parses keywords on every call.
        subtract(self.tcp, self._previous, self._velocity)
        divide(self._velocity, self._control_dt, self._velocity)
        left, right, gap = self._fingers
        add(left, right, gap)
        subtract(self.cube, self.tcp, self._relative)
        clip(self.work, self._low, self._high, self._clipped)
        return self._clipped_rows.astype(float32, order="C")


def observation_rows(
    tcp: np.ndarray,
    previous_tcp: np.ndarray,
    qpos: np.ndarray,
    qvel: np.ndarray,
    goal: np.ndarray | None,
    control_dt: float,
    low: np.ndarray,
    high: np.ndarray,
) -> np.ndarray:
    """The observations (float32, ``(n, SIZE)``) of ``n`` envs; arrays have a leading ``n``.

    The same operations as :func:`observation_row`, column by column, so every value has
    the same bits (see :class:`ObservationWriter`, which this makes and runs once).
    """
    writer = ObservationWriter(tcp, previous_tcp, qpos, qvel, control_dt, low, high)
    if goal is not None:
        writer.set_goals(slice(None), goal)
    return writer.write()
