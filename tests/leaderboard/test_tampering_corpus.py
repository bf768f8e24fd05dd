"""A corpus of tamperings with a real board and its submissions, each caught by its check.

Every case copies a pristine board (made once per session from real runs), changes one thing
the way a forger, a careless submitter or a hostile pull request would, and requires
``verify_submission`` to reject it with the error class of the check meant to catch it and a
message that says what is wrong. ``test_the_corpus_is_large`` keeps the count honest.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from envsuite.leaderboard.board import BoardVersion, frozen_digests
from envsuite.leaderboard.board_admin import publish
from envsuite.leaderboard.errors import (
    BoardError,
    CompletenessError,
    ConsistencyError,
    DuplicateRunError,
    FrozenBoardError,
    ManifestError,
    MetricMismatchError,
    ReplayError,
    SchemaError,
    SubmissionRejected,
    UnsafeInputError,
    VersionLockError,
)
from envsuite.leaderboard.layout import FROZEN_FILE
from envsuite.leaderboard.manifest import MANIFEST_NAME, write_manifest
from envsuite.leaderboard.verify import verify_submission
from tests.leaderboard.helpers import (
    DAY,
    entry,
    reclaim,
    replace_record,
    rewrite_records,
    rewrite_yaml,
)

Tamper = Callable[[BoardVersion, Path], Path]


@dataclass(frozen=True)
class Case:
    """One tampering: what to do, and the check (error class and message) that catches it."""

    name: str
    tamper: Tamper
    error: type[SubmissionRejected]
    match: str
    replay: str = "none"
    board: str = "mini-bandit"


# -- small tools ---------------------------------------------------------------------------
def _records(change: Callable, slug: str = "random", claims: bool = False) -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        folder = entry(board, slug)
        rewrite_records(folder, change)
        if claims:
            reclaim(board, folder)
        return folder

    return tamper


def _meta(name: str, change: Callable[[dict], None], slug: str = "random") -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        folder = entry(board, slug)
        rewrite_yaml(folder, name, change)
        return folder

    return tamper


def _file(name: str, data: bytes, manifest: bool = True) -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        folder = entry(board)
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
        if manifest:
            _relist(folder)
        return folder

    return tamper


def _relist(folder: Path) -> None:
    """Rewrite the manifest by hand, listing every file (write_manifest refuses some)."""
    lines = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.name != MANIFEST_NAME):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        lines.append(f"{digest}  {path.relative_to(folder).as_posix()}\n")
    (folder / MANIFEST_NAME).write_text("".join(lines))


def _line_edit(change: Callable[[list[str]], list[str]]) -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        folder = entry(board)
        path = folder / "episodes.jsonl"
        path.write_text("".join(change(path.read_text().splitlines(keepends=True))))
        write_manifest(folder, 1 << 26)
        return folder

    return tamper


def _trace(index: int, change: Callable[[list[dict]], None]) -> Callable:
    def edit(records):
        trace = [step.model_dump() for step in records[index].trace]
        change(trace)
        return replace_record(records, index, trace=trace)

    return edit


def _set(step: int, key: str, value) -> Callable[[list[dict]], None]:
    return lambda trace: trace[step].__setitem__(key, value)


def _reward_and_return(records):
    changed = _trace(5, lambda t: t[3].__setitem__("reward", t[3]["reward"] + 1.0))(records)
    return replace_record(changed, 5, episode_return=changed[5].episode_return + 1.0)


def _other_arm(records):
    def swap(trace):
        names = sorted({step["action"] for step in trace})
        trace[0]["action"] = next(name for name in names if name != trace[0]["action"])

    return _trace(9, swap)(records)


def _board_yaml(change: Callable[[dict], None], publish_first: bool = False, refreeze=False):
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        if publish_first:
            publish(board.path.parent.parent, board.name, today=DAY)
        path = board.path / "board.yaml"
        data = yaml.safe_load(path.read_text())
        change(data)
        path.write_text(yaml.safe_dump(data, sort_keys=False))
        if refreeze:
            _refreeze(board.path)
        return entry(board)

    return tamper


def _refreeze(path: Path) -> None:
    digests = frozen_digests(path)
    (path / FROZEN_FILE).write_text("".join(f"{d}  {n}\n" for n, d in sorted(digests.items())))


def _published_edit(name: str, old: str, new: str) -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        publish(board.path.parent.parent, board.name, today=DAY)
        path = board.path / name
        path.write_text(path.read_text().replace(old, new, 1))
        return entry(board)

    return tamper


def _protocol_edit(board: BoardVersion, tmp: Path) -> Path:
    path = board.path / "protocol.yaml"
    path.write_text(path.read_text() + "# an innocent comment\n")
    return entry(board)


def _frozen_garbage(board: BoardVersion, tmp: Path) -> Path:
    publish(board.path.parent.parent, board.name, today=DAY)
    (board.path / FROZEN_FILE).write_bytes(b"\xff\xfe not utf-8 \x00\n")
    return entry(board)


def _symlink(what: str) -> Tamper:
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
            _relist(folder)
        else:
            moved = tmp / f"moved-{what}"
            target.rename(moved)
            os.symlink(moved, target)
        return folder

    return tamper


def _hard_link(what: str) -> Tamper:
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
        _relist(folder)
        return folder

    return tamper


def _fifo(board: BoardVersion, tmp: Path) -> Path:
    folder = entry(board)
    (folder / "logs").mkdir()
    os.mkfifo(folder / "logs" / "pipe")
    return folder


def _copy_entry(slug: str, relabel: bool = False, reverse: bool = False) -> Tamper:
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


def _manifest(change: Callable[[str], str]) -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        folder = entry(board)
        path = folder / MANIFEST_NAME
        path.write_text(change(path.read_text()))
        return folder

    return tamper


def _rename(name: str) -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        folder = entry(board)
        renamed = folder.with_name(name)
        folder.rename(renamed)
        return renamed

    return tamper


def _delete(name: str) -> Tamper:
    def tamper(board: BoardVersion, tmp: Path) -> Path:
        folder = entry(board)
        (folder / name).unlink()
        return folder

    return tamper


def _with_record_json(change: Callable[[dict], None]) -> Tamper:
    """Edit one record's JSON directly (it may then not fit the schema)."""

    def edit(lines: list[str]) -> list[str]:
        data = json.loads(lines[4])
        change(data)
        lines[4] = json.dumps(data) + "\n"
        return lines

    return _line_edit(edit)


