"""Shared pieces of the leaderboard tests: the mini protocols and tampering helpers."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import yaml

from envsuite.evaluation.run_directory import evaluate
from envsuite.leaderboard.board import BoardVersion
from envsuite.leaderboard.board_admin import create_board
from envsuite.leaderboard.layout import SUBMISSIONS_DIR
from envsuite.leaderboard.manifest import write_manifest
from envsuite.leaderboard.submit import make_submission
from envsuite.records import EpisodeRecord, read_records, write_records

DAY = datetime.date(2026, 12, 1)

BANDIT_PROTOCOL = {
    "id": "mini-bandit",
    "description": "Two small bandits and an experts problem.",
    "envs": [
        {"id": "envsuite/Bandit-v0", "kwargs": {"num_arms": 3, "horizon": 20}},
        {
            "id": "envsuite/Bandit-v0",
            "kwargs": {"num_arms": 3, "difficulty": "hard", "horizon": 20},
        },
        {"id": "envsuite/Experts-v0", "kwargs": {"horizon": 20}},
    ],
    "seeds": {"start": 0, "count": 4},
    "attempts": 2,
    "metrics": ["success_rate", "mean_return", "regret", "pass@2"],
}
GAMES_PROTOCOL = {
    "id": "mini-games",
    "description": "Two short repeated games.",
    "envs": [
        {"id": "envsuite/RepeatedGame-v0", "kwargs": {"game": "matching_pennies", "horizon": 10}},
        {"id": "envsuite/RepeatedGame-v0", "kwargs": {"game": "prisoners_dilemma", "horizon": 10}},
    ],
    "seeds": {"start": 0, "count": 3},
    "metrics": ["success_rate", "mean_return", "regret"],
}


PANEL_PROTOCOL = {
    "id": "mini-2p",
    "description": "Kuhn poker and a 3 x 4 connect-3 board against a panel of two.",
    "envs": [
        {"id": "envsuite/KuhnPoker-v0"},
        {
            "id": "envsuite/ConnectFour-v0",
            "kwargs": {"rows": 3, "cols": 4, "connect": 3, "random_opening_moves": 1},
        },
    ],
    "seeds": {"start": 0, "count": 3},
    "seat_rotation": "all",
    "opponents": ["random", "oracle"],
    "metrics": ["win_rate", "bradley_terry"],
}


def make_board(root: Path, tmp: Path, protocol: dict, metric: str) -> BoardVersion:
    path = tmp / f"{protocol['id']}.yaml"
    path.write_text(yaml.safe_dump(protocol), encoding="utf-8")
    return create_board(root, path, metric=metric, replay_per_env=1, today=DAY)


def submit(board: BoardVersion, runs: Path, agent: str, name: str) -> Path:
    run = runs / f"{board.name}-{name}"
    if not run.exists():
        evaluate(board.protocol, agent, run, progress=False)
    return make_submission(board, run, name=name, authors=["Tester"], leakage="none seen", date=DAY)


def entry(board: BoardVersion, slug: str = "random") -> Path:
    """The submission folder of an entry made by the session fixture."""
    return board.path / SUBMISSIONS_DIR / f"{DAY:%Y%m%d}_{slug}"


def rewrite_records(folder: Path, change, *, remanifest: bool = True) -> None:
    """Apply ``change(records) -> records`` to a submission's episodes.jsonl."""
    records = change(read_records(folder / "episodes.jsonl"))
    write_records(folder / "episodes.jsonl", records)
    if remanifest:
        write_manifest(folder, 1 << 26)


def rewrite_yaml(folder: Path, name: str, change) -> None:
    """Apply ``change(dict)`` to a YAML or JSON file of a submission, then re-manifest."""
    path = folder / name
    if name.endswith(".json"):
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data))
    else:
        data = yaml.safe_load(path.read_text())
        change(data)
        path.write_text(yaml.safe_dump(data))
    write_manifest(folder, 1 << 26)


def replace_record(records: list[EpisodeRecord], index: int, **changes) -> list[EpisodeRecord]:
    """``records`` with record ``index`` updated (validated again)."""
    data = records[index].model_dump()
    data.update(changes)
    return [*records[:index], EpisodeRecord.model_validate(data), *records[index + 1 :]]


def reclaim(board: BoardVersion, folder: Path) -> None:
    """Rewrite the claims as the records' own numbers (a forger who covers their tracks)."""
    from envsuite.leaderboard.verify import recompute

    results = recompute(board, read_records(folder / "episodes.jsonl"))
    rewrite_yaml(
        folder,
        "submission.yaml",
        lambda d: d.update(claimed={k: v.estimate for k, v in results.items()}),
    )
