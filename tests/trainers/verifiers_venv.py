"""A separate venv holding verifiers (from PyPI) and envsuite's own dependencies.

verifiers 0.4.0 (the newest release) requires ``openai<3``, while the test environment
holds openai 3.x (TextArena, one of the benchmark peers, takes the newest); the earlier
releases tried would downgrade ``websockets`` (0.2.1 to 0.3.1) or ``datasets``,
``huggingface_hub`` and ``fsspec`` (0.1.14, 0.2.0). So the adapter is tested from this
venv: verifiers plus the dependencies pyproject.toml lists for envsuite itself and for the
extras the tests use (``sat``, ``serve``), with envsuite imported from the checkout
(``PYTHONPATH``).

The venv is built on first use (bounded by :data:`BUILD_SECONDS`) under
``$ENVSUITE_VERIFIERS_VENV`` (default: the system's temporary directory), and rebuilt when
the requirement list changes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The verifiers release the tests speak to (the extra in pyproject.toml names the same).
VERIFIERS = "verifiers==0.4.0"
#: envsuite extras installed beside it.
EXTRAS = ("sat", "serve")
#: Longest the venv may take to build (pip downloads the wheels).
BUILD_SECONDS = 900


def requirements() -> list[str]:
    """verifiers, and envsuite's dependencies and test extras, read from pyproject.toml."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    return [VERIFIERS, *project["dependencies"], *(r for e in EXTRAS for r in extras[e])]


def venv_dir() -> Path:
    """Where the venv lives."""
    default = Path(tempfile.gettempdir()) / "envsuite-verifiers-0.4.0"
    return Path(os.environ.get("ENVSUITE_VERIFIERS_VENV", default))


def verifiers_python() -> Path:
    """The venv's python with verifiers importable, building the venv if needed.

    Raises:
        RuntimeError: the build failed (its output's tail says why).
    """
    wanted = requirements()
    stamp_text = hashlib.sha256("\n".join(wanted).encode()).hexdigest()
    python = venv_dir() / "bin" / "python"
    stamp = venv_dir() / "envsuite-requirements.sha256"
    if python.exists() and stamp.exists() and stamp.read_text() == stamp_text:
        return python
    steps = [
        [sys.executable, "-m", "venv", "--clear", str(venv_dir())],
        [str(python), "-m", "pip", "install", "--quiet", *wanted],
    ]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True, timeout=BUILD_SECONDS)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(step)} failed:\n{(done.stdout + done.stderr)[-2000:]}")
    stamp.write_text(stamp_text)
    return python
