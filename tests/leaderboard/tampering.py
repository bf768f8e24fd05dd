"""Ways to tamper with a copied board and its submissions, for the tampering corpus.

Each ``Tamper`` takes the copied board version and a scratch folder and returns the
submission folder to verify (see ``test_tampering_corpus.py``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import yaml

from envsuite.leaderboard.board import BoardVersion, frozen_digests
from envsuite.leaderboard.board_admin import publish
from envsuite.leaderboard.layout import FROZEN_FILE
from envsuite.leaderboard.manifest import MANIFEST_NAME, write_manifest
from tests.leaderboard.helpers import (
    DAY,
    entry,
    reclaim,
    replace_record,
    rewrite_records,
    rewrite_yaml,
)

Tamper = Callable[[BoardVersion, Path], Path]


def edit_records(change: Callable, slug: str = "random", claims: bool = False) -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        folder = entry(board, slug)
        rewrite_records(folder, change)
        if claims:
            reclaim(board, folder)
        return folder

    return tamper


def edit_meta(name: str, change: Callable[[dict], None], slug: str = "random") -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        folder = entry(board, slug)
        rewrite_yaml(folder, name, change)
        return folder

    return tamper


def add_file(name: str, data: bytes, manifest: bool = True) -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        folder = entry(board)
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
        if manifest:
            relist(folder)
        return folder

    return tamper


def relist(folder: Path) -> None:
    """Rewrite the manifest by hand, listing every file (write_manifest refuses some)."""
    lines = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.name != MANIFEST_NAME):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        lines.append(f"{digest}  {path.relative_to(folder).as_posix()}\n")
    (folder / MANIFEST_NAME).write_text("".join(lines))


def edit_lines(change: Callable[[list[str]], list[str]]) -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        folder = entry(board)
        path = folder / "episodes.jsonl"
        path.write_text("".join(change(path.read_text().splitlines(keepends=True))))
        write_manifest(folder, 1 << 26)
        return folder

    return tamper


def edit_trace(index: int, change: Callable[[list[dict]], None]) -> Callable:
    def edit(records):
        trace = [step.model_dump() for step in records[index].trace]
        change(trace)
        return replace_record(records, index, trace=trace)

    return edit


def set_step(step: int, key: str, value) -> Callable[[list[dict]], None]:
    return lambda trace: trace[step].__setitem__(key, value)


def reward_and_return(records):
    changed = edit_trace(5, lambda t: t[3].__setitem__("reward", t[3]["reward"] + 1.0))(records)
    return replace_record(changed, 5, episode_return=changed[5].episode_return + 1.0)


def other_arm(records):
    def swap(trace):
        names = sorted({step["action"] for step in trace})
        trace[0]["action"] = next(name for name in names if name != trace[0]["action"])

    return edit_trace(9, swap)(records)


def edit_board_yaml(
    change: Callable[[dict], None], publish_first: bool = False, freeze_again: bool = False
) -> Tamper:
    """Edit board.yaml (after publishing, and then rewriting FROZEN.sha256 to match)."""

    def tamper(board: BoardVersion, tmp: Path) -> Path:
        if publish_first:
            publish(board.path.parent.parent, board.name, today=DAY)
        path = board.path / "board.yaml"
        data = yaml.safe_load(path.read_text())
        change(data)
        path.write_text(yaml.safe_dump(data, sort_keys=False))
        if freeze_again:
            refreeze(board.path)
        return entry(board)

    return tamper


def refreeze(path: Path) -> None:
    digests = frozen_digests(path)
    (path / FROZEN_FILE).write_text("".join(f"{d}  {n}\n" for n, d in sorted(digests.items())))


def edit_published(name: str, old: str, new: str) -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        publish(board.path.parent.parent, board.name, today=DAY)
        path = board.path / name
        path.write_text(path.read_text().replace(old, new, 1))
        return entry(board)

    return tamper


def edit_draft_protocol(board: BoardVersion, tmp: Path) -> Path:
    path = board.path / "protocol.yaml"
    path.write_text(path.read_text() + "# an innocent comment\n")
    return entry(board)


def garble_frozen(board: BoardVersion, tmp: Path) -> Path:
    publish(board.path.parent.parent, board.name, today=DAY)
    (board.path / FROZEN_FILE).write_bytes(b"\xff\xfe not utf-8 \x00\n")
    return entry(board)


def symlink(what: str) -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        folder = entry(board)
        target = {
            "log": folder / "logs" / "agent.log",
            "submission": folder,
            "submissions": folder.parent,
            "version": board.path,
            "board": board.path.parent,
        }[what]
        if what == "log":
            secret = tmp / "secret.txt"
            secret.write_text("not yours\n")
            target.parent.mkdir()
            os.symlink(secret, target)
            relist(folder)
        else:
            moved = tmp / f"moved-{what}"
            target.rename(moved)
            os.symlink(moved, target)
        return folder

    return tamper


def hard_link(what: str) -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        folder = entry(board)
        if what == "log":
            secret = tmp / "secret.txt"
            secret.write_text("not yours\n")
            (folder / "logs").mkdir()
            os.link(secret, folder / "logs" / "agent.log")
        elif what == "records":
            (folder / "episodes.jsonl").unlink()
            os.link(entry(board, "oracle") / "episodes.jsonl", folder / "episodes.jsonl")
        else:
            os.link(board.path / "board.yaml", tmp / "board-copy.yaml")
        relist(folder)
        return folder

    return tamper


def add_fifo(board: BoardVersion, tmp: Path) -> Path:
    folder = entry(board)
    (folder / "logs").mkdir()
    os.mkfifo(folder / "logs" / "pipe")
    return folder


def copy_entry(slug: str, relabel: bool = False, reverse: bool = False) -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        copy = entry(board, slug).with_name("20261202_copy")
        shutil.copytree(entry(board, slug), copy)
        update = {"date": "2026-12-02", "name": "A new name"}
        if relabel:
            update |= {"agent": "my_pkg:Mine", "run_id": "r2"}
            fields = {"agent_id": "my_pkg:Mine", "run_id": "r2"}
            rewrite_records(copy, lambda rs: [r.model_copy(update=fields) for r in rs])
        if reverse:
            rewrite_records(copy, lambda rs: rs[::-1])
        rewrite_yaml(copy, "submission.yaml", lambda d: d.update(update))
        return copy

    return tamper


def edit_manifest(change: Callable[[str], str]) -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        folder = entry(board)
        path = folder / MANIFEST_NAME
        path.write_text(change(path.read_text()))
        return folder

    return tamper


def rename_folder(name: str) -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        folder = entry(board)
        renamed = folder.with_name(name)
        folder.rename(renamed)
        return renamed

    return tamper


def delete_file(name: str) -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        folder = entry(board)
        (folder / name).unlink()
        return folder

    return tamper


def edit_record_json(change: Callable[[dict], None]) -> Tamper:
    """Edit one record's JSON directly (it may then not fit the schema)."""

    def edit(lines: list[str]) -> list[str]:
        data = json.loads(lines[4])
        change(data)
        lines[4] = json.dumps(data) + "\n"
        return lines

    return edit_lines(edit)


def infra_error_record(records):
    return replace_record(records, 3, infra_error="the sandbox died", trace=[], length=0)


def edit_pin_config(data: dict) -> None:
    data["envs"][0]["config"]["reward_std"] = 2.0
