"""Every committed board and submission verifies, and the committed READMEs are up to date.

This is how ``.ci/run`` (which runs pytest) verifies the committed submissions; replays use
each board's own sample size (``replay.per_env`` in its board.yaml), which keeps this fast.
The tests run once per board (``-k text-worlds`` checks one), each board verified once.
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
BOARDS = list_boards(ROOT)
#: Boards that were published: each must stay published and frozen.
PUBLISHED = (
    "decision-regret",
    "decision-games",
    "sat-curriculum",
    "sat-interactive",
    "text-puzzles",
    "text-worlds",
    "text-games-2p",
    "social-deduction",
    "gui",
)


@pytest.fixture(scope="module", params=BOARDS)
def outcomes(request):
    board = request.param
    found = verify_tree(ROOT, boards={board})
    missing = [o for o in found if o.error is not None and "MissingExtraError" in str(o.error)]
    if missing and os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
        pytest.skip(f"board {board} needs an extra that is not installed: {missing[0].error}")
    assert found and all(o.path.is_relative_to(ROOT / board) for o in found)
    return board, found


def test_the_published_boards_are_committed():
    assert set(PUBLISHED) <= set(BOARDS)


def test_every_committed_board_has_random_and_oracle_baselines(outcomes):
    _, found = outcomes
    agents = {o.report.meta.agent for o in found if o.report is not None}
    assert {"random", "oracle"} <= agents


def test_every_committed_submission_verifies(outcomes):
    _, found = outcomes
    failures = [f"{o.path}: ({o.error.check}) {o.error}" for o in found if o.error is not None]
    assert not failures, "\n".join(failures)
    replayed = [o for o in found if o.report is not None and o.superseded is None]
    assert all(o.report.replayed > 0 for o in replayed)


def test_the_published_boards_are_frozen(outcomes):
    name, found = outcomes
    if name not in PUBLISHED:
        pytest.skip(f"{name} is a draft")
    boards = [o.report.board for o in found if o.report is not None]
    assert boards and all(b.frozen and b.settings.published is not None for b in boards)


def test_committed_readmes_show_the_current_standings(outcomes):
    name, found = outcomes
    by_version: dict = {}
    for outcome in found:
        assert outcome.report is not None
        board = outcome.report.board
        by_version.setdefault(board.version, (board, []))[1].append(outcome.report)
    versions = [rank_reports(board, reports) for _, (board, reports) in sorted(by_version.items())]
    readme = (ROOT / name / README_FILE).read_text(encoding="utf-8")
    assert board_readme_block(versions) in readme, f"run `envsuite leaderboard render` ({name})"


def test_the_committed_submission_schema_is_generated_from_the_model():
    committed = (ROOT / "submission.schema.json").read_text(encoding="utf-8")
    assert committed == submission_json_schema(), "run `envsuite leaderboard schema --out ...`"


def test_the_two_player_board_rates_its_baselines_against_a_frozen_panel(outcomes):
    name, found = outcomes
    if name != "text-games-2p":
        pytest.skip("about the text-games-2p board")
    reports = {o.report.meta.agent: o.report for o in found if o.report is not None}
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


def test_the_social_board_scores_its_baselines_in_duplicate_against_a_frozen_panel(outcomes):
    name, found = outcomes
    if name != "social-deduction":
        pytest.skip("about the social-deduction board")
    reports = {o.report.meta.agent: o.report for o in found if o.report is not None}
    assert set(reports) == {"random", "oracle"}
    board = reports["oracle"].board
    assert board.frozen and board.panel
    assert len({record.env_id for record in board.panel_records}) == 4
    oracle, random = reports["oracle"].results, reports["random"].results
    assert oracle["bradley_terry"].low > random["bradley_terry"].high
    # Each entry plays as well as the panel bot it copies in that bot's own field (0.5 in
    # expectation), and the belief bots beat random play in either field.
    assert oracle["duplicate:oracle"].low < 0.5 < oracle["duplicate:oracle"].high
    assert random["duplicate:random"].low < 0.5 < random["duplicate:random"].high
    assert oracle["duplicate:random"].estimate > random["duplicate:random"].estimate
    assert oracle["duplicate:oracle"].estimate > random["duplicate:oracle"].estimate
    assert all(r.panel_replayed > 0 for r in reports.values())
