"""``scripts/install-system-packages``: what it installs, what it skips, how it fails.

apt-get, dpkg-query and sudo are replaced by stubs on ``PATH`` that keep the "installed"
packages as files in a folder and log every apt-get call, so nothing is installed here.
(The real run, on a fresh Debian, is in tests/test_fresh_machine.py.)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "install-system-packages"
PACKAGES = (
    "chromium",
    "chromium-driver",
    "libegl1",
    "libgl1-mesa-dri",
    "debootstrap",
    "stockfish",
    "build-essential",
)

DPKG_QUERY = """#!/bin/sh
for package; do :; done
[ -e "$STATE/$package" ] && printf installed
"""
# Logs each call; "install" marks its package arguments installed, unless told to fail.
APT_GET = """#!/bin/sh
echo "$*" >> "$STATE/apt-get.log"
[ -n "$APT_FAILS" ] && { echo "E: Unable to locate package chromium"; exit 100; }
installing=
for argument; do
    case "$argument" in
        install) installing=1 ;;
        -*|*=*) ;;
        *) [ -n "$installing" ] && [ -z "$APT_FORGETS" ] && touch "$STATE/$argument" ;;
    esac
done
exit 0
"""
SUDO = """#!/bin/sh
echo "$*" >> "$STATE/sudo.log"
exec "$@"
"""


def _run(folder: Path, installed: tuple[str, ...], *as_user: str, **variables: str):
    """Run a copy of the script with the stubs; ``as_user`` prefixes the command (setpriv ...).

    The copy (in ``folder``) runs as another user wherever the repository lies.
    """
    state, bin_dir = folder / "state", folder / "bin"
    for path in (state, bin_dir):
        path.mkdir()
        path.chmod(0o777)  # the stubs write here as whichever user runs the script
    script = shutil.copy(SCRIPT, folder / SCRIPT.name)
    for name, text in (("dpkg-query", DPKG_QUERY), ("apt-get", APT_GET), ("sudo", SUDO)):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    for package in installed:
        (state / package).touch()
    environment = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "STATE": str(state),
        **variables,
    }
    result = subprocess.run(
        [*as_user, str(script)], env=environment, capture_output=True, text=True, timeout=60
    )
    log = state / "apt-get.log"
    calls = log.read_text().splitlines() if log.exists() else []
    return result, calls


def test_nothing_is_done_when_every_package_is_installed(tmp_path):
    result, calls = _run(tmp_path, PACKAGES)
    assert result.returncode == 0, result.stderr
    assert calls == [] and "all present" in result.stdout


def test_only_the_missing_packages_are_installed_after_an_update(tmp_path):
    result, calls = _run(tmp_path, ("libegl1", "libgl1-mesa-dri"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert len(calls) == 2 and calls[0].endswith(" update")
    missing = "chromium chromium-driver debootstrap stockfish build-essential"
    assert calls[1].endswith(f" install --no-install-recommends {missing}")
    assert f"installed {missing}" in result.stdout
    assert "DPkg::Lock::Timeout" in calls[1]  # waits for another apt run instead of failing


def test_a_failing_apt_get_fails_with_its_last_lines(tmp_path):
    result, _ = _run(tmp_path, (), APT_FAILS="1")
    assert result.returncode == 1
    assert "E: Unable to locate package chromium" in result.stderr
    failed = (
        "FAILED to install chromium chromium-driver libegl1 libgl1-mesa-dri debootstrap stockfish "
        "build-essential"
    )
    assert failed in result.stderr


def test_a_package_apt_did_not_install_is_a_failure(tmp_path):
    result, _ = _run(tmp_path, PACKAGES[1:], APT_FORGETS="1")
    assert result.returncode == 1 and "chromium is still not installed" in result.stderr


def test_root_runs_apt_get_itself(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("not root")
    result, calls = _run(tmp_path, PACKAGES[1:])
    assert result.returncode == 0 and calls
    assert not (tmp_path / "state" / "sudo.log").exists()


def test_another_user_runs_apt_get_through_sudo():
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run the script as another user")
    # Straight under /tmp: pytest's own folders are closed to other users.
    folder = Path(tempfile.mkdtemp(prefix="envsuite-install-test-"))
    folder.chmod(0o755)
    try:
        nobody = ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")
        result, calls = _run(folder, PACKAGES[1:], *nobody)
        assert result.returncode == 0, result.stdout + result.stderr
        sudo_calls = (folder / "state" / "sudo.log").read_text().splitlines()
        assert len(sudo_calls) == 2 and all("apt-get" in call for call in sudo_calls)
        assert calls[1].endswith(" install --no-install-recommends chromium")
    finally:
        shutil.rmtree(folder)
