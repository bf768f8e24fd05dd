"""Small real boards, runs and submissions, made once per session in a temporary root.

Two boards: ``mini-bandit`` (single-agent: two bandit configs and experts, 4 seeds, 2
attempts, so pass@2 has its own k) and ``mini-games`` (multi-agent repeated games, 3 seeds);
and, in a root of its own, the panel board ``mini-2p`` (Kuhn poker and a small Connect Four
against a panel of random and oracle, 3 seeds).
Every submission comes from a real run of the runner; tests that tamper copy a board version
first, so these stay pristine.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from envsuite.leaderboard.board import BoardVersion, load_board_version
from envsuite.leaderboard.board_admin import write_settings
from tests.leaderboard.helpers import (
    BANDIT_PROTOCOL,
    GAMES_PROTOCOL,
    PANEL_PROTOCOL,
    make_board,
    submit,
)


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


@pytest.fixture(scope="session")
def panel_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A leaderboards root with the panel board ``mini-2p``: entries random and oracle."""
    tmp = tmp_path_factory.mktemp("panel-leaderboards")
    root = tmp / "leaderboards"
    board = make_board(root, tmp, PANEL_PROTOCOL, "bradley_terry")
    # Fewer bootstrap replicates than a real board's, to keep every test cheap (a draft's
    # board file may change).
    cheap = board.settings.ranking.model_copy(
        update={"reps": 200, "rating_reps": 100, "exploitability_reps": 20}
    )
    write_settings(board.path, board.settings.model_copy(update={"ranking": cheap}))
    board = load_board_version(board.path)
    for agent in ("random", "oracle"):
        submit(board, tmp / "runs", agent, agent)
    return root


@pytest.fixture
def panel_copy(panel_root: Path, tmp_path: Path) -> BoardVersion:
    """A fresh copy of the panel board (to tamper with, or add entries to)."""
    target = tmp_path / "leaderboards"
    shutil.copytree(panel_root / "mini-2p", target / "mini-2p")
    return load_board_version(target / "mini-2p" / "v1")
