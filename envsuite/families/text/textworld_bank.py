"""The shipped TextWorld bank: games TextWorld's own generator made from documented seeds.

Making one game with TextWorld (``textworld.generator.make_game`` then ``compile_game``,
which runs the Inform 7 compiler TextWorld ships) takes 1-2 s here, which would dominate an
episode; so ``datasets/text/textworld/v1/`` ships, per difficulty, :data:`BANK_SIZE`
games made by ``scripts/build_textworld_bank.py`` from the seeds :func:`game_seed` gives
and the options :func:`game_options` sets. Each difficulty is one solid ``.tar.xz`` of the
games' ``.z8`` story files (what TextWorld's Jericho backend plays) and ``.json`` game
descriptions (what its state tracking reads: logic, quests, walkthrough). The games of a
difficulty share most of their bytes (the Inform 7 library), so a solid archive costs about
25 KB per game where one ``.z8`` alone compresses to 105 KB.

Inform 7 writes the compile date into the story file's header as its serial number
(bytes ``0x12``-``0x17``); the builder sets it to ``000000`` (the serial is only shown by
the ``version`` command and is outside the Z-machine checksum), so the bank is a pure
function of TextWorld's version and the seeds on the machine that made it, and the
builder's ``--check`` remakes it byte for byte there (elsewhere a few bytes can differ while
the games play identically: see the bank's README).

At run time an archive is checked against the ``MANIFEST`` and unpacked (once per
process; files already there with the right bytes are kept) into a temporary folder named
by the archive's sha256 and shared by all processes, since Jericho plays story files from
disk.
"""

from __future__ import annotations

import atexit
import hashlib
import io
import os
import re
import shutil
import tarfile
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from envsuite.data_paths import datasets_root
from envsuite.seeding import derive_seed

#: The bank's folder, relative to ``datasets/``.
BANK_DIR = "text/textworld/v1"
MANIFEST = "MANIFEST"
#: Games per difficulty.
BANK_SIZE = 60
#: TextWorld's ``GameOptions`` per difficulty: (nb_rooms, nb_objects, quest_length).
PRESETS: dict[str, tuple[int, int, int]] = {
    "easy": (2, 4, 2),
    "medium": (5, 10, 5),
    "hard": (10, 20, 10),
}
#: Where Inform 7 keeps the serial number (the compile date) in a story file's header.
SERIAL_SLICE = slice(0x12, 0x18)
FIXED_SERIAL = b"000000"


class TextWorldBankError(FileNotFoundError):
    """A bank archive that is missing, or that does not match its MANIFEST."""


@dataclass(frozen=True)
class BankGame:
    """One game of the bank.

    Attributes:
        name: ``<difficulty>-<index>`` (the archive members are ``name.z8`` and ``name.json``).
        story: The unpacked story file (``.z8``); its ``.json`` sits beside it.
        key: sha256 of the story file and the game description: the game's canonical key.
    """

    name: str
    story: Path
    key: str


#: TextWorld's absolute grammar path in a game's ``.json`` (see :func:`fix_description`).
GRAMMARS_PATH_FIELD = re.compile(rb'"text_grammars_path": "(?:[^"\\]|\\.)*"')
#: What the bank's games hold there: the folder inside the textworld package.
NEUTRAL_GRAMMARS_PATH = b"textworld/generator/data/text_grammars"


def bank_folder() -> Path:
    """``datasets/text/textworld/v1`` (under ``$ENVSUITE_DATASETS`` when set)."""
    return datasets_root() / BANK_DIR


def archive_file(difficulty: str) -> Path:
    """The archive of ``difficulty``'s games."""
    return bank_folder() / f"{difficulty}.tar.xz"


def game_name(difficulty: str, index: int) -> str:
    """The name of game ``index`` of ``difficulty``."""
    return f"{difficulty}-{index:03d}"


def game_seed(difficulty: str, index: int) -> int:
    """The seed TextWorld's generator got for game ``index`` of ``difficulty``."""
    return derive_seed(0, "textworld-bank", difficulty, index)


@cache
def bank_seeds(difficulty: str) -> frozenset[int]:
    """Every seed the builder may try for ``difficulty`` (the kept ones and the skipped)."""
    return frozenset(game_seed(difficulty, index) for index in range(4 * BANK_SIZE + 1))


def game_options(difficulty: str, seed: int, path: str) -> Any:
    """TextWorld's ``GameOptions`` for a ``difficulty`` game from ``seed``, compiled to ``path``.

    Everything not set here is TextWorld's default (its "house" theme grammar, quest
    breadth 1, no locked-chest chains beyond what the quest needs).
    """
    from textworld import GameOptions

    rooms, objects, quest_length = PRESETS[difficulty]
    options = GameOptions()
    options.seeds = seed
    options.nb_rooms = rooms
    options.nb_objects = objects
    options.quest_length = quest_length
    options.path = path
    options.file_ext = ".z8"
    options.force_recompile = True
    return options


