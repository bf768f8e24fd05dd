"""Run in the openenv-core venv: a session with OpenEnv's own client, printed as JSON lines.

Usage: python openenv_session.py URL ACTION [ACTION ...]. Resets with seed 7, steps each
action (as OpenEnv's action dict ``{"action": ACTION}``), then asks for the state and
sends a reset with a seed of the wrong type; each answer is one JSON line.
"""

import json
import sys

from openenv.core.generic_client import GenericEnvClient

url, actions = sys.argv[1], sys.argv[2:]
with GenericEnvClient(base_url=url).sync() as env:
    result = env.reset(seed=7)
    print(
        json.dumps(
            {"observation": result.observation, "reward": result.reward, "done": result.done}
        )
    )
    for action in actions:
        result = env.step({"action": action})
        print(
            json.dumps(
                {"observation": result.observation, "reward": result.reward, "done": result.done}
            )
        )
    print(json.dumps({"state": env.state()}))
    try:
        env.reset(seed="seven")
    except Exception as exc:  # OpenEnv's client raises RuntimeError("Server error: ...")
        print(json.dumps({"error": str(exc)}))
