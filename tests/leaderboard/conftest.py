"""Small real boards, runs and submissions, made once per session in a temporary root.

Two boards: ``mini-bandit`` (single-agent: two bandit configs and experts, 4 seeds, 2
attempts, so pass@2 has its own k) and ``mini-games`` (multi-agent repeated games, 3 seeds).
Every submission comes from a real run of the runner; tests that tamper copy a board version
first, so these stay pristine.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from envsuite.leaderboard.board import BoardVersion, load_board_version
from tests.leaderboard.helpers import BANDIT_PROTOCOL, GAMES_PROTOCOL, make_board, submit


@pytest.fixture(scope="session")
def boards_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A leaderboards root with both boards, each with a random and an oracle entry."""
    tmp = tmp_path_factory.mktemp("leaderboards")
    root = tmp / "leaderboards"
    runs = tmp / "runs"
    bandit = make_board(root, tmp, BANDIT_PROTOCOL, "success_rate")
    games = make_board(root, tmp, GAMES_PROTOCOL, "regret")
    for board in (bandit, games):
        submit(board, runs, "random", "random")
        submit(board, runs, "oracle", "oracle")
    submit(games, runs, "envsuite.leaderboard.baseline_agents:TitForTat", "tit-for-tat")
    return root


@pytest.fixture(scope="session")
def runs_dir(boards_root: Path) -> Path:
    return boards_root.parent / "runs"


@pytest.fixture
def board_copy(boards_root: Path, tmp_path: Path):
    """Copy a board (all its versions) into a fresh root; returns the copied version."""

    def copy(name: str = "mini-bandit", version: int = 1) -> BoardVersion:
        target = tmp_path / "leaderboards"
        shutil.copytree(boards_root / name, target / name)
        return load_board_version(target / name / f"v{version}")

    return copy
