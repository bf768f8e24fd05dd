"""The drone oracles: envsuite's geometric controller steering to each task's guidance.

The oracle reads the true drone state and the task's guidance from the env (it is a
privileged reference policy, so it works with every observation type), runs
:class:`~envsuite.families.physics.drone.control.GeometricController` at the control rate
with the airframe's nominal constants, and answers in the env's action type.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from envsuite.families.physics.drone.control import GeometricController


class FlightOracle:
    """Flies one drone of an env to the guidance its task gives.

    Args:
        env: The env (wrapped or not) whose drone to fly.
        drone: Which drone (the swarm's agent index).
    """

    def __init__(self, env: Any, drone: int = 0) -> None:
        self.env = env.unwrapped if hasattr(env, "unwrapped") else env
        self.drone = drone
        self.controller = GeometricController(self.env.model, 1.0 / self.env.ctrl_freq)

    def reset(self, seed: int | None = None) -> None:
        """Clear the controller's integrator (the oracle draws nothing at random)."""
        self.controller.reset()

    def act(self, observation: Any, info: Mapping[str, Any]) -> np.ndarray:
        """The action steering the drone to the task's current guidance."""
        env = self.env
        return env.actions.oracle_action(
            self.controller, env.drone_state(self.drone), env.guidance(self.drone)
        )


def drone_oracle(env: Any) -> FlightOracle:
    """The oracle of DroneHover-v0, DroneWaypoints-v0 and DroneGate-v0."""
    return FlightOracle(env)


def swarm_oracle(env: Any) -> dict[str, FlightOracle]:
    """The oracle of DroneSwarm-v0: one controller per agent, each flying its own slot."""
    raw = env.unwrapped if hasattr(env, "unwrapped") else env
    return {agent: FlightOracle(raw, index) for index, agent in enumerate(raw.possible_agents)}
