from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from envsuite.cli import app
from envsuite.cli.exits import CLOSED_PIPE
from envsuite.records import read_records

runner = CliRunner()


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "run"
    args = ["eval", "envsuite/RepeatedGame-v0", "-a", "random", "--episodes", "2"]
    result = runner.invoke(app, [*args, "--set", "horizon=3", "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    return out


def test_jsonl_has_one_row_per_agent_and_episode(run_dir):
    result = runner.invoke(app, ["transcript", str(run_dir)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(text) for text in result.stdout.splitlines()]
    records = read_records(run_dir / "episodes.jsonl")
    assert [(row["seed"], row["agent"]) for row in rows] == [
        (record.seed, agent) for record in records for agent in record.episode_return
    ]
    for row in rows:
        assert [m["role"] for m in row["messages"]][:3] == ["system", "user", "assistant"]
        assert len(row["rewards"]) == 3


def test_one_episode_as_json(run_dir):
    result = runner.invoke(app, ["transcript", str(run_dir), "--episode", "1", "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert {row["seed"] for row in rows} == {1} and len(rows) == 2


def test_an_episode_beyond_the_run_is_a_usage_error(run_dir):
    result = runner.invoke(app, ["transcript", str(run_dir), "--episode", "9"])
    assert result.exit_code == 2
    assert "holds 2 episodes" in result.output and "Traceback" not in result.output


def test_a_missing_run_is_a_message(tmp_path):
    result = runner.invoke(app, ["transcript", str(tmp_path / "nowhere")])
    assert result.exit_code == 2 and "is not a run directory" in result.output


def test_a_corrupt_records_file_is_a_message(tmp_path):
    (tmp_path / "episodes.jsonl").write_text('{"run_id": 1}\nnot json\n')
    result = runner.invoke(app, ["transcript", str(tmp_path)])
    assert result.exit_code == 1 and "not a valid episode record" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_an_unreplayable_episode_is_skipped_with_a_warning(run_dir, tmp_path):
    lines = (run_dir / "episodes.jsonl").read_text().splitlines()
    broken = json.loads(lines[0])
    broken["trace"] = []
    (tmp_path / "episodes.jsonl").write_text("\n".join([json.dumps(broken), lines[1]]) + "\n")
    result = runner.invoke(app, ["transcript", str(tmp_path)])
    assert result.exit_code == 0
    assert "Warning: skipped an episode" in result.stderr
    assert {json.loads(text)["seed"] for text in result.stdout.splitlines()} == {1}
    alone = runner.invoke(app, ["transcript", str(tmp_path), "--episode", "0"])
    assert alone.exit_code == 1 and "without traces" in alone.output


def test_a_reader_that_stops_early_ends_it_quietly(run_dir):
    # As `envsuite transcript RUN | head`, but the reader (`true`) is sure to be gone before
    # the first write: the closed pipe is no error to report.
    script = f'"{sys.executable}" -m envsuite transcript "{run_dir}" | true'
    script += '; echo "status ${PIPESTATUS[0]}" >&2'
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=False)
    assert result.stderr.strip() == f"status {CLOSED_PIPE}", result.stderr
