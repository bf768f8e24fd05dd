"""Quadcopter models: published physical constants, motor layout, and the URDF envsuite writes.

Three airframes, with the constants gym-pybullet-drones publishes for them (its
``assets/cf2x.urdf``, ``cf2p.urdf`` and ``racer.urdf``), which come from the Crazyflie 2.x
system identifications it cites (Förster 2015; Landry 2015; Luis and Le Ny 2016):

========  =====  ========  ========  ========  ===  ================================
model     mass   arm       kf        km        T/W  inertia ixx, iyy, izz (kg m²)
========  =====  ========  ========  ========  ===  ================================
cf2x      27 g   39.7 mm   3.16e-10  7.94e-12  2.25  1.4e-5, 1.4e-5, 2.17e-5
cf2p      27 g   39.7 mm   3.16e-10  7.94e-12  2.25  2.3951e-5, 2.3951e-5, 3.2347e-5
racer     830 g  109 mm    8.47e-9   2.13e-11  4.17  3.113e-3 on every axis
========  =====  ========  ========  ========  ===  ================================

``kf`` and ``km`` are per motor, in N/RPM² and N·m/RPM² (thrust ``kf·ω²``, drag torque
``km·ω²`` with ω in RPM). The maximum RPM follows from the thrust-to-weight ratio:
``sqrt(T/W · m·g / (4·kf))`` (21 702 RPM for the Crazyflie, hover at 14 468 RPM).

Deviations from the reference, on purpose: the racer's ``prop_radius`` is 6.35 cm (the
reference file lists 12.7 cm, the diameter of its 5-inch propeller), and its collision
cylinder spans its propellers (the reference reuses the Crazyflie's). The URDF has a single
link: the propeller links of the reference carry no mass, so the rigid body is the same, and
PyBullet steps a one-link body about four times faster. Motor forces are applied as the
equivalent wrench (total thrust and body torques), which is the same physics.

URDF files are generated at run time (never committed) into a per-user cache directory,
``$ENVSUITE_CACHE_DIR/drone-urdf`` (default: ``<tempdir>/envsuite-<user>/drone-urdf``), under
a name holding a hash of their content, so every version of envsuite writes its own file
and concurrent processes never see a half-written one. :func:`write_urdf` also writes one
anywhere a user wants to inspect or reuse it.
"""

from __future__ import annotations

import dataclasses
import getpass
import hashlib
import math
import os
import tempfile
from pathlib import Path
from typing import Literal

import numpy as np

#: Gravitational acceleration (m/s²); gym-pybullet-drones' value, so hover RPMs match.
GRAVITY = 9.8
#: Air density (kg/m³), for the wind force.
AIR_DENSITY = 1.225

Configuration = Literal["x", "+"]


