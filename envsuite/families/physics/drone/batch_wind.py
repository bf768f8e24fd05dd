"""Wind for many drones at once: steady wind plus gusts, one air mass per drone.

The batched engine's counterpart of :class:`~envsuite.families.physics.drone.wind.Wind`,
with each drone's draws from its own generator, exactly as its single env draws them.
"""

from __future__ import annotations

import math

import numpy as np

from envsuite.families.physics.drone.wind import WindConfig

#: Gust steps drawn at a time from each drone's wind generator.
GUST_BLOCK = 256


class BatchWind:
    """Steady wind plus gusts for N drones, each with its own generator.

    The same draws as :class:`~envsuite.families.physics.drone.wind.Wind` of a single env:
    at reset the steady wind's direction and speed, then three standard normals per
    control step. The normals are drawn :data:`GUST_BLOCK` steps at a time (a generator
    gives the same numbers in one call as in many), so a step costs no Python per drone.

    Args:
        config: Wind settings.
        control_dt: Control period (s).
        count: Number of drones.
    """

    def __init__(self, config: WindConfig, control_dt: float, count: int) -> None:
        self.config = config
        self.decay = math.exp(-control_dt / config.gust_time)
        self.root = math.sqrt(1.0 - self.decay * self.decay)
        self.scale = np.array([1.0, 1.0, 0.5]) * config.gust_std
        self.steady = np.zeros((3, count))
        self.gust = np.zeros((3, count))
        #: Air velocity (world frame), ``steady + gust``.
        self.velocity = np.zeros((3, count))
        self.rngs: list[np.random.Generator | None] = [None] * count
        self.normals = np.zeros((count, GUST_BLOCK, 3))
        self.cursor = np.zeros(count, dtype=np.intp)
        self._rows = np.arange(count)

    def reset(self, drone: int, rng: np.random.Generator) -> None:
        """Draw drone ``drone``'s steady wind from ``rng`` and start its gusts at rest."""
        self.rngs[drone] = rng
        angle = rng.uniform(-math.pi, math.pi)
        speed = rng.uniform(0.0, self.config.max_speed)
        self.steady[:, drone] = (speed * math.cos(angle), speed * math.sin(angle), 0.0)
        self.gust[:, drone] = 0.0
        self.velocity[:, drone] = self.steady[:, drone]
        self.normals[drone] = rng.standard_normal((GUST_BLOCK, 3))
        self.cursor[drone] = 0

    def advance(self) -> None:
        """Advance every drone's gusts by one control step (exact OU discretisation)."""
        # noise = normal · scale · sqrt(1 − decay²), as the single env multiplies it.
        noise = self.normals[self._rows, self.cursor].T * self.scale[:, None]
        noise *= self.root
        self.gust *= self.decay
        self.gust += noise
        np.add(self.steady, self.gust, out=self.velocity)
        self.cursor += 1
        if self.cursor.max() >= GUST_BLOCK:
            for drone in np.flatnonzero(self.cursor >= GUST_BLOCK).tolist():
                rng = self.rngs[drone]
                assert rng is not None
                self.normals[drone] = rng.standard_normal((GUST_BLOCK, 3))
                self.cursor[drone] = 0
