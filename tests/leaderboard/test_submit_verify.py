"""A submission made by ``submit`` from a real run verifies, with every check and metric."""

from __future__ import annotations

import json
import shutil

import pytest
import yaml

from envsuite.evaluation.metrics import pass_at_k_from_records, stratified_bootstrap_interval
from envsuite.evaluation.metrics.aggregates import aggregate_mean, score_matrix
from envsuite.leaderboard.errors import CompletenessError, SchemaError
from envsuite.leaderboard.manifest import MANIFEST_NAME, read_manifest
from envsuite.leaderboard.record_checks import expected_keys
from envsuite.leaderboard.submission import SubmissionMeta
from envsuite.leaderboard.submit import make_submission
from envsuite.leaderboard.verify import verify_submission
from envsuite.records import read_records, write_records
from tests.leaderboard.helpers import DAY, entry

ALL_CHECKS = [
    "board",
    "safety",
    "manifest",
    "schema",
    "version lock",
    "completeness",
    "consistency",
    "uniqueness",
    "recomputation",
    "replay",
]


@pytest.mark.parametrize("board_name", ["mini-bandit", "mini-games"])
@pytest.mark.parametrize("agent", ["random", "oracle"])
def test_a_submission_from_a_real_run_passes_every_check(board_copy, board_name, agent):
    board = board_copy(board_name)
    report = verify_submission(entry(board, agent), replay="all")
    assert report.checks == ALL_CHECKS
    assert report.replayed == len(report.records) == len(expected_keys(board))
    assert report.meta.agent == agent


def test_the_folder_holds_the_documented_files_and_a_manifest_of_them(board_copy):
    folder = entry(board_copy())
    names = sorted(path.name for path in folder.iterdir())
    assert names == [MANIFEST_NAME, "env_lock.json", "episodes.jsonl", "submission.yaml"]
    listed = read_manifest(folder, 1 << 20)
    assert sorted(str(path) for path in listed) == names[1:]
    lock = json.loads((folder / "env_lock.json").read_text())
    assert {env["id"] for env in lock["envs"]} == {"envsuite/Bandit-v0", "envsuite/Experts-v0"}
    meta = SubmissionMeta.model_validate(yaml.safe_load((folder / "submission.yaml").read_text()))
    assert meta.attempts_k == 2 and meta.date == DAY and meta.authors == ["Tester"]
    assert folder.name == "20261201_random"


def test_recomputed_metrics_are_the_metrics_modules_numbers(board_copy):
    board = board_copy()
    report = verify_submission(entry(board, "oracle"), replay="none")
    records = report.records
    matrix, _ = score_matrix(records, "success")
    expected = stratified_bootstrap_interval(matrix, aggregate_mean, seed=0)
    assert report.results["success_rate"] == expected
    assert report.results["pass@2"] == pass_at_k_from_records(records, 2, seed=0).pass_at_k
    assert set(report.results) == {"success_rate", "mean_return", "regret", "pass@2"}
    # submit stores the recomputed numbers as the claims, so they verify
    assert report.meta.claimed == {name: v.estimate for name, v in report.results.items()}


def test_submit_keeps_only_the_boards_episodes_of_a_larger_run(board_copy, runs_dir, tmp_path):
    board = board_copy()
    shutil.rmtree(entry(board, "random"))  # the same run may not be entered twice
    run = tmp_path / "run"
    run.mkdir()
    source = runs_dir / "mini-bandit-random"
    (run / "run.json").write_text((source / "run.json").read_text())
    records = read_records(source / "episodes.jsonl")
    extra = records[0].model_copy(update={"seed": 77})
    write_records(run / "episodes.jsonl", [extra, *reversed(records)])
    folder = make_submission(board, run, name="Bigger run", authors=["A"], leakage="x", date=DAY)
    report = verify_submission(folder, replay="none")
    assert [r.key for r in report.records] == expected_keys(board)


def test_submit_refuses_a_run_missing_episodes_of_the_board(board_copy, runs_dir, tmp_path):
    board = board_copy()
    run = tmp_path / "run"
    run.mkdir()
    source = runs_dir / "mini-bandit-random"
    (run / "run.json").write_text((source / "run.json").read_text())
    write_records(run / "episodes.jsonl", read_records(source / "episodes.jsonl")[:-1])
    with pytest.raises(CompletenessError, match=r"1 episode.*missing.*envsuite eval"):
        make_submission(board, run, name="short", authors=["A"], leakage="x", date=DAY)


def test_submit_refuses_an_existing_folder_and_a_non_run(board_copy, runs_dir, tmp_path):
    board = board_copy()
    with pytest.raises(SchemaError, match=r"exists already"):
        make_submission(
            board,
            runs_dir / "mini-bandit-random",
            name="random",
            authors=["A"],
            leakage="x",
            date=DAY,
        )
    with pytest.raises(SchemaError, match=r"not a run directory"):
        make_submission(board, tmp_path, name="x", authors=["A"], leakage="x", date=DAY)
