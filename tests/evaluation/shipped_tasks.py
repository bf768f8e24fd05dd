"""The task protocols shipped in ``tasks/``, and those whose envs are registered today."""

from __future__ import annotations

from pathlib import Path

from envsuite.errors import UnknownEnvError
from envsuite.registry import registry
from envsuite.safe_load import read_yaml

TASKS_DIR = Path(__file__).resolve().parents[2] / "tasks"
TASKS = sorted(TASKS_DIR.glob("*.yaml"))


def _registered(env_id: str) -> bool:
    try:
        registry[env_id]
    except UnknownEnvError:
        return False
    return True


def runnable(path: Path) -> bool:
    """Whether every env the protocol names is registered (``nim-duel`` waits for Nim)."""
    data = read_yaml(path)
    return all(_registered(str(entry["id"])) for entry in data.get("envs", []))


#: The shipped protocols every env of which is registered.
RUNNABLE_TASKS = [path for path in TASKS if runnable(path)]
