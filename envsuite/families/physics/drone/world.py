"""The PyBullet world of the drone envs: one DIRECT client, the ground, drones and gates.

The world is built once per env. Every episode starts from a saved state
(``saveState`` / ``restoreState``, about a microsecond) instead of ``resetSimulation`` and
reloading URDF files (about 12 ms in gym-pybullet-drones), then places the bodies where the
episode wants them.

A PyBullet client cannot be pickled, so :class:`DroneWorld` pickles its configuration, the
drones' masses and inertias, and a ``saveBullet`` snapshot of the dynamics world (exact
poses and velocities of every body); unpickling builds a new client and restores them.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
import tempfile
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from envsuite.families.physics.drone.models import (
    GRAVITY,
    QuadModel,
    gate_urdf_text,
    write_text_file,
    write_urdf,
)
from envsuite.registry import import_optional

#: Where unused gates wait, far from the flying area.
PARKING_DISTANCE = 1000.0

Vector = tuple[float, float, float]
Quaternion = tuple[float, float, float, float]
BodyState = tuple[Vector, Quaternion, Vector, Vector]


def _flush_c_streams() -> None:
    """Flush the C library's stdio buffers (into a pipe, printf output waits there)."""
    with contextlib.suppress(OSError, AttributeError, TypeError):  # no C library (not POSIX)
        ctypes.CDLL(None).fflush(None)