@dataclasses.dataclass(frozen=True)
class QuadModel:
    """The physical constants of one quadcopter airframe.

    Attributes:
        name: Key in :data:`MODELS`.
        configuration: ``"x"`` or ``"+"`` (where the arms point relative to the body x axis).
        mass: Take-off mass (kg).
        arm: Distance from the centre of mass to each motor (m).
        kf: Thrust coefficient per motor (N/RPM²).
        km: Drag-torque coefficient per motor (N·m/RPM²).
        thrust_to_weight: Maximum total thrust over weight.
        inertia: Principal moments of inertia ``(ixx, iyy, izz)`` (kg·m²).
        motor_xy: Motor positions in the body frame, ``((x0, y0), ..., (x3, y3))`` (m).
        spin: Yaw-torque sign of each motor's drag (``+1``: positive yaw torque).
        prop_radius: Propeller radius (m), used by the ground-effect and downwash models.
        collision_radius: Radius of the collision cylinder (m).
        collision_height: Height of the collision cylinder (m).
        max_speed_kmh: Published top speed (km/h); sets the velocity-action speed limit.
        ground_effect_coeff: Ground-effect coefficient (Shi et al. 2019 style model).
        drag_coeff: Rotor-drag coefficients ``(xy, xy, z)`` (N per rad/s per m/s).
        downwash_coeffs: Downwash model coefficients ``(c1, c2, c3)``.
        wind_drag: ``0.5·ρ·Cd·A`` of the airframe (kg/m), for the wind force (an envsuite
            estimate: Cd ≈ 1 over the frontal area).
        max_body_rate: Body-rate limit of the CTBR action (rad/s), roll/pitch and yaw.
        max_tilt: Largest tilt the geometric controller commands (rad).
    """

    name: str
    configuration: Configuration
    mass: float
    arm: float
    kf: float
    km: float
    thrust_to_weight: float
    inertia: tuple[float, float, float]
    motor_xy: tuple[tuple[float, float], ...]
    spin: tuple[int, int, int, int]
    prop_radius: float
    collision_radius: float
    collision_height: float
    max_speed_kmh: float
    ground_effect_coeff: float
    drag_coeff: tuple[float, float, float]
    downwash_coeffs: tuple[float, float, float]
    wind_drag: float
    max_body_rate: tuple[float, float]
    max_tilt: float

    @property
    def weight(self) -> float:
        """m·g (N)."""
        return self.mass * GRAVITY

    @property
    def hover_rpm(self) -> float:
        """RPM at which four motors carry the weight."""
        return math.sqrt(self.weight / (4.0 * self.kf))

    @property
    def max_rpm(self) -> float:
        """Motor RPM limit, from the thrust-to-weight ratio."""
        return math.sqrt(self.thrust_to_weight * self.weight / (4.0 * self.kf))

    @property
    def max_thrust(self) -> float:
        """Total thrust at maximum RPM (N)."""
        return 4.0 * self.kf * self.max_rpm**2

    @property
    def speed_limit(self) -> float:
        """Speed of a full velocity action (m/s): a tenth of the published top speed."""
        return 0.1 * self.max_speed_kmh / 3.6

    def mixer(self, kf: float | None = None, km: float | None = None) -> np.ndarray:
        """The 4×4 matrix mapping squared RPMs to ``(thrust, τx, τy, τz)`` in the body frame.

        Args:
            kf: Thrust coefficient to use instead of the model's (randomised dynamics).
            km: Drag-torque coefficient to use instead of the model's.
        """
        kf = self.kf if kf is None else kf
        km = self.km if km is None else km
        xy = np.asarray(self.motor_xy, dtype=np.float64)
        return np.stack(
            [
                np.full(4, kf),
                kf * xy[:, 1],
                -kf * xy[:, 0],
                km * np.asarray(self.spin, dtype=np.float64),
            ]
        )


def _x_layout(half: float) -> tuple[tuple[float, float], ...]:
    return ((half, half), (-half, half), (-half, -half), (half, -half))


_CRAZYFLIE_ARM = 0.0397
_CRAZYFLIE = {
    "mass": 0.027,
    "arm": _CRAZYFLIE_ARM,
    "kf": 3.16e-10,
    "km": 7.94e-12,
    "thrust_to_weight": 2.25,
    "spin": (-1, 1, -1, 1),
    "prop_radius": 2.31348e-2,
    "collision_radius": 0.06,
    "collision_height": 0.025,
    "max_speed_kmh": 30.0,
    "ground_effect_coeff": 11.36859,
    "drag_coeff": (9.1785e-7, 9.1785e-7, 10.311e-7),
    "downwash_coeffs": (2267.18, 0.16, -0.11),
    "wind_drag": 0.5 * AIR_DENSITY * 1.0 * 0.0085,
    "max_body_rate": (2.0 * math.pi, math.pi),
    "max_tilt": math.radians(35.0),
}

