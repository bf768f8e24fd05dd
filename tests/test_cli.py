"""The `envsuite` command: list, info, play, --version, and its error behaviour."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest
from pettingzoo import ParallelEnv
from typer.testing import CliRunner

import envsuite
from envsuite.cli import app
from envsuite.cli.env_kwargs import parse_assignments
from envsuite.cli.extras import extra_installed
from envsuite.registry import EnvSpec, registry
from envsuite.spaces import UnicodeText
from tests.turn_taking_env import TURN_GAME, registered_turn_game

BANDIT = "envsuite/Bandit-v0"
runner = CliRunner()


def invoke(*args: str, input: str | None = None) -> Any:
    return runner.invoke(app, list(args), input=input, env={"COLUMNS": "120"})


def assert_clean_failure(result: Any, code: int) -> None:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception


# -- a tiny multi-agent text env and a spec needing an extra, registered per test ------------
class SayYesDuel(ParallelEnv):
    """Two agents answer for a few rounds; answering "yes" scores 1, anything else 0."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": [],
        "name": "say_yes_duel",
        "is_parallelizable": True,
    }

    def __init__(self, rounds: int = 2, render_mode: str | None = None) -> None:
        self.possible_agents = ["alice", "bob"]
        self.agents: list[str] = []
        self.rounds = rounds
        self.render_mode = render_mode
        self.round = 0

    def observation_space(self, agent: str) -> UnicodeText:
        return UnicodeText(64)

    def action_space(self, agent: str) -> UnicodeText:
        return UnicodeText(64)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        self.agents = list(self.possible_agents)
        self.round = 0
        return {a: "Say yes." for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: Mapping[str, Any]) -> Any:
        self.round += 1
        done = self.round >= self.rounds
        said_yes = {a: actions[a] == "yes" for a in self.agents}
        rewards = {a: float(said_yes[a]) for a in self.agents}
        infos = {a: {"parse_error": None if said_yes[a] else "not yes"} for a in self.agents}
        observations = {a: f"Round {self.round} done. Say yes." for a in self.agents}
        flags = {a: done for a in self.agents}
        if done:
            self.agents = []
        return observations, rewards, flags, dict.fromkeys(flags, False), infos


class SayYes:
    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: Any, info: Mapping[str, Any]) -> str:
        return "yes"


def say_yes_oracle(env: Any) -> dict[str, SayYes]:
    return {agent: SayYes() for agent in env.possible_agents}


DUEL = "envsuite/CliTestDuel-v0"
NEEDS_EXTRA = "envsuite/CliTestNeedsExtra-v0"


@pytest.fixture
def test_specs() -> Iterator[None]:
    specs = [
        EnvSpec(
            id=DUEL,
            entry_point=f"{__name__}:SayYesDuel",
            family="clitest",
            api="parallel",
            description="Say yes, twice.",
            oracle=f"{__name__}:say_yes_oracle",
        ),
        EnvSpec(
            id=NEEDS_EXTRA,
            entry_point="envsuite_cli_test_absent_dependency.module:Env",
            family="clitest",
            api="gymnasium",
            description="Needs a package nobody has.",
            extra="sat",
        ),
    ]
    for spec in specs:
        registry.register(spec)
    try:
        yield
    finally:
        for spec in specs:
            registry.unregister(spec.id)


# -- --version and --help -----------------------------------------------------------------------
def test_version() -> None:
    result = invoke("--version")
    assert result.exit_code == 0
    assert result.output.strip() == f"envsuite {envsuite.__version__}"


@pytest.mark.parametrize("command", [[], ["list"], ["info"], ["play"]])
def test_help(command: list[str]) -> None:
    result = invoke(*command, "--help")
    assert result.exit_code == 0, result.output
    assert f"Usage: envsuite {' '.join(command)}".strip() in result.output


def test_no_command_shows_help() -> None:
    result = invoke()
    for command in ("list", "info", "play"):
        assert command in result.output


# -- list ---------------------------------------------------------------------------------------
def test_list_shows_bandit() -> None:
    result = invoke("list")
    assert result.exit_code == 0, result.output
    assert BANDIT in result.output
    assert "decision" in result.output


