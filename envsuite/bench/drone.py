"""DroneHover-v0 against the raw PyBullet loop doing the same physics.

``envsuite_hover`` flies DroneHover-v0 through ``envsuite.make`` (Gymnasium's wrappers
included) with random RPM actions, resetting whenever an episode ends. :class:`RawHover`
is the leanest loop doing exactly the env's physics (``reference_style=False``): the same
URDF, 240 Hz, 8 physics steps per action, each applying the motors' net wrench, the same
crash rule and the same ``restoreState`` resets at the same seeded start poses; it flies
the env's trajectory to the last bit. With ``reference_style=True`` it is the loop
gym-pybullet-drones runs, leanly (its 5-link Crazyflie, forces at the propellers).
``tests/benchmarks/test_drone_speed.py`` and ``envsuite bench --rows drone-hover`` time
these loops.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pybullet as p
import pybullet_data

from envsuite.families.physics.drone.control import RateController
from envsuite.families.physics.drone.crashes import CRASH_TILT
from envsuite.families.physics.drone.models import MODELS, write_text_file, write_urdf
from envsuite.families.physics.drone.rotations import quaternion_from_yaw
from envsuite.seeding import make_generator

HOVER = "envsuite/DroneHover-v0"
STEPS = 3000
SEED = 2024
CF = MODELS["cf2x"]
ACTIONS = make_generator(0, "drone-benchmark").uniform(-1.0, 1.0, (STEPS, 4)).astype(np.float32)
ACTION_LISTS: list[list[float]] = ACTIONS.tolist()
#: The same actions as the rows an agent hands the env, made before the timing starts, as
#: :data:`ACTION_LISTS` are for the raw loops (iterating :data:`ACTIONS` would make a new
#: array view every step, which only the env loops would pay for).
ACTION_ROWS: list[np.ndarray] = list(ACTIONS)


# -- DroneHover-v0 and the raw loops -----------------------------------------------------
def envsuite_hover(env: Any) -> tuple[int, list[float]]:
    """STEPS random actions from a seeded reset; reset whenever an episode ends."""
    env.reset(seed=SEED)
    resets = 0
    observation: Any = None
    for action in ACTION_ROWS:
        observation, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            env.reset()
            resets += 1
    return resets, observation[:3].tolist()


def _crazyflie_world(urdf: str) -> tuple[int, int, int]:
    client = p.connect(p.DIRECT)
    p.setGravity(0.0, 0.0, -9.8, physicsClientId=client)
    p.setTimeStep(1.0 / 240, physicsClientId=client)
    p.loadURDF(f"{pybullet_data.getDataPath()}/plane.urdf", physicsClientId=client)
    body = p.loadURDF(
        urdf, [1000.0, 0.0, 1.0], flags=p.URDF_USE_INERTIA_FROM_FILE, physicsClientId=client
    )
    p.changeDynamics(
        body, -1, activationState=p.ACTIVATION_STATE_DISABLE_SLEEPING, linearDamping=0.0,
        angularDamping=0.0, physicsClientId=client,
    )  # fmt: skip
    return client, body, p.saveState(physicsClientId=client)


class RawHover:
    """The raw loops: DroneHover-v0's task (same starts, crash rule, episode length)."""

    def __init__(self, reference_style: bool) -> None:
        urdf = reference_urdf() if reference_style else write_urdf(CF)
        self.reference_style = reference_style
        self.client, self.body, self.saved = _crazyflie_world(str(urdf))
        self.rng = np.random.Generator(np.random.PCG64(0))

    def start(self) -> None:
        """Restore the saved world and place the drone at the env's next start pose."""
        # The env's draw: the start offset and the heading.
        ux, uy, uz, uyaw = self.rng.random(4).tolist()
        offset = (0.5 * (2.0 * ux - 1.0), 0.5 * (2.0 * uy - 1.0), 0.5 * (2.0 * uz - 1.0))
        position = [offset[0], offset[1], max(1.0 + offset[2], 0.3)]
        # The env's own level quaternion (no numpy: the env's reset has none either).
        quaternion = quaternion_from_yaw(math.pi * (2.0 * uyaw - 1.0))
        p.restoreState(self.saved, physicsClientId=self.client)
        p.resetBasePositionAndOrientation(self.body, position, quaternion, self.client)
        p.resetBaseVelocity(self.body, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], self.client)

    def __call__(self) -> tuple[int, list[float]]:
        """Fly :data:`ACTIONS` from a seeded start; return (resets, final position)."""
        self.rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(SEED)))
        self.start()
        hover, above = CF.hover_rpm, CF.max_rpm - CF.hover_rpm
        mix = CF.mixer().tolist()
        kf, km, spin = CF.kf, CF.km, CF.spin
        body, client = self.body, self.client
        force, torque, step = p.applyExternalForce, p.applyExternalTorque, p.stepSimulation
        pose, speed = p.getBasePositionAndOrientation, p.getBaseVelocity
        frame, origin = p.LINK_FRAME, [0.0, 0.0, 0.0]
        floor, ceiling, cos_tilt = 0.5 * CF.collision_height + 0.01, 2.5, math.cos(CRASH_TILT)
        steps, resets, position = 0, 0, (0.0, 0.0, 0.0)
        for a0, a1, a2, a3 in ACTION_LISTS:
            r0 = (a0 + 1.0) * hover if a0 <= 0.0 else hover + above * a0
            r1 = (a1 + 1.0) * hover if a1 <= 0.0 else hover + above * a1
            r2 = (a2 + 1.0) * hover if a2 <= 0.0 else hover + above * a2
            r3 = (a3 + 1.0) * hover if a3 <= 0.0 else hover + above * a3
            w0, w1, w2, w3 = r0 * r0, r1 * r1, r2 * r2, r3 * r3
            if self.reference_style:
                forces = [[0.0, 0.0, kf * w] for w in (w0, w1, w2, w3)]
                yaw = [0.0, 0.0, km * (spin[0] * w0 + spin[1] * w1 + spin[2] * w2 + spin[3] * w3)]
                for _ in range(8):
                    for link in range(4):
                        force(body, link, forces[link], origin, frame, client)
                    torque(body, 4, yaw, frame, client)
                    step(client)
            else:
                m = mix
                thrust = [0.0, 0.0, m[0][0] * w0 + m[0][1] * w1 + m[0][2] * w2 + m[0][3] * w3]
                moment = [
                    m[1][0] * w0 + m[1][1] * w1 + m[1][2] * w2 + m[1][3] * w3,
                    m[2][0] * w0 + m[2][1] * w1 + m[2][2] * w2 + m[2][3] * w3,
                    m[3][0] * w0 + m[3][1] * w1 + m[3][2] * w2 + m[3][3] * w3,
                ]
                for _ in range(8):
                    force(body, -1, thrust, origin, frame, client)
                    torque(body, -1, moment, frame, client)
                    step(client)
            steps += 1
            position, quaternion = pose(body, client)
            speed(body, client)
            x, y, z = position
            qx, qy = quaternion[0], quaternion[1]
            crashed = (
                z < floor
                or 1.0 - 2.0 * (qx * qx + qy * qy) < cos_tilt
                or abs(x) > 2.0
                or abs(y) > 2.0
                or z > ceiling
            )
            if crashed or steps >= 240:
                self.start()
                steps = 0
                resets += 1
        return resets, list(position)


