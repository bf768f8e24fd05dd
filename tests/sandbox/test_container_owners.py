"""Container owners: labels that survive pid reuse, and reaping the containers of the dead."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from envsuite.sandbox.container_owners import (
    ALIVE,
    BOOT_LABEL,
    DEAD,
    HOST_LABEL,
    STARTED_LABEL,
    UNKNOWN,
    owner_labels,
    owner_state,
    start_time,
)

START_SANDBOX = """
import sys, time
from envsuite.sandbox.docker_sandbox import DockerSandbox
from envsuite.sandbox.interface import SandboxEnvironment
box = DockerSandbox.start(SandboxEnvironment(sys.argv[1], (".",)))
print(box.container.id, flush=True)
if sys.argv[2] == "hang":
    time.sleep(600)
box.close()
"""


def test_this_process_owns_its_labels_and_a_reused_pid_does_not():
    labels = owner_labels()
    assert owner_state(labels) == ALIVE
    assert labels[STARTED_LABEL] == start_time(os.getpid())
    # Same pid, another start time: the owner died and its pid was given to someone else.
    assert owner_state({**labels, STARTED_LABEL: str(int(labels[STARTED_LABEL]) + 1)}) == DEAD
    assert owner_state({**labels, BOOT_LABEL: "another-boot"}) == DEAD
    assert owner_state({**labels, HOST_LABEL: "another-host"}) == UNKNOWN


def test_a_finished_process_is_dead_and_its_start_time_gone():
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    pid = int(child.stdout)
    labels = {**owner_labels(), "envsuite.swe.pid": str(pid), STARTED_LABEL: "1"}
    assert owner_state(labels) == DEAD
    assert owner_state({"envsuite.swe.pid": "0"}) == DEAD


def _start_in_child(image: str, mode: str) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.Popen(
        [sys.executable, "-c", START_SANDBOX, image, mode],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert child.stdout is not None
    return child, child.stdout.readline().strip()


def test_containers_of_a_sigkilled_owner_are_removed_by_the_next_start(inflection_image):
    from envsuite.sandbox.docker_client import docker_client, docker_module

    killed, orphan = _start_in_child(inflection_image, "hang")
    assert orphan, "the child did not start its sandbox"
    killed.kill()  # SIGKILL: its atexit hook never removes the container
    killed.wait()
    client = docker_client()
    container = client.containers.get(orphan)
    assert container.status == "running" and owner_state(container.labels) == DEAD
    # Any later process reaps it when it starts its first container.
    later, own = _start_in_child(inflection_image, "close")
    assert later.wait(timeout=300) == 0 and own
    with pytest.raises(docker_module().errors.NotFound):
        client.containers.get(orphan)
