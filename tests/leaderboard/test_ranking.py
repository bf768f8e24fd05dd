"""Ranking: paired intervals, rank intervals, tied entries shown as tied, Bradley–Terry ratings."""

from __future__ import annotations

import dataclasses
import shutil

import numpy as np
import pytest

from envsuite.evaluation.metrics import stratified_bootstrap_interval
from envsuite.evaluation.metrics.aggregates import aggregate_mean
from envsuite.evaluation.metrics.bootstrap import percentile_interval
from envsuite.leaderboard.board import load_board_version
from envsuite.leaderboard.layout import list_submissions
from envsuite.leaderboard.manifest import write_manifest
from envsuite.leaderboard.ranking import paired_replicates, pairwise_matches, tied_ranks
from envsuite.leaderboard.render_markdown import standings_table
from envsuite.leaderboard.standings import board_standings, rank_reports
from envsuite.leaderboard.verify import verify_submission
from envsuite.records import read_records, write_records
from tests.leaderboard.helpers import entry, rewrite_records, rewrite_yaml


def test_paired_replicates_are_the_libraries_stratified_bootstrap_for_each_entry():
    rng = np.random.default_rng(3)
    matrices = [rng.random((6, 4)), rng.random((6, 4)) + 0.2, (rng.random((6, 4)) > 0.5) * 1.0]
    replicates = paired_replicates(matrices, aggregate_mean, reps=300, seed=11)
    for column, matrix in enumerate(matrices):
        expected = stratified_bootstrap_interval(matrix, aggregate_mean, reps=300, seed=11)
        assert percentile_interval(replicates[:, column]) == (expected.low, expected.high)


def test_paired_replicates_resample_the_same_problems_for_every_entry():
    base = np.arange(24, dtype=float).reshape(6, 4)
    replicates = paired_replicates([base, base + 1.0], aggregate_mean, reps=200, seed=0)
    # entry 2 is entry 1 plus one on every problem, so every paired replicate differs by one
    assert np.allclose(replicates[:, 1] - replicates[:, 0], 1.0)


def test_entries_with_different_problems_cannot_be_paired():
    with pytest.raises(ValueError, match="different problems"):
        paired_replicates([np.zeros((3, 2)), np.zeros((4, 2))], aggregate_mean, reps=100, seed=0)


def test_overlapping_rank_intervals_share_a_rank():
    estimates = {"a": 0.9, "b": 0.85, "c": 0.5, "d": 0.1}
    bounds = {"a": (1, 2), "b": (1, 2), "c": (3, 3), "d": (4, 4)}
    assert tied_ranks(estimates, bounds, True) == {
        "a": (1, True),
        "b": (1, True),
        "c": (3, False),
        "d": (4, False),
    }


def test_lower_is_better_metrics_rank_the_smallest_first():
    estimates = {"low": 1.0, "high": 9.0}
    assert tied_ranks(estimates, {"low": (1, 1), "high": (2, 2)}, False) == {
        "low": (1, False),
        "high": (2, False),
    }


def test_matches_count_wins_losses_and_ties_per_problem():
    values = {"a": np.array([1.0, 2.0, 3.0]), "b": np.array([1.0, 3.0, 2.0])}
    assert pairwise_matches(values, True) == [("a", "b", 0.5), ("a", "b", 0.0), ("a", "b", 1.0)]
    assert pairwise_matches(values, False)[1] == ("a", "b", 1.0)


def test_a_clearly_better_entry_ranks_alone_on_a_real_board(board_copy):
    standings = board_standings(board_copy().path)
    assert [(row.report.meta.name, row.rank, row.tied) for row in standings.rows] == [
        ("oracle", 1, False),
        ("random", 2, False),
    ]
    assert standings.rows[0].rank_interval == (1, 1)
    assert all(row.rating is None for row in standings.rows)  # single-agent: no ratings


def test_identical_entries_are_shown_as_tied(board_copy):
    # A board refuses a second submission of the same run (see test_duplicates), so the
    # twin is ranked from a copy of the verified report under another name.
    board = board_copy()
    reports = [
        verify_submission(entry(board, name), replay="none") for name in ("oracle", "random")
    ]
    twin = dataclasses.replace(
        reports[1],
        path=reports[1].path.with_name("20261201_random-twin"),
        meta=reports[1].meta.model_copy(update={"name": "random twin"}),
    )
    standings = rank_reports(load_board_version(board.path), [*reports, twin])
    ranks = {row.report.meta.name: (row.rank, row.tied) for row in standings.rows}
    assert ranks == {"oracle": (1, False), "random": (2, True), "random twin": (2, True)}


def test_a_barely_different_entry_is_tied_with_the_one_it_resembles(board_copy):
    board = board_copy()
    near = entry(board, "random").with_name("20261201_random-near")
    shutil.copytree(entry(board, "random"), near)
    records = read_records(near / "episodes.jsonl")
    flip = next(i for i, r in enumerate(records) if r.success is False)
    records[flip] = records[flip].model_copy(update={"success": True})
    write_records(near / "episodes.jsonl", records)
    write_manifest(near, 1 << 26)
    rewrite_yaml(near, "submission.yaml", lambda d: d.update(name="near", claimed={}))
    rows = {row.report.meta.name: row for row in board_standings(board.path).rows}
    assert rows["near"].score.estimate > rows["random"].score.estimate
    assert rows["near"].tied and rows["random"].tied and rows["near"].rank == rows["random"].rank


def test_multi_agent_boards_show_bradley_terry_ratings_with_intervals(board_copy):
    standings = board_standings(board_copy("mini-games").path)
    rows = {row.report.meta.name: row for row in standings.rows}
    assert set(rows) == {"oracle", "random", "tit-for-tat"}
    for row in rows.values():
        assert row.rating is not None and row.rating.low <= row.rating.estimate <= row.rating.high
        assert row.rating_ranks is not None
    assert rows["oracle"].rating.estimate > rows["random"].rating.estimate
    assert standings.rows[0].report.meta.name == "oracle"  # lowest regret ranks first


def test_standings_are_deterministic(board_copy):
    first = board_standings(board_copy("mini-games").path)
    second = board_standings(first.board.path)
    assert [(r.entry, r.score, r.rating, r.rank_interval) for r in first.rows] == [
        (r.entry, r.score, r.rating, r.rank_interval) for r in second.rows
    ]


def _shown(standings):
    return [
        (r.entry, r.report.results, r.rating, r.rank, r.tied, r.rank_interval)
        for r in standings.rows
    ] + [(r.rating_ranks, r.per_task) for r in standings.rows]


@pytest.mark.parametrize("board_name", ["mini-bandit", "mini-games"])
def test_standings_ignore_the_order_of_records(board_copy, board_name):
    # a submission's records arrive in whatever order its executor wrote them
    board = board_copy(board_name)
    expected = board_standings(board.path)
    for shuffle in range(3):
        for folder in list_submissions(board.path):
            rewrite_records(
                folder,
                lambda records, k=shuffle: [
                    records[i] for i in np.random.default_rng(k).permutation(len(records))
                ],
            )
        reordered = board_standings(board.path)
        assert _shown(reordered) == _shown(expected)
        assert standings_table(reordered) == standings_table(expected)