def fix_serial(story: bytes) -> bytes:
    """``story`` with its header serial number set to :data:`FIXED_SERIAL`."""
    return story[: SERIAL_SLICE.start] + FIXED_SERIAL + story[SERIAL_SLICE.stop :]


def fix_description(description: bytes) -> bytes:
    """A game's ``.json`` with the machine's paths taken out.

    TextWorld writes the absolute path of its installed grammar folder
    (``text_grammars_path``, only read when generating text) into every game; the bank holds
    :data:`NEUTRAL_GRAMMARS_PATH` instead, so a remade game matches wherever TextWorld is
    installed.
    """
    return GRAMMARS_PATH_FIELD.sub(
        b'"text_grammars_path": "' + NEUTRAL_GRAMMARS_PATH + b'"', description
    )


def pack(members: dict[str, bytes]) -> bytes:
    """A reproducible ``.tar.xz`` of ``members`` (sorted; no dates, owners or modes vary)."""
    import lzma

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name in sorted(members):
            info = tarfile.TarInfo(name)
            info.size = len(members[name])
            info.mtime = 0
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(members[name]))
    return lzma.compress(buffer.getvalue(), preset=9 | lzma.PRESET_EXTREME)


def unpack(data: bytes) -> dict[str, bytes]:
    """The members of a ``.tar.xz`` made by :func:`pack`."""
    members = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:xz") as tar:
        for info in tar.getmembers():
            handle = tar.extractfile(info)
            if handle is None or "/" in info.name or info.name.startswith("."):
                raise TextWorldBankError(f"unexpected member {info.name!r} in the bank")
            members[info.name] = handle.read()
    return members


@cache
def _manifest(folder: str) -> dict[str, str]:
    path = Path(folder) / MANIFEST
    try:
        lines = path.read_text(encoding="ascii").splitlines()
    except OSError as exc:
        raise TextWorldBankError(f"{path}: cannot read the MANIFEST ({exc.strerror})") from exc
    return {name: digest for digest, name in (line.split() for line in lines if line.strip())}


def _unpack_folder(digest: str) -> Path:
    """The folder an archive with sha256 ``digest`` is unpacked into.

    Shared by every process (and kept): ``<tmp>/envsuite-textworld-<digest[:16]>``, so
    worker processes (which exit without running ``atexit`` hooks) leave nothing behind.
    Where it cannot be made (another user's), a private folder removed at exit.
    """
    folder = Path(tempfile.gettempdir()) / f"envsuite-textworld-{digest[:16]}"
    try:
        folder.mkdir(exist_ok=True)
        probe = folder / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError:
        folder = Path(tempfile.mkdtemp(prefix="envsuite-textworld-"))
        atexit.register(shutil.rmtree, folder, True)
    return folder


def _write(path: Path, data: bytes) -> None:
    """Make ``path`` hold ``data`` (atomically, so a concurrent reader sees old or new)."""
    if path.is_file() and path.read_bytes() == data:
        return
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_bytes(data)
    os.replace(partial, path)


def load_bank(difficulty: str) -> tuple[BankGame, ...]:
    """The games of ``difficulty``, unpacked (once per process) and checked.

    Raises:
        TextWorldBankError: the archive or the MANIFEST is missing, or the archive's
            sha256 differs from the MANIFEST's.
    """
    return _load(str(archive_file(difficulty)))


@cache
def _load(path_text: str) -> tuple[BankGame, ...]:
    path = Path(path_text)
    expected = _manifest(str(path.parent)).get(path.name)
    if expected is None:
        raise TextWorldBankError(f"{path}: not listed in {path.parent / MANIFEST}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TextWorldBankError(f"{path}: cannot read the bank ({exc.strerror})") from exc
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        raise TextWorldBankError(
            f"{path}: sha256 is {actual} but {MANIFEST} lists {expected}; the bank was "
            "changed (rebuild it with scripts/build_textworld_bank.py)"
        )
    members = unpack(data)
    folder = _unpack_folder(actual)
    games = []
    for name in sorted(n[: -len(".z8")] for n in members if n.endswith(".z8")):
        story, description = members[f"{name}.z8"], members[f"{name}.json"]
        _write(folder / f"{name}.json", description)
        _write(folder / f"{name}.z8", story)
        key = hashlib.sha256(story + b"\x00" + description).hexdigest()
        games.append(BankGame(name, folder / f"{name}.z8", key))
    return tuple(games)
