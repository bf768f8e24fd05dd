"""A separate venv holding OpenEnv's own package (openenv-core), built from PyPI once.

openenv-core pulls gradio, fastmcp and openai, so it is not installed next to envsuite's
pins; the test runs its client from this venv instead. The venv is built on first use
(bounded by :data:`BUILD_SECONDS`) under ``$ENVSUITE_OPENENV_VENV`` (default: the
system's temporary directory) and reused afterwards.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

#: The OpenEnv release the test speaks to.
OPENENV_CORE = "openenv-core==0.3.0"
#: Longest the venv may take to build (pip downloads the wheels).
BUILD_SECONDS = 900


def venv_dir() -> Path:
    """Where the venv lives."""
    default = Path(tempfile.gettempdir()) / "envsuite-openenv-core-0.3.0"
    return Path(os.environ.get("ENVSUITE_OPENENV_VENV", default))


def openenv_python() -> Path:
    """The venv's python with openenv-core importable, building the venv if needed.

    Raises:
        RuntimeError: the build failed (its output's tail says why).
    """
    python = venv_dir() / "bin" / "python"
    probe = [str(python), "-c", "import importlib.metadata as m; m.version('openenv-core')"]
    if python.exists() and subprocess.run(probe, capture_output=True, timeout=120).returncode == 0:
        return python
    steps = [
        [sys.executable, "-m", "venv", str(venv_dir())],
        [str(python), "-m", "pip", "install", "--quiet", OPENENV_CORE],
    ]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True, timeout=BUILD_SECONDS)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(step)} failed:\n{(done.stdout + done.stderr)[-2000:]}")
    return python
