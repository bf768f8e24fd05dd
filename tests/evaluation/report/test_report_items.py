"""Per-item rows: SWE runs get one row per task (instance id), other envs none."""

from __future__ import annotations

from pathlib import Path

import pytest

from envsuite.evaluation.protocol import adhoc_protocol
from envsuite.evaluation.report import main_tables, write_report
from envsuite.evaluation.run_directory import evaluate
from envsuite.families.swe.dataset import load_problems
from tests.evaluation.report.markdown_tables import cells, section, table_rows

#: Three inflection tasks; the similarity reward grades without running tests (no Docker).
TASK_IDS = [task.instance_id for task in load_problems(["inflection"])[:3]]
SWE_KWARGS = {
    "backend": "local",
    "libraries": ["inflection"],
    "task_ids": TASK_IDS,
    "task_selection": "seed_index",
    "reward": "similarity",
    "step_limit": 3,
    "pool_size": 0,
}


@pytest.fixture(scope="module")
def swe_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("swe-runs")
    protocol = adhoc_protocol("envsuite/SWE-v0", SWE_KWARGS, episodes=4, attempts=1)
    for agent in ("oracle", "random"):
        evaluate(protocol, agent, root / agent, progress=False)
    return root / "oracle", root / "random"


def test_an_swe_report_has_one_row_per_task_with_each_runs_result(swe_runs, tmp_path):
    report = write_report(list(swe_runs), tmp_path / "report", seed=0)
    text = section(report.markdown.read_text(), "Per item")
    # seed_index: seeds 0..3 cover the three tasks, the first one twice (seeds 0 and 3)
    rows = {cells(row)[0].strip("`"): cells(row)[1:] for row in table_rows(text, "| `")}
    assert sorted(rows) == sorted(TASK_IDS)
    assert rows[TASK_IDS[0]] == ["0, 3", "2/2", "0/2"]
    assert rows[TASK_IDS[1]] == ["1", "1/1", "0/1"]
    assert "oracle: 3 of 3, random: 0 of 3" in text
    terminal = main_tables(report.tables)[-1]
    assert str(terminal.title).startswith("per item (succeeded/ran): SWE-v0")
    assert terminal.row_count == 3


def test_envs_that_name_no_items_get_no_per_item_section(oracle_run):
    report = write_report([oracle_run], seed=0)
    assert "## Per item" not in report.markdown.read_text()
    assert report.tables.items == []


def test_a_long_env_configuration_gets_a_short_plot_label():
    # An SWE run's kwargs list every task id; the label once ran into the next panel.
    from envsuite.evaluation.report.labels import VALUE_WIDTH, short_labels
    from envsuite.jsonable import canonical_json

    other = {**SWE_KWARGS, "task_ids": list(reversed(SWE_KWARGS["task_ids"]))}
    tasks = [("", "envsuite/SWE-v0", canonical_json(kwargs)) for kwargs in (SWE_KWARGS, other)]
    labels = short_labels(tasks, always_env=True)
    for lines in labels.values():
        assert lines[0] == "SWE-v0" and len(lines) == 2
        assert len(lines[1]) <= len("task_ids=") + VALUE_WIDTH and lines[1].endswith("…")
    lone = short_labels([("", "envsuite/SWE-v0", canonical_json(SWE_KWARGS))])
    assert list(lone.values()) == [["SWE-v0"]]