class RawHoverRates(RawHover):
    """The raw loop of DroneHover-v0 with CTBR actions (``action_type="ctbr"``).

    The same world, starts and crash rule as :class:`RawHover`; every physics step reads the
    pose and velocity, turns the angular velocity into body rates, runs the rate loop
    (``τ = J k (ω_d − ω) + ω × Jω``, motors allocated giving up yaw first) and applies the
    motors' net wrench, all written out inline with the env's constants. It flies the
    env's trajectory to the last bit.
    """

    def __init__(self) -> None:
        super().__init__(reference_style=False)

    def __call__(self) -> tuple[int, list[float]]:
        """Fly :data:`ACTIONS` as CTBR actions from a seeded start; (resets, final position)."""
        self.rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(SEED)))
        self.start()
        loop = RateController(CF)
        (kx, ky, kz), (jx, jy, jz) = loop.damping, loop.inertia_diagonal
        n0, n1, n2, n3 = loop.mixer_inverse_rows
        limit = loop.max_rpm_squared
        m0, m1, m2, m3 = CF.mixer().tolist()
        half_thrust, (roll_pitch, yaw_rate) = 0.5 * CF.max_thrust, CF.max_body_rate
        body, client = self.body, self.client
        force, torque, step = p.applyExternalForce, p.applyExternalTorque, p.stepSimulation
        pose, speed = p.getBasePositionAndOrientation, p.getBaseVelocity
        frame, origin, sqrt = p.LINK_FRAME, [0.0, 0.0, 0.0], math.sqrt
        floor, ceiling, cos_tilt = 0.5 * CF.collision_height + 0.01, 2.5, math.cos(CRASH_TILT)
        steps, resets, position = 0, 0, (0.0, 0.0, 0.0)
        for a0, a1, a2, a3 in ACTION_LISTS:
            thrust = half_thrust * (a0 + 1.0)
            d0, d1, d2 = a1 * roll_pitch, a2 * roll_pitch, a3 * yaw_rate
            # The thrust's part of each motor's base command holds for the whole step.
            t0, t1, t2, t3 = n0[0] * thrust, n1[0] * thrust, n2[0] * thrust, n3[0] * thrust
            for _ in range(8):
                x, y, z, w = pose(body, client)[1]
                ox, oy, oz = speed(body, client)[1]
                xx, yy, zz, xy, xz, yz = x * x, y * y, z * z, x * y, x * z, y * z
                wx, wy, wz = w * x, w * y, w * z
                rp = (1 - 2 * (yy + zz)) * ox + 2 * (xy + wz) * oy + 2 * (xz - wy) * oz
                rq = 2 * (xy - wz) * ox + (1 - 2 * (xx + zz)) * oy + 2 * (yz + wx) * oz
                rr = 2 * (xz + wy) * ox + 2 * (yz - wx) * oy + (1 - 2 * (xx + yy)) * oz
                hx, hy, hz = jx * rp, jy * rq, jz * rr
                tx = kx * (d0 - rp) + (rq * hz - rr * hy)
                ty = ky * (d1 - rq) + (rr * hx - rp * hz)
                tz = kz * (d2 - rr) + (rp * hy - rq * hx)
                b0, y0 = t0 + n0[1] * tx + n0[2] * ty, n0[3] * tz
                b1, y1 = t1 + n1[1] * tx + n1[2] * ty, n1[3] * tz
                b2, y2 = t2 + n2[1] * tx + n2[2] * ty, n2[3] * tz
                b3, y3 = t3 + n3[1] * tx + n3[2] * ty, n3[3] * tz
                scale = 1.0
                for base, part in ((b0, y0), (b1, y1), (b2, y2), (b3, y3)):
                    if part > 0.0 and limit - base < part * scale:
                        value = (limit - base) / part
                        scale = 0.0 if value < 0.0 else value
                    elif part < 0.0 and -base > part * scale:
                        value = -base / part
                        scale = 0.0 if value < 0.0 else value
                w0, w1, w2, w3 = b0 + scale * y0, b1 + scale * y1, b2 + scale * y2, b3 + scale * y3
                # Clipped, rooted and squared again: the env's rounding, bit for bit.
                r0 = sqrt(0.0 if w0 < 0.0 else limit if limit < w0 else w0)
                r1 = sqrt(0.0 if w1 < 0.0 else limit if limit < w1 else w1)
                r2 = sqrt(0.0 if w2 < 0.0 else limit if limit < w2 else w2)
                r3 = sqrt(0.0 if w3 < 0.0 else limit if limit < w3 else w3)
                w0, w1, w2, w3 = r0 * r0, r1 * r1, r2 * r2, r3 * r3
                force(body, -1, [0.0, 0.0, m0[0] * w0 + m0[1] * w1 + m0[2] * w2 + m0[3] * w3],
                      origin, frame, client)  # fmt: skip
                torque(body, -1, [m1[0] * w0 + m1[1] * w1 + m1[2] * w2 + m1[3] * w3,
                                  m2[0] * w0 + m2[1] * w1 + m2[2] * w2 + m2[3] * w3,
                                  m3[0] * w0 + m3[1] * w1 + m3[2] * w2 + m3[3] * w3],
                       frame, client)  # fmt: skip
                step(client)
            steps += 1
            position, quaternion = pose(body, client)
            speed(body, client)
            x, y, z = position
            qx, qy = quaternion[0], quaternion[1]
            crashed = (
                z < floor
                or 1.0 - 2.0 * (qx * qx + qy * qy) < cos_tilt
                or abs(x) > 2.0
                or abs(y) > 2.0
                or z > ceiling
            )
            if crashed or steps >= 240:
                self.start()
                steps = 0
                resets += 1
        return resets, list(position)


