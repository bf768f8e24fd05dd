"""Sandboxes: isolated places where untrusted commands run, for any family.

The layer under the families that need to run code they do not trust (``swe`` today; a
real-browser GUI backend or code-running text tasks next). It imports nothing from
``envsuite.families`` and nothing heavy at import time: the Docker SDK (the ``swe`` extra)
loads only when a Docker sandbox is started.

- :mod:`.interface`: the :class:`~.interface.Sandbox` interface every backend implements,
  its errors and :class:`~.interface.CommandResult`.
- :mod:`.docker_sandbox` (hardened containers: :mod:`.docker_containers`,
  :mod:`.docker_client`, owners and reaping in :mod:`.container_owners`) and
  :mod:`.local_sandbox` (temporary folders and subprocesses; **not isolated**).
- :mod:`.provider`: fresh sandboxes per software environment, from a :mod:`.warm_pool`.
- Images built without a registry: :mod:`.base_image` (debootstrap from the machine's
  :mod:`.apt_sources`), :mod:`.images` (one image per :mod:`.environment`, with pinned
  :mod:`.wheels` from the host's :mod:`.cache`), Dockerfiles under ``containers/``.
- The test harness baked into every image: :mod:`.pytest_runner` and
  :mod:`.result_collector` (results over FIFOs), read on the host by
  :mod:`.result_channels`.
- :mod:`.output_limits` (head and tail of command output) and :mod:`.tar_extraction`
  (unpacking archives without leaving the target folder).
"""

from envsuite.sandbox.interface import (
    DEFAULT_COMMAND_TIMEOUT,
    REPO_DIR,
    CommandResult,
    FileAccessError,
    Sandbox,
    SandboxDied,
    SandboxEnvironment,
    SandboxError,
)

__all__ = [
    "DEFAULT_COMMAND_TIMEOUT",
    "REPO_DIR",
    "CommandResult",
    "FileAccessError",
    "Sandbox",
    "SandboxDied",
    "SandboxEnvironment",
    "SandboxError",
]
