"""One entry of a panel board: its rating, anchoring, decoding, exploitability and tampering."""

from __future__ import annotations

import math

import pytest

from envsuite.agents.lineup import parse_lineup
from envsuite.evaluation.metrics.anchored_rating import anchored_strength
from envsuite.evaluation.metrics.ratings import ELO_SCALE
from envsuite.leaderboard.board import load_board_version
from envsuite.leaderboard.errors import (
    ConsistencyError,
    MetricMismatchError,
    TraceReplayError,
)
from envsuite.leaderboard.panel import panel_strengths
from envsuite.leaderboard.panel_metrics import (
    RATING,
    entry_agent,
    panel_board_metrics,
)
from envsuite.leaderboard.render_markdown import version_section
from envsuite.leaderboard.standings import board_standings
from envsuite.leaderboard.verify import recompute, verify_submission
from envsuite.records import read_records
from tests.leaderboard.helpers import entry, reclaim, rewrite_records, rewrite_yaml, submit

POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def _by_hand(board, records):
    """The entry's rating from first principles: seats from the attempt, points per opponent."""
    opponents = board.protocol.opponents
    points = dict.fromkeys(opponents, 0.0)
    games = dict.fromkeys(opponents, 0)
    for record in records:
        play = record.attempt // board.protocol.attempts
        opponent, seat = opponents[play // 2], f"player_{play % 2}"
        points[opponent] += POINTS[str(record.agents[seat].outcome)]
        games[opponent] += 1
    panel = panel_strengths(board.panel_records, board.protocol)
    theta = anchored_strength(
        [points[o] for o in opponents],
        [games[o] for o in opponents],
        [panel[o] for o in opponents],
        centre=sum(panel.values()) / len(panel),
    )
    return 1000.0 + ELO_SCALE * (theta - panel[opponents[0]])


def test_the_rating_is_recomputed_from_the_records(panel_copy):
    for slug in ("random", "oracle"):
        records = read_records(entry(panel_copy, slug) / "episodes.jsonl")
        rating = recompute(panel_copy, records)[RATING]
        assert rating.estimate == pytest.approx(_by_hand(panel_copy, records), abs=1e-9)
        assert rating.low <= rating.estimate <= rating.high


def test_an_entry_named_like_a_panel_opponent_is_told_apart_by_its_seat(panel_copy):
    records = read_records(entry(panel_copy, "random") / "episodes.jsonl")
    assert entry_agent(panel_copy.protocol, records, "here") == "random"
    # the entry plays 'random' against the panel's random too: both names are in the lineup
    lineups = {parse_lineup(r.agent_id)["player_0"] for r in records if r.attempt == 0}
    assert lineups == {"random"}
    assert {r.agent_id for r in records if r.attempt == 1} == {
        "player_0=panel:random,player_1=random"
    }


def test_adding_an_entry_moves_no_other_rating(panel_copy, tmp_path):
    before = {row.entry: row.score for row in board_standings(panel_copy.path).rows}
    submit(panel_copy, tmp_path / "runs", "envsuite.leaderboard.baseline_agents:HalfOracle", "half")
    after = {row.entry: row.score for row in board_standings(panel_copy.path).rows}
    assert len(after) == 3
    assert {name: after[name] for name in before} == before


def test_the_rating_orders_oracle_above_random(panel_root):
    standings = board_standings(panel_root / "mini-2p" / "v1")
    assert [row.report.meta.agent for row in standings.rows] == ["oracle", "random"]
    assert standings.panel is not None
    assert standings.panel.ratings["random"].estimate == 1000.0


def test_exploitability_columns_are_for_the_poker_env_only(panel_copy):
    metrics = panel_board_metrics(panel_copy.protocol)
    assert "exploitability:KuhnPoker-v0" in metrics
    assert "unvisited:KuhnPoker-v0" in metrics
    assert not [m for m in metrics if "ConnectFour" in m]
    report = verify_submission(entry(panel_copy, "oracle"), replay="none")
    assert list(report.results) == metrics
    unvisited = report.results["unvisited:KuhnPoker-v0"]
    assert unvisited.low == unvisited.estimate == unvisited.high
    assert float(unvisited.estimate).is_integer()


def test_a_board_without_poker_shows_no_exploitability(panel_copy):
    protocol = panel_copy.protocol.model_copy(update={"envs": panel_copy.protocol.envs[1:]})
    assert not [m for m in panel_board_metrics(protocol) if m.startswith("exploitability")]


def test_the_rendered_section_shows_the_panel_and_the_exploitability(panel_root):
    section = version_section(board_standings(panel_root / "mini-2p" / "v1"), "v1/")
    assert "KuhnPoker-v0 exploitability" in section
    assert "| `random` | 1000.0 [1000.0, 1000.0] |" in section
    assert "ConnectFour-v0 exploitability" not in section


@pytest.mark.parametrize("metric", [RATING, "exploitability:KuhnPoker-v0", "win_rate"])
def test_a_forged_claim_is_refused(panel_copy, metric):
    folder = entry(panel_copy, "random")
    rewrite_yaml(folder, "submission.yaml", lambda d: d["claimed"].update({metric: 1234.5}))
    with pytest.raises(MetricMismatchError, match=metric):
        verify_submission(folder, replay="none")


def test_a_game_relabelled_to_another_opponent_is_refused(panel_copy):
    folder = entry(panel_copy, "random")

    def relabel(records):
        data = records[0].model_dump()  # play 0: random against panel:random
        data["agent_id"] = "player_0=random,player_1=panel:oracle"
        return [type(records[0]).model_validate(data), *records[1:]]

    rewrite_records(folder, relabel)
    with pytest.raises(ConsistencyError, match="panel:random"):
        verify_submission(folder, replay="none")


def test_a_forged_panel_move_is_refused_by_the_replay(panel_copy):
    """A game against the oracle whose trace is really a game against random (same seat)."""
    folder = entry(panel_copy, "random")
    records = read_records(folder / "episodes.jsonl")
    by_key = {(r.env_id, r.seed, r.attempt): r for r in records}
    forged = None
    for record in records:
        # Connect Four: the exact solver answers few move sequences as random does
        if record.attempt == 0 and "ConnectFour" in record.env_id:
            target = by_key[(record.env_id, record.seed, 2)]  # seat 0 against panel:oracle
            if target.trace != record.trace:
                forged = (record, target)
                break
    assert forged is not None
    source, target = forged
    data = source.model_dump()
    data.update(attempt=target.attempt, agent_id=target.agent_id)
    changed = [type(source).model_validate(data) if r is target else r for r in records]
    rewrite_records(folder, lambda _: changed)
    reclaim(panel_copy, folder)
    with pytest.raises(TraceReplayError, match="the replay sent"):
        verify_submission(folder, replay="all")


def test_claims_made_by_submit_match_the_recomputation(panel_root):
    board = load_board_version(panel_root / "mini-2p" / "v1")
    report = verify_submission(entry(board, "oracle"), replay="none")
    assert set(report.meta.claimed) == set(report.results)
    for metric, claimed in report.meta.claimed.items():
        assert math.isclose(claimed, report.results[metric].estimate, abs_tol=1e-9)