def _infra(records):
    return replace_record(records, 3, infra_error="the sandbox died", trace=[], length=0)


def _pin_config(data: dict) -> None:
    data["envs"][0]["config"]["reward_std"] = 2.0


# -- the corpus ----------------------------------------------------------------------------
CASES = [
    # safety: names, links, special and oversize files, strict JSON
    Case("symlinked log", _symlink("log"), UnsafeInputError, r"agent.log is a symbolic link"),
    Case("symlinked submission folder", _symlink("submission"), UnsafeInputError, "symbolic link"),
    Case(
        "symlinked submissions folder",
        _symlink("submissions"),
        UnsafeInputError,
        "submissions is a symbolic link",
    ),
    Case("symlinked version folder", _symlink("version"), BoardError, "v1 is a symbolic link"),
    Case("symlinked board folder", _symlink("board"), BoardError, "bandit is a symbolic link"),
    Case("hard-linked log", _hard_link("log"), UnsafeInputError, r"agent.log is a hard link"),
    Case(
        "records hard-linked to another entry",
        _hard_link("records"),
        UnsafeInputError,
        r"episodes.jsonl is a hard link",
    ),
    Case("hard-linked board file", _hard_link("board"), BoardError, r"board.yaml is a hard link"),
    Case("named pipe in logs", _fifo, UnsafeInputError, r"pipe is not a regular file"),
    Case(
        "oversize log",
        _file("logs/huge.log", b"x" * ((1 << 20) + 1)),
        UnsafeInputError,
        r"huge.log is 1,048,577 bytes",
    ),
    Case("stray top-level file", _file("notes.txt", b"hi\n"), UnsafeInputError, "not a submission"),
    Case(
        "hidden file in logs",
        _file("logs/.hidden", b"x", manifest=False),
        UnsafeInputError,
        r"component '.hidden'",
    ),
    Case(
        "log nested five deep",
        _file("logs/a/b/c/d.log", b"x"),
        UnsafeInputError,
        "short relative path",
    ),
    Case(
        "backslash in a log name",
        _file("logs/a\\b.log", b"x", manifest=False),
        UnsafeInputError,
        "short relative path",
    ),
    Case(
        "folder name with spaces", _rename("2026_12_01 random"), UnsafeInputError, "YYYYMMDD_slug"
    ),
    Case("folder name in capitals", _rename("20261201_Random"), UnsafeInputError, "YYYYMMDD_slug"),
    Case(
        "malformed JSON line",
        _line_edit(lambda ls: [*ls[:2], "{not json\n", *ls[3:]]),
        UnsafeInputError,
        r"episodes.jsonl:3: malformed JSON",
    ),
    Case(
        "NaN in a record",
        _line_edit(
            lambda ls: [ls[0].replace('"wall_time_s":', '"wall_time_s":NaN,"x":', 1), *ls[1:]]
        ),
        UnsafeInputError,
        "NaN is not valid JSON",
    ),
    Case(
        "duplicate key in a record",
        _line_edit(lambda ls: [ls[0].replace("{", '{"seed":0,', 1), *ls[1:]]),
        UnsafeInputError,
        "duplicate key 'seed'",
    ),
    Case(
        "partial last line",
        _line_edit(lambda ls: [*ls[:-1], ls[-1].rstrip("\n")]),
        UnsafeInputError,
        "the last line has no newline",
    ),
    Case(
        "records not UTF-8",
        _file("episodes.jsonl", b"\xff\n"),
        UnsafeInputError,
        "not UTF-8",
    ),
    Case(
        "submission.yaml a list",
        _file("submission.yaml", b"- a\n- b\n"),
        UnsafeInputError,
        "must hold a mapping",
    ),
    Case(
        "submission.yaml not YAML",
        _file("submission.yaml", b"name: [unclosed\n"),
        UnsafeInputError,
        "is not valid YAML",
    ),
    Case(
        "env_lock.json a list", _file("env_lock.json", b"[]"), UnsafeInputError, "not a JSON object"
    ),
    # manifest
    Case(
        "records edited, manifest not",
        _file("episodes.jsonl", b"{}\n", manifest=False),
        ManifestError,
        r"episodes.jsonl: sha256 is",
    ),
    Case("unlisted log", _file("logs/a.log", b"x", manifest=False), ManifestError, "not listed"),
    Case("listed file deleted", _delete("env_lock.json"), ManifestError, "listed .* but missing"),
    Case("manifest deleted", _delete(MANIFEST_NAME), ManifestError, "MANIFEST.sha256 is missing"),
    Case(
        "malformed manifest line",
        _manifest(lambda text: text + "not a line\n"),
        ManifestError,
        "expected '<sha256>  <path>'",
    ),
    Case(
        "a path listed twice",
        _manifest(lambda text: text + text.splitlines()[0] + "\n"),
        ManifestError,
        "listed twice",
    ),
    Case(
        "manifest path traversal",
        _manifest(lambda text: text + f"{'0' * 64}  ../../../etc/passwd\n"),
        UnsafeInputError,
        r"'\.\./\.\./\.\./etc/passwd' is not allowed",
    ),
    # schema
    Case(
        "no authors, ftp code url",
        _meta("submission.yaml", lambda d: d.update(authors=[], code_url="ftp://x")),
        SchemaError,
        "authors.*code_url|code_url.*authors",
    ),
    Case(
        "unknown field in submission.yaml",
        _meta("submission.yaml", lambda d: d.update(verified_by="me")),
        SchemaError,
        "verified_by: Extra inputs",
    ),
    Case(
        "folder date is not the submission's",
        _meta("submission.yaml", lambda d: d.update(date="2026-12-24")),
        SchemaError,
        "not submission.yaml's date",
    ),
    Case(
        "env_lock.json lacks a field",
        _meta("env_lock.json", lambda d: d.pop("python")),
        SchemaError,
        "python: Field required",
    ),
    Case(
        "misspelled record field",
        _with_record_json(lambda d: d.update(lenght=d.pop("length"))),
        SchemaError,
        r"episodes.jsonl:5 does not fit its schema",
    ),
    Case(
        "negative length",
        _with_record_json(lambda d: d.update(length=-1)),
        SchemaError,
        "length: Input should be greater than or equal to 0",
    ),
    Case(
        "unknown stop reason",
        _with_record_json(lambda d: d.update(stop_reason="won")),
        SchemaError,
        "stop_reason",
    ),
    Case("no records at all", _file("episodes.jsonl", b""), SchemaError, "holds no records"),
    # version lock
    Case(
        "env version bumped",
        _records(lambda rs: replace_record(rs, 0, env_id="envsuite/Bandit-v1")),
        VersionLockError,
        r"envsuite/Bandit-v1 .* does not pin",
    ),
    Case(
        "env kwargs changed",
        _records(lambda rs: replace_record(rs, 0, env_kwargs={**rs[0].env_kwargs, "horizon": 21})),
        VersionLockError,
        "does not pin",
    ),
    Case(
        "another envsuite release",
        _records(lambda rs: [r.model_copy(update={"envsuite_version": "0.9.0"}) for r in rs]),
        VersionLockError,
        "envsuite 0.9.0, which board",
    ),
    Case(
        "forged record spec hash",
        _records(lambda rs: replace_record(rs, 7, spec_hash="0" * 64)),
        VersionLockError,
        r"spec hash 0{64} differs",
    ),
    # completeness
    Case(
        "a seed left out",
        _records(lambda rs: [r for r in rs if r.seed != 3]),
        CompletenessError,
        r"6 episode\(s\) of the protocol are missing",
    ),
    Case(
        "an extra seed",
        _records(lambda rs: [*rs, rs[0].model_copy(update={"seed": 99})]),
        CompletenessError,
        "not in the protocol, e.g. .* seed 99",
    ),
    Case(
        "an attempt beyond k",
        _records(lambda rs: [*rs, rs[0].model_copy(update={"attempt": 5})]),
        CompletenessError,
        "attempt 5",
    ),
    Case(
        "an episode twice", _records(lambda rs: [*rs, rs[0]]), CompletenessError, "recorded twice"
    ),
    Case(
        "the best episode copied over a bad one",
        _records(lambda rs: [rs[0].model_copy(update={"seed": rs[1].seed}), *rs[2:], rs[0]]),
        CompletenessError,
        "recorded twice|missing",
    ),
    # consistency
    Case(
        "an edited reward",
        _records(_trace(5, lambda t: t[3].__setitem__("reward", t[3]["reward"] + 1.0))),
        ConsistencyError,
        r"episode_return .* is not the sum",
    ),
    Case(
        "lock disagrees with the records",
        _meta("env_lock.json", lambda d: d["envs"][0].update(spec_hash="f" * 64)),
        ConsistencyError,
        "env_lock.json does not list the envs",
    ),
    Case(
        "one record of another agent",
        _records(lambda rs: replace_record(rs, 1, agent_id="oracle")),
        ConsistencyError,
        "disagree on agent_id",
    ),
    Case(
        "one record of another run",
        _records(lambda rs: replace_record(rs, 2, run_id="other")),
        ConsistencyError,
        "disagree on run_id",
    ),
    Case(
        "submission names another board version",
        _meta("submission.yaml", lambda d: d.update(board_version=2)),
        ConsistencyError,
        "names mini-bandit v2, not this board",
    ),
    Case(
        "attempts_k is not the board's",
        _meta("submission.yaml", lambda d: d.update(attempts_k=1)),
        ConsistencyError,
        "attempts_k is 1",
    ),
    Case(
        "submission and lock name other releases",
        _meta("submission.yaml", lambda d: d.update(envsuite_version="0.1.99")),
        ConsistencyError,
        "name other releases",
    ),
    Case(
        "a trace shorter than the episode",
        _records(
            lambda rs: replace_record(rs, 4, trace=[s.model_dump() for s in rs[4].trace[:-2]])
        ),
        ConsistencyError,
        "length 20 but its trace has 18 steps",
    ),
    Case(
        "an unserialisable action",
        _records(_trace(6, _set(2, "action", {"unserialisable": "<object>"}))),
        ConsistencyError,
        "could not be recorded whole",
    ),
    Case(
        "an action cut by the trace cap",
        _records(_trace(6, _set(2, "action", {"trace_cut": {"bytes": 10**6}}))),
        ConsistencyError,
        "could not be recorded whole",
    ),
    Case("an infra error over the limit", _records(_infra), ConsistencyError, "are infra errors"),
    # uniqueness
    Case("same records, another name", _copy_entry("random"), DuplicateRunError, "20261201_random"),
    Case(
        "same records, relabelled run and agent",
        _copy_entry("oracle", relabel=True),
        DuplicateRunError,
        "20261201_oracle",
    ),
    Case(
        "same records, reordered",
        _copy_entry("random", reverse=True),
        DuplicateRunError,
        "20261201_random",
    ),
    # recomputation
    Case(
        "a forged aggregate",
        _meta("submission.yaml", lambda d: d["claimed"].update(success_rate=0.99)),
        MetricMismatchError,
        "claims success_rate = 0.99 but the records",
    ),
    Case(
        "a claim the board does not compute",
        _meta("submission.yaml", lambda d: d["claimed"].update(elo=2000.0)),
        MetricMismatchError,
        "claims elo, which this board does not",
    ),
    Case(
        "a NaN claim",
        _meta("submission.yaml", lambda d: d["claimed"].update(mean_return=float("nan"))),
        MetricMismatchError,
        "claims mean_return = nan",
    ),
    # replay (claims recomputed from the edited records, as a careful forger would)
    Case(
        "reward and return edited together",
        _records(_reward_and_return, claims=True),
        ReplayError,
        r"step 4: recorded reward",
        replay="all",
    ),
    Case(
        "success flipped",
        _records(lambda rs: replace_record(rs, 2, success=not rs[2].success), claims=True),
        ReplayError,
        "success: recorded",
        replay="all",
    ),
    Case(
        "another arm pulled",
        _records(_other_arm, claims=True),
        ReplayError,
        r"replay of envsuite/Bandit-v0 .* seed 0 attempt 1",
        replay="all",
    ),
    Case(
        "a metric the env reports edited",
        _records(
            lambda rs: replace_record(rs, 8, metrics={**rs[8].metrics, "cumulative_regret": -1.0}),
            claims=True,
        ),
        ReplayError,
        "replay of",
        replay="all",
    ),
    Case(
        "a multi-agent joint action swapped",
        _records(
            _trace(0, _set(2, "action", {"player_0": "tails", "player_1": "tails"})), slug="oracle"
        ),
        ReplayError,
        r"replay of envsuite/RepeatedGame-v0",
        replay="all",
        board="mini-games",
    ),
    # the board itself
    Case(
        "published board.yaml edited",
        _published_edit("board.yaml", "per_env: 1", "per_env: 0"),
        FrozenBoardError,
        r"board.yaml changed since publication",
    ),
    Case(
        "published protocol edited",
        _published_edit("protocol.yaml", "count: 4", "count: 3"),
        FrozenBoardError,
        r"protocol.yaml changed since publication",
    ),
    Case("FROZEN.sha256 garbled", _frozen_garbage, FrozenBoardError, "changed since publication"),
    Case(
        "marked published without FROZEN.sha256",
        _board_yaml(lambda d: d.update(published="2026-12-02")),
        FrozenBoardError,
        "marked published but has no FROZEN.sha256",
    ),
    Case("draft protocol edited", _protocol_edit, BoardError, "does not have the sha256"),
    Case(
        "pinned spec hash edited",
        _board_yaml(lambda d: d["envs"][0].update(spec_hash="1" * 64)),
        BoardError,
        "the pin was edited",
    ),
    Case(
        "pinned spec hash edited and re-frozen",
        _board_yaml(lambda d: d["envs"][2].update(spec_hash="2" * 64), True, refreeze=True),
        BoardError,
        "the pin was edited",
    ),
    Case(
        "pinned config edited",
        _board_yaml(_pin_config),
        BoardError,
        "the pin was edited",
    ),
    Case(
        "a pin removed",
        _board_yaml(lambda d: d["envs"].pop()),
        BoardError,
        "the pinned envs are not the protocol's envs",
    ),
    Case(
        "board.yaml names another board",
        _board_yaml(lambda d: d.update(board="other-board")),
        BoardError,
        "says other-board v1 but sits in mini-bandit/v1",
    ),
    Case(
        "board.yaml with an unknown field",
        _board_yaml(lambda d: d.update(trusted=True)),
        BoardError,
        "not a valid board file",
    ),
    Case(
        "board limits raised past the schema",
        _board_yaml(lambda d: d["limits"].update(max_infra_error_fraction=2.0)),
        BoardError,
        "max_infra_error_fraction",
    ),
]


def test_the_corpus_is_large():
    assert len(CASES) >= 69
    assert len({case.name for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_a_tampering_is_caught_by_its_check(case, board_copy, tmp_path):
    board = board_copy(case.board)
    folder = case.tamper(board, tmp_path)
    with pytest.raises(case.error, match=case.match) as caught:
        verify_submission(folder, replay=case.replay)
    assert type(caught.value) is case.error  # caught by the check meant for it
