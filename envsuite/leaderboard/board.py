"""A board version: its settings (``board.yaml``), its protocol, and the checks it must pass.

``board.yaml`` pins everything a submission is checked against::

    board: decision-regret
    version: 1
    title: Decision making with regret
    description: ...
    created: 2026-11-22
    published: 2026-11-22          # null while a draft; then FROZEN.sha256 exists
    protocol_sha256: <sha256 of protocol.yaml>
    envsuite: {version: 0.1.0, compatible: ["0.1"]}
    envs: [<EnvPin>, ...]          # one per protocol entry, in protocol order
    ranking: {metric: success_rate, confidence: 0.95, reps: 2000, seed: 0, ratings: false}
      # a panel board (its protocol names opponents) ranks by metric: bradley_terry
    replay: {per_env: 2, seed: 0, opt_in_families: [swe]}
    limits: {episodes_bytes: ..., file_bytes: ..., max_infra_error_fraction: 0.0}
"""

from __future__ import annotations

import datetime
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from envsuite.errors import UsageError
from envsuite.evaluation.protocol import TaskProtocol
from envsuite.jsonable import canonical_json
from envsuite.leaderboard.errors import (
    FROZEN_EDITED,
    PIN_HASH,
    BoardError,
    FrozenBoardError,
    UnsafeInputError,
)
from envsuite.leaderboard.layout import (
    BOARD_FILE,
    FROZEN_FILE,
    PROTOCOL_FILE,
    parse_version_dir,
)
from envsuite.leaderboard.manifest import sha256_bytes
from envsuite.leaderboard.panel import PANEL_FILE, PANEL_FILE_LIMIT, load_panel_records
from envsuite.leaderboard.panel_metrics import RATING
from envsuite.leaderboard.pins import EnvPin, drift, spec_hash_under
from envsuite.leaderboard.safety import (
    check_real_folder,
    check_slug,
    read_capped,
    read_yaml_mapping,
)
from envsuite.records import EpisodeRecord
from envsuite.registry import registry
from envsuite.version import __version__

#: Metrics a board can rank by; ``pass@K`` and ``pass^K`` take any K up to the attempts.
RANKING_METRIC = re.compile(
    r"^(success_rate|mean_return|mean_score|iqm_score|optimality_gap|regret"
    r"|bradley_terry|pass@[1-9][0-9]*|pass\^[1-9][0-9]*)$"
)
#: Largest board or protocol file read.
BOARD_FILE_LIMIT = 1 << 20


class EnvsuiteLock(BaseModel):
    """Which envsuite releases a board accepts records from.

    Attributes:
        version: The release the board was pinned with (its spec hashes use it).
        compatible: Release series (``"0.1"`` accepts 0.1.x) whose records are accepted.
    """

    model_config = ConfigDict(extra="forbid")

    version: str
    compatible: list[str] = Field(min_length=1)

    def accepts(self, version: str) -> bool:
        """Whether records made with envsuite ``version`` are accepted."""
        return any(version == s or version.startswith(f"{s}.") for s in self.compatible)


class RankingSettings(BaseModel):
    """How entries are ranked.

    Attributes:
        metric: The ranking metric (see :data:`RANKING_METRIC`).
        confidence: Coverage of every interval on the board.
        reps: Bootstrap replicates (paired over tasks and seeds).
        seed: Seed of every bootstrap generator on the board.
        ratings: Whether to show Bradley–Terry ratings (multi-agent boards).
        rating_reps: Bootstrap replicates of the ratings (each refits the model).
        exploitability_reps: Bootstrap replicates of each exploitability (panel boards of
            games with exploitability hooks; each costs one best response).
    """

    model_config = ConfigDict(extra="forbid")

    metric: str = "success_rate"
    confidence: float = Field(default=0.95, gt=0.0, lt=1.0)
    reps: int = Field(default=2000, ge=100)
    seed: int = Field(default=0, ge=0)
    ratings: bool = False
    rating_reps: int = Field(default=500, ge=100)
    exploitability_reps: int = Field(default=200, ge=10)

    @field_validator("metric")
    @classmethod
    def _known(cls, value: str) -> str:
        if not RANKING_METRIC.match(value):
            raise ValueError(f"unknown ranking metric {value!r}; known: {RANKING_METRIC.pattern}")
        return value


class ReplaySettings(BaseModel):
    """Which action traces verification replays.

    Attributes:
        per_env: Traces replayed per env entry (a stratified sample); 0 replays none.
        seed: Seed of the sample (mixed with the submission's manifest hash).
        opt_in_families: Families whose replays run only when asked (slow, e.g. ``swe``).
    """

    model_config = ConfigDict(extra="forbid")

    per_env: int = Field(default=2, ge=0)
    seed: int = Field(default=0, ge=0)
    opt_in_families: list[str] = Field(default_factory=lambda: ["swe"])


