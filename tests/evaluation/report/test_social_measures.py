"""A Werewolf run with belief probes: the report's win rates and measures by role and team."""

from __future__ import annotations

from typer.testing import CliRunner

from envsuite.cli import app
from envsuite.evaluation.report import write_report
from envsuite.evaluation.report.terminal import main_tables
from tests.evaluation.report.markdown_tables import table_after

TASK = """\
id: ww-probes
envs:
  - id: envsuite/Werewolf-v0
    kwargs: {num_players: 5, belief_probes: [vote], speaking_reward: true}
seeds: {start: 0, count: 6}
seat_rotation: cyclic
metrics: [win_rate]
"""


def test_a_probed_werewolf_run_reports_measures_by_role_and_team(tmp_path):
    task = tmp_path / "task.yaml"
    task.write_text(TASK)
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app, ["eval", str(task), "--agent", "player_0=oracle", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    report = write_report([out], tmp_path / "report")
    text = report.markdown.read_text()
    rates = {(r["by"], r["group"]) for r in table_after(text, "Win rate:")}
    assert {("role", "werewolf"), ("role", "seer"), ("team", "village")} <= rates
    rows = {
        (r["measure"], r["by"], r["group"]): r for r in table_after(text, "Per-player measures")
    }
    assert ("probe_brier", "role", "werewolf") in rows
    assert ("deception", "team", "werewolves") in rows
    assert ("deception", "team", "village") not in rows
    assert ("speaking_reward_total", "role", "seer") in rows
    # the random agent answers every probe "uniform"; the oracle its posterior
    assert rows["probe_brier", "agent", "random"]["mean"] == "0.250 [0.250, 0.250]"
    oracle = float(rows["probe_brier", "agent", "oracle"]["mean"].split()[0])
    assert oracle < 0.25
    titles = [str(table.title) for table in main_tables(report.tables)]
    assert any(title.startswith("per-player measures by role and team") for title in titles)