def test_list_keeps_descriptions_readable_on_a_narrow_console() -> None:
    from rich.console import Console

    from envsuite.cli.list_envs import spec_row, spec_table

    rows = [spec_row(envsuite.spec(BANDIT))]
    for width, wide in ((80, False), (160, True)):
        console = Console(width=width, record=True)
        console.print(spec_table(rows, wide=wide))
        text = console.export_text()
        # The description's words stay whole (none is folded mid-word).
        assert "K-armed Bernoulli/Gaussian bandit" in text, text


def test_list_json_has_every_spec() -> None:
    result = invoke("list", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [row["id"] for row in rows] == list(registry)
    bandit = next(row for row in rows if row["id"] == BANDIT)
    assert bandit == {
        "id": BANDIT,
        "family": "decision",
        "api": "gymnasium",
        "extra": None,
        "extra_installed": None,
        "description": registry[BANDIT].description,
    }


def test_list_family_filter(test_specs: None) -> None:
    rows = json.loads(invoke("list", "--json", "--family", "clitest").stdout)
    assert {row["id"] for row in rows} == {DUEL, NEEDS_EXTRA}
    needs_extra = next(row for row in rows if row["id"] == NEEDS_EXTRA)
    assert needs_extra["extra"] == "sat"
    assert isinstance(needs_extra["extra_installed"], bool)

    table = invoke("list", "--family", "clitest").output
    assert NEEDS_EXTRA in table
    assert BANDIT not in table


def test_list_unknown_family_says_so() -> None:
    result = invoke("list", "--family", "nosuchfamily")
    assert result.exit_code == 0
    assert "No environments registered in family 'nosuchfamily'" in result.output
    assert json.loads(invoke("list", "--json", "-f", "nosuchfamily").stdout) == []


def test_extra_installed_reads_metadata() -> None:
    assert extra_installed("test") is True  # the test extra is what runs this file
    assert extra_installed("no-such-extra") is None


# -- info ---------------------------------------------------------------------------------------
def test_info_shows_spec_hash_spaces_and_docstring() -> None:
    spec = registry[BANDIT]
    result = invoke("info", BANDIT)
    assert result.exit_code == 0, result.output
    for field in ("entry_point", "family", "oracle", "test_variants", spec.entry_point):
        assert field in result.output
    assert f"spec hash (default config): {spec.hash_for()}" in result.output
    assert "UnicodeText(0, 256)" in result.output  # the text action space
    assert "Version history:" in result.output


def test_info_json_with_set() -> None:
    spec = registry[BANDIT]
    result = invoke(
        "info", BANDIT, "--json", "--set", "observation_mode=vector", "-s", "num_arms=3"
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["spec"] == json.loads(spec.to_json())
    assert data["kwargs"] == {"observation_mode": "vector", "num_arms": 3}
    assert data["spec_hash"] == spec.hash_for({"observation_mode": "vector", "num_arms": 3})
    assert data["spec_hash"] != spec.hash_for()
    assert data["spaces"]["action"] == "Discrete(3)"
    assert data["docstring"].startswith("K-armed")


def test_info_multi_agent_lists_spaces_per_agent(test_specs: None) -> None:
    data = json.loads(invoke("info", DUEL, "--json").stdout)
    assert set(data["spaces"]["agents"]) == {"alice", "bob"}
    assert data["spaces"]["agents"]["bob"]["action"] == "UnicodeText(0, 64)"
    table = invoke("info", DUEL).output
    assert "alice" in table and "bob" in table


@pytest.mark.parametrize("wrong", ["envsuite/Bandt-v0", "Bandit-v0", "envsuite/bandit-v0"])
@pytest.mark.parametrize("command", ["info", "play"])
def test_wrong_id_suggests_and_exits_2(command: str, wrong: str) -> None:
    result = invoke(command, wrong)
    assert_clean_failure(result, 2)
    assert f"Did you mean '{BANDIT}'" in result.stderr


def test_missing_extra_prints_install_command(test_specs: None) -> None:
    result = invoke("play", NEEDS_EXTRA)
    assert_clean_failure(result, 1)
    assert "pip install 'envsuite[sat]'" in result.stderr


DOCUMENTED_MODULE = '''"""An env module whose dependency is not installed."""
import envsuite_cli_test_absent_dependency


class Documented:
    """Push a button.

    Description:
        Read before installing anything.
    """
'''


def test_info_shows_spec_and_docs_while_the_extra_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "cli_test_documented_env.py").write_text(DOCUMENTED_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = EnvSpec(
        id="envsuite/CliTestDocumented-v0",
        entry_point="cli_test_documented_env:Documented",
        family="clitest",
        api="gymnasium",
        description="Documented, not installable here.",
        extra="sat",
    )
    registry.register(spec)
    try:
        result = invoke("info", spec.id)
        data = json.loads(invoke("info", spec.id, "--json").stdout)
    finally:
        registry.unregister(spec.id)
    assert result.exit_code == 0, result.output
    assert "pip install 'envsuite[sat]'" in result.stderr
    assert "cli_test_documented_env:Documented" in result.stdout
    assert "Read before installing anything." in result.stdout
    assert "spaces: shown once installed (pip install 'envsuite[sat]')" in result.stdout
    assert data["docstring"].startswith("Push a button.\n\nDescription:")
    assert data["spec_hash"] is None and data["spaces"] is None
    assert "envsuite[sat]" in data["missing_extra"]


def test_info_reads_a_physics_envs_docs_without_pybullet() -> None:
    # pybullet is imported lazily, at make time: block it as a machine without it would
    code = (
        "import sys; sys.modules['pybullet'] = None; "
        "sys.argv = ['envsuite', 'info', 'envsuite/DroneHover-v0']; "
        "from envsuite.cli import main; main()"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "pip install 'envsuite[physics]'" in result.stderr
    assert "Hover a quadcopter at a target point." in result.stdout
    assert "Version history:" in result.stdout


def test_bad_kwargs_are_usage_errors() -> None:
    unknown = invoke("info", BANDIT, "--set", "colour=blue")
    assert_clean_failure(unknown, 2)
    assert "does not accept the keyword argument(s) colour" in unknown.stderr

    rejected = invoke("play", BANDIT, "--set", "num_arms=1")
    assert_clean_failure(rejected, 2)
    assert "num_arms must be an int >= 2" in rejected.stderr

    malformed = invoke("info", BANDIT, "--set", "num_arms")
    assert_clean_failure(malformed, 2)
    assert "KEY=VALUE" in malformed.output


@pytest.mark.parametrize("env_id", [BANDIT, "envsuite/Nim-v0"])
def test_play_refuses_a_negative_seed_as_a_usage_error(env_id: str) -> None:
    # It used to reach env.reset and end in a traceback.
    result = invoke("play", env_id, "--seed", "-1", input="")
    assert_clean_failure(result, 2)
    assert "--seed" in result.output


def test_set_values_are_json_or_strings() -> None:
    parsed = parse_assignments(
        ["num_arms=20", "observation_mode=text", 'mode="vector"', "means=[0.1, 0.9]", "x=a=b"]
    )
    assert parsed == {
        "num_arms": 20,
        "observation_mode": "text",
        "mode": "vector",
        "means": [0.1, 0.9],
        "x": "a=b",
    }
    assert parse_assignments(["flag=true", "none=null", "flag=false"]) == {
        "flag": False,
        "none": None,
    }


# -- play ---------------------------------------------------------------------------------------
def expected_bandit_return(seed: int, actions: list[str], **kwargs: Any) -> float:
    env = envsuite.make(BANDIT, **kwargs)
    env.reset(seed=seed)
    total = 0.0
    for action in actions:
        total += float(env.step(action)[1])
    return total


def test_play_full_bandit_episode() -> None:
    answers = ["blue", "I press green", "nonsense"]
    result = invoke(
        "play", BANDIT, "--seed", "7", "--set", "horizon=3", input="\n".join(answers) + "\n"
    )
    assert result.exit_code == 0, result.output
    assert "Round 1 of 3: which button do you press?" in result.output
    assert "Round 2: you pressed green" in result.output
    assert "parse_error: the answer names no button" in result.output
    assert "The game is over." in result.output
    expected = expected_bandit_return(7, answers, horizon=3)
    assert f"Episode over after 3 steps. Return: {expected:g}" in result.output
    assert "score:" in result.output


def test_play_end_of_input_stops_cleanly() -> None:
    result = invoke("play", BANDIT, "--seed", "0", "--set", "horizon=5", input="red\n")
    assert result.exit_code == 0, result.output
    assert "stdin closed: stopped after 1 step" in result.output
    assert "Traceback" not in result.output


def test_play_refuses_non_text_actions() -> None:
    result = invoke("play", BANDIT, "--set", "observation_mode=vector", input="0\n")
    assert_clean_failure(result, 2)
    assert "takes actions from Discrete(5), not text" in result.stderr
    assert "Try --set observation_mode=text." in result.stderr


def test_play_multi_agent_with_oracle_opponent(test_specs: None) -> None:
    result = invoke("play", DUEL, "--as", "bob", input="yes\nno\n")
    assert result.exit_code == 0, result.output
    assert "bob observation (step 0)" in result.output
    assert "alice (oracle) played 'yes'" in result.output
    assert "parse_error: not yes" in result.output
    assert "Returns: alice: 2, bob (you): 1" in result.output


def test_play_repeated_game_against_its_oracle() -> None:
    if "envsuite/RepeatedGame-v0" not in registry:
        pytest.skip("envsuite/RepeatedGame-v0 is not registered")
    result = invoke(
        "play", "envsuite/RepeatedGame-v0", "--as", "player_1", "--seed", "0",
        "--set", "horizon=2", input="defect\ncooperate\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "player_0 (oracle) played" in result.output
    assert "Episode over after 2 steps. Returns: player_0: " in result.output
    assert "player_1 (you): " in result.output


def test_play_multi_agent_rejects_unknown_agent(test_specs: None) -> None:
    result = invoke("play", DUEL, "--as", "carol")
    assert_clean_failure(result, 2)
    assert "alice, bob" in result.stderr


def test_play_as_needs_multi_agent() -> None:
    assert_clean_failure(invoke("play", BANDIT, "--as", "player_0"), 2)


def test_play_others_needs_multi_agent() -> None:
    result = invoke("play", BANDIT, "--others", "random")
    assert_clean_failure(result, 2)
    assert "--others applies to multi-agent envs" in result.stderr


@pytest.fixture
def turn_game() -> Iterator[None]:
    with registered_turn_game():
        yield


def test_play_a_turn_based_game_on_your_turns(turn_game: None) -> None:
    result = invoke("play", TURN_GAME, "--as", "second", input="1\n2\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("first (oracle) played '3'") == 2
    assert "second observation (step 1)" in result.output  # after first's move
    assert "step 2: reward 1" in result.output
    assert "Returns: first: 6, second (you): 3" in result.output
    assert "outcome: loss" in result.output


def test_play_a_turn_based_game_against_another_agent_string(turn_game: None) -> None:
    result = invoke("play", TURN_GAME, "--others", "random", input="3\n3\n")
    assert result.exit_code == 0, result.output
    assert "second (random) played" in result.output
    assert "Returns: first (you): 6, second: " in result.output


def test_play_labels_each_other_agent_by_its_own_agent_string(turn_game: None) -> None:
    result = invoke(
        "play", TURN_GAME, "--as", "first", "--others", "second = oracle", input="1\n1\n"
    )
    assert result.exit_code == 0, result.output
    assert result.output.count("second (oracle) played '3'") == 2


def test_play_a_turn_based_game_until_stdin_closes(turn_game: None) -> None:
    result = invoke("play", TURN_GAME, "--as", "second", input="1\n")
    assert result.exit_code == 0, result.output
    assert "stdin closed: stopped after 3 steps, return so far 1." in result.output


def test_play_refuses_an_unknown_agent_string_for_the_others(turn_game: None) -> None:
    result = invoke("play", TURN_GAME, "--others", "nobody")
    assert_clean_failure(result, 2)
    assert "unknown agent 'nobody'" in result.stderr


# -- the installed entry point ------------------------------------------------------------------
def installed_envsuite() -> str:
    beside_python = Path(sys.executable).parent / "envsuite"
    found = str(beside_python) if beside_python.exists() else shutil.which("envsuite")
    if found is None:
        pytest.fail("the `envsuite` console script is not installed: run pip install -e .")
    return found


def test_entry_point_list_json_and_play() -> None:
    command = installed_envsuite()
    listed = subprocess.run(
        [command, "list", "--json"], capture_output=True, text=True, check=True, timeout=120
    )
    assert BANDIT in [row["id"] for row in json.loads(listed.stdout)]

    answers = ["blue", "red"]
    played = subprocess.run(
        [command, "play", BANDIT, "--seed", "3", "--set", "horizon=2", "--set", "num_arms=3"],
        input="\n".join(answers) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert played.returncode == 0, played.stderr
    expected = expected_bandit_return(3, answers, horizon=2, num_arms=3)
    assert f"Return: {expected:g}" in played.stdout


def test_entry_point_wrong_id() -> None:
    result = subprocess.run(
        [installed_envsuite(), "info", "envsuite/Bandt-v0"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert f"Did you mean '{BANDIT}'" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


# -- commands: core and family ------------------------------------------------------------------

#: ``envsuite --help``'s commands before families registered their own (issue 13): the same
#: commands, in the same order, must still be there.
COMMANDS_BEFORE_DISCOVERY = (
    "list", "info", "play", "eval", "report", "select", "leaderboard",
    "curriculum", "datasets", "sandbox", "swe",
)  # fmt: skip


def _listed_commands(help_text: str) -> list[str]:
    commands = help_text.split("Commands")[1]
    return [
        row.split()[1] for row in commands.splitlines() if row.startswith("│ ") and row[2] != " "
    ]


def test_help_lists_the_commands_it_listed_before_family_discovery() -> None:
    listed = _listed_commands(invoke("--help").output)
    assert [name for name in listed if name in COMMANDS_BEFORE_DISCOVERY] == list(
        COMMANDS_BEFORE_DISCOVERY
    )


@pytest.mark.parametrize("command", COMMANDS_BEFORE_DISCOVERY)
def test_every_command_has_help(command: str) -> None:
    result = invoke(command, "--help")
    assert result.exit_code == 0, result.output
    assert f"Usage: envsuite {command}" in result.output


def test_family_commands_come_from_the_families() -> None:
    from envsuite.cli import family_command_modules

    assert family_command_modules() == ("envsuite.families.sat.cli", "envsuite.families.swe.cli")
    assert not any(
        (Path(envsuite.__file__).parent / "cli" / f"{name}.py").exists()
        for name in ("curriculum", "datasets", "sandbox", "swe")
    )


def test_building_the_cli_imports_no_extra() -> None:
    # A family's commands must show even when its extra is missing.
    code = (
        "import sys, envsuite.cli; "
        "print(sorted(m for m in ('docker', 'pysat', 'pybullet', 'mujoco', 'ray') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_family_command_whose_extra_is_missing_names_the_extra(monkeypatch) -> None:
    from envsuite.sandbox import docker_client

    monkeypatch.setitem(sys.modules, "docker", None)  # as if the Docker SDK were not installed
    monkeypatch.setattr(docker_client, "_client", None)
    result = invoke("sandbox", "prune")
    assert result.exit_code != 0
    assert "pip install 'envsuite[swe]'" in result.output
    assert "Traceback" not in result.output


def _imports(path: Path) -> set[str]:
    import ast

    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_only_a_familys_cli_imports_the_cli() -> None:
    # Dependencies point down (cli -> families); a family's own commands are the exception,
    # and nothing else in the family imports them.
    families = Path(envsuite.__file__).parent / "families"
    offending = [
        f"{path.relative_to(families)}: {name}"
        for path in sorted(families.rglob("*.py"))
        if "cli" not in path.relative_to(families).parts[1:] and path.stem != "cli"
        for name in _imports(path)
        if name.startswith("envsuite.cli") or name.endswith(".cli") or ".cli." in name
    ]
    assert not offending


@pytest.mark.parametrize(
    "module", ["envsuite.families.sat.cli.curriculum", "envsuite.families.swe.cli"]
)
def test_a_family_cli_imported_before_the_cli_still_registers(module: str) -> None:
    # A family's cli imports the core CLI's helpers; the core CLI imports the family's cli.
    code = (
        f"import {module}; from envsuite.cli import app; "
        "from typer.main import get_command; print(sorted(get_command(app).commands))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "'curriculum'" in out.stdout and "'swe'" in out.stdout
