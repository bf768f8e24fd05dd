"""Importing PyBullet prints nothing: its C code's "pybullet build time" line is swallowed."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("pybullet")

BANNER = "pybullet build time"


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONUNBUFFERED": ""},
    )


def test_the_import_point_prints_nothing_and_keeps_stdout_working() -> None:
    result = run(
        "print('before', flush=False)\n"
        "from envsuite.families.physics.drone.world import pybullet_module\n"
        "module = pybullet_module()\n"
        "print('after', module.__name__)\n"
        "import os; sys_stdout = __import__('sys').stdout; sys_stdout.flush()\n"
        "os.write(1, b'raw fd 1\\n')\n"
    )
    assert result.returncode == 0, result.stderr
    assert BANNER not in result.stdout + result.stderr
    assert result.stdout.splitlines() == ["before", "after pybullet", "raw fd 1"]


def test_physics_commands_print_no_banner() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "envsuite",
            "play",
            "envsuite/DroneHover-v0",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    # play refuses a non-text env (exit 2) after making it, which imports PyBullet
    assert BANNER not in result.stdout + result.stderr
    made = run(
        "import envsuite\n"
        "env = envsuite.make('envsuite/DroneHover-v0')\n"
        "env.reset(seed=0)\n"
        "env.close()\n"
        "print('made')\n"
    )
    assert made.returncode == 0, made.stderr
    assert made.stdout == "made\n"