#: The airframes envsuite ships, by name.
MODELS: dict[str, QuadModel] = {
    "cf2x": QuadModel(
        name="cf2x",
        configuration="x",
        inertia=(1.4e-5, 1.4e-5, 2.17e-5),
        # 28 mm = arm / sqrt(2), as in the reference URDF.
        motor_xy=_x_layout(0.028),
        **_CRAZYFLIE,  # type: ignore[arg-type]
    ),
    "cf2p": QuadModel(
        name="cf2p",
        configuration="+",
        inertia=(2.3951e-5, 2.3951e-5, 3.2347e-5),
        motor_xy=(
            (_CRAZYFLIE_ARM, 0.0),
            (0.0, _CRAZYFLIE_ARM),
            (-_CRAZYFLIE_ARM, 0.0),
            (0.0, -_CRAZYFLIE_ARM),
        ),
        **_CRAZYFLIE,  # type: ignore[arg-type]
    ),
    "racer": QuadModel(
        name="racer",
        configuration="x",
        mass=0.830,
        arm=0.109,
        kf=8.47e-9,
        km=2.13e-11,
        thrust_to_weight=4.17,
        inertia=(3.113e-3, 3.113e-3, 3.113e-3),
        motor_xy=((0.085, 0.0675), (-0.085, 0.0675), (-0.085, -0.0675), (0.085, -0.0675)),
        spin=(1, -1, 1, -1),
        prop_radius=0.0635,
        collision_radius=0.17,
        collision_height=0.04,
        max_speed_kmh=200.0,
        ground_effect_coeff=11.36859,
        drag_coeff=(9.1785e-7, 9.1785e-7, 10.311e-7),
        downwash_coeffs=(2267.18, 0.16, -0.11),
        wind_drag=0.5 * AIR_DENSITY * 1.0 * 0.04,
        max_body_rate=(4.0 * math.pi, 2.0 * math.pi),
        max_tilt=math.radians(45.0),
    ),
}


def get_model(name: str) -> QuadModel:
    """Return the model called ``name``.

    Raises:
        ValueError: ``name`` is not one of :data:`MODELS`.
    """
    try:
        return MODELS[name]
    except (KeyError, TypeError):
        raise ValueError(f"drone_model must be one of {sorted(MODELS)}, got {name!r}") from None


# -- URDF ----------------------------------------------------------------------------------
def _box(
    size: tuple[float, float, float], xyz: tuple[float, float, float], rgba: str, yaw: float = 0.0
) -> str:
    sx, sy, sz = size
    x, y, z = xyz
    return (
        f'    <visual><origin rpy="0 0 {yaw:.5f}" xyz="{x:.5f} {y:.5f} {z:.5f}"/>'
        f'<geometry><box size="{sx:.5f} {sy:.5f} {sz:.5f}"/></geometry>'
        f'<material name="m{rgba.replace(" ", "_")}"><color rgba="{rgba}"/></material></visual>\n'
    )


def _disc(radius: float, xyz: tuple[float, float, float], rgba: str) -> str:
    x, y, z = xyz
    return (
        f'    <visual><origin xyz="{x:.5f} {y:.5f} {z:.5f}"/>'
        f'<geometry><cylinder radius="{radius:.5f}" length="{radius * 0.08:.5f}"/></geometry>'
        f'<material name="m{rgba.replace(" ", "_")}"><color rgba="{rgba}"/></material></visual>\n'
    )


