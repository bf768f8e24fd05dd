"""``envsuite bench``: rows chosen by name, markdown or JSON, missing packages skipped.

Nothing here asserts a time: the rows run with ``--quick`` and only the shape of what they
print is checked.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from typer.testing import CliRunner

from envsuite.bench import report, rows
from envsuite.cli import app


def invoke(*args: str) -> Any:
    result = CliRunner().invoke(app, ["bench", *args])
    return result


def test_json_of_one_quick_row() -> None:
    result = invoke("--rows", "bandit-vector", "--quick", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["machine"]["cores"] >= 1
    assert "numpy" in data["machine"]["versions"]
    [row] = data["rows"]
    assert row["name"] == "bandit-vector" and row["skipped"] is None
    assert row["units"] == 1000 and row["unit"] == "steps"
    assert set(row["seconds"]) == {"envsuite", "raw"}
    ratio = row["ratios"]["envsuite/raw"]
    assert ratio["best"] > 0 and ratio["median"] > 0


def test_markdown_table() -> None:
    result = invoke("--rows", "bandit-text", "--quick")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Machine: ") and "cores" in lines[0] and "load average" in lines[0]
    header = lines.index("| row | work | envsuite | vs raw | vs peer | goal | more |")
    assert lines[header + 1] == "|---|---|---|---|---|---|---|"
    row = lines[header + 2]
    assert row.startswith("| bandit-text |") and row.count("|") == 8
    assert "steps/s" in row and "x |" in row


def test_a_row_whose_package_is_missing_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = rows.Row(
        "needs-nothing-here", "a row needing a module that is not installed",
        ("envsuite_no_such_module",), "physics", rows.BY_NAME["bandit-vector"].build,
    )  # fmt: skip
    monkeypatch.setitem(rows.BY_NAME, missing.name, missing)
    result = invoke("--rows", missing.name, "--json")
    assert result.exit_code == 0, result.output
    [row] = json.loads(result.output)["rows"]
    assert row["skipped"] == ("needs envsuite_no_such_module: pip install 'envsuite[physics]'")
    assert row["seconds"] == {} and row["ratios"] == {}
    markdown = invoke("--rows", missing.name).output
    assert (
        "| needs-nothing-here |" in markdown
        and "skipped: needs envsuite_no_such_module" in markdown
    )


def test_an_unknown_row_is_a_usage_error() -> None:
    result = invoke("--rows", "no-such-row")
    assert result.exit_code == 2
    assert "unknown row 'no-such-row'" in result.output
    assert "bandit-vector" in result.output


def test_every_row_has_a_goal_and_known_extra() -> None:
    for row in rows.ROWS:
        assert row.goal
        assert row.extra in (None, "sat", "physics")


def test_drone_batch_row_reports_every_loop_and_the_sync_speed() -> None:
    if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
        pytest.importorskip("pybullet")
    from envsuite.bench import drone_batch  # needs pybullet

    result = invoke("--rows", "drone-batch", "--quick", "--json")
    assert result.exit_code == 0, result.output
    [row] = json.loads(result.output)["rows"]
    assert row["skipped"] is None and row["unit"] == "drone-steps"
    assert row["units"] == drone_batch.NUM_ENVS * drone_batch.STEPS
    assert set(row["seconds"]) == {"envsuite", "raw", "sync"}
    assert set(row["ratios"]) == {"envsuite/raw"}
    assert set(row["figures"]) == {
        "drone_steps_per_s",
        "raw_drone_steps_per_s",
        "sync_drone_steps_per_s",
        "speed_vs_sync_best",
        "speed_vs_sync_median",
    }
    assert all(value > 0 for value in row["figures"].values())
    seconds = row["seconds"]["envsuite"]["best"]
    assert row["figures"]["drone_steps_per_s"] == pytest.approx(row["units"] / seconds)
    assert "1,000,000 drone-steps/s" in row["goal"] and "50x SyncVectorEnv" in row["goal"]


def test_markdown_figures_have_separators_from_a_thousand_up() -> None:
    result = rows.RowResult("r", "work", "goal", figures={"rate": 1234567.8, "ratio": 1.2345})
    machine = {"versions": {}, "load_average": [], "cpu": "x", "cores": 1, "usable_cores": 1,
               "python": "3", "platform": "p"}  # fmt: skip
    assert "| rate 1,234,568; ratio 1.23 |" in report.as_markdown(machine, [result])


def test_arm_step_row_times_the_gymnasium_floor() -> None:
    if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
        pytest.importorskip("mujoco")
    from envsuite.bench import arm  # needs mujoco

    result = invoke("--rows", "arm-step", "--quick", "--json")
    assert result.exit_code == 0, result.output
    [row] = json.loads(result.output)["rows"]
    assert row["skipped"] is None and row["unit"] == "steps" and row["units"] == arm.STEPS
    assert set(row["seconds"]) == {"envsuite", "raw", "floor"}
    assert set(row["ratios"]) == {"envsuite/raw"}
    figures = row["figures"]
    assert set(figures) == {"floor_vs_raw_best", "envsuite_vs_floor_best"}
    # The two figures split envsuite's ratio to the raw loop at the floor.
    split = figures["floor_vs_raw_best"] * figures["envsuite_vs_floor_best"]
    assert split == pytest.approx(row["ratios"]["envsuite/raw"]["best"])


def test_drone_and_arm_rows_share_the_floor_figures() -> None:
    times = {"envsuite": [3.0, 4.0], "raw": [2.0, 2.5], "floor": [2.4, 2.6]}
    floor = {"floor_vs_raw_best": 1.2, "envsuite_vs_floor_best": 1.25}
    assert rows._floor_figures(times) == pytest.approx(floor)
    drone = rows._drone_figures(times)
    assert {key: drone[key] for key in floor} == pytest.approx(floor)
    del times["floor"]
    assert rows._floor_figures(times) == {}
    assert not set(floor) & set(rows._drone_figures(times))


def test_arm_batch_row_counts_the_python_outside_the_batch_step() -> None:
    if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
        pytest.importorskip("mujoco")
    from envsuite.bench import arm  # needs mujoco

    result = invoke("--rows", "arm-batch", "--quick", "--json")
    assert result.exit_code == 0, result.output
    [row] = json.loads(result.output)["rows"]
    assert row["skipped"] is None and row["units"] == arm.NUM_ENVS * arm.VECTOR_STEPS
    assert set(row["seconds"]) == {"envsuite", "raw", "sync"}
    figures = row["figures"]
    assert set(figures) == {
        "python_us_per_step",
        "python_us_per_step_median",
        "speed_vs_sync_best",
        "speed_vs_sync_median",
        "wall_speed_vs_sync_best",
        "wall_speed_vs_sync_median",
        "nthread",
    }
    # Counted, not a difference of two loops' times: never below zero.
    assert 0 < figures["python_us_per_step"] <= figures["python_us_per_step_median"]
    assert "Python outside Batch.step" in row["goal"]
