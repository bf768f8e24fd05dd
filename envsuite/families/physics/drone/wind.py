"""A seeded wind model: a steady wind plus Ornstein–Uhlenbeck gusts.

Each episode draws a steady horizontal wind (a uniform direction, a speed uniform in
``[0, max_speed]``). Gusts are an Ornstein–Uhlenbeck process per axis (a first-order
Gauss–Markov process, the core of the Dryden turbulence model) with standard deviation
``gust_std`` (half of it vertically) and correlation time ``gust_time``, advanced once per
control step. The air pushes each drone with ``F = k·|v_air − v|·(v_air − v)``, ``k`` the
airframe's ``wind_drag`` (0.5·ρ·Cd·A). All draws come from the generator handed to
:meth:`Wind.reset`, derived from the env's ``np_random``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from envsuite.arguments import real_in

#: Largest ``max_speed`` of the steady wind (m/s): a near gale, far beyond what these
#: airframes can fly in.
MAX_WIND_SPEED = 30.0
#: Largest ``gust_std`` (m/s).
MAX_GUST_STD = 10.0
#: Longest ``gust_time`` (s).
MAX_GUST_TIME = 60.0


@dataclasses.dataclass(frozen=True)
class WindConfig:
    """Parameters of :class:`Wind`.

    Attributes:
        max_speed: Largest steady wind speed drawn, in [0, 30] m/s.
        gust_std: Standard deviation of the horizontal gust velocity, in [0, 10] m/s.
        gust_time: Correlation time of the gusts, in (0, 60] s.
    """

    max_speed: float = 1.0
    gust_std: float = 0.3
    gust_time: float = 1.0

    def __post_init__(self) -> None:
        real_in("wind max_speed", self.max_speed, 0.0, MAX_WIND_SPEED, unit="m/s")
        real_in("wind gust_std", self.gust_std, 0.0, MAX_GUST_STD, unit="m/s")
        real_in("wind gust_time", self.gust_time, 0.0, MAX_GUST_TIME, low_open=True, unit="s")


def wind_config(value: Any) -> WindConfig | None:
    """Turn the ``wind`` env argument into a config.

    None or False mean still air, True the default wind, a mapping sets :class:`WindConfig`
    fields.

    Raises:
        ValueError: anything else, an unknown setting, or a setting out of its range.
    """
    if value is None or value is False or value is np.False_:
        return None
    if value is True or value is np.True_:
        return WindConfig()
    if isinstance(value, Mapping):
        unknown = set(value) - {f.name for f in dataclasses.fields(WindConfig)}
        if unknown:
            raise ValueError(f"unknown wind settings {sorted(unknown)}")
        return WindConfig(**value)
    raise ValueError(f"wind must be None, a bool or a mapping, got {value!r}")


class Wind:
    """Steady wind plus gusts, shared by every drone of an env."""

    def __init__(self, config: WindConfig, control_dt: float) -> None:
        self.config = config
        self.dt = control_dt
        self.steady = np.zeros(3)
        self.gust = np.zeros(3)
        self._scale = np.array([1.0, 1.0, 0.5]) * config.gust_std
        self.rng = np.random.Generator(np.random.PCG64(0))

    def reset(self, rng: np.random.Generator) -> None:
        """Draw this episode's steady wind and start the gusts at rest."""
        self.rng = rng
        angle = rng.uniform(-math.pi, math.pi)
        speed = rng.uniform(0.0, self.config.max_speed)
        self.steady = np.array([speed * math.cos(angle), speed * math.sin(angle), 0.0])
        self.gust = np.zeros(3)

    def advance(self) -> None:
        """Advance the gusts by one control step (exact OU discretisation)."""
        decay = math.exp(-self.dt / self.config.gust_time)
        noise = self.rng.standard_normal(3) * self._scale * math.sqrt(1.0 - decay * decay)
        self.gust = decay * self.gust + noise

    @property
    def velocity(self) -> np.ndarray:
        """Air velocity (world frame, m/s)."""
        return self.steady + self.gust

    def force(self, wind_drag: float, velocities: np.ndarray) -> np.ndarray:
        """Force of the air on drones moving at ``velocities`` ``(N, 3)`` (world frame, N)."""
        relative = self.velocity[None, :] - velocities
        return wind_drag * np.linalg.norm(relative, axis=1, keepdims=True) * relative
