"""envsuite's cache folder on the host, and file digests of what is cached there."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def cache_dir(*parts: str) -> Path:
    """A folder under envsuite's cache (``$ENVSUITE_CACHE``, else ``~/.cache/envsuite``).

    Folders sit under ``swe/`` because the sandbox layer started in the swe family; the name
    is kept so wheels, source distributions and repositories cached before stay found (the
    image builds run without network and rely on them).
    """
    root = Path(os.environ.get("ENVSUITE_CACHE") or Path.home() / ".cache" / "envsuite")
    folder = root.joinpath("swe", *parts)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def sha256_file(path: Path) -> str:
    """sha256 hex digest of a file."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
