"""``module:Class`` agents are found in the working directory, as pytest and uvicorn do."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import envsuite
from envsuite.agents import load_agent
from envsuite.agents.loading import AgentLoadError

BANDIT = "envsuite/Bandit-v0"
#: A package the way a user writes one beside their runs (the README's ``my_pkg``).
AGENT_PACKAGE = '''
class MyAgent:
    """Presses the first legal button."""

    def reset(self, seed=None):
        pass

    def act(self, observation, info):
        legal = info.get("legal_actions")
        return legal[0] if legal else "0"
'''


def write_package(root: Path, name: str, source: str = AGENT_PACKAGE) -> None:
    (root / name).mkdir()
    (root / name / "__init__.py").write_text(source, encoding="utf-8")


@pytest.fixture
def in_tmp_dir(tmp_path, monkeypatch):
    """The test runs in ``tmp_path``; modules imported from it are forgotten afterwards."""
    monkeypatch.chdir(tmp_path)
    before = set(sys.modules)
    yield tmp_path
    for name in set(sys.modules) - before:
        if name.startswith("envsuite_test_"):
            del sys.modules[name]


def test_an_agent_in_the_working_directory_is_found(in_tmp_dir):
    write_package(in_tmp_dir, "envsuite_test_pkg")
    path_before = list(sys.path)
    assert str(in_tmp_dir) not in sys.path
    spec = envsuite.spec(BANDIT)
    env = envsuite.make(BANDIT)
    agent = load_agent("envsuite_test_pkg:MyAgent", spec, env)
    assert type(agent).__name__ == "MyAgent" and agent.act("", {"legal_actions": ["red"]}) == "red"
    assert sys.path == path_before  # the working directory was on the path for the import only


def test_a_missing_module_says_where_it_was_looked_for(in_tmp_dir):
    spec = envsuite.spec(BANDIT)
    with pytest.raises(AgentLoadError, match=r"No module named 'nowhere_pkg'") as raised:
        load_agent("nowhere_pkg:MyAgent", spec, envsuite.make(BANDIT))
    assert f"looked in the working directory {in_tmp_dir.resolve()}" in str(raised.value)


@pytest.mark.parametrize(
    ("source", "agent", "message"),
    [
        (
            "raise RuntimeError('no GPU here')\n",
            "envsuite_test_boom:A",
            "raised RuntimeError: no GPU",
        ),
        ("def broken(:\n", "envsuite_test_syntax:A", "raised SyntaxError"),
        (AGENT_PACKAGE, "envsuite_test_named:Missing", "has no attribute 'Missing'"),
    ],
)
def test_a_module_that_fails_to_import_is_a_clear_error(in_tmp_dir, source, agent, message):
    write_package(in_tmp_dir, agent.partition(":")[0], source)
    with pytest.raises(AgentLoadError, match=message):
        load_agent(agent, envsuite.spec(BANDIT), envsuite.make(BANDIT))


@pytest.mark.parametrize("agent", [":MyAgent", "my_pkg:"])
def test_an_agent_string_with_an_empty_half_is_a_usage_error(agent):
    with pytest.raises(AgentLoadError, match="unknown agent"):
        load_agent(agent, envsuite.spec(BANDIT), envsuite.make(BANDIT))


def test_a_lineup_for_a_single_agent_env_says_it_is_single_agent():
    # It used to be "unknown agent ...; an agent string is ... or 'NAME=AGENT,...'".
    with pytest.raises(AgentLoadError, match=r"envsuite/Bandit-v0 is single-agent: give one"):
        load_agent("player_0=oracle", envsuite.spec(BANDIT), envsuite.make(BANDIT))


def installed_envsuite() -> str:
    beside_python = Path(sys.executable).parent / "envsuite"
    found = str(beside_python) if beside_python.exists() else shutil.which("envsuite")
    if found is None:
        pytest.fail("the `envsuite` console script is not installed: run pip install -e .")
    return found


@pytest.mark.parametrize("workers", ["1", "2"])
def test_envsuite_eval_finds_my_pkg_beside_it(tmp_path, workers):
    # The console script, not ``python -m``: its sys.path starts at the script's directory,
    # so only the loader can make the working directory's packages importable.
    write_package(tmp_path, "my_pkg")
    result = subprocess.run(
        [
            installed_envsuite(),
            "eval",
            BANDIT,
            "--agent",
            "my_pkg:MyAgent",
            "--episodes",
            "4",
            "--workers",
            workers,
            "--out",
            "runs/mine",
            "--no-progress",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    lines = (tmp_path / "runs" / "mine" / "episodes.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert len(records) == 4 and {record["agent_id"] for record in records} == {"my_pkg:MyAgent"}