class Limits(BaseModel):
    """Size limits and tolerances for submissions.

    Attributes:
        episodes_bytes: Largest ``episodes.jsonl``.
        file_bytes: Largest other file.
        total_bytes: Largest submission in all.
        max_infra_error_fraction: Largest fraction of episodes that may be infra errors.
    """

    model_config = ConfigDict(extra="forbid")

    episodes_bytes: int = Field(default=64 << 20, ge=1)
    file_bytes: int = Field(default=1 << 20, ge=1)
    total_bytes: int = Field(default=96 << 20, ge=1)
    max_infra_error_fraction: float = Field(default=0.0, ge=0.0, le=1.0)


class BoardSettings(BaseModel):
    """The content of ``board.yaml`` (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")

    board: str
    version: int = Field(ge=1)
    title: str
    description: str = ""
    created: datetime.date
    published: datetime.date | None = None
    protocol_sha256: str
    envsuite: EnvsuiteLock
    envs: list[EnvPin] = Field(min_length=1)
    ranking: RankingSettings = Field(default_factory=RankingSettings)
    replay: ReplaySettings = Field(default_factory=ReplaySettings)
    limits: Limits = Field(default_factory=Limits)

    @field_validator("board")
    @classmethod
    def _slug(cls, value: str) -> str:
        return check_slug(value, "board name")


@dataclass(frozen=True)
class BoardVersion:
    """A loaded board version: where it is, its settings and its protocol."""

    path: Path
    settings: BoardSettings
    protocol: TaskProtocol
    panel_records: tuple[EpisodeRecord, ...] = field(default=(), repr=False)

    @property
    def panel(self) -> bool:
        """Whether this is a panel board: entries play the protocol's opponents."""
        return bool(self.protocol.opponents)

    @property
    def name(self) -> str:
        """The board name."""
        return self.settings.board

    @property
    def version(self) -> int:
        """The version number."""
        return self.settings.version

    @property
    def label(self) -> str:
        """``board v<N>``."""
        return f"{self.name} v{self.version}"

    @property
    def multi_agent(self) -> bool:
        """Whether any env of the board is multi-agent."""
        return any(registry[pin.id].multi_agent for pin in self.settings.envs)

    @property
    def frozen(self) -> bool:
        """Whether the version is published (and so may not change)."""
        return (self.path / FROZEN_FILE).is_file()

    def pin_for(self, env_id: str, kwargs_json: str) -> EnvPin | None:
        """The pin of the entry ``(env_id, canonical kwargs)``, if the board has it."""
        for pin in self.settings.envs:
            if pin.key == (env_id, kwargs_json):
                return pin
        return None


def frozen_digests(path: Path) -> dict[str, str]:
    """sha256 of the files a published version freezes (board, protocol and panel files)."""
    digests = {
        name: sha256_bytes(read_capped(path / name, BOARD_FILE_LIMIT, "a board file"))
        for name in (BOARD_FILE, PROTOCOL_FILE)
    }
    if os.path.lexists(path / PANEL_FILE):
        digests[PANEL_FILE] = sha256_bytes(
            read_capped(path / PANEL_FILE, PANEL_FILE_LIMIT, "a panel's games")
        )
    return digests


def check_frozen(path: Path, board: str, version: int) -> None:
    """Refuse a published version whose frozen files changed since publication.

    Raises:
        FrozenBoardError: a frozen file's hash differs from ``FROZEN.sha256``.
    """
    listed: dict[str, str] = {}
    text = read_capped(path / FROZEN_FILE, BOARD_FILE_LIMIT, "a board file").decode(
        "utf-8", errors="replace"
    )
    for line in text.splitlines():
        digest, _, name = line.partition("  ")
        listed[name] = digest
    actual_digests = frozen_digests(path)
    for name in sorted(set(listed) | set(actual_digests)):
        actual = actual_digests.get(name, "nothing (the file is gone)")
        if listed.get(name) != actual:
            raise FrozenBoardError(
                FROZEN_EDITED.format(
                    board=board,
                    version=version,
                    path=path / name,
                    actual=actual,
                    expected=listed.get(name, "nothing"),
                )
            )


def _settings(path: Path) -> BoardSettings:
    data = read_yaml_mapping(path / BOARD_FILE, BOARD_FILE_LIMIT)
    try:
        return BoardSettings.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
        )
        raise BoardError(f"{path / BOARD_FILE} is not a valid board file: {problems}") from exc


def load_board_version(path: Path, *, check_installed: bool = True) -> BoardVersion:
    """Load and check a board version folder.

    Checks, in order: the version folder and its board folder are real folders (not
    symlinks); ``board.yaml`` fits its schema and names this folder; a published version's
    frozen files are unchanged; ``protocol.yaml`` is a valid protocol with the hash the
    board pins; the pins list exactly the protocol's env entries, each with the spec hash
    its pinned preimage gives; and (with ``check_installed``) the installed envsuite still
    matches every pin.

    Raises:
        BoardError: any of those fails (FrozenBoardError for an edited published version).
    """
    try:
        return _load_board_version(path, check_installed)
    except UnsafeInputError as exc:  # a linked or oversize board file: the board is unusable
        raise BoardError(str(exc)) from exc


