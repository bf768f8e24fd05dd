"""Domain randomisation of the airframe: mass, inertia, kf, km and motor lag, per episode.

Each episode draws, for every drone, multiplicative factors uniform in ``1 ± spread`` for
mass, each principal moment of inertia, kf and km, and a first-order motor time constant
uniform in ``[0, motor_lag]`` seconds (the nominal motors respond at once, as in
gym-pybullet-drones). Draws come from a generator derived from the env's ``np_random``.
Controllers keep the nominal constants, so a policy has to cope with the difference.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np

from envsuite.arguments import real_in
from envsuite.families.physics.drone.models import QuadModel

#: Largest ``motor_lag`` (s): slower motors than this could not hold a drone in the air.
MAX_MOTOR_LAG = 1.0


@dataclasses.dataclass(frozen=True)
class RandomizationConfig:
    """Spreads of the domain randomisation.

    Attributes:
        mass: Relative spread of the mass (0.1: ±10 %), in [0, 1).
        inertia: Relative spread of each principal moment of inertia, in [0, 1).
        kf: Relative spread of the thrust coefficient, in [0, 1).
        km: Relative spread of the drag-torque coefficient, in [0, 1).
        motor_lag: Largest motor time constant drawn, in [0, 1] s.
    """

    mass: float = 0.1
    inertia: float = 0.1
    kf: float = 0.05
    km: float = 0.05
    motor_lag: float = 0.02

    def __post_init__(self) -> None:
        for name in ("mass", "inertia", "kf", "km"):
            real_in(f"domain_randomization {name}", getattr(self, name), 0.0, 1.0, high_open=True)
        real_in("domain_randomization motor_lag", self.motor_lag, 0.0, MAX_MOTOR_LAG, unit="s")


def randomization_config(value: Any) -> RandomizationConfig | None:
    """Turn the ``domain_randomization`` env argument into a config.

    None or False turn it off, True gives the default spreads, a mapping sets
    :class:`RandomizationConfig` fields.

    Raises:
        ValueError: anything else, an unknown setting, or a setting out of its range.
    """
    if value is None or value is False or value is np.False_:
        return None
    if value is True or value is np.True_:
        return RandomizationConfig()
    if isinstance(value, Mapping):
        unknown = set(value) - {f.name for f in dataclasses.fields(RandomizationConfig)}
        if unknown:
            raise ValueError(f"unknown domain_randomization settings {sorted(unknown)}")
        return RandomizationConfig(**value)
    raise ValueError(f"domain_randomization must be None, a bool or a mapping, got {value!r}")


@dataclasses.dataclass
class DroneParameters:
    """The true physical parameters of N drones in one episode (arrays over drones)."""

    mass: np.ndarray
    inertia: np.ndarray
    kf: np.ndarray
    km: np.ndarray
    motor_lag: np.ndarray

    @classmethod
    def nominal(cls, model: QuadModel, count: int) -> DroneParameters:
        """Every drone exactly as published."""
        return cls(
            mass=np.full(count, model.mass),
            inertia=np.tile(np.asarray(model.inertia, dtype=np.float64), (count, 1)),
            kf=np.full(count, model.kf),
            km=np.full(count, model.km),
            motor_lag=np.zeros(count),
        )

    def as_info(self, drone: int) -> dict[str, Any]:
        """Drone ``drone``'s parameters as plain floats (for ``info``)."""
        return {
            "mass": float(self.mass[drone]),
            "inertia": [float(v) for v in self.inertia[drone]],
            "kf": float(self.kf[drone]),
            "km": float(self.km[drone]),
            "motor_lag": float(self.motor_lag[drone]),
        }


def sample_parameters(
    model: QuadModel, config: RandomizationConfig, count: int, rng: np.random.Generator
) -> DroneParameters:
    """Draw the parameters of ``count`` drones."""

    def factors(spread: float, shape: tuple[int, ...]) -> np.ndarray:
        return rng.uniform(1.0 - spread, 1.0 + spread, shape)

    nominal = DroneParameters.nominal(model, count)
    return DroneParameters(
        mass=nominal.mass * factors(config.mass, (count,)),
        inertia=nominal.inertia * factors(config.inertia, (count, 3)),
        kf=nominal.kf * factors(config.kf, (count,)),
        km=nominal.km * factors(config.km, (count,)),
        motor_lag=rng.uniform(0.0, config.motor_lag, count),
    )
