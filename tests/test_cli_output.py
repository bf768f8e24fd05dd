"""What the `envsuite` command prints when its output goes to a pipe, and its root help."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from envsuite.cli import COMMAND_MODULES, app

ROOT = Path(__file__).resolve().parent.parent


def piped(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m envsuite ARGS`` with stdout a pipe and no COLUMNS (as ``| less`` does)."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    return subprocess.run(
        [sys.executable, "-m", "envsuite", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=ROOT,
    )


@pytest.fixture(scope="module")
def bandit_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("piped") / "run"
    result = piped(
        "eval",
        "envsuite/Bandit-v0",
        "--agent",
        "random",
        "--episodes",
        "4",
        "--attempts",
        "2",
        "--set",
        "horizon=30",
        "--set",
        "arm_type=gaussian",
        "--out",
        str(out),
        "--no-progress",
    )
    assert result.returncode == 0, result.stderr
    return out, result.stdout


def _table_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line[:1] in "┏┃┡│└"]


def test_a_piped_eval_summary_is_not_cut_at_80_columns(bandit_run) -> None:
    _, output = bandit_run
    assert "…" not in output
    lines = _table_lines(output)
    header = "\n".join(line for line in lines if line.startswith("┃"))
    for column in ("success rate", "mean return", "pass@2", "final regret"):
        assert column in header
    assert len({len(line) for line in lines}) == 1  # every row reaches the right border
    assert max(len(line) for line in lines) > 80


def test_piped_report_tables_keep_each_row_on_one_line(bandit_run, tmp_path: Path) -> None:
    run, _ = bandit_run
    result = piped("report", str(run), "--out", str(tmp_path / "report"))
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("│")]
    assert rows
    outcome = next(line for line in rows if "Bandit-v0" in line and "random" in line)
    assert outcome.count("[") == 3  # success rate, mean return and mean score on one line
    assert "…" not in result.stdout


def test_root_help_names_every_command_and_the_workflow() -> None:
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0
    names = {"list_envs": "list", "evaluate": "eval", "select_policy": "select"}
    for module in COMMAND_MODULES:
        assert f" {names.get(module, module)} " in result.output
    intro = result.output.split("Options")[0]
    for verb in ("list", "info", "play", "eval", "report", "leaderboard"):
        assert f"envsuite {verb}" in intro, verb


def test_the_console_script_builds_only_the_core_command_it_runs() -> None:
    from envsuite.cli import COMMANDS, _named_command, create_app

    assert _named_command(["eval", "envsuite/Bandit-v0", "--agent", "random"]) == "eval"
    assert _named_command(["-V"]) is None and _named_command([]) is None
    assert _named_command(["sat-generate"]) is None  # a family's command: the whole app
    assert _named_command(["--", "eval"]) is None
    for name in COMMANDS:
        group = typer.main.get_command(create_app(name))
        assert list(group.commands) == [name]  # type: ignore[attr-defined]


def test_the_root_help_without_the_commands_modules_is_the_whole_apps() -> None:
    from envsuite.cli import create_help_app

    for arguments in (["--help"], []):
        full = CliRunner().invoke(app, arguments, env={"COLUMNS": "100"})
        light = CliRunner().invoke(create_help_app(), arguments, env={"COLUMNS": "100"})
        assert (light.exit_code, light.output) == (full.exit_code, full.output)