def _load_board_version(path: Path, check_installed: bool) -> BoardVersion:
    for folder in (path.parent, path):
        check_real_folder(folder)
    if not (path / BOARD_FILE).is_file():
        raise BoardError(f"{path} holds no {BOARD_FILE}; it is not a board version")
    settings = _settings(path)
    if settings.board != path.parent.name or settings.version != parse_version_dir(path):
        raise BoardError(
            f"{path / BOARD_FILE} says {settings.board} v{settings.version} but sits in "
            f"{path.parent.name}/{path.name}"
        )
    if (path / FROZEN_FILE).is_file():
        check_frozen(path, settings.board, settings.version)
    elif settings.published is not None:
        raise FrozenBoardError(
            f"{settings.board} v{settings.version} is marked published but has no {FROZEN_FILE}"
        )
    protocol_bytes = read_capped(path / PROTOCOL_FILE, BOARD_FILE_LIMIT, "a board file")
    if sha256_bytes(protocol_bytes) != settings.protocol_sha256:
        raise BoardError(f"{path / PROTOCOL_FILE} does not have the sha256 board.yaml pins")
    try:
        protocol = TaskProtocol.load(path / PROTOCOL_FILE)
    except UsageError as exc:
        raise BoardError(str(exc)) from exc
    pinned = [pin.key for pin in settings.envs]
    wanted = [(entry.id, canonical_json(entry.kwargs)) for entry in protocol.envs]
    if pinned != wanted:
        raise BoardError(f"{path / BOARD_FILE}: the pinned envs are not the protocol's envs")
    check_pinned_hashes(path, settings)
    panel_records: tuple[EpisodeRecord, ...] = ()
    if protocol.opponents:
        if settings.ranking.metric != RATING:
            raise BoardError(
                f"{path / BOARD_FILE}: a board whose protocol names opponents ranks by "
                f"{RATING}, not {settings.ranking.metric}"
            )
        panel_records = tuple(load_panel_records(path, protocol))
        _check_panel_hashes(path, settings, panel_records)
    elif settings.ranking.metric == RATING:
        raise BoardError(
            f"{path / BOARD_FILE}: {RATING} ranks entries against a panel, and the protocol "
            "names no opponents"
        )
    board = BoardVersion(path, settings, protocol, panel_records)
    if check_installed:
        check_installed_envsuite(board)
    return board


def _check_panel_hashes(
    path: Path, settings: BoardSettings, records: tuple[EpisodeRecord, ...]
) -> None:
    """The panel's games were played on the pinned envs, by an accepted envsuite release."""
    pins = {pin.key: pin for pin in settings.envs}
    for record in records:
        pin = pins.get((record.env_id, canonical_json(record.env_kwargs)))
        if (
            pin is None
            or not settings.envsuite.accepts(record.envsuite_version)
            or record.spec_hash != spec_hash_under(pin, record.envsuite_version)
        ):
            raise BoardError(
                f"{path / PANEL_FILE}: {record.env_id} seed {record.seed} attempt "
                f"{record.attempt} was not played on the pinned env by an accepted envsuite"
            )


def check_pinned_hashes(path: Path, settings: BoardSettings) -> None:
    """Every pin's ``spec_hash`` must be the hash of its own preimage.

    The preimage (id, effective config, dataset checksums) under the board's envsuite
    version gives the hash; a ``spec_hash`` edited by hand matches nothing a real env made
    from the pin carries.

    Raises:
        BoardError: a pin whose ``spec_hash`` is not its preimage's hash.
    """
    for pin in settings.envs:
        expected = spec_hash_under(pin, settings.envsuite.version)
        if pin.spec_hash != expected:
            raise BoardError(
                PIN_HASH.format(
                    path=path / BOARD_FILE,
                    env=pin.label(),
                    actual=pin.spec_hash,
                    expected=expected,
                    version=settings.envsuite.version,
                )
            )


def check_installed_envsuite(board: BoardVersion) -> None:
    """Refuse to verify against a board the installed envsuite no longer matches.

    Raises:
        BoardError: an env's effective arguments or datasets changed since the board was
            pinned, or the installed envsuite is outside the board's compatible releases.
    """
    lock = board.settings.envsuite
    if not lock.accepts(__version__):
        raise BoardError(
            f"{board.label} accepts envsuite {', '.join(lock.compatible)}.x; the installed "
            f"envsuite is {__version__}: install a compatible release to verify"
        )
    for pin in board.settings.envs:
        problem = drift(pin)
        if problem is None and lock.version == __version__:
            installed = registry[pin.id].hash_for(pin.kwargs)
            if installed != pin.spec_hash:
                problem = f"its spec hash is {installed}, not the pinned {pin.spec_hash}"
        if problem is not None:
            raise BoardError(
                f"{board.label} pins {pin.label()}, but in the installed envsuite {problem}; "
                f"make a new board version with `envsuite leaderboard new-version {board.name}`"
            )
