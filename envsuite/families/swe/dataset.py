"""The shipped SWE dataset: ``datasets/swe/<library>/v1/`` with a MANIFEST of sha256 sums.

Each library folder holds ``library.json`` (the pinned source distribution and the problem
environment), the source distribution itself (``<name>-<version>.tar.gz``, as downloaded
from PyPI, sha256-pinned), ``tasks.jsonl`` (one :class:`SWEProblem` per line) and ``MANIFEST``
(``<sha256>  <file>`` lines covering every other file).
"""

from __future__ import annotations

import dataclasses
import io
import json
import tarfile
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from envsuite.data_paths import datasets_root
from envsuite.families.swe.problem import SWEProblem
from envsuite.sandbox.cache import sha256_file
from envsuite.sandbox.environment import SoftwareEnvironment

#: The dataset version folder every library has.
DATASET_VERSION = "v1"
MANIFEST = "MANIFEST"
LIBRARY_FILE = "library.json"
PROBLEMS_FILE = "tasks.jsonl"


class DatasetError(RuntimeError):
    """A dataset folder that is missing, incomplete or does not match its MANIFEST."""


def swe_root() -> Path:
    """``datasets/swe`` (under ``$ENVSUITE_DATASETS`` when set)."""
    return datasets_root() / "swe"


@dataclasses.dataclass(frozen=True)
class Library:
    """One shipped library: its pinned source distribution and software environment."""

    name: str
    version: str
    sdist_file: str
    sdist_sha256: str
    environment: SoftwareEnvironment
    folder: Path

    @property
    def sdist_path(self) -> Path:
        """The shipped source distribution."""
        return self.folder / self.sdist_file

    def to_json(self) -> dict[str, object]:
        """The content of ``library.json``."""
        return {
            "name": self.name,
            "version": self.version,
            "sdist": {"file": self.sdist_file, "sha256": self.sdist_sha256},
            "environment": self.environment.to_json(),
        }


def library_names(root: Path | None = None) -> list[str]:
    """Names of the shipped libraries (folders with a ``v1/library.json``), sorted."""
    base = root or swe_root()
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir() if (p / DATASET_VERSION / LIBRARY_FILE).is_file())


def library_folder(name: str, root: Path | None = None) -> Path:
    """``datasets/swe/<name>/v1``."""
    return (root or swe_root()) / name / DATASET_VERSION


def load_library(name: str, root: Path | None = None) -> Library:
    """Read ``library.json`` of ``name``.

    Raises:
        DatasetError: the library is not shipped.
    """
    folder = library_folder(name, root)
    path = folder / LIBRARY_FILE
    if not path.is_file():
        known = ", ".join(library_names(root)) or "none"
        raise DatasetError(f"no SWE library {name!r} in {folder.parent.parent} (shipped: {known})")
    data = json.loads(path.read_text())
    return Library(
        name=data["name"],
        version=data["version"],
        sdist_file=data["sdist"]["file"],
        sdist_sha256=data["sdist"]["sha256"],
        environment=SoftwareEnvironment.from_json(data["environment"]),
        folder=folder,
    )


def load_problems(names: Iterable[str] | None = None, root: Path | None = None) -> list[SWEProblem]:
    """The shipped problems of ``names`` (default: every library), sorted by instance id."""
    problems: list[SWEProblem] = []
    for name in library_names(root) if names is None else names:
        problems += _library_problems(str(library_folder(name, root)))
    return sorted(problems, key=lambda t: t.instance_id)


@cache
def _library_problems(folder: str) -> tuple[SWEProblem, ...]:
    library = load_library(Path(folder).parent.name, Path(folder).parent.parent)
    path = Path(folder) / PROBLEMS_FILE
    if not path.is_file():
        return ()
    return tuple(
        SWEProblem.from_json(json.loads(line), library.environment)
        for line in path.read_text().splitlines()
        if line.strip()
    )


def dataset_files(names: Iterable[str] | None = None, root: Path | None = None) -> list[Path]:
    """Every file of the given libraries' dataset folders (for the spec hash)."""
    files: list[Path] = []
    for name in library_names(root) if names is None else names:
        folder = library_folder(name, root)
        files += sorted(p for p in folder.iterdir() if p.is_file())
    return files


def write_manifest(folder: Path) -> Path:
    """Write ``MANIFEST`` listing the sha256 of every other file of ``folder``."""
    lines = [
        f"{sha256_file(p)}  {p.name}\n"
        for p in sorted(folder.iterdir())
        if p.is_file() and p.name != MANIFEST
    ]
    path = folder / MANIFEST
    path.write_text("".join(lines))
    return path


def verify_manifest(folder: Path) -> list[str]:
    """What is wrong with ``folder`` against its MANIFEST ([] when every file matches)."""
    path = folder / MANIFEST
    if not path.is_file():
        return [f"{folder}: no {MANIFEST}"]
    errors = []
    listed = set()
    for line in path.read_text().splitlines():
        digest, _, name = line.partition("  ")
        listed.add(name)
        target = folder / name
        if not target.is_file():
            errors.append(f"{target}: listed in {MANIFEST} but missing")
        elif sha256_file(target) != digest:
            errors.append(f"{target}: sha256 differs from {MANIFEST}")
    for extra in sorted(p.name for p in folder.iterdir() if p.is_file()):
        if extra not in listed and extra != MANIFEST:
            errors.append(f"{folder / extra}: not listed in {MANIFEST}")
    return errors


@dataclasses.dataclass(frozen=True)
class SourceFile:
    """A file of a source tree: its bytes and whether it is executable."""

    data: bytes
    executable: bool = False


def sdist_tree(path: Path) -> dict[str, SourceFile]:
    """The files of a source distribution, top folder stripped, bytecode left out."""
    files: dict[str, SourceFile] = {}
    with tarfile.open(path, mode="r:*") as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            parts = member.name.split("/", 1)
            if len(parts) != 2 or not parts[1]:
                continue
            relative = parts[1]
            if "__pycache__/" in relative or relative.endswith((".pyc", ".pyo")):
                continue
            handle = tar.extractfile(member)
            assert handle is not None
            files[relative] = SourceFile(handle.read(), bool(member.mode & 0o111))
    return files


def read_text_tree(tree: dict[str, SourceFile], paths: Iterable[str]) -> dict[str, str]:
    """The UTF-8 text of ``paths`` in ``tree`` (missing paths left out)."""
    return {p: tree[p].data.decode("utf-8") for p in paths if p in tree}


def tar_bytes(files: dict[str, bytes]) -> bytes:
    """An uncompressed tar of ``files`` (sorted, fixed times, uid 1000)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name in sorted(files):
            info = tarfile.TarInfo(name)
            info.size = len(files[name])
            info.mode = 0o644
            info.uid = info.gid = 1000
            tar.addfile(info, io.BytesIO(files[name]))
    return buffer.getvalue()
