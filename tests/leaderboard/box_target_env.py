"""A tiny continuous-action env for replay tests: it only accepts float32 numpy actions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from envsuite.registry import registry


class BoxTargetEnv(gymnasium.Env[np.ndarray, np.ndarray]):
    """Reach a random target in the plane.

    Description:
        Test env: the agent proposes a point; the reward is minus its squared distance to a
        target drawn at reset. Actions that are not float32 arrays of shape (2,) are
        penalised, so a replay that passes JSON lists instead of arrays is caught.

    Observation:
        Box(-1, 1, (2,)) float32: the target.

    Action:
        Box(-1, 1, (2,)) float32.

    Reward:
        −‖action − target‖², or −10 for a malformed action.

    Termination:
        After 5 steps; ``success`` when the last reward is above −0.5.
    """

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(
        self, steps: int = 5, data_file: str | None = None, render_mode: str | None = None
    ) -> None:
        self.steps = steps
        self.data_file = data_file
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-1.0, 1.0, (2,), np.float32)
        self.action_space = spaces.Box(-1.0, 1.0, (2,), np.float32)
        self.target = np.zeros(2, dtype=np.float32)
        self.t = 0

    @staticmethod
    def dataset_files(data_file: str | None = None, **_: Any) -> list[Path]:
        """The dataset file the env reads (its checksum is part of the spec hash)."""
        return [Path(data_file)] if data_file else []

    @property
    def spec_hash(self) -> str | None:
        """The registry's spec hash (as envsuite's env base class provides it)."""
        if self.spec is None:
            return None
        return registry[self.spec.id].hash_for(self.spec.kwargs)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self.target = self.np_random.uniform(-1, 1, 2).astype(np.float32)
        if self.data_file:
            self.target *= float(Path(self.data_file).read_text())
        self.t = 0
        return self.target.copy(), {}

    def step(self, action: Any):
        self.t += 1
        ok = isinstance(action, np.ndarray) and action.dtype == np.float32 and action.shape == (2,)
        reward = -float(np.sum((action - self.target) ** 2)) if ok else -10.0
        done = self.t >= self.steps
        info = {"parse_error": None if ok else "not a float32 array"}
        if done:
            info["success"] = reward > -0.5
        return self.target.copy(), reward, done, False, info
