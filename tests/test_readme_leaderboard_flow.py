"""The README's leaderboard submission, run as written with a ``my_pkg`` of the user's own.

The commands are read from the README's Leaderboards section, so the test follows the
README. They run in a fresh directory holding ``my_pkg/`` and a copy of
``leaderboards/`` (``ENVSUITE_LEADERBOARDS`` points there, so the repository's boards
are never written), through the installed ``envsuite`` command.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MY_PKG = '''
class MyAgent:
    """Presses the first legal button."""

    def reset(self, seed=None):
        pass

    def act(self, observation, info):
        legal = info.get("legal_actions")
        return legal[0] if legal else "0"
'''


def leaderboard_commands() -> list[list[str]]:
    section = README.read_text(encoding="utf-8").split("## Leaderboards", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    assert block is not None, "the README's Leaderboards section has no bash block"
    lines = [re.sub(r"\s+#.*$", "", line).strip() for line in block.group(1).splitlines()]
    return [shlex.split(line) for line in lines if line]


def installed_envsuite() -> str:
    beside_python = Path(sys.executable).parent / "envsuite"
    found = str(beside_python) if beside_python.exists() else shutil.which("envsuite")
    if found is None:
        pytest.fail("the `envsuite` console script is not installed: run pip install -e .")
    return found


def resolve_placeholders(argument: str, cwd: Path) -> str:
    """``<YYYYMMDD>`` stands for the submission date: the one folder that matches."""
    if "<" not in argument:
        return argument
    matches = list(cwd.glob(re.sub(r"<[^>]+>", "*", argument)))
    assert len(matches) == 1, f"{argument} matches {matches}"
    return str(matches[0].relative_to(cwd))


def test_the_readme_submission_flow_works_as_written(tmp_path):
    commands = leaderboard_commands()
    assert any("my_pkg:MyAgent" in command for command in commands)
    (tmp_path / "my_pkg").mkdir()
    (tmp_path / "my_pkg" / "__init__.py").write_text(MY_PKG, encoding="utf-8")
    shutil.copytree(ROOT / "leaderboards", tmp_path / "leaderboards")
    env = {**os.environ, "ENVSUITE_LEADERBOARDS": str(tmp_path / "leaderboards")}
    for command in commands:
        assert command[0] == "envsuite", command
        argv = [installed_envsuite()] + [resolve_placeholders(a, tmp_path) for a in command[1:]]
        result = subprocess.run(
            argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
        )
        assert result.returncode == 0, f"{shlex.join(command)}\n{result.stdout}\n{result.stderr}"
    submissions = list((tmp_path / "leaderboards").glob("*/v*/submissions/*_my-agent"))
    assert len(submissions) == 1
    board = submissions[0].parents[2].name
    assert "my agent" in (tmp_path / "leaderboards" / board / "README.md").read_text()
