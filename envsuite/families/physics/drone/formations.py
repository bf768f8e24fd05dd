"""Formation shapes of the swarm: each drone's slot offset from the formation's reference.

Offsets lie in the horizontal plane, ``spacing`` apart between neighbouring slots:

- ``ring``: a circle whose neighbouring slots are ``spacing`` apart;
- ``line``: a row along y, centred on the reference;
- ``v``: drone 0 at the reference (the apex), the others in pairs behind it, pair ``k``
  at ``(−k·spacing·cos 30°, ±k·spacing)``;
- ``grid``: rows of ``ceil(sqrt(N))`` drones, centred on the reference.
"""

from __future__ import annotations

import math

import numpy as np

FORMATIONS = ("ring", "line", "v", "grid")


def formation_offsets(formation: str, count: int, spacing: float) -> np.ndarray:
    """Slot offsets ``(count, 3)`` (m).

    Raises:
        ValueError: an unknown formation.
    """
    if formation not in FORMATIONS:
        raise ValueError(f"formation must be one of {FORMATIONS}, got {formation!r}")
    offsets = np.zeros((count, 3))
    if count == 1:
        return offsets
    if formation == "ring":
        radius = spacing / (2.0 * math.sin(math.pi / count))
        angles = 2.0 * math.pi * np.arange(count) / count
        offsets[:, 0] = radius * np.cos(angles)
        offsets[:, 1] = radius * np.sin(angles)
    elif formation == "line":
        offsets[:, 1] = (np.arange(count) - (count - 1) / 2.0) * spacing
    elif formation == "v":
        for index in range(1, count):
            rank = (index + 1) // 2
            side = 1.0 if index % 2 else -1.0
            offsets[index, 0] = -rank * spacing * math.cos(math.radians(30.0))
            offsets[index, 1] = side * rank * spacing
    else:
        columns = math.ceil(math.sqrt(count))
        rows = math.ceil(count / columns)
        for index in range(count):
            row, column = divmod(index, columns)
            offsets[index, 0] = (row - (rows - 1) / 2.0) * spacing
            offsets[index, 1] = (column - (columns - 1) / 2.0) * spacing
    return offsets
