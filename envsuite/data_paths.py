"""Where envsuite's versioned data lives: ``datasets/`` (read by envs) and ``tasks/``.

Both folders sit at the root of the envsuite checkout. ``ENVSUITE_DATASETS`` and
``ENVSUITE_TASKS`` override them (e.g. for a wheel install that keeps data elsewhere).
"""

from __future__ import annotations

import os
from pathlib import Path

#: The checkout root: the folder holding the ``envsuite`` package directory.
REPO_ROOT = Path(__file__).resolve().parent.parent


def datasets_root() -> Path:
    """The ``datasets/`` folder (``$ENVSUITE_DATASETS`` if set)."""
    return Path(os.environ.get("ENVSUITE_DATASETS") or REPO_ROOT / "datasets")


def tasks_root() -> Path:
    """The ``tasks/`` folder of task protocols (``$ENVSUITE_TASKS`` if set)."""
    return Path(os.environ.get("ENVSUITE_TASKS") or REPO_ROOT / "tasks")
