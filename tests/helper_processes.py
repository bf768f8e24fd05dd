"""Processes the serving tests and benchmarks share: a scripted endpoint of its own, local Ray."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator

import ray


@contextlib.contextmanager
def endpoint_process(source: str) -> Iterator[str]:
    """Run ``source`` (which prints its endpoint's base URL, then serves) in a process; its URL."""
    server = subprocess.Popen([sys.executable, "-c", source], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        yield server.stdout.readline().strip()
    finally:
        server.kill()
        server.wait()


@contextlib.contextmanager
def local_ray() -> Iterator[None]:
    """A local Ray on this machine's two cores, unless one is running already."""
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield
    finally:
        if started:
            ray.shutdown()
