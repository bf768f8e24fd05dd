"""Reports show efficiency (shortest win over turns taken) where envs record it."""

from __future__ import annotations

from typer.testing import CliRunner

from envsuite.cli import app

runner = CliRunner()


def run_and_report(tmp_path, env_id: str, agent: str) -> tuple[str, str]:
    out = tmp_path / agent
    args = ["eval", env_id, "--agent", agent, "--episodes", "3", "--out", str(out)]
    assert runner.invoke(app, [*args, "--no-progress"]).exit_code == 0
    result = runner.invoke(app, ["report", str(out)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output, (out / "report" / "report.md").read_text()


def test_an_optimal_oracle_has_efficiency_one(tmp_path):
    terminal, markdown = run_and_report(tmp_path, "envsuite/Maze-v0", "oracle")
    assert "efficiency" in terminal
    header = next(line for line in markdown.splitlines() if line.startswith("| env configuration"))
    assert header.rstrip(" |").endswith("efficiency")
    row = next(line for line in markdown.splitlines() if line.startswith("| Maze-v0"))
    assert row.rstrip(" |").endswith("1.000 [1.000, 1.000]")


def test_no_efficiency_column_where_no_env_records_it(tmp_path):
    terminal, markdown = run_and_report(tmp_path, "envsuite/Bandit-v0", "random")
    assert "efficiency" not in terminal.split("wrote ")[0]
    assert "| efficiency" not in markdown and "Efficiency" not in markdown
