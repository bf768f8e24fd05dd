"""Real run directories, made once per module with the runner."""

from __future__ import annotations

from pathlib import Path

import pytest

from envsuite.evaluation.protocol import adhoc_protocol
from envsuite.evaluation.run_directory import evaluate

BANDIT = "envsuite/Bandit-v0"
#: Long enough for the oracle's regret to bend; the random agent's stays linear.
BANDIT_KWARGS = {"horizon": 200}
EPISODES = 5
ATTEMPTS = 3


def run(
    path: Path, agent: str, env: str = BANDIT, kwargs=None, episodes=EPISODES, attempts=ATTEMPTS
):
    protocol = adhoc_protocol(env, BANDIT_KWARGS if kwargs is None else kwargs, episodes, attempts)
    evaluate(protocol, agent, path, progress=False)
    return path


@pytest.fixture(scope="module")
def runs_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("runs")


@pytest.fixture(scope="module")
def oracle_run(runs_root: Path) -> Path:
    return run(runs_root / "oracle", "oracle")


@pytest.fixture(scope="module")
def random_run(runs_root: Path) -> Path:
    return run(runs_root / "random", "random")


@pytest.fixture(scope="module")
def game_run(runs_root: Path) -> Path:
    return run(
        runs_root / "game", "player_0=oracle", "envsuite/RepeatedGame-v0", {"horizon": 60}, 3, 1
    )
