"""The machine a table was measured on: cores, load, versions."""

from __future__ import annotations

import os
import platform
from importlib import metadata
from typing import Any

from envsuite.version import __version__

#: Distributions whose versions a table reports (those installed).
PACKAGES = ("numpy", "gymnasium", "pettingzoo", "pydantic", "python-sat", "pybullet", "mujoco")


def machine() -> dict[str, Any]:
    """Cores (all, and usable by this process), load averages, Python and package versions."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        usable = os.cpu_count() or 0
    try:
        load = [round(value, 2) for value in os.getloadavg()]
    except OSError:  # not available on this platform
        load = []
    versions = {"envsuite": __version__}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return {
        "cpu": platform.processor() or platform.machine(),
        "cores": os.cpu_count() or 0,
        "usable_cores": usable,
        "load_average": load,
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "versions": versions,
    }
