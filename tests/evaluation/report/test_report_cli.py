"""``envsuite report``: output, exit codes, and one-line errors for runs it cannot report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from envsuite.cli import report as report_command
from envsuite.cli.root import build_app
from envsuite.records import read_records, write_records
from tests.evaluation import flaky_agents
from tests.evaluation.report.conftest import run
from tests.evaluation.report.markdown_tables import cells, section, table_rows

runner = CliRunner()


def make_app() -> typer.Typer:
    app = build_app()
    report_command.register(app)
    return app


def invoke(*args: str | Path) -> Any:
    return runner.invoke(make_app(), ["report", *map(str, args)], env={"COLUMNS": "200"})


def assert_usage_error(result: Any, *fragments: str) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    message = result.output.strip()
    assert message.startswith("Error: ")
    assert "\n" not in message, message  # one line
    for fragment in fragments:
        assert fragment in message
    return message


@pytest.fixture
def small_run(tmp_path: Path) -> Path:
    return run(tmp_path / "small", "oracle", kwargs={"horizon": 20}, episodes=3, attempts=1)


def test_report_prints_tables_and_writes_files(oracle_run):
    result = invoke(oracle_run, "--seed", "5")
    assert result.exit_code == 0, result.output
    for fragment in ("outcomes (95% CI, bootstrap seed 5)", "pass@k", "regret", "sublinear"):
        assert fragment in result.output
    assert f"wrote {oracle_run / 'report' / 'report.md'}" in result.output
    assert "seeded with **5**" in (oracle_run / "report" / "report.md").read_text()


def test_comparison_needs_out_and_writes_there(oracle_run, random_run, tmp_path):
    assert_usage_error(invoke(oracle_run, random_run), "--out")
    result = invoke(oracle_run, random_run, "--out", tmp_path / "cmp")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "cmp" / "report.md").is_file()
    assert "random" in result.output and "oracle" in result.output


def test_missing_directory(tmp_path):
    assert_usage_error(invoke(tmp_path / "nowhere"), "nowhere", "no such run directory")


def test_directory_without_records(tmp_path):
    (tmp_path / "empty-dir").mkdir()
    assert_usage_error(invoke(tmp_path / "empty-dir"), "holds no episodes.jsonl")


def test_empty_records_file(small_run):
    (small_run / "episodes.jsonl").write_text("")
    assert_usage_error(invoke(small_run), "episodes.jsonl holds no episode records")


def test_corrupt_line_names_file_and_line(small_run):
    file = small_run / "episodes.jsonl"
    lines = file.read_text().splitlines(keepends=True)
    lines.insert(1, '{"run_id": "oops"\n')
    file.write_text("".join(lines))
    assert_usage_error(invoke(small_run), f"{file}:2:", "not a valid episode record")


def test_unreadable_run_file(small_run):
    (small_run / "run.json").write_text("{not json")
    assert_usage_error(invoke(small_run), "run.json is unreadable")


def test_runs_of_different_protocols_are_not_compared(small_run, tmp_path):
    other = run(tmp_path / "other", "random", kwargs={"horizon": 25}, episodes=3, attempts=1)
    message = assert_usage_error(
        invoke(small_run, other, "--out", tmp_path / "cmp"), "different task protocols"
    )
    assert "envs" in message
    assert not (tmp_path / "cmp").exists()


def test_records_of_two_protocols_in_one_file(small_run):
    file = small_run / "episodes.jsonl"
    records = read_records(file)
    moved = records[0].model_copy(update={"task_id": "another-task"})
    write_records(file, [moved, *records[1:]])
    assert_usage_error(invoke(small_run), "several task protocols")


def test_runs_without_run_file_of_different_tasks(small_run, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(small_run, other)
    records = read_records(other / "episodes.jsonl")
    write_records(
        other / "episodes.jsonl", [r.model_copy(update={"task_id": "t2"}) for r in records]
    )
    for path in (small_run, other):
        (path / "run.json").unlink()
    assert_usage_error(
        invoke(small_run, other, "--out", tmp_path / "cmp"), "different task protocols"
    )


def test_the_same_run_twice(small_run, tmp_path):
    assert_usage_error(invoke(small_run, small_run, "--out", tmp_path / "cmp"), "given twice")


def test_without_run_file_the_records_are_reported_with_a_note(small_run):
    (small_run / "run.json").unlink()
    result = invoke(small_run)
    assert result.exit_code == 0, result.output
    markdown = (small_run / "report" / "report.md").read_text()
    assert "has no run.json" in markdown
    assert "| 3 | 3 | 0 |" in markdown  # records (no expected count), ran, infra errors


def test_run_with_only_infrastructure_errors(tmp_path):
    flaky_agents.CALLS.clear()
    run_dir = run(
        tmp_path / "down",
        "tests.evaluation.flaky_agents:AlwaysCrashes",
        kwargs={"horizon": 5},
        episodes=2,
        attempts=1,
    )
    result = invoke(run_dir)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "Warning: every one of the 2 episodes" in result.output
    markdown = (run_dir / "report" / "report.md").read_text()
    assert "## Warnings" in markdown and "**Warning:** every one of the 2 episodes" in markdown
    infra = markdown.split("## Infrastructure errors")[1]
    assert "ConnectionError" in infra and "| 2 |" in infra
    outcomes = section(markdown, "Outcomes per env configuration")
    [row] = table_rows(outcomes, '| Bandit-v0 {"horizon":5}')
    assert cells(row)[2:] == ["2 of 2", "0", "2", "0", "—", "—", "—"]
    assert "## Regret" not in markdown


def test_infrastructure_errors_are_kept_apart_from_results(small_run):
    file = small_run / "episodes.jsonl"
    records = read_records(file)
    broken = records[0].model_copy(
        update={"infra_error": "sandbox lost", "success": None, "stop_reason": "infra_error"}
    )
    write_records(file, [broken, *records[1:]])
    result = invoke(small_run)
    assert result.exit_code == 0, result.output
    markdown = (small_run / "report" / "report.md").read_text()
    ran = records[1:]
    rate = sum(r.success is True for r in ran) / len(ran)
    outcomes = section(markdown, "Outcomes per env configuration")
    [row] = table_rows(outcomes, '| Bandit-v0 {"horizon":20}')
    assert row.startswith(
        f'| Bandit-v0 {{"horizon":20}} | oracle | 3 of 3 | 2 | 1 | 2 | {rate:.3f} ['
    )
    assert "1 × `sandbox lost`" in markdown


def test_run_json_protocol_is_required_to_be_valid(small_run):
    path = small_run / "run.json"
    meta = json.loads(path.read_text())
    meta["protocol"]["attempts"] = 0
    path.write_text(json.dumps(meta))
    assert_usage_error(invoke(small_run), "protocol is not valid", "attempts")
