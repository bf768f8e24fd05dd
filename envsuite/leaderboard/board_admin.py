"""Making boards: create a board from a task protocol, bump its version, publish (freeze) it.

A board version is a draft until published; publishing writes ``FROZEN.sha256`` and from
then on its board and protocol files may not change. A change to an env (a new ``-vN``, a
changed default or dataset) or to the protocol makes a new version with
:func:`new_version`; the old version and its submissions stay as they were.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import yaml

from envsuite.evaluation.protocol import SeedRange, TaskProtocol
from envsuite.leaderboard.board import (
    BoardSettings,
    BoardVersion,
    EnvsuiteLock,
    RankingSettings,
    ReplaySettings,
    frozen_digests,
    load_board_version,
)
from envsuite.leaderboard.errors import BoardError
from envsuite.leaderboard.layout import (
    BOARD_FILE,
    FROZEN_FILE,
    KNOWN_ISSUES_FILE,
    PROTOCOL_FILE,
    SUBMISSIONS_DIR,
    latest_version,
    version_dir,
)
from envsuite.leaderboard.manifest import sha256_bytes
from envsuite.leaderboard.panel import play_round_robin
from envsuite.leaderboard.panel_metrics import RATING
from envsuite.leaderboard.pins import pin_env
from envsuite.leaderboard.safety import check_slug
from envsuite.registry import registry
from envsuite.version import __version__

KNOWN_ISSUES_TEMPLATE = """# Known issues: {board} v{version}

Problems found in this board version after it was published. A published version never
changes (its board and protocol files are frozen); issues are recorded here, and a fix
that changes results makes a new version.

