"""Every committed board and submission verifies, and the committed READMEs are up to date.

This is how ``.ci/run`` (which runs pytest) verifies the committed submissions; replays use
each board's own sample size (``replay.per_env`` in its board.yaml), which keeps this fast.
"""

from __future__ import annotations

import os

import pytest

from envsuite.leaderboard.layout import README_FILE, leaderboards_root, list_boards
from envsuite.leaderboard.render_markdown import board_readme_block
from envsuite.leaderboard.standings import rank_reports
from envsuite.leaderboard.submission import submission_json_schema
from envsuite.leaderboard.verify_tree import verify_tree

ROOT = leaderboards_root()


@pytest.fixture(scope="module")
def outcomes():
    found = verify_tree(ROOT)
    missing = [o for o in found if o.error is not None and "MissingExtraError" in str(o.error)]
    if missing and os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
        pytest.skip(f"a board needs an extra that is not installed: {missing[0].error}")
    return found


def test_there_are_committed_boards_with_baselines(outcomes):
    assert {"decision-regret", "decision-games"} <= set(list_boards(ROOT))
    agents = {o.report.meta.agent for o in outcomes if o.report is not None}
    assert {"random", "oracle"} <= agents


def test_every_committed_submission_verifies(outcomes):
    failures = [f"{o.path}: ({o.error.check}) {o.error}" for o in outcomes if o.error is not None]
    assert not failures, "\n".join(failures)
    replayed = [o for o in outcomes if o.report is not None and o.superseded is None]
    assert all(o.report.replayed > 0 for o in replayed)


def test_the_decision_boards_are_published_and_frozen(outcomes):
    boards = {o.report.board.name: o.report.board for o in outcomes if o.report is not None}
    for name in ("decision-regret", "decision-games"):
        assert boards[name].frozen and boards[name].settings.published is not None


def test_committed_readmes_show_the_current_standings(outcomes):
    by_version: dict = {}
    for outcome in outcomes:
        assert outcome.report is not None
        board = outcome.report.board
        by_version.setdefault((board.name, board.version), (board, []))[1].append(outcome.report)
    for name in list_boards(ROOT):
        versions = [
            rank_reports(board, reports)
            for (board_name, _), (board, reports) in sorted(by_version.items())
            if board_name == name
        ]
        readme = (ROOT / name / README_FILE).read_text(encoding="utf-8")
        assert board_readme_block(versions) in readme, f"run `envsuite leaderboard render` ({name})"


def test_the_committed_submission_schema_is_generated_from_the_model():
    committed = (ROOT / "submission.schema.json").read_text(encoding="utf-8")
    assert committed == submission_json_schema(), "run `envsuite leaderboard schema --out ...`"


def test_the_two_player_board_rates_its_baselines_against_a_frozen_panel(outcomes):
    reports = {
        o.report.meta.agent: o.report
        for o in outcomes
        if o.report is not None and o.report.board.name == "text-games-2p"
    }
    assert set(reports) == {"random", "oracle", "envsuite.leaderboard.baseline_agents:HalfOracle"}
    board = reports["oracle"].board
    assert (
        board.frozen and board.panel and "panel.jsonl" in (board.path / "FROZEN.sha256").read_text()
    )
    rating = {agent: report.results["bradley_terry"].estimate for agent, report in reports.items()}
    assert (
        rating["oracle"]
        > rating["envsuite.leaderboard.baseline_agents:HalfOracle"]
        > rating["random"]
    )
    kuhn = {a: r.results["exploitability:KuhnPoker-v0"].estimate for a, r in reports.items()}
    assert kuhn["oracle"] < kuhn["random"]
    assert all(r.panel_replayed > 0 for r in reports.values())
