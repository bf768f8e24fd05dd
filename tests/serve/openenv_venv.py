"""A separate venv holding OpenEnv's own package (openenv-core), built from PyPI once.

openenv-core pulls gradio, fastmcp and openai, so it is not installed next to envsuite's
pins; the test runs its client from this venv instead. The venv is built on first use
(bounded by :data:`BUILD_SECONDS`) under ``$ENVSUITE_OPENENV_VENV`` (default: the
system's temporary directory) and reused afterwards.

On a clean machine (CI) the build is a minute or more of downloads; :func:`start_build`
starts it in a background thread as soon as pytest has collected the test that needs it
(tests/serve/conftest.py), so the suite goes on meanwhile and the test only waits for what
is left. pip installs without byte-compiling (``--no-compile``): the client compiles the
few modules it imports when it first runs, instead of pip compiling all of gradio's.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import Future
from pathlib import Path

#: The OpenEnv release the test speaks to.
OPENENV_CORE = "openenv-core==0.3.0"
#: Longest the venv may take to build (pip downloads the wheels).
BUILD_SECONDS = 900

_started: Future[Path] | None = None
_start_lock = threading.Lock()


def venv_dir() -> Path:
    """Where the venv lives."""
    default = Path(tempfile.gettempdir()) / "envsuite-openenv-core-0.3.0"
    return Path(os.environ.get("ENVSUITE_OPENENV_VENV", default))


def start_build() -> None:
    """Start :func:`openenv_python`'s work in a background thread (once per process)."""
    global _started
    with _start_lock:
        if _started is not None:
            return
        _started = Future()
    threading.Thread(target=_settle, args=(_started,), name="openenv-venv", daemon=True).start()


def _settle(future: Future[Path]) -> None:
    try:
        future.set_result(_build())
    except BaseException as exc:  # raised again by openenv_python in the test
        future.set_exception(exc)


def openenv_python() -> Path:
    """The venv's python with openenv-core importable, building the venv if needed.

    Waits for the build :func:`start_build` started, if it did.

    Raises:
        RuntimeError: the build failed (its output's tail says why).
        subprocess.TimeoutExpired: a step took longer than :data:`BUILD_SECONDS`.
    """
    if _started is not None:
        return _started.result()
    return _build()


def _build() -> Path:
    python = venv_dir() / "bin" / "python"
    probe = [str(python), "-c", "import importlib.metadata as m; m.version('openenv-core')"]
    if python.exists() and subprocess.run(probe, capture_output=True, timeout=120).returncode == 0:
        return python
    steps = [
        [sys.executable, "-m", "venv", str(venv_dir())],
        [str(python), "-m", "pip", "install", "--quiet", "--no-compile", OPENENV_CORE],
    ]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True, timeout=BUILD_SECONDS)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(step)} failed:\n{(done.stdout + done.stderr)[-2000:]}")
    return python