{body}
"""


def _series(version: str) -> str:
    """The release series of a version: ``0.1`` for ``0.1.0``."""
    return ".".join(version.split(".")[:2])


def _protocol_text(protocol: TaskProtocol, source: str) -> str:
    data = protocol.model_dump(mode="json")
    header = (
        f"# The task protocol of this board version (from {source}).\n"
        "# Run it with: envsuite eval <this file> --agent AGENT --out RUN_DIR\n"
    )
    body: str = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    return header + body


def write_settings(path: Path, settings: BoardSettings) -> None:
    """Write ``board.yaml`` from settings (key order as in the model)."""
    data: dict[str, Any] = settings.model_dump(mode="json")
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    (path / BOARD_FILE).write_text(text, encoding="utf-8")


def trimmed(protocol: TaskProtocol, seeds: int | None) -> TaskProtocol:
    """The protocol with only its first ``seeds`` seeds (all of them when None)."""
    if seeds is None:
        return protocol
    values = protocol.seed_values()
    if not 1 <= seeds <= len(values):
        raise BoardError(f"--seeds must lie in [1, {len(values)}] for protocol {protocol.id}")
    kept: SeedRange | list[int]
    if isinstance(protocol.seeds, SeedRange):
        kept = SeedRange(start=protocol.seeds.start, count=seeds)
    else:
        kept = values[:seeds]
    return protocol.model_copy(update={"seeds": kept})


def _write_version(
    path: Path,
    protocol: TaskProtocol,
    source: str,
    settings: dict[str, Any],
    issues: str,
    workers: int = 1,
) -> BoardVersion:
    path.mkdir(parents=True)
    (path / SUBMISSIONS_DIR).mkdir()
    protocol_text = _protocol_text(protocol, source)
    (path / PROTOCOL_FILE).write_text(protocol_text, encoding="utf-8")
    board = BoardSettings(
        protocol_sha256=sha256_bytes(protocol_text.encode("utf-8")),
        envsuite=EnvsuiteLock(version=__version__, compatible=[_series(__version__)]),
        envs=[pin_env(entry) for entry in protocol.envs],
        **settings,
    )
    write_settings(path, board)
    (path / KNOWN_ISSUES_FILE).write_text(
        KNOWN_ISSUES_TEMPLATE.format(board=board.board, version=board.version, body=issues),
        encoding="utf-8",
    )
    if protocol.opponents:
        play_round_robin(protocol, path, workers)
    return load_board_version(path)


def create_board(
    root: Path,
    protocol_path: Path,
    *,
    name: str | None = None,
    title: str | None = None,
    seeds: int | None = None,
    metric: str | None = None,
    replay_per_env: int = 2,
    workers: int = 1,
    today: datetime.date | None = None,
) -> BoardVersion:
    """Create version 1 of a board from a task protocol file.

    Args:
        root: The ``leaderboards/`` folder.
        protocol_path: A ``tasks/*.yaml`` protocol; the board keeps its own copy.
        name: Board name (default: the protocol id).
        title: Human title (default: the name).
        seeds: Keep only the protocol's first ``seeds`` seeds (keeps submissions small).
        metric: The ranking metric (default: ``success_rate``; ``bradley_terry``, the only
            one allowed, for a protocol with opponents).
        replay_per_env: Traces replayed per env entry during verification.
        workers: Processes that play a panel's round robin (a protocol with opponents:
            see :mod:`envsuite.leaderboard.panel`).
        today: Creation date (default: today).

    Raises:
        BoardError: the board exists, or the protocol or settings are invalid.
    """
    protocol = trimmed(TaskProtocol.load(protocol_path), seeds)
    protocol.check_envs()
    board = check_slug(name or protocol.id, "board name")
    path = version_dir(root, board, 1)
    if path.parent.exists():
        raise BoardError(f"board {board} exists; make a new version with `new-version {board}`")
    multi = any(registry[entry.id].multi_agent for entry in protocol.envs)
    if protocol.opponents:
        metric = metric or RATING
        if metric != RATING:
            raise BoardError(
                f"a board whose protocol names opponents ranks by {RATING}, not {metric}"
            )
        multi = False  # entries are rated against the panel, not compared with each other
    metric = metric or "success_rate"
    description = " ".join(protocol.description.split())
    if seeds is not None:
        description += f" This board keeps the protocol's first {seeds} seeds per env."
    settings = {
        "board": board,
        "version": 1,
        "title": title or board,
        "description": description,
        "created": today or datetime.date.today(),
        "ranking": RankingSettings(metric=metric, ratings=multi),
        "replay": ReplaySettings(per_env=replay_per_env),
    }
    return _write_version(path, protocol, str(protocol_path), settings, "None so far.", workers)


def new_version(
    root: Path,
    board: str,
    *,
    protocol_path: Path | None = None,
    force: bool = False,
    today: datetime.date | None = None,
) -> BoardVersion:
    """Make version N+1 of a board, re-pinned against the installed envsuite.

    The protocol is ``protocol_path`` if given (e.g. with a bumped env id), else the
    previous version's. Ranking, replay and limits settings carry over.

    Raises:
        BoardError: nothing changed (unless ``force``), or the protocol is invalid.
    """
    previous_number = latest_version(root, board)
    previous = load_board_version(version_dir(root, board, previous_number), check_installed=False)
    source = protocol_path or previous.path / PROTOCOL_FILE
    protocol = TaskProtocol.load(source)
    protocol.check_envs()
    pins = [pin_env(entry) for entry in protocol.envs]
    if not force and pins == previous.settings.envs and protocol == previous.protocol:
        raise BoardError(
            f"{previous.label} already pins this protocol and these envs; nothing to bump "
            "(use --force to make a new version anyway)"
        )
    old = previous.settings
    settings = {
        "board": board,
        "version": previous_number + 1,
        "title": old.title,
        "description": old.description,
        "created": today or datetime.date.today(),
        "ranking": old.ranking,
        "replay": old.replay,
        "limits": old.limits,
    }
    issues = f"Supersedes v{previous_number}. None so far."
    path = version_dir(root, board, previous_number + 1)
    return _write_version(path, protocol, str(source), settings, issues)


def publish(
    root: Path, board: str, version: int | None = None, *, today: datetime.date | None = None
) -> BoardVersion:
    """Publish a draft version: set its date and freeze its board and protocol files.

    Raises:
        BoardError: the version is already published or does not match the installed
            envsuite.
    """
    number = version or latest_version(root, board)
    path = version_dir(root, board, number)
    loaded = load_board_version(path)
    if loaded.frozen:
        raise BoardError(f"{loaded.label} is already published")
    settings = loaded.settings.model_copy(update={"published": today or datetime.date.today()})
    write_settings(path, settings)
    lines = [f"{digest}  {name}\n" for name, digest in sorted(frozen_digests(path).items())]
    (path / FROZEN_FILE).write_text("".join(lines), encoding="utf-8")
    return load_board_version(path)