@contextmanager
def _c_output_silenced() -> Iterator[None]:
    """Send what is written to file descriptors 1 and 2 meanwhile to the null device.

    PyBullet's C code prints ``pybullet build time: ...`` when it is imported (to stderr
    in current wheels, to stdout in older ones), into the output of every command that
    makes a drone env. Python's own buffers are flushed first, so nothing written before
    is lost or reordered, and the C buffers are flushed into the null device before the
    descriptors come back. The redirection is process-wide for the milliseconds of the
    import; an import error still arrives as an exception.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    saved: list[int] = []
    try:
        for fd in (1, 2):
            saved.append(os.dup(fd))
    except OSError:  # a descriptor is closed (a daemon): nothing to keep quiet
        for copy in saved:
            os.close(copy)
        yield
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in (1, 2):
            os.dup2(null, fd)
        yield
    finally:
        _flush_c_streams()
        for fd, copy in zip((1, 2), saved, strict=True):
            os.dup2(copy, fd)
            os.close(copy)
        os.close(null)


def pybullet_module() -> Any:
    """Import PyBullet (without its build-time banner), or raise naming the ``physics`` extra.

    This is the family's one import point of PyBullet.
    """
    if "pybullet" in sys.modules:
        return import_optional("pybullet", extra="physics")
    with _c_output_silenced():
        return import_optional("pybullet", extra="physics")


class DroneWorld:
    """A PyBullet client holding the ground plane, ``num_drones`` drones and ``num_gates`` gates.

    Args:
        model: The airframe (its URDF is generated and loaded).
        num_drones: Number of drone bodies.
        physics_freq: Physics steps per second (``setTimeStep(1 / physics_freq)``).
        num_gates: Number of gate bodies (placed by the task each episode).
        gate_opening: Side of a gate's square opening (m).
        gate_bar: Width of a gate's frame bars (m).

    Attributes:
        client: The PyBullet client id.
        drones: Body ids of the drones, in agent order.
        gates: Body ids of the gates.
        plane: Body id of the ground.
    """

    def __init__(
        self,
        model: QuadModel,
        num_drones: int,
        physics_freq: int,
        num_gates: int = 0,
        gate_opening: float = 0.5,
        gate_bar: float = 0.05,
    ) -> None:
        self.model = model
        self.num_drones = num_drones
        self.physics_freq = physics_freq
        self.num_gates = num_gates
        self.gate_opening = gate_opening
        self.gate_bar = gate_bar
        self._build()

    def _build(self) -> None:
        p = pybullet_module()
        pybullet_data = import_optional("pybullet_data", extra="physics")
        self.p = p
        self.client: int = p.connect(p.DIRECT)
        # Disconnect when the env is garbage collected, even if close() is never called.
        self._finalizer = weakref.finalize(self, _disconnect, p, self.client)
        cid = self.client
        p.setGravity(0.0, 0.0, -GRAVITY, physicsClientId=cid)
        p.setTimeStep(1.0 / self.physics_freq, physicsClientId=cid)
        p.setRealTimeSimulation(0, physicsClientId=cid)
        self.plane: int = p.loadURDF(
            f"{pybullet_data.getDataPath()}/plane.urdf", physicsClientId=cid
        )
        urdf = str(write_urdf(self.model))
        self.drones: list[int] = []
        for index in range(self.num_drones):
            body = p.loadURDF(
                urdf,
                [PARKING_DISTANCE, 2.0 * index, 1.0],
                flags=p.URDF_USE_INERTIA_FROM_FILE,
                physicsClientId=cid,
            )
            # A sleeping body ignores small forces and its sleep timer is state that is not
            # saved; drones never sleep.
            p.changeDynamics(
                body,
                -1,
                activationState=p.ACTIVATION_STATE_DISABLE_SLEEPING,
                linearDamping=0.0,
                angularDamping=0.0,
                physicsClientId=cid,
            )
            self.drones.append(body)
        self.gates: list[int] = []
        if self.num_gates:
            gate = str(
                write_text_file(
                    gate_urdf_text(self.gate_opening, self.gate_bar, self.gate_bar),
                    "gate",
                )
            )
            for index in range(self.num_gates):
                self.gates.append(
                    p.loadURDF(
                        gate,
                        [-PARKING_DISTANCE, 2.0 * index, 1.0],
                        useFixedBase=True,
                        physicsClientId=cid,
                    )
                )
        self.initial_state: int = p.saveState(physicsClientId=cid)

    # -- episodes ----------------------------------------------------------------------
    def restore(self) -> None:
        """Put every body back where the world was built (velocities zero)."""
        self.p.restoreState(self.initial_state, physicsClientId=self.client)

    def place(
        self,
        body: int,
        position: Sequence[float],
        quaternion: Sequence[float] = (0.0, 0.0, 0.0, 1.0),
        velocity: Sequence[float] = (0.0, 0.0, 0.0),
        angular_velocity: Sequence[float] = (0.0, 0.0, 0.0),
    ) -> None:
        """Set a body's pose and velocities (world frame)."""
        p, cid = self.p, self.client
        # Positional client ids: PyBullet parses keywords about twice as slowly.
        p.resetBasePositionAndOrientation(body, position, quaternion, cid)
        p.resetBaseVelocity(body, velocity, angular_velocity, cid)

    def set_inertial(self, drone: int, mass: float, inertia: Sequence[float]) -> None:
        """Give drone number ``drone`` a mass and principal inertia (domain randomisation)."""
        self.p.changeDynamics(
            self.drones[drone],
            -1,
            mass=float(mass),
            localInertiaDiagonal=[float(v) for v in inertia],
            physicsClientId=self.client,
        )

    def body_state(self, body: int) -> BodyState:
        """Position, quaternion (x, y, z, w), velocity and angular velocity (world frame)."""
        p, cid = self.p, self.client
        position, quaternion = p.getBasePositionAndOrientation(body, physicsClientId=cid)
        velocity, angular = p.getBaseVelocity(body, physicsClientId=cid)
        return position, quaternion, velocity, angular

    def contacts(self, body: int) -> list[int]:
        """Ids of the bodies ``body`` touched during the last physics step."""
        points = self.p.getContactPoints(bodyA=body, physicsClientId=self.client)
        return sorted({point[2] for point in points})

    def close(self) -> None:
        """Disconnect the client (idempotent)."""
        self._finalizer()

    # -- pickling ----------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        inertials = []
        for body in self.drones:
            info = self.p.getDynamicsInfo(body, -1, physicsClientId=self.client)
            inertials.append((info[0], tuple(info[2])))
        return {
            "model": self.model,
            "num_drones": self.num_drones,
            "physics_freq": self.physics_freq,
            "num_gates": self.num_gates,
            "gate_opening": self.gate_opening,
            "gate_bar": self.gate_bar,
            "bullet": self._save_bullet(),
            "inertials": inertials,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        for key in ("model", "num_drones", "physics_freq", "num_gates", "gate_opening"):
            setattr(self, key, state[key])
        self.gate_bar = state["gate_bar"]
        self._build()
        for drone, (mass, inertia) in enumerate(state["inertials"]):
            self.set_inertial(drone, mass, inertia)
        self._restore_bullet(state["bullet"])

    def _save_bullet(self) -> bytes:
        """The whole dynamics world as a ``.bullet`` snapshot.

        Exact to the last bit, which ``resetBasePositionAndOrientation`` is not (it
        renormalises quaternions).
        """
        handle, path = tempfile.mkstemp(suffix=".bullet")
        os.close(handle)
        try:
            self.p.saveBullet(path, physicsClientId=self.client)
            return Path(path).read_bytes()
        finally:
            os.unlink(path)

    def _restore_bullet(self, snapshot: bytes) -> None:
        handle, path = tempfile.mkstemp(suffix=".bullet")
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(snapshot)
            self.p.restoreState(fileName=path, physicsClientId=self.client)
        finally:
            os.unlink(path)


def _disconnect(p: Any, client: int) -> None:
    try:
        if p.isConnected(physicsClientId=client):
            p.disconnect(physicsClientId=client)
    except Exception:  # interpreter shutdown: the module may already be gone
        pass
