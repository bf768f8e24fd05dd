"""Source distributions from PyPI, downloaded with ``pip download`` and checked by sha256."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from envsuite.sandbox.cache import cache_dir, sha256_file


class SdistError(RuntimeError):
    """The sdist could not be downloaded, or its sha256 differs from the pin."""


def fetch_sdist(name: str, version: str, sha256: str) -> Path:
    """The sdist of ``name==version`` (cached), verified against ``sha256``."""
    folder = cache_dir("sdists")
    found = _find(folder, name, version)
    if found is None:
        command = [
            sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
            "--no-binary", ":all:", "--dest", str(folder), f"{name}=={version}",
        ]  # fmt: skip
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        found = _find(folder, name, version)
        if result.returncode != 0 or found is None:
            raise SdistError(f"pip download {name}=={version} failed: {result.stderr[-800:]}")
    if sha256_file(found) != sha256:
        raise SdistError(f"{found.name}: sha256 {sha256_file(found)} differs from pin {sha256}")
    return found


def _find(folder: Path, name: str, version: str) -> Path | None:
    normal = name.lower().replace("-", "_")
    for path in sorted(folder.glob("*.tar.gz")):
        if path.name.lower().replace("-", "_") == f"{normal}_{version}.tar.gz":
            return path
    return None
