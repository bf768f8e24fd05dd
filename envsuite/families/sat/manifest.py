"""A dataset folder's MANIFEST: the sha256 of every file, in ``sha256sum`` format.

``MANIFEST`` lists ``<sha256>  <relative path>`` per file, sorted by path, so
``sha256sum -c MANIFEST`` checks a dataset without envsuite, and a version folder is
frozen by its manifest.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

MANIFEST = "MANIFEST"


def sha256_of(path: Path) -> str:
    """The sha256 hex digest of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def dataset_files(root: Path) -> list[Path]:
    """Every file under ``root`` but the manifest, sorted by relative path."""
    return sorted(
        (p for p in root.rglob("*") if p.is_file() and p.name != MANIFEST),
        key=lambda p: p.relative_to(root).as_posix(),
    )


def write_manifest(root: Path) -> Path:
    """Write ``root/MANIFEST`` for the files under ``root``; return its path."""
    lines = [f"{sha256_of(p)}  {p.relative_to(root).as_posix()}\n" for p in dataset_files(root)]
    path = root / MANIFEST
    path.write_text("".join(lines), encoding="utf-8", newline="\n")
    return path


def check_manifest(root: Path) -> list[str]:
    """Problems with ``root``'s files against its manifest (an empty list when all match).

    Reports a missing or malformed manifest, files it lists that are missing or changed,
    and files it does not list.
    """
    path = root / MANIFEST
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [f"cannot read {path}: {exc}"]
    listed: dict[str, str] = {}
    problems = []
    for number, line in enumerate(text.splitlines(), start=1):
        digest, separator, name = line.partition("  ")
        if not separator or len(digest) != 64 or not name:
            problems.append(f"{MANIFEST}:{number}: not '<sha256>  <path>'")
            continue
        listed[name] = digest
    present = {p.relative_to(root).as_posix(): p for p in dataset_files(root)}
    for name, digest in sorted(listed.items()):
        if name not in present:
            problems.append(f"{name}: listed in {MANIFEST} but missing")
        elif sha256_of(present[name]) != digest:
            problems.append(f"{name}: sha256 differs from {MANIFEST}")
    problems.extend(
        f"{name}: not listed in {MANIFEST}" for name in sorted(set(present) - set(listed))
    )
    return problems