def urdf_text(model: QuadModel) -> str:
    """The URDF of ``model``.

    One link with the model's mass and inertia, a collision cylinder, and a visual of body,
    arms and propeller discs (front propellers red, rear ones blue, side ones green).
    """
    ixx, iyy, izz = model.inertia
    body = model.arm * 0.5
    thickness = max(model.collision_height * 0.5, 0.008)
    visuals = [_box((body, body, thickness), (0.0, 0.0, 0.0), "0.2 0.2 0.2 1")]
    for x, y in model.motor_xy:
        arm = (math.hypot(x, y), thickness * 0.6, thickness * 0.5)
        visuals.append(_box(arm, (x / 2, y / 2, 0.0), "0.3 0.3 0.3 1", math.atan2(y, x)))
        # Front propellers red, rear blue, side ones (the + layout) green.
        colour = (
            "0.85 0.1 0.1 1" if x > 1e-9 else "0.1 0.2 0.85 1" if x < -1e-9 else "0.1 0.7 0.2 1"
        )
        visuals.append(_disc(model.prop_radius, (x, y, thickness), colour))
    return (
        '<?xml version="1.0" ?>\n'
        f'<robot name="{model.name}">\n'
        '  <link name="base_link">\n'
        "    <inertial>\n"
        '      <origin rpy="0 0 0" xyz="0 0 0"/>\n'
        f'      <mass value="{model.mass!r}"/>\n'
        f'      <inertia ixx="{ixx!r}" ixy="0" ixz="0" iyy="{iyy!r}" iyz="0" izz="{izz!r}"/>\n'
        "    </inertial>\n" + "".join(visuals) + "    <collision>\n"
        '      <origin rpy="0 0 0" xyz="0 0 0"/>\n'
        f'      <geometry><cylinder radius="{model.collision_radius!r}" '
        f'length="{model.collision_height!r}"/></geometry>\n'
        "    </collision>\n"
        "  </link>\n"
        "</robot>\n"
    )


def gate_urdf_text(opening: float, bar: float, depth: float) -> str:
    """The URDF of a static square gate in the x-z plane (flown through along +y).

    Args:
        opening: Side of the square opening (m).
        bar: Width of the frame's bars (m).
        depth: Thickness of the frame along the flight direction (m).
    """
    half = opening / 2 + bar / 2
    outer = opening + 2 * bar
    bars = [
        ((outer, depth, bar), (0.0, 0.0, half)),
        ((outer, depth, bar), (0.0, 0.0, -half)),
        ((bar, depth, opening), (half, 0.0, 0.0)),
        ((bar, depth, opening), (-half, 0.0, 0.0)),
    ]
    parts = []
    for (sx, sy, sz), (x, y, z) in bars:
        origin = f'<origin xyz="{x:.5f} {y:.5f} {z:.5f}"/>'
        geometry = f'<geometry><box size="{sx:.5f} {sy:.5f} {sz:.5f}"/></geometry>'
        parts.append(
            f"    <visual>{origin}{geometry}"
            '<material name="gate"><color rgba="0.95 0.55 0.05 1"/></material></visual>\n'
            f"    <collision>{origin}{geometry}</collision>\n"
        )
    return (
        '<?xml version="1.0" ?>\n<robot name="gate">\n  <link name="base_link">\n'
        '    <inertial><mass value="0"/>'
        '<inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial>\n'
        + "".join(parts)
        + "  </link>\n</robot>\n"
    )


def cache_dir() -> Path:
    """Where generated URDF files go (``$ENVSUITE_CACHE_DIR/drone-urdf`` or a temp dir)."""
    root = os.environ.get("ENVSUITE_CACHE_DIR")
    if root:
        return Path(root) / "drone-urdf"
    try:
        user = getpass.getuser()
    except Exception:  # no user name (some containers): one shared folder is fine
        user = "user"
    return Path(tempfile.gettempdir()) / f"envsuite-{user}" / "drone-urdf"


def write_text_file(text: str, stem: str, directory: Path | None = None) -> Path:
    """Write ``text`` to ``<directory>/<stem>-<hash>.urdf`` atomically; return the path.

    An existing file with the same name already holds the same text and is reused.
    """
    directory = cache_dir() if directory is None else Path(directory)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    path = directory / f"{stem}-{digest}.urdf"
    if path.is_file():
        return path
    directory.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=directory, suffix=".tmp")
    with os.fdopen(handle, "w", encoding="utf-8") as stream:
        stream.write(text)
    os.replace(temporary, path)
    return path


def write_urdf(model: QuadModel, directory: Path | None = None) -> Path:
    """Write ``model``'s URDF (into the cache directory by default) and return its path."""
    return write_text_file(urdf_text(model), model.name, directory)
