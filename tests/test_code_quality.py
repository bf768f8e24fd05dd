"""Lint, format and type checks, run by pytest so that CI (which runs pytest) enforces them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize(
    "command",
    [("check", "envsuite", "tests"), ("format", "--check", "envsuite", "tests")],
    ids=["ruff-check", "ruff-format"],
)
def test_ruff(command):
    result = _run(sys.executable, "-m", "ruff", *command)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy():
    result = _run(sys.executable, "-m", "mypy", "envsuite")
    assert result.returncode == 0, result.stdout + result.stderr


def test_python_dash_m_envsuite_runs_the_cli():
    result = _run(sys.executable, "-m", "envsuite", "--version")
    assert result.returncode == 0 and result.stdout.strip()