def reference_urdf() -> Path:
    """gym-pybullet-drones' cf2x.urdf layout: base, 4 massless propeller links, a COM link."""
    links = [("prop0", 0.028, 0.028), ("prop1", -0.028, 0.028), ("prop2", -0.028, -0.028),
             ("prop3", 0.028, -0.028), ("center_of_mass", 0.0, 0.0)]  # fmt: skip
    zero = '<inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/>'
    parts = [
        f'<link name="{name}_link"><inertial><origin xyz="{x} {y} 0"/><mass value="0"/>'
        f'{zero}</inertial></link><joint name="{name}_joint" type="fixed">'
        f'<parent link="base_link"/><child link="{name}_link"/></joint>'
        for name, x, y in links
    ]
    text = (
        '<?xml version="1.0" ?><robot name="cf2"><link name="base_link"><inertial>'
        '<origin xyz="0 0 0"/><mass value="0.027"/><inertia ixx="1.4e-5" ixy="0" ixz="0" '
        'iyy="1.4e-5" iyz="0" izz="2.17e-5"/></inertial><collision><geometry>'
        '<cylinder radius=".06" length=".025"/></geometry></collision></link>'
        + "".join(parts)
        + "</robot>"
    )
    return write_text_file(text, "cf2x-reference-style")
